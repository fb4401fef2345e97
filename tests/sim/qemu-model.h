/*
 * qemu-model.h: a QMP-level model of one QEMU process, per QEMU version
 * (7.2, 10.0, 11.1), built from QEMU's own state machine -- the statuses
 * of qapi/migration.json, the migrate_set_state() calls of
 * migration/migration.c, savevm.c, postcopy-ram.c and cpr*.c, the run
 * states of runstate.c's runstate_transitions_def, block/mirror.c's and
 * job.c's job statuses, nbd/server.c -- not from what qmigrate's steps
 * expect.
 *
 * Every transition is one row of one table, qm_rows (qemu-model-table.c):
 * from-status, to-status (or run state, or job status), the trigger, the
 * versions, the conditions, and the QEMU function that makes it.  Two
 * users walk the same table:
 *
 * - the simulator: JSON command lines in (the bytes qmigrate's qmp/
 *   client writes), answers and events out (JSON lines as QEMU writes
 *   them); QEMU's own progress and the world's moves (the stream between
 *   a source and a target model, a load that fails, a kill, a SIGSTOP)
 *   are rows whose trigger is not a command, taken when the world says
 *   so or when the model's time comes (qm_due / qm_advance);
 * - the conformance checker (conform.c): a trace recorded from real QEMU
 *   (QMIGRATE_QMP_TRACE, qmp/qmp-conn.c) is replayed against the model,
 *   which keeps the set of states the real QEMU may be in; any answer,
 *   event or status that no path through the table explains is a
 *   failure naming the trace, its line and the behaviour.
 *
 * The model is plain data plus pure functions: no I/O, no clock (time is
 * passed in), no global state, so two models (source and target), or
 * thousands of checker candidates, live side by side.
 */
#ifndef QEMU_MODEL_H
#define QEMU_MODEL_H

#include <stddef.h>
#include <stdint.h>

/* ---- versions ------------------------------------------------------- */
enum qm_version {
	QM_V7_2,
	QM_V10_0,
	QM_V11_1,
	QM_NVERSIONS
};
#define QM_VBIT(v)	(1u << (v))
#define QM_VALL		(QM_VBIT(QM_V7_2) | QM_VBIT(QM_V10_0) | \
			    QM_VBIT(QM_V11_1))
#define QM_V10UP	(QM_VBIT(QM_V10_0) | QM_VBIT(QM_V11_1))

/* QEMU's greeting version -> the model's version; -1 if none fits. */
int		 qm_version_of(int major, int minor);
const char	*qm_version_name(enum qm_version);

/* ---- statuses: qapi/migration.json MigrationStatus ------------------ */
enum qm_status {
	QM_ST_NONE,
	QM_ST_SETUP,
	QM_ST_CANCELLING,
	QM_ST_CANCELLED,
	QM_ST_ACTIVE,
	QM_ST_POSTCOPY_DEVICE,		/* 10.2: target */
	QM_ST_POSTCOPY_ACTIVE,
	QM_ST_POSTCOPY_PAUSED,
	QM_ST_POSTCOPY_RECOVER_SETUP,	/* 9.1 */
	QM_ST_POSTCOPY_RECOVER,
	QM_ST_COMPLETED,
	QM_ST_FAILING,			/* 11.0: source */
	QM_ST_FAILED,
	QM_ST_COLO,
	QM_ST_PRE_SWITCHOVER,
	QM_ST_DEVICE,
	QM_ST_WAIT_UNPLUG,
	QM_NSTATUS
};
const char	*qm_status_name(enum qm_status);
int		 qm_status_of(const char *);	/* -1: no such status */

/* ---- run states: qapi/run-state.json RunState ----------------------- */
enum qm_runstate {
	QM_RS_DEBUG,
	QM_RS_INMIGRATE,
	QM_RS_INTERNAL_ERROR,
	QM_RS_IO_ERROR,
	QM_RS_PAUSED,
	QM_RS_POSTMIGRATE,
	QM_RS_PRELAUNCH,
	QM_RS_FINISH_MIGRATE,
	QM_RS_RESTORE_VM,
	QM_RS_RUNNING,
	QM_RS_SAVE_VM,
	QM_RS_SHUTDOWN,
	QM_RS_SUSPENDED,
	QM_RS_WATCHDOG,
	QM_RS_GUEST_PANICKED,
	QM_RS_COLO,
	QM_NRUNSTATE
};
const char	*qm_runstate_name(enum qm_runstate);
int		 qm_runstate_of(const char *);

/* ---- block jobs: qapi/job.json JobStatus (mirror jobs only) --------- */
enum qm_job_status {
	QM_JOB_UNDEFINED,
	QM_JOB_CREATED,
	QM_JOB_RUNNING,
	QM_JOB_PAUSED,
	QM_JOB_READY,
	QM_JOB_STANDBY,
	QM_JOB_WAITING,
	QM_JOB_PENDING,
	QM_JOB_ABORTING,
	QM_JOB_CONCLUDED,
	QM_JOB_NULL,
	QM_NJOBSTATUS
};
const char	*qm_job_status_name(enum qm_job_status);

/* ---- the table ------------------------------------------------------ */

/* What a row changes. */
enum qm_row_kind {
	QM_ROW_STATUS,		/* the migration status (source or target) */
	QM_ROW_RUNSTATE,	/* the run state */
	QM_ROW_JOB		/* a mirror job's status */
};

/* Who or what makes the transition. */
enum qm_trigger {
	QM_T_CMD,	/* a QMP command on the monitor: the row's cmd */
	QM_T_QEMU,	/* QEMU's own progress (a thread, a bottom half):
			   may happen at any moment it is enabled */
	QM_T_STREAM,	/* the world: the migration stream (connected,
			   written, broken) or the peer's verdict */
	QM_T_LOAD,	/* the target's load of the stream: done, failed */
	QM_T_PROCESS	/* the process: killed, exits */
};

/* Conditions a row needs (need) or excludes (unless), sets or clears. */
#define QM_IF_RETURN_PATH	0x000001 /* capability return-path, or
					    postcopy-ram (which opens it) */
#define QM_IF_PAUSE_BEFORE	0x000002 /* pause-before-switchover */
#define QM_IF_POSTCOPY		0x000004 /* postcopy-ram */
#define QM_IF_EVENTS		0x000008 /* capability events */
#define QM_IF_WAS_RUNNING	0x000010 /* vCPUs ran at the switchover */
#define QM_IF_INCOMING		0x000020 /* started with -incoming */
#define QM_IF_AUTOSTART		0x000040 /* no -S, or a cont in inmigrate */
#define QM_IF_EXIT_ON_ERROR	0x000080 /* migrate-incoming's default */
#define QM_IF_CPR		0x000100 /* mode cpr-transfer or cpr-exec */
#define QM_IF_LISTENING		0x000200 /* target: migrate-incoming given,
					    or -incoming URI */
#define QM_IF_START_POSTCOPY	0x000400 /* migrate-start-postcopy given */
#define QM_IF_RESUME		0x000800 /* this command: resume=true */
#define QM_IF_SWITCHED		0x001000 /* source: vCPUs stopped for the
					    switchover */
#define QM_IF_TOTAL_TIME	0x002000 /* source: completed's figures */
#define QM_IF_GUEST		0x004000 /* target: the guest state loaded */
#define QM_IF_CPR_EXEC		0x008000 /* mode cpr-exec (11.1) */
#define QM_IF_RECOVERING	0x010000 /* target: migrate-recover given */
#define QM_IF_CONTINUE		0x020000 /* migrate-continue given */
#define QM_IF_CANCEL		0x040000 /* job: block-job-cancel given */
#define QM_IF_COMPLETE		0x080000 /* job: block-job-complete given */
#define QM_IF_JOB_ERROR		0x100000 /* job: an I/O error ends it */
#define QM_IF_MIGRATING		0x200000 /* source: migrate given */
#define QM_IF_RP_CAP		0x400000 /* the capability return-path */
#define QM_IF_SHUTDOWN		0x800000 /* quit, or a signal: exiting */
#define QM_IF_RESUMING		0x1000000 /* 7.2: migrate resume connecting */
#define QM_IF_FORCE		0x2000000 /* job: block-job-cancel force=true */
#define QM_IF_EXECED		0x4000000 /* cpr-exec: the process became
					    the new QEMU (11.1) */
#define QM_IF_CANCEL_KICK	0x8000000 /* migrate_cancel woke the pause
					    (its DEVICE: no device state) */

/* Events a row makes, in this order. */
#define QM_EMIT_MIGRATION_FIRST	0x001	/* MIGRATION before STOP */
#define QM_EMIT_STOP		0x002	/* STOP (vm_stop) */
#define QM_EMIT_MIGRATION	0x004	/* MIGRATION {status}, with events */
#define QM_EMIT_SETUP_ALWAYS	0x008	/* MIGRATION {setup}, events or not
					   (qemu_start_incoming_migration) */
#define QM_EMIT_RESUME		0x010	/* RESUME (vm_start) */
#define QM_EMIT_SHUTDOWN	0x020	/* SHUTDOWN */
#define QM_EMIT_JOB		0x040	/* JOB_STATUS_CHANGE {id, status} */
#define QM_EMIT_JOB_READY	0x080	/* BLOCK_JOB_READY */
#define QM_EMIT_JOB_DONE	0x100	/* BLOCK_JOB_COMPLETED */
#define QM_EMIT_JOB_CANCELLED	0x200	/* BLOCK_JOB_CANCELLED */
#define QM_EMIT_JOB_ERROR	0x400	/* BLOCK_JOB_ERROR */

/* Sets a row starts from. */
#define QM_SB(x)	(1u << QM_ST_##x)
#define QM_RB(x)	(1u << QM_RS_##x)
#define QM_JB(x)	(1u << QM_JOB_##x)
#define QM_SAME		(-1)	/* to: unchanged */
#define QM_RS_OLD	(-2)	/* to: the run state saved at the
				   switchover (s->vm_old_state) */
#define QM_GONE		(-3)	/* to: the process exits */

struct qm_row {
	enum qm_row_kind	 kind;
	unsigned		 st_from;	/* statuses (QM_SB; QM_JB for a
						   job), 0: any */
	int			 st_to;		/* or QM_SAME */
	unsigned		 rs_from;	/* run states (QM_RB), 0: any */
	int			 rs_to;		/* or QM_SAME, QM_RS_OLD,
						   QM_GONE */
	enum qm_trigger		 trigger;
	const char		*cmd;		/* QM_T_CMD: the command; else
						   the move's name */
	unsigned		 versions;	/* QM_VBIT()s */
	unsigned		 need;		/* QM_IF_* all required */
	unsigned		 unless;	/* QM_IF_* none allowed */
	unsigned		 set;		/* QM_IF_* the row sets */
	unsigned		 clear;		/* QM_IF_* it clears */
	unsigned		 emit;		/* QM_EMIT_* */
	const char		*qemu_fn;	/* QEMU's function making it */
};

/* The table, and how many rows; qm_disabled_row (tests only) hides one. */
extern const struct qm_row	 qm_rows[];
extern const size_t		 qm_nrows;
extern int			 qm_disabled_row;	/* -1: none */

/*
 * Refusals: a command QEMU answers with an error in a state: the
 * statuses and run states where it applies (0: any), the flags it needs
 * or excludes, a text QEMU's desc contains.  A "may" row depends on what
 * the model does not hold (an argument's value, a blocker, a lock): the
 * command may also succeed there.  QM_MAY_AFTER_SETUP: a "may" migrate
 * refusal that comes after migrate_init: the status went to SETUP and
 * then failed (the events come before the error answer).  cmd "*": any
 * command.
 */
#define QM_MAY_AFTER_SETUP	2
struct qm_refusal {
	const char		*cmd;
	unsigned		 st_in;
	unsigned		 rs_in;
	unsigned		 need;
	unsigned		 unless;
	unsigned		 versions;
	int			 may;
	const char		*desc;
	const char		*qemu_fn;
};
extern const struct qm_refusal	 qm_refusals[];
extern const size_t		 qm_nrefusals;

/* ---- one QEMU process: the state ----------------------------------- */

/* How the QEMU was started (its command line). */
struct qm_config {
	enum qm_version	 version;
	int		 incoming;	/* -incoming (defer or a URI) */
	int		 listening;	/* -incoming URI: listens from the start */
	int		 stopped;	/* -S: prelaunch, or no autostart */
	int		 shared_ram;	/* memory-backend share=on and
					   aux-ram-share=on (cpr-transfer) */
	int		 cpr_incoming;	/* a second -incoming, channel cpr */
	int		 ndisks;	/* writable local disks, -blockdev
					   node-name=diskN (the world's:
					   qemu-model-disks.c) */
	int		 disk_short;	/* disk0 half its size (a target
					   created too small) */
};

/* An event a transition made, not yet written (or, checking, seen). */
enum qm_event_kind {
	QM_EV_MIGRATION,	/* arg: the status */
	QM_EV_STOP,
	QM_EV_RESUME,
	QM_EV_SHUTDOWN,
	QM_EV_JOB_STATUS,	/* JOB_STATUS_CHANGE; arg: the job status */
	QM_EV_JOB_READY,	/* BLOCK_JOB_READY */
	QM_EV_JOB_DONE,		/* BLOCK_JOB_COMPLETED */
	QM_EV_JOB_CANCELLED,	/* BLOCK_JOB_CANCELLED */
	QM_EV_EXPORT_DELETED,	/* BLOCK_EXPORT_DELETED; job: the export */
	QM_EV_JOB_ERROR		/* BLOCK_JOB_ERROR */
};
struct qm_event {
	short			 kind;		/* enum qm_event_kind */
	short			 arg;
	short			 job;		/* index into jobs[] */
};

#define QM_MAX_JOBS	4
#define QM_MAX_PENDING	12
#define QM_JOB_ID_MAX	32

struct qm_job {
	char			 id[QM_JOB_ID_MAX];
	enum qm_job_status	 status;
	unsigned		 flags;		/* QM_IF_CANCEL, _COMPLETE, ... */
};

/*
 * Everything an answer depends on.  Plain data with no pointers: the
 * checker copies candidates by assignment and compares them by memcmp
 * (qm_state_init zeroes every byte).
 */
struct qm_state {
	enum qm_version		 version;
	enum qm_status		 status;
	enum qm_runstate	 runstate;
	enum qm_runstate	 old_rs;	/* at the switchover */
	unsigned		 flags;		/* QM_IF_* */
	int			 mode;		/* 0 normal, 1 cpr-transfer,
						   2 cpr-exec */
	int			 alive;
	int			 nbd_server;
	int			 njobs;
	struct qm_job		 jobs[QM_MAX_JOBS];
	int			 nexports;	/* block-export-add'ed */
	char			 exports[QM_MAX_JOBS][QM_JOB_ID_MAX];
	unsigned		 exports_gone;	/* bits: deleted */
	int			 npending;
	struct qm_event		 pending[QM_MAX_PENDING];
};

void	 qm_state_init(struct qm_state *, const struct qm_config *);

/* Does the state run the guest (alive, running, and it holds it)? */
int	 qm_runs_guest(const struct qm_state *);

/* ---- commands ------------------------------------------------------- */

/* One command as the model reads it (qm_cmd_parse). */
struct qm_cmd {
	char			 name[48];
	char			 id[48];	/* "" when none */
	unsigned		 args;		/* QM_IF_RESUME, ... */
	unsigned		 caps_on;	/* migrate-set-capabilities */
	unsigned		 caps_off;
	int			 mode;		/* set-parameters: -1 none */
	int			 exit_on_error;	/* migrate-incoming: -1 none */
	char			 job[QM_JOB_ID_MAX];	/* job-id / device */
	char			 path[64];	/* qom-get / qom-list path */
};

/* A command line (or json-c object, as void *) -> cmd; -1: not one. */
int	 qm_cmd_parse(const char *line, struct qm_cmd *);
int	 qm_cmd_parse_json(const void *json_object, struct qm_cmd *);

/* Does the model know this command (a state change or an answer)? */
int	 qm_cmd_known(const char *name);

/*
 * The refusals that apply to cmd in s, into idx[] (at most max); returns
 * how many.  *certain is set when one of them is not a "may" refusal
 * (then QEMU cannot succeed).
 */
size_t	 qm_refusals_for(const struct qm_state *, const struct qm_cmd *,
	    int *idx, size_t max, int *certain);

/*
 * Applies cmd's success to s: the CMD row that matches (its effects and
 * events), or the command's own effect where it has no row (query-*,
 * capabilities, parameters, jobs).  Returns the row, or -1.
 */
int	 qm_apply_cmd(struct qm_state *, const struct qm_cmd *);

/*
 * Does a recorded return value fit s (s as it was when QEMU answered)?
 * Checks what the model holds: query-migrate's status and total-time,
 * query-status, the capabilities and parameters it models, the jobs.
 * 0 if it fits, else -1 with *why (malloc'd).
 */
int	 qm_return_fits(const struct qm_state *, const struct qm_cmd *,
	    const void *json_return, char **why);

/*
 * A QM_MAY_AFTER_SETUP refusal of cmd in s: its success (SETUP), then the
 * stream's connect-failed row and QEMU's own rows to FAILED.  0, or -1 if
 * the table has no such path.
 */
int	 qm_refuse_after_setup(struct qm_state *, const struct qm_cmd *);

/* The answer line QEMU writes for cmd in s (refusal: -1, or its row);
   qm_answer_json: the same as a json-c object, for a world that adds to
   it (the caller puts it). */
char	*qm_answer(const struct qm_state *, const struct qm_cmd *,
	    int refusal);
struct json_object *qm_answer_json(const struct qm_state *,
	    const struct qm_cmd *, int refusal);

/* ---- QEMU's own moves and the world's -------------------------------- */

/*
 * The rows other than commands enabled in s, into rows[] (at most max):
 * each entry is row | job << 16 (job rows name the job).  qm_take applies
 * one; its events go to s->pending.
 */
size_t	 qm_enabled(const struct qm_state *, int *rows, size_t max);
void	 qm_take(struct qm_state *, int entry);

/*
 * Everything of a state (and of the table's switches) that qm_enabled()
 * reads: two states with equal keys (memcmp; qm_enabled_key zeroes the
 * padding) have the same enabled rows, so a caller that steps one QEMU
 * often may keep its last answer while the key stays (qm_advance).
 */
struct qm_enabled_key {
	int		 disabled_row;
	int		 version;
	int		 alive;
	int		 status;
	int		 runstate;
	unsigned	 flags;
	int		 njobs;
	int		 job_status[QM_MAX_JOBS];
	unsigned	 job_flags[QM_MAX_JOBS];
};
void	 qm_enabled_key(const struct qm_state *, struct qm_enabled_key *);

/* An event line as QEMU writes it. */
char	*qm_event_line(const struct qm_state *, const struct qm_event *,
	    double now);
/* Is the json-c event object this event?  1 yes, 0 no. */
int	 qm_event_is(const struct qm_state *, const struct qm_event *,
	    const void *json_event);
/* Is this event one the model makes at all (else it is not modelled)? */
int	 qm_event_modelled(const char *name);

/* ---- the simulator's QEMU: a state plus the world's hooks ----------- */

struct qm_qemu;

struct qm_world {
	void	*arg;
	/* A choice among n (0..n-1): the seeded world's. */
	int	 (*choose)(void *arg, int n);
	/* The target listening on uri, NULL if none (the source connects). */
	struct qm_qemu *(*listener)(void *arg, const char *uri);
	/* s from migrate until pre-copy may converge, < 0 never; NULL:
	   a few of QEMU's steps, or never, by choose. */
	double	 (*converge)(void *arg);
	/* s from post-copy's start until its last page is sent; NULL: at
	   QEMU's next step. */
	double	 (*postcopy_len)(void *arg);
	/* The target whose NBD server a source's blockdev-add reaches at
	   uri, NULL if none (qemu-model-disks.c checks it serves there). */
	struct qm_qemu *(*nbd_listener)(void *arg, const char *uri);
	/* s from blockdev-mirror until disk's copy is done, < 0 never
	   (-1: it creeps on, -2: it stalls); NULL: 1 s. */
	double	 (*mirror_len)(void *arg, int disk);
};

struct qm_qemu	*qm_new(const struct qm_config *, const struct qm_world *);
void		 qm_free(struct qm_qemu *);

/* The greeting line ({"QMP": ...} with the version's numbers). */
char		*qm_greeting(const struct qm_qemu *);
/* One command line in; its answer and any events queue as output. */
void		 qm_input(struct qm_qemu *, const char *line, double now);
/* The next output line (malloc'd), NULL when none is queued. */
char		*qm_output(struct qm_qemu *);
/* The URI a target listens on (migrate-incoming's), NULL if none. */
const char	*qm_listen_uri(const struct qm_qemu *);
/* How many listeners migrate-incoming and migrate-recover opened: each
   binds its unix: path anew (QEMU unlinks what was there first). */
int		 qm_binds(const struct qm_qemu *);
/* Connections waiting in a listening target's accept queue (0 or 1). */
int		 qm_accept_queued(const struct qm_qemu *);
/* When the model next moves on its own (INFINITY: only when told). */
double		 qm_due(const struct qm_qemu *);
/* Takes QEMU's own rows due by now (the world's choose picks).  0: it
   took none and nothing changed but its clock (an idle step, or none
   due); 1: it moved. */
int		 qm_advance(struct qm_qemu *, double now);

/* The world's moves. */
void		 qm_kill(struct qm_qemu *);		/* SIGKILL */
/* SIGSTOP (stopped 1) or SIGCONT at now: a stopped QEMU takes no step,
   reads nothing (its stream's sender, its mirrors' NBD writes wait: their
   sockets' buffers are full) and writes nothing. */
void		 qm_sigstop(struct qm_qemu *, int stopped, double now);
void		 qm_fail_load(struct qm_qemu *target);	/* next load fails */
void		 qm_break_stream(struct qm_qemu *);	/* either side */
void		 qm_break_nbd(struct qm_qemu *source);	/* its NBD links */
/* How many of a source's NBD links are not known broken. */
int		 qm_nbd_links(const struct qm_qemu *source);
/* Mirror job slot j's world: its NBD link broke or a BLOCK_JOB_ERROR
   went out (1), or not. */
int		 qm_job_io_error(const struct qm_qemu *, int j);

const struct qm_state *qm_state(const struct qm_qemu *);

/*
 * cpr-exec (11.1) as the world sees it.  Once the source completed, its
 * exec row ends the old QEMU (qm_state's alive goes 0: its monitors
 * close) while the process stays, with the same pid: for 20-50 ms
 * nothing listens on the monitor's path (QM_XP_GAP: connect refused),
 * then the new QEMU, a fresh model for the command line QEMU was given
 * (cpr-exec-command: -incoming, -S), greets on the same path and loads
 * the file the old one wrote (QM_XP_REBORN).  How it goes is the world's
 * draw, set before the migration (default QM_EXEC_OK).
 */
enum qm_exec_outcome {
	QM_EXEC_OK,
	QM_EXEC_EXECVP_FAILS,	/* execvp fails: COMPLETED -> FAILED, the
				   old QEMU runs the guest again, its mode
				   still cpr-exec (reference trap 3) */
	QM_EXEC_EXITS,		/* the new program exits at its start (a
				   wrapper's exit 1, a bad option): the
				   monitor never comes back (trap 4) */
	QM_EXEC_SILENT,		/* the process lives, its monitor never
				   comes back (a hung start) */
	QM_EXEC_LOAD_FAILS,	/* it greets, its load fails, it exits
				   (exit-on-error): the guest is lost */
	QM_EXEC_FRESH		/* the exec'd wrapper starts QEMU without
				   -incoming: a fresh guest boots (trap 2) */
};
enum qm_exec_phase {
	QM_XP_NONE,		/* no exec (yet) */
	QM_XP_GAP,		/* exec'd, the monitor's path not bound */
	QM_XP_REBORN,		/* the new QEMU: qm_state is its */
	QM_XP_SILENT,		/* the process up, its monitor never */
	QM_XP_EXITED		/* the process gone after the exec */
};
void		 qm_set_exec(struct qm_qemu *, enum qm_exec_outcome);
enum qm_exec_phase qm_exec_phase(const struct qm_qemu *);
/* The process exists (its pid): alive, or between the exec and a monitor
   that may never come. */
int		 qm_process_alive(const struct qm_qemu *);
/* The guest the process runs is a fresh boot, not the one it had. */
int		 qm_fresh_guest(const struct qm_qemu *);

#endif
