/*
 * mig-session.h: one migration, as a state machine with no I/O.
 *
 * The executor (mig-watch.c with mig-source.c or mig-target.c) decodes what
 * happens (QEMU's samples and answers, control messages, signals, timers,
 * the deadline, a monitor that stops answering) into a struct sess_event,
 * calls session_step(), and carries out the actions it returns, in order.
 * The step reads no clock (time comes in the event), builds no JSON,
 * writes no file, logs nothing and never exits: what the status document
 * should say goes out as typed actions (SA_ST_*), which the executor
 * applies through status.c, and the session keeps its own copy of what it
 * decides on (phase, mode, abort status, failure).
 *
 * Source and target are two transition tables (mig-session-source.c,
 * mig-session-target.c): each state is declared once below with the events
 * it accepts, and has one handler that switches on the event (libnbd's
 * generator/states*.ml).  tests/unit/test-session.c drives it through the
 * failure table of README.md with no status file, no clock and no I/O.
 */
#ifndef MIG_SESSION_H
#define MIG_SESSION_H

#include "qmigrate.h"
#include "ctl.h"
#include "mig-control.h"
#include "mig-info.h"

enum sess_role { SESS_SOURCE, SESS_TARGET };

enum sess_state {
	/*
	 * Both sides.  SETUP: the executor's setup runs (source: what QEMU
	 * is doing, pre-flight, slot, plan; target: QEMU checked, over
	 * unix:/tcp: prepared).  Accepts SETUP_DONE, SIGNAL, DEADLINE (kept
	 * as a pending abort until the setup says what it found), CONTROL
	 * (target: an early offer, kept).
	 */
	SS_SETUP,
	/* Source over tls: the offer is out.  ANSWER(offer), CONTROL_LOST,
	 * QMP_CLOSED, SIGNAL, DEADLINE. */
	SS_OFFER,
	/* Source: the mirror jobs start.  JOB_DONE, SIGNAL, DEADLINE
	 * (pending until the job is done). */
	SS_MIRROR_START,
	/* Source: disks copy, memory waits.  SAMPLE (disks' state), ANSWER
	 * (watch), SIGNAL, DEADLINE, QMP_CLOSED, QMP_SILENT. */
	SS_MIRROR,
	/* Both: pre-copy (target: the stream began).  Source: SAMPLE,
	 * QMP_DONE, ANSWER, SIGNAL, DEADLINE, QMP_CLOSED, QMP_SILENT,
	 * STOPPED, RUN_STATE (after a reconnect: stop_unseen). */
	SS_PRECOPY,
	/* Both: post-copy; the target holds the guest.  Abort refused. */
	SS_POSTCOPY,
	/* Both: post-copy broke; being resumed until recover_timeout. */
	SS_RECOVER,
	/* Source: migrate_cancel sent; bounded by STIMER_CANCEL. */
	SS_CANCELLING,
	/* Source: QEMU did not cancel in time but still answers: watched to
	 * its real end, abortStatus Failed. */
	SS_UNCANCELLED,
	/*
	 * Source: the point of no return.  QEMU stopped the guest's vCPUs
	 * for the switchover and the device state may be on its way: status
	 * `device` or `pre-switchover`, or run state finish-migrate (7.2
	 * says `active` all along).  No cancel from here: the target may
	 * load what was sent and run the guest while a cancelled source
	 * resumes its own copy.  An abort is refused and the outcome awaited
	 * until STIMER_SWITCHOVER (not known).  Entered on a STOP event too,
	 * before query-status says why the vCPUs stopped (switchover_sure
	 * 0): an abort then waits for that answer.  SAMPLE, RUN_STATE,
	 * QMP_DONE, SIGNAL, DEADLINE, ANSWER, QMP_CLOSED, QMP_SILENT,
	 * STIMER_SWITCHOVER.
	 */
	SS_SWITCHOVER,
	/* Source over tls: QEMU completed, or failed post-copy before the
	 * target said it runs the guest and ran it here again (postfail);
	 * the target's word decides.  ANSWER(completed), STIMER_CONFIRM,
	 * CONTROL_LOST. */
	SS_CONFIRM,
	/* Both: the QMP connection closed; reconnecting (STIMER_RECONNECT)
	 * until RECONNECT_TIMEOUT, then back to the state it left. */
	SS_RECONNECT,
	/* Source: the outcome is known; the mirrors end and the guest runs
	 * here again if we paused it, before the last document.  JOB_DONE,
	 * QMP_DONE(cont), STIMER_FINISH. */
	SS_FINISHING,
	/* Target over tls: waiting for the offer.  CONTROL, SIGNAL. */
	SS_OFFERED_WAIT,
	/* Target over tls: the offer is being applied (SJ_PREPARE_TARGET). */
	SS_PREPARING,
	/* Target: QEMU listens, no stream yet.  SAMPLE, CONTROL, SIGNAL,
	 * CONTROL_LOST, DEADLINE, STIMER_CUT. */
	SS_LISTEN,
	/* Target: QEMU completed; the exports wait for the source's mirrors
	 * to end (SJ_RELEASE_DISKS), then the guest's run state is read. */
	SS_ARRIVED,
	/* Target over tls: the outcome is known; answering the source's
	 * "completed?" (STIMER_END). */
	SS_ENDING,
	/* Target: failed; the exports are removed (SJ_STOP_EXPORTS). */
	SS_CLEANUP,
	/* Target: failed after the stream may have begun; QEMU is stopped
	 * for good (quit) before the source hears "fenced".  QMP_DONE(quit),
	 * QMP_CLOSED, STIMER_FENCE. */
	SS_FENCING,
	/*
	 * Source, cpr-transfer (`qmigrate update`, cfg.cpr): the old QEMU
	 * is the source, the new one on this host receives the guest's RAM
	 * as fds.  CPR_ATTACH: migrate is out; the new QEMU's monitor, which
	 * appears only after it, is being connected (SA_NEW_CONNECT,
	 * bounded), then told migrate-incoming (cfg.cpr_defer); the old
	 * QEMU's events as in SS_PRECOPY.  QMP_UP/QMP_CLOSED/QMP_DONE of
	 * the new monitor (ev.new_qemu), SAMPLE, SIGNAL, DEADLINE.
	 */
	SS_CPR_ATTACH,
	/* cpr: the old QEMU completed (its guest stopped there for good in
	 * postmigrate); the new QEMU's run state decides: running, or cont
	 * there.  RUN_STATE and QMP_DONE(cont) of the new QEMU, its
	 * QMP_CLOSED, STIMER_HANDOFF (ask again), STIMER_NEW_QEMU (no word
	 * in time: not known), SIGNAL and DEADLINE (refused). */
	SS_CPR_HANDOFF,
	/* cpr: the guest runs on the new QEMU; the old one is told quit.
	 * QMP_DONE(quit), QMP_CLOSED, STIMER_FENCE. */
	SS_CPR_QUIT,
	/*
	 * cpr-exec (`update --mode exec`, cfg.cpr_exec): the old QEMU
	 * completed and execs the new command line in the same process,
	 * whose monitor is the same path: the connection ends at the exec
	 * and is made again (SS_RECONNECT back here).  The run state then
	 * the migration's status decide: running and completed is the new
	 * QEMU's (success); failed is an exec that failed (the old QEMU runs
	 * the guest again: its words, 3).  SAMPLE, RUN_STATE, QMP_CLOSED,
	 * STIMER_HANDOFF, STIMER_NEW_QEMU (not known), SIGNAL and DEADLINE
	 * (refused).
	 */
	SS_CPR_EXEC,
	SS_DONE,
};

/* How the source's setup ended (SEV_SETUP_DONE). */
enum sess_setup {
	SETUP_FAILED,		/* failure and reason in the event */
	SETUP_FRESH,		/* a new migration: offer or migrate next */
	SETUP_REATTACH,		/* QEMU is already migrating: watch it */
	SETUP_ALREADY_DONE,	/* QEMU completed it before we came (tls:
				   fail FAIL_UNKNOWN: no target's word in
				   the record: ask it) */
	SETUP_CLOSE_RECORD,	/* QEMU's migration of the status file ended
				   meanwhile, or QEMU has none: close its
				   record (fail: how), start none */
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
	SC_QUIT,		/* target: stop QEMU for good (the fence);
				   cpr: the old QEMU, once the new one runs */
	SC_MIGRATE_INCOMING,	/* cpr: the new QEMU, -incoming defer */
	SC_DIRTY_LIMIT,		/* value: vcpu-dirty-limit, MB/s per vCPU */
	SC_DIRTY_LIMIT_NOW,	/* value: the same, set on every vCPU now */
	SC_MIGRATE_CONTINUE,	/* source: past pre-switchover (the point of
				   no return) */
	SC_MODE_NORMAL,		/* cpr: a failed update's old QEMU: mode
				   normal again */
	SC_PAUSE_OFF,		/* ... and pause-before-switchover off */
};

/*
 * What became of a QMP command (SEV_QMP_DONE), three ways: a refusal is
 * QEMU's word that it did nothing; no answer (a timeout, a closed
 * connection) says nothing of what QEMU did, and the step must ask QEMU
 * again before it decides.
 */
enum sess_outcome {
	SO_ANSWERED,
	SO_REFUSED,		/* QEMU answered with an error */
	SO_NO_ANSWER,		/* timeout or closed: not known */
};

/* Work of several QMP commands the executor runs as a job (mig-job.h). */
enum sess_job {
	SJ_START_MIRRORS,	/* source: the disks' mirror jobs */
	SJ_FINISH_MIRRORS,	/* source: value 1: in sync (success) */
	SJ_PREPARE_TARGET,	/* target: plan, exports, migrate-incoming */
	SJ_RELEASE_DISKS,	/* target: exports go once mirrors ended */
	SJ_STOP_EXPORTS,	/* target: exports removed at once */
};

enum sess_timer {
	STIMER_REPOLL,		/* query-migrate again soon */
	STIMER_CONFIRM,		/* source: the target's word is late */
	STIMER_CANCEL,		/* source: QEMU's cancel is late */
	STIMER_RECONNECT,	/* source: try the monitor again */
	STIMER_FINISH,		/* source: the last work is late */
	STIMER_END,		/* target: finish (an answer had time) */
	STIMER_CUT,		/* target: the source did not cancel */
	STIMER_SOURCE_GONE,	/* target: the control connection ended */
	STIMER_WATCH,		/* target: a held "watch" is answered */
	STIMER_FENCE,		/* target: QEMU did not quit in time */
	STIMER_REASK,		/* source: "completed?" again (new session) */
	STIMER_HANDOFF,		/* cpr: the new QEMU's run state again */
	STIMER_NEW_QEMU,	/* cpr: the new QEMU said nothing in time */
	STIMER_SWITCHOVER,	/* source: the switchover did not end */
	STIMER_COUNT,
};

enum sess_disks {
	DISKS_NONE,		/* no disks copied */
	DISKS_SYNCING,
	DISKS_READY,		/* every mirror in sync */
	DISKS_FAILED,
};

enum sess_ev_kind {
	SEV_SETUP_DONE,		/* source: setup; target: checked */
	SEV_JOB_DONE,
	SEV_QMP_DONE,		/* a command of ours was answered */
	SEV_QMP_SILENT,		/* a command got no answer in time */
	SEV_QMP_UP,		/* the monitor is connected again */
	SEV_SAMPLE,		/* query-migrate */
	SEV_RUN_STATE,		/* query-status */
	SEV_RESUMED,		/* QEMU's RESUME event */
	SEV_STOPPED,		/* QEMU's STOP event (source: the vCPUs
				   stopped, for the switchover or not) */
	SEV_QMP_CLOSED,		/* the connection ended, or reconnecting
				   failed */
	SEV_CONTROL,		/* target: a message from the source */
	SEV_ANSWER,		/* source: the target's answer */
	SEV_CONTROL_LOST,	/* the control connection ended */
	SEV_SIGNAL,
	SEV_DEADLINE,
	SEV_TIMER,
	SEV_SWITCHOVER,		/* source: an operator asks to finish now
				   (`qmigrate switchover`): finish */
};

/* What `qmigrate switchover` asks for (SEV_SWITCHOVER). */
enum sess_finish {
	FINISH_AUTO,		/* post-copy where negotiated, else pause */
	FINISH_POSTCOPY,	/* --postcopy */
	FINISH_PAUSE,		/* --pause */
};

struct sess_event {
	enum sess_ev_kind	 kind;
	double			 t;	/* the executor's clock, seconds */
	int			 ok;	/* SETUP/JOB/QMP_DONE (QMP_DONE:
					   outcome == SO_ANSWERED) */
	enum sess_outcome	 outcome; /* QMP_DONE; target SETUP_DONE:
					   SO_NO_ANSWER when migrate-incoming
					   got none (QEMU may listen);
					   JOB_DONE: SO_NO_ANSWER when the
					   monitor closed under the job */
	int			 qemu_gone; /* QMP_CLOSED: QEMU's process
					   is known to have exited; cpr's
					   SETUP_ALREADY_DONE: the old QEMU's
					   monitor is gone (no listener) */
	enum mig_failure	 fail;	/* SETUP_FAILED, a failed job */
	const char		*reason;
	enum sess_setup		 setup;
	enum mig_mode		 mode;	/* REATTACH, ALREADY_DONE, CLOSE_RECORD:
					   as the status file had it */
	enum abort_status	 abort;	/* ... and its abortStatus */
	int			 abort_requested; /* ... and abortRequested */
	const char		*uid;	/* REATTACH, ALREADY_DONE: the record's */
	int			 guest_paused; /* SETUP_DONE: the guest did not
					   run on this QEMU at setup (its run
					   state: paused by someone) */
	int			 rec_paused;	/* ALREADY_DONE, REATTACH: the
					   record says the guest did not run
					   when it began (sourceRunState) */
	const char		*unwatched_fail; /* CLOSE_RECORD over tls: QEMU's
					   error for the record's migration it
					   failed unwatched, past whose pause
					   the device state may have gone:
					   the target is asked (or NULL) */
	int			 cpr_mode_sent;	/* SETUP_DONE: the update's plan
					   sent QEMU its cpr mode (and its
					   pause-before-switchover), or the
					   pre-flight's probe of it was not
					   put back for want of an answer */
	enum sess_job		 job;
	enum sess_cmd		 cmd;
	const struct mig_info	*mi;	/* SAMPLE */
	enum sess_disks		 disks;	/* SAMPLE: the mirrors' state */
	uint64_t		 disks_copied; /* SAMPLE: bytes the mirrors
					   copied so far (their offsets) */
	const char		*disks_lost; /* SAMPLE: why a target's disk
					   copy may miss writes (a mirror
					   failed while the guest ran), or
					   NULL */
	int			 disks_stale; /* SAMPLE: the mirrors' view
					   is from before the monitor's
					   reconnect (no listing since) */
	double			 asked;	/* SAMPLE: when its query-migrate was
					   sent (the executor's clock) */
	double			 query_out; /* any event, source: when the
					   query-migrate still unanswered was
					   sent (0: none is out) */
	long			 queued; /* SAMPLE, target on a unix path whose
					   path was removed: connections that
					   waited in QEMU's accept queue as
					   it was asked (-1: not known) */
	const struct run_info	*ri;	/* RUN_STATE; SETUP_DONE: QEMU's run
					   state at the setup, or NULL */
	const struct control_msg *msg;	/* CONTROL */
	enum control_type	 question; /* ANSWER: what was asked */
	enum control_answer	 answer;
	int			 signum;
	enum sess_timer		 timer;
	int			 new_qemu; /* cpr: from the new QEMU's monitor
					   (QMP_UP, QMP_CLOSED, QMP_DONE,
					   QMP_SILENT, RUN_STATE) */
	enum sess_finish	 finish; /* SWITCHOVER */
};

enum sess_act_kind {
	SA_QMP,			/* cmd, value, value2 */
	SA_POLL,		/* query-migrate now */
	SA_QUERY_STATUS,
	SA_JOB,			/* job, value */
	SA_ASK,			/* source: a question (question, reason) */
	SA_ANSWER,		/* target: answer (answer, reason) */
	SA_TIMER,		/* arm timer after seconds */
	SA_CUT,			/* target: close the proxy, stream and all */
	SA_UNLISTEN,		/* target: remove QEMU's unix socket path */
	SA_RECONNECT,		/* source: connect to the monitor again */
	SA_NEW_CONNECT,		/* cpr: connect to the new QEMU's monitor,
				   trying until seconds pass: SEV_QMP_UP or
				   SEV_QMP_CLOSED, new_qemu set */
	SA_LOG,			/* value: 0 debug, 1 info, 2 warning; reason */
	SA_FINISH,		/* the session is over: leave the loop */

	/* What the status document says: applied through status.c. */
	SA_ST_PHASE,		/* phase */
	SA_ST_MODE,		/* mode */
	SA_ST_ABORT,		/* abort */
	SA_ST_ABORT_REQUESTED,
	SA_ST_FAILURE,		/* fail, reason */
	SA_ST_CLEAR_FAILURE,
	SA_ST_NOTE,		/* reason */
	SA_ST_PROGRESS,		/* mi (the event's), seconds: elapsed */
	SA_ST_DECISION,		/* sample, reason, question: unused;
				   value: enum ctl_action; value2: who
				   asked (enum sess_asker) */
	SA_ST_PUBLISH,		/* reason: the event line's name */
	SA_ST_SWITCHOVER,	/* the answer to `qmigrate switchover`:
				   value: enum sess_switchover_answer;
				   value2: enum sess_finish (what it
				   finishes with, never FINISH_AUTO);
				   reason: why refused, or the decision */
	SA_ST_DOWNTIME,		/* value: the guest's pause, ms, as the
				   session measured it (cpr-exec: the old
				   QEMU's figure went with the exec) */
};

/* What became of an operator's switchover (SA_ST_SWITCHOVER). */
enum sess_switchover_answer {
	SWA_REFUSED,		/* reason says why; nothing changed */
	SWA_ACCEPTED,		/* carried out on the next pre-copy sample */
	SWA_STARTED,		/* post-copy asked of QEMU, or the guest
				   paused: the decision is recorded */
};

/* Who asked for a decision (SA_ST_DECISION's value2). */
enum sess_asker {
	ASKER_CONTROLLER,	/* the convergence controller */
	ASKER_TIMEOUT,		/* the --timeout deadline */
	ASKER_OPERATOR,		/* someone, from outside the run */
};

#define SESS_REASON_MAX	400

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
	enum mig_phase		 phase;
	enum mig_mode		 mode;
	enum abort_status	 abort;
	enum mig_failure	 fail;
	const struct mig_info	*mi;	/* SA_ST_PROGRESS: the event's */
	int			 new_qemu; /* SA_QMP, SA_QUERY_STATUS: on the
					   new QEMU's monitor (cpr) */
	struct ctl_sample	 sample;	/* SA_ST_DECISION */
	char			 reason[SESS_REASON_MAX];
};

/* What the session is given when it starts; fixed for its life. */
struct sess_config {
	enum sess_role	 role;
	int		 tls;		/* a control channel to the peer */
	int		 disks;		/* disks are copied */
	double		 timeout;	/* --timeout, for messages; 0: none */
	double		 recover_timeout;
	double		 stall_timeout;	/* progressTimeout: 0 never */
	double		 mirror_timeout; /* 0: none */
	int		 keep_paused;	/* target */
	int		 may_pause;	/* the policy allows workload disruption:
					   target: the source's controller may
					   have paused the guest; source: an
					   operator's pause is allowed */
	int		 qemu_autostart; /* target: its QEMU starts an arrived
					   guest itself (no -S) 1, -S 0, not
					   known -1 */
	int		 unix_listen;	/* target: QEMU listens on a unix path */
	int		 qemu_major;	/* target: its own QEMU */
	int		 qemu_minor;
	int		 qemu_micro;
	const char	*peer;		/* the URI, for messages */
	const char	*qmp_path;	/* this side's QEMU, for messages */
	int		 unix_stream;	/* source: the stream is one unix socket,
					   its return path too (no partition
					   can cut one way only) */
	int		 cpr;		/* source: cpr-transfer to a new QEMU
					   on this host (`qmigrate update`) */
	int		 cpr_defer;	/* ... which waits for migrate-incoming */
	int		 cpr_exec;	/* ... or cpr-exec: one process */
	const char	*new_qmp_path;	/* ... its monitor, for messages */
	enum timeout_action timeout_action; /* source: what DEADLINE does */
	int		 postcopy;	/* source: postcopy-ram on both sides */
};

/* An abort asked for while the session cannot act on it yet. */
struct sess_pending_abort {
	int			 asked;
	enum mig_failure	 why;
	int			 requested;	/* by someone, not a deadline */
	double			 since;		/* PRECOPY: waits for a sample
						   asked after this (0: not
						   that wait) */
	char			 reason[SESS_REASON_MAX];
};

/* Post-copy recovery (SS_RECOVER). */
struct sess_recover {
	double	 deadline;	/* 0: not recovering */
	double	 last_try;
	int	 asked;		/* source tls: "resume?" is out */
	int	 ready;		/* source tls: the target listens */
	int	 sent;		/* target: migrate-recover sent */
	int	 listening;	/* target: migrate-recover answered */
	int	 source_asked;	/* target: the source waits for "ready" */
	int	 recovering;	/* target: QEMU said postcopy-recover since */
	int	 unlistened;	/* target: its unix: path removed */
	int	 unanswered;	/* a migrate-recover (target) or a migrate
				   resume (source) got no answer */
	int	 resume_out;	/* source: resumes not answered yet */
	double	 resume_done_t;	/* source: the last resume's answer */
};

#define SESS_MAX_ACTIONS	40

struct session {
	struct sess_config	 cfg;
	enum sess_state		 state;
	/* The side's end (source_end or target_end): what sess_fail() ends
	 * with, so the helpers below both tables need not know the side. */
	void			(*end)(struct session *, enum mig_phase);

	/* What the session decided; the status document follows it. */
	enum mig_phase		 phase;
	enum mig_mode		 mode;
	enum abort_status	 abort;
	int			 abort_requested;
	enum mig_failure	 failure;
	char			 failure_reason[SESS_REASON_MAX];

	struct ctl		 ctl;		/* source: the controller */
	struct sess_pending_abort pending;	/* SETUP, MIRROR_START,
						   RECONNECT, a PRECOPY whose
						   view of QEMU is stale */
	struct sess_recover	 recover;
	double			 t0;		/* memory started moving */
	int			 saw_active;	/* QEMU said active */
	int			 completed_polls;
	int			 disks_stale;	/* the last sample's */
	int			 watch_out;	/* source: a watch is out */
	uint64_t		 moved_bytes;	/* stall detector */
	double			 moved_t;	/* -1: nothing seen yet */
	double			 mirror_deadline;
	uint64_t		 mirror_copied;	/* the mirrors' offsets, */
	double			 mirror_moved_t; /* ... last seen growing */
	double			 silent_since;	/* 0: the monitor answers */
	double			 query_out;	/* the last event's query_out */
	double			 cancel_sent;	/* UNCANCELLED: the last cancel */
	double			 cancel_deadline; /* CANCELLING: then UNCANCELLED */
	/* migrate got no answer: QEMU's samples say whether it started
	 * (the count of "none" seen since; two settle it). */
	int			 migrate_unknown;
	int			 migrate_sent;	/* our migrate is out */
	int			 migrate_answered; /* QEMU answered it */
	int			 none_since_unknown;
	/* migrate-start-postcopy: 0 not sent, 1 sent, 2 no answer (sent
	 * again while QEMU stays in pre-copy) */
	int			 postcopy_asked;
	double			 postcopy_sent;
	/* QEMU said postcopy-active (11.1: the target runs the guest;
	 * before: the device state went out), or post-copy was recovered. */
	int			 saw_postcopy_active;
	/* QEMU failed the migration after post-copy began there: its run
	 * state decides (postcopy_failed).  PF_ASKED: query-status out
	 * (again once postfail_asked is 0), since postfail_since;
	 * PF_RUNNING: QEMU runs the guest again, the target asked. */
	enum { PF_NONE, PF_ASKED, PF_RUNNING, PF_DONE } postfail;
	double			 postfail_since;
	double			 postfail_asked;
	char			 postfail_desc[SESS_REASON_MAX];
	/* QEMU failed the switchover over tls: without the target's word
	 * (switchover_failed), or a re-run found it failed unwatched after
	 * maybe the device state left (close_record_ask): the target is
	 * asked, its answer decides. */
	enum { SWFAIL_NONE, SWFAIL_SWITCHOVER, SWFAIL_UNWATCHED } swfail;
	char			 swfail_desc[SESS_REASON_MAX];
	/* The deadline's finish (--timeout-action postcopy or pause), kept
	 * for the next pre-copy sample, whose figures it is taken on. */
	enum timeout_action	 finish_due;	/* TIMEOUT_ABORT: none */
	enum sess_asker		 finish_by;	/* ... who asked for it */
	double			 finish_stale_t; /* a slow sample read then */
	/* SWITCHOVER: QEMU's word that the vCPUs stopped for it (0: only
	 * a STOP event so far), when it ends as not known, and the last
	 * migrate-continue (pre-switchover, someone's pause-before-
	 * switchover; 0: none). */
	int			 switchover_sure;
	double			 switchover_deadline;
	double			 continue_sent;
	/* This run set QEMU's pause-before-switchover on a migration it
	 * started (not a re-attach's, whose killed run may have sent a
	 * migrate-continue QEMU has yet to read), and a sample said QEMU
	 * waits in pre-switchover for it: until continue_sent, an abort
	 * cancels there, before any device state leaves. */
	int			 pause_ours;
	int			 pause_seen;
	enum sess_state		 back_to;	/* RECONNECT: where from */
	/* PRECOPY after a reconnect: a STOP sent before the new connection
	 * went with the old one, and 7.2 says active through the
	 * switchover: until query-status answers on it (asked then, again
	 * at stop_asked + its reply bound), an abort waits. */
	int			 stop_unseen;
	double			 stop_asked;
	double			 reconnect_deadline;

	/* FINISHING (source) and ENDING/CLEANUP (target): the outcome. */
	enum mig_phase		 end_phase;
	int			 mirrors_out;	/* the mirrors still run */
	char			 disks_lost[SESS_REASON_MAX]; /* up to
					   QEMU's completion: why a target's
					   disk copy may miss writes ("":
					   none known) */
	int			 resume_guest;	/* cont before the end */
	int			 cont_tries;	/* FINISHING: cont sent */
	int			 confirm_mirrors; /* CONFIRM: mirrors end first */
	int			 confirm_answered; /* target: "completed?" was */

	/* target */
	int			 offered;
	int			 early_offer;	/* an offer came during setup */
	struct control_msg	 early_msg;	/* ... its scalars (no disks) */
	int			 started;	/* the stream began */
	int			 arrives_paused;
	int			 resuming;	/* cont sent */
	int			 conts_out;	/* cont sent, outcome not yet in */
	int			 source_aborted;
	int			 confirm_asked;
	int			 control_lost;	/* the source is gone */
	int			 watch_held;	/* a "watch" waits for its answer */
	int			 abort_asked_here; /* tls: watch answers abort */
	int			 unlisten_signum; /* unix: socket removed */
	/* tls: whether post-copy may have run: the offer allowed it; the
	 * source's "completed?" said so (1), said not (0), or has not
	 * (-1: not asked yet, or an older source). */
	int			 postcopy_offered;
	int			 postcopy_said;
	/* tls: the source's "completed?" said a disk's mirror failed
	 * before its QEMU completed: why (empty: it did not say so). */
	char			 source_disks_lost[SESS_REASON_MAX];
	double			 unlisten_t;	/* ... at this time */
	int			 queue_said;	/* "a source waits" noted */
	int			 setup_signum;	/* a signal during setup */
	int			 setup_deadline; /* the deadline during setup */
	int			 setup_closed;	/* the monitor closed in setup */
	int			 setup_qemu_gone; /* ... and QEMU's process
						   with it */
	/* The handoff (target): whether this QEMU can run the guest. */
	int			 fenced;	/* it cannot: stopped, or gone */
	int			 qemu_failed;	/* QEMU said the load failed */
	int			 arrived;	/* QEMU said completed */
	int			 cut;		/* no stream can arrive now */
	int			 settle;	/* LISTEN: one more sample decides */
	int			 settle_signum;	/* ... after this signal (0:
						   the deadline) */
	int			 settle_source;	/* ... after the source's abort
						   (1) or its end (2), or
						   migrate-incoming's lost
						   answer (4) */
	double			 settle_t;	/* ... begun then: a sample
						   asked before is stale */
	int			 relistened;	/* ... QEMU seen listening
						   after the path's removal:
						   removed once more */
	int			 fence_wanted;	/* stop QEMU at the end anyway */
	int			 quit_answered;	/* FENCING: QEMU said it quits */
	int			 fence_polled;	/* FENCING: QEMU's state read
					   before quit */

	/* cpr (source) */
	int			 new_up;	/* the new QEMU's monitor answers */
	int			 new_tries;	/* HANDOFF: its run state asked */
	int			 new_conts;	/* HANDOFF: cont sent there */
	int			 new_rerun;	/* ATTACH again after a re-attach */
	int			 old_gone;	/* a re-run found the old QEMU gone
						   (SETUP_ALREADY_DONE) */
	int			 was_paused;	/* the guest was paused on the
						   source (the old QEMU) before
						   the migration: never paused
						   by us nor cont there */
	int			 reattach_stopped; /* this run re-attached
						   at the switchover, the guest
						   stopped: whether the killed
						   run or an operator had
						   paused it before is not
						   known */
	int			 exec_ran;	/* CPR_EXEC: running, since the
						   last query-status */
	int			 exec_closed;	/* ... the monitor closed since
						   completed (the exec) */
	double			 exec_backoff;	/* ... its reconnect's delay */
	double			 exec_stop_t;	/* ... the old QEMU's last STOP
						   before the exec (0: none seen) */
	double			 exec_resume_t;	/* ... the new QEMU's RESUME, or
						   its first "running" answer */
	int			 exec_resume_seen; /* ... that was the RESUME */
	int			 exec_cont;	/* ... the new QEMU waits (-S): 1
						   its load's end asked, 2 cont
						   sent */
	int			 cpr_left;	/* a re-run closed an update's
						   record, or the setup sent the
						   plan and ended: its settings may
						   be in QEMU (no migrate of ours) */
	int			 cpr_reset;	/* FINISHING: the old QEMU's update
						   settings to undo (2 mode, 1 the
						   pause; 0 done) */
	int			 cpr_reset_tries; /* ... sends of the one under
						   way with no answer */

	struct sess_action	 acts[SESS_MAX_ACTIONS];
	size_t			 nacts;
	size_t			 overflow;	/* actions dropped (a bug) */
};

/* mig-session.c */
void	 session_init(struct session *, const struct sess_config *);
/* Controller settings, before the first sample (source). */
void	 session_set_controller(struct session *, enum ctl_kind,
	    const struct ctl_config *);
void	 session_step(struct session *, const struct sess_event *);
int	 session_done(const struct session *);
/* Whether the executor's setup should stop early (an abort is pending). */
int	 session_setup_abandoned(const struct session *);
/* The exit status of what the session decided. */
int	 session_exit_code(const struct session *);

/* For mig-session-source.c and mig-session-target.c only. */
struct sess_action *sess_act(struct session *, enum sess_act_kind);
/* An action carrying REASON (may be NULL): a question or an answer. */
struct sess_action *sess_act_why(struct session *, enum sess_act_kind,
	    const char *reason);
void	 sess_enter(struct session *, enum sess_state);
/* The command's action, for what else it carries (SET_DOWNTIME: sample). */
struct sess_action *sess_qmp(struct session *, enum sess_cmd, uint64_t, int);
void	 sess_timer(struct session *, enum sess_timer, double);
void	 sess_job(struct session *, enum sess_job, uint64_t);
void	 sess_log(struct session *, int level, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
void	 sess_note(struct session *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 sess_failure(struct session *, enum mig_failure, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
/* Records the failure (the first one stands) and ends as Failed. */
void	 sess_fail(struct session *, enum mig_failure, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
void	 sess_clear_failure(struct session *);
int	 sess_recover_lost(struct session *, double t, const char *now,
	    const char *left);
void	 sess_phase(struct session *, enum mig_phase);
void	 sess_mode(struct session *, enum mig_mode);
void	 sess_abort_status(struct session *, enum abort_status);
void	 sess_abort_requested(struct session *);
void	 sess_publish(struct session *, const char *event);
void	 sess_progress(struct session *, const struct mig_info *, double);
void	 sess_finish(struct session *, enum mig_phase);
void	 sess_pend_abort(struct session *, enum mig_failure, int requested,
	    const char *reason);
const char *sess_signal_name(int);
const char *sess_cmd_name(enum sess_cmd);
int	 sess_monitor_silent(struct session *, const struct sess_event *);
void	 source_step(struct session *, const struct sess_event *);
void	 target_step(struct session *, const struct sess_event *);
void	 source_end(struct session *, enum mig_phase);
void	 target_end(struct session *, enum mig_phase);

#endif
