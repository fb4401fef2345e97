/*
 * mig-job.h: QMP work of several commands, run without a nested loop.
 *
 * A job is a small program written as a step function over a program
 * counter (libnbd's states, one function per job): each call gets the
 * answer to the command the previous call asked for and says what comes
 * next: another command, a pause, or the end.  mig-job.c sends the
 * commands with qmp_send() and calls the step again from the answer's
 * callback, so the migration's one event loop keeps serving signals,
 * timers and the peer while a job runs.  Used for everything the session
 * needs from QEMU beyond single commands: the source's setup queries, the
 * capabilities, the disks' mirrors and exports (mig-disks.c).
 */
#ifndef MIG_JOB_H
#define MIG_JOB_H

#include <ev.h>

struct json_object;
struct qmp_conn;
struct mig_job;

/* Every command a job sends gets this long to be answered. */
#define MIG_JOB_CMD_TIMEOUT	10.0

enum mig_job_next {
	JOB_SEND,	/* send cmd, call again with its answer */
	JOB_WAIT,	/* call again after cmd->delay seconds */
	JOB_DONE,
	JOB_FAILED,	/* *cause set */
};

struct mig_job_cmd {
	const char		*name;
	struct json_object	*args;	/* stolen; NULL: none */
	double			 delay;	/* JOB_WAIT */
};

/*
 * One step: *pc is where the program stands (0 at the start).  reply
 * (borrowed) or error answers the last JOB_SEND; both are NULL at the
 * start and after a JOB_WAIT.
 */
typedef enum mig_job_next (*mig_job_fn)(void *ctx, int *pc,
    struct json_object *reply, const char *error, struct mig_job_cmd *cmd,
    char **cause);

/* The job ended: ok, or not with cause (borrowed). */
typedef void (*mig_job_done_cb)(struct mig_job *, int ok, const char *cause,
    void *arg);

struct mig_job {
	struct ev_loop		*loop;
	struct qmp_conn		*qmp;
	const char		*name;		/* for logs */
	mig_job_fn		 fn;
	void			*ctx;
	int			 pc;
	mig_job_done_cb		 done;
	void			*arg;
	ev_timer		 wait;
	unsigned		 gen;		/* answers of older runs: ignored */
	int			 running;
	/*
	 * While the step runs on an error: its class (QEMU's, or "Timeout"
	 * or "Closed": no answer, mig-watch.c's SO_NO_ANSWER); else NULL.
	 */
	const char		*error_class;
	/* Once ended or stopped: its connection had closed (SO_NO_ANSWER). */
	int			 closed;
};

/* Starts fn on qmp; done is called once, from the loop or at once. */
void	mig_job_start(struct mig_job *, struct ev_loop *, struct qmp_conn *,
	    const char *name, mig_job_fn, void *ctx, mig_job_done_cb,
	    void *arg);
/* Forgets a running job: no further step, no done callback. */
void	mig_job_stop(struct mig_job *);

#endif
