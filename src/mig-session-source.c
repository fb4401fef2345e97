/*
 * mig-session-source.c: the source's transition table (mig-session.h).
 * One handler per state, each switching on the event; what a state does
 * with an event it does not list is nothing.  The promises it keeps
 * (README, "What qmigrate promises when things break"): before post-copy
 * every failure and abort leaves the guest on the source, running again
 * if a decision paused it, before the last document is written; after,
 * the target holds it, an abort is refused, and a broken stream is
 * resumed until --recover-timeout.  An abort is reported only when it
 * happened; a monitor that stops answering is given up on, and the exit
 * status then says the guest's place is unknown.
 */
#include <stdio.h>
#include <string.h>

#include "mig-session.h"
#include "mig-session-source.h"

/* How long QEMU gets to cancel before the abort is declared failed. */
#define CANCEL_TIMEOUT		30.0
/* Then migrate_cancel again this often: the abort was still asked for. */
#define CANCEL_RETRY_SECONDS	10.0
/* How long the target gets to say whether the guest runs there. */
#define CONFIRM_TIMEOUT		30.0
/* A lost control connection: "completed?" again on a new one this often. */
#define REASK_SECONDS		1.0
/* Between two migrate resume attempts. */
#define RETRY_SECONDS		1.0
/* A recovery under way when --recover-timeout passed gets this long. */
#define RECOVER_SETTLE_SECONDS	30.0
/* A controller's abort is a data-plane failure if no byte moved this long. */
#define STALL_SECONDS		5.0
/* completed comes before total-time and downtime are stored: re-poll, for
   up to 2 s: on a loaded host QEMU's migration thread waits for the lock
   it stores them under, and a report without the downtime is a worse one. */
#define COMPLETED_REPOLLS	40
#define REPOLL_SECONDS		0.05
/* Reconnecting to a monitor whose connection closed. */
#define RECONNECT_SECONDS	1.0
#define RECONNECT_TIMEOUT	30.0
/* The mirrors' end and the guest's cont, once the outcome is known. */
#define FINISH_TIMEOUT		75.0
/* An update's put-back on the old QEMU: sends, each after a reconnect. */
#define CPR_RESET_TRIES		3
/*
 * The point of no return: how long the source QEMU may keep the guest
 * stopped for the switchover (the device state sent, the target's word on
 * the return path awaited) before its outcome is declared not known.
 */
#define SWITCHOVER_TIMEOUT	60.0
/*
 * An abort in pre-copy while QEMU owes the answer to a query-migrate
 * asked this long ago (one past its reply bound, or gone with a
 * connection, included: mig-watch's unanswered_since) waits for a sample
 * asked after it: QEMU may have stopped the guest for the switchover
 * meanwhile, its STOP behind that answer (a cancel there lets the target
 * run what was sent while the source resumes its copy).  Answers come
 * within a poll when all is well.
 */
#define STALE_VIEW_SECONDS	2.0
/*
 * A finish (the operator's switchover, --timeout's) is carried out on a
 * pre-copy sample answered within this long of its asking, or on one
 * asked after a slower one was read: a sample read long after it was
 * asked may have waited in the socket while this process was stopped,
 * with QEMU's own STOP for the switchover behind it (sim-real seeds
 * 10187961, 9911911: "Started" said 20 s after QEMU said STOP).
 */
#define FINISH_FRESH_SECONDS	1.0
/* query-status asked after a reconnect is asked again once its reply
 * bound passed (the qmp/ client's 10 s): the answer decides an abort. */
#define STOP_UNSEEN_RETRY	10.0
/*
 * QEMU failed post-copy: its run state is asked again after this long
 * without an answer (an error answer sends no event), and a guest still
 * in finish-migrate is asked about again for this long: 10.0 sets FAILED
 * before migration_iteration_finish restarts the guest or puts its old
 * run state back.
 */
#define POSTFAIL_RETRY		10.0
#define POSTFAIL_SETTLE		5.0

static void	finishing_unknown(struct session *, const char *);
static void	switchover_enter(struct session *, double, int);
static void	switchover_past_pause(struct session *, double);
static int	switchover_held_ours(const struct session *);
static void	source_cancel(struct session *, double, enum mig_failure, int,
		    const char *);
static int	switchover_seen(struct session *, double,
		    const struct mig_info *);
static void	source_pending_abort(struct session *, double);
static void	source_deadline_finish(struct session *);
static void	postcopy_failed(struct session *, double, const char *);

/* What QEMU failed that the target is asked about (s->swfail). */
static const char *
swfail_what(const struct session *s)
{
	return s->swfail == SWFAIL_UNWATCHED ? "the migration while no "
	    "qmigrate watched it" : "the switchover";
}

/* A question to the target (tls:). */
static void
ask(struct session *s, enum control_type question, const char *reason)
{
	sess_act_why(s, SA_ASK, reason)->question = question;
}

/*
 * "completed?" says whether post-copy may have run here: asked for (even
 * unanswered) or seen.  Then the target's QEMU may hold the only whole
 * copy, and it must not stop it to let this side resume (a target that
 * lost sight of its QEMU during post-copy cannot tell by itself).  And
 * whether a disk's mirror failed before QEMU completed (value 1, the
 * reason naming it): the target, which cannot see the source's mirrors,
 * must not call the guest whole there (sim-real D1 over tls:).
 */
static void
ask_completed(struct session *s)
{
	struct sess_action *a = sess_act_why(s, SA_ASK,
	    s->disks_lost[0] != '\0' ? s->disks_lost : NULL);

	a->question = CONTROL_COMPLETED;
	a->value2 = s->mode == MODE_POSTCOPY || s->postcopy_asked != 0;
	a->value = s->disks_lost[0] != '\0';
}

/* ---- the end ------------------------------------------------------- */

/*
 * FINISHING's next step: the mirrors' end, then the guest's cont, then the
 * end; again from where it was after the monitor came back.
 */
static void
finishing_resume(struct session *s)
{
	if (s->mirrors_out)
		sess_job(s, SJ_FINISH_MIRRORS, s->end_phase == PHASE_SUCCEEDED);
	else if (s->resume_guest) {
		s->cont_tries++;
		sess_qmp(s, SC_CONT, 0, 0);
	} else if (s->cpr_reset == 2)
		sess_qmp(s, SC_MODE_NORMAL, 0, 0);
	else if (s->cpr_reset == 1)
		sess_qmp(s, SC_PAUSE_OFF, 0, 0);
	else
		sess_finish(s, s->end_phase);
}

/*
 * The outcome is known: the mirrors end (in sync only on success), the
 * guest runs here again if a decision of ours paused it and it did not
 * leave, and only then is the last document written (SS_FINISHING).
 */
void
source_end(struct session *s, enum mig_phase phase)
{
	int stays_here;

	if (s->state == SS_FINISHING || s->state == SS_DONE)
		return;
	s->end_phase = phase;
	/* The guest stays here, and that is known (not post-copy's loss,
	 * not unknown). */
	stays_here = phase != PHASE_SUCCEEDED &&
	    s->failure != FAIL_POSTCOPY_LOST && s->failure != FAIL_UNKNOWN;
	s->resume_guest = s->mode == MODE_PAUSED && stays_here;
	/*
	 * A re-attach at the switchover cannot tell who stopped a guest that
	 * QEMU keeps paused after a failure (it resumes only one that ran
	 * when the switchover began): the killed run's pause, whose write
	 * may have failed (a full disk: the record says PreCopy), or an
	 * operator's during the migration.  An operator's pause must stay
	 * (audit N14), so none is undone; the document says so (sim-real
	 * seeds 9601661, the killed run's pause, and 10018839, the
	 * operator's, which a cont here ran).
	 */
	if (s->reattach_stopped && !s->was_paused && !s->resume_guest &&
	    !s->cfg.cpr && stays_here)
		sess_note(s, "the guest may stay paused on the source: this "
		    "run re-attached at the switchover, and a pause made "
		    "before it (the killed run's, or an operator's) is not "
		    "undone here; cont it if it should run");
	if (s->failure == FAIL_UNKNOWN && s->mirrors_out) {
		/*
		 * QEMU may still complete the migration: cancelling the
		 * mirrors now would leave the target a stale disk.  They run
		 * on; a re-run with the same --status-file ends them.  So
		 * they do after QEMU completed, too: they are the next
		 * re-run's only word that the target's disks are not known
		 * (ended here, its re-run found none and said 0: sim-real
		 * seed 3009803).
		 */
		s->mirrors_out = 0;
		sess_note(s, "the disks' mirrors are left running: QEMU may "
		    "still complete the migration");
	}
	/*
	 * A migration that left the guest here undoes what it set (audit
	 * N11): an update's mode cpr-transfer would make QEMU refuse any
	 * later plain migrate, and pause-before-switchover (every migrate's,
	 * mig-caps.c) hold any other tool's.  Not where the outcome is not
	 * known: the monitor may not answer, and QEMU may still be migrating.
	 */
	if (!s->migrate_sent && !s->cpr_left)
		s->cpr_reset = 0;
	else if (phase == PHASE_SUCCEEDED || s->failure == FAIL_UNKNOWN)
		s->cpr_reset = 0;
	else
		s->cpr_reset = s->cfg.cpr ? 2 : 1;
	if (!s->mirrors_out && !s->resume_guest && !s->cpr_reset) {
		sess_finish(s, phase);
		return;
	}
	sess_enter(s, SS_FINISHING);
	sess_timer(s, STIMER_FINISH, FINISH_TIMEOUT);
	finishing_resume(s);
}

void
source_succeed(struct session *s)
{
	/*
	 * The guest left, but a disk's mirror failed before QEMU completed:
	 * while the guest ran, or after the switchover's STOP, while QEMU
	 * drained the guest's last writes (past the point of no return:
	 * the failure's word came too late for a cancel).  The target's
	 * copy of that disk may miss writes this QEMU's disks hold.  Not a
	 * success (sim-real D1): 8, the guest kept stopped here.
	 */
	if (s->disks_lost[0] != '\0') {
		source_not_known(s);
		sess_fail(s, FAIL_UNKNOWN, "QEMU completed the migration, "
		    "but %s: the target's copy of that disk may miss writes "
		    "this QEMU's disk holds (the guest stays stopped here); "
		    "look at the target before it runs on", s->disks_lost);
		return;
	}
	if (s->abort == ABORT_ABORTING) {
		sess_abort_status(s, ABORT_FAILED);
		sess_note(s, "the migration completed %s: the guest runs on "
		    "the target", s->pending.asked ? "while the abort waited "
		    "for QEMU's word of now" : "before QEMU could cancel it");
	}
	sess_clear_failure(s);
	sess_log(s, 1, "migration completed");
	source_end(s, PHASE_SUCCEEDED);
}

/*
 * Before a "not known" failure: an abort under way did not happen, and
 * whatever failure was recorded before, this is what is known now.
 */
void
source_not_known(struct session *s)
{
	if (s->abort == ABORT_ABORTING)
		sess_abort_status(s, ABORT_FAILED);
	if (s->failure != FAIL_NONE)
		sess_clear_failure(s);
}

/* QEMU's monitor stopped answering for good: say what is not known. */
static void
source_give_up(struct session *s, const char *why)
{
	source_not_known(s);
	sess_fail(s, FAIL_UNKNOWN,
	    "source QEMU %s: %s: where the guest runs is "
	    "not known (QEMU may still be migrating it); run migrate again "
	    "with the same --status-file to re-attach", s->cfg.qmp_path, why);
}

/* ---- helpers the migrating states share ---------------------------- */

static void
sample_of(const struct session *s, double t, const struct mig_info *mi,
    struct ctl_sample *cs)
{
	memset(cs, 0, sizeof *cs);
	cs->t = t - s->t0;
	cs->postcopy = mi->status == QMS_POSTCOPY_ACTIVE;
	cs->pass = mi->dirty_sync_count;
	cs->total = mi->ram_total;
	cs->remaining = mi->ram_remaining;
	cs->transferred = mi->ram_transferred;
	cs->dirty_rate = mig_info_dirty_rate(mi);
	cs->bandwidth = mig_info_bandwidth(mi);
	cs->expected_downtime_ms = mi->expected_downtime_ms;
	cs->throttle_pct = mi->throttle_pct;
}

static int
terminal(const struct mig_info *mi)
{
	return mi->status == QMS_COMPLETED || mi->status == QMS_FAILED ||
	    mi->status == QMS_CANCELLED;
}

/*
 * QEMU completed.  Returns 1 when the session moved on (to confirm, or the
 * end), 0 when it re-polls for the final figures.
 */
static int
source_completed(struct session *s, const struct mig_info *mi)
{
	/*
	 * A view of the mirrors from before a monitor reconnect misses a
	 * mirror that failed in the gap (its BLOCK_JOB_ERROR went to the
	 * closed connection, and QEMU dismissed the concluded job): ask
	 * until a listing on this connection came (sim-real D1, seed
	 * 4005020), and without one the disks' copy is not known.
	 */
	if ((!mi->has_total_time || s->disks_stale) &&
	    s->completed_polls++ < COMPLETED_REPOLLS) {
		sess_timer(s, STIMER_REPOLL, REPOLL_SECONDS);
		return 0;
	}
	if (s->disks_stale && s->disks_lost[0] == '\0')
		snprintf(s->disks_lost, sizeof s->disks_lost, "the mirrors' "
		    "state since the monitor connected again is not known "
		    "(query-block-jobs got no answer)");
	if (s->cfg.cpr_exec) {
		/* The exec, then the new QEMU's word (SS_CPR_EXEC). */
		cpr_exec_handoff(s);
		return 1;
	}
	if (s->cfg.cpr) {
		/* The new QEMU's run state is the success (SS_CPR_HANDOFF). */
		cpr_handoff(s);
		return 1;
	}
	if (!s->cfg.tls) {
		source_succeed(s);
		return 1;
	}
	/*
	 * Over tls:, the last bytes may still be in the proxy: like libvirt's
	 * confirm phase, success is the target's to declare.  The mirrors end
	 * first (in sync: the guest is stopped here, nothing writes): the
	 * target releases its exports, and answers, only once they are gone.
	 */
	sess_enter(s, SS_CONFIRM);
	if (s->mirrors_out) {
		s->confirm_mirrors = 1;
		sess_job(s, SJ_FINISH_MIRRORS, 1);
		sess_timer(s, STIMER_FINISH, FINISH_TIMEOUT);
		return 1;
	}
	ask_completed(s);
	sess_timer(s, STIMER_CONFIRM, CONFIRM_TIMEOUT);
	return 1;
}

/*
 * The target's word after QEMU completed is missing or says it does not
 * know: the guest stays paused here (it may run there), and the exit
 * status says the outcome is not known.
 */
static void
source_not_confirmed(struct session *s, const char *why)
{
	if (s->abort == ABORT_ABORTING)
		sess_abort_status(s, ABORT_FAILED);
	if (s->failure != FAIL_NONE)
		sess_clear_failure(s);
	if (s->swfail) {
		sess_fail(s, FAIL_UNKNOWN, "source QEMU %s failed %s (%s) and "
		    "runs its copy of the guest again, but the target %s did "
		    "not say that it did not load it (%s): it may run there "
		    "too; where it runs is not known: look at the target QEMU, "
		    "and quit the one that must not run it", s->cfg.qmp_path,
		    swfail_what(s), s->swfail_desc, s->cfg.peer, why);
		return;
	}
	if (s->postfail == PF_RUNNING) {
		sess_fail(s, FAIL_UNKNOWN, "post-copy failed (%s) and source "
		    "QEMU %s runs the guest again, but the target %s did not "
		    "say that it never ran it (%s): it may run there too; "
		    "where it runs is not known; see the target's status",
		    s->postfail_desc, s->cfg.qmp_path, s->cfg.peer, why);
		return;
	}
	sess_fail(s, FAIL_UNKNOWN, "QEMU completed the migration but the "
	    "target %s did not confirm the guest (%s): it stays paused here "
	    "and may run there; where it runs is not known; see the "
	    "target's status, or run migrate again with the same "
	    "--status-file", s->cfg.peer, why);
}

/*
 * QEMU failed the migration after post-copy began there (it said
 * postcopy-active or 11.1's postcopy-device, or a recovery failed).  A
 * QEMU whose guest ran before runs it again on a failure
 * (migration_iteration_finish: vm_start when vm_old_state was live):
 * 11.1 by design while the target has not said it runs the guest
 * (migration_detect_error: postcopy-device fails, only postcopy-active
 * pauses), any QEMU on a failure outside the stream's I/O.  So the run
 * state decides, and query-status is asked first (postcopy_run_state);
 * each sample meanwhile asks again once POSTFAIL_RETRY passed, or at once
 * after a finish-migrate.  The guest is never resumed by us here.
 */
static void
postcopy_failed(struct session *s, double t, const char *desc)
{
	if (s->postfail == PF_NONE) {
		s->postfail = PF_ASKED;
		s->postfail_since = t;
		snprintf(s->postfail_desc, sizeof s->postfail_desc, "%s", desc);
	} else if (s->postfail != PF_ASKED || (s->postfail_asked != 0 &&
	    t - s->postfail_asked < POSTFAIL_RETRY))
		return;
	s->postfail_asked = t;
	sess_act(s, SA_QUERY_STATUS);
}

/*
 * QEMU failed post-copy and runs the guest again.  The target may have
 * run it too: the source is the guest's place only on the target's word
 * that it did not (libvirt's Finish, then Confirm), and only while QEMU
 * never said postcopy-active (after that the target ran it, or on QEMUs
 * before 10.2 may have).  While that holds: over tls: the target is
 * asked (SS_CONFIRM: "fenced" is its word); over one unix socket QEMU's
 * own is enough, as at the switchover (switchover_failed): 11.1 leaves
 * postcopy-device on the target's PONG, sent on the return path before
 * the target runs the guest, and a unix socket has no middle to lose it
 * in.  Over tcp: not known.
 */
static void
postcopy_failed_running(struct session *s)
{
	s->postfail = PF_RUNNING;
	if (!s->saw_postcopy_active && !s->cfg.tls && s->cfg.unix_stream) {
		sess_fail(s, FAIL_DATA, "post-copy failed before the target "
		    "%s said it runs the guest (%s): source QEMU %s runs it "
		    "again", s->cfg.peer, s->postfail_desc, s->cfg.qmp_path);
		return;
	}
	if (s->cfg.tls && !s->saw_postcopy_active) {
		sess_log(s, 1, "post-copy failed (%s) and source QEMU %s runs "
		    "the guest again: asking the target %s whether it ever "
		    "ran it", s->postfail_desc, s->cfg.qmp_path, s->cfg.peer);
		sess_enter(s, SS_CONFIRM);
		ask_completed(s);
		sess_timer(s, STIMER_CONFIRM, CONFIRM_TIMEOUT);
		return;
	}
	source_not_known(s);
	sess_fail(s, FAIL_UNKNOWN, "post-copy failed (%s) and source QEMU %s "
	    "runs the guest again (QEMU restarts it on a failure), %s: it may "
	    "run there too; where it runs is not known: look at the target "
	    "QEMU, and quit the one that must not run it", s->postfail_desc,
	    s->cfg.qmp_path, s->saw_postcopy_active ? "after QEMU said "
	    "postcopy-active (the target ran it, or may have)" :
	    "without the target's word that it never ran it");
}

/*
 * query-status after QEMU failed post-copy (postcopy_failed): running
 * again, the target decides; stopped (finish-migrate past
 * POSTFAIL_SETTLE, paused, postmigrate): both QEMUs are paused, as
 * post-copy's loss has always said.
 */
static void
postcopy_run_state(struct session *s, const struct sess_event *ev)
{
	if (s->postfail != PF_ASKED)
		return;
	if (ev->ri->running) {
		postcopy_failed_running(s);
		return;
	}
	if (ev->ri->state == RUN_FINISH_MIGRATE &&
	    ev->t - s->postfail_since < POSTFAIL_SETTLE) {
		s->postfail_asked = 0;	/* the next sample asks again */
		return;
	}
	s->postfail = PF_DONE;
	sess_fail(s, FAIL_POSTCOPY_LOST, "post-copy failed: %s",
	    s->postfail_desc);
}

/*
 * Post-copy asked for on a migration this run started with its pause
 * set, and no migrate-continue sent: QEMU's postcopy_start stops the guest
 * and waits in pre-switchover before it sends the device state
 * (migration_maybe_pause), so a failure now is one before any of it left,
 * as in pre-copy; the target cannot have run the guest (sim-real seed
 * 10072162: 11.1 failed the stream right after migrate-start-postcopy,
 * with the guest paused for the operator's switchover: it said 6).
 */
static int
postcopy_held_ours(const struct session *s)
{
	return s->pause_ours && s->continue_sent == 0 &&
	    !s->saw_postcopy_active;
}

/* QEMU failed or cancelled a migration nobody asked to cancel. */
static void
source_failed(struct session *s, double t, const struct mig_info *mi)
{
	const char *desc = mi->error_desc[0] != '\0' ? mi->error_desc :
	    "no reason given";

	if (cpr_exec_refused(s, desc))
		return;
	if (!s->saw_active && mi->ram_transferred == 0)
		sess_fail(s, FAIL_CONTROL, "%s %s not ready: %s", s->cfg.cpr ?
		    "the new QEMU" : "target", s->cfg.peer, desc);
	else if (s->state == SS_POSTCOPY && postcopy_held_ours(s))
		sess_fail(s, FAIL_DATA, "migration stream failed before "
		    "post-copy's switchover (QEMU held it in pre-switchover "
		    "for a migrate-continue never sent, so no device state "
		    "left): %s", desc);
	else if (s->state == SS_POSTCOPY)
		/*
		 * Asked for and not yet seen (postcopy_asked) is no proof
		 * that QEMU did not switch: between two samples 7.2's
		 * postcopy_start may send the package, fail on the stream's
		 * error after it and restart the guest here while the target
		 * runs it.  The run state decides, as after a switch seen.
		 */
		postcopy_failed(s, t, desc);
	else
		sess_fail(s, FAIL_DATA, "migration stream failed: %s", desc);
}

/*
 * Pre-copy that sends nothing at all is a broken data plane (link down,
 * target gone silent), not a migration that fails to converge: when
 * QEMU's transferred count has not grown for more than limit seconds,
 * aborts with a data-plane failure and returns 1.
 */
static int
source_stalled(struct session *s, double t, const struct ctl_sample *cs,
    double limit)
{
	char reason[SESS_REASON_MAX];

	if (s->moved_t < 0 || cs->transferred != s->moved_bytes) {
		s->moved_bytes = cs->transferred;
		s->moved_t = cs->t;
		return 0;
	}
	if (limit <= 0 || cs->t - s->moved_t <= limit)
		return 0;
	snprintf(reason, sizeof reason, "no data moved for %.0f s: the "
	    "migration stream to %s is stalled", cs->t - s->moved_t,
	    s->cfg.peer);
	source_abort(s, t, FAIL_DATA, 0, reason);
	return 1;
}

/* Carries out one decision, the controller's or another's (asker). */
static void
source_decide(struct session *s, double t, const struct ctl_decision *d,
    const struct ctl_sample *cs, enum sess_asker asker)
{
	struct sess_action	*a;
	int			 increment;

	if (d->action == CTL_NONE)
		return;
	a = sess_act(s, SA_ST_DECISION);
	a->value = d->action;
	a->value2 = (int)asker;
	a->sample = *cs;
	snprintf(a->reason, sizeof a->reason, "%s", d->reason);
	switch (d->action) {
	case CTL_NONE:
		break;
	case CTL_SET_DOWNTIME:
		/* The bandwidth measured, for QEMU's own estimate (8.2). */
		sess_qmp(s, SC_SET_DOWNTIME, d->value, 0)->sample.bandwidth =
		    cs->bandwidth;
		break;
	case CTL_AUTO_CONVERGE:
		/*
		 * QEMU starts the throttle at cpu-throttle-initial, or, when
		 * the 1% arming already started it, adds the increment:
		 * either way it lands on d->value, then climbs 10 at a time.
		 */
		increment = cs->throttle_pct > 0 &&
		    (int)d->value > cs->throttle_pct + 10 ?
		    (int)d->value - cs->throttle_pct : 10;
		sess_qmp(s, SC_AUTO_CONVERGE, d->value, increment);
		break;
	case CTL_DIRTY_LIMIT:
		/*
		 * The parameter, which QEMU's own throttle trigger applies
		 * (and would reset a limit set otherwise to), then the limit
		 * on every vCPU at once: the trigger fires only while the
		 * guest dirties more than half of what is sent.
		 */
		sess_qmp(s, SC_DIRTY_LIMIT, d->value, 0);
		sess_qmp(s, SC_DIRTY_LIMIT_NOW, d->value, 0);
		break;
	case CTL_POST_COPY:
		/*
		 * A guest paused before the migration began dirties nothing:
		 * pre-copy converges as it is, and QEMU before 9.0 starts
		 * the guest on the target at post-copy's RUN whatever its
		 * state on the source (loadvm_postcopy_handle_run_bh under
		 * autostart), ending the operator's pause.
		 */
		if (s->was_paused) {
			sess_log(s, 1, "no post-copy: the guest was paused "
			    "before the migration began, and pre-copy "
			    "converges as it is");
			break;
		}
		/*
		 * From here an abort is refused: QEMU may switch at any moment,
		 * and a cancel after the switch loses the guest.  QEMU's own
		 * "postcopy-active" says when it did (postcopy_asked 0).
		 */
		sess_qmp(s, SC_START_POSTCOPY, 0, 0);
		s->postcopy_asked = 1;
		s->postcopy_sent = t;
		/* The mode says PostCopy once QEMU does (migrating_sample). */
		sess_enter(s, SS_POSTCOPY);
		break;
	case CTL_PAUSE:
		/*
		 * A guest paused before the migration began (the operator's
		 * stop) converges as it is; mode Paused would make it ours
		 * to resume when the migration fails, and the operator's
		 * pause would end with it (docs/failures.md: it stays).
		 */
		if (s->was_paused) {
			sess_log(s, 1, "the guest was paused before the "
			    "migration began: it stays as it is, and is not "
			    "resumed if the migration fails");
			break;
		}
		sess_qmp(s, SC_STOP, 0, 0);
		sess_mode(s, MODE_PAUSED);
		break;
	case CTL_ABORT:
		if (!source_stalled(s, t, cs, STALL_SECONDS))
			source_abort(s, t, FAIL_ABORTED, 0, d->reason);
		break;
	}
}

/* Over tls:, the target may want to abort: ask while memory waits or moves. */
static void
source_watch(struct session *s)
{
	if (s->cfg.tls && s->watch_out == 0) {
		s->watch_out = 1;
		ask(s, CONTROL_WATCH, NULL);
	}
}

/* The monitor's connection closed: connect again, or give up. */
void
source_reconnect(struct session *s, const struct sess_event *ev)
{
	sess_log(s, 2, "source QEMU %s: %s: connecting again",
	    s->cfg.qmp_path, ev->reason != NULL ? ev->reason : "closed");
	s->back_to = s->state;
	s->reconnect_deadline = ev->t + RECONNECT_TIMEOUT;
	sess_enter(s, SS_RECONNECT);
	sess_act(s, SA_RECONNECT);
}

/*
 * What became of a migrate resume, in any state: one with no answer may
 * still be run by QEMU, and a resume QEMU took may still connect.
 */
static void
source_resume_done(struct session *s, const struct sess_event *ev)
{
	struct sess_recover *r = &s->recover;

	if (r->resume_out > 0)
		r->resume_out--;
	r->resume_done_t = ev->t;
	if (ev->outcome == SO_NO_ANSWER)
		r->unanswered = 1;
}

/*
 * --recover-timeout passed with QEMU in postcopy-paused: 1 while a resume
 * of ours could still take it on (a 6 then would be false once the target
 * completes).  One not answered yet is waited for; QEMU 7.2 says
 * postcopy-paused until a resume's connect completes, so the sample that
 * decides is asked RETRY_SECONDS after the last answer (a local
 * connect's time, many times over).
 */
static int
source_resume_pending(struct session *s, const struct sess_event *ev)
{
	struct sess_recover *r = &s->recover;

	return r->resume_out > 0 || (r->resume_done_t > 0 &&
	    ev->asked < r->resume_done_t + RETRY_SECONDS);
}

/* Post-copy is paused: the stream broke.  Resume it, or give up. */
static void
source_recover(struct session *s, const struct sess_event *ev)
{
	struct sess_recover	*r = &s->recover;
	double			 t = ev->t;

	if (r->deadline != 0 && t > r->deadline) {
		if (source_resume_pending(s, ev))
			return;
		if (r->unanswered) {
			source_not_known(s);
			sess_fail(s, FAIL_UNKNOWN, "post-copy was not "
			    "recovered within %.0f s, and a migrate resume got "
			    "no answer: QEMU may still resume it, so whether "
			    "the guest completes on the target is not known; "
			    "both QEMUs are left paused",
			    s->cfg.recover_timeout);
			return;
		}
	}
	if (sess_recover_lost(s, t, "both QEMUs paused in postcopy-paused; "
	    "recovering", "both QEMUs are")) {
		source_end(s, PHASE_FAILED);
		return;
	}
	if (t - r->last_try < RETRY_SECONDS)
		return;
	/*
	 * Over tls:, resume only once the target says its QEMU listens: a
	 * resume that finds no one leaves QEMU 7.2 stuck in postcopy-recover
	 * for good.  The question waits in the control connection while the
	 * network is down and is answered when it is back.
	 */
	if (s->cfg.tls && !r->ready) {
		if (!r->asked) {
			r->asked = 1;
			ask(s, CONTROL_RESUME, NULL);
		}
		return;
	}
	r->ready = 0;
	r->last_try = t;
	r->resume_out++;
	sess_qmp(s, SC_MIGRATE_RESUME, 0, 0);
}

/*
 * An abort: requested (signal, `qmigrate abort`, the target's abort), or
 * the controller's or the deadline's (requested 0), or a stalled stream
 * (why FAIL_DATA).  Before memory moves it ends at once (the mirrors are
 * cancelled); in pre-copy, and in the switchover's pause this run holds
 * (switchover_held_ours: kept until QEMU waits there), it cancels and
 * waits for QEMU to say cancelled; once the switchover went on, post-copy
 * started, or QEMU completed, it is refused and the status says why.
 * States that cannot act yet keep it pending.
 */
void
source_abort(struct session *s, double t, enum mig_failure why,
    int requested, const char *reason)
{
	if (switchover_held_ours(s)) {
		if (!s->pause_seen) {
			/* Stopped for the switchover: QEMU waits in
			 * pre-switchover next, where the cancel lands. */
			sess_log(s, 1, "the abort waits for the source QEMU's "
			    "pre-switchover: the guest is stopped for the "
			    "switchover, whose device state leaves only on "
			    "migrate-continue");
			sess_pend_abort(s, why, requested, reason);
			return;
		}
		source_cancel(s, t, why, requested, reason);
		return;
	}
	switch (s->state) {
	case SS_SETUP:
	case SS_MIRROR_START:
	case SS_RECONNECT:
		sess_pend_abort(s, why, requested, reason);
		return;
	case SS_POSTCOPY:
	case SS_RECOVER:
	case SS_SWITCHOVER:
	case SS_CONFIRM:
	case SS_CPR_HANDOFF:
	case SS_CPR_QUIT:
	case SS_CPR_EXEC:
		if (requested)
			sess_abort_requested(s);
		sess_abort_status(s, ABORT_FAILED);
		sess_note(s, "abort refused: %s (%s)", s->cfg.cpr && s->state ==
		    SS_SWITCHOVER ? "the old QEMU stopped the guest for the "
		    "switchover: its device state may already be the new "
		    "QEMU's, which runs the guest on the same memory; the "
		    "update ends as QEMU ends it" : s->cfg.cpr ?
		    "the old QEMU completed the update: the guest is the new "
		    "QEMU's" : s->state == SS_SWITCHOVER ? "the source QEMU "
		    "stopped the guest for the switchover and the target may "
		    "already load it: the migration's outcome is awaited" :
		    s->state == SS_CONFIRM ?
		    "QEMU completed the migration and the target is "
		    "confirming the guest" : "post-copy has started and the "
		    "target already holds the guest", reason);
		sess_publish(s, "abort");
		return;
	case SS_CANCELLING:
	case SS_UNCANCELLED:
	case SS_FINISHING:
	case SS_DONE:
		if (requested)
			sess_log(s, 1, "abort already under way: %s", reason);
		return;
	case SS_OFFER:
	case SS_MIRROR:
		/* No memory moved: nothing to cancel in QEMU. */
		if (requested)
			sess_abort_requested(s);
		sess_log(s, 2, "aborting: %s", reason);
		if (why != FAIL_DATA)
			sess_abort_status(s, ABORT_SUCCEEDED);
		if (s->cfg.tls && why != FAIL_DATA)
			ask(s, CONTROL_ABORT, reason);
		sess_publish(s, "abort");
		sess_fail(s, why, "%s%s", reason, s->state == SS_OFFER ?
		    " (before the migration started)" : " (while the disks "
		    "were copied: no memory had moved)");
		return;
	default:
		break;
	}
	if (s->state == SS_PRECOPY && s->stop_unseen) {
		sess_log(s, 1, "the abort waits for the source QEMU's run "
		    "state: its monitor was connected again, and a STOP of "
		    "the switchover may have gone with the old connection");
		sess_pend_abort(s, why, requested, reason);
		s->pending.since = t;
		return;
	}
	if (s->state == SS_PRECOPY && !s->cfg.cpr && !s->cfg.cpr_exec &&
	    s->query_out != 0 && t - s->query_out >= STALE_VIEW_SECONDS) {
		sess_log(s, 1, "the abort waits for the source QEMU's answer "
		    "to a query-migrate asked %.1f s ago: QEMU may have "
		    "stopped the guest for the switchover meanwhile",
		    t - s->query_out);
		sess_pend_abort(s, why, requested, reason);
		s->pending.since = t;
		return;
	}
	source_cancel(s, t, why, requested, reason);
}

/* The abort carried out in QEMU: migrate_cancel, watched to its end. */
static void
source_cancel(struct session *s, double t, enum mig_failure why,
    int requested, const char *reason)
{
	if (requested)
		sess_abort_requested(s);
	sess_log(s, 2, "aborting: %s%s", reason, s->state == SS_SWITCHOVER ?
	    " (the source QEMU waits in pre-switchover: no device state "
	    "has left)" : "");
	sess_failure(s, why, "%s", reason);
	if (why != FAIL_DATA)
		sess_abort_status(s, ABORT_ABORTING);
	sess_publish(s, "abort");
	/* The target learns it too, unless the stream merely stalled. */
	if (s->cfg.tls && why != FAIL_DATA)
		ask(s, CONTROL_ABORT, reason);
	sess_qmp(s, SC_CANCEL, 0, 0);
	sess_enter(s, SS_CANCELLING);
	s->cancel_deadline = t + CANCEL_TIMEOUT;
	sess_timer(s, STIMER_CANCEL, CANCEL_TIMEOUT);
	sess_act(s, SA_POLL);
}

/* An abort kept while the state could not act, now that it can. */
static void
source_pending_abort(struct session *s, double t)
{
	struct sess_pending_abort p = s->pending;

	if (!p.asked)
		return;
	memset(&s->pending, 0, sizeof s->pending);
	if (p.why != FAIL_DATA && s->abort == ABORT_ABORTING)
		s->abort = ABORT_NONE;	/* source_abort says it again */
	source_abort(s, t, p.why, 0, p.reason);
}

/*
 * The --timeout deadline with --timeout-action postcopy or pause: the
 * migration is finished, not cancelled.  The action waits for the next
 * pre-copy sample (asked for now), so that it is taken on QEMU's figures
 * and recorded with them as the timeout's decision; where memory does not
 * move yet (setup, the offer, the disks, a reconnect, a STOP not yet
 * explained) it waits the same way.  Past pre-copy (post-copy, the
 * switchover, a cancel, the end) there is nothing left to finish.
 */
static void
source_deadline_finish(struct session *s)
{
	const char *word = s->cfg.timeout_action == TIMEOUT_POSTCOPY ?
	    "postcopy" : "pause";

	switch (s->state) {
	case SS_SETUP:
	case SS_OFFER:
	case SS_MIRROR_START:
	case SS_MIRROR:
	case SS_PRECOPY:
	case SS_RECONNECT:
		break;
	case SS_SWITCHOVER:
		if (!s->switchover_sure)
			break;
		/* FALLTHROUGH */
	default:
		sess_log(s, 1, "the --timeout deadline of %.0f s passed: "
		    "nothing to finish (--timeout-action %s): %s",
		    s->cfg.timeout, word, s->state == SS_SWITCHOVER ?
		    "the switchover began" : s->mode == MODE_POSTCOPY ||
		    s->state == SS_POSTCOPY || s->state == SS_RECOVER ?
		    "post-copy has started" : "the migration is ending");
		return;
	}
	if (s->cfg.timeout_action == TIMEOUT_PAUSE &&
	    s->mode == MODE_PAUSED) {
		sess_log(s, 1, "the --timeout deadline of %.0f s passed: the "
		    "guest is already paused for the switchover",
		    s->cfg.timeout);
		return;
	}
	sess_log(s, 1, "the --timeout deadline of %.0f s passed: finishing "
	    "the migration (--timeout-action %s)", s->cfg.timeout, word);
	if (s->finish_due != TIMEOUT_ABORT)
		return;		/* an operator's finish is under way */
	s->finish_due = s->cfg.timeout_action;
	s->finish_by = ASKER_TIMEOUT;
	if (s->state == SS_PRECOPY)
		sess_act(s, SA_POLL);
}

/* The answer to `qmigrate switchover` the document carries. */
static void
switchover_answer(struct session *s, enum sess_switchover_answer answer,
    enum sess_finish f, const char *reason)
{
	struct sess_action *a = sess_act_why(s, SA_ST_SWITCHOVER, reason);

	a->value = answer;
	a->value2 = (int)f;
}

/*
 * Carries out a finish that was due (source_deadline_finish, or an
 * operator's source_switchover_asked) on a pre-copy sample cs: post-copy,
 * or the guest paused, as the controller's decision of the same name
 * does; recorded as asked by the timeout or the operator.
 */
static void
source_finish_now(struct session *s, double t, const struct ctl_sample *cs)
{
	struct ctl_decision	d;
	char			why[96];
	int			operator = s->finish_by == ASKER_OPERATOR;

	memset(&d, 0, sizeof d);
	if (operator)
		snprintf(why, sizeof why, "an operator asked to finish now "
		    "(qmigrate switchover)");
	else
		snprintf(why, sizeof why, "the --timeout deadline of %.0f s "
		    "passed", s->cfg.timeout);
	if (s->finish_due == TIMEOUT_POSTCOPY) {
		d.action = CTL_POST_COPY;
		snprintf(d.reason, sizeof d.reason, "%s with %.1f MiB left: "
		    "post-copy%s", why, (double)cs->remaining / (1024 * 1024),
		    operator ? "" : " (--timeout-action postcopy)");
	} else {
		d.action = CTL_PAUSE;
		snprintf(d.reason, sizeof d.reason, "%s with %.1f MiB left: "
		    "the guest paused so that pre-copy converges%s", why,
		    (double)cs->remaining / (1024 * 1024),
		    operator ? "" : " (--timeout-action pause)");
	}
	if (operator)
		switchover_answer(s, SWA_STARTED, d.action == CTL_POST_COPY ?
		    FINISH_POSTCOPY : FINISH_PAUSE, d.reason);
	s->finish_due = TIMEOUT_ABORT;
	source_decide(s, t, &d, cs, s->finish_by);
}

/*
 * Why an operator's switchover that finishes with f cannot be carried
 * out now (NULL: it can).  Only pre-copy can be finished so.
 */
static const char *
switchover_refusal(const struct session *s, enum sess_finish f,
    enum sess_finish asked)
{
	if (s->cfg.cpr)
		return "an update (cpr-transfer or cpr-exec) copies no RAM: "
		    "there is no post-copy or pause to finish it with";
	if (s->state == SS_POSTCOPY || s->state == SS_RECOVER ||
	    s->mode == MODE_POSTCOPY)
		return "post-copy has already started";
	if (s->state == SS_SWITCHOVER || s->state == SS_CONFIRM)
		return "past the point of no return: the source QEMU stopped "
		    "the guest for the switchover";
	if (f == FINISH_POSTCOPY && s->was_paused)
		return "the guest was paused before the migration began: "
		    "pre-copy converges as it is, without post-copy";
	if (s->state == SS_CANCELLING || s->state == SS_UNCANCELLED ||
	    s->pending.asked)
		return "an abort is under way";
	if (s->state == SS_FINISHING || s->state == SS_DONE)
		return "the migration is ending";
	if (s->state == SS_RECONNECT)
		return "the source QEMU's monitor is being reconnected: ask "
		    "again";
	if (s->state != SS_PRECOPY)
		return "no memory moves yet: ask once the migration is in "
		    "pre-copy";
	if (s->finish_due != TIMEOUT_ABORT)
		return "a switchover is already under way";
	if (s->mode == MODE_PAUSED)
		return "the guest is already paused for the switchover";
	if (f == FINISH_POSTCOPY && !s->cfg.postcopy)
		return "post-copy was not negotiated (postcopy-ram is off: "
		    "migrationConfiguration.capabilities says why)";
	if (f == FINISH_PAUSE && !s->cfg.may_pause)
		return asked == FINISH_AUTO ? "post-copy was not negotiated, "
		    "and pausing the guest is a workload disruption the "
		    "settings do not allow (allowWorkloadDisruption)" :
		    "pausing the guest is a workload disruption the settings "
		    "do not allow (allowWorkloadDisruption)";
	return NULL;
}

/*
 * `qmigrate switchover`: an operator asks the migration to finish now
 * (virsh migrate-postcopy, Nova's force-complete), by post-copy or by a
 * pause (FINISH_AUTO: post-copy where negotiated, else the pause).  The
 * answer goes into the document at once (SA_ST_SWITCHOVER): refused with
 * the reason (a note too), or accepted; an accepted one is carried out on
 * the next pre-copy sample, as the deadline's is (asked for now), and
 * recorded as the operator's decision (answered "started" then).
 */
static void
source_switchover_asked(struct session *s, const struct sess_event *ev)
{
	enum sess_finish	 f = ev->finish;
	const char		*why;

	if (f == FINISH_AUTO)
		f = s->cfg.postcopy ? FINISH_POSTCOPY : FINISH_PAUSE;
	why = switchover_refusal(s, f, ev->finish);
	if (why != NULL) {
		sess_note(s, "switchover refused: %s", why);
		switchover_answer(s, SWA_REFUSED, f, why);
		sess_publish(s, "switchover");
		return;
	}
	sess_log(s, 1, "an operator asked to finish now: %s",
	    f == FINISH_POSTCOPY ? "post-copy" : "the guest paused");
	switchover_answer(s, SWA_ACCEPTED, f, NULL);
	sess_publish(s, "switchover");
	s->finish_due = f == FINISH_POSTCOPY ? TIMEOUT_POSTCOPY : TIMEOUT_PAUSE;
	s->finish_by = ASKER_OPERATOR;
	sess_act(s, SA_POLL);
}

/* Signals, the deadline, the target's abort: one entry. */
void
source_abort_event(struct session *s, const struct sess_event *ev)
{
	char reason[SESS_REASON_MAX];

	if (ev->kind == SEV_SIGNAL) {
		snprintf(reason, sizeof reason, "abort requested (%s)",
		    sess_signal_name(ev->signum));
		source_abort(s, ev->t, FAIL_ABORTED, 1, reason);
	} else if (s->cfg.timeout_action != TIMEOUT_ABORT && !s->cfg.cpr) {
		source_deadline_finish(s);
	} else {
		snprintf(reason, sizeof reason, "the --timeout deadline of "
		    "%.0f s passed before the migration completed",
		    s->cfg.timeout);
		source_abort(s, ev->t, FAIL_ABORTED, 0, reason);
	}
}

/* The memory starts moving (migrate), or the disks first. */
static void
source_start_memory(struct session *s)
{
	if (s->cfg.disks) {
		sess_enter(s, SS_MIRROR_START);
		sess_job(s, SJ_START_MIRRORS, 0);
		return;
	}
	sess_qmp(s, SC_MIGRATE, 0, 0);
	s->migrate_sent = 1;
	if (s->cfg.cpr && !s->cfg.cpr_exec) {
		/* The new QEMU opens its monitor once migrate reached it. */
		sess_enter(s, SS_CPR_ATTACH);
		sess_act(s, SA_NEW_CONNECT)->seconds = NEW_QEMU_APPEARS;
		return;
	}
	sess_enter(s, SS_PRECOPY);
	source_watch(s);
}

/* ---- SS_SETUP ------------------------------------------------------ */

/*
 * A setup that took over the status file's record (re-attach, already
 * done, close): the session goes on from what that record says: the mode
 * (a guest the killed run paused is resumed at the end), its abort, and
 * the mirrors QEMU still runs for it (cfg.disks: the executor found them),
 * which are ended with the migration.
 */
static void
setup_record(struct session *s, const struct sess_event *ev)
{
	s->mode = ev->mode;	/* the document already says it */
	s->abort = ev->abort;
	s->abort_requested = ev->abort_requested;
	s->mirrors_out = s->cfg.disks;
}

/*
 * QEMU completed the record's migration while no qmigrate watched it.
 * Over unix:/tcp: that is the success.  Over tls: (fail FAIL_UNKNOWN: the
 * record holds no "running" from the target) the target is asked, as the
 * killed run would have (the mirrors it left end first): its "running"
 * is the success, "fenced" resumes the guest here, anything else, or no
 * target to ask, leaves it paused here and not known (8).
 */
static void
setup_already_done(struct session *s, const struct sess_event *ev)
{
	struct mig_info mi;

	if (s->cfg.cpr_exec && ev->fail == FAIL_NONE) {
		cpr_exec_rerun(s, ev);
		return;
	}
	if (s->cfg.cpr && ev->fail == FAIL_NONE) {
		/* The guest is the new QEMU's if it runs there: ask it. */
		s->old_gone = ev->qemu_gone;
		s->was_paused = ev->rec_paused;	/* audit N14 */
		sess_note(s, "re-attached to update %s after the old QEMU had "
		    "%s: asking the new QEMU whether the guest runs there",
		    ev->uid != NULL ? ev->uid : "?", ev->qemu_gone ? "quit "
		    "(its monitor is gone)" : "completed it");
		s->t0 = ev->t;
		s->saw_active = 1;
		sess_phase(s, PHASE_RUNNING);
		cpr_handoff(s);
		return;
	}
	if (ev->fail == FAIL_UNKNOWN && s->cfg.tls) {
		s->was_paused = ev->rec_paused;	/* audit N14 */
		sess_note(s, "re-attached to migration %s after QEMU had "
		    "completed it: asking the target whether the guest runs "
		    "there", ev->uid != NULL ? ev->uid : "?");
		s->t0 = ev->t;
		s->saw_active = 1;
		sess_phase(s, PHASE_RUNNING);
		memset(&mi, 0, sizeof mi);
		mi.status = QMS_COMPLETED;
		mi.has_total_time = 1;	/* QEMU's figures already */
		source_completed(s, &mi);
		return;
	}
	if (ev->fail != FAIL_NONE) {
		if (s->abort == ABORT_ABORTING)
			sess_abort_status(s, ABORT_FAILED);
		sess_fail(s, ev->fail, "%s", ev->reason);
		return;
	}
	sess_note(s, "re-attached to migration %s after QEMU had completed "
	    "it: the guest left this QEMU, nothing more to do",
	    ev->uid != NULL ? ev->uid : "?");
	source_succeed(s);
}

/*
 * Over tls: QEMU failed the record's migration while no qmigrate watched
 * it, maybe after the device state left: the target is asked, as
 * switchover_failed asks it, and its answer decides (swfail_answer):
 * fenced, 4; running, both run it, 8; no answer, 8 (ev->reason says so).
 */
static void
close_record_ask(struct session *s, const struct sess_event *ev)
{
	sess_note(s, "re-attached to migration %s after QEMU had failed it "
	    "(%s): asking the target %s whether the guest runs there",
	    ev->uid != NULL ? ev->uid : "?", ev->unwatched_fail, s->cfg.peer);
	s->t0 = ev->t;
	s->saw_active = 1;
	sess_phase(s, PHASE_RUNNING);
	s->swfail = SWFAIL_UNWATCHED;
	snprintf(s->swfail_desc, sizeof s->swfail_desc, "%s",
	    ev->unwatched_fail);
	sess_enter(s, SS_CONFIRM);
	ask_completed(s);
	sess_timer(s, STIMER_CONFIRM, CONFIRM_TIMEOUT);
}

/* An abort asked for during the setup, now that it is over. */
static void
setup_then_abort(struct session *s, const struct sess_event *ev)
{
	switch (ev->setup) {
	case SETUP_FAILED:
	case SETUP_CLOSE_RECORD:
		/* Not carried out where the guest's place is not known. */
		sess_abort_status(s, ev->fail == FAIL_UNKNOWN ? ABORT_FAILED :
		    ABORT_SUCCEEDED);
		sess_fail(s, ev->fail, "%s", ev->reason);
		return;
	case SETUP_ALREADY_DONE:
		sess_abort_status(s, ABORT_FAILED);
		sess_note(s, "abort refused: QEMU had already completed the "
		    "migration (%s)", s->pending.reason);
		memset(&s->pending, 0, sizeof s->pending);
		setup_already_done(s, ev);
		return;
	case SETUP_FRESH:
		/* Nothing started: the guest never left the source. */
		sess_abort_status(s, ABORT_SUCCEEDED);
		sess_fail(s, s->pending.why,
		    "%s (before the migration started)",
		    s->pending.reason);
		return;
	case SETUP_REATTACH:
		break;
	}
}

/*
 * A re-attach that finds QEMU past the point of no return (status device
 * or pre-switchover, or run state finish-migrate: 7.2 says active): an
 * abort the killed run had under way is refused, not cancelled.
 */
static int
reattach_at_switchover(const struct session *s, const struct sess_event *ev)
{
	if (s->cfg.cpr || s->state != SS_PRECOPY)
		return 0;
	return (ev->ri != NULL && ev->ri->state == RUN_FINISH_MIGRATE) ||
	    (ev->reason != NULL && (strcmp(ev->reason, "device") == 0 ||
	    strcmp(ev->reason, "pre-switchover") == 0));
}

/*
 * The record says an abort was under way when its qmigrate was killed
 * (cancelling, or watched uncancelled): it is still asked for, so the
 * re-attach cancels again (QEMU takes a second migrate_cancel as the
 * first) and ends as the abort does.  A post-copy cannot be cancelled,
 * nor a switchover (refused there, SS_SWITCHOVER).
 */
static void
setup_abort_goes_on(struct session *s, const struct sess_event *ev)
{
	char reason[SESS_REASON_MAX];

	if ((ev->abort != ABORT_ABORTING && ev->abort != ABORT_FAILED) ||
	    (s->state != SS_PRECOPY && s->state != SS_SWITCHOVER))
		return;
	snprintf(reason, sizeof reason, "the abort under way when migration "
	    "%s lost its qmigrate goes on", ev->uid != NULL ? ev->uid : "?");
	s->abort = ABORT_NONE;		/* source_abort says it again */
	source_abort(s, ev->t, FAIL_ABORTED, ev->abort_requested, reason);
}

static void
setup_done(struct session *s, const struct sess_event *ev)
{
	if (ev->setup != SETUP_FRESH && ev->setup != SETUP_FAILED)
		setup_record(s, ev);
	/*
	 * The killed run of an update set QEMU's mode cpr-exec or
	 * cpr-transfer and its pause-before-switchover (or was about to): a
	 * record of that update closed with the guest on that QEMU puts them
	 * back, as when watched, or a later migrate would exec, or be refused
	 * for want of a cpr channel.  A plain migration's record closed here
	 * puts its pause back (another tool's migrate would wait in it).
	 */
	if (ev->setup == SETUP_CLOSE_RECORD && (!s->cfg.cpr ||
	    ev->mode == (s->cfg.cpr_exec ? MODE_CPR_EXEC : MODE_CPR_TRANSFER)))
		s->cpr_left = 1;
	/*
	 * So did this run's plan, when the setup ends before migrate (its
	 * answer late, a signal or the deadline before the migrate): QEMU
	 * takes the put-back after it, in order (sim-real --update-exec).
	 * And the pre-flight's probe of the mode, put back with no answer.
	 * A plain migration's plan puts back its pause (cpr_reset 1).
	 */
	if ((ev->setup == SETUP_FAILED || ev->setup == SETUP_FRESH) &&
	    ev->cpr_mode_sent)
		s->cpr_left = 1;
	/* And a re-run that re-attaches: the killed run sent migrate. */
	if (ev->setup == SETUP_REATTACH)
		s->cpr_left = 1;
	if (s->pending.asked && ev->setup != SETUP_REATTACH) {
		setup_then_abort(s, ev);
		return;
	}
	switch (ev->setup) {
	case SETUP_FAILED:
		sess_fail(s, ev->fail, "%s", ev->reason);
		return;
	case SETUP_CLOSE_RECORD:
		if (ev->unwatched_fail != NULL && s->cfg.tls) {
			close_record_ask(s, ev);
			return;
		}
		sess_note(s, "this run started no migration: it closed the "
		    "record of the earlier one, which QEMU had ended; run "
		    "migrate again to start a new one");
		if (ev->fail == FAIL_ABORTED)
			sess_abort_status(s, ABORT_SUCCEEDED);
		sess_fail(s, ev->fail != FAIL_NONE ? ev->fail : FAIL_DATA,
		    "%s", ev->reason);
		return;
	case SETUP_ALREADY_DONE:
		setup_already_done(s, ev);
		return;
	case SETUP_REATTACH:
		/* The record's sourceRunState: an update's too (a re-run
		 * that re-attached cont'd the operator's paused guest on
		 * the new QEMU: sim-real --update-exec seed 2575). */
		s->was_paused = ev->rec_paused;
		s->t0 = ev->t;
		s->saw_active = 1;
		sess_enter(s, ev->mode == MODE_POSTCOPY ? SS_POSTCOPY :
		    SS_PRECOPY);
		sess_note(s, "re-attached to migration %s already %s in QEMU",
		    ev->uid != NULL ? ev->uid : "?", ev->reason != NULL ?
		    ev->reason : "under way");
		sess_phase(s, PHASE_RUNNING);
		sess_act(s, SA_POLL);
		if (reattach_at_switchover(s, ev)) {
			s->reattach_stopped = 1;
			switchover_enter(s, ev->t, 1);
		}
		source_pending_abort(s, ev->t);
		setup_abort_goes_on(s, ev);
		if (s->cfg.cpr && !s->cfg.cpr_exec && s->state == SS_PRECOPY)
			cpr_reattach(s);
		return;
	case SETUP_FRESH:
		break;
	}
	/* The migrate this run sends sets its pause (mig-caps.c). */
	s->pause_ours = !s->cfg.cpr;
	/* An operator's pause stays (audit N14): no cont for it, and no
	   pause of ours over it (source_decide). */
	s->was_paused = ev->guest_paused;
	if (s->cfg.cpr)
		sess_mode(s, s->cfg.cpr_exec ? MODE_CPR_EXEC :
		    MODE_CPR_TRANSFER);
	if (s->cfg.tls) {
		sess_phase(s, PHASE_PREPARING_TARGET);
		sess_enter(s, SS_OFFER);
		ask(s, CONTROL_OFFER, NULL);
	} else
		source_start_memory(s);
}

static void
state_setup(struct session *s, const struct sess_event *ev)
{
	switch (ev->kind) {
	case SEV_SETUP_DONE:
		setup_done(s, ev);
		break;
	case SEV_SIGNAL:
	case SEV_DEADLINE:
		source_abort_event(s, ev);
		break;
	default:
		break;
	}
}

/* ---- SS_OFFER ------------------------------------------------------ */

static void
state_offer(struct session *s, const struct sess_event *ev)
{
	const char *why = ev->reason != NULL ? ev->reason : "no reason given";

	switch (ev->kind) {
	case SEV_ANSWER:
		if (ev->question != CONTROL_OFFER)
			break;
		if (ev->answer == ANSWER_READY) {
			sess_phase(s, PHASE_TARGET_READY);
			source_start_memory(s);
		} else if (ev->answer == ANSWER_REFUSED)
			sess_fail(s, FAIL_CONTROL, "target %s refused the "
			    "migration: %s", s->cfg.peer, why);
		else
			sess_fail(s, FAIL_CONTROL, "target %s: %s", s->cfg.peer,
			    why);
		break;
	case SEV_CONTROL_LOST:
		sess_fail(s, FAIL_CONTROL, "target %s: %s", s->cfg.peer, why);
		break;
	case SEV_QMP_CLOSED:
		sess_fail(s, FAIL_CONTROL, "source QEMU %s: %s",
		    s->cfg.qmp_path, why);
		break;
	case SEV_SIGNAL:
	case SEV_DEADLINE:
		source_abort_event(s, ev);
		break;
	default:
		break;
	}
}

/* ---- SS_MIRROR_START ----------------------------------------------- */

static void
state_mirror_start(struct session *s, const struct sess_event *ev)
{
	switch (ev->kind) {
	case SEV_JOB_DONE:
		if (ev->job != SJ_START_MIRRORS)
			break;
		if (!ev->ok) {
			/* The job undid what it did: nothing copies. */
			if (s->pending.asked) {
				sess_abort_status(s, ABORT_SUCCEEDED);
				sess_fail(s, s->pending.why,
				    "%s (the disks' mirrors "
				    "had not started)", s->pending.reason);
			} else
				sess_fail(s, ev->fail != FAIL_NONE ? ev->fail :
				    FAIL_CONTROL, "target %s: %s", s->cfg.peer,
				    ev->reason);
			break;
		}
		s->mirrors_out = 1;
		s->t0 = ev->t;
		if (s->cfg.mirror_timeout > 0)
			s->mirror_deadline = ev->t + s->cfg.mirror_timeout;
		s->mirror_copied = 0;
		s->mirror_moved_t = ev->t;
		sess_phase(s, PHASE_RUNNING);
		sess_enter(s, SS_MIRROR);
		source_watch(s);
		source_pending_abort(s, ev->t);
		break;
	case SEV_SIGNAL:
	case SEV_DEADLINE:
		source_abort_event(s, ev);
		break;
	default:
		break;
	}
}

/* ---- SS_MIRROR ----------------------------------------------------- */

static void
mirror_sample(struct session *s, const struct sess_event *ev)
{
	s->silent_since = 0;
	sess_progress(s, ev->mi, ev->t - s->t0);
	if (ev->disks == DISKS_FAILED) {
		sess_fail(s, FAIL_DATA, "%s", ev->reason != NULL ? ev->reason :
		    "a disk's mirror failed");
		return;
	}
	if (ev->disks != DISKS_READY) {
		/*
		 * A stalled NBD peer: the copy stands still long before the
		 * whole copy's bound (audit D22), and progressTimeout is the
		 * bound the policy gives a migration that makes no progress.
		 */
		if (ev->disks_copied > s->mirror_copied) {
			s->mirror_copied = ev->disks_copied;
			s->mirror_moved_t = ev->t;
		}
		if (s->mirror_deadline > 0 && ev->t > s->mirror_deadline)
			sess_fail(s, FAIL_DATA,
			    "the disks were not in sync within "
			    "%.0f s (completionTimeoutPerGiB)",
			    s->cfg.mirror_timeout);
		else if (s->cfg.stall_timeout > 0 &&
		    ev->t - s->mirror_moved_t > s->cfg.stall_timeout)
			sess_fail(s, FAIL_DATA, "the disks' copy made no "
			    "progress for %.0f s (progressTimeout) at %llu "
			    "bytes copied", ev->t - s->mirror_moved_t,
			    (unsigned long long)s->mirror_copied);
		else {
			source_watch(s);
			sess_publish(s, "progress");
		}
		return;
	}
	sess_note(s, "disks in sync (write-blocking mirrors): migrating "
	    "memory");
	sess_qmp(s, SC_MIGRATE, 0, 0);
	s->migrate_sent = 1;
	sess_enter(s, SS_PRECOPY);
	sess_publish(s, "progress");
}

/* The target's answers while memory waits or moves. */
static void
migrating_answer(struct session *s, const struct sess_event *ev)
{
	char reason[SESS_REASON_MAX];

	if (ev->question == CONTROL_WATCH)
		s->watch_out = 0;
	if (ev->question != CONTROL_WATCH)
		return;
	if (ev->answer == ANSWER_FENCED) {
		/* The target's QEMU failed its load: its reason is ours. */
		snprintf(reason, sizeof reason, "the target %s could not load "
		    "the guest: %s", s->cfg.peer, ev->reason != NULL ?
		    ev->reason : "no reason given");
		source_abort(s, ev->t, FAIL_DATA, 0, reason);
		return;
	}
	if (ev->answer != ANSWER_ABORT) {
		/* The target holds each watch a moment: ask again at once. */
		if (ev->answer == ANSWER_OK && (s->state == SS_MIRROR ||
		    s->state == SS_PRECOPY))
			source_watch(s);
		return;
	}
	snprintf(reason, sizeof reason, "the target %s aborted the migration: "
	    "%s", s->cfg.peer, ev->reason != NULL ? ev->reason :
	    "no reason given");
	source_abort(s, ev->t, FAIL_ABORTED, 1, reason);
}

static void
state_mirror(struct session *s, const struct sess_event *ev)
{
	switch (ev->kind) {
	case SEV_SAMPLE:
		mirror_sample(s, ev);
		break;
	case SEV_ANSWER:
		migrating_answer(s, ev);
		break;
	case SEV_SIGNAL:
	case SEV_DEADLINE:
		source_abort_event(s, ev);
		break;
	case SEV_QMP_CLOSED:
		source_reconnect(s, ev);
		break;
	case SEV_QMP_SILENT:
		if (sess_monitor_silent(s, ev))
			source_give_up(s, "the monitor stopped answering");
		break;
	case SEV_CONTROL_LOST:
		s->watch_out = 0;
		break;
	default:
		break;
	}
}

/* ---- SS_PRECOPY and SS_POSTCOPY ------------------------------------ */

/*
 * migrate got no answer: whether QEMU started it, only QEMU's samples say.
 * Two samples saying "none" settle it (the second was asked after the
 * first was answered, so after QEMU read any migrate sent before it);
 * anything else means it started.  Returns 1 when the sample was used up.
 */
static int
migrate_unanswered(struct session *s, const struct sess_event *ev)
{
	if (!s->migrate_unknown)
		return 0;
	if (ev->mi->status != QMS_NONE) {
		s->migrate_unknown = 0;
		s->migrate_answered = 1;	/* QEMU took it */
		if (s->t0 == 0) {
			s->t0 = ev->t;
			sess_phase(s, PHASE_RUNNING);
		}
		sess_note(s, "QEMU started the migration whose migrate "
		    "command got no answer");
		return 0;
	}
	if (++s->none_since_unknown < 2) {
		sess_act(s, SA_POLL);
		return 1;
	}
	sess_fail(s, FAIL_CONTROL, "source QEMU %s: migrate got no answer and "
	    "QEMU has not started a migration: nothing moved",
	    s->cfg.qmp_path);
	return 1;
}

/*
 * A sample QEMU answered before our migrate's answer was asked before
 * migrate (QEMU answers in order): it tells of the migration before ours
 * (say, the "cancelled" of an earlier one), not of ours.
 */
static int
sample_before_migrate(const struct session *s)
{
	return s->migrate_sent && !s->saw_active && !s->migrate_answered &&
	    !s->migrate_unknown;
}

/*
 * Whether a due finish must wait for a fresher sample than ev
 * (FINISH_FRESH_SECONDS); if so, one is asked for now.
 */
static int
finish_sample_stale(struct session *s, const struct sess_event *ev)
{
	if (ev->t - ev->asked <= FINISH_FRESH_SECONDS ||
	    (s->finish_stale_t != 0 && ev->asked >= s->finish_stale_t))
		return 0;
	s->finish_stale_t = ev->t;
	sess_log(s, 2, "a finish is due, and QEMU's last answer was asked "
	    "%.1f s before it was read: asking again before acting on it",
	    ev->t - ev->asked);
	sess_act(s, SA_POLL);
	return 1;
}

static void
migrating_sample(struct session *s, const struct sess_event *ev)
{
	const struct mig_info	*mi = ev->mi;
	struct ctl_sample	 cs;
	struct ctl_decision	 d;

	if ((s->state == SS_PRECOPY || s->state == SS_CPR_ATTACH) &&
	    sample_before_migrate(s))
		return;

	s->silent_since = 0;
	sample_of(s, ev->t, mi, &cs);
	sess_progress(s, mi, cs.t);
	if (mi->status == QMS_COMPLETED) {
		if (source_completed(s, mi))
			sess_publish(s, "progress");
		return;
	}
	if (terminal(mi)) {
		source_failed(s, ev->t, mi);
		return;
	}
	if (migrate_unanswered(s, ev))
		return;
	/* A broken post-copy is recovered, whatever the disks say. */
	if (mi->status == QMS_POSTCOPY_PAUSED) {
		source_recover(s, ev);
		sess_publish(s, "progress");
		return;
	}
	/*
	 * Recovering already: a re-run re-attached to a resume of the run
	 * before.  SS_RECOVER watches it against --recover-timeout from
	 * here; in SS_POSTCOPY a recovery that never ends was watched for
	 * good (sim-real seed 10307046: a 10.0 source left in
	 * postcopy-recover-setup by a resume whose target was killed).
	 */
	if (mi->status == QMS_POSTCOPY_RECOVER_SETUP ||
	    mi->status == QMS_POSTCOPY_RECOVER) {
		if (sess_recover_lost(s, ev->t, "recovering",
		    "both QEMUs are"))
			source_end(s, PHASE_FAILED);
		else
			sess_publish(s, "progress");
		return;
	}
	if (ev->disks == DISKS_FAILED && s->state == SS_PRECOPY) {
		source_abort(s, ev->t, FAIL_DATA, 0, ev->reason != NULL ?
		    ev->reason : "a disk's mirror failed");
		return;
	}
	if (mi->status == QMS_PRE_SWITCHOVER || mi->status == QMS_DEVICE) {
		s->saw_active = 1;
		if (switchover_seen(s, ev->t, mi)) {
			sess_publish(s, "progress");
			return;
		}
	}
	if (mi->status == QMS_ACTIVE || qemu_mig_status_postcopy(mi->status))
		s->saw_active = 1;
	if (mi->status == QMS_POSTCOPY_ACTIVE ||
	    mi->status == QMS_POSTCOPY_DEVICE) {
		s->postcopy_asked = 0;		/* QEMU switched */
		switchover_past_pause(s, ev->t);
		if (mi->status == QMS_POSTCOPY_ACTIVE)
			s->saw_postcopy_active = 1;
		if (s->mode != MODE_POSTCOPY)
			sess_mode(s, MODE_POSTCOPY);
		if (s->state != SS_POSTCOPY)
			sess_enter(s, SS_POSTCOPY);
	} else if (s->state == SS_POSTCOPY && s->postcopy_asked == 2 &&
	    ev->t - s->postcopy_sent >= RETRY_SECONDS) {
		/* Its answer was lost: QEMU may never have heard it. */
		s->postcopy_sent = ev->t;
		sess_qmp(s, SC_START_POSTCOPY, 0, 0);
	}
	if (s->pending.since != 0) {
		/* An abort waits for QEMU's word of now (source_abort), and
		 * after a reconnect for its run state; past pre-copy it is
		 * refused. */
		if (s->state == SS_PRECOPY && s->stop_unseen &&
		    ev->t - s->stop_asked >= STOP_UNSEEN_RETRY) {
			s->stop_asked = ev->t;
			sess_act(s, SA_QUERY_STATUS);
		}
		if (s->state != SS_PRECOPY || (ev->asked >= s->pending.since &&
		    !s->stop_unseen))
			source_pending_abort(s, ev->t);
		else
			sess_publish(s, "progress");
		return;
	}
	if (mi->status == QMS_ACTIVE && s->state == SS_PRECOPY &&
	    source_stalled(s, ev->t, &cs, s->cfg.stall_timeout)) {
		sess_publish(s, "progress");
		return;
	}
	if (mi->status == QMS_ACTIVE && s->state == SS_PRECOPY &&
	    s->finish_due != TIMEOUT_ABORT && s->mode != MODE_PAUSED) {
		if (!finish_sample_stale(s, ev))
			source_finish_now(s, ev->t, &cs);
	} else if (mi->status == QMS_ACTIVE ||
	    mi->status == QMS_POSTCOPY_ACTIVE) {
		ctl_step(&s->ctl, &cs, &d);
		source_decide(s, ev->t, &d, &cs, ASKER_CONTROLLER);
	}
	if (s->state == SS_PRECOPY)
		source_watch(s);
	sess_publish(s, "progress");
}

/* ---- SS_SWITCHOVER: the point of no return ------------------------- */

/*
 * QEMU stopped the guest's vCPUs for the switchover (sure: its status or
 * run state says so; else a STOP event whose reason query-status is asked
 * for).  From here nothing cancels, but in the pause this run holds
 * (switchover_held_ours): the device state may be on its way, and a
 * target that loads it runs the guest while a cancelled source would
 * resume its own copy (audit N3).
 */
static void
switchover_enter(struct session *s, double t, int sure)
{
	if (s->state != SS_SWITCHOVER) {
		sess_enter(s, SS_SWITCHOVER);
		s->switchover_deadline = t + SWITCHOVER_TIMEOUT;
		sess_timer(s, STIMER_SWITCHOVER, SWITCHOVER_TIMEOUT);
	}
	if (sure && !s->switchover_sure) {
		s->switchover_sure = 1;
		sess_log(s, 1, "source QEMU %s: the switchover began (the "
		    "guest is stopped there): %s", s->cfg.qmp_path,
		    switchover_held_ours(s) ? "an abort still cancels in "
		    "its pre-switchover, until migrate-continue" :
		    "no abort from here");
		/* An abort asked for meanwhile is refused now, or kept for
		 * the pause. */
		source_pending_abort(s, t);
	}
}

/*
 * The switchover of a migration this run started, whose pause this run
 * set, and no migrate-continue sent: QEMU stopped the guest and waits in
 * pre-switchover (or is about to), where only migrate-continue or a
 * cancel lets it go on.  A cancel there wakes the pause under the BQL,
 * and QEMU fails the migration before any device state leaves
 * (migration_maybe_pause), the guest resumed here only.
 */
static int
switchover_held_ours(const struct session *s)
{
	return s->state == SS_SWITCHOVER && s->pause_ours &&
	    s->continue_sent == 0;	/* pause_ours: never an update's */
}

/*
 * QEMU says device or completed, the device state sent or on its way,
 * with no migrate-continue of ours: someone else's let it go on (another
 * monitor's), and the pause holds no abort any more: one kept for it is
 * refused now.
 */
static void
switchover_past_pause(struct session *s, double t)
{
	if (!s->pause_ours || s->continue_sent != 0)
		return;
	s->pause_ours = 0;
	sess_log(s, 1, "source QEMU %s went on past its pre-switchover "
	    "without this run's migrate-continue: no abort from here",
	    s->cfg.qmp_path);
	if (s->state == SS_SWITCHOVER)
		source_pending_abort(s, t);
}

/*
 * pre-switchover waits for migrate-continue (someone set QEMU's
 * pause-before-switchover): an abort kept for it cancels there; else,
 * past the point of no return, go on.
 */
static void
switchover_continue(struct session *s, double t)
{
	if (switchover_held_ours(s)) {
		s->pause_seen = 1;
		source_pending_abort(s, t);
		if (s->state != SS_SWITCHOVER)
			return;		/* cancelled in the pause */
	}
	if (s->continue_sent != 0 && t - s->continue_sent < RETRY_SECONDS)
		return;
	s->continue_sent = t > 0 ? t : 1e-9;
	sess_qmp(s, SC_MIGRATE_CONTINUE, 0, 0);
}

/*
 * A sample says pre-switchover or device.  Returns 1 when it was used up
 * (pre-copy turned into the switchover; post-copy's start continued).
 */
static int
switchover_seen(struct session *s, double t, const struct mig_info *mi)
{
	if (s->state == SS_POSTCOPY) {
		/* Post-copy's start pauses there too; abort is refused. */
		if (mi->status == QMS_PRE_SWITCHOVER)
			switchover_continue(s, t);
		else
			switchover_past_pause(s, t);
		return 1;
	}
	/* An update's old QEMU may get there before the new one answered
	 * migrate-incoming (CPR_ATTACH): that answer no longer matters. */
	if (s->state != SS_PRECOPY && s->state != SS_CPR_ATTACH)
		return 0;
	if (mi->status == QMS_DEVICE)
		switchover_past_pause(s, t);
	switchover_enter(s, t, 1);
	if (mi->status == QMS_PRE_SWITCHOVER)
		switchover_continue(s, t);
	return 1;
}

/*
 * QEMU failed the migration after the point of no return.  It resumed the
 * guest by itself (vm_was_running) unless a decision of ours had paused
 * it.  Where the target's word came (the SHUT's error: "Sibling indicated
 * error"), or the stream and its return path are one unix socket (no SHUT
 * before it closed: the target did not finish its load), the guest is the
 * source's.  Over tls: (the return path qmigrate leaves off there,
 * opened all the same by post-copy's capability: migrate_fd_connect) the
 * two proxies stand between the QEMUs: the target's QEMU runs the guest
 * before it sends its SHUT
 * (process_incoming_migration_bh: vm_start, then the state's destroy),
 * and a proxy that ends then takes it: the target is asked (SS_CONFIRM,
 * swfail_answer).  Over tcp: a connection lost in the last round trip may
 * have taken the target's "loaded" with it: not known.
 */
static void
switchover_failed(struct session *s, const struct mig_info *mi)
{
	const char *desc = mi->error_desc[0] != '\0' ? mi->error_desc :
	    "no reason given";

	if (cpr_exec_refused(s, desc))
		return;
	if (s->cfg.cpr) {
		/* No return path: the old QEMU could not write it all. */
		sess_fail(s, FAIL_DATA, "the old QEMU %s failed the "
		    "switchover (%s): it runs the guest again", s->cfg.qmp_path,
		    desc);
		return;
	}
	if (s->cfg.unix_stream ||
	    strstr(desc, "Sibling indicated error") != NULL) {
		sess_fail(s, FAIL_DATA, "the target %s did not load the guest "
		    "(%s): it runs on the source again", s->cfg.peer, desc);
		return;
	}
	if (s->cfg.tls) {
		sess_log(s, 1, "source QEMU %s failed the switchover (%s) "
		    "without the target's word: asking the target %s whether "
		    "it runs the guest", s->cfg.qmp_path, desc, s->cfg.peer);
		s->swfail = SWFAIL_SWITCHOVER;
		snprintf(s->swfail_desc, sizeof s->swfail_desc, "%s", desc);
		sess_enter(s, SS_CONFIRM);
		ask_completed(s);
		sess_timer(s, STIMER_CONFIRM, CONFIRM_TIMEOUT);
		return;
	}
	if (s->failure != FAIL_NONE)
		sess_clear_failure(s);
	sess_fail(s, FAIL_UNKNOWN, "source QEMU %s failed the switchover to "
	    "%s (%s) without the target's word: the target may have loaded "
	    "and started the guest, and the source QEMU resumed its own copy; "
	    "where the guest runs is not known: look at the target QEMU, and "
	    "quit the source QEMU if the guest runs there", s->cfg.qmp_path,
	    s->cfg.peer, desc);
}

/* The switchover did not end in time: not known (both may yet run it). */
static void
switchover_late(struct session *s)
{
	char why[SESS_REASON_MAX];

	snprintf(why, sizeof why, "the switchover to %s did not end within "
	    "%.0f s (the guest stopped here, the target's word awaited)",
	    s->cfg.peer, SWITCHOVER_TIMEOUT);
	source_give_up(s, why);
}

static void
switchover_sample(struct session *s, const struct sess_event *ev)
{
	const struct mig_info *mi = ev->mi;

	s->silent_since = 0;
	sess_progress(s, mi, ev->t - s->t0);
	if (mi->status == QMS_COMPLETED || mi->status == QMS_DEVICE)
		switchover_past_pause(s, ev->t);
	if (mi->status == QMS_COMPLETED) {
		if (source_completed(s, mi))
			sess_publish(s, "progress");
		return;
	}
	if (mi->status == QMS_FAILED || mi->status == QMS_CANCELLED) {
		switchover_failed(s, mi);
		return;
	}
	if (qemu_mig_status_postcopy(mi->status)) {
		/* QEMU switched to post-copy: the target holds the guest. */
		if (mi->status != QMS_POSTCOPY_DEVICE)
			s->saw_postcopy_active = 1;
		sess_mode(s, MODE_POSTCOPY);
		sess_enter(s, SS_POSTCOPY);
		sess_publish(s, "progress");
		return;
	}
	if (mi->status == QMS_PRE_SWITCHOVER || mi->status == QMS_DEVICE)
		switchover_enter(s, ev->t, 1);
	if (mi->status == QMS_PRE_SWITCHOVER) {
		switchover_continue(s, ev->t);
		if (s->state != SS_SWITCHOVER)
			return;		/* cancelled in the pause */
	}
	if (ev->t >= s->switchover_deadline) {
		switchover_late(s);
		return;
	}
	sess_publish(s, "progress");
}

/*
 * query-status after a STOP event: finish-migrate is the switchover; any
 * other state (an operator's stop, an I/O error, running again) is not,
 * and pre-copy goes on, with an abort asked for meanwhile.
 */
static void
switchover_run_state(struct session *s, const struct sess_event *ev)
{
	s->stop_unseen = 0;	/* what it waited for */
	if (s->switchover_sure)
		return;
	if (ev->ri->state == RUN_FINISH_MIGRATE) {
		switchover_enter(s, ev->t, 1);
		return;
	}
	sess_enter(s, SS_PRECOPY);
	sess_act(s, SA_POLL);
	source_pending_abort(s, ev->t);
}

static void
state_switchover(struct session *s, const struct sess_event *ev)
{
	switch (ev->kind) {
	case SEV_SAMPLE:
		switchover_sample(s, ev);
		break;
	case SEV_RUN_STATE:
		switchover_run_state(s, ev);
		break;
	case SEV_QMP_DONE:
		if (ev->outcome == SO_ANSWERED)
			break;
		if (ev->cmd == SC_MIGRATE_CONTINUE && ev->outcome ==
		    SO_REFUSED)
			sess_log(s, 1, "migrate-continue: %s", ev->reason);
		if (!s->switchover_sure && ev->outcome == SO_NO_ANSWER)
			sess_act(s, SA_QUERY_STATUS);
		sess_act(s, SA_POLL);
		break;
	case SEV_RESUMED:
		/* QEMU runs the guest again: its migration ended here. */
		sess_act(s, SA_POLL);
		break;
	case SEV_ANSWER:
		migrating_answer(s, ev);
		break;
	case SEV_SIGNAL:
	case SEV_DEADLINE:
		if (!s->switchover_sure && (ev->kind == SEV_SIGNAL ||
		    s->cfg.timeout_action == TIMEOUT_ABORT || s->cfg.cpr)) {
			/* Kept until query-status says why QEMU stopped. */
			char reason[SESS_REASON_MAX];

			if (ev->kind == SEV_SIGNAL)
				snprintf(reason, sizeof reason, "abort "
				    "requested (%s)",
				    sess_signal_name(ev->signum));
			else
				snprintf(reason, sizeof reason, "the "
				    "--timeout deadline of %.0f s passed "
				    "before the migration completed",
				    s->cfg.timeout);
			sess_pend_abort(s, FAIL_ABORTED, ev->kind ==
			    SEV_SIGNAL, reason);
			break;
		}
		source_abort_event(s, ev);
		break;
	case SEV_QMP_CLOSED:
		if (!cpr_exec_switchover_closed(s, ev))
			source_reconnect(s, ev);
		break;
	case SEV_QMP_SILENT:
		if (sess_monitor_silent(s, ev))
			source_give_up(s, "the monitor stopped answering "
			    "during the switchover");
		break;
	case SEV_CONTROL_LOST:
		s->watch_out = 0;
		break;
	case SEV_TIMER:
		if (ev->timer == STIMER_SWITCHOVER &&
		    ev->t >= s->switchover_deadline)
			switchover_late(s);
		break;
	default:
		break;
	}
}

/*
 * query-status on the monitor connected again (stop_unseen): finish-migrate
 * is the switchover whose STOP went with the old connection, and an abort
 * kept meanwhile is refused; any other state lets it go on as in pre-copy
 * (on a stale view, it still waits for a sample asked after it).
 */
static void
reconnect_run_state(struct session *s, const struct sess_event *ev)
{
	s->stop_unseen = 0;
	if (s->state != SS_PRECOPY)
		return;
	if (ev->ri->state == RUN_FINISH_MIGRATE) {
		switchover_enter(s, ev->t, 1);
		return;
	}
	source_pending_abort(s, ev->t);
}

/* What QEMU made of a command of ours while memory moves. */
static void
migrating_cmd_done(struct session *s, const struct sess_event *ev)
{
	const char *why = ev->reason != NULL ? ev->reason : "no reason given";

	if (ev->outcome == SO_ANSWERED) {
		if (ev->cmd == SC_MIGRATE && (s->state == SS_PRECOPY ||
		    s->state == SS_CPR_ATTACH) && !s->saw_active &&
		    s->t0 == 0) {
			s->t0 = ev->t;
			sess_phase(s, PHASE_RUNNING);
			sess_log(s, 1, "migrating %s to %s (%s controller)",
			    s->cfg.qmp_path, s->cfg.peer,
			    ctl_kind_name(s->ctl.kind));
		}
		return;
	}
	if (ev->outcome == SO_NO_ANSWER) {
		/* Not a refusal: QEMU may have done it; its samples say. */
		sess_log(s, 2, "source QEMU %s: %s got no answer (%s): asking "
		    "QEMU what it did", s->cfg.qmp_path,
		    sess_cmd_name(ev->cmd), why);
		if (ev->cmd == SC_MIGRATE && !s->saw_active) {
			s->migrate_unknown = 1;
			s->none_since_unknown = 0;
		} else if (ev->cmd == SC_START_POSTCOPY &&
		    s->postcopy_asked == 1)
			s->postcopy_asked = 2;
		sess_act(s, SA_POLL);
		return;
	}
	if (ev->cmd == SC_MIGRATE && !s->saw_active) {
		sess_fail(s, FAIL_CONTROL, "source QEMU %s: migrate: %s",
		    s->cfg.qmp_path, why);
		return;
	}
	if (ev->cmd == SC_START_POSTCOPY && s->postcopy_asked != 0 &&
	    s->state == SS_POSTCOPY) {
		/* QEMU refused: it stays in pre-copy, and the session too. */
		s->postcopy_asked = 0;
		sess_note(s, "migrate-start-postcopy refused: %s; pre-copy "
		    "goes on", why);
		sess_enter(s, SS_PRECOPY);
		return;
	}
	sess_log(s, 2, "source QEMU refused %s: %s", sess_cmd_name(ev->cmd),
	    why);
}

static void
state_migrating(struct session *s, const struct sess_event *ev)
{
	switch (ev->kind) {
	case SEV_SAMPLE:
		migrating_sample(s, ev);
		break;
	case SEV_STOPPED:
		/* Why the vCPUs stopped, query-status says; until then the
		 * switchover may have begun. */
		if (s->state == SS_PRECOPY && !s->cfg.cpr &&
		    s->mode != MODE_PAUSED) {
			switchover_enter(s, ev->t, 0);
			sess_act(s, SA_QUERY_STATUS);
		}
		break;
	case SEV_RUN_STATE:
		if (s->postfail == PF_ASKED)
			postcopy_run_state(s, ev);
		else if (s->stop_unseen)
			reconnect_run_state(s, ev);
		break;
	case SEV_QMP_DONE:
		migrating_cmd_done(s, ev);
		break;
	case SEV_ANSWER:
		migrating_answer(s, ev);
		break;
	case SEV_SIGNAL:
	case SEV_DEADLINE:
		source_abort_event(s, ev);
		break;
	case SEV_QMP_CLOSED:
		source_reconnect(s, ev);
		break;
	case SEV_QMP_SILENT:
		if (sess_monitor_silent(s, ev))
			source_give_up(s, "the monitor stopped answering");
		break;
	case SEV_CONTROL_LOST:
		s->watch_out = 0;
		s->recover.asked = 0;
		break;
	default:
		break;
	}
}

/* ---- SS_RECOVER ---------------------------------------------------- */

static void
state_recover(struct session *s, const struct sess_event *ev)
{
	const struct mig_info *mi;

	switch (ev->kind) {
	case SEV_SAMPLE:
		mi = ev->mi;
		s->silent_since = 0;
		sess_progress(s, mi, ev->t - s->t0);
		if (mi->status == QMS_POSTCOPY_ACTIVE) {
			sess_note(s, "post-copy recovered");
			memset(&s->recover, 0, sizeof s->recover);
			sess_enter(s, SS_POSTCOPY);
		} else if (mi->status == QMS_COMPLETED) {
			source_completed(s, mi);
		} else if (terminal(mi)) {
			/* Paused from postcopy-active: the target ran it. */
			s->saw_postcopy_active = 1;
			postcopy_failed(s, ev->t, mi->error_desc[0] != '\0' ?
			    mi->error_desc : "no reason given");
		} else if (mi->status == QMS_POSTCOPY_PAUSED)
			source_recover(s, ev);
		else if (s->recover.deadline == 0)
			/* Its deadline starts here (a re-attach). */
			(void)sess_recover_lost(s, ev->t, "recovering",
			    "both QEMUs are");
		else if (ev->t > s->recover.deadline +
		    RECOVER_SETTLE_SECONDS) {
			/*
			 * Recovering (or 11.x's failing) past the deadline: a
			 * recovery under way may still complete (no 6), and
			 * no resume is sent again.
			 */
			source_not_known(s);
			sess_fail(s, FAIL_UNKNOWN, "post-copy's recovery was "
			    "still under way (QEMU says %s) %.0f s after "
			    "--recover-timeout: whether the guest completes on "
			    "the target is not known", mi->status_name,
			    RECOVER_SETTLE_SECONDS);
		}
		sess_publish(s, "progress");
		break;
	case SEV_RUN_STATE:
		postcopy_run_state(s, ev);
		break;
	case SEV_ANSWER:
		if (ev->question != CONTROL_RESUME)
			break;
		s->recover.asked = 0;
		if (ev->answer == ANSWER_READY) {
			s->recover.ready = 1;
			sess_act(s, SA_POLL);
		}
		break;
	case SEV_SIGNAL:
	case SEV_DEADLINE:
		source_abort_event(s, ev);
		break;
	case SEV_QMP_CLOSED:
		source_reconnect(s, ev);
		break;
	case SEV_QMP_SILENT:
		if (sess_monitor_silent(s, ev))
			source_give_up(s, "the monitor stopped answering");
		break;
	case SEV_CONTROL_LOST:
		s->recover.asked = 0;
		break;
	default:
		break;
	}
}

/* ---- SS_CANCELLING and SS_UNCANCELLED ------------------------------ */

static void
cancel_sample(struct session *s, const struct sess_event *ev)
{
	const struct mig_info *mi = ev->mi;

	s->silent_since = 0;
	if (sample_before_migrate(s))
		return;
	sess_progress(s, mi, ev->t - s->t0);
	if (mi->status == QMS_COMPLETED) {
		source_completed(s, mi);
		return;
	}
	if (s->migrate_unknown && mi->status == QMS_NONE) {
		/* migrate got no answer: two "none" say it never started. */
		if (++s->none_since_unknown < 2) {
			sess_act(s, SA_POLL);
			return;
		}
		if (s->abort == ABORT_ABORTING || s->abort == ABORT_FAILED)
			sess_abort_status(s, ABORT_SUCCEEDED);
		sess_fail(s, FAIL_ABORTED, "%s (QEMU never started the "
		    "migration)", s->failure_reason);
		return;
	}
	if (mi->status != QMS_NONE && s->migrate_unknown) {
		s->migrate_unknown = 0;
		s->migrate_answered = 1;	/* QEMU took it */
	}
	if (mi->status == QMS_CANCELLED || mi->status == QMS_FAILED) {
		/* Either way the stream ended and the guest is here. */
		if (s->abort == ABORT_ABORTING || s->abort == ABORT_FAILED)
			sess_abort_status(s, ABORT_SUCCEEDED);
		if (s->failure == FAIL_DATA)
			sess_fail(s, FAIL_DATA, "migration stream failed");
		else
			sess_fail(s, FAIL_ABORTED, "migration cancelled");
		return;
	}
	if (mi->status == QMS_DEVICE && s->cfg.cpr) {
		/*
		 * The switchover began before QEMU read the cancel (an old
		 * QEMU without pause-before-switchover, a re-attach): its
		 * device state may be the new QEMU's already, which runs the
		 * guest on the same memory.  No cancel again from here.
		 */
		sess_abort_status(s, ABORT_FAILED);
		sess_note(s, "abort refused: the old QEMU began the switchover "
		    "before it could cancel");
		sess_clear_failure(s);
		switchover_enter(s, ev->t, 1);
		sess_publish(s, "progress");
		return;
	}
	if (qemu_mig_status_postcopy(mi->status) && s->state !=
	    SS_POSTCOPY) {
		/* Post-copy began before the cancel: the target holds it. */
		sess_abort_status(s, ABORT_FAILED);
		sess_note(s, "abort refused: post-copy began before QEMU "
		    "could cancel");
		sess_clear_failure(s);
		sess_mode(s, MODE_POSTCOPY);
		sess_enter(s, SS_POSTCOPY);
	}
	sess_publish(s, "progress");
}

/* QEMU did not cancel in time: watched to its end, the cancel asked again. */
static void
cancel_late(struct session *s, double t)
{
	sess_abort_status(s, ABORT_FAILED);
	sess_note(s, "QEMU did not cancel within %.0f s: the migration is "
	    "watched to its end, and the cancel asked again every %.0f s",
	    CANCEL_TIMEOUT, CANCEL_RETRY_SECONDS);
	sess_publish(s, "abort");
	s->cancel_sent = t;
	sess_qmp(s, SC_CANCEL, 0, 0);
	sess_enter(s, SS_UNCANCELLED);
}

static void
state_cancelling(struct session *s, const struct sess_event *ev)
{
	switch (ev->kind) {
	case SEV_SAMPLE:
		cancel_sample(s, ev);
		break;
	case SEV_QMP_DONE:
		if (ev->cmd == SC_MIGRATE && ev->outcome == SO_REFUSED &&
		    !s->saw_active) {
			/* QEMU refused it: the abort asked for is done. */
			if (s->abort == ABORT_ABORTING)
				sess_abort_status(s, ABORT_SUCCEEDED);
			sess_fail(s, FAIL_ABORTED, "%s", s->failure_reason);
		} else if (ev->cmd == SC_MIGRATE && ev->outcome ==
		    SO_NO_ANSWER && !s->saw_active) {
			/* Not known whether it started: QEMU's samples say. */
			s->migrate_unknown = 1;
			s->none_since_unknown = 0;
			sess_act(s, SA_POLL);
		} else if (ev->cmd == SC_CANCEL && !ev->ok)
			sess_note(s, "migrate_cancel: %s", ev->reason);
		break;
	case SEV_TIMER:
		if (ev->timer == STIMER_REPOLL)
			sess_act(s, SA_POLL);
		if (ev->timer != STIMER_CANCEL || s->state != SS_CANCELLING)
			break;
		cancel_late(s, ev->t);
		break;
	case SEV_SIGNAL:
	case SEV_DEADLINE:
		sess_log(s, 1, "abort already under way");
		break;
	case SEV_QMP_CLOSED:
		source_reconnect(s, ev);
		break;
	case SEV_QMP_SILENT:
		if (sess_monitor_silent(s, ev))
			source_give_up(s, "the monitor stopped answering while "
			    "QEMU was cancelling");
		break;
	default:
		break;
	}
}

/* ---- SS_CONFIRM ---------------------------------------------------- */

/* The target's answer says neither "running" nor "fenced": not known. */
static void
confirm_unsure(struct session *s, enum control_answer answer, const char *why)
{
	char reason[SESS_REASON_MAX];

	snprintf(reason, sizeof reason, "it answered %s: %s",
	    answer == ANSWER_NOT_KNOWN ? "that it does not know" :
	    "what qmigrate cannot read", why);
	source_not_confirmed(s, reason);
}

/*
 * The target's answer to "completed?" after QEMU failed post-copy before
 * it said postcopy-active and runs the guest again (postcopy_failed_running):
 * fenced, the target's QEMU did not and cannot run it, and the guest runs
 * here (a data-plane failure, 4); running, it runs twice; else not known.
 */
static void
postfail_answer(struct session *s, enum control_answer answer,
    const char *why)
{
	switch (answer) {
	case ANSWER_FENCED:
		sess_fail(s, FAIL_DATA, "post-copy failed before the target "
		    "ran the guest (%s): the target stopped its QEMU for good "
		    "(%s); the guest runs on the source again (source QEMU "
		    "restarted it)", s->postfail_desc, why);
		return;
	case ANSWER_RUNNING:
		source_not_known(s);
		sess_fail(s, FAIL_UNKNOWN, "post-copy failed (%s) and source "
		    "QEMU %s runs the guest again, but the target %s says it "
		    "runs there too (%s): quit the QEMU that must not run it",
		    s->postfail_desc, s->cfg.qmp_path, s->cfg.peer, why);
		return;
	default:
		confirm_unsure(s, answer, why);
		return;
	}
}

/*
 * The target's answer to "completed?" after QEMU failed the switchover
 * over tls: without the target's word (switchover_failed): fenced, its
 * QEMU did not load the guest and cannot run it, and the guest is the
 * source's (4); running, it runs twice (8, said so); else not known.
 */
static void
swfail_answer(struct session *s, enum control_answer answer,
    const char *why)
{
	switch (answer) {
	case ANSWER_FENCED:
		sess_fail(s, FAIL_DATA, "the target %s did not load the guest "
		    "(%s) and stopped its QEMU for good (%s): it runs on the "
		    "source again", s->cfg.peer, s->swfail_desc, why);
		return;
	case ANSWER_RUNNING:
		source_not_known(s);
		sess_fail(s, FAIL_UNKNOWN, "source QEMU %s failed %s (%s) "
		    "and runs its copy of the guest again, but the target %s "
		    "says it runs the guest too (its last word was lost on the "
		    "way): quit the QEMU that must not run it",
		    s->cfg.qmp_path, swfail_what(s), s->swfail_desc,
		    s->cfg.peer);
		return;
	default:
		confirm_unsure(s, answer, why);
		return;
	}
}

/*
 * The target's answer to "completed?" (libvirt's Confirm): the guest runs
 * there (success); or the target made sure its QEMU did not and cannot
 * run it (fenced: the guest runs here again, unless post-copy had left
 * pages only there); or it does not know, and neither does this side.
 */
static void
confirm_answer(struct session *s, const struct sess_event *ev)
{
	const char *why = ev->reason != NULL && ev->reason[0] != '\0' ?
	    ev->reason : "no reason given";

	if (s->postfail == PF_RUNNING) {
		postfail_answer(s, ev->answer, why);
		return;
	}
	if (s->swfail) {
		swfail_answer(s, ev->answer, why);
		return;
	}
	switch (ev->answer) {
	case ANSWER_RUNNING:
		source_succeed(s);
		return;
	case ANSWER_FENCED:
		if (s->mode == MODE_POSTCOPY) {
			sess_fail(s, FAIL_POSTCOPY_LOST, "the target lost the "
			    "guest after post-copy and stopped its QEMU: %s",
			    why);
			return;
		}
		if (s->abort == ABORT_ABORTING)
			sess_abort_status(s, ABORT_SUCCEEDED);
		/* An operator's pause stays (audit N14): no cont for it. */
		if (s->was_paused) {
			sess_fail(s, FAIL_DATA, "the target could not run the "
			    "guest and stopped its QEMU for good (%s): it is "
			    "on the source, paused as it was before the "
			    "migration", why);
			return;
		}
		sess_mode(s, MODE_PAUSED);	/* QEMU stopped it */
		sess_fail(s, FAIL_DATA, "the target could not run the guest "
		    "and stopped its QEMU for good (%s): it runs on the source "
		    "again", why);
		return;
	default:
		confirm_unsure(s, ev->answer, why);
		return;
	}
}

static void
state_confirm(struct session *s, const struct sess_event *ev)
{
	const char *why = ev->reason != NULL ? ev->reason : "no reason given";
	char reason[SESS_REASON_MAX];

	switch (ev->kind) {
	case SEV_JOB_DONE:
		/* The mirrors ended (source_completed): now the question. */
		if (ev->job != SJ_FINISH_MIRRORS || !s->confirm_mirrors)
			break;
		if (!ev->ok && ev->outcome == SO_NO_ANSWER) {
			/*
			 * Ended by its monitor's close: again once it is back
			 * (SEV_QMP_UP), within STIMER_FINISH.  Asked now, the
			 * target would wait for exports our NBD nodes still
			 * hold (60 s), past this side's 30 s for its answer.
			 */
			sess_log(s, 2, "disks: %s", why);
			break;
		}
		s->mirrors_out = 0;
		if (!ev->ok)
			sess_note(s, "disks: %s", why);
		s->confirm_mirrors = 0;
		ask_completed(s);
		sess_timer(s, STIMER_CONFIRM, CONFIRM_TIMEOUT);
		break;
	case SEV_ANSWER:
		if (ev->question != CONTROL_COMPLETED)
			break;
		if (ev->answer == ANSWER_UNKNOWN) {
			/*
			 * No word from the target, only the connection's
			 * failure: ask again on a new one until STIMER_CONFIRM
			 * (the target waits for it as long).
			 */
			sess_log(s, 2, "target %s: \"completed?\": %s: asking "
			    "again", s->cfg.peer, why);
			sess_timer(s, STIMER_REASK, REASK_SECONDS);
			break;
		}
		confirm_answer(s, ev);
		break;
	case SEV_CONTROL_LOST:
		if (s->confirm_mirrors)
			break;	/* asked once the mirrors ended */
		sess_log(s, 2, "target %s: the control connection ended (%s): "
		    "asking \"completed?\" again", s->cfg.peer, why);
		sess_timer(s, STIMER_REASK, REASK_SECONDS);
		break;
	case SEV_TIMER:
		if (ev->timer == STIMER_FINISH && s->confirm_mirrors) {
			sess_note(s, "the mirrors' end got no answer within "
			    "%.0f s", FINISH_TIMEOUT);
			s->confirm_mirrors = 0;
			ask_completed(s);
			sess_timer(s, STIMER_CONFIRM, CONFIRM_TIMEOUT);
			break;
		}
		if (ev->timer == STIMER_RECONNECT) {
			sess_act(s, SA_RECONNECT);
			break;
		}
		if (ev->timer == STIMER_REASK) {
			ask_completed(s);
			break;
		}
		if (ev->timer != STIMER_CONFIRM || s->confirm_mirrors)
			break;
		snprintf(reason, sizeof reason, "no answer within %.0f s",
		    CONFIRM_TIMEOUT);
		source_not_confirmed(s, reason);
		break;
	case SEV_SIGNAL:
	case SEV_DEADLINE:
		source_abort_event(s, ev);
		break;
	case SEV_QMP_CLOSED:
		/*
		 * QEMU completed, the target decides; but if it says
		 * "fenced" the guest's cont needs a monitor: keep one.
		 */
		sess_timer(s, STIMER_RECONNECT, RECONNECT_SECONDS);
		break;
	case SEV_QMP_UP:
		/* The mirrors' end went with the old connection. */
		if (s->confirm_mirrors && s->mirrors_out)
			sess_job(s, SJ_FINISH_MIRRORS, 1);
		break;
	default:
		break;
	}
}

/* ---- SS_RECONNECT -------------------------------------------------- */

static void
state_reconnect(struct session *s, const struct sess_event *ev)
{
	if (cpr_exec_reconnect_event(s, ev))
		return;
	switch (ev->kind) {
	case SEV_QMP_UP:
		sess_log(s, 1, "source QEMU %s: connected again",
		    s->cfg.qmp_path);
		s->silent_since = 0;
		sess_enter(s, s->back_to);
		sess_act(s, SA_POLL);
		if (s->back_to == SS_PRECOPY && !s->cfg.cpr &&
		    !s->cfg.cpr_exec) {
			/* A STOP may have gone with the old connection. */
			s->stop_unseen = 1;
			s->stop_asked = ev->t;
			sess_act(s, SA_QUERY_STATUS);
		} else if (s->back_to == SS_SWITCHOVER &&
		    !s->switchover_sure)
			sess_act(s, SA_QUERY_STATUS);	/* so may its answer */
		else if (s->postfail == PF_ASKED) {
			s->postfail_asked = ev->t;	/* ... and this one's */
			sess_act(s, SA_QUERY_STATUS);
		}
		if (s->back_to == SS_CANCELLING || s->back_to ==
		    SS_UNCANCELLED) {
			/* The cancel may have been lost with the connection. */
			sess_qmp(s, SC_CANCEL, 0, 0);
			if (s->back_to == SS_CANCELLING) {
				if (ev->t >= s->cancel_deadline)
					cancel_late(s, ev->t);
				else
					sess_timer(s, STIMER_CANCEL,
					    s->cancel_deadline - ev->t);
			}
		} else if (s->back_to == SS_FINISHING)
			finishing_resume(s);
		source_pending_abort(s, ev->t);
		break;
	case SEV_QMP_CLOSED:
		if (ev->t < s->reconnect_deadline) {
			sess_timer(s, STIMER_RECONNECT, RECONNECT_SECONDS);
			break;
		}
		/*
		 * A QEMU gone in post-copy too: it may have completed before
		 * it died, unseen; the target's document says (8, not 6).
		 */
		if (s->back_to == SS_FINISHING) {
			s->state = SS_FINISHING;
			finishing_unknown(s, ev->reason != NULL ? ev->reason :
			    "closed");
		} else {
			char why[SESS_REASON_MAX];

			snprintf(why, sizeof why, "its monitor could not be "
			    "reached again within %.0f s (%s)",
			    RECONNECT_TIMEOUT, ev->reason != NULL ? ev->reason :
			    "closed");
			source_give_up(s, why);
		}
		break;
	case SEV_TIMER:
		if (ev->timer == STIMER_RECONNECT)
			sess_act(s, SA_RECONNECT);
		break;
	case SEV_SIGNAL:
	case SEV_DEADLINE:
		source_abort_event(s, ev);
		break;
	case SEV_ANSWER:
		migrating_answer(s, ev);
		break;
	default:
		break;
	}
}

/* ---- SS_FINISHING -------------------------------------------------- */

/*
 * The guest we paused is on the source, but whether cont reached QEMU is
 * not known: the exit status must not say it runs (4), nor that it is
 * paused for good.  Mirrors aside, nothing is left to do.
 */
/*
 * An update's settings on the old QEMU whose put-back got no answer: the
 * guest runs there all the same (the exit says where), and the document
 * says what may still be set, and how to undo it (audit N11).
 */
static void
finishing_cpr_unconfirmed(struct session *s, const char *why)
{
	if (s->cpr_reset == 2)
		sess_note(s, "the old QEMU %s: mode normal not confirmed "
		    "(%s): its migration mode may still be %s (and "
		    "pause-before-switchover on, if the update set it), in "
		    "which a plain migrate by another tool would exec or be "
		    "refused for want of a cpr channel (qmigrate migrate sets "
		    "both itself): migrate-set-parameters mode normal, and "
		    "migrate-set-capabilities pause-before-switchover off",
		    s->cfg.qmp_path, why, s->cfg.cpr_exec ? "cpr-exec or "
		    "cpr-transfer (the pre-flight probes both)" :
		    "cpr-transfer");
	else if (s->cpr_reset == 1)
		sess_note(s, "the old QEMU %s: pause-before-switchover off not "
		    "confirmed (%s): it may still be on, and a migrate by "
		    "another tool would wait in pre-switchover: "
		    "migrate-set-capabilities pause-before-switchover off",
		    s->cfg.qmp_path, why);
}

/*
 * The answer to an update's put-back.  None (the connection mute for
 * good, as behind a relay or a monitor hung in an earlier command, or
 * closed): sent again on a new connection, which such a QEMU still
 * serves, CPR_RESET_TRIES sends in all.
 */
static void
finishing_cpr_answer(struct session *s, const struct sess_event *ev)
{
	const char *why = ev->reason != NULL ? ev->reason : "no answer";

	if (ev->outcome == SO_NO_ANSWER &&
	    ++s->cpr_reset_tries < CPR_RESET_TRIES) {
		source_reconnect(s, ev);
		return;
	}
	if (ev->outcome == SO_NO_ANSWER)
		finishing_cpr_unconfirmed(s, why);
	else if (ev->outcome != SO_ANSWERED)
		sess_note(s, "the old QEMU %s: %s: %s", s->cfg.qmp_path,
		    ev->cmd == SC_MODE_NORMAL ? "mode normal" :
		    "pause-before-switchover off", why);
	s->cpr_reset--;
	s->cpr_reset_tries = 0;
	finishing_resume(s);
}

static void
finishing_unknown(struct session *s, const char *why)
{
	finishing_cpr_unconfirmed(s, why);
	if (!s->resume_guest || s->mirrors_out) {
		sess_note(s, "the last steps were not confirmed: %s", why);
		sess_finish(s, s->end_phase);
		return;
	}
	if (s->failure != FAIL_NONE)
		sess_clear_failure(s);
	sess_failure(s, FAIL_UNKNOWN, "the guest is on the source QEMU %s, "
	    "paused by this migration; whether cont resumed it is not known "
	    "(%s): see query-status, and cont it if it is paused",
	    s->cfg.qmp_path, why);
	sess_finish(s, PHASE_FAILED);
}

static void
state_finishing(struct session *s, const struct sess_event *ev)
{
	switch (ev->kind) {
	case SEV_JOB_DONE:
		if (ev->job != SJ_FINISH_MIRRORS)
			break;
		if (!ev->ok && ev->outcome == SO_NO_ANSWER) {
			/*
			 * Ended by its monitor's close (the close itself comes
			 * next): run again once the monitor is back
			 * (SS_RECONNECT), not dropped with the mirrors left
			 * running and their NBD nodes holding the target's
			 * exports.
			 */
			sess_log(s, 2, "disks: %s", ev->reason);
			break;
		}
		s->mirrors_out = 0;
		if (!ev->ok)
			sess_note(s, "disks: %s", ev->reason);
		else
			sess_log(s, 1, "mirror jobs %s, NBD nodes removed",
			    s->end_phase == PHASE_SUCCEEDED ? "ended in sync" :
			    "cancelled");
		finishing_resume(s);
		break;
	case SEV_QMP_DONE:
		if ((ev->cmd == SC_MODE_NORMAL && s->cpr_reset == 2) ||
		    (ev->cmd == SC_PAUSE_OFF && s->cpr_reset == 1)) {
			finishing_cpr_answer(s, ev);
			break;
		}
		if (ev->cmd != SC_CONT)
			break;
		if (ev->outcome == SO_ANSWERED) {
			sess_mode(s, MODE_PRECOPY);
			sess_log(s, 1, "guest resumed on the source");
		} else if (ev->outcome == SO_NO_ANSWER) {
			/* Whether it ran, QEMU says (or the reconnect). */
			sess_act(s, SA_QUERY_STATUS);
			break;
		} else
			sess_note(s, "the guest stays paused on the source: %s",
			    ev->reason);
		sess_finish(s, s->end_phase);
		break;
	case SEV_RUN_STATE:
		if (!s->resume_guest || s->mirrors_out)
			break;
		if (ev->ri->state == RUN_RUNNING) {
			sess_mode(s, MODE_PRECOPY);
			sess_log(s, 1, "guest resumed on the source");
			sess_finish(s, s->end_phase);
		} else if (s->cont_tries < 3)
			finishing_resume(s);
		else
			finishing_unknown(s, "cont got no answer 3 times");
		break;
	case SEV_QMP_CLOSED:
		source_reconnect(s, ev);
		break;
	case SEV_QMP_UP:
		/* The confirm phase's reconnect came back: cont again. */
		finishing_resume(s);
		break;
	case SEV_TIMER:
		if (ev->timer == STIMER_RECONNECT) {
			sess_act(s, SA_RECONNECT);
			break;
		}
		if (ev->timer != STIMER_FINISH)
			break;
		if (!s->mirrors_out) {
			finishing_unknown(s, s->resume_guest ? "cont got no "
			    "answer within 75 s" : "no answer within 75 s");
			break;
		}
		sess_note(s, "the last steps (the mirrors' end) got no answer "
		    "within %.0f s", FINISH_TIMEOUT);
		sess_finish(s, s->end_phase);
		break;
	case SEV_SIGNAL:
		sess_log(s, 1, "%s ignored: the migration has ended, finishing",
		    sess_signal_name(ev->signum));
		break;
	default:
		break;
	}
}

/* ---- the table ----------------------------------------------------- */

void
source_step(struct session *s, const struct sess_event *ev)
{
	s->query_out = ev->query_out;
	/* Whatever the state, what became of our migrate (see above). */
	if (ev->kind == SEV_QMP_DONE && ev->cmd == SC_MIGRATE &&
	    ev->outcome == SO_ANSWERED)
		s->migrate_answered = 1;
	if (ev->kind == SEV_QMP_DONE && ev->cmd == SC_MIGRATE_RESUME)
		source_resume_done(s, ev);
	if (ev->kind == SEV_QMP_UP && sample_before_migrate(s)) {
		/* Its answer went with the connection: samples decide. */
		s->migrate_unknown = 1;
		s->none_since_unknown = 0;
	}
	if (ev->new_qemu) {
		cpr_new_event(s, ev);
		return;
	}
	if (s->cfg.cpr_exec && (ev->kind == SEV_STOPPED ||
	    ev->kind == SEV_RESUMED))
		cpr_exec_pause_event(s, ev);	/* and the state's, below */
	if (ev->kind == SEV_SWITCHOVER) {
		source_switchover_asked(s, ev);
		return;
	}
	/* Up to QEMU's completion, in whatever state saw it (source_succeed);
	   the mirrors' own end after it is ours. */
	if (ev->kind == SEV_SAMPLE)
		s->disks_stale = ev->disks_stale;
	if (ev->kind == SEV_SAMPLE && ev->disks_lost != NULL &&
	    s->disks_lost[0] == '\0' && s->state != SS_CONFIRM &&
	    s->state != SS_FINISHING && s->state != SS_DONE)
		snprintf(s->disks_lost, sizeof s->disks_lost, "%s",
		    ev->disks_lost);
	switch (s->state) {
	case SS_SETUP:
		state_setup(s, ev);
		break;
	case SS_OFFER:
		state_offer(s, ev);
		break;
	case SS_MIRROR_START:
		state_mirror_start(s, ev);
		break;
	case SS_MIRROR:
		state_mirror(s, ev);
		break;
	case SS_PRECOPY:
	case SS_POSTCOPY:
	case SS_CPR_ATTACH:
		state_migrating(s, ev);
		break;
	case SS_CPR_HANDOFF:
		state_cpr_handoff(s, ev);
		break;
	case SS_CPR_QUIT:
		state_cpr_quit(s, ev);
		break;
	case SS_CPR_EXEC:
		state_cpr_exec(s, ev);
		break;
	case SS_RECOVER:
		state_recover(s, ev);
		break;
	case SS_CANCELLING:
		state_cancelling(s, ev);
		break;
	case SS_UNCANCELLED:
		/*
		 * Watched to its end with no controller; the cancel is asked
		 * again now and then (a monitor may have lost it), and what
		 * QEMU does decides the outcome.
		 */
		if (ev->kind == SEV_SAMPLE) {
			cancel_sample(s, ev);
			if (s->state == SS_UNCANCELLED &&
			    ev->t - s->cancel_sent >= CANCEL_RETRY_SECONDS) {
				s->cancel_sent = ev->t;
				sess_qmp(s, SC_CANCEL, 0, 0);
			}
		}
		else if (ev->kind == SEV_QMP_CLOSED)
			source_reconnect(s, ev);
		else if (ev->kind == SEV_QMP_SILENT &&
		    sess_monitor_silent(s, ev))
			source_give_up(s, "the monitor stopped answering");
		break;
	case SS_SWITCHOVER:
		state_switchover(s, ev);
		break;
	case SS_CONFIRM:
		state_confirm(s, ev);
		break;
	case SS_RECONNECT:
		state_reconnect(s, ev);
		break;
	case SS_FINISHING:
		state_finishing(s, ev);
		break;
	default:
		break;
	}
	/* Timers every state shares. */
	if (ev->kind == SEV_TIMER && ev->timer == STIMER_REPOLL &&
	    s->state != SS_CANCELLING && s->state != SS_DONE)
		sess_act(s, SA_POLL);
}
