/*
 * mig-target.c: `qmigrate incoming`: the target side's executor.  It checks
 * that the target QEMU waits for a migration (-incoming defer), prepares it
 * (plan, disk exports, migrate-incoming: at once over unix: and tcp:, on the
 * source's offer over tls:), each as a job on the one event loop, and
 * hands over to the session (mig-session-target.c), carrying out what only
 * the target knows: answers to the source, the exports' release, cutting
 * the stream.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "mig-agree.h"
#include "mig-options.h"
#include "mig-tls.h"
#include "qmp.h"
#include "mig-disks.h"
#include "mig-job.h"
#include "mig-watch.h"
#include "world.h"

/* How long the source gets to end its mirrors once the memory arrived. */
#define DISKS_RELEASE_SECONDS	60.0

struct mig_target {
	struct mig_watch	 w;	/* first: loop, QMP, status, session,
					   options, settings */
	struct mig_plan		 plan;
	struct mig_tls_target	*tls;		/* tls: URIs only */
	struct mig_disks	*disks;		/* exported over NBD, or NULL */
	char			*nbd_uri;
	double			 release_deadline;
	/* The source's offer (tls:), for SJ_PREPARE_TARGET. */
	struct mig_plan		 offer_plan;
	char			**offer_disks;	/* NULL-terminated, or NULL */
	struct control_offer	 offer_qemu;	/* its has_qemu, qemu, wants */
	struct qemu_side	 self;		/* this QEMU (major 0: not read) */
	struct json_object	*agreed;	/* why, for the ready answer */
	char			 machines[8192]; /* its machine types, or "" */
	struct mig_job		 setup_job;
	struct mig_plan_apply	 apply;
	int			 sub_pc;	/* a delegated job's */
	int			 tls_only;	/* setup: check, no prepare */
	int			 unlistened;	/* SA_UNLISTEN done */
	int			 listen_unanswered; /* migrate-incoming: no
					   answer (timeout, closed) */
	/* A re-run (N4): the killed run's open record, and QEMU's run
	   state as this run found it. */
	struct json_object	*record;
	enum run_state		 record_ri;
	int			 rerun_unknown;	/* re-run: QEMU unasked, record open */
	char			 record_state[32];
	int			 held;		/* the setup's status hold */
	int			 queue_unknown_said;
};

static void
free_list(char **list)
{
	size_t i;

	for (i = 0; list != NULL && list[i] != NULL; i++)
		free(list[i]);
	free(list);
}

/*
 * The record a killed `incoming` left in file (unix:/tcp:): its outcome
 * not written (the phase not ended) or not settled (8, 6).  Returns the
 * document (the caller puts it), or NULL: none, unreadable, or closed (a
 * new migration writes over it, as it always did).
 */
static struct json_object *
target_open_record(const char *file)
{
	struct json_object	*doc;
	const char		*phase;
	char			*cause = NULL;
	int			 code;

	if (file == NULL || !world->file_exists(file))
		return NULL;
	if ((doc = status_read_file(file, &cause)) == NULL) {
		free(cause);
		return NULL;
	}
	phase = json_str_at(doc, "phase");
	code = (int)json_u64_at(doc, "exitCode");
	if (phase != NULL && (strcmp(phase, "Succeeded") == 0 ||
	    (strcmp(phase, "Failed") == 0 && code != QM_EXIT_UNKNOWN &&
	    code != QM_EXIT_POSTCOPY_LOST)))
		phase = NULL;
	if (phase == NULL) {
		json_object_put(doc);
		return NULL;
	}
	return doc;
}

/*
 * This run speaks for the killed run's migration (its uid, notes and
 * start), from its first written word on.  Returns 0, or -1 with *cause
 * naming the file and the member.
 */
static int
target_take_over(struct mig_target *mt, char **cause)
{
	enum mig_phase	 phase;
	enum mig_mode	 mode;
	char		*what;
	int		 rc;

	xasprintf(&what, "status file %s", mt->w.o->status_file);
	rc = status_restore(mt->w.st, mt->record, what, &phase, &mode, cause);
	free(what);
	if (rc != 0)
		return -1;
	status_forget_held(mt->w.st);
	status_changed(mt->w.st, "start");
	return 0;
}

/* This QEMU, for the negotiation: its version (read at the greeting). */
static void
target_self(struct mig_target *mt)
{
	memset(&mt->self, 0, sizeof mt->self);
	mt->self.major = mt->w.sess.cfg.qemu_major;
	mt->self.minor = mt->w.sess.cfg.qemu_minor;
	mt->self.micro = mt->w.sess.cfg.qemu_micro;
	mt->sub_pc = 0;
}

/*
 * QEMU cannot be asked.  A re-run over an open record (a killed run's, or
 * one that ended 8) cannot say whether the guest arrived (unix:/tcp:
 * QEMU migrates on alone; over tls: it may have arrived before that run
 * ended, post-copy completed while its monitor was cut): not known (8),
 * and the record is left as it was, as migrate's re-run does (sim-real
 * seed 665, tls:).
 */
static void
target_unasked(struct mig_target *mt)
{
	struct json_object *doc;

	if ((doc = target_open_record(mt->w.o->status_file)) == NULL)
		return;
	json_object_put(doc);
	mt->rerun_unknown = 1;
	status_keep_file(mt->w.st);
	log_warnx("status file %s left as it was: whether its migration's "
	    "guest arrived is not known", mt->w.o->status_file);
}

/* The setup job's last command got no answer in time (not a refusal). */
static int
setup_unanswered(const struct mig_target *mt)
{
	return mig_watch_unserved(mt->setup_job.error_class, 0) != NULL;
}

/*
 * Over tls: a re-run does not re-attach (its proxy's session died with
 * the killed run).  Over that run's open record, a QEMU that no longer
 * waits for a migration may hold the guest that arrived, running, or
 * post-copy's half of it: not known (8), the record left as it was,
 * never 3 ("not on the target": sim-real tls: seeds 2413, 515).
 */
static int
target_tls_rerun(struct mig_target *mt)
{
	struct json_object *doc;

	if (mt->tls == NULL ||
	    (doc = target_open_record(mt->w.o->status_file)) == NULL)
		return 0;
	json_object_put(doc);
	mt->rerun_unknown = 1;
	status_keep_file(mt->w.st);
	return 1;
}

/*
 * QEMU listens or has an incoming migration: a killed run's (its record
 * taken over), or one whose record was never written (every write failed)
 * or that nobody here started.  QEMU would refuse a new setup, and the
 * guest may land here: it is watched to its end from here on.
 */
static void
target_reattached(struct mig_target *mt, const struct mig_info *mi)
{
	const char *what = mi->status == QMS_NONE ? "listens already" :
	    "has the migration,";

	if (mt->record != NULL)
		status_note(mt->w.st, "re-attached after a killed incoming: "
		    "the target QEMU %s %s (run state %s)", mt->w.o->qmp_path,
		    what, mt->record_state);
	else
		status_note(mt->w.st, "re-attached: the target QEMU %s %s "
		    "(run state %s), and the status file has no record of "
		    "it (a killed run's writes may all have failed)",
		    mt->w.o->qmp_path, what, mt->record_state);
	if (mi->status != QMS_NONE)
		status_note(mt->w.st, "its migration status: %s",
		    mi->status_name);
	log_info("target re-attached: %s", mt->w.o->qmp_path);
}

enum {
	PREP_CHECK, PREP_CHECKED, PREP_FOUND, PREP_TLS_FOUND, PREP_SIDE,
	PREP_MACHINES,
	PREP_MADE,
	PREP_PLAN, PREP_APPLY, PREP_BLOCKS,
	PREP_SELECT, PREP_EXPORT, PREP_LISTEN, PREP_LISTENED,
};

/*
 * The target's QMP work, as one job (ctx: struct mig_target): check that
 * QEMU waits for a migration, then (unless tls_only) the plan, the disks'
 * exports and migrate-incoming.
 */
static enum mig_job_next
prepare_job(void *ctx, int *pc, json_object *reply, const char *error,
    struct mig_job_cmd *cmd, char **cause)
{
	struct mig_target	*mt = ctx;
	struct run_info		 ri;
	struct mig_info		 mi;
	enum mig_job_next	 next;
	char			*why = NULL, *list;

	for (;;) switch (*pc) {
	case PREP_CHECK:
		*pc = PREP_CHECKED;
		cmd->name = "query-status";
		return JOB_SEND;
	case PREP_CHECKED:
		if (error != NULL) {
			target_unasked(mt);
			if (!mt->rerun_unknown && setup_unanswered(mt))
				goto unheard;
			goto fail;
		}
		run_info_decode(reply, &ri);
		mt->record_ri = ri.state;
		snprintf(mt->record_state, sizeof mt->record_state, "%s",
		    ri.state_name);
		if (mt->tls == NULL) {
			/* What QEMU does now decides, record or not (N4). */
			mt->record = target_open_record(mt->w.o->status_file);
			*pc = PREP_FOUND;
			cmd->name = "query-migrate";
			return JOB_SEND;
		}
		if (ri.state != RUN_INMIGRATE && target_tls_rerun(mt)) {
			xasprintf(cause, "target QEMU %s is not waiting for a "
			    "migration (run state %s) and a killed incoming's "
			    "record is open: over tls: this run cannot tell "
			    "whether the guest arrived there; see QEMU",
			    mt->w.o->qmp_path, ri.state_name);
			return JOB_FAILED;
		}
		if (ri.state != RUN_INMIGRATE) {
			/* No record: QEMU's word decides (seed 3085721). */
			*pc = PREP_TLS_FOUND;
			cmd->name = "query-migrate";
			return JOB_SEND;
		}
		target_self(mt);
		*pc = PREP_SIDE;
		reply = NULL;
		error = NULL;
		continue;
	case PREP_TLS_FOUND:
		if (error != NULL)
			goto unanswered;
		mig_info_decode(reply, &mi);
		if (mig_target_found_tls(0, mt->record_ri, &mi,
		    json_obj_at(reply, "socket-address") != NULL) ==
		    TF_NOT_KNOWN) {
			mt->rerun_unknown = 1;
			xasprintf(cause, "target QEMU %s has an incoming "
			    "migration (%s, run state %s) and the status file "
			    "no record of it (a killed run's writes may all "
			    "have failed): over tls: this run cannot watch it, "
			    "and whether its guest is this migration's is not "
			    "known; see QEMU", mt->w.o->qmp_path,
			    mi.status_name, mt->record_state);
			return JOB_FAILED;
		}
		xasprintf(cause, "target QEMU %s is not waiting for a "
		    "migration (run state %s): start it with -incoming "
		    "defer", mt->w.o->qmp_path, mt->record_state);
		return JOB_FAILED;
	case PREP_FOUND:
		if (error != NULL) {
			/* Over an open record, not known (8), as unasked. */
			target_unasked(mt);
			if (mt->rerun_unknown)
				goto fail;
			/* No record, and no answer: an incoming migration a
			 * killed run began may be under way (sim-real seed
			 * 10058751: a re-run said 3 while it completed). */
			if (setup_unanswered(mt))
				goto unheard;
			goto unanswered;
		}
		if (mt->record != NULL && target_take_over(mt, &why) != 0) {
			/* Its identity is not written over (as migrate). */
			status_keep_file(mt->w.st);
			goto fail_why;
		}
		mig_info_decode(reply, &mi);
		switch (mig_target_found(mt->record != NULL, mt->record_ri, &mi,
		    json_obj_at(reply, "socket-address") != NULL)) {
		case TF_REATTACH:
			target_reattached(mt, &mi);
			return JOB_DONE;
		case TF_NOT_KNOWN:
			mt->rerun_unknown = 1;
			xasprintf(cause, "target QEMU %s has an incoming "
			    "migration that ended (%s, run state %s) and the "
			    "status file no record of it (a killed run's "
			    "writes may all have failed): whether its guest is "
			    "this migration's is not known", mt->w.o->qmp_path,
			    mi.status_name, mt->record_state);
			return JOB_FAILED;
		case TF_NOT_WAITING:
			xasprintf(cause, "target QEMU %s is not waiting for a "
			    "migration (run state %s)%s%s: start it with "
			    "-incoming defer", mt->w.o->qmp_path,
			    mt->record_state, mi.status == QMS_NONE ? "" :
			    " and its last migration ended ",
			    mi.status == QMS_NONE ? "" : mi.status_name);
			return JOB_FAILED;
		case TF_FRESH:
			break;
		}
		/* Killed before QEMU listened: the same migration, set up. */
		if (mt->record != NULL)
			status_note(mt->w.st, "run again after a killed "
			    "incoming: the target QEMU did not listen yet");
		target_self(mt);
		*pc = PREP_SIDE;
		reply = NULL;
		error = NULL;
		/* FALLTHROUGH */
	case PREP_SIDE:
		next = qemu_side_job_or_least(&mt->self, &mt->sub_pc, reply,
		    error, cmd, "target", mt->w.o->qmp_path);
		if (next != JOB_DONE)
			return next;
		*pc = PREP_MACHINES;
		/* FALLTHROUGH */
	case PREP_MACHINES:
		/* Whether it knows a source's machine type, for a refusal. */
		mt->machines[0] = '\0';
		if (mt->tls_only) {
			*pc = PREP_MADE;
			cmd->name = "query-machines";
			return JOB_SEND;
		}
		*pc = PREP_MADE;
		reply = NULL;
		error = NULL;
		/* FALLTHROUGH */
	case PREP_MADE:
		if (reply != NULL && error == NULL)
			machines_listed(reply, mt->machines,
			    sizeof mt->machines);
		mig_plan_make(&mt->plan, &mt->w.settings,
		    mt->w.settings.convergence, mt->w.st);
		if (mt->self.major != 0 && !mt->tls_only)
			mig_agree_local(&mt->w.settings, &mt->plan, &mt->self,
			    0, 1, mt->w.st);
		else
			mig_plan_least(&mt->plan);
		if (mt->tls_only)
			return JOB_DONE;
		*pc = PREP_PLAN;
		reply = NULL;
		error = NULL;
		continue;
	case PREP_PLAN:
		status_configure(mt->w.st, "qemu",
		    mig_plan_to_json(&mt->plan));
		mt->apply.plan = mt->plan;
		mt->apply.source = 0;
		mt->sub_pc = 0;
		*pc = PREP_APPLY;
		reply = NULL;
		error = NULL;
		/* FALLTHROUGH */
	case PREP_APPLY:
		next = mig_plan_apply_job(&mt->apply, &mt->sub_pc, reply,
		    error, cmd, &why);
		if (next == JOB_FAILED) {
			xasprintf(cause, "target QEMU %s: %s",
			    mt->w.o->qmp_path, why);
			free(why);
			return JOB_FAILED;
		}
		if (next != JOB_DONE)
			return next;
		*pc = PREP_BLOCKS;
		reply = NULL;
		error = NULL;
		continue;
	case PREP_BLOCKS:
		if (mt->w.settings.block_migration == BLOCK_MIGRATION_NEVER) {
			*pc = PREP_LISTEN;
			continue;
		}
		*pc = PREP_SELECT;
		cmd->name = "query-block";
		return JOB_SEND;
	case PREP_SELECT:
		if (error != NULL)
			goto fail;
		if (mig_disks_select(reply, &mt->w.settings, 0, &mt->disks,
		    &why) != 0)
			goto fail_why;
		if (mt->disks == NULL) {
			*pc = PREP_LISTEN;
			continue;
		}
		if (mt->tls != NULL)
			mt->nbd_uri = mig_tls->target_nbd_uri(mt->tls, mt->w.o,
			    &why);
		else
			mt->nbd_uri = mig_disks_nbd_uri(mt->w.o->uri,
			    mt->w.o->nbd, &why);
		if (mt->nbd_uri == NULL)
			goto fail_why;
		mig_disks_target_start_prepare(mt->disks, mt->nbd_uri);
		mt->sub_pc = 0;
		*pc = PREP_EXPORT;
		reply = NULL;
		error = NULL;
		/* FALLTHROUGH */
	case PREP_EXPORT:
		next = mig_disks_target_start_job(mt->disks, &mt->sub_pc, reply,
		    error, cmd, &why);
		if (next == JOB_FAILED) {
			mig_disks_free(mt->disks);
			mt->disks = NULL;
			goto fail_why;
		}
		if (next != JOB_DONE)
			return next;
		list = mig_disks_describe(mt->disks);
		status_note(mt->w.st, "disks exported on %s: %s", mt->nbd_uri,
		    list);
		free(list);
		mt->w.sess.cfg.disks = 1;
		*pc = PREP_LISTEN;
		continue;
	case PREP_LISTEN:
		*pc = PREP_LISTENED;
		cmd->name = "migrate-incoming";
		cmd->args = json_object_new_object();
		json_object_object_add(cmd->args, "uri",
		    json_object_new_string(mt->w.qemu_uri));
		/* A failed load leaves QEMU up, saying why (9.1). */
		if (mig_incoming_exit_on_error_ok(&mt->self))
			json_object_object_add(cmd->args, "exit-on-error",
			    json_object_new_boolean(0));
		return JOB_SEND;
	default:
		/*
		 * No answer is not a refusal: QEMU may listen (N2).  The
		 * session decides once it asked QEMU again.
		 */
		if (error != NULL && mt->setup_job.error_class != NULL &&
		    (strcmp(mt->setup_job.error_class, "Timeout") == 0 ||
		    strcmp(mt->setup_job.error_class, "Closed") == 0))
			mt->listen_unanswered = 1;
		if (error != NULL)
			goto fail;
		log_info("target ready: %s listening on %s", mt->w.o->qmp_path,
		    mt->w.qemu_uri);
		return JOB_DONE;
	}
unheard:
	/*
	 * The monitor answered the handshake, then not a question of the
	 * setup's check (what QEMU does), with no record:
	 * target_monitor_failed's case a step later (a QEMU stopped right
	 * after it; sim-real seed 10109311: a re-run said 3 while its QEMU
	 * completed and ran the guest).
	 */
	mt->rerun_unknown = 1;
	xasprintf(cause, "target QEMU %s: %s: whether a migration's guest "
	    "runs on that QEMU is not known (its monitor did not answer)",
	    mt->w.o->qmp_path, error);
	return JOB_FAILED;
unanswered:
	/* No record: a QEMU that no longer waits may hold a guest that
	 * arrived; its word unheard, not known. */
	if (mig_target_unanswered(0, mt->record_ri) != TF_NOT_KNOWN)
		goto fail;
	mt->rerun_unknown = 1;
	xasprintf(cause, "target QEMU %s is not waiting for a migration (run "
	    "state %s) and its query-migrate got no answer (%s): whether a "
	    "migration's guest arrived there is not known; see QEMU",
	    mt->w.o->qmp_path, mt->record_state, error);
	return JOB_FAILED;
fail:
	xasprintf(cause, "target QEMU %s: %s", mt->w.o->qmp_path, error);
	return JOB_FAILED;
fail_why:
	xasprintf(cause, "target QEMU %s: %s", mt->w.o->qmp_path, why);
	free(why);
	return JOB_FAILED;
}

/* The same work for an offer: QEMU was checked, the plan is the source's. */
static enum mig_job_next
prepare_job_offered(void *ctx, int *pc, json_object *reply, const char *error,
    struct mig_job_cmd *cmd, char **cause)
{
	if (*pc == PREP_CHECK)
		*pc = PREP_PLAN;
	return prepare_job(ctx, pc, reply, error, cmd, cause);
}

/*
 * The setup's status hold ends: until the status file was read, "start"
 * could have named a new migration over a killed run's record.
 */
static void
target_release(struct mig_target *mt)
{
	if (!mt->held)
		return;
	mt->held = 0;
	status_release(mt->w.st);
}

static void
on_setup_job(struct mig_job *job, int ok, const char *cause, void *arg)
{
	struct mig_target	*mt = arg;
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE };

	(void)job;
	target_release(mt);
	if (mt->w.stop)
		return;
	ev.t = mig_watch_now();
	ev.ok = ok;
	ev.outcome = ok ? SO_ANSWERED : mt->listen_unanswered ?
	    SO_NO_ANSWER : SO_REFUSED;
	ev.fail = !ok && mt->rerun_unknown ? FAIL_UNKNOWN : FAIL_CONTROL;
	ev.reason = cause;
	mig_watch_step(&mt->w, &ev);
}

/*
 * Whether the target QEMU (the monitor's peer, pid) starts an arrived
 * guest by itself: 1 (no -S), 0 (-S), -1 not known (the peer is not a
 * QEMU: a relay, a proxy; its command line cannot be read).  QEMU carries
 * the source's run state: a guest that ran there starts here unless -S;
 * one paused there arrives paused whatever the target's -S
 * (process_incoming_migration_bh, 7.2 to 11.1), so under autostart a
 * paused arrival means the source's guest was paused (N14).
 */
static int
qemu_autostarts(pid_t pid)
{
	char	 path[64], *buf;
	size_t	 len, i;
	char	*arg0;
	int	 rc = 1;

	if (pid <= 0)
		return -1;
	snprintf(path, sizeof path, "/proc/%ld/cmdline", (long)pid);
	/* none, or longer than 64 KiB: not known */
	if ((buf = world->read_file(path, 65535, &len)) == NULL)
		return -1;
	if (len == 0) {
		free(buf);
		return -1;
	}
	arg0 = strrchr(buf, '/') != NULL ? strrchr(buf, '/') + 1 : buf;
	if (strncmp(arg0, "qemu", 4) != 0)
		rc = -1;
	for (i = strlen(buf) + 1; rc == 1 && i < len; i += strlen(buf + i) + 1)
		if (strcmp(buf + i, "-S") == 0 || strcmp(buf + i, "--S") == 0)
			rc = 0;
	free(buf);
	return rc;
}

/*
 * The setup's first step, the monitor's connection, failed (cause says
 * why).  A monitor that is there but does not serve (how: it refused the
 * connection, or took it and did not answer), with no record of a
 * migration in the status file: a QEMU started -incoming may have taken
 * one while no qmigrate watched it (a killed run whose every write failed
 * left no record) and run the guest, and a 3 ("not here") would let the
 * agent stop it: not known, 8.  Anything else: 3, or the record's 8.
 */
static void
target_monitor_failed(struct mig_target *mt, const char *cause,
    const char *how)
{
	char *why;

	target_unasked(mt);
	if (how != NULL && !mt->rerun_unknown) {
		mt->rerun_unknown = 1;
		xasprintf(&why, "%s: whether a migration's guest runs on that "
		    "QEMU is not known (its monitor %s)", cause, how);
	} else
		xasprintf(&why, "%s", cause);
	on_setup_job(&mt->setup_job, 0, why, mt);
	free(why);
}

static void
on_connected(struct qmp_conn *conn, json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	struct mig_target	*mt = arg;
	struct session		*sess = &mt->w.sess;
	char			*cause;

	(void)reply;
	if (mt->w.stop || conn != mt->w.qmp)
		return;
	if (error != NULL) {
		/* A monitor that took the connection and never answered: a
		 * QEMU stopped (SIGSTOP) or too busy (sim-real seed 9919002:
		 * a re-run after an 8 whose every write failed said 3 while
		 * its QEMU, stopped 48 s, completed and ran the guest). */
		xasprintf(&cause, "%s: %s", mt->w.o->qmp_path, error);
		target_monitor_failed(mt, cause,
		    mig_watch_unserved(error_class, 0));
		free(cause);
		return;
	}
	privs_drop(NULL);	/* everything is open */
	qmp_qemu_version(conn, &sess->cfg.qemu_major, &sess->cfg.qemu_minor,
	    &sess->cfg.qemu_micro);
	sess->cfg.qemu_autostart = qemu_autostarts(qmp_peer_pid(conn));
	mt->tls_only = mt->tls != NULL;
	mig_job_start(&mt->setup_job, mt->w.loop, conn, "target setup",
	    prepare_job, mt, on_setup_job, mt);
}

/* Connect; the check (and over unix: or tcp: the listening) follow. */
static void
target_setup(struct mig_target *mt)
{
	char *cause = NULL;
	int refused;

	if (mig_watch_connect_start(&mt->w, on_connected, mt, &cause) == 0)
		return;
	refused = errno == ECONNREFUSED;	/* read before any other call */
	/* A socket no one serves now: a QEMU whose monitor is busy or
	 * behind a relay that restarts, or one that died (sim-real seed
	 * 9505019).  No socket at all stays 3. */
	target_monitor_failed(mt, cause, mig_watch_unserved(NULL, refused));
	free(cause);
}

/* The source's offer, applied: its plan, the disks it copies, listen. */
static void
target_prepare(struct mig_target *mt)
{
	struct mig_settings *s = &mt->w.settings;

	if (mt->offer_disks != NULL) {
		/* Over tls:, the target exports what the source copies. */
		free_list(s->disks);
		s->disks = mt->offer_disks;
		mt->offer_disks = NULL;
		s->block_migration = BLOCK_MIGRATION_ALWAYS;
	}
	mt->plan = mt->offer_plan;
	mt->tls_only = 0;
	json_object_put(mt->agreed);
	mt->agreed = NULL;
	if (mt->offer_qemu.has_qemu && mt->self.major != 0) {
		char *cause = NULL;

		/* A guest this QEMU cannot hold: refused, nothing moved. */
		if (mig_agree_target(&mt->offer_qemu, &mt->plan, &mt->self,
		    mt->machines, &mt->agreed, mt->w.st, &cause) != 0) {
			mig_watch_job_done(&mt->w, SJ_PREPARE_TARGET, 0, cause);
			free(cause);
			return;
		}
	} else
		mig_plan_least(&mt->plan);
	mig_watch_job(&mt->w, SJ_PREPARE_TARGET, prepare_job_offered, mt);
}

/*
 * The offer names the migration and the source: one uid on both sides
 * (the source's), and the source's node and pod, as KubeVirt's
 * migrationState has them on either side.
 */
static void
target_offer_identity(struct mig_target *mt, const struct control_offer *o)
{
	status_set_uid(mt->w.st, o->uid);
	status_set_side(mt->w.st, STATUS_SOURCE, o->source_node,
	    o->source_pod);
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
	    !status_uid_accepts(mt->w.st, m.offer.uid))
		snprintf(m.offer_error, sizeof m.offer_error, "the source's "
		    "migration uid %.40s is not this target's --vmim uid %s",
		    m.offer.uid, status_uid(mt->w.st));
	if (m.type == CONTROL_OFFER && m.offer_error[0] == '\0') {
		target_offer_identity(mt, &m.offer);
		mt->offer_plan = m.offer.plan;
		memset(&mt->offer_qemu, 0, sizeof mt->offer_qemu);
		mt->offer_qemu.has_qemu = m.offer.has_qemu;
		mt->offer_qemu.qemu = m.offer.qemu;
		mt->offer_qemu.wants = m.offer.wants;
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
	const char	*node, *pod;
	char		*cause = NULL;

	if (mt->tls == NULL)
		return;
	answer = control_answer_encode(a->answer, a->reason[0] != '\0' ?
	    a->reason : NULL);
	status_side(mt->w.st, STATUS_TARGET, &node, &pod);
	control_answer_identify(answer, node, pod);
	if (a->answer == ANSWER_READY && mt->agreed != NULL)
		control_answer_agree(answer, &mt->self, &mt->plan,
		    json_object_get(mt->agreed));
	if (mig_tls->target_answer(mt->tls, answer, &cause) != 0) {
		log_warnx("answer to the source: %s", cause);
		free(cause);
	}
}

static void	target_cut(struct mig_watch *);

/*
 * mig-disks.c's release, but a monitor that closed under it ends it at
 * once: the exports are as they were (the forced removal's program would
 * take them for removed, its commands failing on the closed connection),
 * and the session runs it again once the monitor is back.
 */
static enum mig_job_next
release_job(void *ctx, int *pc, json_object *reply, const char *error,
    struct mig_job_cmd *cmd, char **cause)
{
	struct mig_target *mt = ctx;

	if (error != NULL && qmp_is_closed(mt->w.job.qmp)) {
		xasprintf(cause, "the monitor's connection closed before the "
		    "exports were removed (%s)", error);
		return JOB_FAILED;
	}
	return mig_disks_target_release_job(mt->disks, pc, reply, error, cmd,
	    cause);
}

static void
target_execute(struct mig_watch *w, const struct sess_action *a)
{
	struct mig_target *mt = (struct mig_target *)w;

	switch (a->kind) {
	case SA_JOB:
		if (a->job == SJ_PREPARE_TARGET) {
			target_prepare(mt);
			break;
		}
		if (mt->disks == NULL) {
			mig_watch_job_done(w, a->job, 1, NULL);
			break;
		}
		if (a->job == SJ_RELEASE_DISKS) {
			mig_disks_target_release_prepare(mt->disks,
			    DISKS_RELEASE_SECONDS);
			mig_watch_job(w, a->job, release_job, mt);
		} else if (a->job == SJ_STOP_EXPORTS) {
			mig_disks_target_stop_prepare(mt->disks);
			mig_watch_job(w, a->job, mig_disks_target_stop_job,
			    mt->disks);
		}
		break;
	case SA_ANSWER:
		target_answer(mt, a);
		break;
	case SA_UNLISTEN:
		/*
		 * QEMU keeps its socket open; without the path none reach it.
		 * Again after a recovery: migrate-recover made the path anew.
		 */
		if (strncmp(mt->w.qemu_uri, "unix:", 5) == 0 &&
		    world->unlink(mt->w.qemu_uri + 5) != 0 &&
		    (errno != ENOENT || !mt->unlistened))
			log_warn("%s", mt->w.qemu_uri + 5);
		mt->unlistened = 1;
		break;
	case SA_CUT:
		/*
		 * The stream and the control connection end, between two loop
		 * iterations: the step may run inside the proxy's own callback
		 * (a control message), which must not see its proxy freed.
		 */
		w->deferred = target_cut;
		break;
	default:
		break;
	}
}

/* SA_CUT, deferred: the proxy, stream and all, closed. */
static void
target_cut(struct mig_watch *w)
{
	struct mig_target *mt = (struct mig_target *)w;

	mig_tls->target_close(mt->tls);
	mt->tls = NULL;
}

static void
target_session_init(struct mig_target *mt)
{
	struct sess_config	cfg;

	mig_watch_session_config(&mt->w, &cfg, SESS_TARGET, mt->tls != NULL);
	cfg.keep_paused = mt->w.o->keep_paused;
	cfg.may_pause = mt->w.settings.allow_workload_disruption;
	cfg.qemu_autostart = -1;	/* read once connected */
	cfg.unix_listen = strncmp(mt->w.o->uri, "unix:", 5) == 0;
	session_init(&mt->w.sess, &cfg);
}

/* tls: the target's proxy: it listens, QEMU listens on its socket. */
static int
target_open_tls(struct mig_watch *w, char **cause)
{
	struct mig_target *mt = (struct mig_target *)w;

	mt->tls = mig_tls->target_open(w->loop, w->o, on_control, mt,
	    &w->qemu_uri, cause);
	return mt->tls != NULL ? 0 : -1;
}

/*
 * Once QEMU's socket path is gone no source can connect, but one that
 * connected just before may still wait in QEMU's accept queue: the sample
 * asked after this count decides only if it was empty (audit D27).
 */
static long
target_queued(struct mig_watch *w)
{
	struct mig_target	*mt = (struct mig_target *)w;
	char			*cause = NULL;
	long			 n;

	if (!mt->unlistened || strncmp(w->qemu_uri, "unix:", 5) != 0)
		return 0;
	if ((n = world->listen_backlog(w->qemu_uri + 5, &cause)) < 0) {
		if (!mt->queue_unknown_said++)
			log_warnx("QEMU's accept queue on %s: %s",
			    w->qemu_uri + 5, cause);
		free(cause);
	}
	return n;
}

/*
 * qmigrate incoming: the target side of one migration, from the options
 * to the last status document.  Returns the exit status, as
 * mig_source_run() does.
 */
int
mig_target_run(const struct mig_options *o)
{
	struct mig_target	 mt;
	int			 rc;

	memset(&mt, 0, sizeof mt);
	mig_watch_init(&mt.w, "target", o);
	mt.w.execute = target_execute;
	mt.w.before_query = target_queued;
	status_set_ends(mt.w.st, NULL, o->qmp_path);

	if (mig_watch_begin(&mt.w, target_open_tls) != 0) {
		mig_watch_free(&mt.w);
		return QM_EXIT_USAGE;
	}
	target_session_init(&mt);

	/* Signals and the deadline first: from now on they are events. */
	mig_watch_arm(&mt.w, o->timeout);
	status_hold(mt.w.st);
	mt.held = 1;
	status_changed(mt.w.st, "start");
	target_setup(&mt);
	if (!mt.w.stop)
		mig_watch_run(&mt.w);
	mig_job_stop(&mt.setup_job);
	target_release(&mt);
	json_object_put(mt.record);
	rc = mig_watch_report(&mt.w);
	mig_tls->target_close(mt.tls);
	free_list(mt.offer_disks);
	json_object_put(mt.agreed);
	mig_watch_free(&mt.w);
	/* After the connection: a job's last answer points at them. */
	mig_disks_free(mt.disks);
	free(mt.nbd_uri);
	return rc;
}
