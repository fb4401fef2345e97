/*
 * mig-watch.c: the executor around the session's step function (see
 * mig-watch.h).  One loop, no threads, and no loop inside it: QMP, the
 * poll timer, the session's timers, the deadline and SIGINT/SIGTERM all
 * arrive here, are decoded into session events, and the actions that come
 * back are carried out, the status changes through status.c.  Every QMP
 * command is sent with a callback whose answer is the next event; work of
 * several commands runs as a job (mig-job.h).  Signals and the deadline
 * are armed before the first step and stay armed until the process has
 * written its last document: a signal is an event, never the default
 * action.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmp.h"
#include "mig-options.h"
#include "mig-watch.h"
#include "signals.h"
#include "switchover-request.h"
#include "world.h"

#define POLL_SECONDS	0.5

double
mig_watch_now(void)
{
	return now_monotonic();
}

const char *
mig_watch_unserved(const char *error_class, int refused)
{
	if (refused)
		return "refused qmigrate";
	return error_class != NULL && strcmp(error_class, "Timeout") == 0 ?
	    "did not answer" : NULL;
}

/*
 * A side's watch for the options o (borrowed: they outlive it): its own
 * loop and its status document; nothing connects or runs yet.  Freed by
 * mig_watch_free().
 */
void
mig_watch_init(struct mig_watch *w, const char *role,
    const struct mig_options *o)
{
	memset(w, 0, sizeof *w);
	w->loop = ev_loop_new(EVFLAG_AUTO);
	if (w->loop == NULL)
		fatalx("cannot create an event loop");
	/* --events and the log are written as the loop finds them writable. */
	w->out_prev = out_attach(w->loop);
	w->o = o;
	w->st = status_create(role, o->status_file, o->events);
}

/*
 * What either side does before its loop: the policy's settings for this
 * VM, then the transport: a tls: URI through the side's open_tls (it sets
 * w->qemu_uri to its proxy's socket), any other straight to QEMU.  A
 * failure is the command's usage error: printed, nothing touched, nothing
 * written.
 */
int
mig_watch_begin(struct mig_watch *w,
    int (*open_tls)(struct mig_watch *, char **))
{
	char *cause = NULL;

	if (mig_settings_resolve(w->o, &w->settings, w->st, &cause) == 0) {
		if (strncmp(w->o->uri, "tls:", 4) != 0) {
			w->qemu_uri = xstrdup(w->o->uri);
			return 0;
		}
		if (open_tls(w, &cause) == 0)
			return 0;
	}
	log_error("%s", cause);
	free(cause);
	return -1;
}

void
mig_watch_session_config(const struct mig_watch *w, struct sess_config *cfg,
    enum sess_role role, int tls)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->role = role;
	cfg->tls = tls;
	cfg->timeout = w->o->timeout;
	cfg->timeout_action = w->o->timeout_action;
	cfg->recover_timeout = w->o->recover_timeout;
	cfg->peer = w->o->uri;
	cfg->qmp_path = w->o->qmp_path;
}

/* Keeps an event that arrived during a step, with copies of what it points
 * to; a sample is dropped when the queue is nearly full (the next one
 * says the same, newer). */
static void
enqueue(struct mig_watch *w, const struct sess_event *ev)
{
	struct mig_watch_queued *q;

	if (w->nqueued == MIG_WATCH_QUEUE ||
	    (ev->kind == SEV_SAMPLE && w->nqueued >= MIG_WATCH_QUEUE / 2)) {
		log_warnx("session: event %d dropped (queue full)", ev->kind);
		return;
	}
	q = &w->queue[w->nqueued++];
	memset(q, 0, sizeof *q);
	q->ev = *ev;
	if (ev->mi != NULL) {
		q->mi = *ev->mi;
		q->ev.mi = &q->mi;
	}
	if (ev->ri != NULL) {
		q->ri = *ev->ri;
		q->ev.ri = &q->ri;
	}
	if (ev->msg != NULL) {
		/* The offer's disks move into the queue. */
		q->msg = *ev->msg;
		memset((struct control_msg *)ev->msg, 0, sizeof *ev->msg);
		q->ev.msg = &q->msg;
	}
	if (ev->reason != NULL) {
		snprintf(q->reason, sizeof q->reason, "%s", ev->reason);
		q->ev.reason = q->reason;
	}
}

static void	execute(struct mig_watch *, const struct sess_action *);

/*
 * Steps the session with ev and carries out its actions.  An event that
 * arrives while actions run (a nested QMP wait, a callback) is queued and
 * stepped after, in order.
 */
void
mig_watch_step(struct mig_watch *w, const struct sess_event *ev)
{
	struct sess_action	 acts[SESS_MAX_ACTIONS];
	struct mig_watch_queued	 q;
	size_t			 i, n;

	if (w->stepping) {
		enqueue(w, ev);
		return;
	}
	w->stepping = 1;
	for (;;) {
		struct sess_event e = *ev;

		/* What QEMU still owes: how old the session's view may be. */
		e.query_out = w->unanswered_since;
		status_hold(w->st);
		session_step(&w->sess, &e);
		n = w->sess.nacts;
		memcpy(acts, w->sess.acts, n * sizeof acts[0]);
		for (i = 0; i < n; i++)
			execute(w, &acts[i]);
		status_release(w->st);
		if (ev == &q.ev)
			control_msg_free(&q.msg);
		if (w->nqueued == 0)
			break;
		q = w->queue[0];
		memmove(&w->queue[0], &w->queue[1], --w->nqueued *
		    sizeof w->queue[0]);
		if (q.ev.mi != NULL)
			q.ev.mi = &q.mi;
		if (q.ev.ri != NULL)
			q.ev.ri = &q.ri;
		if (q.ev.msg != NULL)
			q.ev.msg = &q.msg;
		if (q.ev.reason != NULL)
			q.ev.reason = q.reason;
		ev = &q.ev;
	}
	w->stepping = 0;
}

/* Remembers QEMU's process the first time its monitor says who it is. */
static void
note_qemu_process(struct mig_watch *w)
{
	pid_t pid;

	if (w->qemu_pid != 0 || w->qmp == NULL ||
	    (pid = qmp_peer_pid(w->qmp)) <= 0)
		return;
	w->qemu_pid = pid;
	w->qemu_start = world->process_start(pid);
}

/*
 * Whether QEMU's process is known to have exited: its pid is gone, a
 * zombie, or another process's now.  0 when it was never known (a relay
 * or a proxy in front of the monitor is alive and says nothing of QEMU).
 */
int
mig_watch_qemu_gone(struct mig_watch *w)
{
	unsigned long long start;

	if (w->qemu_pid <= 0 || w->qemu_start == 0)
		return 0;
	if (!world->process_exists(w->qemu_pid))
		return 1;
	start = world->process_start(w->qemu_pid);
	return start == 0 || start != w->qemu_start;
}

/* One event with no payload but its kind and time. */
static void
step_simple(struct mig_watch *w, enum sess_ev_kind kind)
{
	struct sess_event ev = { .kind = kind, .t = mig_watch_now() };

	mig_watch_step(w, &ev);
}

static void
on_query(struct qmp_conn *conn, json_object *reply, const char *error_class,
    const char *error, void *arg)
{
	struct mig_watch	*w = arg;
	struct mig_info		 mi;
	struct sess_event	 ev = { .kind = SEV_SAMPLE };

	w->query_inflight = 0;
	if (w->stop)
		return;
	if (error != NULL) {
		if (error_class != NULL && strcmp(error_class,
		    "Timeout") == 0) {
			ev.kind = SEV_QMP_SILENT;
			ev.t = mig_watch_now();
			ev.reason = error;
			mig_watch_step(w, &ev);
		} else if (!qmp_is_closed(conn))
			log_warnx("query-migrate: %s", error);
		return;
	}
	mig_info_decode(reply, &mi);
	w->unanswered_since = 0;
	ev.t = mig_watch_now();
	ev.mi = &mi;
	ev.asked = w->query_sent;
	ev.queued = w->queued_at_query;
	if (w->before_sample != NULL)
		w->before_sample(w, &ev);
	mig_watch_step(w, &ev);
}

/* Sends query-migrate unless one is already on its way. */
static void
poll_now(struct mig_watch *w)
{
	char *cause = NULL;

	if (w->query_inflight || w->stop || w->qmp == NULL ||
	    qmp_is_closed(w->qmp))
		return;
	note_qemu_process(w);
	/* Before QEMU can answer: what waited then is older than the answer. */
	w->query_sent = mig_watch_now();
	w->queued_at_query = w->before_query != NULL ? w->before_query(w) : 0;
	if (qmp_send(w->qmp, "query-migrate", NULL, MIG_JOB_CMD_TIMEOUT,
	    on_query, w, &cause) != 0) {
		log_warnx("query-migrate: %s", cause);
		free(cause);
		return;
	}
	w->query_inflight = 1;
	if (w->unanswered_since == 0)
		w->unanswered_since = w->query_sent;
}

static void
on_run_state(struct qmp_conn *conn, json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	struct mig_watch	*w = arg;
	struct run_info		 ri;
	struct sess_event	 ev = { .kind = SEV_RUN_STATE };

	if (w->stop)
		return;
	if (error != NULL && error_class != NULL &&
	    strcmp(error_class, "Timeout") == 0) {
		ev.kind = SEV_QMP_SILENT;
		ev.t = mig_watch_now();
		ev.reason = error;
		mig_watch_step(w, &ev);
		return;
	}
	if (error != NULL || run_info_decode(reply, &ri) != 0)
		return;
	ev.t = mig_watch_now();
	ev.ri = &ri;
	mig_watch_step(w, &ev);
}

/* A command of the session's, and who to tell when it is answered. */
struct pending_cmd {
	struct mig_watch	*w;
	enum sess_cmd		 cmd;
};

static void
on_cmd_done(struct qmp_conn *conn, json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	struct pending_cmd	*pc = arg;
	struct mig_watch	*w = pc->w;
	struct sess_event	 ev = { .kind = SEV_QMP_DONE };

	ev.cmd = pc->cmd;
	free(pc);
	if (w->stop)
		return;
	ev.t = mig_watch_now();
	ev.ok = error == NULL;
	/* A timeout or a closed connection is no answer: not a refusal. */
	if (error == NULL)
		ev.outcome = SO_ANSWERED;
	else if (qmp_error_unanswered(error_class))
		ev.outcome = SO_NO_ANSWER;
	else
		ev.outcome = SO_REFUSED;
	ev.reason = error;
	mig_watch_step(w, &ev);
	if (error_class != NULL && strcmp(error_class, "Timeout") == 0 &&
	    !w->stop) {
		ev.kind = SEV_QMP_SILENT;
		mig_watch_step(w, &ev);
	}
}

static json_object *
uri_args(struct mig_watch *w, int resume)
{
	json_object *args = json_object_new_object();

	json_object_object_add(args, "uri",
	    json_object_new_string(w->qemu_uri));
	if (resume)
		json_object_object_add(args, "resume",
		    json_object_new_boolean(1));
	return args;
}

/* The QMP command for a session command, with its arguments. */
static const char *
qmp_command(struct mig_watch *w, const struct sess_action *a,
    json_object **args)
{
	int major = 0, minor = 0, micro = 0;

	*args = NULL;
	switch (a->cmd) {
	case SC_MIGRATE:
		/* cpr-transfer: the main channel and the cpr channel. */
		*args = w->o->cpr_uri != NULL ? mig_channels_args(w->qemu_uri,
		    w->o->cpr_uri) : uri_args(w, 0);
		return "migrate";
	case SC_MIGRATE_RESUME:
		*args = uri_args(w, 1);
		return "migrate";
	case SC_MIGRATE_RECOVER:
		*args = uri_args(w, 0);
		return "migrate-recover";
	case SC_CANCEL:
		return "migrate_cancel";
	case SC_CONT:
		return "cont";
	case SC_STOP:
		return "stop";
	case SC_START_POSTCOPY:
		return "migrate-start-postcopy";
	case SC_QUIT:
		return "quit";
	case SC_MIGRATE_CONTINUE:
		*args = json_object_new_object();
		json_object_object_add(*args, "state",
		    json_object_new_string("pre-switchover"));
		return "migrate-continue";
	case SC_MODE_NORMAL:
		*args = json_object_new_object();
		json_object_object_add(*args, "mode",
		    json_object_new_string("normal"));
		return "migrate-set-parameters";
	case SC_PAUSE_OFF:
		*args = mig_cap_off_args("pause-before-switchover");
		return "migrate-set-capabilities";
	case SC_MIGRATE_INCOMING:
		*args = mig_channels_args(w->qemu_uri, NULL);
		return "migrate-incoming";
	case SC_SET_DOWNTIME:
		if (w->qmp != NULL)
			qmp_qemu_version(w->qmp, &major, &minor, &micro);
		*args = mig_downtime_args(a->value, a->sample.bandwidth, major,
		    minor);
		return "migrate-set-parameters";
	case SC_AUTO_CONVERGE:
		/* Arms the throttle QEMU was given disarmed (mig-caps.c). */
		*args = json_object_new_object();
		json_object_object_add(*args, "cpu-throttle-initial",
		    json_object_new_int((int)a->value));
		json_object_object_add(*args, "cpu-throttle-increment",
		    json_object_new_int(a->value2));
		json_object_object_add(*args, "max-cpu-throttle",
		    json_object_new_int(99));
		return "migrate-set-parameters";
	case SC_DIRTY_LIMIT:
		/* Arms dirty-limit, given disarmed (mig-caps.c). */
		*args = json_object_new_object();
		json_object_object_add(*args, "vcpu-dirty-limit",
		    json_object_new_uint64(a->value));
		return "migrate-set-parameters";
	case SC_DIRTY_LIMIT_NOW:
		*args = json_object_new_object();
		json_object_object_add(*args, "dirty-rate",
		    json_object_new_uint64(a->value));
		return "set-vcpu-dirty-limit";
	}
	return "query-status";
}

static void
send_cmd(struct mig_watch *w, const struct sess_action *a)
{
	struct pending_cmd	*pc;
	json_object		*args;
	const char		*name = qmp_command(w, a, &args);
	char			*cause = NULL;
	struct sess_event	 ev = { .kind = SEV_QMP_DONE };

	pc = xcalloc(1, sizeof *pc);
	pc->w = w;
	pc->cmd = a->cmd;
	log_debug("session: %s", name);
	if (w->qmp == NULL) {
		json_object_put(args);
		cause = xstrdup("not connected");
	} else if (qmp_send(w->qmp, name, args, MIG_JOB_CMD_TIMEOUT,
	    on_cmd_done, pc, &cause) == 0)
		return;
	free(pc);
	ev.t = mig_watch_now();
	ev.cmd = a->cmd;
	ev.outcome = SO_NO_ANSWER;	/* never sent: QEMU did nothing, but
					   the step asks QEMU all the same */
	ev.reason = cause;
	mig_watch_step(w, &ev);		/* queued: a step is running */
	free(cause);
}

static void
on_session_timer(struct ev_loop *loop, ev_timer *t, int revents)
{
	struct mig_watch_timer	*mt = (struct mig_watch_timer *)t;
	struct sess_event	 ev = { .kind = SEV_TIMER };

	ev.t = mig_watch_now();
	ev.timer = mt->which;
	mig_watch_step(mt->w, &ev);
}

/* A status change the step asked for, applied to the document. */
static void
apply_status(struct mig_watch *w, const struct sess_action *a)
{
	struct status *st = w->st;

	switch (a->kind) {
	case SA_ST_PHASE:
		status_set_phase(st, a->phase);
		break;
	case SA_ST_MODE:
		status_set_mode(st, a->mode);
		break;
	case SA_ST_ABORT:
		status_set_abort(st, a->abort);
		break;
	case SA_ST_ABORT_REQUESTED:
		status_set_abort_requested(st);
		break;
	case SA_ST_FAILURE:
		status_record_failure(st, a->fail, "%s", a->reason);
		break;
	case SA_ST_CLEAR_FAILURE:
		status_clear_failure(st);
		break;
	case SA_ST_NOTE:
		status_note(st, "%s", a->reason);
		break;
	case SA_ST_PROGRESS:
		if (a->mi != NULL)
			status_set_progress(st, a->mi, a->seconds);
		break;
	case SA_ST_DECISION:
		status_decision(st, a->sample.t,
		    ctl_action_name((enum ctl_action)a->value), a->reason,
		    a->value2 == ASKER_TIMEOUT ? "timeout" :
		    a->value2 == ASKER_OPERATOR ? "operator" : "controller",
		    &a->sample);
		break;
	case SA_ST_DOWNTIME:
		status_set_downtime(st, (uint64_t)a->value);
		break;
	case SA_ST_PUBLISH:
		status_changed(st, a->reason);
		progress_line_update(st);
		break;
	case SA_ST_SWITCHOVER:
		if (a->value == SWA_ACCEPTED)
			memcpy(w->switchover_accepted, w->switchover_id,
			    sizeof w->switchover_accepted);
		status_switchover(st, a->value == SWA_STARTED ?
		    w->switchover_accepted : w->switchover_id,
		    a->value2 == FINISH_AUTO ? NULL :
		    switchover_finish_name((enum sess_finish)a->value2),
		    a->value == SWA_REFUSED ? "Refused" :
		    a->value == SWA_ACCEPTED ? "Accepted" : "Started",
		    a->reason[0] != '\0' ? a->reason : NULL);
		break;
	default:
		break;
	}
}

static void
on_reconnected(struct qmp_conn *conn, json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	struct mig_watch	*w = arg;
	struct sess_event	 ev = { .kind = SEV_QMP_UP };

	(void)reply;
	(void)error_class;
	if (w->stop || conn != w->qmp)
		return;
	ev.t = mig_watch_now();
	if (error != NULL) {
		ev.kind = SEV_QMP_CLOSED;
		ev.reason = error;
		ev.qemu_gone = mig_watch_qemu_gone(w);
	}
	mig_watch_step(w, &ev);
}

static void	on_close(struct qmp_conn *, const char *, void *);
static void	on_event(struct qmp_conn *, const char *, json_object *,
		    double, void *);

/* Connects to the monitor again; the answer is SEV_QMP_UP or _CLOSED. */
static void
reconnect(struct mig_watch *w)
{
	struct sess_event	 ev = { .kind = SEV_QMP_CLOSED };
	char			*cause = NULL;

	if (w->qmp != NULL) {
		qmp_close(w->qmp);
		w->qmp = NULL;
		w->query_inflight = 0;
	}
	if (mig_watch_connect_start(w, on_reconnected, w, &cause) == 0)
		return;
	ev.t = mig_watch_now();
	ev.reason = cause;
	ev.qemu_gone = mig_watch_qemu_gone(w);
	mig_watch_step(w, &ev);		/* queued: a step is running */
	free(cause);
}

static void
execute(struct mig_watch *w, const struct sess_action *a)
{
	struct mig_watch_timer	*mt;
	char			*cause = NULL;

	if (a->new_qemu && (a->kind == SA_QMP || a->kind ==
	    SA_QUERY_STATUS)) {
		/* cpr: the new QEMU's monitor is the side's (mig-cpr.c). */
		w->execute(w, a);
		return;
	}
	switch (a->kind) {
	case SA_QMP:
		send_cmd(w, a);
		break;
	case SA_POLL:
		poll_now(w);
		break;
	case SA_QUERY_STATUS:
		if (w->qmp == NULL || qmp_send(w->qmp, "query-status", NULL,
		    MIG_JOB_CMD_TIMEOUT, on_run_state, w, &cause) != 0) {
			log_warnx("query-status: %s", cause != NULL ? cause :
			    "not connected");
			free(cause);
		}
		break;
	case SA_TIMER:
		mt = &w->timers[a->timer];
		mt->w = w;
		mt->which = a->timer;
		world->timer_stop(w->loop, &mt->timer);
		ev_timer_init(&mt->timer, on_session_timer, a->seconds, 0);
		world->timer_start(w->loop, &mt->timer);
		break;
	case SA_RECONNECT:
		reconnect(w);
		break;
	case SA_LOG:
		if (a->value == 0)
			log_debug("%s", a->reason);
		else if (a->value == 1)
			log_info("%s", a->reason);
		else
			log_warnx("%s", a->reason);
		break;
	case SA_FINISH:
		w->stop = 1;
		world->loop_break(w->loop);
		break;
	case SA_JOB:
	case SA_ASK:
	case SA_ANSWER:
	case SA_CUT:
	case SA_UNLISTEN:
	case SA_NEW_CONNECT:
		w->execute(w, a);
		break;
	default:
		apply_status(w, a);
		break;
	}
}

static void
job_done(struct mig_watch *w, enum sess_job kind, int ok, const char *reason,
    enum sess_outcome outcome)
{
	struct sess_event ev = { .kind = SEV_JOB_DONE };

	ev.t = mig_watch_now();
	ev.job = kind;
	ev.ok = ok;
	ev.fail = ok ? FAIL_NONE : FAIL_CONTROL;
	ev.reason = reason;
	ev.outcome = outcome;
	mig_watch_step(w, &ev);
}

static void
on_job_done(struct mig_job *job, int ok, const char *cause, void *arg)
{
	struct mig_watch *w = arg;

	/* Ended by its monitor's close: what it did not do is not known. */
	if (!w->stop)
		job_done(w, w->job_kind, ok, cause, !ok && job->closed ?
		    SO_NO_ANSWER : SO_ANSWERED);
}

void
mig_watch_job(struct mig_watch *w, enum sess_job kind, mig_job_fn fn,
    void *ctx)
{
	static const char *names[] = {
		[SJ_START_MIRRORS] = "start mirrors",
		[SJ_FINISH_MIRRORS] = "finish mirrors",
		[SJ_PREPARE_TARGET] = "prepare target",
		[SJ_RELEASE_DISKS] = "release disks",
		[SJ_STOP_EXPORTS] = "stop exports",
	};

	w->job_kind = kind;
	if (w->qmp == NULL) {
		mig_watch_job_done(w, kind, 0, "not connected to QEMU");
		return;
	}
	mig_job_start(&w->job, w->loop, w->qmp, names[kind], fn, ctx,
	    on_job_done, w);
}

void
mig_watch_job_done(struct mig_watch *w, enum sess_job kind, int ok,
    const char *reason)
{
	job_done(w, kind, ok, reason, SO_ANSWERED);
}

static void
on_poll_timer(struct ev_loop *loop, ev_timer *t, int revents)
{
	poll_now(container_of(t, struct mig_watch, poll));
}

static void
on_deadline_timer(struct ev_loop *loop, ev_timer *t, int revents)
{
	step_simple(container_of(t, struct mig_watch, deadline), SEV_DEADLINE);
}

static void
on_signal(struct mig_watch *w, int signum)
{
	struct sess_event ev = { .kind = SEV_SIGNAL };

	ev.t = mig_watch_now();
	ev.signum = signum;
	mig_watch_step(w, &ev);
}

/* SIGINT, SIGTERM, SIGQUIT: the session's abort, where it still can. */
static void
on_stop_signal(int signum, void *arg)
{
	on_signal(arg, signum);
}

/* SIGUSR1: where the migration is, on one log line. */
static void
on_info_signal(void *arg)
{
	struct mig_watch	*w = arg;
	char			*line = status_summary(w->st);

	log_info("%s: %s", signals_name(SIGUSR1), line);
	free(line);
}

/*
 * SIGUSR2: a `qmigrate switchover` left its request beside the status
 * file (switchover-request.c): taken, and stepped as SEV_SWITCHOVER,
 * whose answer (SA_ST_SWITCHOVER) the document carries under its id.
 */
static void
on_request_signal(void *arg)
{
	struct mig_watch	*w = arg;
	struct sess_event	 ev = { .kind = SEV_SWITCHOVER };
	char			*cause = NULL;
	int			 got = 0;

	if (w->o->status_file != NULL)
		got = switchover_request_take(w->o->status_file,
		    w->switchover_id, &ev.finish, &cause);
	if (got == -1)
		log_warnx("%s: %s: ignored", signals_name(SIGUSR2), cause);
	free(cause);
	if (got != 1) {
		if (got == 0)
			log_info("%s: ignored (the migration goes on): no "
			    "switchover request beside the status file",
			    signals_name(SIGUSR2));
		return;
	}
	log_info("%s: switchover requested (%s, request %s)",
	    signals_name(SIGUSR2), switchover_finish_name(ev.finish),
	    w->switchover_id);
	ev.t = mig_watch_now();
	mig_watch_step(w, &ev);
}

/*
 * Arms the signals (signals.c's table: SIGHUP only logged, SIGUSR2 a
 * switchover request) and
 * the deadline (0: none) before anything else happens: from here on a
 * signal is an event, never the default action.  A signal main()
 * recorded before now reaches the session at once.
 */
void
mig_watch_arm(struct mig_watch *w, double deadline)
{
	signals_watch_start(&w->sigs, w->loop, "the migration",
	    on_stop_signal, on_info_signal, w);
	signals_watch_request(&w->sigs, on_request_signal);
	if (deadline > 0) {
		ev_timer_init(&w->deadline, on_deadline_timer, deadline, 0);
		world->timer_start(w->loop, &w->deadline);
	}
}

/* Every state change and pass is worth a sample at once. */
static void
on_event(struct qmp_conn *conn, const char *name, json_object *data,
    double timestamp, void *arg)
{
	struct mig_watch *w = arg;

	log_debug("event %s %s", name, data != NULL ?
	    json_object_to_json_string(data) : "");
	if (w->stop)
		return;
	if (w->on_event != NULL)
		w->on_event(w, name, data);
	if (strcmp(name, "RESUME") == 0)
		step_simple(w, SEV_RESUMED);
	if (strcmp(name, "STOP") == 0)
		step_simple(w, SEV_STOPPED);
	/* A mirror's failure in pre-copy is an abort now, not at the next
	   sample: the switchover may be 0.1 s away (sim-real D1, seed
	   2036095 at fb37ba0). */
	if (strcmp(name, "MIGRATION") == 0 ||
	    strcmp(name, "MIGRATION_PASS") == 0 ||
	    strcmp(name, "BLOCK_JOB_ERROR") == 0 ||
	    strcmp(name, "BLOCK_JOB_COMPLETED") == 0 ||
	    strcmp(name, "BLOCK_JOB_CANCELLED") == 0)
		poll_now(w);
}

static void
on_close(struct qmp_conn *conn, const char *reason, void *arg)
{
	struct mig_watch	*w = arg;
	struct sess_event	 ev = { .kind = SEV_QMP_CLOSED };

	if (w->stop || conn != w->qmp)
		return;
	ev.t = mig_watch_now();
	ev.reason = reason;
	ev.qemu_gone = mig_watch_qemu_gone(w);
	mig_watch_step(w, &ev);
}

/*
 * Starts connecting to QEMU's monitor without waiting; ready gets
 * qmp_capabilities' answer.  0, or -1 with *cause.
 */
int
mig_watch_connect_start(struct mig_watch *w, qmp_reply_cb ready, void *arg,
    char **cause)
{
	w->qmp = qmp_connect_start(w->loop, w->o->qmp_path, MIG_JOB_CMD_TIMEOUT,
	    ready, arg, cause);
	if (w->qmp == NULL)
		return -1;
	w->conn_count++;
	qmp_set_close_cb(w->qmp, on_close, w);
	qmp_subscribe(w->qmp, NULL, on_event, w);
	return 0;
}

/* Runs until the session finishes. */
void
mig_watch_run(struct mig_watch *w)
{
	size_t i;

	ev_timer_init(&w->poll, on_poll_timer, 0, POLL_SECONDS);
	world->timer_start(w->loop, &w->poll);
	/*
	 * The one loop.  Work that must block (the source's pre-flight walk
	 * and slot wait, outside mig-*.c) is deferred to here, between two
	 * iterations, so it never runs inside a callback.
	 */
	while (!w->stop) {
		world->loop_turn(w->loop);
		while (w->deferred != NULL && !w->stop) {
			void (*fn)(struct mig_watch *) = w->deferred;

			w->deferred = NULL;
			fn(w);
		}
	}
	world->timer_stop(w->loop, &w->poll);
	world->timer_stop(w->loop, &w->deadline);
	for (i = 0; i < STIMER_COUNT; i++)
		if (w->timers[i].w != NULL)
			world->timer_stop(w->loop, &w->timers[i].timer);
	/* The signals stay armed: the last document is not written yet. */
}

/* Writes the final status, prints it on stdout, returns the exit status. */
int
mig_watch_report(struct mig_watch *w)
{
	if (status_phase(w->st) != PHASE_SUCCEEDED &&
	    status_failure(w->st, NULL) == FAIL_NONE)
		status_fail(w->st, FAIL_CONTROL, "migration ended without "
		    "a result");
	return status_report(w->st,
	    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
}

/*
 * The one teardown of a watch, after its last document: the signals
 * stop (never in between), then the jobs, the monitor, the queue, the
 * settings, the status and the loop.
 */
void
mig_watch_free(struct mig_watch *w)
{
	size_t i;

	/*
	 * Everything is written: from here a signal changes nothing.  They
	 * are ignored after (a pending one is then discarded): none can kill
	 * the process between the watchers' stop and its exit.
	 */
	signals_watch_stop(&w->sigs, 0);
	w->stop = 1;
	mig_job_stop(&w->job);
	qmp_close(w->qmp);
	w->qmp = NULL;
	for (i = 0; i < w->nqueued; i++)
		control_msg_free(&w->queue[i].msg);
	w->nqueued = 0;
	free(w->qemu_uri);
	mig_settings_free(&w->settings);
	status_free(w->st);
	out_detach(w->loop, w->out_prev);
	ev_loop_destroy(w->loop);
}
