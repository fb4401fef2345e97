/*
 * mig-session.c: the migration session's step function (mig-session.h).
 * One event in, actions out, no I/O.  Each state has its rules below,
 * source first, then target; every transition goes through enter(), which
 * logs it (libnbd's named states).
 *
 * The promises it keeps (README, "What qmigrate promises when things
 * break"): before post-copy every failure and abort leaves the guest on the
 * source (cont if a decision paused it); after, the target holds it, an
 * abort is refused, and a broken stream is resumed until --recover-timeout.
 * An abort is reported only when it happened.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mig-session.h"

/* How long QEMU gets to cancel before the abort is declared failed. */
#define CANCEL_TIMEOUT		30.0
/* How long the target gets to say whether the guest runs there. */
#define CONFIRM_TIMEOUT		30.0
/* Between two migrate resume (or migrate-recover) attempts. */
#define RETRY_SECONDS		1.0
/* A controller's abort is a data-plane failure if no byte moved this long. */
#define STALL_SECONDS		5.0
/* completed comes before total-time and downtime are stored: re-poll. */
#define COMPLETED_REPOLLS	10
#define REPOLL_SECONDS		0.05
/* Target: the source gets this long to cancel before the stream is cut. */
#define CUT_SECONDS		5.0
/* Target: waiting for the source's "completed?" once the outcome is known. */
#define CONFIRM_WAIT_SECONDS	10.0

static const char *state_names[] = {
	[SS_SETUP] = "setup", [SS_OFFER] = "offer", [SS_MIRROR] = "mirror",
	[SS_LISTEN] = "listen", [SS_PRECOPY] = "pre-copy",
	[SS_POSTCOPY] = "post-copy", [SS_RECOVER] = "recover",
	[SS_CANCELLING] = "cancelling", [SS_CONFIRM] = "confirm",
	[SS_ENDING] = "ending", [SS_DONE] = "done",
};

const char *
session_state_name(enum sess_state s)
{
	return (size_t)s < NITEMS(state_names) ? state_names[s] : "?";
}

void
session_init(struct session *s, const struct sess_config *cfg,
    struct status *st)
{
	memset(s, 0, sizeof *s);
	s->cfg = *cfg;
	s->st = st;
	s->state = SS_SETUP;
	s->moved_t = -1;
	ctl_init(&s->ctl, CTL_ADAPTIVE, &(struct ctl_config){ 0 });
}

void
session_set_controller(struct session *s, enum ctl_kind kind,
    const struct ctl_config *cfg)
{
	ctl_init(&s->ctl, kind, cfg);
}

int
session_done(const struct session *s)
{
	return s->state == SS_DONE;
}

/* Appends an action; the list is reset at every step. */
static struct sess_action *
act(struct session *s, enum sess_act_kind kind)
{
	struct sess_action *a;

	if (s->nacts == SESS_MAX_ACTIONS)
		fatalx("session: more than %d actions in one step",
		    SESS_MAX_ACTIONS);
	a = &s->acts[s->nacts++];
	memset(a, 0, sizeof *a);
	a->kind = kind;
	return a;
}

static void
act_qmp(struct session *s, enum sess_cmd cmd, uint64_t value, int value2)
{
	struct sess_action *a = act(s, SA_QMP);

	a->cmd = cmd;
	a->value = value;
	a->value2 = value2;
}

static void
act_timer(struct session *s, enum sess_timer timer, double seconds)
{
	struct sess_action *a = act(s, SA_TIMER);

	a->timer = timer;
	a->seconds = seconds;
}

static void
act_ask(struct session *s, enum control_type question, const char *reason)
{
	struct sess_action *a = act(s, SA_ASK);

	a->question = question;
	if (reason != NULL)
		snprintf(a->reason, sizeof a->reason, "%s", reason);
	s->question_out++;
}

static void
act_answer(struct session *s, enum control_answer answer, const char *reason)
{
	struct sess_action *a = act(s, SA_ANSWER);

	a->answer = answer;
	if (reason != NULL)
		snprintf(a->reason, sizeof a->reason, "%s", reason);
}

static void
enter(struct session *s, enum sess_state to)
{
	if (s->state == to)
		return;
	log_debug("session %s: %s -> %s", s->st->role,
	    session_state_name(s->state), session_state_name(to));
	s->state = to;
}

/* The end: the phase is final and the executor leaves its loop. */
static void
finish(struct session *s, enum mig_phase phase)
{
	if (s->state == SS_DONE)
		return;
	status_set_phase(s->st, phase);
	enter(s, SS_DONE);
	act(s, SA_FINISH);
}

/* Records the failure (the first one wins); fmt is printf's. */
static void
record(struct session *s, enum mig_failure why, const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof buf, fmt, ap);
	status_record_failure(s->st, why, "%s", buf);
}

static void
fail(struct session *s, enum mig_failure why, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Records the failure (the first one wins) and ends as Failed. */
static void
fail(struct session *s, enum mig_failure why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record(s, why, fmt, ap);
	va_end(ap);
	if (s->cfg.role == SESS_SOURCE && s->paused_by_us &&
	    s->st->failure != FAIL_POSTCOPY_LOST)
		s->need_cont = 1;
	finish(s, PHASE_FAILED);
}

static const char *
signal_name(int signum)
{
	return signum == SIGINT ? "SIGINT" : signum == SIGTERM ? "SIGTERM" :
	    "a signal";
}

/* In post-copy by QEMU's word or by our decision to switch. */
static int
in_postcopy(const struct session *s)
{
	return s->state == SS_POSTCOPY || s->state == SS_RECOVER ||
	    s->st->mode == MODE_POSTCOPY;
}

/* ---- source ---------------------------------------------------------- */

static void
source_succeed(struct session *s)
{
	if (s->st->abort_status == ABORT_ABORTING) {
		status_set_abort(s->st, ABORT_FAILED);
		status_note(s->st, "the migration completed before QEMU could "
		    "cancel it: the guest runs on the target");
	}
	status_clear_failure(s->st);
	log_info("migration completed: %llu bytes in %llu ms, downtime %llu "
	    "ms", (unsigned long long)s->st->progress.data_processed,
	    (unsigned long long)s->st->progress.total_time_ms,
	    (unsigned long long)s->st->progress.downtime_ms);
	finish(s, PHASE_SUCCEEDED);
}

/*
 * An abort: requested (signal, `qmigrate abort`, the target's abort), or
 * the controller's or the deadline's (requested 0), or a stalled stream
 * (why FAIL_DATA).  Before memory moves it ends at once; in pre-copy it
 * cancels and waits for QEMU to say cancelled; once post-copy started, or
 * QEMU completed, it is refused and the status says why.
 */
static void
source_abort(struct session *s, double t, enum mig_failure why,
    int requested, const char *reason)
{
	struct status *st = s->st;

	if (s->state == SS_DONE)
		return;
	if (requested)
		status_set_abort_requested(st);
	if (s->state == SS_SETUP) {
		/*
		 * The setup may be finding a migration QEMU already runs (a
		 * re-attach): act once it says what it found.  The executor
		 * stops its setup early (setup_abort).
		 */
		if (!s->setup_abort) {
			s->setup_abort = 1;
			s->setup_abort_why = why;
			s->setup_abort_requested = requested;
			snprintf(s->setup_abort_reason,
			    sizeof s->setup_abort_reason, "%s", reason);
			status_set_abort(st, ABORT_ABORTING);
			status_changed(st, "abort");
		}
		return;
	}
	if (in_postcopy(s) || s->state == SS_CONFIRM) {
		status_set_abort(st, ABORT_FAILED);
		status_note(st, "abort refused: %s (%s)", s->state ==
		    SS_CONFIRM ? "QEMU completed the migration and the target "
		    "is confirming the guest" : "post-copy has started and "
		    "the target already holds the guest", reason);
		status_changed(st, "abort");
		return;
	}
	if (s->state == SS_CANCELLING)
		return;
	log_warnx("aborting: %s", reason);
	status_record_failure(st, why, "%s", reason);
	if (s->state == SS_OFFER || s->state == SS_MIRROR) {
		/* No memory moved: nothing to cancel in QEMU. */
		if (why != FAIL_DATA)
			status_set_abort(st, ABORT_SUCCEEDED);
		status_changed(st, "abort");
		fail(s, why, "%s", reason);
		return;
	}
	if (why != FAIL_DATA)
		status_set_abort(st, ABORT_ABORTING);
	status_changed(st, "abort");
	/* The target learns it too, unless the stream merely stalled. */
	if (s->cfg.tls && why != FAIL_DATA)
		act_ask(s, CONTROL_ABORT, reason);
	act_qmp(s, SC_CANCEL, 0, 0);
	enter(s, SS_CANCELLING);
	s->cancel_deadline = t + CANCEL_TIMEOUT;
	act(s, SA_POLL);
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

/* Carries out one controller decision. */
static void
source_decide(struct session *s, double t, const struct ctl_decision *d,
    const struct ctl_sample *cs)
{
	int increment;

	if (d->action == CTL_NONE)
		return;
	status_decision(s->st, cs->t, ctl_action_name(d->action), d->reason,
	    cs);
	switch (d->action) {
	case CTL_NONE:
		break;
	case CTL_SET_DOWNTIME:
		act_qmp(s, SC_SET_DOWNTIME, d->value, 0);
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
		act_qmp(s, SC_AUTO_CONVERGE, d->value, increment);
		break;
	case CTL_POST_COPY:
		act_qmp(s, SC_START_POSTCOPY, 0, 0);
		status_set_mode(s->st, MODE_POSTCOPY);
		enter(s, SS_POSTCOPY);
		break;
	case CTL_PAUSE:
		act_qmp(s, SC_STOP, 0, 0);
		s->paused_by_us = 1;
		status_set_mode(s->st, MODE_PAUSED);
		break;
	case CTL_ABORT:
		if (!source_stalled(s, t, cs, STALL_SECONDS))
			source_abort(s, t, FAIL_ABORTED, 0, d->reason);
		break;
	}
}

/* Post-copy is paused: the stream broke.  Resume it, or give up. */
static void
source_recover(struct session *s, double t)
{
	struct status *st = s->st;

	enter(s, SS_RECOVER);
	if (s->recover_deadline == 0) {
		s->recover_deadline = t + s->cfg.recover_timeout;
		status_note(st, "post-copy stream broken: both QEMUs paused "
		    "in postcopy-paused; recovering for up to %.0f s",
		    s->cfg.recover_timeout);
		status_changed(st, "recovery");
	}
	if (t > s->recover_deadline) {
		fail(s, FAIL_POSTCOPY_LOST, "post-copy could not be recovered "
		    "within %.0f s: the guest is irrecoverable; both QEMUs are "
		    "left paused for the operator", s->cfg.recover_timeout);
		return;
	}
	if (t - s->last_resume_try < RETRY_SECONDS)
		return;
	/*
	 * Over tls:, resume only once the target says its QEMU listens: a
	 * resume that finds no one leaves QEMU 7.2 stuck in postcopy-recover
	 * for good.  The question waits in the control connection while the
	 * network is down and is answered when it is back.
	 */
	if (s->cfg.tls && !s->resume_ready) {
		if (!s->resume_asked) {
			s->resume_asked = 1;
			act_ask(s, CONTROL_RESUME, NULL);
		}
		return;
	}
	s->resume_ready = 0;
	s->last_resume_try = t;
	act_qmp(s, SC_MIGRATE_RESUME, 0, 0);
}

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

/* While the disks are copied: fail, wait, or move the memory. */
static void
source_mirror_sample(struct session *s, const struct sess_event *ev)
{
	if (ev->disks == DISKS_FAILED) {
		fail(s, FAIL_DATA, "%s", ev->reason != NULL ? ev->reason :
		    "a disk's mirror failed");
		return;
	}
	if (ev->disks != DISKS_READY) {
		if (s->mirror_deadline > 0 && ev->t > s->mirror_deadline)
			fail(s, FAIL_DATA, "the disks were not in sync within "
			    "%.0f s (completionTimeoutPerGiB)",
			    s->cfg.mirror_timeout);
		else
			status_progress(s->st);
		return;
	}
	status_note(s->st, "disks in sync (write-blocking mirrors): "
	    "migrating memory");
	act_qmp(s, SC_MIGRATE, 0, 0);
	enter(s, SS_PRECOPY);
}

/* QEMU ended the migration: completed, failed or cancelled. */
static void
source_terminal(struct session *s, const struct mig_info *mi)
{
	struct status *st = s->st;

	if (mi->status == QMS_COMPLETED) {
		if (s->state == SS_CONFIRM)
			return;
		if (!mi->has_total_time &&
		    s->completed_polls++ < COMPLETED_REPOLLS) {
			act_timer(s, STIMER_REPOLL, REPOLL_SECONDS);
			return;
		}
		if (!s->cfg.tls) {
			source_succeed(s);
			return;
		}
		/*
		 * Over tls:, the last bytes may still be in the proxy: like
		 * libvirt's confirm phase, success is the target's to declare.
		 */
		enter(s, SS_CONFIRM);
		act_ask(s, CONTROL_COMPLETED, NULL);
		act_timer(s, STIMER_CONFIRM, CONFIRM_TIMEOUT);
		return;
	}
	if (s->state == SS_CANCELLING) {
		if (st->abort_status == ABORT_ABORTING)
			status_set_abort(st, ABORT_SUCCEEDED);
		fail(s, FAIL_ABORTED, "migration cancelled");
	} else if (!s->saw_active && mi->ram_transferred == 0)
		fail(s, FAIL_CONTROL, "target %s not ready: %s", s->cfg.peer,
		    mi->error_desc[0] != '\0' ? mi->error_desc :
		    "no reason given");
	else
		fail(s, FAIL_DATA, "migration stream failed: %s",
		    mi->error_desc[0] != '\0' ? mi->error_desc :
		    "no reason given");
}

static void
source_sample(struct session *s, const struct sess_event *ev)
{
	const struct mig_info	*mi = ev->mi;
	struct ctl_sample	 cs;
	struct ctl_decision	 d;

	sample_of(s, ev->t, mi, &cs);
	status_set_progress(s->st, mi, cs.t);
	if (s->state == SS_MIRROR) {
		source_mirror_sample(s, ev);
		return;
	}
	if (s->state == SS_SETUP || s->state == SS_OFFER)
		return;
	if (mi->status == QMS_COMPLETED || mi->status == QMS_FAILED ||
	    mi->status == QMS_CANCELLED) {
		source_terminal(s, mi);
		return;
	}
	if (ev->disks == DISKS_FAILED && s->state != SS_CANCELLING) {
		source_abort(s, ev->t, FAIL_DATA, 0, ev->reason != NULL ?
		    ev->reason : "a disk's mirror failed");
		return;
	}
	if (s->state == SS_CANCELLING) {
		if (ev->t > s->cancel_deadline) {
			status_set_abort(s->st, ABORT_FAILED);
			status_note(s->st, "QEMU did not cancel within %.0f s",
			    CANCEL_TIMEOUT);
			fail(s, FAIL_ABORTED, "QEMU did not cancel");
		} else
			status_progress(s->st);
		return;
	}
	if (mi->status == QMS_POSTCOPY_PAUSED ||
	    (mi->status == QMS_POSTCOPY_RECOVER && s->recover_deadline != 0 &&
	    ev->t > s->recover_deadline)) {
		source_recover(s, ev->t);
		status_progress(s->st);
		return;
	}
	if (mi->status == QMS_ACTIVE || qemu_mig_status_postcopy(mi->status))
		s->saw_active = 1;
	if (mi->status == QMS_POSTCOPY_ACTIVE) {
		if (s->recover_deadline != 0) {
			status_note(s->st, "post-copy recovered");
			s->recover_deadline = 0;
		}
		status_set_mode(s->st, MODE_POSTCOPY);
		enter(s, SS_POSTCOPY);
	}
	if (mi->status == QMS_ACTIVE && source_stalled(s, ev->t, &cs,
	    s->cfg.stall_timeout)) {
		status_progress(s->st);
		return;
	}
	if (mi->status == QMS_ACTIVE || mi->status == QMS_POSTCOPY_ACTIVE) {
		ctl_step(&s->ctl, &cs, &d);
		source_decide(s, ev->t, &d, &cs);
	}
	/* Over tls:, the target may want to abort: ask while pre-copy runs. */
	if (s->cfg.tls && s->state == SS_PRECOPY && s->question_out == 0)
		act_ask(s, CONTROL_WATCH, NULL);
	status_progress(s->st);
}

/* An abort asked for during the setup, now that it is over. */
static void
source_setup_abort(struct session *s, const struct sess_event *ev)
{
	struct status *st = s->st;

	switch (ev->setup) {
	case SETUP_FAILED:
		status_set_abort(st, ABORT_SUCCEEDED);
		fail(s, ev->fail, "%s", ev->reason);
		return;
	case SETUP_ALREADY_DONE:
		status_set_abort(st, ABORT_FAILED);
		status_note(st, "abort refused: QEMU had already completed the "
		    "migration (%s)", s->setup_abort_reason);
		finish(s, PHASE_SUCCEEDED);
		return;
	case SETUP_FRESH:
		/* Nothing started: the guest never left the source. */
		status_set_abort(st, ABORT_SUCCEEDED);
		fail(s, s->setup_abort_why, "%s (before the migration "
		    "started)", s->setup_abort_reason);
		return;
	case SETUP_REATTACH:
		break;
	}
}

static void
source_setup_done(struct session *s, const struct sess_event *ev)
{
	struct status *st = s->st;

	if (s->setup_abort && ev->setup != SETUP_REATTACH) {
		source_setup_abort(s, ev);
		return;
	}
	switch (ev->setup) {
	case SETUP_FAILED:
		fail(s, ev->fail, "%s", ev->reason);
		return;
	case SETUP_ALREADY_DONE:
		status_note(st, "re-attached to migration %s after QEMU had "
		    "completed it: the guest left this QEMU, nothing more to "
		    "do", st->uid);
		finish(s, PHASE_SUCCEEDED);
		return;
	case SETUP_REATTACH:
		s->t0 = ev->t;
		s->saw_active = 1;
		s->paused_by_us = ev->mode == MODE_PAUSED;
		status_set_mode(st, ev->mode);
		enter(s, ev->mode == MODE_POSTCOPY ? SS_POSTCOPY : SS_PRECOPY);
		status_note(st, "re-attached to migration %s already %s in "
		    "QEMU", st->uid, ev->reason != NULL ? ev->reason :
		    "under way");
		status_set_phase(st, PHASE_RUNNING);
		act(s, SA_POLL);
		if (s->setup_abort) {
			status_set_abort(st, ABORT_NONE);
			source_abort(s, ev->t, s->setup_abort_why,
			    s->setup_abort_requested, s->setup_abort_reason);
		}
		return;
	case SETUP_FRESH:
		break;
	}
	if (s->cfg.tls) {
		status_set_phase(st, PHASE_PREPARING_TARGET);
		enter(s, SS_OFFER);
		act_ask(s, CONTROL_OFFER, NULL);
	} else if (s->cfg.disks)
		act(s, SA_JOB)->job = SJ_START_MIRRORS;
	else {
		act_qmp(s, SC_MIGRATE, 0, 0);
		enter(s, SS_PRECOPY);
	}
}

static void
source_answer(struct session *s, const struct sess_event *ev)
{
	const char *why = ev->reason != NULL ? ev->reason : "no reason given";

	if (s->question_out > 0)
		s->question_out--;
	switch (ev->question) {
	case CONTROL_OFFER:
		if (s->state != SS_OFFER)
			return;
		if (ev->answer == ANSWER_READY) {
			status_set_phase(s->st, PHASE_TARGET_READY);
			if (s->cfg.disks)
				act(s, SA_JOB)->job = SJ_START_MIRRORS;
			else {
				act_qmp(s, SC_MIGRATE, 0, 0);
				enter(s, SS_PRECOPY);
			}
		} else if (ev->answer == ANSWER_REFUSED)
			fail(s, FAIL_CONTROL, "target %s refused the "
			    "migration: %s", s->cfg.peer, why);
		else
			fail(s, FAIL_CONTROL, "target %s: %s", s->cfg.peer,
			    why);
		return;
	case CONTROL_RESUME:
		s->resume_asked = 0;
		if (ev->answer == ANSWER_READY) {
			s->resume_ready = 1;
			act(s, SA_POLL);
		}
		return;
	case CONTROL_COMPLETED:
		if (s->state != SS_CONFIRM)
			return;
		if (ev->answer == ANSWER_RUNNING)
			source_succeed(s);
		else if (ev->answer != ANSWER_FAILED) {
			status_note(s->st, "the target did not confirm the "
			    "guest (%s); QEMU reported the migration "
			    "completed", why);
			source_succeed(s);
		} else if (s->st->mode == MODE_POSTCOPY)
			fail(s, FAIL_POSTCOPY_LOST, "the target lost the guest "
			    "after post-copy: %s", why);
		else {
			s->need_cont = 1;
			fail(s, FAIL_DATA, "the target could not load the guest "
			    "(%s): it runs on the source again", why);
		}
		return;
	case CONTROL_WATCH:
		if (ev->answer == ANSWER_ABORT) {
			char reason[SESS_REASON_MAX];

			snprintf(reason, sizeof reason, "the target %s "
			    "aborted the migration: %s", s->cfg.peer, why);
			source_abort(s, ev->t, FAIL_ABORTED, 1, reason);
		}
		return;
	case CONTROL_ABORT:
	case CONTROL_UNKNOWN:
		return;
	}
}

static void
source_qmp_done(struct session *s, const struct sess_event *ev)
{
	if (ev->ok) {
		if (ev->cmd == SC_MIGRATE && s->state == SS_PRECOPY) {
			s->t0 = ev->t;
			status_set_phase(s->st, PHASE_RUNNING);
			log_info("migrating %s to %s (%s controller)",
			    s->cfg.qmp_path, s->cfg.peer,
			    ctl_kind_name(s->ctl.kind));
		}
		return;
	}
	if (ev->cmd == SC_MIGRATE && !s->saw_active &&
	    (s->state == SS_PRECOPY || s->state == SS_CANCELLING)) {
		/* Nothing started: an abort already asked for is done. */
		if (s->st->abort_status == ABORT_ABORTING)
			status_set_abort(s->st, ABORT_SUCCEEDED);
		fail(s, FAIL_CONTROL, "source QEMU %s: migrate: %s",
		    s->cfg.qmp_path, ev->reason);
	}
	else
		log_warnx("source QEMU refused a command: %s", ev->reason);
}

static void
source_step(struct session *s, const struct sess_event *ev)
{
	char reason[SESS_REASON_MAX];

	switch (ev->kind) {
	case SEV_SETUP_DONE:
		if (s->state == SS_SETUP)
			source_setup_done(s, ev);
		break;
	case SEV_JOB_DONE:
		if (s->state == SS_DONE)
			break;
		if (!ev->ok) {
			fail(s, ev->fail != FAIL_NONE ? ev->fail :
			    FAIL_CONTROL, "%s", ev->reason);
			break;
		}
		s->t0 = ev->t;
		if (s->cfg.mirror_timeout > 0)
			s->mirror_deadline = ev->t + s->cfg.mirror_timeout;
		status_set_phase(s->st, PHASE_RUNNING);
		enter(s, SS_MIRROR);
		break;
	case SEV_QMP_DONE:
		source_qmp_done(s, ev);
		break;
	case SEV_SAMPLE:
		if (s->state != SS_DONE)
			source_sample(s, ev);
		break;
	case SEV_RUN_STATE:
	case SEV_RESUMED:
	case SEV_CONTROL:
		break;
	case SEV_QMP_CLOSED:
		if (s->state == SS_DONE)
			break;
		if (s->st->abort_status == ABORT_ABORTING)
			status_set_abort(s->st, ABORT_FAILED);
		if (in_postcopy(s))
			fail(s, FAIL_POSTCOPY_LOST, "source QEMU gone during "
			    "post-copy (%s): the guest's pages that were still "
			    "on the source are lost", ev->reason);
		else
			fail(s, FAIL_CONTROL, "source QEMU %s: %s",
			    s->cfg.qmp_path, ev->reason);
		break;
	case SEV_ANSWER:
		if (s->state != SS_DONE)
			source_answer(s, ev);
		break;
	case SEV_CONTROL_LOST:
		s->question_out = 0;
		s->resume_asked = 0;
		if (s->state == SS_OFFER)
			fail(s, FAIL_CONTROL, "target %s: %s", s->cfg.peer,
			    ev->reason);
		else if (s->state == SS_CONFIRM) {
			status_note(s->st, "the target did not confirm the "
			    "guest (%s); QEMU reported the migration "
			    "completed", ev->reason);
			source_succeed(s);
		}
		break;
	case SEV_SIGNAL:
		snprintf(reason, sizeof reason, "abort requested (%s)",
		    signal_name(ev->signum));
		source_abort(s, ev->t, FAIL_ABORTED, 1, reason);
		break;
	case SEV_DEADLINE:
		snprintf(reason, sizeof reason, "the --timeout deadline of "
		    "%.0f s passed before the migration completed",
		    s->cfg.timeout);
		source_abort(s, ev->t, FAIL_ABORTED, 0, reason);
		break;
	case SEV_TIMER:
		if (ev->timer == STIMER_REPOLL)
			act(s, SA_POLL);
		else if (ev->timer == STIMER_CONFIRM &&
		    s->state == SS_CONFIRM) {
			status_note(s->st, "the target did not confirm the "
			    "guest within %.0f s; QEMU reported the migration "
			    "completed", CONFIRM_TIMEOUT);
			source_succeed(s);
		}
		break;
	}
}

/* ---- target ---------------------------------------------------------- */

/* Answers the source's "completed?" with this side's outcome, then ends. */
static void
target_answer_confirm(struct session *s)
{
	act_answer(s, s->end_phase == PHASE_SUCCEEDED ? ANSWER_RUNNING :
	    ANSWER_FAILED, s->st->failure_reason);
	act_timer(s, STIMER_END, 0.3);
}

/*
 * The end of an incoming migration.  Over tls:, the source waits for this
 * side's word before it reports success (or resumes its guest): answer its
 * question, or wait a little for it to come.  The first outcome stands.
 */
static void
target_end(struct session *s, enum mig_phase phase)
{
	if (s->state == SS_ENDING || s->state == SS_DONE)
		return;
	if (!s->cfg.tls || !s->offered) {
		finish(s, phase);
		return;
	}
	s->end_phase = phase;
	enter(s, SS_ENDING);
	status_changed(s->st, "ending");
	if (s->confirm_asked)
		target_answer_confirm(s);
	else
		act_timer(s, STIMER_END, CONFIRM_WAIT_SECONDS);
}

static void
target_fail(struct session *s, enum mig_failure why, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
target_fail(struct session *s, enum mig_failure why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record(s, why, fmt, ap);
	va_end(ap);
	target_end(s, PHASE_FAILED);
}

/* Refuses the source's offer: the answer leaves, then the end. */
static void
target_refuse(struct session *s, const char *reason)
{
	act_answer(s, ANSWER_REFUSED, reason);
	status_record_failure(s->st, FAIL_CONTROL, "refused the source's "
	    "migration: %s", reason);
	s->end_phase = PHASE_FAILED;
	enter(s, SS_ENDING);
	act_timer(s, STIMER_END, 0.5);
}

/* Tells the source (tls:) that QEMU listens for its resume. */
static void
target_resume_ready(struct session *s)
{
	if (!s->resume_asked || !s->recover_listening)
		return;
	s->resume_asked = 0;
	act_answer(s, ANSWER_READY, NULL);
}

static void
target_recover(struct session *s, double t)
{
	enter(s, SS_RECOVER);
	if (s->recover_deadline == 0) {
		s->recover_deadline = t + s->cfg.recover_timeout;
		status_note(s->st, "post-copy stream broken: target paused in "
		    "postcopy-paused; waiting up to %.0f s for the source to "
		    "resume", s->cfg.recover_timeout);
	}
	if (t > s->recover_deadline) {
		status_record_failure(s->st, FAIL_POSTCOPY_LOST, "post-copy "
		    "was not recovered within %.0f s: the guest is "
		    "irrecoverable; the target QEMU is left paused for the "
		    "operator", s->cfg.recover_timeout);
		finish(s, PHASE_FAILED);
		return;
	}
	if (s->recover_sent || t - s->last_resume_try < RETRY_SECONDS)
		return;
	s->last_resume_try = t;
	s->recover_sent = 1;
	act_qmp(s, SC_MIGRATE_RECOVER, 0, 0);
}

/* The target's own abort ended the stream: the guest stays on the source. */
static int
target_abort_happened(struct session *s)
{
	if (!s->abort_pending)
		return 0;
	status_set_abort(s->st, ABORT_SUCCEEDED);
	return 1;
}

static void
target_sample(struct session *s, const struct sess_event *ev)
{
	const struct mig_info *mi = ev->mi;

	status_set_progress(s->st, mi, ev->t - s->t0);
	if (s->state == SS_ENDING)
		return;
	if (s->unlistened && s->st->abort_status == ABORT_ABORTING) {
		if (mi->status == QMS_NONE || mi->status == QMS_SETUP) {
			status_set_abort(s->st, ABORT_SUCCEEDED);
			fail(s, FAIL_ABORTED, "abort requested (%s) before any "
			    "migration arrived: the target QEMU's socket %s is "
			    "removed, no source can reach it", signal_name(
			    s->unlisten_signum), s->cfg.peer);
			return;
		}
		/* A source connected just before: too late to abort. */
		status_set_abort(s->st, ABORT_FAILED);
		status_note(s->st, "abort refused (%s): the migration had "
		    "already arrived; abort on the source",
		    signal_name(s->unlisten_signum));
	}
	/*
	 * A newer target QEMU (10.0, 11.1) says "setup" from migrate-incoming,
	 * before any source connects (7.2 says nothing): only "active" and
	 * later mean a migration arrived.
	 */
	if (mi->status == QMS_ACTIVE || qemu_mig_status_postcopy(mi->status)) {
		if (!s->started) {
			s->started = 1;
			status_set_phase(s->st, PHASE_RUNNING);
			enter(s, SS_PRECOPY);
		}
	}
	if (mi->status == QMS_POSTCOPY_ACTIVE) {
		if (s->recover_deadline != 0) {
			status_note(s->st, "post-copy recovered");
			s->recover_deadline = 0;
			s->recover_sent = 0;
			s->recover_listening = 0;
		}
		status_set_mode(s->st, MODE_POSTCOPY);
		enter(s, SS_POSTCOPY);
	} else if (mi->status == QMS_POSTCOPY_PAUSED) {
		target_recover(s, ev->t);
		if (s->state == SS_DONE)
			return;
	} else if (mi->status == QMS_COMPLETED)
		s->completed = 1;
	else if (mi->status == QMS_FAILED) {
		if (target_abort_happened(s))
			target_fail(s, FAIL_ABORTED, "aborted here: the stream "
			    "was stopped; the guest runs on the source");
		else if (s->source_aborted)
			target_fail(s, FAIL_ABORTED, "the source aborted the "
			    "migration");
		else
			target_fail(s, FAIL_DATA, "incoming migration failed: "
			    "%s", mi->error_desc[0] != '\0' ? mi->error_desc :
			    "no reason given");
		return;
	}
	if (s->completed && ev->disks_released)
		act(s, SA_QUERY_STATUS);
	status_progress(s->st);
}

static void
target_run_state(struct session *s, const struct run_info *ri)
{
	if (s->state == SS_ENDING || s->state == SS_DONE)
		return;
	if (ri->state == RUN_RUNNING) {
		log_info("guest running on the target");
		target_end(s, PHASE_SUCCEEDED);
		return;
	}
	/*
	 * Arrived paused: the source paused it for us (workload disruption)
	 * or it was paused before.  Resume unless told to keep it paused.
	 */
	if (ri->state != RUN_PAUSED || s->resuming)
		return;
	if (s->cfg.keep_paused || s->arrives_paused) {
		status_note(s->st, "guest arrived paused and is kept paused%s",
		    s->cfg.keep_paused ? " (--keep-paused)" :
		    " (it was paused on the source)");
		target_end(s, PHASE_SUCCEEDED);
		return;
	}
	s->resuming = 1;
	status_note(s->st, "guest arrived paused: resuming it");
	act_qmp(s, SC_CONT, 0, 0);
}

static void
target_offer(struct session *s, const struct control_msg *m)
{
	const struct control_offer	*o = &m->offer;
	char				 reason[SESS_REASON_MAX];

	if (s->state == SS_SETUP && !s->offer_early) {
		/* The proxy listens before QEMU is checked: answer after. */
		s->offer_early = 1;
		s->early_offer = *m;
		s->early_offer.offer.disks = NULL;
		s->early_offer.offer.ndisks = 0;
		return;
	}
	if (s->offered || s->state != SS_OFFER) {
		act_answer(s, ANSWER_REFUSED, "a migration is already under "
		    "way here");
		return;
	}
	s->offered = 1;
	if (s->abort_pending) {
		target_refuse(s, "the target's qmigrate was asked to abort");
		return;
	}
	/* A malformed offer, or another migration than this target's. */
	if (m->offer_error[0] != '\0') {
		target_refuse(s, m->offer_error);
		return;
	}
	if (o->has_version && (o->qemu_major > s->cfg.qemu_major ||
	    (o->qemu_major == s->cfg.qemu_major &&
	    o->qemu_minor > s->cfg.qemu_minor))) {
		snprintf(reason, sizeof reason, "target QEMU %d.%d.%d is older "
		    "than the source's %d.%d.%d", s->cfg.qemu_major,
		    s->cfg.qemu_minor, s->cfg.qemu_micro, o->qemu_major,
		    o->qemu_minor, o->qemu_micro);
		target_refuse(s, reason);
		return;
	}
	s->arrives_paused = !o->guest_running;
	if (o->uid[0] != '\0')
		status_note(s->st, "migration %s from the source over %s",
		    o->uid, s->cfg.peer);
	act(s, SA_JOB)->job = SJ_PREPARE_TARGET;
}

static void
target_control(struct session *s, const struct control_msg *m)
{
	switch (m->type) {
	case CONTROL_OFFER:
		target_offer(s, m);
		return;
	case CONTROL_WATCH:
		if (s->abort_pending)
			act_answer(s, ANSWER_ABORT, s->st->failure_reason);
		else
			act_answer(s, ANSWER_OK, NULL);
		return;
	case CONTROL_ABORT:
		s->source_aborted = 1;
		status_note(s->st, "the source aborted: %s", m->reason);
		act_answer(s, ANSWER_OK, NULL);
		return;
	case CONTROL_COMPLETED:
		/* Answered when this side knows (target_end). */
		s->confirm_asked = 1;
		if (s->state == SS_ENDING)
			target_answer_confirm(s);
		return;
	case CONTROL_RESUME:
		/* Answered once migrate-recover listens. */
		s->resume_asked = 1;
		target_resume_ready(s);
		return;
	case CONTROL_UNKNOWN:
		act_answer(s, ANSWER_OK, NULL);
		return;
	}
}

/*
 * SIGINT/SIGTERM on the target.  Before QEMU listens, nothing can arrive:
 * stop.  Over tls:, the source is told (its next watch) and cancels; if it
 * does not, the stream is cut.  Over unix: or tcp: the target cannot stop
 * a stream its QEMU receives directly: refused, and the real outcome is
 * reported.  Once post-copy started, this QEMU holds the guest: refused.
 */
static void
target_signal(struct session *s, const struct sess_event *ev)
{
	struct status	*st = s->st;
	const char	*sig = signal_name(ev->signum);

	if (s->state == SS_DONE)
		return;
	status_set_abort_requested(st);
	if (s->state == SS_SETUP) {
		/* QEMU may be listening already: decide once setup is over. */
		s->setup_signum = ev->signum;
		return;
	}
	if (s->state == SS_OFFER && !s->offered) {
		status_set_abort(st, ABORT_SUCCEEDED);
		fail(s, FAIL_ABORTED, "abort requested (%s) before any "
		    "migration reached this target", sig);
		return;
	}
	if (s->state == SS_ENDING || in_postcopy(s)) {
		status_set_abort(st, ABORT_FAILED);
		status_note(st, "abort refused (%s): %s", sig,
		    s->state == SS_ENDING ? "the migration has already ended "
		    "here" : "post-copy has started and this target holds "
		    "the guest");
		status_changed(st, "abort");
		return;
	}
	if (!s->cfg.tls && s->cfg.unix_listen && !s->started &&
	    !s->unlistened) {
		/*
		 * Nothing arrived yet: once the socket's path is gone no
		 * source can connect.  The next sample says whether one did
		 * meanwhile (target_sample).
		 */
		s->unlistened = 1;
		s->unlisten_signum = ev->signum;
		status_set_abort(st, ABORT_ABORTING);
		act(s, SA_UNLISTEN);
		act(s, SA_POLL);
		return;
	}
	if (!s->cfg.tls) {
		status_set_abort(st, ABORT_FAILED);
		status_note(st, "abort refused (%s): over %s the target cannot "
		    "stop the stream its QEMU receives; abort on the source "
		    "(qmigrate abort, or SIGTERM to qmigrate migrate)", sig,
		    s->cfg.peer);
		status_changed(st, "abort");
		return;
	}
	if (s->abort_pending)
		return;
	s->abort_pending = 1;
	status_set_abort(st, ABORT_ABORTING);
	status_record_failure(st, FAIL_ABORTED, "abort requested (%s) on the "
	    "target: the source is told to cancel", sig);
	status_changed(st, "abort");
	act_timer(s, STIMER_CUT, CUT_SECONDS);
}

static void
target_step(struct session *s, const struct sess_event *ev)
{
	switch (ev->kind) {
	case SEV_SETUP_DONE:
		if (s->state != SS_SETUP)
			break;
		if (!ev->ok) {
			if (s->setup_signum != 0)
				status_set_abort(s->st, ABORT_SUCCEEDED);
			fail(s, ev->fail, "%s", ev->reason);
			break;
		}
		if (s->cfg.tls) {
			status_set_phase(s->st, PHASE_PREPARING_TARGET);
			enter(s, SS_OFFER);
			if (s->offer_early)
				target_offer(s, &s->early_offer);
		} else {
			status_set_phase(s->st, PHASE_TARGET_READY);
			enter(s, SS_LISTEN);
		}
		if (s->setup_signum != 0) {
			struct sess_event sig = *ev;

			sig.kind = SEV_SIGNAL;
			sig.signum = s->setup_signum;
			target_signal(s, &sig);
		}
		break;
	case SEV_JOB_DONE:
		if (s->state != SS_OFFER)
			break;
		if (!ev->ok) {
			target_refuse(s, ev->reason);
			break;
		}
		act_answer(s, ANSWER_READY, NULL);
		status_set_phase(s->st, PHASE_TARGET_READY);
		enter(s, SS_LISTEN);
		break;
	case SEV_QMP_DONE:
		if (ev->cmd == SC_MIGRATE_RECOVER) {
			if (!ev->ok) {
				log_warnx("migrate-recover: %s", ev->reason);
				s->recover_sent = 0;
				break;
			}
			s->recover_listening = 1;
			target_resume_ready(s);
		} else if (ev->cmd == SC_CONT && !ev->ok)
			target_fail(s, FAIL_DATA, "the guest arrived but cannot "
			    "be resumed on the target: %s", ev->reason);
		break;
	case SEV_SAMPLE:
		if (s->state != SS_DONE && s->state != SS_SETUP)
			target_sample(s, ev);
		break;
	case SEV_RUN_STATE:
		target_run_state(s, ev->ri);
		break;
	case SEV_RESUMED:
		if ((s->completed || s->st->mode == MODE_POSTCOPY) &&
		    !s->cfg.disks && s->state != SS_ENDING &&
		    s->state != SS_DONE)
			act(s, SA_QUERY_STATUS);
		break;
	case SEV_QMP_CLOSED:
		if (s->state == SS_DONE || s->state == SS_ENDING)
			break;
		/* QEMU exits when an incoming migration fails. */
		if (!in_postcopy(s) && target_abort_happened(s))
			target_fail(s, FAIL_ABORTED, "aborted here: the stream "
			    "was stopped and the target QEMU exited (%s); the "
			    "guest runs on the source", ev->reason);
		else if (s->source_aborted && !in_postcopy(s))
			target_fail(s, FAIL_ABORTED, "the source aborted the "
			    "migration; the target QEMU exited (%s)",
			    ev->reason);
		else if (in_postcopy(s))
			target_fail(s, FAIL_POSTCOPY_LOST, "target QEMU gone "
			    "during post-copy: %s", ev->reason);
		else
			target_fail(s, FAIL_DATA, "target QEMU gone before the "
			    "guest arrived: %s", ev->reason);
		break;
	case SEV_CONTROL:
		if (s->state != SS_DONE)
			target_control(s, ev->msg);
		break;
	case SEV_ANSWER:
		break;
	case SEV_CONTROL_LOST:
		/* Fatal only before the stream began. */
		if (!s->started && (s->state == SS_OFFER ||
		    s->state == SS_LISTEN))
			fail(s, FAIL_CONTROL, "the source ended the session "
			    "before any guest memory moved: %s", ev->reason);
		break;
	case SEV_SIGNAL:
		target_signal(s, ev);
		break;
	case SEV_DEADLINE:
		if (!s->started && s->state != SS_DONE &&
		    s->state != SS_ENDING)
			fail(s, FAIL_CONTROL, "no migration arrived within "
			    "%.0f s (--timeout)", s->cfg.timeout);
		break;
	case SEV_TIMER:
		if (ev->timer == STIMER_END && s->state == SS_ENDING)
			finish(s, s->end_phase);
		else if (ev->timer == STIMER_CUT && s->abort_pending &&
		    s->state != SS_DONE && s->state != SS_ENDING &&
		    !in_postcopy(s)) {
			status_note(s->st, "the source did not cancel within "
			    "%.0f s: the stream is cut", CUT_SECONDS);
			act(s, SA_CUT);
		}
		break;
	}
}

/*
 * One event in, s->acts out (s->nacts of them, to be carried out in
 * order).  Status changes made here are published by the executor.
 */
void
session_step(struct session *s, const struct sess_event *ev)
{
	s->nacts = 0;
	if (s->cfg.role == SESS_SOURCE)
		source_step(s, ev);
	else
		target_step(s, ev);
}
