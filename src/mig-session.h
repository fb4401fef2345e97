/*
 * mig-session.h: one migration, as a state machine with no I/O.
 *
 * The executor (mig-watch.c with mig-source.c or mig-target.c) decodes what
 * happens (QEMU's samples and answers, control messages, signals, timers,
 * the deadline) into a struct sess_event, calls session_step(), and carries
 * out the actions it returns, in order.  The step function reads no JSON,
 * sends nothing and runs no event loop; it changes the status document
 * through status.c's setters, whose publication the executor holds until
 * the step is over.  Source and target are two transition tables over the
 * same states (mig-session.c).  tests/unit/test-session.c drives it through
 * the failure table of README.md and through traces of real runs.
 */
#ifndef MIG_SESSION_H
#define MIG_SESSION_H

#include "qmigrate.h"
#include "ctl.h"
#include "mig-control.h"
#include "mig-info.h"

enum sess_role { SESS_SOURCE, SESS_TARGET };

enum sess_state {
	SS_SETUP,	/* pre-flight, slot, plan: the executor's setup */
	SS_OFFER,	/* tls: source waits for ready; target for the offer */
	SS_MIRROR,	/* source: disks copy, memory waits */
	SS_LISTEN,	/* target: QEMU listens, no stream yet */
	SS_PRECOPY,
	SS_POSTCOPY,
	SS_RECOVER,	/* post-copy broke: being resumed */
	SS_CANCELLING,	/* source: migrate_cancel sent */
	SS_CONFIRM,	/* source: QEMU completed, asking the target */
	SS_ENDING,	/* target: outcome known, answering the source */
	SS_DONE,
};

/* How the source's setup ended (SEV_SETUP_DONE). */
enum sess_setup {
	SETUP_FAILED,		/* failure and reason in the event */
	SETUP_FRESH,		/* a new migration: offer or migrate next */
	SETUP_REATTACH,		/* QEMU is already migrating: watch it */
	SETUP_ALREADY_DONE,	/* QEMU completed it before we came */
};

/* QMP commands the session asks for. */
enum sess_cmd {
	SC_MIGRATE,
	SC_MIGRATE_RESUME,
	SC_MIGRATE_RECOVER,	/* target */
	SC_CANCEL,
	SC_CONT,
	SC_STOP,
	SC_START_POSTCOPY,
	SC_SET_DOWNTIME,	/* value: ms */
	SC_AUTO_CONVERGE,	/* value: initial %, value2: increment % */
};

/* Work the executor does with QEMU on the session's behalf. */
enum sess_job {
	SJ_START_MIRRORS,	/* source: the disks' mirror jobs */
	SJ_PREPARE_TARGET,	/* target: plan, exports, migrate-incoming */
};

enum sess_timer {
	STIMER_REPOLL,		/* query-migrate again soon */
	STIMER_CONFIRM,		/* source: the target's word is late */
	STIMER_END,		/* target: finish (an answer had time) */
	STIMER_CUT,		/* target: the source did not cancel */
	STIMER_COUNT,
};

enum sess_disks {
	DISKS_NONE,		/* no disks copied */
	DISKS_SYNCING,
	DISKS_READY,		/* every mirror in sync */
	DISKS_FAILED,
};

enum sess_ev_kind {
	SEV_SETUP_DONE,		/* source: setup; target: checked (unix) */
	SEV_JOB_DONE,
	SEV_QMP_DONE,		/* a command of ours was answered */
	SEV_SAMPLE,		/* query-migrate */
	SEV_RUN_STATE,		/* query-status */
	SEV_RESUMED,		/* QEMU's RESUME event */
	SEV_QMP_CLOSED,
	SEV_CONTROL,		/* target: a message from the source */
	SEV_ANSWER,		/* source: the target's answer */
	SEV_CONTROL_LOST,	/* the control connection ended */
	SEV_SIGNAL,
	SEV_DEADLINE,
	SEV_TIMER,
};

struct sess_event {
	enum sess_ev_kind	 kind;
	double			 t;	/* the executor's clock, seconds */
	int			 ok;	/* SETUP/JOB/QMP_DONE */
	enum mig_failure	 fail;	/* SETUP_FAILED, a failed job */
	const char		*reason;
	enum sess_setup		 setup;
	enum mig_mode		 mode;	/* REATTACH: as the status file had it */
	enum sess_job		 job;
	enum sess_cmd		 cmd;
	const struct mig_info	*mi;	/* SAMPLE */
	enum sess_disks		 disks;	/* SAMPLE: the mirrors' state */
	int			 disks_released; /* SAMPLE, target */
	const struct run_info	*ri;	/* RUN_STATE */
	const struct control_msg *msg;	/* CONTROL */
	enum control_type	 question; /* ANSWER: what was asked */
	enum control_answer	 answer;
	int			 signum;
	enum sess_timer		 timer;
};

enum sess_act_kind {
	SA_QMP,			/* cmd, value, value2 */
	SA_POLL,		/* query-migrate now */
	SA_QUERY_STATUS,
	SA_JOB,
	SA_ASK,			/* source: a question (type, reason) */
	SA_ANSWER,		/* target: answer (answer, reason) */
	SA_TIMER,		/* arm timer after seconds */
	SA_CUT,			/* target: close the proxy, stream and all */
	SA_UNLISTEN,		/* target: remove QEMU's unix socket path */
	SA_FINISH,		/* the session is over: leave the loop */
};

#define SESS_REASON_MAX	320

struct sess_action {
	enum sess_act_kind	 kind;
	enum sess_cmd		 cmd;
	uint64_t		 value;
	int			 value2;
	enum sess_job		 job;
	enum control_type	 question;
	enum control_answer	 answer;
	enum sess_timer		 timer;
	double			 seconds;
	char			 reason[SESS_REASON_MAX];
};

/* What the session is given when it starts; fixed for its life. */
struct sess_config {
	enum sess_role	 role;
	int		 tls;		/* a control channel to the peer */
	int		 disks;		/* source: mirrors before memory */
	double		 timeout;	/* --timeout, for messages; 0: none */
	double		 recover_timeout;
	double		 stall_timeout;	/* progressTimeout: 0 never */
	double		 mirror_timeout; /* 0: none */
	int		 keep_paused;	/* target */
	int		 unix_listen;	/* target: QEMU listens on a unix path */
	int		 qemu_major;	/* target: its own QEMU */
	int		 qemu_minor;
	int		 qemu_micro;
	const char	*peer;		/* the URI, for messages */
	const char	*qmp_path;	/* this side's QEMU, for messages */
};

#define SESS_MAX_ACTIONS	16

struct session {
	struct sess_config	 cfg;
	enum sess_state		 state;
	struct status		*st;		/* borrowed */
	struct ctl		 ctl;		/* source: the controller */

	/* source */
	int			 setup_abort;	/* asked during setup: stop it */
	char			 setup_abort_reason[SESS_REASON_MAX];
	enum mig_failure	 setup_abort_why;
	int			 setup_abort_requested;
	int			 setup_signum;	/* target: a signal in setup */
	int			 paused_by_us;	/* "stop" sent by a decision */
	int			 saw_active;
	int			 completed_polls;
	double			 t0;		/* migrate sent */
	double			 cancel_deadline;
	double			 recover_deadline; /* 0: not recovering */
	double			 last_resume_try;
	int			 resume_asked;
	int			 resume_ready;
	int			 question_out;	/* a question awaits its answer */
	uint64_t		 moved_bytes;
	double			 moved_t;	/* -1: nothing seen yet */
	double			 mirror_deadline;
	int			 need_cont;	/* run the guest here again */

	/* target */
	int			 offered;
	int			 started;	/* the stream began */
	int			 completed;	/* QEMU said completed */
	int			 resuming;	/* cont sent */
	int			 arrives_paused;
	int			 source_aborted;
	int			 recover_sent;
	int			 recover_listening;
	int			 confirm_asked;
	int			 abort_pending;	/* watch answers abort */
	int			 unlistened;	/* socket path removed */
	int			 offer_early;	/* an offer came during setup */
	struct control_msg	 early_offer;	/* ... its scalars (no disks) */
	int			 unlisten_signum;
	enum mig_phase		 end_phase;

	struct sess_action	 acts[SESS_MAX_ACTIONS];
	size_t			 nacts;
};

/* mig-session.c */
const char *session_state_name(enum sess_state);
void	 session_init(struct session *, const struct sess_config *,
	    struct status *);
/* Controller settings, before the first sample (source). */
void	 session_set_controller(struct session *, enum ctl_kind,
	    const struct ctl_config *);
void	 session_step(struct session *, const struct sess_event *);
int	 session_done(const struct session *);

#endif
