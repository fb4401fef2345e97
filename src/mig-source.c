/*
 * mig-source.c: `qmigrate migrate`: the source side's executor.  Its setup
 * runs on the one event loop, in stages: connect, ask QEMU what it is doing
 * (a job: query-migrate, query-status, the guest's memory), re-attach or
 * close an earlier record from the status file, the pre-flight and a
 * node-wide slot (blocking work outside mig-*.c, run between two loop
 * iterations), then the plan (a job: the disks, capabilities, parameters).
 * Then the session (mig-session-source.c) decides everything; this file
 * carries out what only the source knows: the offer and the other
 * questions to the target over tls:, the disks' mirrors.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "preflight.h"
#include "slot.h"
#include "dirty-rate.h"
#include "mig-agree.h"
#include "mig-options.h"
#include "mig-tls.h"
#include "qmp.h"
#include "mig-disks.h"
#include "mig-job.h"
#include "mig-watch.h"
#include "world.h"

/* How long the target gets to answer the offer, a watch, an abort. */
#define OFFER_TIMEOUT		60
#define WATCH_TIMEOUT		10
/* How long the mirrors may take to end (the session gives the whole end
 * FINISH_TIMEOUT, 75 s, mirrors and cont together). */
#define MIRRORS_END_SECONDS	60.0

struct mig_source {
	struct mig_watch	 w;	/* first: loop, QMP, status, session,
					   options, settings */
	struct mig_plan		 plan;
	struct mig_tls_source	*tls;		/* tls: URIs only */
	uint64_t		 guest_bytes;
	struct mig_disks	*disks;		/* mirrored over NBD, or NULL */
	char			*nbd_uri;
	char			*disks_cause;	/* why the mirrors failed */
	char			*disks_lost;	/* why a target's copy may
						   miss writes */
	const char		*unwatched_fail; /* setup_done's, or NULL */
	int			 usage_error;	/* the status file is unusable */
	struct mig_job		 setup_job;	/* inspect, then plan */
	struct mig_info		 mi;		/* what QEMU said at setup */
	struct run_info		 ri;
	json_object		*block_jobs;	/* setup, a re-run: QEMU's */
	struct mig_disks	*adopted;	/* ... mirrors left by the record's
						   run (mig_disks_adopt) */
	int			 apply_pc;	/* plan: mig_plan_apply_job's */
	struct mig_plan_apply	 apply;
	struct qemu_side	 self;		/* this QEMU (major 0: not read) */
	int			 side_pc;	/* plan: qemu_side_job's */
	struct mig_job		 agree_job;	/* the agreed plan applied */
	char			 agree_reason[SESS_REASON_MAX];
	struct ctl_config	 ctl_cfg;
	double			 rate_deadline;	/* plan: calc-dirty-rate's */
	struct mig_cpr		*cpr;		/* update: the new QEMU, or NULL */
	int			 old_gone;	/* update's re-run: the old QEMU's
						   monitor has no listener */
	int			 rec_paused;	/* a re-run: the record says the
						   guest did not run when it began */
	int			 cpr_mode_sent;	/* QEMU may hold a cpr mode: the
						   plan's sent, or the pre-flight's
						   put-back unanswered */
	char			 qemu_mode[32];	/* update: QEMU's migration mode
						   at the start, or "" */
	int			 inspect_mute;	/* the inspection's question got
						   no answer (a timeout, closed) */
	int			 inspects;	/* ... connections it was asked on */
	double			 inspect_until;	/* ... a new one tried until */
	ev_timer		 inspect_retry;
	char			*marker;	/* update --mode exec with a
						   --status-file: the update
						   marker's path (mig-marker.c) */
	int			 marker_ours;	/* ... this run's to remove once
						   its end is recorded */
};

/* A question to the target, and who asked it. */
struct question {
	struct mig_source	*ms;
	enum control_type	 type;
};

static void	source_controller(struct mig_source *);
static void	source_controller_commit(struct mig_source *);

/*
 * The setup's end as the session's event (reason copied by the step),
 * the setup's status hold, if still on, released first.
 */
static void
setup_done(struct mig_source *ms, enum sess_setup setup, enum mig_failure why,
    enum mig_mode mode, const char *reason)
{
	struct sess_event ev = { .kind = SEV_SETUP_DONE };

	/*
	 * What the guest did when this migration began, in its record: a
	 * re-run's "the earlier run paused it" must not rest on the file's
	 * mode alone, which a failed write leaves stale (audit N10).
	 */
	if (setup == SETUP_FRESH && ms->ri.state_name[0] != '\0')
		status_configure(ms->w.st, "sourceRunState",
		    json_object_new_string(ms->ri.state_name));
	status_release(ms->w.st);
	ev.t = mig_watch_now();
	ev.setup = setup;
	ev.fail = why;
	ev.mode = mode;
	/* A record taken over brings its abort (status_restore). */
	ev.abort = status_abort(ms->w.st, &ev.abort_requested);
	ev.uid = status_uid(ms->w.st);
	ev.reason = reason;
	/* QEMU's run state as the setup read it (a re-attach's switchover). */
	if (ms->ri.state_name[0] != '\0')
		ev.ri = &ms->ri;
	ev.qemu_gone = ms->old_gone;
	ev.guest_paused = ms->ri.state_name[0] != '\0' && !ms->ri.running;
	ev.rec_paused = ms->rec_paused;
	ev.cpr_mode_sent = ms->cpr_mode_sent;
	ev.unwatched_fail = ms->unwatched_fail;
	mig_watch_step(&ms->w, &ev);
}

/* A failed setup (SETUP_FAILED), its reason formatted. */
static void
setup_failed(struct mig_source *ms, enum mig_failure why, const char *fmt,
    ...) __attribute__((format(printf, 3, 4)));

static void
setup_failed(struct mig_source *ms, enum mig_failure why, const char *fmt,
    ...)
{
	va_list	 ap;
	char	*reason;

	va_start(ap, fmt);
	xvasprintf(&reason, fmt, ap);
	va_end(ap);
	setup_done(ms, SETUP_FAILED, why, MODE_PRECOPY, reason);
	free(reason);
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

	doc = status_read_file(ms->w.o->status_file, &cause);
	xasprintf(&what, "status file %s", ms->w.o->status_file);
	if (doc == NULL || status_restore(ms->w.st, doc, what, phase, mode,
	    &cause) != 0) {
		log_error("%s: cannot re-attach to the migration QEMU runs; "
		    "it is left as it is", cause);
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
	status_set_mode(ms->w.st, mode);
	status_forget_held(ms->w.st);
	status_changed(ms->w.st, "start");
}

/* What the status file's record says, as far as a re-run decides on it. */
struct record {
	int		 found;		/* the file holds a record */
	char		 uid[64];	/* ... its migrationUid */
	int		 open;		/* its outcome is not settled */
	int		 succeeded;	/* phase Succeeded */
	int		 ran_at_start;	/* the guest ran when it began */
	int		 paused_at_start; /* ... it did not (a run state
					   other than running recorded) */
	char		*failure;	/* its failureReason, or NULL */
};

/*
 * Reads the status file's record (no file, or one that cannot be read:
 * nothing, and a new migration writes over it, as it always did).  Open:
 * a qmigrate was killed before it wrote the end (phase not ended), or the
 * end it wrote did not settle where the guest is: exit 8 (not known) or 6
 * (post-copy lost: the target held the guest, which may still arrive).
 */
static void
record_peek(const char *file, struct record *rec)
{
	json_object	*doc;
	const char	*phase, *failure, *ran;
	char		*cause = NULL;
	int		 ended, code;

	memset(rec, 0, sizeof *rec);
	if (file == NULL || !world->file_exists(file))
		return;
	if ((doc = status_read_file(file, &cause)) == NULL) {
		free(cause);
		return;
	}
	phase = json_str_at(doc, "phase");
	rec->found = phase != NULL;
	snprintf(rec->uid, sizeof rec->uid, "%s",
	    json_str_at(doc, "migrationUid") != NULL ?
	    json_str_at(doc, "migrationUid") : "");
	code = (int)json_u64_at(doc, "exitCode");
	ended = phase != NULL && (strcmp(phase, "Succeeded") == 0 ||
	    strcmp(phase, "Failed") == 0 || strcmp(phase, "HandedOver") == 0);
	rec->succeeded = phase != NULL && strcmp(phase, "Succeeded") == 0;
	rec->open = phase != NULL && (!ended || (strcmp(phase, "Failed") == 0 &&
	    (code == QM_EXIT_UNKNOWN || code == QM_EXIT_POSTCOPY_LOST)));
	ran = json_str_at(json_obj_at(doc, "migrationConfiguration"),
	    "sourceRunState");
	rec->ran_at_start = ran != NULL && strcmp(ran, "running") == 0;
	rec->paused_at_start = ran != NULL && !rec->ran_at_start;
	failure = json_str_at(doc, "failureReason");
	if (failure != NULL)
		xasprintf(&rec->failure, "%.*s", SESS_REASON_MAX, failure);
	json_object_put(doc);
}

/*
 * The mirrors the record's run left (query-block-jobs qm-mirror-*, and a
 * qm-nbd-* node whose mirror ended) are this run's: watched, and ended
 * at the end (cancelled unless the migration succeeded, their NBD nodes
 * removed), so that nothing of that run is left behind.
 */
static void
source_adopt_disks(struct mig_source *ms)
{
	char *list;

	if (ms->adopted == NULL)
		return;
	ms->disks = ms->adopted;
	ms->adopted = NULL;
	ms->w.sess.cfg.disks = 1;
	status_set_disks(ms->w.st, mig_disks_to_json(ms->disks));
	list = mig_disks_describe(ms->disks);
	status_note(ms->w.st, "the mirrors the earlier run left in QEMU are "
	    "this run's: %s", list);
	free(list);
}

/*
 * QEMU completed the record's migration while no qmigrate watched it: the
 * guest left this QEMU.  Over unix:/tcp: that is the success (0), as when
 * watched.  Over tls: the success is the target's to confirm: unless the
 * record already ended Succeeded, the session asks the target over a new
 * control session (running: 0; fenced: the guest resumed here, 4; not
 * known, or no target to ask: 8, the guest kept stopped here).
 */
static void
source_already_done(struct mig_source *ms, const struct mig_info *mi,
    enum mig_mode mode, const struct record *rec)
{
	char	*why, *reason;

	status_set_progress(ms->w.st, mi, 0);
	source_adopt_disks(ms);
	ms->rec_paused = rec->paused_at_start;
	/*
	 * The guest left, but its disks went only as far as the mirrors
	 * took them: one that ended or was not ready while nobody watched
	 * (a killed run, an NBD link broken) may have left the target's
	 * disk without the last writes.  Not known: 8, not 0 (sim-real D1,
	 * seed 7793).  Over tls: the target is asked below, as before.
	 */
	if (ms->tls == NULL && (why = mig_disks_unproven(ms->disks)) !=
	    NULL) {
		xasprintf(&reason, "QEMU completed the migration while no "
		    "qmigrate watched it, but %s: whether the target's disks "
		    "hold every write is not known", why);
		setup_done(ms, SETUP_ALREADY_DONE, FAIL_UNKNOWN, mode, reason);
		free(reason);
		free(why);
		return;
	}
	if (ms->tls != NULL && !rec->succeeded && rec->failure != NULL)
		status_note(ms->w.st, "the earlier run had recorded: %s",
		    rec->failure);
	setup_done(ms, SETUP_ALREADY_DONE, ms->tls != NULL && !rec->succeeded ?
	    FAIL_UNKNOWN : FAIL_NONE, mode, status_uid(ms->w.st));
}

/*
 * The record's migration is over in QEMU (failed, cancelled), or QEMU has
 * none (never started there, or QEMU was restarted): the record is closed
 * with what is known, and nothing new starts.  The guest is on the source,
 * resumed if the killed run had paused it (the session, by the mode),
 * unless post-copy had begun: then the target held it.  An abort that was
 * under way is what ended it.
 */
static void
source_close_record(struct mig_source *ms, const struct mig_info *mi,
    enum mig_mode mode, enum mig_phase phase)
{
	enum mig_failure	 why = FAIL_DATA;
	enum abort_status	 abort = status_abort(ms->w.st, NULL);
	const char		*state = ms->ri.state_name[0] != '\0' ?
	    ms->ri.state_name : "unknown";
	const char		*err = mi->error_desc[0] != '\0' ?
	    mi->error_desc : mi->status_name;
	char			*reason, *where;

	status_set_progress(ms->w.st, mi, 0);
	source_adopt_disks(ms);
	if (mode == MODE_PAUSED)
		xasprintf(&where, "the guest is on the source, paused by the "
		    "earlier run: this run resumes it");
	else if (ms->ri.running)
		xasprintf(&where, "the guest runs on the source");
	else
		xasprintf(&where, "the guest is on the source, not running "
		    "(run state %s), as this run found it", state);
	if (mi->status == QMS_NONE && mode == MODE_CPR_EXEC &&
	    mig_exec_rerun_lost(phase, ms->qemu_mode[0] != '\0' ?
	    ms->qemu_mode : NULL)) {
		why = FAIL_UNKNOWN;
		if (phase == PHASE_RUNNING)
			/*
			 * The earlier run saw QEMU start the update: a QEMU
			 * with no migration now is the exec's new one, that
			 * did not load the guest (a command line that boots
			 * afresh).  No old copy is left to run it.
			 */
			xasprintf(&reason, "update %s: QEMU %s has no "
			    "migration (query-migrate: none), though the "
			    "earlier run saw it start: the QEMU behind the "
			    "monitor is the exec's new one and did not load "
			    "the guest (did its command line lose -incoming?); "
			    "no old copy is left to resume; where the guest "
			    "is is not known: see the new QEMU's log and the "
			    "guest's console", status_uid(ms->w.st),
			    ms->w.o->qmp_path);
		else
			/* The record never said the update began (its
			 * writes failed): QEMU's mode is the only word. */
			xasprintf(&reason, "update %s: QEMU %s has no "
			    "migration (query-migrate: none) and its mode is "
			    "%s, not the cpr-exec the earlier run's plan "
			    "sets, and the status file does not say whether "
			    "the update began (a write that failed): either "
			    "that run was killed before its plan, the old "
			    "QEMU untouched, or QEMU exec'd the new command "
			    "line and the new QEMU did not load the guest (no "
			    "old copy left to resume); which is not known: "
			    "see QEMU's log and the guest's console",
			    status_uid(ms->w.st), ms->w.o->qmp_path,
			    ms->qemu_mode[0] != '\0' ? ms->qemu_mode :
			    "not known");
	} else if (mi->status == QMS_NONE)
		xasprintf(&reason, "migration %s: QEMU has no migration "
		    "(query-migrate: none): it never started there, or QEMU "
		    "was restarted, while no qmigrate watched it; %s",
		    status_uid(ms->w.st), where);
	else if (mode == MODE_POSTCOPY) {
		why = FAIL_POSTCOPY_LOST;
		xasprintf(&reason, "migration %s failed in QEMU after "
		    "post-copy had begun, while no qmigrate watched it: %s; "
		    "the target held the guest: its pages that were still on "
		    "the source are lost (source run state %s)",
		    status_uid(ms->w.st), err, state);
	} else if (abort == ABORT_ABORTING || abort == ABORT_FAILED) {
		why = FAIL_ABORTED;
		xasprintf(&reason, "migration %s: the abort under way when its "
		    "qmigrate was killed is done (QEMU's migration %s: %s); %s",
		    status_uid(ms->w.st), mi->status_name, err, where);
	} else if (mode == MODE_CPR_EXEC && strncmp(err, "execvp ", 7) == 0) {
		/* QEMU's refusal, as when watched (cpr_exec_refused): 3. */
		why = FAIL_CONTROL;
		xasprintf(&reason, "update %s: QEMU %s could not exec the new "
		    "command line (%s) while no qmigrate watched it; %s",
		    status_uid(ms->w.st), ms->w.o->qmp_path, err, where);
	} else if (ms->tls != NULL && mi->status == QMS_FAILED &&
	    mode != MODE_CPR_EXEC && mode != MODE_CPR_TRANSFER) {
		/*
		 * The killed run may have sent migrate-continue, and its
		 * proxy, which carried the return path, died with it: the
		 * target may have loaded and started the guest before this
		 * QEMU failed and resumed its own copy (sim-real seed
		 * 10059602: this said 4 while both ran it).  Nothing here
		 * tells a failure before the device state left from one
		 * after: the target is asked, as the watched run would
		 * have (switchover_failed).
		 */
		why = FAIL_UNKNOWN;
		ms->unwatched_fail = err;
		xasprintf(&reason, "migration %s failed in QEMU while no "
		    "qmigrate watched it: %s; over tls: the target may have "
		    "loaded and started the guest before that (the killed "
		    "run's proxy carried the return path), and it did not say "
		    "that it did not: where the guest runs is not known; %s",
		    status_uid(ms->w.st), err, where);
	} else
		xasprintf(&reason, "migration %s failed in QEMU while no "
		    "qmigrate watched it: %s; %s", status_uid(ms->w.st), err,
		    where);
	setup_done(ms, SETUP_CLOSE_RECORD, why, mode, reason);
	ms->unwatched_fail = NULL;
	free(where);
	free(reason);
}

/*
 * The record ended in 8 at the switchover over tcp: (the source QEMU
 * failed it without the target's word, or it did not end in time): QEMU's
 * failure since says no more than it did then, since the target may have
 * started the guest before the connection went.  The re-run says 8 again
 * rather than "the guest runs on the source".
 */
static int
switchover_unsettled(const struct mig_source *ms, const struct record *rec)
{
	return ms->tls == NULL && strncmp(ms->w.o->uri, "tcp:", 4) == 0 &&
	    rec->failure != NULL && strstr(rec->failure, "switchover") != NULL;
}

/*
 * The mode a re-run goes on in: the record's, unless QEMU's run state and
 * the record's start say otherwise.  A guest that ran when the migration
 * began and that QEMU holds stopped now (paused, or postmigrate after a
 * failed switchover) was paused by the earlier run even where the file
 * does not say so (its write failed: "the migration goes on"): Paused, so
 * that the session resumes it.  One the file calls paused that QEMU runs
 * again needs no cont.  Never for post-copy (the target held it).
 */
static enum mig_mode
source_rerun_mode(struct mig_source *ms, enum mig_mode mode,
    const struct record *rec)
{
	const char *state = ms->ri.state_name;

	if (state[0] == '\0' || mode == MODE_POSTCOPY ||
	    mode == MODE_CPR_TRANSFER || mode == MODE_CPR_EXEC)
		return mode;
	if (mode != MODE_PAUSED && rec->ran_at_start && !ms->ri.running &&
	    (ms->ri.state == RUN_PAUSED || ms->ri.state == RUN_POSTMIGRATE)) {
		status_note(ms->w.st, "the guest ran when migration %s began "
		    "and QEMU holds it stopped (run state %s), though the "
		    "status file does not say the earlier run paused it (a "
		    "write that failed): this run takes it as paused by that "
		    "run", status_uid(ms->w.st), state);
		return MODE_PAUSED;
	}
	if (mode == MODE_PAUSED && ms->ri.running) {
		status_note(ms->w.st, "the status file says the earlier run "
		    "paused the guest, but QEMU runs it: nothing to resume");
		return MODE_PRECOPY;
	}
	return mode;
}

/*
 * QEMU already has a migration, or the status file an open record: a
 * re-run.  It re-attaches to a migration QEMU still runs; reports the
 * outcome QEMU already has for the record (completed: the success, see
 * source_already_done); closes the record of one QEMU ended, or has not,
 * while no qmigrate watched it (source_close_record).  It never starts a
 * new migration over an open record.  A closed record (or none) with
 * nothing running in QEMU: a new migration.  Returns 1 when the session
 * took it over, 0 for a new migration, -1 on failure (stepped or printed).
 */
static int
source_existing(struct mig_source *ms, const struct mig_info *mi)
{
	struct record	 rec;
	enum mig_phase	 phase;
	enum mig_mode	 mode;
	int		 rc = 1;

	if (qemu_mig_status_in_progress(mi->status)) {
		if (ms->w.o->status_file == NULL) {
			setup_failed(ms, FAIL_CONTROL, "source QEMU %s is "
			    "already migrating (%s) and no --status-file names "
			    "it", ms->w.o->qmp_path, mi->status_name);
			return -1;
		}
		if (source_restore(ms, &phase, &mode) != 0)
			return -1;
		/* QEMU says post-copy even if the file was written before. */
		if (qemu_mig_status_postcopy(mi->status))
			mode = MODE_POSTCOPY;
		record_peek(ms->w.o->status_file, &rec);
		ms->rec_paused = rec.paused_at_start;
		mode = source_rerun_mode(ms, mode, &rec);
		free(rec.failure);
		source_took_over(ms, mode);
		source_adopt_disks(ms);
		source_controller(ms);
		source_controller_commit(ms);
		setup_done(ms, SETUP_REATTACH, FAIL_NONE, mode,
		    mi->status_name);
		return 1;
	}
	record_peek(ms->w.o->status_file, &rec);
	if (rec.open) {
		if (source_restore(ms, &phase, &mode) != 0)
			rc = -1;
		else {
			if (mi->status != QMS_COMPLETED)
				mode = source_rerun_mode(ms, mode, &rec);
			source_took_over(ms, mode);
			if (mi->status == QMS_COMPLETED)
				source_already_done(ms, mi, mode, &rec);
			else if (switchover_unsettled(ms, &rec)) {
				char *why;

				xasprintf(&why, "QEMU's migration %s since, "
				    "which settles nothing: the earlier run "
				    "said: %s", mi->status_name, rec.failure);
				setup_done(ms, SETUP_CLOSE_RECORD, FAIL_UNKNOWN,
				    mode, why);
				free(why);
			}
			else
				source_close_record(ms, mi, mode, phase);
		}
		free(rec.failure);
		return rc;
	}
	free(rec.failure);
	rec.failure = NULL;	/* a closed record: what it said stands */
	if (mi->status != QMS_COMPLETED)
		return 0;
	if (ms->ri.state != RUN_POSTMIGRATE)
		return 0;
	/*
	 * The guest already left this QEMU: a qmigrate killed after QEMU
	 * completed, restarted with the same --status-file.  Never migrate
	 * it again: that file's migration, unless it had failed, is the one
	 * QEMU completed.
	 */
	if (ms->w.o->status_file != NULL &&
	    world->file_exists(ms->w.o->status_file)) {
		if (source_restore(ms, &phase, &mode) != 0)
			return -1;
		if (phase != PHASE_FAILED) {
			source_took_over(ms, mode);
			source_already_done(ms, mi, mode, &rec);
			return 1;
		}
	}
	/*
	 * No record names that migration (another --status-file, or every
	 * write of the killed run's failed): nothing to migrate, and the
	 * guest is not here (2 would say it is, untouched): not known.
	 */
	setup_failed(ms, FAIL_UNKNOWN, "source QEMU %s already migrated its "
	    "guest away (run state postmigrate), in a migration no status "
	    "record of this run names: nothing to migrate; where the guest "
	    "runs is not known here (look at the target; this copy is left "
	    "paused)", ms->w.o->qmp_path);
	return -1;
}

/*
 * Whether nothing listens on the unix socket path: refused, or no such
 * path (the cause names the errno, whichever world made it).
 */
static int
monitor_gone(const char *path)
{
	char	*cause = NULL;
	int	 fd, gone;

	if ((fd = world->connect_unix(path, 0, &cause)) != -1) {
		close(fd);
		return 0;
	}
	gone = cause != NULL && (strstr(cause, strerror(ECONNREFUSED)) !=
	    NULL || strstr(cause, strerror(ENOENT)) != NULL);
	free(cause);
	return gone;
}

/*
 * An `update --mode exec` that finds the update marker (mig-marker.c) of
 * an update that did not remove it: killed, or its record's writes
 * failed.  connected: QEMU's monitor answered (the inspection is done);
 * else it could not be reached (why).  The marker's record, where the
 * status file has one, decides (mig_marker_verdict); without one, and
 * with the marker's QEMU the one that answers, or none answering, where
 * the guest is is not known (8): the update may have exec'd (the new
 * QEMU never came back, or came back with mode normal and no migration,
 * which a first run cannot tell from an untouched QEMU), and no second
 * update starts over it.  The status file is left as it was, as for a
 * state not known, and the marker is kept: each re-run says the same
 * until the operator, having looked, removes it.  A marker of another
 * process is stale: removed, noted, and the run goes on.  Returns 1 when
 * the setup ended so, 0 when it goes on.
 */
static int
marker_check(struct mig_source *ms, int connected, const char *why)
{
	struct update_marker	 m;
	struct marker_seen	 seen;
	struct record		 rec;
	char			*cause = NULL, *what;
	int			 rc;

	if (ms->marker == NULL || ms->marker_ours)
		return 0;
	memset(&seen, 0, sizeof seen);
	if ((rc = update_marker_read(ms->marker, &m, &cause)) == 0)
		return 0;
	record_peek(ms->w.o->status_file, &rec);
	free(rec.failure);
	if (rc > 0) {
		seen.pid = m.pid;
		seen.start = m.start;
		seen.start_now = m.pid > 0 ? world->process_start(m.pid) : 0;
		seen.record = rec.found && strcmp(rec.uid, m.uid) == 0;
		seen.record_open = rec.open;
	}
	seen.connected = connected;
	if (connected && ms->w.qmp != NULL &&
	    (seen.peer = qmp_peer_pid(ms->w.qmp)) > 0)
		seen.peer_start = world->process_start(seen.peer);
	seen.not_execd = connected && mig_exec_not_done(ms->qemu_mode[0] !=
	    '\0' ? ms->qemu_mode : NULL, ms->mi.status);
	switch (rc < 0 ? MV_NOT_KNOWN : mig_marker_verdict(&seen)) {
	case MV_RECORD:
		/* This run speaks for that update: its end removes it. */
		ms->marker_ours = 1;
		return 0;
	case MV_ENDED:
	case MV_STALE:
	case MV_NOT_EXECD:
		if (update_marker_remove(ms->marker, &cause) != 0) {
			log_warnx("%s", cause);
			free(cause);
			cause = NULL;
		}
		status_note(ms->w.st, "update marker %s of update %s (QEMU "
		    "pid %ld) removed: %s", ms->marker, m.uid, (long)m.pid,
		    seen.record ? "its record says the update ended" :
		    seen.not_execd ? "the same QEMU says it never exec'd "
		    "(mode cpr-exec, its migration none, failed or cancelled)" :
		    "another QEMU process answers the monitor now");
		return 0;
	case MV_NOT_KNOWN:
		break;
	}
	/* One line of at most SESS_REASON_MAX: the marker named once. */
	if (rc < 0)
		xasprintf(&what, "%s", cause);
	else if (connected)
		xasprintf(&what, "update %s: its marker %s (QEMU pid %ld) and "
		    "no record of its end: QEMU may have exec'd (the same "
		    "process answers: %s, mode %s)", m.uid, ms->marker,
		    (long)m.pid, ms->mi.status_name[0] != '\0' ?
		    ms->mi.status_name : "not known", ms->qemu_mode[0] !=
		    '\0' ? ms->qemu_mode : "not known");
	else
		xasprintf(&what, "update %s: its marker %s (QEMU pid %ld, %s) "
		    "and no record of its end: QEMU may have exec'd (its "
		    "monitor: %s)", m.uid, ms->marker, (long)m.pid,
		    seen.start_now == 0 ? "gone" : seen.start_now == m.start ?
		    "running" : "another process now", why != NULL ? why :
		    "no answer");
	free(cause);
	status_keep_file(ms->w.st);
	setup_failed(ms, FAIL_UNKNOWN, "%s; where the guest runs is not "
	    "known, no update starts over it: check QEMU's log and "
	    "query-status, then remove the marker and run update again",
	    what);
	free(what);
	return 1;
}

/*
 * An update's re-run whose old QEMU is gone (audit N7): its monitor has no
 * listener and the status file holds an open update.  For an update the
 * old QEMU's absence is what success leaves (the killed run saw it
 * complete and told it quit): the new QEMU is asked whether the guest runs
 * there (SETUP_ALREADY_DONE, the old QEMU known gone: 0, or 8 with no old
 * copy to resume).  By exec (`--mode exec`) the monitor is the same path
 * before and after: SS_CPR_EXEC connects to it again, and the QEMU that
 * answers within its bound is the new one.  Returns 1 when the setup ended
 * so, 0 when it is not that case.
 */
static int
cpr_old_gone(struct mig_source *ms)
{
	struct record	 rec;
	enum mig_phase	 phase;
	enum mig_mode	 mode;

	if ((ms->cpr == NULL && ms->w.o->exec_argv == NULL) ||
	    ms->w.o->status_file == NULL || !monitor_gone(ms->w.o->qmp_path))
		return 0;
	record_peek(ms->w.o->status_file, &rec);
	free(rec.failure);
	if (!rec.open)
		return 0;
	ms->rec_paused = rec.paused_at_start;
	if (source_restore(ms, &phase, &mode) != 0) {
		/* Said; the file is left as it is (exit 1). */
		ms->w.stop = 1;
		ev_break(ms->w.loop, EVBREAK_ALL);
		return 1;
	}
	/* By exec the old QEMU's monitor is the new one's: it may be gone
	 * for good, or for the ms of an exec (SS_CPR_EXEC reconnects). */
	if (mode != (ms->cpr != NULL ? MODE_CPR_TRANSFER : MODE_CPR_EXEC))
		return 0;
	source_took_over(ms, mode);
	ms->old_gone = 1;
	setup_done(ms, SETUP_ALREADY_DONE, FAIL_NONE, mode, NULL);
	return 1;
}

/*
 * QEMU cannot be asked what it is doing.  A status file already there may
 * describe a migration QEMU still runs (its qmigrate was killed): this run
 * cannot tell, so it leaves the file as it is rather than write a failure
 * of its own over that migration's identity.  Returns the failure to
 * report: FAIL_UNKNOWN over an open record, else FAIL_CONTROL.
 */
static enum mig_failure
source_state_unknown(struct mig_source *ms)
{
	const char	*file = ms->w.o->status_file;
	struct record	 rec;

	if (file == NULL || !world->file_exists(file))
		return FAIL_CONTROL;
	status_keep_file(ms->w.st);
	log_warnx("status file %s left as it was: QEMU's migration state is "
	    "unknown", file);
	/*
	 * Over an open record (a killed run's, or one that ended in 8) the
	 * run that cannot ask QEMU cannot say where the guest is: its
	 * migration may run, or have completed.  Not known (8), not a
	 * control-plane failure that would say "on the source".
	 */
	record_peek(file, &rec);
	free(rec.failure);
	return rec.open ? FAIL_UNKNOWN : FAIL_CONTROL;
}

/*
 * The monitor's connection failed (cause says why).  One that is there
 * but does not serve (how: it refused the connection, or took it and did
 * not answer) with no open record: a killed run whose every write failed
 * (a full filesystem) leaves none, and its migration may run on, up to
 * the pause before the switchover where the guest waits stopped for a
 * re-run (sim-real seed 10036456: a 3 there, and no re-run came).  Not
 * known (8), as incoming says of its QEMU (target_monitor_failed); no
 * socket at all stays 3.
 */
static void
source_monitor_failed(struct mig_source *ms, const char *cause,
    const char *how)
{
	enum mig_failure why = source_state_unknown(ms);

	if (why == FAIL_CONTROL && how != NULL) {
		setup_failed(ms, FAIL_UNKNOWN, "%s: whether a migration of "
		    "its guest runs is not known (its monitor %s, and the "
		    "status file holds no record of one: a killed run whose "
		    "writes all failed leaves none); run migrate again once "
		    "it serves", cause, how);
		return;
	}
	setup_failed(ms, why, "%s", cause);
}

/* The pre-flight check: exit 2 with every reason when it cannot move. */
static int
source_preflight(struct mig_source *ms)
{
	struct status	*st = ms->w.st;
	struct session	*sess = &ms->w.sess;
	json_object	*conditions = NULL, *cond;
	char		*summary = NULL;
	int		 rc;

	/*
	 * A signal or the deadline sets the pending abort (the nested loop
	 * serves their watchers): the pre-flight stops within an iteration.
	 * An update stays on this host: the disks and devices stay, what
	 * matters is what cpr-transfer keeps (QEMU's blockers for it first).
	 */
	if (ms->cpr == NULL && ms->w.o->exec_argv == NULL)
		rc = preflight_run(ms->w.loop, ms->w.qmp, &ms->w.settings,
		    &sess->pending.asked, &conditions, &summary);
	else if ((rc = preflight_cpr(ms->w.loop, ms->w.qmp, &ms->w.settings,
	    &ms->cpr_mode_sent, &cond, &summary)) >= 0) {
		conditions = json_object_new_array();
		if (ms->w.o->exec_argv != NULL) {
			/* cpr-exec's own condition decides (QEMU 10.2). */
			json_object	*exec;
			char		*why = NULL;

			rc = preflight_cpr_exec(ms->w.qmp, cond,
			    &ms->cpr_mode_sent, &exec, &why);
			json_object_put(cond);
			free(summary);
			summary = why;
			cond = exec;
		}
		if (cond != NULL)
			json_object_array_add(conditions, cond);
	}
	if (rc == -2) {
		free(summary);
		if (session_setup_abandoned(sess))
			setup_done(ms, SETUP_FRESH, FAIL_NONE, MODE_PRECOPY,
			    NULL);
		return -1;
	}
	status_set_conditions(st, conditions);
	if (rc == -1)
		setup_failed(ms, FAIL_CONTROL, "source QEMU %s: %s",
		    ms->w.o->qmp_path, summary);
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
source_disks_select(struct mig_source *ms, json_object *blocks)
{
	char *cause = NULL, *list;

	if (mig_disks_select(blocks, &ms->w.settings, 1, &ms->disks,
	    &cause) != 0)
		goto fail;
	if (ms->disks == NULL)
		return 0;
	/* Over tls:, the proxy's NBD channel carries them. */
	if (ms->tls != NULL)
		ms->nbd_uri = mig_tls->source_nbd_uri(ms->tls, ms->w.o, &cause);
	else
		ms->nbd_uri = mig_disks_nbd_uri(ms->w.o->uri, ms->w.o->nbd,
		    &cause);
	if (ms->nbd_uri == NULL)
		goto fail;
	list = mig_disks_describe(ms->disks);
	status_note(ms->w.st, "disks copied to the target over NBD %s: %s",
	    ms->nbd_uri, list);
	free(list);
	return 0;
fail:
	setup_failed(ms, FAIL_CONTROL, "source QEMU %s: %s", ms->w.o->qmp_path,
	    cause);
	free(cause);
	return -1;
}

/*
 * The controller's bounds, from the plan and the settings (the plan is
 * made here too).  Set on the session by source_controller_commit(), after
 * the dirty rate was measured when the controller wants it.
 */
static void
source_controller(struct mig_source *ms)
{
	struct ctl_config *cfg = &ms->ctl_cfg;

	mig_plan_make(&ms->plan, &ms->w.settings, ms->w.settings.convergence,
	    ms->w.st);
	if (ms->self.major != 0)
		mig_agree_local(&ms->w.settings, &ms->plan, &ms->self, 1,
		    ms->tls == NULL, ms->w.st);
	else {
		mig_plan_least(&ms->plan);
		status_configure(ms->w.st, "qemu", mig_plan_to_json(&ms->plan));
	}
	/*
	 * Over tls: the target's answer to "completed?" confirms the guest
	 * (SS_CONFIRM); a return path through the proxies would only add a
	 * way for the source QEMU to fail, and resume, after the target ran
	 * the guest.
	 */
	if (ms->tls != NULL)
		ms->plan.return_path = 0;
	/* QEMU 8.2's migration mode (cpr-reboot first): set every time. */
	ms->plan.mode_listed = ms->self.major > 8 ||
	    (ms->self.major == 8 && ms->self.minor >= 2);
	if (ms->cpr != NULL || ms->w.o->exec_argv != NULL) {
		/*
		 * cpr-transfer (and cpr-exec) pass the RAM, not copy it: QEMU
		 * refuses post-copy with it ("Cannot use postcopy with CPR"),
		 * and no multifd channel has anything to carry.
		 */
		if (ms->plan.postcopy)
			status_note(ms->w.st, "post-copy left off: cpr-transfer "
			    "copies no RAM (QEMU refuses post-copy with it)");
		ms->plan.postcopy = 0;
		ms->plan.postcopy_preempt = 0;
		ms->plan.multifd = 0;
		ms->plan.channels = 0;
		if (ms->w.o->exec_argv != NULL) {
			ms->plan.cpr_exec = 1;
			ms->plan.cpr_exec_command = ms->w.o->exec_argv;
		} else
			ms->plan.cpr_transfer = 1;
		/* The update's own handoff (CPR_* states) ends it. */
		ms->plan.return_path = 0;
		status_configure(ms->w.st, "qemu", mig_plan_to_json(&ms->plan));
	}

	memset(cfg, 0, sizeof *cfg);
	/* KubeVirt adds the disks to the completion timeout's size. */
	cfg->guest_bytes = ms->guest_bytes + mig_disks_bytes(ms->disks);
	cfg->completion_timeout_per_gib =
	    ms->w.settings.completion_timeout_per_gib;
	cfg->progress_timeout = ms->w.settings.progress_timeout;
	cfg->max_downtime_ms = ms->plan.downtime_max_ms;
	cfg->initial_downtime_ms = ms->plan.downtime_ms;
	cfg->allow_auto_converge = ms->plan.auto_converge ||
	    ms->plan.dirty_limit;
	cfg->dirty_limit = ms->plan.dirty_limit;
	cfg->vcpus = ms->self.vcpus;
	cfg->allow_post_copy = ms->plan.postcopy;
	/* What `qmigrate switchover` may finish with (SEV_SWITCHOVER). */
	ms->w.sess.cfg.postcopy = ms->plan.postcopy;
	ms->w.sess.cfg.may_pause = ms->w.settings.allow_workload_disruption;
	cfg->allow_workload_disruption =
	    ms->w.settings.allow_workload_disruption;
	ctl_config_experimental(cfg, ms->w.settings.convergence,
	    &ms->w.settings);
}

static void
source_controller_commit(struct mig_source *ms)
{
	session_set_controller(&ms->w.sess, ms->w.settings.convergence,
	    &ms->ctl_cfg);
	status_configure(ms->w.st, "controller",
	    ctl_config_to_json(ms->w.settings.convergence, &ms->ctl_cfg));
}

/* The guest's RAM in a query-memory-size-summary answer. */
static uint64_t
guest_memory(json_object *reply)
{
	return json_u64_at(reply, "base-memory") +
	    json_u64_at(reply, "plugged-memory");
}

enum {
	INSPECT_MIGRATE, INSPECT_STATUS, INSPECT_MEMORY, INSPECT_JOBS,
	INSPECT_NODES, INSPECT_END, INSPECT_MODE,
};

/*
 * An update asks QEMU's migration mode last: whether the exec's new QEMU
 * answers (mig_exec_rerun_lost), and a mode an earlier update left set
 * (mig_update_mode_left), a record or none.
 */
static enum mig_job_next
inspect_mode(struct mig_source *ms, int *pc, struct mig_job_cmd *cmd)
{
	if (ms->w.o->exec_argv == NULL && ms->cpr == NULL)
		return JOB_DONE;
	*pc = INSPECT_MODE;
	cmd->name = "query-migrate-parameters";
	return JOB_SEND;
}

/* What QEMU is doing now (a job: ctx is the struct mig_source). */
static enum mig_job_next
inspect_job(void *ctx, int *pc, json_object *reply, const char *error,
    struct mig_job_cmd *cmd, char **cause)
{
	struct mig_source *ms = ctx;

	switch (*pc) {
	case INSPECT_MIGRATE:
		*pc = INSPECT_STATUS;
		cmd->name = "query-migrate";
		return JOB_SEND;
	case INSPECT_STATUS:
		if (error != NULL)
			goto fail;
		mig_info_decode(reply, &ms->mi);
		*pc = INSPECT_MEMORY;
		cmd->name = "query-status";
		return JOB_SEND;
	case INSPECT_MEMORY:
		if (error != NULL)
			goto fail;
		run_info_decode(reply, &ms->ri);
		*pc = INSPECT_JOBS;
		cmd->name = "query-memory-size-summary";
		return JOB_SEND;
	case INSPECT_JOBS:
		/* Only the completion timeout needs it: 0 is "unknown". */
		if (error != NULL)
			log_warnx("query-memory-size-summary: %s", error);
		else
			ms->guest_bytes = guest_memory(reply);
		/* A re-run may find the mirrors its record's run left. */
		if (ms->w.o->status_file == NULL ||
		    !world->file_exists(ms->w.o->status_file))
			return inspect_mode(ms, pc, cmd);
		*pc = INSPECT_NODES;
		cmd->name = "query-block-jobs";
		return JOB_SEND;
	case INSPECT_NODES:
		if (error != NULL) {
			log_warnx("query-block-jobs: %s", error);
			return JOB_DONE;
		}
		ms->block_jobs = json_object_get(reply);
		*pc = INSPECT_END;
		cmd->name = "query-named-block-nodes";
		cmd->args = json_object_new_object();
		json_object_object_add(cmd->args, "flat",
		    json_object_new_boolean(1));
		return JOB_SEND;
	case INSPECT_END:
		if (error != NULL)
			log_warnx("query-named-block-nodes: %s", error);
		else
			ms->adopted = mig_disks_adopt(ms->block_jobs, reply);
		return inspect_mode(ms, pc, cmd);
	default:
		if (error != NULL)
			log_warnx("query-migrate-parameters: %s", error);
		else if (json_str_at(reply, "mode") != NULL)
			snprintf(ms->qemu_mode, sizeof ms->qemu_mode, "%s",
			    json_str_at(reply, "mode"));
		return JOB_DONE;
	}
fail:
	ms->inspect_mute = qmp_error_unanswered(ms->setup_job.error_class);
	xasprintf(cause, "source QEMU %s: %s", ms->w.o->qmp_path, error);
	return JOB_FAILED;
}

enum {
	PLAN_SIDE_START, PLAN_SIDE, PLAN_BLOCKS, PLAN_SELECT, PLAN_RATE_ASKED,
	PLAN_RATE_QUERY, PLAN_RATE_ANSWER, PLAN_COMMIT, PLAN_APPLY,
};

/* A second of calc-dirty-rate, for the adaptive controller's first look. */
#define PLAN_RATE_SECONDS	1
/* ... whose result QEMU may take this much longer to have. */
#define PLAN_RATE_GRACE		5.0
#define PLAN_RATE_POLL		0.2

/* The measurement could not be had: it only costs the controller that. */
static void
plan_rate_failed(struct mig_source *ms, const char *why)
{
	status_note(ms->w.st, "dirty rate not measured: %s", why);
}

/* The disks to copy, the plan, and the plan set on QEMU (a job). */
static enum mig_job_next
plan_job(void *ctx, int *pc, json_object *reply, const char *error,
    struct mig_job_cmd *cmd, char **cause)
{
	struct mig_source	*ms = ctx;
	struct session		*sess = &ms->w.sess;
	enum mig_job_next	 next;
	double			 gib;

	switch (*pc) {
	case PLAN_SIDE_START:
		/* What this QEMU can do, for the negotiation. */
		memset(&ms->self, 0, sizeof ms->self);
		qmp_qemu_version(ms->w.qmp, &ms->self.major, &ms->self.minor,
		    &ms->self.micro);
		ms->side_pc = 0;
		*pc = PLAN_SIDE;
		reply = NULL;
		error = NULL;
		/* FALLTHROUGH */
	case PLAN_SIDE:
		next = qemu_side_job_or_least(&ms->self, &ms->side_pc, reply,
		    error, cmd, "source", ms->w.o->qmp_path);
		if (next != JOB_DONE)
			return next;
		*pc = PLAN_BLOCKS;
		reply = NULL;
		error = NULL;
		/* FALLTHROUGH */
	case PLAN_BLOCKS:
		if (ms->w.settings.block_migration != BLOCK_MIGRATION_NEVER) {
			*pc = PLAN_SELECT;
			cmd->name = "query-block";
			return JOB_SEND;
		}
		*pc = PLAN_SELECT;
		reply = NULL;
		/* FALLTHROUGH */
	case PLAN_SELECT:
		if (error != NULL) {
			xasprintf(cause, "source QEMU %s: %s",
			    ms->w.o->qmp_path, error);
			return JOB_FAILED;
		}
		if (reply != NULL && source_disks_select(ms, reply) != 0)
			return JOB_DONE;	/* stepped: setup failed */
		source_controller(ms);
		if (ms->w.o->timeout_action == TIMEOUT_POSTCOPY &&
		    !ms->plan.postcopy) {
			xasprintf(cause, "--timeout-action postcopy: post-copy "
			    "cannot be used with source QEMU %s (postcopy-ram "
			    "not negotiated: migrationConfiguration.capabilities "
			    "says why)", ms->w.o->qmp_path);
			return JOB_FAILED;
		}
		if (ms->disks != NULL &&
		    ms->w.settings.completion_timeout_per_gib > 0) {
			gib = ceil((double)mig_disks_bytes(ms->disks) /
			    MIG_DISKS_GIB);
			sess->cfg.mirror_timeout = 60 + gib *
			    (double)ms->w.settings.completion_timeout_per_gib;
		}
		sess->cfg.disks = ms->disks != NULL;
		if (!ctl_wants_dirty_rate(ms->w.settings.convergence,
		    &ms->ctl_cfg, ms->plan.bandwidth)) {
			*pc = PLAN_COMMIT;
			return plan_job(ctx, pc, NULL, NULL, cmd, cause);
		}
		/*
		 * The prediction can start before the first pass ends: a
		 * short page-sampling measurement (the mode TCG survives).
		 */
		cmd->name = "calc-dirty-rate";
		cmd->args = json_object_new_object();
		json_object_object_add(cmd->args, "calc-time",
		    json_object_new_int(PLAN_RATE_SECONDS));
		json_object_object_add(cmd->args, "mode",
		    json_object_new_string("page-sampling"));
		*pc = PLAN_RATE_ASKED;
		return JOB_SEND;
	case PLAN_RATE_ASKED:
		if (error != NULL) {
			plan_rate_failed(ms, error);
			*pc = PLAN_COMMIT;
			return plan_job(ctx, pc, NULL, NULL, cmd, cause);
		}
		ms->rate_deadline = now_monotonic() + PLAN_RATE_SECONDS +
		    PLAN_RATE_GRACE;
		*pc = PLAN_RATE_QUERY;
		cmd->delay = PLAN_RATE_SECONDS;
		return JOB_WAIT;
	case PLAN_RATE_QUERY:
		*pc = PLAN_RATE_ANSWER;
		cmd->name = "query-dirty-rate";
		return JOB_SEND;
	case PLAN_RATE_ANSWER:
		if (error != NULL)
			plan_rate_failed(ms, error);
		else if (json_str_at(reply, "status") != NULL &&
		    strcmp(json_str_at(reply, "status"), "measured") == 0) {
			ms->ctl_cfg.measured_dirty_rate = json_double_at(reply,
			    "dirty-rate") * 1024 * 1024;
			status_note(ms->w.st, "dirty rate measured before "
			    "migrating: %.1f MiB/s (calc-dirty-rate, %d s)",
			    json_double_at(reply, "dirty-rate"),
			    PLAN_RATE_SECONDS);
		} else if (now_monotonic() < ms->rate_deadline) {
			*pc = PLAN_RATE_QUERY;
			cmd->delay = PLAN_RATE_POLL;
			return JOB_WAIT;
		} else
			plan_rate_failed(ms, "QEMU had no result in time");
		*pc = PLAN_COMMIT;
		/* FALLTHROUGH */
	case PLAN_COMMIT:
		source_controller_commit(ms);
		ms->apply.plan = ms->plan;
		ms->apply.source = 1;
		ms->apply_pc = 0;
		/* From here QEMU may hold the update's mode and every
		   migration's pause-before-switchover, answered or not: a
		   setup that ends before migrate puts them back. */
		ms->cpr_mode_sent = 1;
		*pc = PLAN_APPLY;
		reply = NULL;
		error = NULL;
		/* FALLTHROUGH */
	default:
		return mig_plan_apply_job(&ms->apply, &ms->apply_pc, reply,
		    error, cmd, cause);
	}
}

static void	setup_stage(struct mig_source *, int stage);

enum {
	STAGE_CONNECTED, STAGE_INSPECTED, STAGE_PREFLIGHT, STAGE_PLANNED,
};

static void	on_connected(struct qmp_conn *, json_object *, const char *,
		    const char *, void *);
static void	inspect_connect_failed(struct mig_source *, const char *);

/*
 * The inspection got no answer (a dropped command leaves its connection
 * open and mute, a relay or a monitor hung in it; or the connection
 * closed): QEMU may serve a new connection all the same, and what it is
 * doing is what this run must know before it says where the guest is
 * (a re-run over a record never written finds a migration waiting in
 * pre-switchover: sim-real --update-exec seed 4760).  Asked again on a
 * new connection, INSPECT_TRIES connections in all; connects refused
 * (QEMU's monitor serves one client, and a relay may keep the mute one)
 * are tried again every INSPECT_RETRY seconds for INSPECT_RECONNECT, as
 * the session's reconnect does.
 */
#define INSPECT_TRIES		3
#define INSPECT_RECONNECT	30.0
#define INSPECT_RETRY		0.25

static void
inspect_connect(struct mig_source *ms)
{
	char *err = NULL;

	if (ms->w.stop)
		return;
	if (mig_watch_connect_start(&ms->w, on_connected, ms, &err) == 0)
		return;
	inspect_connect_failed(ms, err);
	free(err);
}

static void
on_inspect_retry(struct ev_loop *loop, ev_timer *t, int revents)
{
	(void)loop;
	(void)revents;
	inspect_connect(container_of(t, struct mig_source, inspect_retry));
}

/* A new connection for the inspection failed (why): again, or the end. */
static void
inspect_connect_failed(struct mig_source *ms, const char *why)
{
	if (ms->w.qmp != NULL) {
		qmp_close(ms->w.qmp);
		ms->w.qmp = NULL;
	}
	if (mig_watch_now() + INSPECT_RETRY < ms->inspect_until) {
		ev_timer_set(&ms->inspect_retry, INSPECT_RETRY, 0);
		world->timer_start(ms->w.loop, &ms->inspect_retry);
		return;
	}
	setup_failed(ms, source_state_unknown(ms), "%s: %s (no new connection "
	    "answered within %.0f s)", ms->w.o->qmp_path, why,
	    INSPECT_RECONNECT);
}

/* Returns 1 when the inspection is asked again. */
static int
inspect_again(struct mig_source *ms, const char *cause)
{
	if (!ms->inspect_mute || ++ms->inspects >= INSPECT_TRIES)
		return 0;
	ms->inspect_mute = 0;
	log_warnx("%s: asking again on a new connection", cause);
	mig_job_stop(&ms->setup_job);
	qmp_close(ms->w.qmp);
	ms->w.qmp = NULL;
	ms->w.query_inflight = 0;
	ms->inspect_until = mig_watch_now() + INSPECT_RECONNECT;
	inspect_connect(ms);
	return 1;
}

static void
on_setup_job(struct mig_job *job, int ok, const char *cause, void *arg)
{
	struct mig_source *ms = arg;

	if (ms->w.stop)
		return;
	if (!ok && job->fn == inspect_job && inspect_again(ms, cause))
		return;
	if (!ok) {
		setup_failed(ms, job->fn == inspect_job ?
		    source_state_unknown(ms) : FAIL_CONTROL, "%s", cause);
		return;
	}
	if (ms->w.sess.state != SS_SETUP)
		return;		/* the plan job failed and said so */
	setup_stage(ms, job->fn == inspect_job ? STAGE_INSPECTED :
	    STAGE_PLANNED);
}

static void
on_connected(struct qmp_conn *conn, json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	struct mig_source	*ms = arg;
	char			*cause;

	(void)reply;
	if (ms->w.stop || conn != ms->w.qmp)
		return;
	if (error != NULL) {
		if (ms->inspects > 0) {
			inspect_connect_failed(ms, error);
			return;
		}
		if (marker_check(ms, 0, error) || cpr_old_gone(ms))
			return;
		xasprintf(&cause, "%s: %s", ms->w.o->qmp_path, error);
		source_monitor_failed(ms, cause,
		    mig_watch_unserved(error_class, 0));
		free(cause);
		return;
	}
	privs_drop(NULL);	/* everything is open: keep no capability */
	setup_stage(ms, STAGE_CONNECTED);
}

/* The pre-flight and the slot: blocking, so run between loop iterations. */
static void
setup_preflight(struct mig_watch *w)
{
	struct mig_source	*ms = (struct mig_source *)w;
	struct session		*sess = &w->sess;
	const char		*reason;

	if (sess->state != SS_SETUP)
		return;
	if (session_setup_abandoned(sess)) {
		setup_done(ms, SETUP_FRESH, FAIL_NONE, MODE_PRECOPY, NULL);
		return;
	}
	if (source_preflight(ms) != 0)
		return;
	if (ms->w.o->slot_dir != NULL && slot_wait(w->loop, w->qmp,
	    ms->w.o->slot_dir, ms->w.o->max_parallel, ms->w.o->timeout,
	    &sess->pending.asked, w->st) != 0) {
		if (!sess->pending.asked)
			setup_failed(ms, status_failure(w->st, &reason), "%s",
			    reason);
		else
			setup_done(ms, SETUP_FRESH, FAIL_NONE, MODE_PRECOPY,
			    NULL);
		return;
	}
	setup_stage(ms, STAGE_PREFLIGHT);
}

/*
 * The update marker (mig-marker.c), written and synced before the migrate
 * that makes QEMU exec: 0, or -1 with the setup failed, before the exec
 * (3: QEMU untouched; the plan's mode is put back, as for any setup that
 * ends before migrate).  Without it a re-run after a SIGKILL over a
 * record never written could not tell this update from none.
 */
static int
marker_write(struct mig_source *ms)
{
	struct update_marker	 m;
	char			*cause = NULL;

	if (ms->marker == NULL)
		return 0;
	memset(&m, 0, sizeof m);
	snprintf(m.uid, sizeof m.uid, "%s", status_uid(ms->w.st));
	snprintf(m.qmp, sizeof m.qmp, "%s", ms->w.o->qmp_path);
	if (ms->w.qmp != NULL && (m.pid = qmp_peer_pid(ms->w.qmp)) > 0)
		m.start = world->process_start(m.pid);
	m.time = world->now_real();
	if (update_marker_write(ms->marker, &m, &cause) == 0) {
		ms->marker_ours = 1;
		return 0;
	}
	setup_failed(ms, FAIL_CONTROL, "update %s: cannot write its update "
	    "marker (%s), a re-run's only word that it began: the update "
	    "stops before QEMU execs, the guest runs on the QEMU as it was; "
	    "make room or fix the permissions there, then run update again",
	    status_uid(ms->w.st), cause);
	free(cause);
	return -1;
}

/*
 * The setup's stages, each started when the one before ended.  A signal
 * or the deadline during it reaches the session at once (kept pending);
 * the setup stops at the next stage.  Status writes are held until it is
 * known whether this is a re-attach, which must not overwrite the file it
 * re-attaches with until it has succeeded.
 */
static void
setup_stage(struct mig_source *ms, int stage)
{
	struct session	*sess = &ms->w.sess;
	int		 rc;

	/*
	 * A signal or the deadline is carried out only once QEMU and the
	 * status file said whether a killed run's migration is there: until
	 * then no abort can say the guest never left (a re-run's migration
	 * may have completed meanwhile: it is reported; one still running is
	 * cancelled as the abort asks).  The inspection's wait is bounded by
	 * the monitor's timeouts.
	 */
	if (stage != STAGE_CONNECTED && stage != STAGE_INSPECTED &&
	    session_setup_abandoned(sess)) {
		setup_done(ms, SETUP_FRESH, FAIL_NONE, MODE_PRECOPY, NULL);
		return;
	}
	switch (stage) {
	case STAGE_CONNECTED:
		mig_job_start(&ms->setup_job, ms->w.loop, ms->w.qmp, "inspect",
		    inspect_job, ms, on_setup_job, ms);
		return;
	case STAGE_INSPECTED:
		if (marker_check(ms, 1, NULL))
			return;
		rc = source_existing(ms, &ms->mi);
		if (rc != 0) {
			if (ms->usage_error) {
				ms->w.stop = 1;
				world->loop_break(ms->w.loop);
			}
			return;
		}
		/*
		 * The run state in the first document written, not only in
		 * the plan's: a re-run whose record is that one document
		 * (every later write failed) must not resume a guest the
		 * operator had paused (sim-real --update-exec seed 6020044).
		 */
		if (ms->ri.state_name[0] != '\0')
			status_configure(ms->w.st, "sourceRunState",
			    json_object_new_string(ms->ri.state_name));
		status_release(ms->w.st);
		/* A fresh update over a cpr mode nobody put back owns it. */
		if (mig_update_mode_left(ms->qemu_mode[0] != '\0' ?
		    ms->qemu_mode : NULL))
			ms->cpr_mode_sent = 1;
		if (session_setup_abandoned(sess)) {
			setup_done(ms, SETUP_FRESH, FAIL_NONE, MODE_PRECOPY,
			    NULL);
			return;
		}
		ms->w.deferred = setup_preflight;
		return;
	case STAGE_PREFLIGHT:
		mig_job_start(&ms->setup_job, ms->w.loop, ms->w.qmp, "plan",
		    plan_job, ms, on_setup_job, ms);
		return;
	case STAGE_PLANNED:
		if (marker_write(ms) != 0)
			return;
		setup_done(ms, SETUP_FRESH, FAIL_NONE, MODE_PRECOPY, NULL);
		return;
	}
}

/* Starts the setup: connect without waiting; the stages follow. */
static void
source_setup(struct mig_source *ms)
{
	char *cause = NULL;

	if (mig_watch_connect_start(&ms->w, on_connected, ms, &cause) != 0) {
		int refused = errno == ECONNREFUSED;	/* before any call */

		if (marker_check(ms, 0, cause) || cpr_old_gone(ms)) {
			free(cause);
			return;
		}
		source_monitor_failed(ms, cause,
		    mig_watch_unserved(NULL, refused));
		free(cause);
	}
}

/* The offer: this migration's configuration, for the target to apply. */
static json_object *
source_offer(struct mig_source *ms)
{
	struct control_msg	 m;
	json_object		*jobs, *v, *doc;
	const char		*node, *pod;

	memset(&m, 0, sizeof m);
	m.type = CONTROL_OFFER;
	snprintf(m.offer.uid, sizeof m.offer.uid, "%s", status_uid(ms->w.st));
	status_side(ms->w.st, STATUS_SOURCE, &node, &pod);
	snprintf(m.offer.source_node, sizeof m.offer.source_node, "%s",
	    node != NULL ? node : "");
	snprintf(m.offer.source_pod, sizeof m.offer.source_pod, "%s",
	    pod != NULL ? pod : "");
	qmp_qemu_version(ms->w.qmp, &m.offer.qemu_major, &m.offer.qemu_minor,
	    &m.offer.qemu_micro);
	/* As the setup found it, moments ago. */
	m.offer.guest_running = ms->ri.state_name[0] == '\0' || ms->ri.running;
	m.offer.plan = ms->plan;
	m.offer.has_qemu = ms->self.major != 0;
	m.offer.qemu = ms->self;
	m.offer.wants.postcopy = ms->w.settings.allow_post_copy;
	m.offer.wants.channels = ms->w.settings.parallel_migration_threads;
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

/* The agreed plan is on the source's QEMU: the ready goes to the session. */
static void
on_agreed(struct mig_job *job, int ok, const char *cause, void *arg)
{
	struct mig_source	*ms = arg;
	struct sess_event	 ev = { .kind = SEV_ANSWER };

	(void)job;
	if (ms->w.stop)
		return;
	ev.t = mig_watch_now();
	ev.question = CONTROL_OFFER;
	ev.answer = ANSWER_READY;
	ev.reason = ms->agree_reason;
	if (!ok) {
		ev.answer = ANSWER_REFUSED;
		snprintf(ms->agree_reason, sizeof ms->agree_reason,
		    "source QEMU %s: the plan agreed with the target: %s",
		    ms->w.o->qmp_path, cause);
	}
	mig_watch_step(&ms->w, &ev);
}

/*
 * The target's ready answer to the offer may carry the plan both QEMUs
 * agreed on: applied to the source's QEMU first (a job), the ready reaches
 * the session once it is (on_agreed).  Returns 1 when that job runs, 0
 * when the answer goes to the session as it is (ev->answer turned into a
 * refusal when the agreement is malformed).
 */
static int
source_agreed(struct mig_source *ms, json_object *answer,
    struct sess_event *ev)
{
	char	*cause = NULL;
	int	 rc;

	rc = mig_agree_answer(answer, &ms->w.settings, &ms->self, &ms->plan,
	    ms->w.st, &cause);
	if (rc == 0)
		return 0;
	if (rc < 0) {
		ev->answer = ANSWER_REFUSED;
		snprintf(ms->agree_reason, sizeof ms->agree_reason, "the "
		    "target's answer: %s", cause);
		ev->reason = ms->agree_reason;
		free(cause);
		return 0;
	}
	snprintf(ms->agree_reason, sizeof ms->agree_reason, "%s",
	    ev->reason != NULL ? ev->reason : "");
	if (ms->ctl_cfg.dirty_limit != ms->plan.dirty_limit) {
		/* The target's QEMU lacks dirty-limit: auto-converge. */
		ms->ctl_cfg.dirty_limit = ms->plan.dirty_limit;
		source_controller_commit(ms);
	}
	if (ms->w.qmp == NULL) {
		/* The monitor closed while the target answered (the session
		   is ending or connecting again): no plan goes to QEMU, and
		   no ready reaches the session without it. */
		ev->answer = ANSWER_REFUSED;
		snprintf(ms->agree_reason, sizeof ms->agree_reason, "source "
		    "QEMU %s: its monitor is closed: the plan agreed with "
		    "the target was not applied", ms->w.o->qmp_path);
		ev->reason = ms->agree_reason;
		return 0;
	}
	ms->apply.plan = ms->plan;
	ms->apply.source = 1;
	mig_job_start(&ms->agree_job, ms->w.loop, ms->w.qmp, "agreed plan",
	    mig_plan_apply_job, &ms->apply, on_agreed, ms);
	return 1;
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
	status_set_side(ms->w.st, STATUS_TARGET, node, pod);
	if (answer != NULL) {
		ev.answer = control_answer_decode(answer, reason,
		    sizeof reason);
		ev.reason = reason;
		if (ev.question == CONTROL_OFFER &&
		    ev.answer == ANSWER_READY && source_agreed(ms, answer, &ev))
			return;
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
	m.postcopy = a->value2;	/* COMPLETED: post-copy may have run */
	m.disks_lost = a->question == CONTROL_COMPLETED && a->value != 0;
	/* Cut to the message's room: the control channel's limit. */
	memcpy(m.reason, a->reason, sizeof m.reason - 1);
	m.reason[sizeof m.reason - 1] = '\0';
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
	mig_tls->source_ask(ms->tls, msg, timeout, on_answer, q);
}

static void
source_execute(struct mig_watch *w, const struct sess_action *a)
{
	struct mig_source *ms = (struct mig_source *)w;

	switch (a->kind) {
	case SA_JOB:
		if (ms->disks == NULL) {
			mig_watch_job_done(w, a->job, a->job ==
			    SJ_FINISH_MIRRORS, "no disks to copy");
			break;
		}
		if (a->job == SJ_START_MIRRORS) {
			mig_disks_source_start_prepare(ms->disks, ms->nbd_uri,
			    ms->plan.bandwidth);
			status_set_disks(w->st, mig_disks_to_json(ms->disks));
			mig_watch_job(w, a->job, mig_disks_source_start_job,
			    ms->disks);
		} else if (a->job == SJ_FINISH_MIRRORS) {
			mig_disks_source_finish_prepare(ms->disks,
			    a->value != 0, MIRRORS_END_SECONDS);
			mig_watch_job(w, a->job, mig_disks_source_finish_job,
			    ms->disks);
		}
		break;
	case SA_ASK:
		if (ms->tls != NULL)
			source_ask(ms, a);
		break;
	case SA_NEW_CONNECT:
	case SA_QMP:
	case SA_QUERY_STATUS:
		if (ms->cpr != NULL)
			mig_cpr_execute(ms->cpr, a);
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
	int			 rc;

	if (ms->disks == NULL)
		return;
	mig_disks_refresh(ms->disks, w->qmp, w->conn_count);
	ev->disks_stale = !mig_disks_seen_on(ms->disks, w->conn_count);
	status_set_disks(w->st, mig_disks_to_json(ms->disks));
	free(ms->disks_cause);
	ms->disks_cause = NULL;
	rc = mig_disks_state(ms->disks, &ms->disks_cause);
	ev->disks = rc < 0 ? DISKS_FAILED : rc == 0 ? DISKS_SYNCING :
	    DISKS_READY;
	ev->disks_copied = mig_disks_copied(ms->disks);
	if (rc < 0)
		ev->reason = ms->disks_cause;
	free(ms->disks_lost);
	ms->disks_lost = mig_disks_lost(ms->disks);
	ev->disks_lost = ms->disks_lost;
}

static void
source_on_event(struct mig_watch *w, const char *name, json_object *data)
{
	struct mig_source *ms = (struct mig_source *)w;

	if (ms->disks == NULL)
		return;
	if (strncmp(name, "BLOCK_JOB_", 10) == 0)
		mig_disks_on_event(ms->disks, name, data);
}

static void
source_session_init(struct mig_source *ms)
{
	struct sess_config cfg;

	mig_watch_session_config(&ms->w, &cfg, SESS_SOURCE, ms->tls != NULL);
	cfg.stall_timeout = (double)ms->w.settings.progress_timeout;
	cfg.unix_stream = ms->tls == NULL &&
	    strncmp(ms->w.o->uri, "unix:", 5) == 0;
	if (ms->w.o->exec_argv != NULL) {
		/* One process: the "new QEMU" is behind the same monitor. */
		cfg.cpr = 1;
		cfg.cpr_exec = 1;
		cfg.new_qmp_path = ms->w.o->qmp_path;
		cfg.peer = ms->w.o->qmp_path;
	} else if (ms->w.o->cpr_uri != NULL) {
		cfg.cpr = 1;
		cfg.cpr_defer = ms->w.o->cpr_defer;
		cfg.new_qmp_path = ms->w.o->new_qmp_path;
		cfg.peer = ms->w.o->new_qmp_path;
	}
	session_init(&ms->w.sess, &cfg);
}

/* tls: the source's proxy, which QEMU migrates into. */
static int
source_open_tls(struct mig_watch *w, char **cause)
{
	struct mig_source *ms = (struct mig_source *)w;

	ms->tls = mig_tls->source_open(w->loop, w->o, status_uid(w->st),
	    &w->qemu_uri, cause);
	return ms->tls != NULL ? 0 : -1;
}

/*
 * The update's end: its marker goes once the record says the outcome
 * (the last document written), or where the outcome left the guest on
 * the old QEMU, untouched by any exec (2-5): a re-run then needs no
 * marker.  Kept otherwise (0 or 8 with the record unwritten): a re-run
 * must not take that QEMU for one no update touched.
 */
static void
marker_end(struct mig_source *ms, int rc)
{
	char *cause = NULL;

	if (ms->marker != NULL && ms->marker_ours &&
	    (status_file_current(ms->w.st) || rc == QM_EXIT_NOT_MIGRATABLE ||
	    rc == QM_EXIT_CONTROL || rc == QM_EXIT_DATA ||
	    rc == QM_EXIT_ABORTED) &&
	    update_marker_remove(ms->marker, &cause) != 0) {
		log_warnx("%s (remove it once the status file says the "
		    "update ended)", cause);
		free(cause);
	}
	free(ms->marker);
	ms->marker = NULL;
}

/*
 * qmigrate migrate: the source side of one migration, from the options
 * to the last status document.  Returns the exit status (README's table:
 * 0 succeeded, 2 a usage error with nothing touched, 3-8 by the failed
 * plane); the guest runs on one side or the other, as the document says.
 */
int
mig_source_run(const struct mig_options *o)
{
	struct mig_source	 ms;
	int			 rc;

	memset(&ms, 0, sizeof ms);
	mig_watch_init(&ms.w, "source", o);
	ev_timer_init(&ms.inspect_retry, on_inspect_retry, INSPECT_RETRY, 0);
	ms.w.execute = source_execute;
	ms.w.before_sample = source_before_sample;
	ms.w.on_event = source_on_event;
	status_set_ends(ms.w.st, o->qmp_path, o->uri);
	/* Without a --status-file no re-run can take an update over: no
	 * marker either (a re-run over none finds QEMU's word alone). */
	if (o->exec_argv != NULL && o->status_file != NULL)
		ms.marker = update_marker_path(o->status_file);
	if (o->cpr_uri != NULL)
		ms.cpr = mig_cpr_new(&ms.w, o->new_qmp_path);

	if (mig_watch_begin(&ms.w, source_open_tls) != 0) {
		free(ms.marker);
		mig_cpr_free(ms.cpr);
		mig_watch_free(&ms.w);
		return QM_EXIT_USAGE;
	}
	source_session_init(&ms);

	/* Signals and the deadline first: from now on they are events. */
	mig_watch_arm(&ms.w, o->timeout);
	status_hold(ms.w.st);
	/* An update's mode from its first document, a refused one's too
	 * (held with it: a re-attach takes the record's instead). */
	if (ms.cpr != NULL)
		status_set_mode(ms.w.st, MODE_CPR_TRANSFER);
	else if (o->exec_argv != NULL)
		status_set_mode(ms.w.st, MODE_CPR_EXEC);
	status_changed(ms.w.st, "start");
	source_setup(&ms);
	if (!ms.w.stop)
		mig_watch_run(&ms.w);
	mig_job_stop(&ms.setup_job);
	mig_job_stop(&ms.agree_job);
	world->timer_stop(ms.w.loop, &ms.inspect_retry);
	json_object_put(ms.block_jobs);
	if (ms.usage_error) {
		/* Nothing was touched, nothing is written. */
		free(ms.marker);
		status_discard(ms.w.st);
		ms.w.stop = 1;
		mig_tls->source_close(ms.tls);
		mig_cpr_free(ms.cpr);
		mig_watch_free(&ms.w);
		mig_disks_free(ms.disks);
		mig_disks_free(ms.adopted);
		return QM_EXIT_USAGE;
	}
	rc = mig_watch_report(&ms.w);
	marker_end(&ms, rc);
	free(ms.nbd_uri);
	free(ms.disks_cause);
	free(ms.disks_lost);
	slot_release();
	mig_tls->source_close(ms.tls);
	mig_cpr_free(ms.cpr);
	mig_watch_free(&ms.w);
	/* After the connection: a pending query-block-jobs points at it. */
	mig_disks_free(ms.disks);
	mig_disks_free(ms.adopted);
	return rc;
}
