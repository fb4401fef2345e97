/*
 * mig-target.c: `qmigrate incoming`: prepares the target QEMU (started
 * with -incoming defer), runs migrate-incoming, and waits until the guest
 * runs there or the migration fails.  In post-copy it answers a broken
 * stream with migrate-recover on the same address, so that the source's
 * migrate resume finds it.
 */
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "qmp.h"
#include "mig-disks.h"
#include "mig-watch.h"

#define RECOVER_RETRY_SECONDS	1.0
/* How long the source gets to end its mirrors once the memory arrived. */
#define DISKS_RELEASE_SECONDS	60.0

struct mig_target {
	struct mig_watch	 w;
	const struct mig_options *o;
	struct mig_settings	 settings;
	struct mig_plan		 plan;
	char			*qemu_uri;	/* where QEMU listens */
	int			 started;	/* the source connected */
	int			 completed;	/* QEMU said completed */
	int			 resuming;	/* cont sent */
	int			 recover_sent;
	double			 recover_deadline;
	double			 last_recover_try;
	struct mig_tls_target	*tls;		/* tls: URIs only */
	int			 offered;	/* the source's plan came */
	int			 arrives_paused; /* the source guest was */
	int			 source_aborted;
	int			 recover_listening; /* migrate-recover accepted */
	int			 resume_asked;	/* the source waits for ready */
	struct mig_disks	*disks;		/* exported over NBD, or NULL */
	char			*nbd_uri;
	double			 release_deadline;
	/*
	 * tls: the source asks "completed?" once its QEMU is done, and
	 * reports success only when this target says the guest runs here
	 * (libvirt's confirm phase): a stream whose tail never arrived must
	 * not be reported as a moved guest.
	 */
	int			 confirm_asked;
	int			 ending;	/* outcome known, answering */
	enum mig_phase		 end_phase;
	ev_timer		 end_timer;	/* the last wait before exit */
};

static void	target_answer(struct mig_target *, json_object *);
static void	target_end(struct mig_target *, enum mig_phase);

/* Tells the source (tls:) that QEMU listens for its resume. */
static void
target_resume_ready(struct mig_target *mt)
{
	json_object *answer;

	if (!mt->resume_asked || !mt->recover_listening)
		return;
	mt->resume_asked = 0;
	answer = json_object_new_object();
	json_object_object_add(answer, "status",
	    json_object_new_string("ready"));
	target_answer(mt, answer);
}

static void
on_recover_done(struct qmp_conn *conn, json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	struct mig_target *mt = arg;

	if (error != NULL) {
		log_warnx("migrate-recover: %s", error);
		mt->recover_sent = 0;
	} else {
		log_info("listening for the source's resume on %s",
		    mt->qemu_uri);
		mt->recover_listening = 1;
		target_resume_ready(mt);
	}
}

static void
target_recover(struct mig_target *mt)
{
	struct status	*st = &mt->w.st;
	json_object	*args;
	double		 now = now_monotonic();
	char		*cause = NULL;

	if (mt->recover_deadline == 0) {
		mt->recover_deadline = now + mt->o->recover_timeout;
		status_note(st, "post-copy stream broken: target paused in "
		    "postcopy-paused; waiting up to %.0f s for the source to "
		    "resume", mt->o->recover_timeout);
	}
	if (now > mt->recover_deadline) {
		status_fail(st, FAIL_POSTCOPY_LOST, "post-copy was not "
		    "recovered within %.0f s: the guest is irrecoverable; the "
		    "target QEMU is left paused for the operator",
		    mt->o->recover_timeout);
		mig_watch_finish(&mt->w, PHASE_FAILED);
		return;
	}
	if (mt->recover_sent || now - mt->last_recover_try <
	    RECOVER_RETRY_SECONDS)
		return;
	mt->last_recover_try = now;
	args = json_object_new_object();
	json_object_object_add(args, "uri",
	    json_object_new_string(mt->qemu_uri));
	if (qmp_send(mt->w.qmp, "migrate-recover", args, 10, on_recover_done,
	    mt, &cause) != 0) {
		log_warnx("migrate-recover: %s", cause);
		free(cause);
		return;
	}
	mt->recover_sent = 1;
}

static void
on_cont_done(struct qmp_conn *conn, json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	struct mig_target *mt = arg;

	if (error != NULL) {
		status_fail(&mt->w.st, FAIL_DATA, "the guest arrived but "
		    "cannot be resumed on the target: %s", error);
		mig_watch_finish(&mt->w, PHASE_FAILED);
	}
}

static void
on_status(struct qmp_conn *conn, json_object *reply, const char *error_class,
    const char *error, void *arg)
{
	struct mig_target	*mt = arg;
	json_object		*v;
	const char		*state;
	char			*cause = NULL;

	if (mt->w.done || error != NULL)
		return;
	state = json_object_object_get_ex(reply, "status", &v) ?
	    json_object_get_string(v) : "";
	if (strcmp(state, "running") == 0) {
		log_info("guest running on the target");
		target_end(mt, PHASE_SUCCEEDED);
		return;
	}
	/*
	 * Arrived paused: the source paused it for us (workload disruption)
	 * or it was paused before.  Resume unless told to keep it paused.
	 */
	if (strcmp(state, "paused") == 0 && !mt->resuming) {
		if (mt->o->keep_paused || mt->arrives_paused) {
			status_note(&mt->w.st, "guest arrived paused and is "
			    "kept paused (--keep-paused)");
			target_end(mt, PHASE_SUCCEEDED);
			return;
		}
		mt->resuming = 1;
		status_note(&mt->w.st, "guest arrived paused: resuming it");
		if (qmp_send(mt->w.qmp, "cont", NULL, 10, on_cont_done, mt,
		    &cause) != 0) {
			log_warnx("cont: %s", cause);
			free(cause);
		}
	}
}

static void
check_running(struct mig_target *mt)
{
	char *cause = NULL;

	if (qmp_send(mt->w.qmp, "query-status", NULL, 10, on_status, mt,
	    &cause) != 0) {
		log_warnx("query-status: %s", cause);
		free(cause);
	}
}

/*
 * Once the memory arrived: the guest may run here only after the source
 * ended its mirrors (they are in sync: the source guest stopped).  Each
 * export goes when its NBD client has gone, then the server stops.
 * Returns 1 when done (or there were no disks).
 */
static int
target_disks_released(struct mig_target *mt)
{
	char	*cause = NULL;
	int	 rc;

	if (mt->disks == NULL)
		return 1;
	if (mt->release_deadline == 0)
		mt->release_deadline = now_monotonic() + DISKS_RELEASE_SECONDS;
	rc = mig_disks_target_release(mt->disks, mt->w.qmp, &cause);
	if (rc == 0 && now_monotonic() < mt->release_deadline)
		return 0;
	if (rc != 1) {
		status_note(&mt->w.st, "disks: %s; exports removed by force",
		    rc == 0 ? "the source's mirrors did not end in time" :
		    cause);
		mig_disks_target_stop(mt->disks, mt->w.qmp);
	}
	free(cause);
	mig_disks_free(mt->disks);
	mt->disks = NULL;
	return 1;
}

/* Exports the disks the policy copies (tls: through the proxy). */
static int
target_disks_start(struct mig_target *mt, char **cause)
{
	char *why = NULL, *list;

	if (mig_disks_select(mt->w.qmp, &mt->settings, 0, &mt->disks,
	    &why) != 0)
		goto fail;
	if (mt->disks == NULL)
		return 0;
	if (mt->tls != NULL)
		mt->nbd_uri = mig_tls_target_nbd_uri(mt->tls, mt->o, &why);
	else
		mt->nbd_uri = mig_disks_nbd_uri(mt->o->uri, mt->o->nbd, &why);
	if (mt->nbd_uri == NULL ||
	    mig_disks_target_start(mt->disks, mt->w.qmp, mt->nbd_uri,
	    &why) != 0)
		goto fail;
	list = mig_disks_describe(mt->disks);
	status_note(&mt->w.st, "disks exported on %s: %s", mt->nbd_uri, list);
	free(list);
	return 0;
fail:
	mig_disks_free(mt->disks);
	mt->disks = NULL;
	xasprintf(cause, "target QEMU %s: %s", mt->o->qmp_path, why);
	free(why);
	return -1;
}

static void
on_sample(struct mig_watch *w, json_object *reply)
{
	struct mig_target	*mt = (struct mig_target *)w;
	struct status		*st = &w->st;
	const char		*qs = mig_status_of(reply);
	json_object		*v;

	snprintf(st->progress.qemu_status, sizeof st->progress.qemu_status,
	    "%s", qs);
	if (strcmp(qs, "active") == 0 || strcmp(qs, "setup") == 0 ||
	    strncmp(qs, "postcopy", 8) == 0) {
		if (!mt->started) {
			mt->started = 1;
			status_set_phase(st, PHASE_RUNNING);
		}
	}
	if (strcmp(qs, "postcopy-active") == 0) {
		if (mt->recover_deadline != 0) {
			status_note(st, "post-copy recovered");
			mt->recover_deadline = 0;
			mt->recover_sent = 0;
			mt->recover_listening = 0;
		}
		status_set_mode(st, MODE_POSTCOPY);
	} else if (strcmp(qs, "postcopy-paused") == 0)
		target_recover(mt);
	else if (strcmp(qs, "completed") == 0)
		mt->completed = 1;
	else if (strcmp(qs, "failed") == 0) {
		if (mt->source_aborted)
			status_fail(st, FAIL_ABORTED, "the source aborted the "
			    "migration");
		status_record_failure(st, FAIL_DATA, "incoming migration "
		    "failed: %s", json_object_object_get_ex(reply,
		    "error-desc", &v) ? json_object_get_string(v) :
		    "no reason given");
		target_end(mt, PHASE_FAILED);
		return;
	}
	if (mt->completed && target_disks_released(mt))
		check_running(mt);
	status_progress(st);
}

static void
on_event(struct mig_watch *w, const char *name, json_object *data)
{
	struct mig_target *mt = (struct mig_target *)w;

	if (strcmp(name, "RESUME") == 0 && (mt->completed ||
	    w->st.mode == MODE_POSTCOPY) && mt->disks == NULL)
		check_running(mt);
}

static void
on_closed(struct mig_watch *w, const char *reason)
{
	struct mig_target *mt = (struct mig_target *)w;

	/* QEMU exits when an incoming migration fails. */
	if (mt->source_aborted && w->st.mode != MODE_POSTCOPY)
		status_fail(&w->st, FAIL_ABORTED, "the source aborted the "
		    "migration; the target QEMU exited (%s)", reason);
	else if (w->st.mode == MODE_POSTCOPY)
		status_fail(&w->st, FAIL_POSTCOPY_LOST, "target QEMU gone "
		    "during post-copy: %s", reason);
	else
		status_record_failure(&w->st, FAIL_DATA, "target QEMU gone "
		    "before the guest arrived: %s", reason);
	target_end(mt, PHASE_FAILED);
}

static void
on_signal(struct mig_watch *w, int signum)
{
	struct status *st = &w->st;

	st->abort_requested = 1;
	if (st->mode == MODE_POSTCOPY) {
		st->abort_status = ABORT_FAILED;
		status_note(st, "abort refused: post-copy has started and this "
		    "target holds the guest");
		status_changed(st, "abort");
		return;
	}
	/* The source still runs the guest: stop waiting, touch nothing. */
	st->abort_status = ABORT_SUCCEEDED;
	status_fail(st, FAIL_ABORTED, "abort requested (%s) before the guest "
	    "arrived", signum == SIGINT ? "SIGINT" : "SIGTERM");
	mig_watch_finish(w, PHASE_FAILED);
}

static void
on_deadline(struct mig_watch *w)
{
	struct mig_target *mt = (struct mig_target *)w;

	if (mt->started)
		return;		/* a migration under way has its own rules */
	status_fail(&w->st, FAIL_CONTROL, "no migration arrived within %.0f s "
	    "(--timeout)", mt->o->timeout);
	mig_watch_finish(w, PHASE_FAILED);
}

/* Applies the plan to the target QEMU and listens.  0, or -1 with *cause. */
static int
target_listen(struct mig_target *mt, char **cause)
{
	struct status	*st = &mt->w.st;
	json_object	*args;
	char		*why = NULL;

	json_object_object_add(st->configuration, "qemu",
	    mig_plan_to_json(&mt->plan));
	if (mig_plan_apply(mt->w.qmp, &mt->plan, 0, &why) != 0)
		goto fail;
	if (target_disks_start(mt, cause) != 0)
		return -1;
	args = json_object_new_object();
	json_object_object_add(args, "uri",
	    json_object_new_string(mt->qemu_uri));
	if (qmp_call(mt->w.qmp, "migrate-incoming", args, NULL, 10,
	    &why) != 0)
		goto fail;
	status_set_phase(st, PHASE_TARGET_READY);
	log_info("target ready: %s listening on %s", mt->o->qmp_path,
	    mt->qemu_uri);
	return 0;
fail:
	xasprintf(cause, "target QEMU %s: %s", mt->o->qmp_path, why);
	free(why);
	return -1;
}

/* Checks that the target QEMU waits for a migration. 0, or -1 (failed). */
static int
target_check(struct mig_target *mt)
{
	struct status	*st = &mt->w.st;
	json_object	*reply = NULL, *v;
	char		*cause = NULL;
	int		 ok;

	status_set_phase(st, PHASE_PREPARING_TARGET);
	if (qmp_call(mt->w.qmp, "query-status", NULL, &reply, 10,
	    &cause) != 0) {
		status_fail(st, FAIL_CONTROL, "target QEMU %s: %s",
		    mt->o->qmp_path, cause);
		free(cause);
		return -1;
	}
	ok = json_object_object_get_ex(reply, "status", &v) &&
	    strcmp(json_object_get_string(v), "inmigrate") == 0;
	json_object_put(reply);
	if (!ok) {
		status_fail(st, FAIL_CONTROL, "target QEMU %s is not waiting "
		    "for a migration: start it with -incoming defer",
		    mt->o->qmp_path);
		return -1;
	}
	return 0;
}

static void
on_end_timer(struct ev_loop *loop, ev_timer *t, int revents)
{
	struct mig_target *mt = (struct mig_target *)((char *)t -
	    offsetof(struct mig_target, end_timer));

	if (!mt->w.done)
		mig_watch_finish(&mt->w, mt->end_phase);
}

/* Finishes in a moment: long enough for an answer to leave. */
static void
finish_after(struct mig_target *mt, enum mig_phase phase, double seconds)
{
	mt->end_phase = phase;
	ev_timer_stop(mt->w.loop, &mt->end_timer);
	ev_timer_init(&mt->end_timer, on_end_timer, seconds, 0);
	ev_timer_start(mt->w.loop, &mt->end_timer);
}

/* Answers the source's "completed?" with this side's outcome. */
static void
answer_confirm(struct mig_target *mt)
{
	json_object *answer = json_object_new_object();

	json_object_object_add(answer, "status", json_object_new_string(
	    mt->end_phase == PHASE_SUCCEEDED ? "running" : "failed"));
	if (mt->w.st.failure_reason != NULL)
		json_object_object_add(answer, "reason",
		    json_object_new_string(mt->w.st.failure_reason));
	target_answer(mt, answer);
	finish_after(mt, mt->end_phase, 0.3);
}

/*
 * The end of an incoming migration.  Over tls:, the source waits for this
 * side's word before it reports success (or resumes its guest), so answer
 * its question, or wait a little for it to come.
 */
static void
target_end(struct mig_target *mt, enum mig_phase phase)
{
	if (mt->ending)
		return;		/* the first outcome stands */
	if (mt->tls == NULL || !mt->offered) {
		ev_timer_stop(mt->w.loop, &mt->end_timer);
		mig_watch_finish(&mt->w, phase);
		return;
	}
	mt->ending = 1;
	mt->end_phase = phase;
	status_changed(&mt->w.st, "ending");
	if (mt->confirm_asked)
		answer_confirm(mt);
	else
		finish_after(mt, phase, 10);
}

/* Answers the source's control message (the reply is stolen). */
static void
target_answer(struct mig_target *mt, json_object *answer)
{
	char *cause = NULL;

	if (mig_tls_target_answer(mt->tls, answer, &cause) != 0) {
		log_warnx("answer to the source: %s", cause);
		free(cause);
	}
}

/*
 * Refuses the source's offer: answers with the reason and fails as a
 * control-plane failure, a moment later so the answer leaves first.
 */
static void
target_refuse(struct mig_target *mt, const char *reason)
{
	json_object *answer = json_object_new_object();

	json_object_object_add(answer, "status",
	    json_object_new_string("refused"));
	json_object_object_add(answer, "reason",
	    json_object_new_string(reason));
	target_answer(mt, answer);
	status_record_failure(&mt->w.st, FAIL_CONTROL, "refused the source's "
	    "migration: %s", reason);
	finish_after(mt, PHASE_FAILED, 0.5);
}

/*
 * The disks the source's offer names (their keys): over tls:, the target
 * exports those, whatever its own policy says.  0, or -1 with *cause.
 */
static int
target_offer_disks(struct mig_target *mt, json_object *disks, char **cause)
{
	struct mig_settings	*s = &mt->settings;
	json_object		*k;
	size_t			 i, n;
	char			**keys;

	if (!json_object_is_type(disks, json_type_array) ||
	    (n = json_object_array_length(disks)) == 0 || n > 64) {
		xasprintf(cause, "\"disks\" in the offer is not a list of 1 to "
		    "64 disk names");
		return -1;
	}
	keys = xcalloc(n + 1, sizeof *keys);
	for (i = 0; i < n; i++) {
		k = json_object_array_get_idx(disks, i);
		if (!json_object_is_type(k, json_type_string) ||
		    json_object_get_string_len(k) == 0 ||
		    json_object_get_string(k)[0] == '/') {
			xasprintf(cause, "\"disks\" in the offer: entry %zu is "
			    "not a disk name", i);
			while (i > 0)
				free(keys[--i]);
			free(keys);
			return -1;
		}
		keys[i] = xstrdup(json_object_get_string(k));
	}
	if (s->disks != NULL) {
		for (i = 0; s->disks[i] != NULL; i++)
			free(s->disks[i]);
		free(s->disks);
	}
	s->disks = keys;
	s->block_migration = BLOCK_MIGRATION_ALWAYS;
	return 0;
}

/* The source's configuration, over tls:: check it, apply it, listen. */
static void
target_offer(struct mig_target *mt, json_object *msg)
{
	json_object	*v, *plan = NULL;
	char		*cause = NULL, *reason = NULL;
	int		 major, minor, micro, smaj = 0, smin = 0;

	if (mt->offered) {
		target_refuse(mt, "a migration is already under way here");
		return;
	}
	mt->offered = 1;
	if (!json_object_object_get_ex(msg, "plan", &plan) ||
	    mig_plan_from_json(&mt->plan, plan, &cause) != 0) {
		target_refuse(mt, cause != NULL ? cause : "no plan");
		free(cause);
		return;
	}
	qmp_qemu_version(mt->w.qmp, &major, &minor, &micro);
	if (json_object_object_get_ex(msg, "qemuVersion", &v))
		sscanf(json_object_get_string(v), "%d.%d", &smaj, &smin);
	if (smaj > major || (smaj == major && smin > minor)) {
		xasprintf(&reason, "target QEMU %d.%d.%d is older than the "
		    "source's %s", major, minor, micro,
		    json_object_get_string(v));
		target_refuse(mt, reason);
		free(reason);
		return;
	}
	if (json_object_object_get_ex(msg, "guestRunning", &v) &&
	    !json_object_get_boolean(v))
		mt->arrives_paused = 1;
	if (json_object_object_get_ex(msg, "disks", &v) &&
	    target_offer_disks(mt, v, &cause) != 0) {
		target_refuse(mt, cause);
		free(cause);
		return;
	}
	if (json_object_object_get_ex(msg, "migrationUid", &v))
		status_note(&mt->w.st, "migration %s from the source over %s",
		    json_object_get_string(v), mt->o->uri);
	if (target_listen(mt, &cause) != 0) {
		target_refuse(mt, cause);
		free(cause);
		return;
	}
	v = json_object_new_object();
	json_object_object_add(v, "status", json_object_new_string("ready"));
	target_answer(mt, v);
}

static void
on_control(json_object *msg, const char *error, void *arg)
{
	struct mig_target	*mt = arg;
	json_object		*type, *ok;

	if (mt->w.done)
		return;
	if (msg == NULL) {
		/* The session ended: fatal only before the stream began. */
		if (!mt->started) {
			status_fail(&mt->w.st, FAIL_CONTROL, "the source ended "
			    "the session before any guest memory moved: %s",
			    error);
			mig_watch_finish(&mt->w, PHASE_FAILED);
		}
		return;
	}
	json_object_object_get_ex(msg, "type", &type);
	if (type != NULL && strcmp(json_object_get_string(type),
	    "migration") == 0) {
		target_offer(mt, msg);
		return;
	}
	if (type != NULL && strcmp(json_object_get_string(type),
	    "abort") == 0) {
		json_object *reason;

		mt->source_aborted = 1;
		status_note(&mt->w.st, "the source aborted: %s",
		    json_object_object_get_ex(msg, "reason", &reason) ?
		    json_object_get_string(reason) : "no reason given");
	}
	if (type != NULL && strcmp(json_object_get_string(type),
	    "completed") == 0) {
		/* Answered when this side knows (target_end). */
		mt->confirm_asked = 1;
		if (mt->ending)
			answer_confirm(mt);
		return;
	}
	if (type != NULL && strcmp(json_object_get_string(type),
	    "resume") == 0) {
		/* Answered once migrate-recover listens (on_recover_done). */
		mt->resume_asked = 1;
		target_resume_ready(mt);
		return;
	}
	ok = json_object_new_object();
	json_object_object_add(ok, "status", json_object_new_string("ok"));
	target_answer(mt, ok);
}

int
mig_target_run(const struct mig_options *o)
{
	struct mig_target	 mt;
	char			*cause = NULL;
	int			 rc;

	memset(&mt, 0, sizeof mt);
	mt.o = o;
	mig_watch_init(&mt.w, "target", o->status_file, o->events);
	mt.w.on_sample = on_sample;
	mt.w.on_event = on_event;
	mt.w.on_closed = on_closed;
	mt.w.on_signal = on_signal;
	mt.w.on_deadline = on_deadline;
	mt.w.st.target = xstrdup(o->qmp_path);

	if (mig_settings_resolve(o, &mt.settings, &mt.w.st, &cause) != 0) {
		fprintf(stderr, "qmigrate incoming: %s\n", cause);
		free(cause);
		mig_watch_free(&mt.w);
		return QM_EXIT_USAGE;
	}
	if (strncmp(o->uri, "tls:", 4) == 0) {
		mt.tls = mig_tls_target_open(mt.w.loop, o, on_control, &mt,
		    &mt.qemu_uri, &cause);
		if (mt.tls == NULL) {
			fprintf(stderr, "qmigrate incoming: %s\n", cause);
			free(cause);
			mig_settings_free(&mt.settings);
			mig_watch_free(&mt.w);
			return QM_EXIT_USAGE;
		}
	} else
		mt.qemu_uri = xstrdup(o->uri);
	status_changed(&mt.w.st, "start");

	/* Everything is open now: keep no capability while peers talk. */
	if (mig_watch_connect(&mt.w, o->qmp_path) == 0 &&
	    (privs_drop(NULL), 1) && target_check(&mt) == 0) {
		/* Over tls:, the plan comes from the source (target_offer). */
		mig_plan_make(&mt.plan, &mt.settings, mt.settings.convergence,
		    &mt.w.st);
		if (mt.tls == NULL && target_listen(&mt, &cause) != 0) {
			status_fail(&mt.w.st, FAIL_CONTROL, "%s", cause);
			free(cause);
		} else
			mig_watch_run(&mt.w, o->timeout);
	}
	if (mt.w.st.phase != PHASE_SUCCEEDED && mt.w.st.failure == FAIL_NONE)
		status_fail(&mt.w.st, FAIL_CONTROL, "migration ended without "
		    "a result");
	/* Failed or aborted: the source keeps its disks; drop the exports. */
	mig_disks_target_stop(mt.disks, mt.w.qmp);
	mig_disks_free(mt.disks);
	free(mt.nbd_uri);
	rc = mig_watch_report(&mt.w);
	mig_tls_target_close(mt.tls);
	free(mt.qemu_uri);
	mig_settings_free(&mt.settings);
	mig_watch_free(&mt.w);
	return rc;
}
