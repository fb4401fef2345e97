/*
 * sim.h: the handoff simulator (tests/sim/README.md).  Both sides' real
 * step functions (session_step, src/mig-session*.c) run together in one
 * process, with simulated time, a model of each QEMU and its monitor, the
 * control link, and the executor's role (what src/mig-watch.c,
 * src/mig-source.c and src/mig-target.c do with actions and outcomes)
 * played by exec.c.  One 64-bit seed decides everything.
 */
#ifndef SIM_H
#define SIM_H

#include <stdint.h>
#include <stdio.h>

#include "qmigrate.h"
#include "mig-session.h"

#define SRC	0
#define MAX_PCMD	64
#define TGT	1

/* ---- rng.c --------------------------------------------------------- */
struct rng {
	uint64_t s[4];
};
void	 rng_seed(struct rng *, uint64_t);
uint64_t rng_next(struct rng *);
double	 rng_unit(struct rng *);		/* [0, 1) */
double	 rng_range(struct rng *, double lo, double hi);
int	 rng_chance(struct rng *, double p);

/* ---- faults, counted by kind --------------------------------------- */
enum fault {
	F_HOLD,			/* an answer held past the 10 s timeout */
	F_HOLD_SHORT,		/* an answer held under it */
	F_DROP,			/* a command dropped */
	F_CUT,			/* a monitor connection cut */
	F_REFUSE,		/* ... reconnects refused for a while */
	F_QEMU_STOP,		/* SIGSTOP then SIGCONT */
	F_QEMU_KILL,
	F_LOAD_FAIL,		/* the target's load fails */
	F_LINK_CUT,		/* control and data between the hosts */
	F_CONTROL_CUT,		/* the control connection only */
	F_ANSWER_LATE,		/* a control message delayed */
	F_SIGNAL,
	F_DEADLINE,		/* a --timeout set */
	F_KILL_SIDE,		/* SIGKILL of a qmigrate, then its re-run */
	F_RERUN_AFTER_8,	/* the re-run the README prescribes after 8 */
	F_COUNT,
};
extern const char *fault_names[F_COUNT];

/* ---- violations, counted by kind ----------------------------------- */
enum viol {
	V_BOTH_RUN,		/* both QEMUs run the guest */
	V_EXIT_PHASE,		/* exit status and phase disagree */
	V_EXIT_0_NOT_TARGET,	/* 0 but the guest is not on the target */
	V_EXIT_SOURCE_NOT_RUNNING, /* 2/3/4/5 but it does not run on the
				      source */
	V_EXIT_6_NOT_LOST,	/* 6 but the guest is whole somewhere */
	V_EXIT_8_KNOWN,		/* 8 with nothing that hid the outcome */
	V_EXIT_OTHER,		/* an exit status nobody expects */
	V_NO_END,		/* a side past its bound in simulated time */
	V_OVERFLOW,		/* a step ran out of action room */
	V_COUNT,
};
extern const char *viol_names[V_COUNT];

/* ---- what happened, for naming the window a violation falls in ---- */
enum saw {
	SAW_TGT_CONT_LOST = 1 << 0,	/* target's cont: no answer */
	SAW_TGT_MON_LOST = 1 << 1,	/* target: QMP_CLOSED or SILENT */
	SAW_ANSWER_FAILED = 1 << 2,	/* target answered "failed" */
	SAW_SRC_MIGRATE_LOST = 1 << 3,	/* source's migrate: no answer */
	SAW_TGT_DEADLINE_EARLY = 1 << 4, /* target deadline, nothing seen */
	SAW_POSTCOPY_LOST = 1 << 5,	/* migrate-start-postcopy: none */
	SAW_CANCEL_LOST = 1 << 6,	/* migrate_cancel: no answer */
	SAW_SRC_RECONNECT = 1 << 7,
	SAW_SRC_CONT_LOST = 1 << 8,	/* source's cont: no answer */
	SAW_ALREADY_DONE = 1 << 9,	/* a re-run: SETUP_ALREADY_DONE */
	SAW_NOT_MIGRATABLE = 1 << 10,	/* a re-run: "already migrated" */
	SAW_TGT_SIGNAL = 1 << 11,
	SAW_SRC_MON_LOST = 1 << 12,	/* source: QMP_CLOSED or SILENT */
	SAW_RUNNING_ANSWERED = 1 << 13,	/* source heard "running" */
	SAW_RERUN_FRESH_AFTER_8 = 1 << 14, /* a re-run after 8: FRESH */
	SAW_TGT_EARLY_ABORT = 1 << 15,	/* target: the source's abort came
					   before it saw a stream */
	SAW_CLOSE_RECORD_PAUSED = 1 << 16, /* a re-run closed the record of
					   a run that had paused the guest */
	SAW_QUEUED_UNLISTEN = 1 << 17,	/* unix: the path removed while a
					   source waited in the accept queue */
};

/* ---- the draw of one schedule (swarm testing) ---------------------- */
struct knobs {
	int	 tls;
	int	 dash_s;		/* target QEMU started with -S */
	int	 keep_paused;
	int	 exit_on_error;		/* target: QEMU exits on a failed load */
	int	 postcopy;		/* allowPostCopy */
	int	 disruption;		/* allowWorkloadDisruption */
	double	 acceptable;		/* completionTimeoutPerGiB × 1 GB */
	double	 converge;		/* seconds of pre-copy until it converges */
	double	 postcopy_len;		/* seconds of post-copy */
	double	 src_timeout, tgt_timeout;	/* --timeout, 0: none */
	double	 answer_delay;		/* QMP answers, seconds */
	double	 link_delay;		/* control messages, seconds */
	/* fault probabilities */
	double	 p_hold[2], p_hold_short[2], p_drop[2];
	double	 p_cut_on_change[2];	/* at each QEMU status change */
	double	 p_cut_after_cmd[2];	/* within 30 s of a command */
	double	 p_refuse_long;		/* a cut refuses reconnects 35-60 s */
	double	 p_load_fail;
	double	 p_link_cut, p_control_cut;
	double	 p_answer_late;
	double	 p_postcopy_break;	/* tls: the link at post-copy's start */
	int	 signals[2];		/* how many, each side */
	int	 sig_on_change[2];	/* a signal just after a status change */
	int	 kill_side[2];
	int	 qemu_stop[2];
	int	 qemu_kill[2];
	int	 monitor_cut[2];	/* cuts at random moments */
	int	 relay[2];		/* a relay in front of the monitor:
					   QEMU's pid is not known */
	int	 rerun_after_8;
	double	 horizon;		/* random moments fall in [0, horizon] */
};

/* ---- qemu.c: a QEMU ------------------------------------------------ */
struct qemu {
	int			 role;
	int			 alive;
	int			 stopped;	/* SIGSTOP */
	enum run_state		 rs;
	enum qemu_mig_status	 ms;
	char			 err[128];
	int			 got_guest;	/* target: loaded or post-copy */
	/* source: the migration */
	int			 migrations;	/* `migrate` commands run */
	double			 mig_start;
	double			 converge_at;	/* -1: waits for post-copy or
						   a pause */
	double			 active_s;	/* time spent moving */
	double			 last_t;
	int			 postcopy_started;
	/* target */
	int			 autostart;	/* no -S, or cont before load */
	int			 listening;	/* migrate-incoming */
	int			 unlistened;	/* the socket path removed */
	int			 accept_queued;	/* unix: a source connected,
						   not yet accepted */
	int			 recover_listening;
	int			 load_fail;	/* this load will fail */
	int			 exit_on_error;
	double			 refuse_until;	/* monitor refuses connects */
	uint64_t		 deferred[MAX_PCMD]; /* commands a stopped QEMU
						   has not read, in order */
	int			 ndeferred;
};

/* ---- exec.c: one side's executor ----------------------------------- */
enum pc_kind { PC_SESS, PC_QUERY, PC_STATUS, PC_JOB };

struct pcmd {
	int			 used;
	enum pc_kind		 kind;
	enum sess_cmd		 cmd;
	enum sess_job		 job;
	int			 conn_gen;
	int			 run;
	uint64_t		 id;
	int			 executed;
	int			 done;		/* answered, timed out, closed */
	int			 ok;
	char			 err[96];
	struct mig_info		 mi;		/* PC_QUERY: at execution */
	long			 queued;	/* PC_QUERY: the accept queue
						   as it was sent */
	double			 asked;		/* PC_QUERY: sent at */
	struct run_info		 ri;		/* PC_STATUS */
};

struct doc {				/* the status file, as last written */
	int			 exists;
	enum mig_phase		 phase;
	enum mig_mode		 mode;
	enum mig_failure	 failure;
	enum abort_status	 abort;
	int			 abort_requested;
};

struct side {
	int			 role;
	int			 alive;		/* the qmigrate process */
	int			 run;		/* 1, 2, ...: re-runs */
	int			 finished;
	int			 exit_code;
	double			 started;
	double			 finished_t;
	struct session		 sess;
	int			 stepping;
	struct sess_event	 queue[64];	/* events while stepping */
	struct mig_info		 qmi[64];
	struct run_info		 qri[64];
	struct control_msg	 qmsg[64];
	char			 qreason[64][128];
	int			 qflags[64];
	int			 nq;
	int			 keep_doc;	/* the setup left the file */
	int			 connecting;	/* 1 setup, 2 reconnect */
	int			 connect_failed;
	int			 conn_up;	/* the monitor connection */
	int			 query_inflight;
	uint64_t		 timer_gen[STIMER_COUNT];
	int			 setup_over;
	struct doc		 doc;
	/* what hid the outcome from this side (exit 8 is fair) */
	int			 monitor_trouble;
	int			 killed;	/* SIGKILLed, not re-run yet */
	int			 late;		/* past its bound: said once */
	int			 unreachable;	/* a re-run's setup found no QEMU */
};

/* ---- the control link (tls:) --------------------------------------- */
struct question {
	enum control_type	 type;
	char			 reason[128];
	double			 timeout;
	int			 postcopy;	/* COMPLETED: the action's */
};
struct link {
	int			 ctl_up;	/* a control connection */
	int			 ctl_gen;
	double			 refuse_until;	/* the network is down */
	struct question		 queue[32];
	int			 nq;
	int			 asked;		/* queue[0] is out */
	uint64_t		 asked_gen;
	int			 stream;	/* a data stream exists */
	int			 cut;		/* the target's proxy closed */
	double			 inflight_until; /* the last message's arrival */
};

/* ---- the world ----------------------------------------------------- */
enum hap_kind {
	H_QMP_EXEC, H_QMP_ANSWER, H_QMP_TIMEOUT, H_POLL, H_TIMER,
	H_DEADLINE, H_SIGNAL, H_CONNECTED, H_CONNECT_TIMEOUT, H_SETUP,
	H_JOB, H_SWITCHOVER, H_LOAD_DONE, H_PC_DONE, H_CANCELLED,
	H_QEVENT, H_CUT, H_QEMU_STOP, H_QEMU_CONT, H_QEMU_KILL,
	H_CTL_DELIVER, H_CTL_ANSWER, H_CTL_TIMEOUT, H_LINK_CUT,
	H_KILL_SIDE, H_RERUN, H_SIG_SOON, H_QEMU_QUIT,
	H_CTL_CLOSE, H_ACCEPT,
};

struct hap {
	double		 t;
	uint64_t	 seq;
	enum hap_kind	 kind;
	int		 side;
	int		 run;		/* the side's run it belongs to */
	uint64_t	 gen;
	int		 a, b;
	double		 x;
	struct control_msg *msg;	/* H_CTL_DELIVER */
	enum control_answer answer;	/* H_CTL_ANSWER */
	char		 reason[128];
};

struct world {
	uint64_t	 seed;
	struct rng	 rng;
	struct knobs	 k;
	double		 now;
	struct hap	*heap;
	size_t		 nheap, capheap;
	uint64_t	 seq;
	uint64_t	 ids;
	struct qemu	 q[2];
	struct pcmd	 pc[2][MAX_PCMD];	/* commands in the monitors */
	int		 conn_gen[2];	/* the monitor connection now */
	int		 mon_gen[2];	/* ... whose queue mon_busy is */
	double		 mon_busy[2];	/* its last command's answer */
	int		 trouble[2];	/* what may hide the outcome */
	int		 rerun_pending;
	int		 both_ran;
	unsigned	 saw;
	char		 window[16];	/* the first violation's window */
	struct side	 sd[2];
	struct link	 ln;
	int		 trace;		/* print every happening and step */
	unsigned	 faults[F_COUNT];
	unsigned	 viols[V_COUNT];
	char		 first_viol[512];
	int		 steps;
	unsigned	 visited[2];	/* states each side entered (bits) */
	int		 stream_ever;
};

/* sim.c */
void	 sched(struct world *, double at, const struct hap *);
void	 sched_in(struct world *, double delay, enum hap_kind, int side,
	    uint64_t gen, int a);
void	 trace(struct world *, int side, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
void	 fault(struct world *, enum fault, int side, const char *what);
void	 violation(struct world *, enum viol, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/* qemu.c */
void	 qemu_init(struct world *, int role);
int	 qemu_runs_guest(const struct world *, int role);
void	 qemu_exec(struct world *, int role, struct pcmd *);
void	 qemu_sample(struct world *, int role, struct mig_info *);
void	 qemu_run_info(const struct world *, int role, struct run_info *);
void	 qemu_switchover(struct world *);
void	 qemu_accept(struct world *);
/*
 * --blind-queue: the target's executor reports an empty accept queue
 * whatever it holds, as qmigrate did before it read the queue (D27).
 */
extern int sim_blind_queue;
void	 qemu_load_done(struct world *, int was_running);
void	 qemu_postcopy_done(struct world *);
void	 qemu_cancelled(struct world *);
void	 qemu_stream_break(struct world *, const char *why);
void	 qemu_kill(struct world *, int role, const char *why);
void	 qemu_status_changed(struct world *, int role);
int	 qemu_stream_path(const struct world *);
void	 qemu_listen(struct world *);
void	 qemu_release_next(struct world *, int role);

/* exec.c */
void	 side_start(struct world *, int role);
void	 side_deliver(struct world *, int role, const struct sess_event *);
void	 side_hap(struct world *, const struct hap *);
void	 side_kill(struct world *, int role);
void	 monitor_closed(struct world *, int role, const char *why);
void	 link_ctl_lost(struct world *, const char *why);
void	 link_ctl_close(struct world *, const char *why);
void	 link_hap(struct world *, const struct hap *);
const char *ev_name(enum sess_ev_kind);
const char *act_name(enum sess_act_kind);

/* check.c */
void	 check_step(struct world *);
void	 check_finish(struct world *, int role);
void	 check_end(struct world *);

#endif
