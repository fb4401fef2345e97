/*
 * mig-target.c: `qmigrate incoming`: the target side's executor.  It checks
 * that the target QEMU waits for a migration (-incoming defer), prepares it
 * (plan, disk exports, migrate-incoming: at once over unix: and tcp:, on the
 * source's offer over tls:), and hands over to the session (mig-session.c),
 * carrying out what only the target knows: answers to the source, the
 * exports' release, cutting the stream.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "mig-options.h"
#include "mig-tls.h"
#include "qmp.h"
#include "mig-disks.h"
#include "mig-watch.h"

#define QMP_TIMEOUT		10
/* How long the source gets to end its mirrors once the memory arrived. */
#define DISKS_RELEASE_SECONDS	60.0

struct mig_target {
	struct mig_watch	 w;	/* first: loop, QMP, status, session */
	const struct mig_options *o;
	struct mig_settings	 settings;
	struct mig_plan		 plan;
	struct mig_tls_target	*tls;		/* tls: URIs only */
	struct mig_disks	*disks;		/* exported over NBD, or NULL */
	char			*nbd_uri;
	double			 release_deadline;
	/* The source's offer (tls:), for SJ_PREPARE_TARGET. */
	struct mig_plan		 offer_plan;
	char			**offer_disks;	/* NULL-terminated, or NULL */
};

static void
free_list(char **list)
{
	size_t i;

	for (i = 0; list != NULL && list[i] != NULL; i++)
		free(list[i]);
	free(list);
}

/* Exports the disks to copy (tls: through the proxy).  0, or -1. */
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
	mt->w.sess.cfg.disks = 1;
	return 0;
fail:
	mig_disks_free(mt->disks);
	mt->disks = NULL;
	xasprintf(cause, "target QEMU %s: %s", mt->o->qmp_path, why);
	free(why);
	return -1;
}

/* Applies the plan to the target QEMU and listens.  0, or -1 with *cause. */
static int
target_listen(struct mig_target *mt, char **cause)
{
	json_object	*args;
	char		*why = NULL;

	json_object_object_add(mt->w.st.configuration, "qemu",
	    mig_plan_to_json(&mt->plan));
	if (mig_plan_apply(mt->w.qmp, &mt->plan, 0, &why) != 0)
		goto fail;
	if (target_disks_start(mt, cause) != 0)
		return -1;
	args = json_object_new_object();
	json_object_object_add(args, "uri",
	    json_object_new_string(mt->w.qemu_uri));
	if (qmp_call(mt->w.qmp, "migrate-incoming", args, NULL, QMP_TIMEOUT,
	    &why) != 0)
		goto fail;
	log_info("target ready: %s listening on %s", mt->o->qmp_path,
	    mt->w.qemu_uri);
	return 0;
fail:
	xasprintf(cause, "target QEMU %s: %s", mt->o->qmp_path, why);
	free(why);
	return -1;
}

/* Checks that the target QEMU waits for a migration.  0, or -1. */
static int
target_check(struct mig_target *mt, char **cause)
{
	json_object	*reply = NULL;
	struct run_info	 ri;
	char		*why = NULL;

	if (qmp_call(mt->w.qmp, "query-status", NULL, &reply, QMP_TIMEOUT,
	    &why) != 0) {
		xasprintf(cause, "target QEMU %s: %s", mt->o->qmp_path, why);
		free(why);
		return -1;
	}
	run_info_decode(reply, &ri);
	json_object_put(reply);
	if (ri.state != RUN_INMIGRATE) {
		xasprintf(cause, "target QEMU %s is not waiting for a migration "
		    "(run state %s): start it with -incoming defer",
		    mt->o->qmp_path, ri.state_name);
		return -1;
	}
	return 0;
}

/* Connect, check, and over unix: or tcp: listen at once. */
static void
target_setup(struct mig_target *mt)
{
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE };
	char			*cause = NULL;

	ev.fail = FAIL_CONTROL;
	if (mig_watch_connect(&mt->w, mt->o->qmp_path, &cause) == 0) {
		privs_drop(NULL);	/* everything is open */
		if (target_check(mt, &cause) == 0) {
			mig_plan_make(&mt->plan, &mt->settings,
			    mt->settings.convergence, &mt->w.st);
			ev.ok = mt->tls != NULL || target_listen(mt,
			    &cause) == 0;
		}
	}
	ev.t = mig_watch_now();
	ev.reason = cause;
	mig_watch_step(&mt->w, &ev);
	free(cause);
}

/* The source's offer, applied: its plan, the disks it copies, listen. */
static void
target_prepare(struct mig_target *mt)
{
	struct mig_settings	*s = &mt->settings;
	struct sess_event	 ev = { .kind = SEV_JOB_DONE };
	char			*cause = NULL;

	mt->plan = mt->offer_plan;
	if (mt->offer_disks != NULL) {
		/* Over tls:, the target exports what the source copies. */
		free_list(s->disks);
		s->disks = mt->offer_disks;
		mt->offer_disks = NULL;
		s->block_migration = BLOCK_MIGRATION_ALWAYS;
	}
	ev.job = SJ_PREPARE_TARGET;
	ev.ok = target_listen(mt, &cause) == 0;
	ev.reason = cause;
	ev.t = mig_watch_now();
	mig_watch_step(&mt->w, &ev);
	free(cause);
}

/*
 * The offer names the migration and the source: one uid on both sides
 * (the source's), and the source's node and pod, as KubeVirt's
 * migrationState has them on either side.
 */
static void
target_offer_identity(struct mig_target *mt, const struct control_offer *o)
{
	struct status *st = &mt->w.st;

	if (o->uid[0] != '\0')
		snprintf(st->uid, sizeof st->uid, "%s", o->uid);
	if (o->source_node[0] != '\0') {
		free(st->source_node);
		st->source_node = xstrdup(o->source_node);
	}
	if (o->source_pod[0] != '\0') {
		free(st->source_pod);
		st->source_pod = xstrdup(o->source_pod);
	}
}

static void
on_control(json_object *msg, const char *error, void *arg)
{
	struct mig_target	*mt = arg;
	struct sess_event	 ev;
	struct control_msg	 m;
	char			*cause = NULL;
	size_t			 i;

	if (mt->w.stop)
		return;
	memset(&ev, 0, sizeof ev);
	ev.t = mig_watch_now();
	if (msg == NULL) {
		ev.kind = SEV_CONTROL_LOST;
		ev.reason = error != NULL ? error : "closed";
		mig_watch_step(&mt->w, &ev);
		return;
	}
	if (control_decode(msg, &m, &cause) != 0) {
		log_warnx("the source: %s", cause);
		free(cause);
		memset(&m, 0, sizeof m);
	}
	if (m.type == CONTROL_OFFER && m.offer_error[0] == '\0' &&
	    mt->w.st.uid_from_vmim && strcmp(m.offer.uid, mt->w.st.uid) != 0)
		snprintf(m.offer_error, sizeof m.offer_error, "the source's "
		    "migration uid %.40s is not this target's --vmim uid %s",
		    m.offer.uid, mt->w.st.uid);
	if (m.type == CONTROL_OFFER && m.offer_error[0] == '\0') {
		target_offer_identity(mt, &m.offer);
		mt->offer_plan = m.offer.plan;
		free_list(mt->offer_disks);
		mt->offer_disks = NULL;
		if (m.offer.ndisks > 0) {
			mt->offer_disks = xcalloc(m.offer.ndisks + 1,
			    sizeof *mt->offer_disks);
			for (i = 0; i < m.offer.ndisks; i++)
				mt->offer_disks[i] = xstrdup(m.offer.disks[i]);
		}
	}
	ev.kind = SEV_CONTROL;
	ev.msg = &m;
	mig_watch_step(&mt->w, &ev);
	control_msg_free(&m);
}

static void
target_answer(struct mig_target *mt, const struct sess_action *a)
{
	json_object	*answer;
	char		*cause = NULL;

	if (mt->tls == NULL)
		return;
	answer = control_answer_encode(a->answer, a->reason[0] != '\0' ?
	    a->reason : NULL);
	control_answer_identify(answer, mt->w.st.target_node,
	    mt->w.st.target_pod);
	if (mig_tls_target_answer(mt->tls, answer, &cause) != 0) {
		log_warnx("answer to the source: %s", cause);
		free(cause);
	}
}

static void
target_execute(struct mig_watch *w, const struct sess_action *a)
{
	struct mig_target *mt = (struct mig_target *)w;

	switch (a->kind) {
	case SA_JOB:
		if (a->job == SJ_PREPARE_TARGET)
			target_prepare(mt);
		break;
	case SA_ANSWER:
		target_answer(mt, a);
		break;
	case SA_UNLISTEN:
		/* QEMU keeps its socket open; without the path none reach it. */
		if (strncmp(mt->w.qemu_uri, "unix:", 5) == 0 &&
		    unlink(mt->w.qemu_uri + 5) != 0)
			log_warn("%s", mt->w.qemu_uri + 5);
		break;
	case SA_CUT:
		/* The stream and the control connection end here. */
		mig_tls_target_close(mt->tls);
		mt->tls = NULL;
		break;
	default:
		break;
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
		mt->release_deadline = mig_watch_now() + DISKS_RELEASE_SECONDS;
	rc = mig_disks_target_release(mt->disks, mt->w.qmp, &cause);
	if (rc == 0 && mig_watch_now() < mt->release_deadline)
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
	mt->w.sess.cfg.disks = 0;
	return 1;
}

static void
target_before_sample(struct mig_watch *w, struct sess_event *ev)
{
	struct mig_target *mt = (struct mig_target *)w;

	ev->disks = mt->disks != NULL ? DISKS_SYNCING : DISKS_NONE;
	if (ev->mi->status == QMS_COMPLETED)
		ev->disks_released = target_disks_released(mt);
}

static void
target_session_init(struct mig_target *mt)
{
	struct sess_config	cfg;

	memset(&cfg, 0, sizeof cfg);
	cfg.role = SESS_TARGET;
	cfg.tls = mt->tls != NULL;
	cfg.timeout = mt->o->timeout;
	cfg.recover_timeout = mt->o->recover_timeout;
	cfg.keep_paused = mt->o->keep_paused;
	cfg.unix_listen = strncmp(mt->o->uri, "unix:", 5) == 0;
	cfg.peer = mt->o->uri;
	cfg.qmp_path = mt->o->qmp_path;
	session_init(&mt->w.sess, &cfg, &mt->w.st);
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
	mt.w.execute = target_execute;
	mt.w.before_sample = target_before_sample;
	mt.w.st.target = xstrdup(o->qmp_path);

	if (mig_settings_resolve(o, &mt.settings, &mt.w.st, &cause) != 0) {
		fprintf(stderr, "qmigrate incoming: %s\n", cause);
		free(cause);
		mig_watch_free(&mt.w);
		return QM_EXIT_USAGE;
	}
	if (strncmp(o->uri, "tls:", 4) == 0) {
		mt.tls = mig_tls_target_open(mt.w.loop, o, on_control, &mt,
		    &mt.w.qemu_uri, &cause);
		if (mt.tls == NULL) {
			fprintf(stderr, "qmigrate incoming: %s\n", cause);
			free(cause);
			mig_settings_free(&mt.settings);
			mig_watch_free(&mt.w);
			return QM_EXIT_USAGE;
		}
	} else
		mt.w.qemu_uri = xstrdup(o->uri);
	target_session_init(&mt);

	/* Signals and the deadline first: from now on they are events. */
	mig_watch_arm(&mt.w, o->timeout);
	status_changed(&mt.w.st, "start");
	target_setup(&mt);
	if (mt.w.qmp != NULL)
		qmp_qemu_version(mt.w.qmp, &mt.w.sess.cfg.qemu_major,
		    &mt.w.sess.cfg.qemu_minor, &mt.w.sess.cfg.qemu_micro);
	if (!mt.w.stop)
		mig_watch_run(&mt.w);
	if (mt.w.st.phase != PHASE_SUCCEEDED && mt.w.st.failure == FAIL_NONE)
		status_fail(&mt.w.st, FAIL_CONTROL, "migration ended without "
		    "a result");
	/* Failed or aborted: the source keeps its disks; drop the exports. */
	if (mt.w.qmp != NULL && !qmp_is_closed(mt.w.qmp))
		mig_disks_target_stop(mt.disks, mt.w.qmp);
	mig_disks_free(mt.disks);
	free(mt.nbd_uri);
	rc = mig_watch_report(&mt.w);
	mig_tls_target_close(mt.tls);
	free_list(mt.offer_disks);
	mig_settings_free(&mt.settings);
	mig_watch_free(&mt.w);
	return rc;
}
