/*
 * qmp-private.h: what the three files of libqmp share and nobody else sees.
 * struct qmp_conn is here rather than in qmp-conn.c because the agent's
 * framing (qmp-agent.c) works on the same input buffer and command queue;
 * outside qmp/ the type stays opaque.
 */
#ifndef QMP_PRIVATE_H
#define QMP_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include <ev.h>
#include <json-c/json.h>

#include "common.h"
#include "qmp.h"

/* Flags of one command. */
#define QMP_CMD_SYNC	0x1	/* agent: guest-sync-delimited, 0xFF first */
#define QMP_CMD_NOREPLY	0x2	/* agent: silence until the timeout is success */
#define QMP_CMD_FRONT	0x4	/* agent: queue before everything else */

/* The output queue's cap: commands are small, so this is only a backstop. */
#define QMP_MAX_OUTPUT	(16u * 1024 * 1024)
/* How many timed-out ids are remembered so their late replies are ignored. */
#define QMP_EXPIRED_IDS	64
#define QMP_READ_SIZE	65536

struct qmp_cmd {
	struct qmp_conn		*conn;
	struct qmp_cmd		*next;
	char			*name;
	char			*json;		/* agent: serialised, unsent */
	uint64_t		 id;		/* monitor: "qm-ID" */
	long long		 sync_id;	/* QMP_CMD_SYNC */
	int			 flags;
	int			 sent;
	double			 timeout;
	ev_timer		 timer;
	qmp_reply_cb		 cb;
	void			*arg;
};

struct qmp_sub {
	int			 handle;	/* 0: unsubscribed, slot free */
	char			*name;		/* NULL: every event */
	qmp_event_cb		 cb;
	void			*arg;
};

struct qmp_conn {
	struct ev_loop		*loop;
	enum qmp_proto		 proto;
	char			*peer;
	int			 fd;

	ev_io			 rio;
	ev_io			 wio;

	/* Input: one read's bytes, consumed from rpos; then the tokener. */
	char			*rbuf;
	size_t			 rpos;
	size_t			 rlen;
	struct json_tokener	*tok;
	size_t			 msg_bytes;	/* fed since the last message */
	size_t			 max_message;
	int			 discard;	/* agent: skip to the next 0xFF */

	/* Output. */
	char			*obuf;
	size_t			 ooff;
	size_t			 olen;
	size_t			 osize;
	size_t			 queued;	/* agent: unsent command bytes */

	/* Commands in the order they were sent (the agent: queued). */
	struct qmp_cmd		*head;
	struct qmp_cmd		*tail;
	uint64_t		 next_id;
	uint64_t		 expired[QMP_EXPIRED_IDS];
	size_t			 nexpired;
	int			 need_sync;	/* agent: a reply may be stale */

	struct qmp_sub		*subs;
	size_t			 nsubs;
	int			 next_handle;
	int			 dispatching;

	int			 greeted;
	int			 ver_major;
	int			 ver_minor;
	int			 ver_micro;

	qmp_close_cb		 close_cb;
	void			*close_arg;
	char			*reason;	/* set once closed */
	int			 refs;		/* callbacks in progress */
	int			 want_free;

	int			 trace_fd;	/* QMIGRATE_QMP_TRACE, or -1 */
	int			 trace_peer;	/* the peer line written */
};

/* qmp-conn.c */
char	*qmp_escape_json(struct json_object *, size_t max);

void	 qmp_end(struct qmp_conn *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
int	 qmp_output(struct qmp_conn *, const char *, size_t, char **cause);
int	 qmp_send_flags(struct qmp_conn *, const char *command,
	    struct json_object *args, double timeout, int flags,
	    qmp_reply_cb cb, void *arg, char **cause);
void	 qmp_cmd_finish(struct qmp_cmd *, struct json_object *reply,
	    const char *error_class, const char *error);
void	 qmp_cmd_reply(struct qmp_cmd *, struct json_object *);

/* qmp-trace.c: QMIGRATE_QMP_TRACE, every monitor message each way. */
void	 qmp_trace_open(struct qmp_conn *);
void	 qmp_trace(struct qmp_conn *, const char *dir, struct json_object *);
void	 qmp_trace_close(struct qmp_conn *, const char *reason);

/* qmp-agent.c: the agent's half of the framing. */
void	 qga_kick(struct qmp_conn *);
void	 qga_message(struct qmp_conn *, struct json_object *);
void	 qga_expired(struct qmp_cmd *);
long long qga_new_sync_id(void);

/* qmp-sync.c */
int	 qmp_wait_flag(struct qmp_conn *, const int *done, double timeout);
int	 qmp_call_class(struct qmp_conn *, const char *command,
	    struct json_object *args, int flags, struct json_object **reply,
	    double timeout, char **error_class, char **cause);

#endif
