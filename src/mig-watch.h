/*
 * mig-watch.h: the executor both sides of a migration run around the
 * session's step function (mig-session.h): one libev loop, the QMP
 * connection, the status document, query-migrate on a timer and on
 * MIGRATION / MIGRATION_PASS events, signals and the deadline (armed
 * before the first step), the session's timers, and the final report.
 * A side (mig-source.c, mig-target.c) embeds struct mig_watch first and
 * carries out the actions only it knows (jobs, control messages).
 */
#ifndef MIG_WATCH_H
#define MIG_WATCH_H

#include <ev.h>

#include "qmigrate.h"
#include "qmp.h"
#include "mig-job.h"
#include "mig-session.h"
#include "signals.h"
#include "switchover-request.h"

struct json_object;
struct mig_watch;

/* An event that arrived while a step ran, kept until it is over. */
struct mig_watch_queued {
	struct sess_event	ev;
	struct mig_info		mi;
	struct run_info		ri;
	struct control_msg	msg;	/* owned */
	char			reason[1024];
};

#define MIG_WATCH_QUEUE	32

struct mig_watch_timer {
	ev_timer		 timer;
	struct mig_watch	*w;
	enum sess_timer		 which;
};

struct mig_watch {
	struct ev_loop		*loop;
	struct ev_loop		*out_prev;	/* output.c's loop before */
	struct qmp_conn		*qmp;
	const struct mig_options *o;	/* the command's */
	struct mig_settings	 settings; /* the policy's for this VM */
	struct status		*st;		/* owned */
	struct session		 sess;
	char			*qemu_uri;	/* where QEMU migrates/listens */
	ev_timer		 poll;
	ev_timer		 deadline;
	struct signals_watch	 sigs;
	struct mig_watch_timer	 timers[STIMER_COUNT];
	int			 query_inflight;
	long			 queued_at_query; /* before_query's, or 0 */
	double			 query_sent;	/* the sample's "asked" */
	double			 unanswered_since; /* the oldest query-migrate
					   still owed (one that timed out or
					   went with a connection included):
					   how old the view is; 0: answered */
	/* QEMU's process, as the monitor's socket said (SO_PEERCRED), and
	 * its start time: a closed monitor whose process is gone is a QEMU
	 * that can run no guest (the target's fence). */
	pid_t			 qemu_pid;
	unsigned		 conn_count;	/* monitor connections begun */
	unsigned long long	 qemu_start;
	int			 stop;		/* the session finished */
	/* The requestId of the last `qmigrate switchover` taken, and of
	 * the one accepted: its Started comes a sample later, maybe after
	 * another request was taken (and refused). */
	char			 switchover_id[SWITCHOVER_ID_MAX];
	char			 switchover_accepted[SWITCHOVER_ID_MAX];
	struct mig_job		 job;		/* the session's SA_JOB */
	/* Blocking work to run between two loop iterations (mig_watch_run). */
	void		(*deferred)(struct mig_watch *);
	enum sess_job		 job_kind;
	int			 stepping;
	struct mig_watch_queued	 queue[MIG_WATCH_QUEUE];
	size_t			 nqueued;

	/* The side's own: fill a sample's disk fields before it is stepped
	 * (from what it already knows: no QMP command waits here). */
	void		(*before_sample)(struct mig_watch *,
			    struct sess_event *);
	/* The side's own, as each query-migrate is sent: the connections
	 * waiting in QEMU's accept queue at that moment (-1: not known),
	 * the sample's "queued"; may be NULL (0). */
	long		(*before_query)(struct mig_watch *);
	/* Any QEMU event the side wants (borrowed data); may be NULL. */
	void		(*on_event)(struct mig_watch *, const char *name,
			    struct json_object *data);
	/* SA_JOB, SA_ASK, SA_ANSWER, SA_CUT, SA_UNLISTEN. */
	void		(*execute)(struct mig_watch *,
			    const struct sess_action *);
};

void	mig_watch_init(struct mig_watch *, const char *role,
	    const struct mig_options *);
/* The policy's settings, then the transport; 0, or -1 with the error
 * logged as the command's (nothing touched: QM_EXIT_USAGE). */
int	mig_watch_begin(struct mig_watch *,
	    int (*open_tls)(struct mig_watch *, char **cause));
/* What both sides' sessions are given by the options. */
void	mig_watch_session_config(const struct mig_watch *,
	    struct sess_config *, enum sess_role, int tls);
void	mig_watch_arm(struct mig_watch *, double deadline);
/* Connecting to w->o->qmp_path without waiting (qmp_connect_start()). */
int	mig_watch_connect_start(struct mig_watch *, qmp_reply_cb ready,
	    void *arg, char **cause);
void	mig_watch_step(struct mig_watch *, const struct sess_event *);
/* Runs a session job (SA_JOB) on QMP; its end is stepped as SEV_JOB_DONE. */
void	mig_watch_job(struct mig_watch *, enum sess_job, mig_job_fn,
	    void *ctx);
/* Steps SEV_JOB_DONE for a job that needed no QEMU (ok, or reason). */
void	mig_watch_job_done(struct mig_watch *, enum sess_job, int ok,
	    const char *reason);
double	mig_watch_now(void);
/*
 * How a monitor that is there failed to serve the connection, for the
 * "not known" of a run with no record: "did not answer" (error_class
 * "Timeout"), "refused qmigrate" (refused: the connect's ECONNREFUSED),
 * or NULL for anything else (no socket, garbage, a close).
 */
const char *mig_watch_unserved(const char *error_class, int refused);
/* 1 once QEMU's process (as its monitor said) is known to have exited. */
int	mig_watch_qemu_gone(struct mig_watch *);
void	mig_watch_run(struct mig_watch *);
int	mig_watch_report(struct mig_watch *);
void	mig_watch_free(struct mig_watch *);

/*
 * mig-cpr.c: `qmigrate update`'s second monitor, the new QEMU's (it
 * appears only after the old QEMU's migrate): connected with a bound, its
 * commands and query-status, each outcome stepped as an event with
 * new_qemu set.
 */
struct mig_cpr;
struct mig_cpr *mig_cpr_new(struct mig_watch *, const char *qmp_path);
/* SA_NEW_CONNECT, and SA_QMP/SA_QUERY_STATUS with new_qemu. */
void	mig_cpr_execute(struct mig_cpr *, const struct sess_action *);
void	mig_cpr_free(struct mig_cpr *);

#endif
