/*
 * mig-cpr.c: `qmigrate update`'s second monitor, the new QEMU's (see
 * mig-watch.h).  With cpr-transfer the new QEMU reads the old one's cpr
 * channel before it opens its monitor, so its socket appears only after
 * the old QEMU's migrate: SA_NEW_CONNECT tries it every 20 ms until it
 * answers or the bound the session gave passes.  A socket that is there
 * but fails the handshake (accepts and closes, or never greets: another
 * client holds a QMP chardev's one place) is tried again too, a quarter
 * of a second later, within the same bound.  Its commands (cont,
 * migrate-incoming) and query-status are sent here; every outcome goes
 * back to the session as an event with new_qemu set, through the same
 * mig_watch_step() as the old QEMU's.  Nothing here decides anything.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmp.h"
#include "mig-negotiate.h"
#include "mig-options.h"
#include "mig-watch.h"
#include "world.h"

/* Between two attempts to connect while the socket is not there yet. */
#define RETRY_SECONDS	0.02
/* After a handshake that failed: a monitor there but not answering is no
 * reason to spin. */
#define HANDSHAKE_RETRY_SECONDS	0.25

struct mig_cpr {
	struct mig_watch	*w;
	char			*path;
	struct qmp_conn		*qmp;
	ev_timer		 retry;
	double			 give_up;	/* mig_watch_now()'s clock */
	int			 connecting;	/* retrying, or the handshake */
	int			 up;		/* qmp_capabilities answered */
	pid_t			 pid;		/* the new QEMU (SO_PEERCRED) */
};

/* A command of the session's on the new QEMU. */
struct cpr_cmd {
	struct mig_cpr	*c;
	enum sess_cmd	 cmd;
};

/* Steps ev as the new QEMU's. */
static void
cpr_step(struct mig_cpr *c, struct sess_event *ev)
{
	ev->new_qemu = 1;
	ev->t = mig_watch_now();
	mig_watch_step(c->w, ev);
}

/* Whether the new QEMU's process is known to have exited. */
static int
cpr_qemu_gone(struct mig_cpr *c)
{
	return c->pid > 0 && !world->process_exists(c->pid);
}

static void
on_close(struct qmp_conn *conn, const char *reason, void *arg)
{
	struct mig_cpr		*c = arg;
	struct sess_event	 ev = { .kind = SEV_QMP_CLOSED };

	if (c->w->stop || conn != c->qmp)
		return;
	c->up = 0;
	ev.reason = reason;
	ev.qemu_gone = cpr_qemu_gone(c);
	cpr_step(c, &ev);
}

static void	try_connect(struct mig_cpr *);
static void	retry_or_give_up(struct mig_cpr *, double, const char *);

static void
on_ready(struct qmp_conn *conn, json_object *reply, const char *error_class,
    const char *error, void *arg)
{
	struct mig_cpr		*c = arg;
	struct sess_event	 ev = { .kind = SEV_QMP_UP };

	(void)reply;
	(void)error_class;
	if (c->w->stop || conn != c->qmp)
		return;
	if (error != NULL) {
		/* A QEMU still starting its monitor: try again in time. */
		log_debug("new QEMU %s: %s", c->path, error);
		qmp_close(c->qmp);
		c->qmp = NULL;
		retry_or_give_up(c, HANDSHAKE_RETRY_SECONDS, error);
		return;
	}
	c->connecting = 0;
	c->up = 1;
	c->pid = qmp_peer_pid(conn);
	qmp_set_close_cb(conn, on_close, c);
	cpr_step(c, &ev);
}

static void
on_retry(struct ev_loop *loop, ev_timer *t, int revents)
{
	(void)loop;
	(void)revents;
	try_connect(container_of(t, struct mig_cpr, retry));
}

/*
 * An attempt failed (cause: why): another in delay seconds while c->give_up
 * has not passed and the new QEMU is not known gone; else the session
 * hears SEV_QMP_CLOSED saying so.  Every failed attempt comes here, so the
 * bound holds whatever the socket does.
 */
static void
retry_or_give_up(struct mig_cpr *c, double delay, const char *cause)
{
	struct sess_event	 ev = { .kind = SEV_QMP_CLOSED };
	char			*why;

	/* A new QEMU seen before and gone since opens nothing again. */
	ev.qemu_gone = cpr_qemu_gone(c);
	if (!ev.qemu_gone && mig_watch_now() + delay < c->give_up) {
		ev_timer_set(&c->retry, delay, 0);
		world->timer_start(c->w->loop, &c->retry);
		return;
	}
	c->connecting = 0;
	xasprintf(&why, "%s (%s)", ev.qemu_gone ? "its process has exited" :
	    "no monitor answered in time", cause);
	ev.reason = why;
	cpr_step(c, &ev);
	free(why);
}

/* One attempt: the handshake's answer comes to on_ready. */
static void
try_connect(struct mig_cpr *c)
{
	char *cause = NULL;

	if (c->w->stop)
		return;
	c->qmp = qmp_connect_start(c->w->loop, c->path, MIG_JOB_CMD_TIMEOUT,
	    on_ready, c, &cause);
	if (c->qmp != NULL)
		return;
	retry_or_give_up(c, RETRY_SECONDS, cause);
	free(cause);
}

/* The new QEMU's monitor, for the watch w (borrowed); path copied. */
struct mig_cpr *
mig_cpr_new(struct mig_watch *w, const char *path)
{
	struct mig_cpr *c = xcalloc(1, sizeof *c);

	c->w = w;
	c->path = xstrdup(path);
	ev_timer_init(&c->retry, on_retry, RETRY_SECONDS, 0);
	return c;
}

void
mig_cpr_free(struct mig_cpr *c)
{
	if (c == NULL)
		return;
	world->timer_stop(c->w->loop, &c->retry);
	qmp_close(c->qmp);
	free(c->path);
	free(c);
}

static void
on_cmd_done(struct qmp_conn *conn, json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	struct cpr_cmd		*cc = arg;
	struct mig_cpr		*c = cc->c;
	struct sess_event	 ev = { .kind = SEV_QMP_DONE };
	int			 timeout;

	(void)conn;
	(void)reply;
	ev.cmd = cc->cmd;
	free(cc);
	if (c->w->stop)
		return;
	timeout = error_class != NULL && strcmp(error_class, "Timeout") == 0;
	ev.ok = error == NULL;
	if (error == NULL)
		ev.outcome = SO_ANSWERED;
	else if (qmp_error_unanswered(error_class))
		ev.outcome = SO_NO_ANSWER;
	else
		ev.outcome = SO_REFUSED;
	ev.reason = error;
	cpr_step(c, &ev);
	if (timeout && !c->w->stop) {
		ev.kind = SEV_QMP_SILENT;
		cpr_step(c, &ev);
	}
}

static void
on_run_state(struct qmp_conn *conn, json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	struct mig_cpr		*c = arg;
	struct run_info		 ri;
	struct sess_event	 ev = { .kind = SEV_RUN_STATE };

	(void)conn;
	if (c->w->stop)
		return;
	if (error != NULL) {
		/* A closed connection is stepped by on_close. */
		if (error_class != NULL && strcmp(error_class, "Timeout") == 0) {
			ev.kind = SEV_QMP_SILENT;
			ev.reason = error;
			cpr_step(c, &ev);
		}
		return;
	}
	if (run_info_decode(reply, &ri) != 0)
		return;
	ev.ri = &ri;
	cpr_step(c, &ev);
}

/* A command of the session's on the new QEMU; its outcome is stepped. */
static void
cpr_send(struct mig_cpr *c, const struct sess_action *a)
{
	struct sess_event	 ev = { .kind = SEV_QMP_DONE };
	struct cpr_cmd		*cc;
	json_object		*args = NULL;
	const char		*name;
	char			*cause = NULL;

	switch (a->cmd) {
	case SC_CONT:
		name = "cont";
		break;
	case SC_MIGRATE_INCOMING:
		name = "migrate-incoming";
		args = mig_channels_args(c->w->qemu_uri, NULL);
		break;
	default:
		log_warnx("new QEMU %s: %s is not sent there", c->path,
		    sess_cmd_name(a->cmd));
		return;
	}
	log_debug("session: %s (new QEMU)", name);
	cc = xcalloc(1, sizeof *cc);
	cc->c = c;
	cc->cmd = a->cmd;
	if (c->qmp != NULL && c->up && qmp_send(c->qmp, name, args,
	    MIG_JOB_CMD_TIMEOUT, on_cmd_done, cc, &cause) == 0)
		return;
	if (c->qmp == NULL || !c->up)
		json_object_put(args);
	free(cc);
	ev.cmd = a->cmd;
	ev.outcome = SO_NO_ANSWER;
	ev.reason = cause != NULL ? cause : "not connected";
	cpr_step(c, &ev);		/* queued: a step is running */
	free(cause);
}

void
mig_cpr_execute(struct mig_cpr *c, const struct sess_action *a)
{
	struct sess_event	 ev = { .kind = SEV_QMP_UP };
	char			*cause = NULL;
	double			 until;

	switch (a->kind) {
	case SA_NEW_CONNECT:
		if (c->up) {
			cpr_step(c, &ev);	/* queued: a step is running */
			break;
		}
		until = mig_watch_now() + a->seconds;
		if (c->connecting) {
			if (until > c->give_up)
				c->give_up = until;
			break;
		}
		c->connecting = 1;
		c->give_up = until;
		try_connect(c);
		break;
	case SA_QMP:
		cpr_send(c, a);
		break;
	case SA_QUERY_STATUS:
		if (c->qmp == NULL || !c->up || qmp_send(c->qmp,
		    "query-status", NULL, MIG_JOB_CMD_TIMEOUT, on_run_state, c,
		    &cause) != 0) {
			log_warnx("new QEMU %s: query-status: %s", c->path,
			    cause != NULL ? cause : "not connected");
			free(cause);
		}
		break;
	default:
		break;
	}
}
