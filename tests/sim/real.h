/*
 * real.h: the simulator that runs the real executor (issue 37 part 1,
 * stage 2; tests/sim/README.md).  Each side's mig_source_run() or
 * mig_target_run() runs unchanged on a fiber of its own; everything
 * outside qmigrate is the world's: the clock, timers, signals, the
 * monitors' sockets (socketpairs whose other end the world's QEMU
 * answers), processes, files and output (world-sim.c implements
 * lib/world.h's ops).  real.c draws a schedule from a seed, runs it and
 * checks the promise.
 */
#ifndef REAL_H
#define REAL_H

#include <stdint.h>
#include <stdio.h>

#include <ev.h>

#include "world-qemu.h"
#include "qmigrate.h"
#include "mig-session.h"
#include "rng.h"

#define R_SRC		0
#define R_TGT		1
#define R_MAX_TIMERS	128
#define R_MAX_SIGS	16
#define R_MAX_CONNS	16
#define R_MAX_FILES	8

struct fiber;

struct r_timer {
	ev_timer	*t;
	struct ev_loop	*loop;
	int		 side;
	double		 due;
	uint64_t	 seq;
};

struct r_signal {
	ev_signal	*s;
	struct ev_loop	*loop;
	int		 side;
};

/* A monitor connection: the client's fd is qmigrate's, srv the QEMU's. */
struct r_conn {
	int		 used;
	int		 side;
	int		 qemu;		/* R_SRC or R_TGT */
	int		 client, srv;
	char		 in[65536];
	size_t		 nin;
	unsigned long	 drained;	/* fiber_resumes() + 1 when a read
					   found its socket empty, 0 */
	unsigned	 gen;		/* its QEMU's connections, counted */
};

/* A line QEMU wrote that the world holds back (a late answer). */
#define R_MAX_HELD	256
struct r_held {
	double		 at;
	unsigned	 gen;		/* for this connection only */
	char		*line;
};

struct r_file {
	char		 path[128];
	char		*data;
	size_t		 len;
	int		 writes;
};

/*
 * stdout (--events, the final document) and stderr (the log): one
 * socketpair each, qmigrate writes one end (output.c's queues, shared by
 * the two sides: one process), the world reads the other as the reader
 * would, or stops reading, or closes it (EPIPE).
 */
#define R_OUT_STDOUT	0
#define R_OUT_STDERR	1
struct r_out {
	int		 wr, rd;
	double		 stop_at;	/* the reader stops reading, 0: never */
	double		 resume_at;	/* and reads again, 0: never */
	double		 close_at;	/* and closes its end, 0: never */
	int		 stopped, closed;
	char		 line[8192];	/* a line begun, stderr */
	size_t		 nline;
	int		 unread;	/* bytes sent since the reader
					   last emptied the socket */
	int		 waiting;	/* a write was refused: output.c
					   holds a queue for the reader */
	unsigned long	 refused;	/* writes refused in a row (EAGAIN) */
	int		 side;		/* ... by this side */
	unsigned long	 turn;		/* ... in this turn of it */
};

struct r_side {
	struct fiber	*fiber;
	int		 started, done, rc;
	double		 start_t, end_t;
	double		 stopped_until;	/* SIGSTOP of qmigrate itself */
	/* what the scheduler hands the fiber at its next turn */
	struct r_timer	 due_timers[R_MAX_TIMERS];
	int		 ndue;
	int		 signal;	/* 0: none */
	int		 dirty;		/* bytes or an end on its sockets */
	int		 died_by;	/* the signal that killed it, 0 */
	int		 runs;		/* 1, then 2 after a SIGKILL's re-run */
	double		 rerun_at;	/* 0: none due */
	unsigned long	 turns;		/* world_sim_turn()s, counted */
	int		 write_blocked;	/* asleep in write(2): the stream */
};

struct r_knobs {
	double		 converge, load;
	int		 load_fails, dash_s;
	double		 answer_delay;
	double		 sig_at[2];	/* 0: none */
	int		 sig_num[2];
	double		 tgt_timeout, src_timeout;
	double		 p_write_fail;
	double		 stop_at[2], stop_len[2];	/* qmigrate stopped */
	double		 qemu_kill_at[2];
	int		 hold_k[2];	/* the k-th answer held, 0: none */
	double		 hold_len[2];
	double		 sigkill_at[2];	/* SIGKILL of qmigrate, then ... */
	double		 rerun_after[2];	/* ... its re-run, so long after */
	int		 events[2];	/* --events */
	int		 timeout_action;	/* the source's, with --timeout */
	double		 full_from, full_until;	/* the status files'
					   filesystem full (a tmpfs) */
	double		 qemu_kill2_at[2];	/* a QEMU killed, late draw */
	int		 qemu_kind;	/* enum wq_kind */
	int		 qemu_version;	/* the model's enum qm_version */
	int		 postcopy;	/* post-copy allowed, both sides */
	int		 never_converges;	/* pre-copy never converges */
	double		 postcopy_len;	/* s of post-copy once begun */
	double		 pc_break[2];	/* s into post-copy the stream
					   breaks (0: never) */
	double		 recover_timeout;	/* --recover-timeout, both */
	int		 ndisks;	/* local disks copied (real-disks.c) */
	double		 mirror_len[2];	/* s until each mirror is done, < 0
					   never */
	double		 nbd_break_at;	/* the network breaks NBD, 0 never */
	int		 disk_short;	/* the target's disk0 too small */
};

struct r_world {
	uint64_t	 seed;
	struct rng	 rng;
	struct r_knobs	 k;
	double		 now;
	int		 cur;		/* the side whose fiber runs, -1 */
	uint64_t	 seq;
	struct r_timer	 timers[R_MAX_TIMERS];
	int		 ntimers;
	struct r_signal	 sigs[R_MAX_SIGS];
	int		 nsigs;
	struct r_conn	 conns[R_MAX_CONNS];
	struct r_file	 files[R_MAX_FILES];
	struct wq	*q[2];
	unsigned	 conn_gen[2];
	int		 answers[2];	/* answers each QEMU wrote */
	struct r_held	 held[2][R_MAX_HELD];
	int		 nheld[2];
	struct r_side	 sd[2];
	struct r_out	 out[2];
	struct rng	 rng_out;	/* the output faults' own draw: the
					   other faults' schedule stays as
					   it was before they came */
	struct rng	 rng_qemu;	/* the world's QEMU: which, and the
					   model's choices among QEMU's rows */
	int		 trace;
	int		 write_fails;
	struct fiber	*abandoned[64];	/* ended or SIGKILLed runs' fibers */
	int		 nabandoned;
	int		 both_ran;
	double		 postcopy_began;	/* the source QEMU entered
					   postcopy-active (0: never) */
	int		 pc_breaks;	/* of k.pc_break, done */
	int		 tgt_completed;	/* the target QEMU said completed */
	int		 qemu_killed[2];	/* by the world: excuses where the
					   guest is not */
};

extern struct r_world R;
extern FILE *r_dump;	/* --dump: what the world was given, or NULL */

/* world-sim.c */
void	 world_sim_install(void);
void	 world_sim_turn(struct ev_loop *loop);
const struct r_file *world_sim_file(const char *path);
void	 world_sim_put_file(const char *path, const char *data, size_t len);
void	 world_sim_kill_qemu(int which);
void	 world_sim_cut_monitor(int which);
void	 world_sim_qemu_continued(int which);
void	 world_sim_side_gone(int side);
void	 world_sim_pump(void);
double	 world_sim_next_release(void);
void	 world_sim_out_open(void);
void	 world_sim_out_close(void);
double	 world_sim_out_due(void);
void	 world_sim_out_happen(void);
void	 r_log_line(const char *line, size_t len);	/* real.c */
void	 r_violation(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));
/* real-faults.c: faults at QEMU's events, the operator's pause */
void	 rf_draw(void);
void	 rf_before_source(void);
void	 rf_qemu_line(int which, const char *line);
int	 rf_disk_full(void);
int	 rf_operator_paused(void);
int	 rf_cmdline_known(void);
void	 rf_report(FILE *);
/* real-monitor.c: the monitors' own faults (cuts, refused connects,
   dropped commands) */
void	 rm_draw(void);
int	 rm_refused(int which);
int	 rm_refused_past(int which, double secs);
void	 rm_command(int which);
int	 rm_dropped(int which, unsigned gen, int side);
int	 rm_muted(int which, unsigned gen);
int	 rm_late(int which, unsigned gen, int side, const char *line);
void	 rm_qemu_line(int which, const char *line);
double	 rm_due(void);
void	 rm_happen(void);
void	 rm_report(FILE *);
/* real-rerun.c: the agent's re-runs after 8, and after a 3 that left the
   file */
void	 rr_draw(void);
void	 rr_ended(int side, const char *status_path);
void	 rr_started(int side, const char *status_path);
void	 rr_report(FILE *);
/* real-qemu-stop.c: a QEMU stopped (SIGSTOP), then continued */
void	 rqs_draw(void);
int	 rqs_stopped(int which);
int	 rqs_stopped_past(int which, double secs);
double	 rqs_due(void);
void	 rqs_happen(void);
void	 rqs_report(FILE *);
/* real-props.c: P9 and on */
void	 rp_start(void);
void	 rp_write_failed(const char *path);
void	 rp_check_now(void);
void	 rp_check_end(void);
void	 rp_report(FILE *);
const char *rp_hidden(int side);
unsigned long rp_write_fails(int side);
/* real-disks.c: the VM's local disks, their mirrors' faults, D1 */
void	 rd_draw(void);
void	 rd_start(void);
double	 rd_due(void);
int	 rd_pending(void);
void	 rd_happen(void);
void	 rd_check_now(void);
void	 rd_check_end(void);
/* A disk's mirror write failed while the source's guest last ran. */
int	 rd_write_failed(void);
void	 rd_report(FILE *);
/* real-switchover.c: qmigrate switchover, S1 and S2 */
void	 rs_draw(void);
double	 rs_due(void);
int	 rs_asker_waits(void);
void	 rs_happen(void);
void	 rs_doc_written(const char *path, const char *data);
void	 rs_doc_attempted(const char *path, const char *data, size_t len);
void	 rs_qemu_event(int which, const char *name, const char *status);
void	 rs_check_end(void);
void	 rs_report(FILE *);
void	 rp_hide(int side, const char *why);
/* real-update.c: the schedule kind update --mode exec, E1-E5 */
struct mig_options;
void	 ru_enable(void);
int	 ru_on(void);
void	 ru_setup(struct mig_options *);
struct wq *ru_new_qemu(const struct wq_world *);
void	 ru_check_now(void);
void	 ru_before_props(void);
void	 ru_check_end(void);
void	 ru_report(FILE *);
void	 ru_marker_write(const char *path, int ok);
/* real-tls.c: the tls: transport, its link and its faults */
void	 rt_install(void);
void	 rt_draw(int allowed);
int	 rt_on(void);
const char *rt_uri(void);
const char *rt_target_socket(void);
struct wq *rt_listener(const char *uri);
double	 rt_due(void);
void	 rt_happen(void);
void	 rt_side_gone(int side);
const char *rt_hidden(void);
void	 rt_report(FILE *);
void	 r_trace(int side, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

#endif
