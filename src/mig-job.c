/*
 * mig-job.c: runs a job's step function (mig-job.h) on the event loop:
 * each JOB_SEND becomes a qmp_send() whose callback calls the step again,
 * each JOB_WAIT a one-shot timer.  A small ticket rides with every command
 * so that an answer arriving after the job was stopped or restarted is
 * dropped instead of stepping a program that moved on.  A running job
 * holds its connection: its owner may close it (a reconnect) while the
 * job waits, and the job's next command then fails on it, not on freed
 * memory.
 */
#include <stdlib.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "qmp.h"
#include "mig-job.h"
#include "world.h"

struct job_ticket {
	struct mig_job	*job;
	unsigned	 gen;
};

static void	job_advance(struct mig_job *, struct json_object *,
		    const char *);

/* The job's hold on its connection goes (a closed one may be freed). */
static void
job_unhold(struct mig_job *job)
{
	job->closed = qmp_is_closed(job->qmp);
	qmp_release(job->qmp);
	job->qmp = NULL;
}

static void
job_end(struct mig_job *job, int ok, const char *cause)
{
	job->running = 0;
	world->timer_stop(job->loop, &job->wait);
	job_unhold(job);
	if (!ok)
		log_debug("job %s failed: %s", job->name, cause);
	job->done(job, ok, cause, job->arg);
}

static void
on_job_reply(struct qmp_conn *conn, struct json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	struct job_ticket	*t = arg;
	struct mig_job		*job = t->job;
	unsigned		 gen = t->gen;

	(void)conn;
	free(t);
	if (!job->running || job->gen != gen)
		return;
	job->error_class = error != NULL ? error_class : NULL;
	job_advance(job, error == NULL ? reply : NULL, error);
}

static void
on_job_wait(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct mig_job *job = container_of(w, struct mig_job, wait);

	(void)loop;
	(void)revents;
	if (job->running)
		job_advance(job, NULL, NULL);
}

/* Calls the step until it sends, waits or ends. */
static void
job_advance(struct mig_job *job, struct json_object *reply, const char *error)
{
	struct mig_job_cmd	 cmd;
	struct job_ticket	*t;
	char			*cause = NULL, *why = NULL;
	enum mig_job_next	 next;

	for (;;) {
		cmd.name = NULL;
		cmd.args = NULL;
		cmd.delay = 0;
		next = job->fn(job->ctx, &job->pc, reply, error, &cmd, &cause);
		job->error_class = NULL;
		free(why);
		why = NULL;
		reply = NULL;
		error = NULL;
		switch (next) {
		case JOB_SEND:
			t = xcalloc(1, sizeof *t);
			t->job = job;
			t->gen = job->gen;
			if (qmp_send(job->qmp, cmd.name, cmd.args,
			    MIG_JOB_CMD_TIMEOUT, on_job_reply, t, &why) == 0)
				return;
			free(t);
			error = why;	/* the step hears it as an answer */
			continue;
		case JOB_WAIT:
			json_object_put(cmd.args);
			ev_timer_set(&job->wait, cmd.delay, 0);
			world->timer_start(job->loop, &job->wait);
			return;
		case JOB_DONE:
			job_end(job, 1, NULL);
			return;
		case JOB_FAILED:
			job_end(job, 0, cause != NULL ? cause : "failed");
			free(cause);
			return;
		}
	}
}

void
mig_job_start(struct mig_job *job, struct ev_loop *loop,
    struct qmp_conn *qmp, const char *name, mig_job_fn fn, void *ctx,
    mig_job_done_cb done, void *arg)
{
	mig_job_stop(job);
	job->loop = loop;
	job->qmp = qmp;
	qmp_hold(qmp);
	job->closed = 0;
	job->name = name;
	job->fn = fn;
	job->ctx = ctx;
	job->pc = 0;
	job->done = done;
	job->arg = arg;
	job->error_class = NULL;
	ev_timer_init(&job->wait, on_job_wait, 0, 0);
	job->running = 1;
	log_debug("job %s", name);
	job_advance(job, NULL, NULL);
}

void
mig_job_stop(struct mig_job *job)
{
	job->gen++;
	if (job->running) {
		world->timer_stop(job->loop, &job->wait);
		job_unhold(job);
	}
	job->running = 0;
}
