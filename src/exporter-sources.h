/*
 * exporter-sources.h: what one VM's collector (exporter-collect.c) and
 * its data sources share; nothing else uses it (the exporter sees
 * observe.h).  Each source is a file and fills the collector's snapshot:
 *
 *	exporter-qmp.c      QEMU's monitor: a persistent connection, one
 *	                    round of queries per refresh
 *	exporter-agent.c    the guest agent: a short connection per round
 *	exporter-node.c     the node: QEMU's /proc and its taps' /sys
 *	exporter-status.c   the status file of qmigrate's migration
 *
 * The collector sits on top: it starts, refreshes and frees the sources
 * and answers the exporter; the sources use only what is below them.
 */
#ifndef EXPORTER_SOURCES_H
#define EXPORTER_SOURCES_H

#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "observe.h"

#define PROC_FILE_MAX	4096	/* /proc and /sys files read here */
#define BACKOFF_MIN	0.5	/* seconds before reconnecting, at first */
#define BACKOFF_MAX	30.0

/* The QMP round: one command each; optional ones may fail quietly. */
enum cq {
	CQ_STATUS, CQ_MIGRATE, CQ_CPUS, CQ_MEMORY, CQ_BALLOON, CQ_BLOCK,
	CQ_NETWORK, CQ_DIRTY, CQ_RX_FILTER, CQ_COUNT
};
/* The agent round, after guest-sync answered. */
enum aq {
	AQ_OSINFO, AQ_HOSTNAME, AQ_BLOCK_INFO, AQ_BLOCKS, AQ_FSINFO, AQ_IFS,
	AQ_COUNT
};
enum cstate { C_DOWN, C_CONNECTING, C_UP };

struct vm_collector;

struct query_arg {
	struct vm_collector	*c;
	int			 q;
};

struct vm_collector {
	struct ev_loop			*loop;
	const struct exporter_vm_spec	*spec;
	double				 timeout;
	collector_settled_cb		 settled_cb;
	void				*settled_arg;
	int				 dying;	/* callbacks: hands off */
	double				 ticks;	/* clock ticks per second */

	enum cstate	 state;
	struct qmp_conn	*qmp;
	struct qmp_conn	*dead[2];	/* closed from outside their callbacks */
	ev_timer	 reconnect;
	ev_timer	 reap;
	double		 backoff;
	char		*error;		/* why the last connect failed */
	struct query_arg qargs[CQ_COUNT];
	int		 pending;
	int		 round_failed;
	int		 rx_dirty;	/* ask query-rx-filter next round */
	json_object	*rx_filter;	/* its last answer, owned */
	double		 last_ok;	/* monotonic end of a complete round */
	int		 qmp_settled;	/* a round (or a failure) is in */

	struct qmp_conn	*qga;
	struct query_arg aargs[AQ_COUNT];
	int		 agent_pending;	/* sync included */
	int64_t		 sync_id;
	double		 agent_deadline;
	uint64_t	 block_size;	/* this round's memory block size */
	int		 agent_settled;

	struct vm_snapshot snap;
	struct vm_snapshot round;	/* the QMP round being answered */
	int		 round_ok[CQ_COUNT];
	char		*qerr[CQ_COUNT];	/* this round's error per query */
	char		*aerr[AQ_COUNT];
	char		*agent_error;	/* why the agent is down */

	int		 status_baselined;
	char		 failed_uid[64];
	/* by role (source, target) and failure_planes */
	uint64_t	 failures[FAILURE_ROLES][FAILURE_PLANES];
	struct phase_hist phases;
	uint64_t	 disk_prev;
	double		 disk_prev_t;
	double		 disk_rate;
	int		 have_disk_rate;
};

/* Both layers are in (a round answered or failed): collector_settled(). */
static inline int
collector_both_settled(const struct vm_collector *c)
{
	return c->qmp_settled && c->agent_settled;
}

/* Tells the owner once both layers are in: what `qmigrate stats` waits
 * for.  (Here, not exporter-collect.c: the sources call it.) */
static inline void
collector_check_settled(struct vm_collector *c)
{
	if (collector_both_settled(c) && c->settled_cb != NULL)
		c->settled_cb(c, c->settled_arg);
}

/*
 * Hands conn to the reap timer: a connection is never freed from inside
 * one of its own callbacks.
 */
static inline void
collector_bury(struct vm_collector *c, struct qmp_conn *conn)
{
	if (c->dead[0] == NULL)
		c->dead[0] = conn;
	else if (c->dead[1] == NULL)
		c->dead[1] = conn;
	else
		fatalx("collector: more than two connections to reap");
	ev_timer_stop(c->loop, &c->reap);
	ev_timer_set(&c->reap, 0, 0);
	ev_timer_start(c->loop, &c->reap);
}

/* exporter-qmp.c */
/* Starts a connection to the monitor without blocking the loop. */
void	 collect_qmp_connect(struct vm_collector *);
/* Every query at once, unless the last round is still out. */
void	 collect_qmp_round(struct vm_collector *);
/* The reconnect timer's callback (c->reconnect). */
void	 collect_qmp_reconnect_cb(struct ev_loop *, ev_timer *, int);
/* This round's error of command, if it is one of QEMU's queries. */
int	 collect_qmp_error(const struct vm_collector *, const char *command,
	    const char **error);

/* exporter-agent.c */
/* Starts an agent round: guest-sync with a fresh id on a new connection. */
void	 collect_agent_round(struct vm_collector *);
/* This round's error of command, if it is one of the agent's. */
int	 collect_agent_error(const struct vm_collector *, const char *command,
	    const char **error);

/* exporter-node.c */
/* What the node knows of QEMU (pid in s): its /proc and its taps' /sys. */
void	 collect_node_read(struct vm_collector *, struct vm_snapshot *s);

/* exporter-status.c */
/* Reads the status file of a qmigrate migrate/incoming, if any. */
void	 collect_status_read(struct vm_collector *);

#endif
