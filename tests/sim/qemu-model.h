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

/* Conditions a row needs (need) or excludes (unless). */
#define QM_IF_RETURN_PATH	0x0001	/* capability return-path, or
					   postcopy-ram (which opens it) */
#define QM_IF_PAUSE_BEFORE	0x0002	/* pause-before-switchover */
#define QM_IF_POSTCOPY		0x0004	/* postcopy-ram */
#define QM_IF_EVENTS		0x0008	/* capability events */
#define QM_IF_WAS_RUNNING	0x0010	/* vCPUs ran when migration began */
#define QM_IF_INCOMING		0x0020	/* this QEMU is a target */
#define QM_IF_AUTOSTART		0x0040	/* no -S, or a cont while inmigrate */
#define QM_IF_EXIT_ON_ERROR	0x0080	/* migrate-incoming's default */
#define QM_IF_CPR		0x0100	/* mode cpr-transfer / cpr-exec */
#define QM_IF_SRC_RUNNING	0x0200	/* target: the stream's global
					   state says the source ran */
#define QM_IF_START_POSTCOPY	0x0400	/* migrate-start-postcopy given */
#define QM_IF_RESUME		0x0800	/* migrate resume=true given */

struct qm_row {
	enum qm_row_kind	 kind;
	int			 from;		/* -1: any */
	int			 to;
	enum qm_trigger		 trigger;
	const char		*cmd;		/* QM_T_CMD: the command; else
						   the world's move's name */
	unsigned		 versions;	/* QM_VBIT()s */
	unsigned		 need;		/* QM_IF_* all required */
	unsigned		 unless;	/* QM_IF_* none allowed */
	const char		*qemu_fn;	/* QEMU's function making it */
};

/* The table, and how many rows; qm_disabled (tests only) hides one. */
extern const struct qm_row	 qm_rows[];
extern const size_t		 qm_nrows;
extern int			 qm_disabled_row;	/* -1: none */

/* ---- one QEMU process ----------------------------------------------- */

/* How the QEMU was started (its command line). */
struct qm_config {
	enum qm_version	 version;
	int		 incoming;	/* -incoming defer */
	int		 stopped;	/* -S: prelaunch, or no autostart */
	int		 shared_ram;	/* memory-backend with share=on and
					   aux-ram-share=on (cpr-transfer) */
	int		 cpr_incoming;	/* a second -incoming channel cpr */
	int		 disks;		/* block devices (drive0..) */
};

/*
 * The model's state: everything an answer depends on.  Plain data (the
 * checker copies and compares it); the fields are the model's, read them
 * through the functions below.
 */
#define QM_MAX_JOBS	4
#define QM_MAX_PENDING	8
struct qm_job {
	char			 id[32];
	enum qm_job_status	 status;
	int			 cancelled;	/* block-job-cancel given */
};
struct qm_state {
	enum qm_version		 version;
	struct qm_config	 cfg;
	enum qm_status		 status;
	enum qm_runstate	 runstate;
	unsigned		 caps;		/* QM_IF_* set by capabilities */
	unsigned		 flags;		/* other QM_IF_* */
	int			 mode;		/* 0 normal, 1 cpr-transfer,
						   2 cpr-exec */
	int			 incoming_started;
	int			 have_total_time;
	int			 alive;
	int			 stopped;	/* SIGSTOP */
	int			 nbd_server;
	struct qm_job		 jobs[QM_MAX_JOBS];
	/* Events made by a transition and not yet written (the checker:
	   seen later in the trace).  Indices into qm_event_names. */
	int			 pending[QM_MAX_PENDING];
	int			 npending;
};

void	 qm_state_init(struct qm_state *, const struct qm_config *);

/* Does the state run the guest (alive, running, holds the guest)? */
int	 qm_runs_guest(const struct qm_state *);

/*
 * Answers one command line (a JSON object as qmigrate writes it: execute,
 * arguments, id) from state s, into out (a JSON line with the same id,
 * as QEMU writes it), and changes s as QEMU would.  Returns the row
 * applied (>= 0), -1 for a command without a state change, -2 for a
 * line the model cannot parse.  Events the command makes are appended
 * to s->pending.
 */
int	 qm_command(struct qm_state *s, const char *line, char **out);

/*
 * The non-command rows enabled in s (QEMU's own progress and the world's
 * moves), into rows[] (at most max); returns how many.  qm_take applies
 * one (its events go to s->pending).
 */
size_t	 qm_enabled(const struct qm_state *, int *rows, size_t max);
void	 qm_take(struct qm_state *, int row);

/* The next pending event as a JSON line QEMU writes (NULL: none). */
char	*qm_event_line(struct qm_state *, double now);

/* ---- the simulator's QEMU: a state plus the world's hooks ----------- */

struct qm_qemu;

struct qm_world {
	void	*arg;
	/* A choice among n (0..n-1): the seeded world's. */
	int	 (*choose)(void *arg, int n);
	/* The target listening on uri, NULL if none (the source connects). */
	struct qm_qemu *(*listener)(void *arg, const char *uri);
};

struct qm_qemu	*qm_new(const struct qm_config *, const struct qm_world *);
void		 qm_free(struct qm_qemu *);

/* The greeting line ({"QMP": ...} with the version's numbers). */
char		*qm_greeting(const struct qm_qemu *);
/* One command line in; its answer and any events queue as output. */
void		 qm_input(struct qm_qemu *, const char *line, double now);
/* The next output line (malloc'd), NULL when none is queued. */
char		*qm_output(struct qm_qemu *);
/* When the model next moves on its own (INFINITY: only when told). */
double		 qm_due(const struct qm_qemu *);
/* Takes the rows due by now (the world's choose picks among several). */
void		 qm_advance(struct qm_qemu *, double now);

/* The world's moves. */
void		 qm_kill(struct qm_qemu *);		/* SIGKILL */
void		 qm_sigstop(struct qm_qemu *, int stopped);
void		 qm_fail_load(struct qm_qemu *target);	/* next load fails */
void		 qm_break_stream(struct qm_qemu *);	/* either side */

const struct qm_state *qm_state(const struct qm_qemu *);

#endif
