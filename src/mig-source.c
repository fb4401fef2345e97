/*
 * mig-source.c: `qmigrate migrate`: the source side's executor.  It sets
 * the source QEMU up (what QEMU says about migrating now, the pre-flight,
 * a node-wide slot, the plan, the disks to copy), then hands over to the
 * session (mig-session.c), which decides everything from there; this file
 * carries out what only the source knows: the offer and the other questions
 * to the target over tls:, the disks' mirrors, and the teardown.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "slot.h"
#include "dirty-rate.h"
#include "mig-options.h"
#include "mig-tls.h"
#include "qmp.h"
#include "mig-disks.h"
#include "mig-watch.h"

#define QMP_TIMEOUT		10
/* How long the target gets to answer the offer, a watch, an abort. */
#define OFFER_TIMEOUT		60
#define WATCH_TIMEOUT		10

struct mig_source {
	struct mig_watch	 w;	/* first: loop, QMP, status, session */
	const struct mig_options *o;
	struct mig_settings	 settings;
	struct mig_plan		 plan;
	struct mig_tls_source	*tls;		/* tls: URIs only */
	uint64_t		 guest_bytes;
	struct mig_disks	*disks;		/* mirrored over NBD, or NULL */
	char			*nbd_uri;
	char			*disks_cause;	/* why the mirrors failed */
	int			 usage_error;	/* the status file is unusable */
};

/* A question to the target, and who asked it. */
struct question {
	struct mig_source	*ms;
	enum control_type	 type;
};

/* Bytes of guest RAM, for the acceptable completion time. */
static uint64_t
guest_memory(struct qmp_conn *qmp)
{
	json_object	*reply = NULL;
	uint64_t	 bytes;
	char		*cause = NULL;

	if (qmp_call(qmp, "query-memory-size-summary", NULL, &reply,
	    QMP_TIMEOUT, &cause) != 0) {
		log_warnx("%s", cause);
		free(cause);
		return 0;
	}
	bytes = json_u64_at(reply, "base-memory") +
	    json_u64_at(reply, "plugged-memory");
	json_object_put(reply);
	return bytes;
}

static void	source_controller(struct mig_source *);

/* A failed setup: the event that says so (reason copied by the step). */
static void
setup_failed(struct mig_source *ms, enum mig_failure why, const char *fmt,
    ...) __attribute__((format(printf, 3, 4)));

static void
setup_failed(struct mig_source *ms, enum mig_failure why, const char *fmt,
    ...)
{
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE };
	va_list			 ap;
	char			*reason;

	va_start(ap, fmt);
	xvasprintf(&reason, fmt, ap);
	va_end(ap);
	ev.t = mig_watch_now();
	ev.setup = SETUP_FAILED;
	ev.fail = why;
	ev.reason = reason;
	mig_watch_step(&ms->w, &ev);
	free(reason);
}

static void
setup_done(struct mig_source *ms, enum sess_setup setup, enum mig_mode mode,
    const char *reason)
{
	struct sess_event ev = { .kind = SEV_SETUP_DONE };

	ev.t = mig_watch_now();
	ev.setup = setup;
	ev.mode = mode;
	ev.reason = reason;
	mig_watch_step(&ms->w, &ev);
}

/*
 * What a killed qmigrate wrote in --status-file, checked member by member
 * before anything of it is used.  Returns 0 with the migration's identity
 * taken over, or -1: the file is unusable, the error is printed, and
 * nothing will be written (exit 1: the migration is left alone).
 */
static int
source_restore(struct mig_source *ms, enum mig_phase *phase,
    enum mig_mode *mode)
{
	json_object	*doc;
	char		*cause = NULL, *what;

	doc = status_read_file(ms->o->status_file, &cause);
	xasprintf(&what, "status file %s", ms->o->status_file);
	if (doc == NULL || status_restore(&ms->w.st, doc, what, phase, mode,
	    &cause) != 0) {
		fprintf(stderr, "qmigrate migrate: %s: cannot re-attach to "
		    "the migration QEMU runs; it is left as it is\n", cause);
		free(cause);
		free(what);
		json_object_put(doc);
		ms->usage_error = 1;
		return -1;
	}
	free(what);
	json_object_put(doc);
	return 0;
}

/*
 * From its first word on, this run speaks for the migration it took over,
 * in the mode QEMU is in: the "start" kept while the file was unread named
 * a new migration.
 */
static void
source_took_over(struct mig_source *ms, enum mig_mode mode)
{
	status_set_mode(&ms->w.st, mode);
	status_forget_held(&ms->w.st);
	status_changed(&ms->w.st, "start");
}

/*
 * QEMU already has a migration: re-attach (it runs), report the success
 * QEMU had (it completed and the guest left: run state postmigrate), or go
 * on with a new one.  Returns 1 when the session took it over, 0 for a new
 * migration, -1 on failure (stepped or printed).
 */
static int
source_existing(struct mig_source *ms, const struct mig_info *mi)
{
	json_object	*reply = NULL;
	struct run_info	 ri;
	enum mig_phase	 phase;
	enum mig_mode	 mode;
	char		*cause = NULL;

	if (qemu_mig_status_in_progress(mi->status)) {
		if (ms->o->status_file == NULL) {
			setup_failed(ms, FAIL_CONTROL, "source QEMU %s is "
			    "already migrating (%s) and no --status-file names "
			    "it", ms->o->qmp_path, mi->status_name);
			return -1;
		}
		if (source_restore(ms, &phase, &mode) != 0)
			return -1;
		/* QEMU says post-copy even if the file was written before. */
		if (qemu_mig_status_postcopy(mi->status))
			mode = MODE_POSTCOPY;
		source_took_over(ms, mode);
		source_controller(ms);
		status_release(&ms->w.st);
		setup_done(ms, SETUP_REATTACH, mode, mi->status_name);
		return 1;
	}
	if (mi->status != QMS_COMPLETED)
		return 0;
	if (qmp_call(ms->w.qmp, "query-status", NULL, &reply, QMP_TIMEOUT,
	    &cause) != 0) {
		setup_failed(ms, FAIL_CONTROL, "source QEMU %s: %s",
		    ms->o->qmp_path, cause);
		free(cause);
		return -1;
	}
	run_info_decode(reply, &ri);
	json_object_put(reply);
	if (ri.state != RUN_POSTMIGRATE)
		return 0;
	/*
	 * The guest already left this QEMU: a qmigrate killed after QEMU
	 * completed, restarted with the same --status-file.  Never migrate
	 * it again: that file's migration, unless it had failed, is the one
	 * QEMU completed.
	 */
	if (ms->o->status_file != NULL && access(ms->o->status_file, F_OK) == 0) {
		if (source_restore(ms, &phase, &mode) != 0)
			return -1;
		if (phase != PHASE_FAILED) {
			source_took_over(ms, mode);
			status_set_progress(&ms->w.st, mi, 0);
			status_release(&ms->w.st);
			setup_done(ms, SETUP_ALREADY_DONE, mode, NULL);
			return 1;
		}
	}
	setup_failed(ms, FAIL_NOT_MIGRATABLE, "source QEMU %s already migrated "
	    "its guest away (run state postmigrate): nothing to migrate",
	    ms->o->qmp_path);
	return -1;
}

/*
 * QEMU cannot be asked what it is doing.  A status file already there may
 * describe a migration QEMU still runs (its qmigrate was killed): this run
 * cannot tell, so it leaves the file as it is rather than write a failure
 * of its own over that migration's identity.
 */
static void
source_state_unknown(struct mig_source *ms)
{
	const char *file = ms->o->status_file;

	if (file == NULL || access(file, F_OK) != 0)
		return;
	status_keep_file(&ms->w.st);
	log_warnx("status file %s left as it was: QEMU's migration state is "
	    "unknown", file);
}

/* The pre-flight check: exit 2 with every reason when it cannot move. */
static int
source_preflight(struct mig_source *ms)
{
	struct status	*st = &ms->w.st;
	char		*summary = NULL;
	int		 rc;

	rc = preflight_run(ms->w.qmp, &ms->settings, &st->conditions,
	    &summary);
	if (rc == -1)
		setup_failed(ms, FAIL_CONTROL, "source QEMU %s: %s",
		    ms->o->qmp_path, summary);
	else if (rc == 0)
		setup_failed(ms, FAIL_NOT_MIGRATABLE, "%s", summary);
	else if (strstr(summary, "; warning ") != NULL)
		status_note(st, "pre-flight: %s", summary);
	free(summary);
	return rc == 1 ? 0 : -1;
}

/*
 * The disks the policy copies (none unless blockMigration says so; the
 * pre-flight already let them through).  Returns 0 or -1 (stepped).
 */
static int
source_disks_select(struct mig_source *ms)
{
	char *cause = NULL, *list;

	if (mig_disks_select(ms->w.qmp, &ms->settings, 1, &ms->disks,
	    &cause) != 0)
		goto fail;
	if (ms->disks == NULL)
		return 0;
	/* Over tls:, the proxy's NBD channel carries them. */
	if (ms->tls != NULL)
		ms->nbd_uri = mig_tls_source_nbd_uri(ms->tls, ms->o, &cause);
	else
		ms->nbd_uri = mig_disks_nbd_uri(ms->o->uri, ms->o->nbd,
		    &cause);
	if (ms->nbd_uri == NULL)
		goto fail;
	list = mig_disks_describe(ms->disks);
	status_note(&ms->w.st, "disks copied to the target over NBD %s: %s",
	    ms->nbd_uri, list);
	free(list);
	return 0;
fail:
	setup_failed(ms, FAIL_CONTROL, "source QEMU %s: %s", ms->o->qmp_path,
	    cause);
	free(cause);
	return -1;
}

/*
 * A second of calc-dirty-rate before migrate, for the controller's first
 * judgement (ctl_wants_dirty_rate() says when); a failure only costs that.
 */
static void
source_dirty_rate(struct mig_source *ms, struct ctl_config *cfg)
{
	json_object	*per_vcpu = NULL;
	double		 mbps;
	char		*cause = NULL;

	if (dirty_rate_measure(ms->w.qmp, 1, 0, NULL, &mbps, &per_vcpu,
	    &cause) != 0) {
		status_note(&ms->w.st, "dirty rate not measured: %s", cause);
		free(cause);
		return;
	}
	json_object_put(per_vcpu);
	cfg->measured_dirty_rate = mbps * 1024 * 1024;
	status_note(&ms->w.st, "dirty rate measured before migrating: "
	    "%.1f MiB/s (calc-dirty-rate, 1 s)", mbps);
}

/* The controller's bounds, fixed now, from the plan and the settings. */
static void
source_controller(struct mig_source *ms)
{
	struct ctl_config cfg;

	ms->guest_bytes = guest_memory(ms->w.qmp);
	mig_plan_make(&ms->plan, &ms->settings, ms->settings.convergence,
	    &ms->w.st);
	json_object_object_add(ms->w.st.configuration, "qemu",
	    mig_plan_to_json(&ms->plan));

	memset(&cfg, 0, sizeof cfg);
	/* KubeVirt adds the disks to the completion timeout's size. */
	cfg.guest_bytes = ms->guest_bytes + mig_disks_bytes(ms->disks);
	cfg.completion_timeout_per_gib =
	    ms->settings.completion_timeout_per_gib;
	cfg.progress_timeout = ms->settings.progress_timeout;
	cfg.max_downtime_ms = ms->plan.downtime_max_ms;
	cfg.initial_downtime_ms = ms->plan.downtime_ms;
	cfg.allow_auto_converge = ms->plan.auto_converge;
	cfg.allow_post_copy = ms->plan.postcopy;
	cfg.allow_workload_disruption =
	    ms->settings.allow_workload_disruption;
	ctl_config_experimental(&cfg, ms->settings.convergence, &ms->settings);
	if (ctl_wants_dirty_rate(ms->settings.convergence, &cfg,
	    ms->plan.bandwidth))
		source_dirty_rate(ms, &cfg);
	session_set_controller(&ms->w.sess, ms->settings.convergence, &cfg);
	json_object_object_add(ms->w.st.configuration, "controller",
	    ctl_config_to_json(ms->settings.convergence, &cfg));
}

/*
 * Everything before the session takes over, in order; each step ends by
 * stepping the session (SEV_SETUP_DONE).  A signal or the deadline during
 * it reaches the session at once and stops the setup after the current
 * part (setup_abort).  Status writes are held until it is known whether
 * this is a re-attach, which must not overwrite the file it re-attaches
 * with until it has succeeded.
 */
static void
source_setup(struct mig_source *ms)
{
	struct session	*sess = &ms->w.sess;
	json_object	*reply = NULL;
	struct mig_info	 mi;
	char		*cause = NULL;
	double		 gib;

	if (mig_watch_connect(&ms->w, ms->o->qmp_path, &cause) != 0) {
		source_state_unknown(ms);
		status_release(&ms->w.st);
		setup_failed(ms, FAIL_CONTROL, "%s", cause);
		free(cause);
		return;
	}
	privs_drop(NULL);	/* everything is open: keep no capability */
	if (qmp_call(ms->w.qmp, "query-migrate", NULL, &reply, QMP_TIMEOUT,
	    &cause) != 0) {
		source_state_unknown(ms);
		status_release(&ms->w.st);
		setup_failed(ms, FAIL_CONTROL, "source QEMU %s: %s",
		    ms->o->qmp_path, cause);
		free(cause);
		return;
	}
	mig_info_decode(reply, &mi);
	json_object_put(reply);
	if (source_existing(ms, &mi) != 0)
		return;
	status_release(&ms->w.st);
	if (sess->setup_abort) {
		setup_done(ms, SETUP_FRESH, MODE_PRECOPY, NULL);
		return;
	}
	if (source_preflight(ms) != 0)
		return;
	if (ms->o->slot_dir != NULL && slot_wait(ms->w.loop, ms->w.qmp,
	    ms->o->slot_dir, ms->o->max_parallel, ms->o->timeout,
	    &sess->setup_abort, &ms->w.st) != 0) {
		if (!sess->setup_abort)
			setup_failed(ms, ms->w.st.failure, "%s",
			    ms->w.st.failure_reason);
		else
			setup_done(ms, SETUP_FRESH, MODE_PRECOPY, NULL);
		return;
	}
	if (sess->setup_abort) {
		setup_done(ms, SETUP_FRESH, MODE_PRECOPY, NULL);
		return;
	}
	if (source_disks_select(ms) != 0)
		return;
	source_controller(ms);
	if (ms->disks != NULL &&
	    ms->settings.completion_timeout_per_gib > 0) {
		gib = ceil((double)mig_disks_bytes(ms->disks) / MIG_DISKS_GIB);
		sess->cfg.mirror_timeout = 60 +
		    (double)ms->settings.completion_timeout_per_gib * gib;
	}
	sess->cfg.disks = ms->disks != NULL;
	if (sess->setup_abort) {
		setup_done(ms, SETUP_FRESH, MODE_PRECOPY, NULL);
		return;
	}
	if (mig_plan_apply(ms->w.qmp, &ms->plan, 1, &cause) != 0) {
		setup_failed(ms, FAIL_CONTROL, "source QEMU %s: %s",
		    ms->o->qmp_path, cause);
		free(cause);
		return;
	}
	setup_done(ms, SETUP_FRESH, MODE_PRECOPY, NULL);
}

/* The offer: this migration's configuration, for the target to apply. */
static json_object *
source_offer(struct mig_source *ms)
{
	struct control_msg	 m;
	json_object		*reply = NULL, *jobs, *v, *doc;
	struct run_info		 ri;
	char			*cause = NULL;

	memset(&m, 0, sizeof m);
	m.type = CONTROL_OFFER;
	snprintf(m.offer.uid, sizeof m.offer.uid, "%s", ms->w.st.uid);
	snprintf(m.offer.source_node, sizeof m.offer.source_node, "%s",
	    ms->w.st.source_node != NULL ? ms->w.st.source_node : "");
	snprintf(m.offer.source_pod, sizeof m.offer.source_pod, "%s",
	    ms->w.st.source_pod != NULL ? ms->w.st.source_pod : "");
	qmp_qemu_version(ms->w.qmp, &m.offer.qemu_major, &m.offer.qemu_minor,
	    &m.offer.qemu_micro);
	m.offer.guest_running = 1;
	if (qmp_call(ms->w.qmp, "query-status", NULL, &reply, QMP_TIMEOUT,
	    &cause) == 0 && run_info_decode(reply, &ri) == 0)
		m.offer.guest_running = ri.running;
	free(cause);
	json_object_put(reply);
	m.offer.plan = ms->plan;
	if (ms->disks != NULL) {
		jobs = mig_disks_to_json(ms->disks);
		m.offer.disks = xcalloc(mig_disks_count(ms->disks) + 1,
		    sizeof *m.offer.disks);
		json_object_object_foreach(jobs, job, val) {
			(void)job;
			if (json_object_object_get_ex(val, "disk", &v))
				m.offer.disks[m.offer.ndisks++] =
				    xstrdup(json_object_get_string(v));
		}
		json_object_put(jobs);
	}
	doc = control_encode(&m);
	control_msg_free(&m);
	return doc;
}

static void
on_answer(json_object *answer, const char *error, void *arg)
{
	struct question		*q = arg;
	struct mig_source	*ms = q->ms;
	struct sess_event	 ev = { .kind = SEV_ANSWER };
	char			 reason[SESS_REASON_MAX];
	char			 node[CONTROL_NAME_MAX + 1];
	char			 pod[CONTROL_NAME_MAX + 1];

	ev.t = mig_watch_now();
	ev.question = q->type;
	free(q);
	if (ms->w.stop)
		return;
	/* The target names itself in its answers (status: targetNode). */
	control_answer_identity(answer, node, pod);
	if (node[0] != '\0') {
		free(ms->w.st.target_node);
		ms->w.st.target_node = xstrdup(node);
	}
	if (pod[0] != '\0') {
		free(ms->w.st.target_pod);
		ms->w.st.target_pod = xstrdup(pod);
	}
	if (answer != NULL) {
		ev.answer = control_answer_decode(answer, reason,
		    sizeof reason);
		ev.reason = reason;
	} else {
		ev.answer = ANSWER_UNKNOWN;
		ev.reason = error != NULL ? error : "no answer";
	}
	mig_watch_step(&ms->w, &ev);
}

static void
source_ask(struct mig_source *ms, const struct sess_action *a)
{
	struct question		*q;
	struct control_msg	 m;
	json_object		*msg;
	double			 timeout = WATCH_TIMEOUT;

	memset(&m, 0, sizeof m);
	m.type = a->question;
	snprintf(m.reason, sizeof m.reason, "%s", a->reason);
	if (a->question == CONTROL_OFFER) {
		msg = source_offer(ms);
		timeout = OFFER_TIMEOUT;
	} else
		msg = control_encode(&m);
	/* These wait as long as the network is down (the session times). */
	if (a->question == CONTROL_RESUME || a->question == CONTROL_COMPLETED)
		timeout = 0;
	q = xcalloc(1, sizeof *q);
	q->ms = ms;
	q->type = a->question;
	mig_tls_source_ask(ms->tls, msg, timeout, on_answer, q);
}

/* Starts the mirrors; memory moves once they are all in sync. */
static void
source_start_mirrors(struct mig_source *ms)
{
	struct status		*st = &ms->w.st;
	struct sess_event	 ev = { .kind = SEV_JOB_DONE };
	char			*cause = NULL, *reason = NULL;

	ev.job = SJ_START_MIRRORS;
	ev.ok = mig_disks_source_start(ms->disks, ms->w.qmp, ms->nbd_uri,
	    ms->plan.bandwidth, &cause) == 0;
	if (!ev.ok) {
		xasprintf(&reason, "target %s: %s", ms->o->uri, cause);
		ev.fail = FAIL_CONTROL;
		ev.reason = reason;
	} else {
		json_object_put(st->progress.disks);
		st->progress.disks = mig_disks_to_json(ms->disks);
	}
	ev.t = mig_watch_now();
	mig_watch_step(&ms->w, &ev);
	free(cause);
	free(reason);
}

static void
source_execute(struct mig_watch *w, const struct sess_action *a)
{
	struct mig_source *ms = (struct mig_source *)w;

	switch (a->kind) {
	case SA_JOB:
		if (a->job == SJ_START_MIRRORS)
			source_start_mirrors(ms);
		break;
	case SA_ASK:
		if (ms->tls != NULL)
			source_ask(ms, a);
		break;
	default:
		break;
	}
}

/* The mirrors' state goes with every sample. */
static void
source_before_sample(struct mig_watch *w, struct sess_event *ev)
{
	struct mig_source	*ms = (struct mig_source *)w;
	struct status		*st = &w->st;
	int			 rc;

	if (ms->disks == NULL)
		return;
	mig_disks_refresh(ms->disks, w->qmp);
	json_object_put(st->progress.disks);
	st->progress.disks = mig_disks_to_json(ms->disks);
	free(ms->disks_cause);
	ms->disks_cause = NULL;
	rc = mig_disks_state(ms->disks, &ms->disks_cause);
	ev->disks = rc < 0 ? DISKS_FAILED : rc == 0 ? DISKS_SYNCING :
	    DISKS_READY;
	if (rc < 0)
		ev->reason = ms->disks_cause;
}

static void
source_on_event(struct mig_watch *w, const char *name, json_object *data)
{
	struct mig_source *ms = (struct mig_source *)w;

	if (ms->disks != NULL && strncmp(name, "BLOCK_JOB_", 10) == 0)
		mig_disks_on_event(ms->disks, name, data);
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

	if (ms->disks == NULL || ms->w.qmp == NULL ||
	    qmp_is_closed(ms->w.qmp))
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

/* The guest runs on the source again (it failed before post-copy). */
static void
source_resume_guest(struct mig_source *ms)
{
	char *cause = NULL;

	if (ms->w.qmp == NULL || qmp_is_closed(ms->w.qmp))
		return;
	if (qmp_call(ms->w.qmp, "cont", NULL, NULL, QMP_TIMEOUT,
	    &cause) != 0) {
		status_note(&ms->w.st, "the guest stays paused on the source: "
		    "%s", cause);
		free(cause);
		return;
	}
	status_set_mode(&ms->w.st, MODE_PRECOPY);
	log_info("guest resumed on the source");
}

static void
source_session_init(struct mig_source *ms)
{
	struct sess_config cfg;

	memset(&cfg, 0, sizeof cfg);
	cfg.role = SESS_SOURCE;
	cfg.tls = ms->tls != NULL;
	cfg.timeout = ms->o->timeout;
	cfg.recover_timeout = ms->o->recover_timeout;
	cfg.stall_timeout = (double)ms->settings.progress_timeout;
	cfg.peer = ms->o->uri;
	cfg.qmp_path = ms->o->qmp_path;
	session_init(&ms->w.sess, &cfg, &ms->w.st);
}

int
mig_source_run(const struct mig_options *o)
{
	struct mig_source	 ms;
	char			*cause = NULL;
	int			 rc;

	memset(&ms, 0, sizeof ms);
	ms.o = o;
	mig_watch_init(&ms.w, "source", o->status_file, o->events);
	ms.w.execute = source_execute;
	ms.w.before_sample = source_before_sample;
	ms.w.on_event = source_on_event;
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
		    &ms.w.qemu_uri, &cause);
		if (ms.tls == NULL) {
			fprintf(stderr, "qmigrate migrate: %s\n", cause);
			free(cause);
			mig_settings_free(&ms.settings);
			mig_watch_free(&ms.w);
			return QM_EXIT_USAGE;
		}
	} else
		ms.w.qemu_uri = xstrdup(o->uri);
	source_session_init(&ms);

	/* Signals and the deadline first: from now on they are events. */
	mig_watch_arm(&ms.w, o->timeout);
	status_hold(&ms.w.st);
	status_changed(&ms.w.st, "start");
	source_setup(&ms);
	if (ms.usage_error) {
		/* Nothing was touched, nothing is written. */
		status_discard(&ms.w.st);
		ms.w.stop = 1;
		mig_tls_source_close(ms.tls);
		mig_settings_free(&ms.settings);
		mig_watch_free(&ms.w);
		mig_disks_free(ms.disks);
		return QM_EXIT_USAGE;
	}
	status_release(&ms.w.st);
	if (!ms.w.stop)
		mig_watch_run(&ms.w);
	if (ms.w.st.phase != PHASE_SUCCEEDED && ms.w.st.failure == FAIL_NONE)
		status_fail(&ms.w.st, FAIL_CONTROL, "migration ended without "
		    "a result");
	source_disks_finish(&ms);
	if (ms.w.sess.need_cont)
		source_resume_guest(&ms);
	rc = mig_watch_report(&ms.w);
	free(ms.nbd_uri);
	free(ms.disks_cause);
	slot_release();
	mig_tls_source_close(ms.tls);
	mig_settings_free(&ms.settings);
	mig_watch_free(&ms.w);
	/* After the connection: a pending query-block-jobs points at it. */
	mig_disks_free(ms.disks);
	return rc;
}
