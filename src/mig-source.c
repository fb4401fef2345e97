/*
 * mig-source.c: `qmigrate migrate`: drives the source QEMU through one
 * migration.  Sets capabilities and parameters, sends migrate, then watches
 * MIGRATION / MIGRATION_PASS events and polls query-migrate, feeding each
 * sample to the controller and carrying out its decisions over QMP.
 *
 * The guest is never lost by us: before post-copy starts, every failure and
 * abort leaves it running on the source (cont if we paused it); after, the
 * target holds it, abort is refused, and a broken stream is recovered with
 * migrate resume until --recover-timeout.
 */
#include <math.h>
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

/* Poll query-migrate at most this often; events trigger extra samples. */
#define POLL_SECONDS		0.5
/* How long QEMU gets to cancel before the abort is declared failed. */
#define ABORT_TIMEOUT		30.0
/* How long the target gets to say whether the guest runs there. */
#define CONFIRM_TIMEOUT		30.0
/* Between two migrate resume attempts while post-copy is paused. */
#define RESUME_RETRY_SECONDS	1.0
/* A controller's abort is a data-plane failure if no byte moved this long. */
#define STALL_SECONDS		5.0

struct mig_source {
	struct mig_watch	 w;	/* loop, QMP, status, polling */
	const struct mig_options *o;
	struct mig_settings	 settings;
	struct mig_plan		 plan;
	struct ctl		 ctl;
	char			*qemu_uri;	/* where QEMU migrates to */
	struct mig_tls_source	*tls;		/* tls: URIs only */
	double			 t0;		/* monotonic, at migrate */
	int			 paused_by_us;
	int			 completed_polls; /* queries since completed */
	ev_timer		 repoll;	/* ... the next one */
	int			 confirm_asked;	/* tls: "completed?" sent */
	double			 confirm_deadline;
	int			 saw_active;
	int			 cancel_sent;
	double			 abort_deadline;
	double			 recover_deadline;
	double			 last_resume_try;
	uint64_t		 guest_bytes;
	struct mig_disks	*disks;		/* mirrored over NBD, or NULL */
	char			*nbd_uri;
	int			 mirroring;	/* memory waits for the disks */
	double			 mirror_deadline; /* 0: none */
	json_object		*prev;		/* --status-file as found */
	char			*prev_cause;	/* why there was none */
	uint64_t		 moved_bytes;	/* transferred at moved_t */
	double			 moved_t;	/* last time it grew, -1: never */
	int			 resume_asked;	/* tls: is the target listening? */
	int			 resume_ready;	/* tls: it said so */
};

static void	source_abort(struct mig_source *, enum mig_failure,
		    const char *reason);
static int	source_send_migrate(struct mig_source *);
static int	source_disks_select(struct mig_source *);
static int	source_disks_start(struct mig_source *);
static void	source_mirror_step(struct mig_source *);

/* Turns a query-migrate reply into the status's progress and a sample. */
static void
read_sample(struct mig_source *ms, json_object *reply, struct ctl_sample *s)
{
	struct mig_progress	*p = &ms->w.st.progress;
	json_object		*ram = NULL;
	uint64_t		 page_size;

	json_object_object_get_ex(reply, "ram", &ram);
	page_size = json_u64_at(ram, "page-size");
	if (page_size == 0)
		page_size = 4096;

	memset(s, 0, sizeof *s);
	s->t = now_monotonic() - ms->t0;
	s->postcopy = strcmp(mig_status_of(reply), "postcopy-active") == 0;
	s->pass = json_u64_at(ram, "dirty-sync-count");
	s->total = json_u64_at(ram, "total");
	s->remaining = json_u64_at(ram, "remaining");
	s->transferred = json_u64_at(ram, "transferred");
	s->dirty_rate = (double)json_u64_at(ram, "dirty-pages-rate") *
	    (double)page_size;
	s->bandwidth = json_double_at(ram, "mbps") * 1e6 / 8;
	s->expected_downtime_ms = json_u64_at(reply, "expected-downtime");
	s->throttle_pct = (int)json_u64_at(reply, "cpu-throttle-percentage");

	snprintf(p->qemu_status, sizeof p->qemu_status, "%s",
	    mig_status_of(reply));
	if (ram != NULL) {
		p->data_total = s->total;
		p->data_processed = s->transferred;
		p->data_remaining = s->remaining;
		p->bandwidth = s->bandwidth;
		p->dirty_rate = s->dirty_rate;
		p->iteration = s->pass;
		p->postcopy_requests = json_u64_at(ram, "postcopy-requests");
	}
	p->expected_downtime_ms = s->expected_downtime_ms;
	p->throttle_pct = s->throttle_pct;
	if (json_object_object_get_ex(reply, "downtime", NULL))
		p->downtime_ms = json_u64_at(reply, "downtime");
	if (json_object_object_get_ex(reply, "total-time", NULL))
		p->total_time_ms = json_u64_at(reply, "total-time");
}

static void
on_action_done(struct qmp_conn *conn, json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	const char *what = arg;

	if (error != NULL)
		log_warnx("%s refused by the source QEMU: %s", what, error);
}

/*
 * Pre-copy that sends nothing at all is a broken data plane (link down,
 * target host gone silent), not a migration that fails to converge: when
 * QEMU's transferred count has not grown for more than limit seconds,
 * cancels with a data-plane failure (exit 4) and returns 1.
 */
static int
source_stalled(struct mig_source *ms, const struct ctl_sample *s,
    double limit)
{
	char reason[160];

	if (ms->moved_t < 0 || s->transferred != ms->moved_bytes) {
		ms->moved_bytes = s->transferred;
		ms->moved_t = s->t;
		return 0;
	}
	if (limit <= 0 || s->t - ms->moved_t <= limit)
		return 0;
	snprintf(reason, sizeof reason, "no data moved for %.0f s: the "
	    "migration stream to %s is stalled", s->t - ms->moved_t,
	    ms->o->uri);
	source_abort(ms, FAIL_DATA, reason);
	return 1;
}

/* Carries out one controller decision over QMP (asynchronously). */
static void
source_act(struct mig_source *ms, const struct ctl_decision *d,
    const struct ctl_sample *s)
{
	json_object	*args = NULL;
	char		*cause = NULL;
	const char	*cmd = NULL;

	if (d->action == CTL_NONE)
		return;
	status_decision(&ms->w.st, s->t, ctl_action_name(d->action),
	    d->reason, s);
	switch (d->action) {
	case CTL_NONE:
		return;
	case CTL_SET_DOWNTIME:
		args = json_object_new_object();
		json_object_object_add(args, "downtime-limit",
		    json_object_new_uint64(d->value));
		cmd = "migrate-set-parameters";
		break;
	case CTL_AUTO_CONVERGE:
		/*
		 * Arm the throttle QEMU was given disarmed (mig-caps.c).  On
		 * its next trigger QEMU starts it at cpu-throttle-initial, or,
		 * when the 1% arming already started it, adds the increment:
		 * either way it lands on d->value, then climbs 10 at a time.
		 */
		args = json_object_new_object();
		json_object_object_add(args, "cpu-throttle-initial",
		    json_object_new_int((int)d->value));
		json_object_object_add(args, "cpu-throttle-increment",
		    json_object_new_int(s->throttle_pct > 0 &&
		    (int)d->value > s->throttle_pct + 10 ?
		    (int)d->value - s->throttle_pct : 10));
		json_object_object_add(args, "max-cpu-throttle",
		    json_object_new_int(99));
		cmd = "migrate-set-parameters";
		break;
	case CTL_POST_COPY:
		args = NULL;
		cmd = "migrate-start-postcopy";
		status_set_mode(&ms->w.st, MODE_POSTCOPY);
		break;
	case CTL_PAUSE:
		args = NULL;
		cmd = "stop";
		ms->paused_by_us = 1;
		status_set_mode(&ms->w.st, MODE_PAUSED);
		break;
	case CTL_ABORT:
		if (source_stalled(ms, s, STALL_SECONDS))
			return;
		source_abort(ms, FAIL_ABORTED, d->reason);
		return;
	}
	if (qmp_send(ms->w.qmp, cmd, args, 10, on_action_done, (void *)cmd,
	    &cause) != 0) {
		log_warnx("%s: %s", cmd, cause);
		free(cause);
	}
}

/* Makes sure a guest we paused runs again on the source. */
static void
source_resume_guest(struct mig_source *ms)
{
	char *cause = NULL;

	if (!ms->paused_by_us || qmp_is_closed(ms->w.qmp))
		return;
	if (qmp_call(ms->w.qmp, "cont", NULL, NULL, 10, &cause) != 0) {
		log_warnx("the guest stays paused on the source: %s", cause);
		free(cause);
		return;
	}
	ms->paused_by_us = 0;
	status_set_mode(&ms->w.st, MODE_PRECOPY);
	log_info("guest resumed on the source");
}

/*
 * Requests an abort (signal, `qmigrate abort`, or the controller).  Before
 * post-copy: migrate_cancel, and the guest goes on on the source.  After:
 * refused, because the target already holds the guest.
 */
static void
source_abort(struct mig_source *ms, enum mig_failure why, const char *reason)
{
	struct status	*st = &ms->w.st;
	char		*cause = NULL;

	if (ms->w.done)
		return;
	/* FAIL_DATA: a stalled stream, cancelled; no one asked to abort. */
	if (why != FAIL_DATA)
		st->abort_requested = 1;
	if (st->mode == MODE_POSTCOPY) {
		st->abort_status = ABORT_FAILED;
		status_note(st, "abort refused: post-copy has started and the "
		    "target already holds the guest (%s)", reason);
		status_changed(st, "abort");
		return;
	}
	if (ms->cancel_sent)
		return;
	if (why != FAIL_DATA)
		st->abort_status = ABORT_ABORTING;
	/* Failed is only final once QEMU has cancelled; keep watching. */
	status_record_failure(st, why, "%s", reason);
	log_warnx("aborting: %s", reason);
	status_changed(st, "abort");
	ms->cancel_sent = 1;
	ms->abort_deadline = now_monotonic() + ABORT_TIMEOUT;
	/* A stalled stream is the target's data-plane failure too. */
	if (ms->tls != NULL && why != FAIL_DATA) {
		json_object *msg = json_object_new_object();

		json_object_object_add(msg, "type",
		    json_object_new_string("abort"));
		json_object_object_add(msg, "reason",
		    json_object_new_string(reason));
		mig_tls_source_notify(ms->tls, msg);
	}
	if (!ms->saw_active && strcmp(st->progress.qemu_status, "none") == 0) {
		/* migrate was never sent: nothing to cancel. */
		st->abort_status = ABORT_SUCCEEDED;
		mig_watch_finish(&ms->w, PHASE_FAILED);
		return;
	}
	if (qmp_send(ms->w.qmp, "migrate_cancel", NULL, 10, on_action_done,
	    "migrate_cancel", &cause) != 0) {
		log_warnx("migrate_cancel: %s", cause);
		free(cause);
	}
	mig_watch_poll_now(&ms->w);
}

static void
on_signal(struct mig_watch *w, int signum)
{
	struct mig_source	*ms = (struct mig_source *)w;
	char			 reason[64];

	snprintf(reason, sizeof reason, "abort requested (%s)",
	    signum == SIGINT ? "SIGINT" : "SIGTERM");
	source_abort(ms, FAIL_ABORTED, reason);
}

static void
on_resume_answer(json_object *answer, const char *error, void *arg)
{
	struct mig_source	*ms = arg;
	json_object		*v;

	ms->resume_asked = 0;
	if (answer != NULL && json_object_object_get_ex(answer, "status", &v) &&
	    strcmp(json_object_get_string(v), "ready") == 0) {
		ms->resume_ready = 1;
		mig_watch_poll_now(&ms->w);
	} else if (error != NULL)
		log_warnx("resume: %s", error);
}

/* Post-copy is paused: the stream broke.  Resume it, or give up. */
static void
source_recover(struct mig_source *ms)
{
	struct status	*st = &ms->w.st;
	json_object	*args;
	double		 now = now_monotonic();
	char		*cause = NULL;

	if (ms->recover_deadline == 0) {
		ms->recover_deadline = now + ms->o->recover_timeout;
		status_note(st, "post-copy stream broken: both QEMUs paused "
		    "in postcopy-paused; recovering for up to %.0f s",
		    ms->o->recover_timeout);
		status_changed(st, "recovery");
	}
	if (now > ms->recover_deadline) {
		status_fail(st, FAIL_POSTCOPY_LOST, "post-copy could not be "
		    "recovered within %.0f s: the guest is irrecoverable; "
		    "both QEMUs are left paused for the operator",
		    ms->o->recover_timeout);
		mig_watch_finish(&ms->w, PHASE_FAILED);
		return;
	}
	if (now - ms->last_resume_try < RESUME_RETRY_SECONDS)
		return;
	/*
	 * Over tls:, resume only once the target says its QEMU listens: a
	 * resume that finds no one leaves QEMU 7.2 stuck in postcopy-recover
	 * for good.  The question waits in the control connection while the
	 * network is down and is answered when it is back.
	 */
	if (ms->tls != NULL && !ms->resume_ready) {
		if (!ms->resume_asked) {
			args = json_object_new_object();
			json_object_object_add(args, "type",
			    json_object_new_string("resume"));
			if (mig_tls_source_ask(ms->tls, args, on_resume_answer,
			    ms) == 0)
				ms->resume_asked = 1;
		}
		return;
	}
	ms->resume_ready = 0;
	ms->last_resume_try = now;
	args = json_object_new_object();
	json_object_object_add(args, "uri",
	    json_object_new_string(ms->qemu_uri));
	json_object_object_add(args, "resume", json_object_new_boolean(1));
	if (qmp_send(ms->w.qmp, "migrate", args, 10, on_action_done,
	    "migrate resume", &cause) != 0) {
		log_warnx("migrate resume: %s", cause);
		free(cause);
	}
}

static void
on_repoll(struct ev_loop *loop, ev_timer *t, int revents)
{
	struct mig_source *ms = (struct mig_source *)((char *)t -
	    offsetof(struct mig_source, repoll));

	mig_watch_poll_now(&ms->w);
}

static void
source_succeeded(struct mig_source *ms)
{
	struct status *st = &ms->w.st;

	st->abort_status = st->abort_requested && st->abort_status ==
	    ABORT_ABORTING ? ABORT_FAILED : st->abort_status;
	st->failure = FAIL_NONE;
	free(st->failure_reason);
	st->failure_reason = NULL;
	log_info("migration completed: %llu bytes in %llu ms, downtime %llu "
	    "ms", (unsigned long long)st->progress.data_processed,
	    (unsigned long long)st->progress.total_time_ms,
	    (unsigned long long)st->progress.downtime_ms);
	ev_timer_stop(ms->w.loop, &ms->repoll);
	mig_watch_finish(&ms->w, PHASE_SUCCEEDED);
}

/* The target's word on the guest it received (source_confirm). */
static void
on_confirm(json_object *msg, const char *error, void *arg)
{
	struct mig_source	*ms = arg;
	struct status		*st = &ms->w.st;
	const char		*answer = json_str_at(msg, "status");
	const char		*reason = json_str_at(msg, "reason");
	char			*cause = NULL;

	if (ms->w.done)
		return;
	if (answer != NULL && strcmp(answer, "running") == 0) {
		source_succeeded(ms);
		return;
	}
	if (answer == NULL || strcmp(answer, "failed") != 0) {
		status_note(st, "the target did not confirm the guest (%s); "
		    "QEMU reported the migration completed", error != NULL ?
		    error : "unexpected answer");
		source_succeeded(ms);
		return;
	}
	if (reason == NULL)
		reason = "no reason given";
	if (st->mode == MODE_POSTCOPY)
		status_fail(st, FAIL_POSTCOPY_LOST, "the target lost the guest "
		    "after post-copy: %s", reason);
	else if (qmp_call(ms->w.qmp, "cont", NULL, NULL, 10, &cause) == 0)
		status_fail(st, FAIL_DATA, "the target could not load the "
		    "guest (%s): it runs on the source again", reason);
	else {
		status_fail(st, FAIL_DATA, "the target could not load the "
		    "guest (%s) and the source could not resume it: %s",
		    reason, cause);
		free(cause);
	}
	ev_timer_stop(ms->w.loop, &ms->repoll);
	mig_watch_finish(&ms->w, PHASE_FAILED);
}

/*
 * tls: QEMU says completed, but the last bytes may still be in the proxy.
 * Like libvirt's confirm phase, success is the target's to declare: ask it
 * whether the guest runs there, keep the proxy flushing meanwhile, and if
 * the target could not load it, run the guest on the source again.
 */
static void
source_confirm(struct mig_source *ms)
{
	json_object *msg;

	if (ms->confirm_asked) {
		if (now_monotonic() > ms->confirm_deadline) {
			status_note(&ms->w.st, "the target did not confirm "
			    "the guest within %.0f s; QEMU reported the "
			    "migration completed", CONFIRM_TIMEOUT);
			source_succeeded(ms);
		}
		return;
	}
	ms->confirm_asked = 1;
	ms->confirm_deadline = now_monotonic() + CONFIRM_TIMEOUT;
	msg = json_object_new_object();
	json_object_object_add(msg, "type", json_object_new_string("completed"));
	if (mig_tls_source_ask(ms->tls, msg, on_confirm, ms) != 0)
		on_confirm(NULL, "the control connection is gone", ms);
}

/* One query-migrate answer: progress, terminal states, controller. */
static void
on_sample(struct mig_watch *w, json_object *reply)
{
	struct mig_source	*ms = (struct mig_source *)w;
	struct status		*st = &w->st;
	struct ctl_sample	 s;
	struct ctl_decision	 d;
	const char		*qs = mig_status_of(reply);
	json_object		*v;
	char			*cause = NULL;

	read_sample(ms, reply, &s);
	if (ms->disks != NULL) {
		mig_disks_refresh(ms->disks, w->qmp);
		json_object_put(st->progress.disks);
		st->progress.disks = mig_disks_to_json(ms->disks);
	}
	if (ms->mirroring) {
		source_mirror_step(ms);
		return;
	}

	if (strcmp(qs, "completed") == 0) {
		/*
		 * QEMU announces completed before its migration thread has
		 * stored total-time and downtime: ask again (each poll, a few
		 * times at most) until the figures are in.
		 */
		if (st->progress.total_time_ms == 0 &&
		    ms->completed_polls++ < 10) {
			ev_timer_stop(w->loop, &ms->repoll);
			ev_timer_init(&ms->repoll, on_repoll, 0.05, 0);
			ev_timer_start(w->loop, &ms->repoll);
			return;
		}
		if (ms->tls != NULL)
			source_confirm(ms);
		else
			source_succeeded(ms);
		return;
	}
	if (strcmp(qs, "failed") == 0 || strcmp(qs, "cancelled") == 0) {
		const char *desc = "no reason given";

		if (json_object_object_get_ex(reply, "error-desc", &v))
			desc = json_object_get_string(v);
		if (ms->cancel_sent) {
			if (st->abort_requested)
				st->abort_status = ABORT_SUCCEEDED;
		} else if (!ms->saw_active && s.transferred == 0)
			status_fail(st, FAIL_CONTROL, "target %s not ready: "
			    "%s", ms->o->uri, desc);
		else
			status_fail(st, FAIL_DATA, "migration stream failed: "
			    "%s", desc);
		source_resume_guest(ms);
		mig_watch_finish(w, PHASE_FAILED);
		return;
	}
	if (ms->disks != NULL && !ms->cancel_sent &&
	    mig_disks_state(ms->disks, &cause) < 0) {
		source_abort(ms, FAIL_DATA, cause);
		free(cause);
		return;
	}
	if (ms->cancel_sent) {
		if (now_monotonic() > ms->abort_deadline) {
			st->abort_status = ABORT_FAILED;
			status_note(st, "QEMU did not cancel within %.0f s",
			    ABORT_TIMEOUT);
			mig_watch_finish(w, PHASE_FAILED);
		} else
			status_progress(st);
		return;
	}
	if (strcmp(qs, "postcopy-paused") == 0) {
		source_recover(ms);
		status_progress(st);
		return;
	}
	/* A resume that hangs (no answer from the target) has a deadline too. */
	if (strcmp(qs, "postcopy-recover") == 0 && ms->recover_deadline != 0 &&
	    now_monotonic() > ms->recover_deadline) {
		source_recover(ms);
		return;
	}
	if (strcmp(qs, "active") == 0 || strcmp(qs, "postcopy-active") == 0 ||
	    strcmp(qs, "postcopy-recover") == 0)
		ms->saw_active = 1;
	if (strcmp(qs, "postcopy-active") == 0) {
		if (ms->recover_deadline != 0) {
			status_note(st, "post-copy recovered");
			ms->recover_deadline = 0;
		}
		status_set_mode(st, MODE_POSTCOPY);
	}
	if (strcmp(qs, "active") == 0 && source_stalled(ms, &s,
	    (double)ms->settings.progress_timeout)) {
		status_progress(st);
		return;
	}
	if (strcmp(qs, "active") == 0 || strcmp(qs, "postcopy-active") == 0) {
		ctl_step(&ms->ctl, &s, &d);
		source_act(ms, &d, &s);
	}
	status_progress(st);
}

static void
on_closed(struct mig_watch *w, const char *reason)
{
	struct mig_source *ms = (struct mig_source *)w;

	if (w->st.mode == MODE_POSTCOPY)
		status_fail(&w->st, FAIL_POSTCOPY_LOST, "source QEMU gone "
		    "during post-copy (%s): the guest's pages that were still "
		    "on the source are lost", reason);
	else
		status_fail(&w->st, FAIL_CONTROL, "source QEMU %s: %s",
		    ms->o->qmp_path, reason);
	mig_watch_finish(w, PHASE_FAILED);
}

/* Bytes of guest RAM, for the acceptable completion time. */
static uint64_t
guest_memory(struct qmp_conn *qmp)
{
	json_object	*reply = NULL;
	uint64_t	 bytes;
	char		*cause = NULL;

	if (qmp_call(qmp, "query-memory-size-summary", NULL, &reply, 10,
	    &cause) != 0) {
		log_warnx("%s", cause);
		free(cause);
		return 0;
	}
	bytes = json_u64_at(reply, "base-memory") + json_u64_at(reply, "plugged-memory");
	json_object_put(reply);
	return bytes;
}

/*
 * The guest already left this QEMU (run state postmigrate): a qmigrate
 * killed after QEMU completed, restarted with the same --status-file.
 * Never migrates it again.  When QEMU completed and the status file names a
 * migration that had not failed, that migration is the one that completed:
 * its success is reported (exit 0); otherwise there is nothing to migrate
 * (exit 2).  Returns 1 (done: the session is finished), 0 (the guest is
 * here: go on), -1 (failed).
 */
static int
source_already_moved(struct mig_source *ms, json_object *migrate_reply)
{
	struct status		*st = &ms->w.st;
	struct ctl_sample	 s;
	json_object		*reply = NULL, *doc = ms->prev, *v;
	char			*cause = NULL, *state;
	int			 ours;

	if (qmp_call(ms->w.qmp, "query-status", NULL, &reply, 10,
	    &cause) != 0) {
		status_fail(st, FAIL_CONTROL, "source QEMU %s: %s",
		    ms->o->qmp_path, cause);
		free(cause);
		return -1;
	}
	state = xstrdup(mig_status_of(reply));
	json_object_put(reply);
	if (strcmp(state, "postmigrate") != 0) {
		free(state);
		return 0;
	}
	free(state);
	ours = doc != NULL &&
	    strcmp(mig_status_of(migrate_reply), "completed") == 0 &&
	    json_object_object_get_ex(doc, "migrationUid", &v) &&
	    json_object_object_get_ex(doc, "phase", NULL);
	if (ours) {
		json_object_object_get_ex(doc, "phase", &v);
		ours = strcmp(json_object_get_string(v), "Failed") != 0;
	}
	if (!ours) {
		status_fail(st, FAIL_NOT_MIGRATABLE, "source QEMU %s already "
		    "migrated its guest away (run state postmigrate): nothing "
		    "to migrate", ms->o->qmp_path);
		return -1;
	}
	json_object_object_get_ex(doc, "migrationUid", &v);
	snprintf(st->uid, sizeof st->uid, "%s", json_object_get_string(v));
	ms->t0 = now_monotonic();
	read_sample(ms, migrate_reply, &s);
	status_note(st, "re-attached to migration %s after QEMU had "
	    "completed it: the guest left this QEMU, nothing more to do",
	    st->uid);
	log_info("migration %s had already completed", st->uid);
	mig_watch_finish(&ms->w, PHASE_SUCCEEDED);
	return 1;
}

/*
 * What QEMU says about migrating now: runs the pre-flight check (exit 2
 * with every reason when the guest cannot move live; the conditions go in
 * the status), and finds a migration already under way, which is re-attached
 * without a check, or a guest already migrated away (source_already_moved).
 * Returns the current query-migrate status in *qstatus (caller frees) and
 * 0, or 1 (already done), or -1.
 */
static int
source_preflight(struct mig_source *ms, char **qstatus)
{
	struct status	*st = &ms->w.st;
	json_object	*reply = NULL;
	char		*cause = NULL, *summary = NULL;
	int		 rc;

	if (qmp_call(ms->w.qmp, "query-migrate", NULL, &reply, 10,
	    &cause) != 0) {
		status_fail(st, FAIL_CONTROL, "source QEMU %s: %s",
		    ms->o->qmp_path, cause);
		free(cause);
		return -1;
	}
	*qstatus = xstrdup(mig_status_of(reply));
	if (strcmp(*qstatus, "none") != 0 &&
	    strcmp(*qstatus, "completed") != 0 &&
	    strcmp(*qstatus, "failed") != 0 &&
	    strcmp(*qstatus, "cancelled") != 0) {
		json_object_put(reply);
		return 0;
	}
	rc = strcmp(*qstatus, "none") == 0 ? 0 :
	    source_already_moved(ms, reply);
	json_object_put(reply);
	if (rc != 0) {
		free(*qstatus);
		*qstatus = NULL;
		return rc;
	}
	rc = preflight_run(ms->w.qmp, &ms->settings, &st->conditions,
	    &summary);
	if (rc == -1)
		status_fail(st, FAIL_CONTROL, "source QEMU %s: %s",
		    ms->o->qmp_path, summary);
	else if (rc == 0)
		status_fail(st, FAIL_NOT_MIGRATABLE, "%s", summary);
	else if (strstr(summary, "; warning ") != NULL)
		status_note(st, "pre-flight: %s", summary);
	free(summary);
	if (rc != 1) {
		free(*qstatus);
		*qstatus = NULL;
		return -1;
	}
	return 0;
}

/* Re-attaching: the status file names the migration QEMU is running. */
static int
source_reattach(struct mig_source *ms, const char *qstatus)
{
	struct status	*st = &ms->w.st;
	json_object	*doc, *v;

	if (ms->o->status_file == NULL) {
		status_fail(st, FAIL_CONTROL, "source QEMU %s is already "
		    "migrating (%s) and no --status-file names it",
		    ms->o->qmp_path, qstatus);
		return -1;
	}
	/* What the killed qmigrate wrote, read before our first write. */
	doc = ms->prev;
	ms->prev = NULL;
	if (doc == NULL) {
		status_fail(st, FAIL_CONTROL, "source QEMU %s is already "
		    "migrating (%s): %s", ms->o->qmp_path, qstatus,
		    ms->prev_cause);
		return -1;
	}
	if (json_object_object_get_ex(doc, "migrationUid", &v))
		snprintf(st->uid, sizeof st->uid, "%s",
		    json_object_get_string(v));
	if (json_object_object_get_ex(doc, "mode", &v) &&
	    strcmp(json_object_get_string(v), "Paused") == 0)
		ms->paused_by_us = 1;
	json_object_put(doc);
	status_note(st, "re-attached to migration %s already %s in QEMU",
	    st->uid, qstatus);
	/* Migrating: an abort before the first sample must cancel it. */
	snprintf(st->progress.qemu_status, sizeof st->progress.qemu_status,
	    "%s", qstatus);
	return 0;
}

/* The keys of the disks to copy, for the offer: the target exports them. */
static json_object *
offer_disks(const struct mig_disks *ds)
{
	json_object *jobs = mig_disks_to_json(ds), *keys, *v;

	keys = json_object_new_array();
	json_object_object_foreach(jobs, job, val) {
		(void)job;
		if (json_object_object_get_ex(val, "disk", &v))
			json_object_array_add(keys, json_object_get(v));
	}
	json_object_put(jobs);
	return keys;
}

/*
 * tls: the target qmigrate gets this migration's configuration and applies
 * it to its QEMU before any guest memory moves, or refuses it.
 */
static int
source_offer(struct mig_source *ms)
{
	struct status	*st = &ms->w.st;
	json_object	*offer = json_object_new_object(), *answer = NULL;
	json_object	*v, *reply = NULL;
	char		*cause = NULL, version[32];
	int		 major, minor, micro, running = 1, ok;

	qmp_qemu_version(ms->w.qmp, &major, &minor, &micro);
	snprintf(version, sizeof version, "%d.%d.%d", major, minor, micro);
	if (qmp_call(ms->w.qmp, "query-status", NULL, &reply, 10,
	    &cause) == 0) {
		running = json_object_object_get_ex(reply, "running", &v) &&
		    json_object_get_boolean(v);
		json_object_put(reply);
	} else
		free(cause);
	cause = NULL;
	json_object_object_add(offer, "type",
	    json_object_new_string("migration"));
	json_object_object_add(offer, "migrationUid",
	    json_object_new_string(st->uid));
	json_object_object_add(offer, "qemuVersion",
	    json_object_new_string(version));
	json_object_object_add(offer, "guestRunning",
	    json_object_new_boolean(running));
	json_object_object_add(offer, "plan", mig_plan_to_json(&ms->plan));
	if (ms->disks != NULL)
		json_object_object_add(offer, "disks", offer_disks(ms->disks));

	status_set_phase(st, PHASE_PREPARING_TARGET);
	if (mig_tls_source_offer(ms->tls, offer, 60, &answer, &cause) != 0) {
		status_fail(st, FAIL_CONTROL, "target %s: %s", ms->o->uri,
		    cause);
		free(cause);
		return -1;
	}
	ok = json_object_object_get_ex(answer, "status", &v) &&
	    strcmp(json_object_get_string(v), "ready") == 0;
	if (!ok) {
		status_fail(st, FAIL_CONTROL, "target %s refused the "
		    "migration: %s", ms->o->uri,
		    json_object_object_get_ex(answer, "reason", &v) ?
		    json_object_get_string(v) : "no reason given");
		json_object_put(answer);
		return -1;
	}
	json_object_put(answer);
	status_set_phase(st, PHASE_TARGET_READY);
	return 0;
}

/*
 * Sets up the source QEMU and sends migrate, or first starts the disks'
 * mirrors.  Returns 0 or -1 (failed).
 */
static int
source_start(struct mig_source *ms)
{
	struct status		*st = &ms->w.st;
	struct ctl_config	 cfg;
	char			*cause = NULL, *qstatus = NULL;
	int			 reattach;

	switch (source_preflight(ms, &qstatus)) {
	case 0:
		break;
	case 1:
		return 0;	/* already done: no loop (mig_watch_run) */
	default:
		return -1;
	}
	reattach = strcmp(qstatus, "none") != 0 &&
	    strcmp(qstatus, "completed") != 0 &&
	    strcmp(qstatus, "failed") != 0 &&
	    strcmp(qstatus, "cancelled") != 0;
	if (reattach && source_reattach(ms, qstatus) != 0) {
		free(qstatus);
		return -1;
	}
	free(qstatus);
	if (!reattach && ms->o->slot_dir != NULL &&
	    slot_wait(ms->w.loop, ms->w.qmp, ms->o->slot_dir,
	    ms->o->max_parallel, ms->o->timeout, st) != 0)
		return -1;

	ms->guest_bytes = guest_memory(ms->w.qmp);
	if (!reattach && source_disks_select(ms) != 0)
		return -1;
	mig_plan_make(&ms->plan, &ms->settings, ms->settings.convergence, st);
	json_object_object_add(st->configuration, "qemu",
	    mig_plan_to_json(&ms->plan));

	memset(&cfg, 0, sizeof cfg);
	/* KubeVirt adds the disks to the completion timeout's size. */
	cfg.guest_bytes = ms->guest_bytes + mig_disks_bytes(ms->disks);
	cfg.completion_timeout_per_gib =
	    ms->settings.completion_timeout_per_gib;
	cfg.progress_timeout = ms->settings.progress_timeout;
	cfg.max_downtime_ms = ms->settings.max_downtime_ms;
	cfg.initial_downtime_ms = ms->plan.downtime_ms;
	cfg.allow_auto_converge = ms->plan.auto_converge;
	cfg.allow_post_copy = ms->plan.postcopy;
	cfg.allow_workload_disruption =
	    ms->settings.allow_workload_disruption;
	ctl_init(&ms->ctl, ms->settings.convergence, &cfg);

	ms->t0 = now_monotonic();
	if (reattach) {
		status_set_phase(st, PHASE_RUNNING);
		return 0;
	}
	if (mig_plan_apply(ms->w.qmp, &ms->plan, 1, &cause) != 0) {
		status_fail(st, FAIL_CONTROL, "source QEMU %s: %s",
		    ms->o->qmp_path, cause);
		free(cause);
		return -1;
	}
	if (ms->tls != NULL && source_offer(ms) != 0)
		return -1;
	if (ms->disks != NULL)
		return source_disks_start(ms);
	return source_send_migrate(ms);
}

/* Sends migrate: memory starts to move.  Returns 0 or -1 (failed). */
static int
source_send_migrate(struct mig_source *ms)
{
	struct status	*st = &ms->w.st;
	json_object	*args;
	char		*cause = NULL;

	args = json_object_new_object();
	json_object_object_add(args, "uri",
	    json_object_new_string(ms->qemu_uri));
	if (qmp_call(ms->w.qmp, "migrate", args, NULL, 10, &cause) != 0) {
		status_fail(st, FAIL_CONTROL, "source QEMU %s: %s",
		    ms->o->qmp_path, cause);
		free(cause);
		return -1;
	}
	ms->t0 = now_monotonic();
	snprintf(st->progress.qemu_status, sizeof st->progress.qemu_status,
	    "setup");
	status_set_phase(st, PHASE_RUNNING);
	log_info("migrating %s to %s (%s controller)", ms->o->qmp_path,
	    ms->o->uri, ctl_kind_name(ms->settings.convergence));
	return 0;
}

/*
 * The disks the policy copies (none unless blockMigration says so; the
 * pre-flight already let them through).  Returns 0 or -1 (failed).
 */
static int
source_disks_select(struct mig_source *ms)
{
	struct status	*st = &ms->w.st;
	char		*cause = NULL, *list;

	if (mig_disks_select(ms->w.qmp, &ms->settings, 1, &ms->disks,
	    &cause) != 0) {
		status_fail(st, FAIL_CONTROL, "source QEMU %s: %s",
		    ms->o->qmp_path, cause);
		free(cause);
		return -1;
	}
	if (ms->disks == NULL)
		return 0;
	/* Over tls:, the proxy's NBD channel carries them. */
	if (ms->tls != NULL)
		ms->nbd_uri = mig_tls_source_nbd_uri(ms->tls, ms->o, &cause);
	else
		ms->nbd_uri = mig_disks_nbd_uri(ms->o->uri, ms->o->nbd,
		    &cause);
	if (ms->nbd_uri == NULL) {
		status_fail(st, FAIL_CONTROL, "%s", cause);
		free(cause);
		return -1;
	}
	list = mig_disks_describe(ms->disks);
	status_note(st, "disks copied to the target over NBD %s: %s",
	    ms->nbd_uri, list);
	free(list);
	return 0;
}

/*
 * Starts the mirrors; memory moves once they are all ready (on_sample),
 * within 60 s plus completionTimeoutPerGiB per GiB of disk.
 */
static int
source_disks_start(struct mig_source *ms)
{
	struct status	*st = &ms->w.st;
	char		*cause = NULL;
	double		 gib;

	if (mig_disks_source_start(ms->disks, ms->w.qmp, ms->nbd_uri,
	    ms->plan.bandwidth, &cause) != 0) {
		status_fail(st, FAIL_CONTROL, "target %s: %s", ms->o->uri,
		    cause);
		free(cause);
		return -1;
	}
	ms->mirroring = 1;
	gib = ceil((double)mig_disks_bytes(ms->disks) / MIG_DISKS_GIB);
	if (ms->settings.completion_timeout_per_gib > 0)
		ms->mirror_deadline = now_monotonic() + 60 +
		    (double)ms->settings.completion_timeout_per_gib * gib;
	status_set_phase(st, PHASE_RUNNING);
	json_object_put(st->progress.disks);
	st->progress.disks = mig_disks_to_json(ms->disks);
	status_progress(st);
	return 0;
}

/* While the disks are copied: fail, wait, or move the memory. */
static void
source_mirror_step(struct mig_source *ms)
{
	struct status	*st = &ms->w.st;
	char		*cause = NULL;
	int		 rc;

	if (ms->cancel_sent)
		return;
	rc = mig_disks_state(ms->disks, &cause);
	if (rc < 0) {
		status_fail(st, FAIL_DATA, "%s", cause);
		free(cause);
		mig_watch_finish(&ms->w, PHASE_FAILED);
		return;
	}
	if (rc == 0 && ms->mirror_deadline > 0 &&
	    now_monotonic() > ms->mirror_deadline) {
		status_fail(st, FAIL_DATA, "the disks were not in sync within "
		    "%.0f s (completionTimeoutPerGiB)", ms->mirror_deadline -
		    ms->t0);
		mig_watch_finish(&ms->w, PHASE_FAILED);
		return;
	}
	if (rc == 0) {
		status_progress(st);
		return;
	}
	ms->mirroring = 0;
	status_note(st, "disks in sync (write-blocking mirrors): migrating "
	    "memory");
	if (source_send_migrate(ms) != 0)
		mig_watch_finish(&ms->w, PHASE_FAILED);
}

/*
 * After the migration: the mirrors end (in sync on success: the guest is
 * stopped; forced otherwise), the NBD nodes go; the source keeps its disks.
 */
static void
source_disks_finish(struct mig_source *ms)
{
	struct status	*st = &ms->w.st;
	int		 ok = st->phase == PHASE_SUCCEEDED;
	char		*cause = NULL;

	if (ms->disks == NULL)
		return;
	mig_disks_refresh(ms->disks, ms->w.qmp);
	json_object_put(st->progress.disks);
	st->progress.disks = mig_disks_to_json(ms->disks);
	if (mig_disks_source_finish(ms->disks, ms->w.qmp, ok, 60,
	    &cause) != 0) {
		status_note(st, "disks: %s", cause);
		free(cause);
	} else
		log_info("mirror jobs %s, NBD nodes removed", ok ?
		    "ended in sync" : "cancelled");
}

static void
on_event(struct mig_watch *w, const char *name, json_object *data)
{
	struct mig_source *ms = (struct mig_source *)w;

	if (ms->disks == NULL || strncmp(name, "BLOCK_JOB_", 10) != 0)
		return;
	mig_disks_on_event(ms->disks, name, data);
	mig_watch_poll_now(w);
}

int
mig_source_run(const struct mig_options *o)
{
	struct mig_source	 ms;
	char			*cause = NULL;
	int			 rc;

	memset(&ms, 0, sizeof ms);
	ms.o = o;
	ms.moved_t = -1;
	mig_watch_init(&ms.w, "source", o->status_file, o->events);
	ms.w.on_sample = on_sample;
	ms.w.on_closed = on_closed;
	ms.w.on_signal = on_signal;
	ms.w.on_event = on_event;
	ms.w.st.source = xstrdup(o->qmp_path);
	ms.w.st.target = xstrdup(o->uri);
	if (o->eviction != NULL)
		ms.w.st.eviction = json_object_get(o->eviction);

	if (mig_settings_resolve(o, &ms.settings, &ms.w.st, &cause) != 0) {
		fprintf(stderr, "qmigrate migrate: %s\n", cause);
		free(cause);
		mig_watch_free(&ms.w);
		return QM_EXIT_USAGE;
	}
	if (strncmp(o->uri, "tls:", 4) == 0) {
		ms.tls = mig_tls_source_open(ms.w.loop, o, ms.w.st.uid,
		    &ms.qemu_uri, &cause);
		if (ms.tls == NULL) {
			fprintf(stderr, "qmigrate migrate: %s\n", cause);
			free(cause);
			mig_settings_free(&ms.settings);
			mig_watch_free(&ms.w);
			return QM_EXIT_USAGE;
		}
	} else
		ms.qemu_uri = xstrdup(o->uri);
	/* A re-attach needs what a killed qmigrate wrote: read it first. */
	if (o->status_file != NULL)
		ms.prev = status_read_file(o->status_file, &ms.prev_cause);
	status_changed(&ms.w.st, "start");

	/* Everything is open now: keep no capability while peers talk. */
	if (mig_watch_connect(&ms.w, o->qmp_path) == 0 &&
	    (privs_drop(NULL), 1) && source_start(&ms) == 0)
		mig_watch_run(&ms.w, o->timeout);
	if (ms.w.st.phase != PHASE_SUCCEEDED && ms.w.st.failure == FAIL_NONE)
		status_fail(&ms.w.st, FAIL_CONTROL, "migration ended without "
		    "a result");
	source_disks_finish(&ms);
	if (ms.w.st.phase == PHASE_FAILED &&
	    ms.w.st.failure != FAIL_POSTCOPY_LOST)
		source_resume_guest(&ms);
	rc = mig_watch_report(&ms.w);
	free(ms.nbd_uri);
	slot_release();
	mig_tls_source_close(ms.tls);
	free(ms.qemu_uri);
	json_object_put(ms.prev);
	free(ms.prev_cause);
	mig_settings_free(&ms.settings);
	mig_watch_free(&ms.w);
	/* After the connection: a pending query-block-jobs points at it. */
	mig_disks_free(ms.disks);
	return rc;
}
