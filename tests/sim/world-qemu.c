/*
 * world-qemu.c: world-qemu.h's two QEMUs.  The stub's calls pass through
 * to qemu-stub.c; the model's go to qemu-model-sim.c, with what the
 * model leaves to its world kept here: the socket path a target listens
 * on (the world's file, unlinked by the executor's SA_UNLISTEN), the
 * CRLF QEMU ends each line with, and the pace of pre-copy and post-copy
 * the seed drew.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "qemu-model.h"
#include "qemu-stub.h"
#include "world-qemu.h"

struct wq {
	struct wq_config	 cfg;
	struct wq_world		 w;
	struct sq		*sq;
	struct qm_qemu		*qm;
	int			 gone_bind;	/* model: the listener whose
						   unix: path was removed
						   (qm_binds; -1: none) */
};

static struct sq *
stub_listener(void *arg, const char *uri)
{
	struct wq	*q = arg, *t;

	t = q->w.listener(q->w.arg, uri);
	return t != NULL ? t->sq : NULL;
}

static struct qm_qemu *
model_listener(void *arg, const char *uri)
{
	struct wq	*q = arg, *t;

	t = q->w.listener(q->w.arg, uri);
	return t != NULL ? t->qm : NULL;
}

static struct qm_qemu *
model_nbd_listener(void *arg, const char *uri)
{
	struct wq	*q = arg, *t;

	t = q->w.nbd_listener != NULL ? q->w.nbd_listener(q->w.arg, uri) :
	    NULL;
	return t != NULL ? t->qm : NULL;
}

static double
model_mirror_len(void *arg, int disk)
{
	struct wq	*q = arg;

	return disk >= 0 && disk < 2 ? q->cfg.mirror_len[disk] : 1;
}

static int
model_choose(void *arg, int n)
{
	struct wq	*q = arg;

	return q->w.choose(q->w.arg, n);
}

static double
model_converge(void *arg)
{
	struct wq	*q = arg;

	return q->cfg.converge;
}

static double
model_postcopy_len(void *arg)
{
	struct wq	*q = arg;

	return q->cfg.postcopy_len;
}

struct wq *
wq_new(const struct wq_config *cfg, const struct wq_world *w)
{
	struct wq	*q = xcalloc(1, sizeof *q);

	q->cfg = *cfg;
	q->w = *w;
	q->gone_bind = -1;
	if (cfg->kind == WQ_STUB) {
		struct sq_config	sc = {
			.incoming = cfg->incoming,
			.dash_s = cfg->dash_s,
			.converge = cfg->converge,
			.load = cfg->load,
			.load_fails = cfg->load_fails,
		};
		struct sq_world		sw = {
			.arg = q,
			.listener = stub_listener,
		};

		q->sq = sq_new(&sc, &sw);
	} else {
		struct qm_config	mc = {
			.version = (enum qm_version)cfg->version,
			.incoming = cfg->incoming,
			.stopped = cfg->dash_s,
			.ndisks = cfg->ndisks,
			.disk_short = cfg->disk_short,
		};
		struct qm_world		mw = {
			.arg = q,
			.choose = model_choose,
			.listener = model_listener,
			.converge = model_converge,
			.postcopy_len = model_postcopy_len,
			.nbd_listener = model_nbd_listener,
			.mirror_len = model_mirror_len,
		};

		q->qm = qm_new(&mc, &mw);
		if (cfg->incoming && cfg->load_fails)
			qm_fail_load(q->qm);
	}
	return q;
}

void
wq_free(struct wq *q)
{
	if (q == NULL)
		return;
	sq_free(q->sq);
	qm_free(q->qm);
	free(q);
}

const char *
wq_name(const struct wq *q)
{
	return q->sq != NULL ? "stub" :
	    qm_version_name((enum qm_version)q->cfg.version);
}

/* A line of the model's, ended as QEMU ends it (malloc'd). */
static char *
crlf(char *line)
{
	char	*s;

	if (line == NULL)
		return NULL;
	xasprintf(&s, "%s\r\n", line);
	free(line);
	return s;
}

char *
wq_greeting(const struct wq *q)
{
	return q->sq != NULL ? sq_greeting(q->sq) :
	    crlf(qm_greeting(q->qm));
}

void
wq_input(struct wq *q, const char *line, double now)
{
	if (q->sq != NULL)
		sq_input(q->sq, line, now);
	else
		qm_input(q->qm, line, now);
}

char *
wq_output(struct wq *q)
{
	return q->sq != NULL ? sq_output(q->sq) : crlf(qm_output(q->qm));
}

double
wq_due(const struct wq *q)
{
	return q->sq != NULL ? sq_due(q->sq) : qm_due(q->qm);
}

int
wq_advance(struct wq *q, double now)
{
	return q->sq != NULL ? sq_advance(q->sq, now) :
	    qm_advance(q->qm, now);
}

/* The stub has no stream to stall: a stopped stub only takes no step
   (real.c) and is silent (world-sim.c), as before. */
void
wq_sigstop(struct wq *q, int stopped, double now)
{
	if (q->qm != NULL)
		qm_sigstop(q->qm, stopped, now);
}

void
wq_kill(struct wq *q)
{
	if (q->sq != NULL)
		sq_kill(q->sq);
	else
		qm_kill(q->qm);
}

void
wq_break_stream(struct wq *q)
{
	if (q->qm != NULL)
		qm_break_stream(q->qm);
}

void
wq_break_nbd(struct wq *q)
{
	if (q->qm != NULL)
		qm_break_nbd(q->qm);
}

int
wq_nbd_links(const struct wq *q)
{
	return q->qm != NULL ? qm_nbd_links(q->qm) : 0;
}

int
wq_job(const struct wq *q, int j, const char **id, const char **status)
{
	const struct qm_state	*s;

	if (q->qm == NULL || j < 0 || j >= (s = qm_state(q->qm))->njobs ||
	    s->jobs[j].status == QM_JOB_UNDEFINED)
		return -1;
	*id = s->jobs[j].id;
	*status = qm_job_status_name(s->jobs[j].status);
	return 0;
}

int
wq_job_io_error(const struct wq *q, int j)
{
	return q->qm != NULL && qm_job_io_error(q->qm, j);
}

int
wq_alive(const struct wq *q)
{
	return q->sq != NULL ? sq_alive(q->sq) : qm_state(q->qm)->alive;
}

int
wq_listens(const struct wq *q, const char *uri)
{
	const char	*l;

	if (q->sq != NULL)
		return sq_listens(q->sq, uri);
	l = qm_listen_uri(q->qm);
	return l != NULL && q->gone_bind != qm_binds(q->qm) &&
	    strcmp(l, uri) == 0;
}

int
wq_unlink(struct wq *q, const char *path)
{
	const char	*l;

	if (q->sq != NULL)
		return sq_unlink(q->sq, path);
	l = qm_listen_uri(q->qm);
	if (l == NULL || q->gone_bind == qm_binds(q->qm) ||
	    strncmp(l, "unix:", 5) != 0 || strcmp(l + 5, path) != 0)
		return -1;
	q->gone_bind = qm_binds(q->qm);
	return 0;
}

long
wq_accept_queued(const struct wq *q, const char *path)
{
	const char	*l;

	if (q->sq != NULL)
		return 0;
	l = qm_listen_uri(q->qm);
	if (l == NULL || strncmp(l, "unix:", 5) != 0 ||
	    strcmp(l + 5, path) != 0)
		return 0;
	return qm_accept_queued(q->qm);
}

int
wq_runs_guest(const struct wq *q)
{
	/* The guest: not one a new QEMU booted afresh (cpr-exec's trap). */
	return q->sq != NULL ? sq_runs_guest(q->sq) :
	    qm_runs_guest(qm_state(q->qm)) && !qm_fresh_guest(q->qm);
}

int
wq_has_guest(const struct wq *q)
{
	const struct qm_state	*s;

	if (q->sq != NULL)
		return sq_has_guest(q->sq);
	s = qm_state(q->qm);
	return s->alive && (!(s->flags & QM_IF_INCOMING) ||
	    (s->flags & QM_IF_GUEST));
}

const char *
wq_status(const struct wq *q)
{
	return q->sq != NULL ? sq_status(q->sq) :
	    qm_status_name(qm_state(q->qm)->status);
}

const char *
wq_runstate(const struct wq *q)
{
	return q->sq != NULL ? sq_runstate(q->sq) :
	    qm_runstate_name(qm_state(q->qm)->runstate);
}

/* ---- cpr-exec (the model's 11.1; the stub has none) ----------------- */

void
wq_set_exec(struct wq *q, int outcome)
{
	if (q->qm != NULL)
		qm_set_exec(q->qm, (enum qm_exec_outcome)outcome);
}

int
wq_process_alive(const struct wq *q)
{
	return q->sq != NULL ? sq_alive(q->sq) : qm_process_alive(q->qm);
}

int
wq_exec_phase(const struct wq *q)
{
	return q->qm != NULL ? (int)qm_exec_phase(q->qm) : QM_XP_NONE;
}

int
wq_fresh_guest(const struct wq *q)
{
	return q->qm != NULL && qm_fresh_guest(q->qm);
}

int
wq_mode(const struct wq *q)
{
	return q->qm != NULL ? qm_state(q->qm)->mode : 0;
}

int
wq_migrating(const struct wq *q)
{
	return q->qm != NULL && (qm_state(q->qm)->flags & QM_IF_MIGRATING);
}
