/*
 * proxy-pair.h: what the forwarding engine (proxy-pair.c) and its
 * transports share, and nothing else in proxy/ uses (the rest sees
 * proxy_pair_new() and proxy_pair_close() in proxy-int.h).
 *
 * A transport carries the bytes of both directions between QEMU's end
 * (always a plain unix socket) and the network end, as QEMU's
 * multifd-zlib.c registers its ops into multifd.c: the engine decides
 * when to read, write and end a direction; the transport decides how.
 * Two transports: plain (proxy-pair-plain.c: linear buffers, the network
 * end straight or through OpenSSL) and TLS records (proxy-pair-record.c:
 * sealed and opened in place).  The ends' I/O and failures are in
 * proxy-pair-end.c, below all three.
 */
#ifndef PROXY_PAIR_H
#define PROXY_PAIR_H

#include <sys/uio.h>

#include "proxy-int.h"

enum { END_QEMU = 0, END_NET = 1 };
enum io_result { IO_BLOCKED, IO_PROGRESS, IO_EOF, IO_ERROR };

struct pair_end {
	struct proxy_pair	*pair;
	const char		*what;	/* "qemu" or "peer", for reasons */
	int			 fd;
	SSL			*ssl;	/* OpenSSL carries the records */
	ev_io			 io;
	int			 io_events;
	int			 readable;	/* a read may move bytes */
	int			 writable;	/* a write may move bytes */
	int			 rd_ev;		/* what a blocked read awaits */
	int			 wr_ev;
	int			 rd_eof;	/* no more bytes will come */
	int			 wr_shut;	/* our EOF sent (or queued) */
	int			 shut_pending;	/* SSL_shutdown to retry */
};

/*
 * How a pair's bytes move.  Direction i carries what is read from end[i]
 * to end[!i].  Every function runs inside the engine's pump; one that
 * fails calls proxy_pair_fail() (or a sibling) and returns IO_ERROR.
 */
struct pair_transport {
	/* Reads from end[i] into direction i until full or it would block. */
	enum io_result	(*fill)(struct proxy_pair *, int i);
	/* Writes direction i to end[!i] until empty or it would block. */
	enum io_result	(*drain)(struct proxy_pair *, int i);
	/* Non-zero while direction i holds bytes (or an EOF) for end[!i]. */
	int		(*pending)(struct proxy_pair *, int i);
	/* Non-zero while direction i has room to read more from end[i]. */
	int		(*room)(struct proxy_pair *, int i);
	/*
	 * Non-zero while direction i holds bytes read but not yet made
	 * ready (records cut by a read): a fill may progress without a read.
	 */
	int		(*buffered)(struct proxy_pair *, int i);
	/*
	 * Forwards end of stream to end[i] (the direction towards it is
	 * empty): IO_PROGRESS, IO_BLOCKED (retried on readiness), IO_ERROR.
	 */
	enum io_result	(*shutdown)(struct proxy_pair *, int i);
	/* Frees the transport's state (and any SSL it holds). */
	void		(*free)(struct proxy_pair *);
};

struct proxy_pair {
	struct ev_loop		*loop;
	char			*name;
	struct pair_end		 end[2];
	const struct pair_transport *tp;
	void			*tp_state;	/* the transport's own */
	size_t			 cap;		/* bytes per direction */
	uint64_t		 total[2];	/* content bytes read, per end */
	uint64_t		*stat[2];	/* q2n, n2q */
	ev_timer		 idle;
	double			 idle_timeout;
	double			 started;
	proxy_pair_done_cb	 done;
	void			*done_arg;
	int			 in_pump;
	int			 closing;
	char			*close_reason;
};

/* proxy-pair-end.c: the ends' I/O and the pair's failures */
/*
 * Marks the pair closing with the reason "OP WHAT: WHY" (the first reason
 * wins); the engine tears it down when its pump returns.
 */
void	 proxy_pair_fail(struct proxy_pair *, struct pair_end *,
	    const char *op, const char *why);
void	 proxy_pair_fail_errno(struct proxy_pair *, struct pair_end *,
	    const char *op, int err);
void	 proxy_pair_fail_ssl(struct proxy_pair *, struct pair_end *,
	    const char *op, int ret, int err);
/*
 * readv() from e: the bytes read, 0 at its end, -1 when it has nothing
 * (e->readable cleared), -2 after proxy_pair_fail.  Fewer bytes than asked mean
 * the socket is drained: the next read waits for the loop.
 */
ssize_t	 proxy_pair_end_readv(struct proxy_pair *, struct pair_end *,
	    struct iovec *, int cnt, size_t want);
/* writev() to e, as proxy_pair_end_readv(); never raises SIGPIPE. */
ssize_t	 proxy_pair_end_writev(struct proxy_pair *, struct pair_end *,
	    struct iovec *, int cnt, size_t want);
/* shutdown(SHUT_WR) of e's socket: IO_PROGRESS or IO_ERROR. */
enum io_result proxy_pair_end_shutdown(struct proxy_pair *, struct pair_end *);
/*
 * Adds n to a side's byte counter (NULL: none): pairs on other worker
 * loops add to the same counter, the side's loop reads it.
 */
static inline void
proxy_pair_count(uint64_t *stat, uint64_t n)
{
	if (stat != NULL && n > 0)
		__atomic_fetch_add(stat, n, __ATOMIC_RELAXED);
}

/* proxy-pair-plain.c */
/*
 * Linear buffers of p->cap bytes; the network end goes through nssl
 * (owned from now on) when it is not NULL, else straight (tcp:).
 */
void	 proxy_pair_plain_start(struct proxy_pair *, SSL *nssl);

/* proxy-pair-record.c */
/*
 * The records of nssl's connection sealed and opened in place, when
 * proxy-record.c can carry them (TLS 1.3, AES-GCM, nothing left in
 * OpenSSL's buffers): returns 0 and frees nssl.  Otherwise -1 with *why,
 * nssl untouched.
 */
int	 proxy_pair_record_start(struct proxy_pair *, SSL *nssl,
	    int sent_header, char **why);

#endif
