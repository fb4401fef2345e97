/*
 * mig-session-target.c: the target's transition table (mig-session.h).
 * One handler per state, each switching on the event.  The target never
 * decides where the guest goes, it reports it: the stream arrived and the
 * guest runs here (Succeeded), or it did not, and the exports it made for
 * the source's disks are removed before the last document.  Over tls: it
 * answers the source's questions (the offer, "watch", "completed?",
 * "resume?"), asks the source to abort on a signal, and cuts the stream
 * if the source does not.
 */
#include <stdio.h>
#include <string.h>

#include "mig-session.h"

/* Between two migrate-recover attempts. */
#define RETRY_SECONDS		1.0
/* The source gets this long to cancel before the stream is cut. */
#define CUT_SECONDS		5.0
/* Waiting for the source's "completed?" once the outcome is known. */
#define CONFIRM_WAIT_SECONDS	10.0
/* The answer to "completed?" gets this long to leave. */
#define ANSWER_LEAVES_SECONDS	0.3
/* How long the source gets to end its mirrors once the memory arrived. */
/* A stream whose source's control connection ended gets this long. */
#define SOURCE_GONE_SECONDS	30.0
/*
 * The source's "watch" is held this long before "ok": an abort asked for
 * here meanwhile is its answer at once, whatever QEMU is doing (the
 * source asks again as soon as it hears "ok").
 */
#define WATCH_HOLD_SECONDS	1.0

static void
answer(struct session *s, enum control_answer a, const char *reason)
{
	sess_act_why(s, SA_ANSWER, reason)->answer = a;
}

/* Answers a held "watch": abort when one was asked for here, else ok. */
static void
release_watch(struct session *s)
{
	if (!s->watch_held)
		return;
	s->watch_held = 0;
	if (s->abort_asked_here)
		answer(s, ANSWER_ABORT, s->failure_reason);
	else
		answer(s, ANSWER_OK, NULL);
}

/* ---- the end ------------------------------------------------------- */

/* Answers the source's "completed?" with this side's outcome, then ends. */
static void
answer_confirm(struct session *s)
{
	answer(s, s->end_phase == PHASE_SUCCEEDED ? ANSWER_RUNNING :
	    ANSWER_FAILED, s->failure_reason);
	sess_timer(s, STIMER_END, ANSWER_LEAVES_SECONDS);
}

/* After the exports are gone: over tls:, the source waits for our word. */
static void
target_conclude(struct session *s)
{
	if (!s->cfg.tls || !s->offered || s->control_lost) {
		sess_finish(s, s->end_phase);
		return;
	}
	sess_enter(s, SS_ENDING);
	sess_publish(s, "ending");
	if (s->confirm_asked)
		answer_confirm(s);
	else
		sess_timer(s, STIMER_END, CONFIRM_WAIT_SECONDS);
}

/*
 * The end of an incoming migration; the first outcome stands.  A failed
 * one removes the disks' exports first (SS_CLEANUP).
 */
void
target_end(struct session *s, enum mig_phase phase)
{
	if (s->state == SS_ENDING || s->state == SS_CLEANUP ||
	    s->state == SS_DONE)
		return;
	release_watch(s);
	s->end_phase = phase;
	if (phase == PHASE_FAILED && s->mirrors_out) {
		sess_enter(s, SS_CLEANUP);
		sess_job(s, SJ_STOP_EXPORTS, 0);
		return;
	}
	target_conclude(s);
}

/* Refuses the source's offer: the answer leaves, then the end. */
static void
target_refuse(struct session *s, const char *reason)
{
	answer(s, ANSWER_REFUSED, reason);
	sess_failure(s, FAIL_CONTROL, "refused the source's migration: %s",
	    reason);
	s->end_phase = PHASE_FAILED;
	s->confirm_asked = 0;
	sess_enter(s, SS_ENDING);
	sess_timer(s, STIMER_END, 0.5);
}

/* Nothing arrived and nothing will: an abort that happened here. */
static void
target_aborted_early(struct session *s, const char *reason)
{
	sess_abort_status(s, ABORT_SUCCEEDED);
	sess_fail(s, FAIL_ABORTED, "%s", reason);
}

/* ---- post-copy recovery -------------------------------------------- */

/* Tells the source (tls:) that QEMU listens for its resume. */
static void
resume_ready(struct session *s)
{
	if (!s->recover.source_asked || !s->recover.listening)
		return;
	s->recover.source_asked = 0;
	answer(s, ANSWER_READY, NULL);
}

static void
target_recover(struct session *s, double t)
{
	struct sess_recover *r = &s->recover;

	if (sess_recover_lost(s, t, "target paused in postcopy-paused; "
	    "waiting for the source to resume", "the target QEMU is")) {
		sess_finish(s, PHASE_FAILED);
		return;
	}
	if (r->sent || t - r->last_try < RETRY_SECONDS)
		return;
	r->last_try = t;
	r->sent = 1;
	sess_qmp(s, SC_MIGRATE_RECOVER, 0, 0);
}

/* ---- samples ------------------------------------------------------- */

/* QEMU completed: the exports go once the source's mirrors ended. */
static void
target_arrived(struct session *s)
{
	release_watch(s);
	sess_enter(s, SS_ARRIVED);
	if (s->mirrors_out)
		sess_job(s, SJ_RELEASE_DISKS, 0);
	else
		sess_act(s, SA_QUERY_STATUS);
}

static void
target_sample(struct session *s, const struct sess_event *ev)
{
	const struct mig_info	*mi = ev->mi;
	char			 reason[SESS_REASON_MAX];

	s->silent_since = 0;
	sess_progress(s, mi, ev->t - s->t0);
	if (s->unlisten_signum != 0 && s->abort == ABORT_ABORTING) {
		if (mi->status == QMS_NONE || mi->status == QMS_SETUP) {
			snprintf(reason, sizeof reason, "abort requested (%s) "
			    "before any migration arrived: the target QEMU's "
			    "socket is removed, no source can reach it",
			    sess_signal_name(s->unlisten_signum));
			target_aborted_early(s, reason);
			return;
		}
		/* A source connected just before: too late to abort. */
		sess_abort_status(s, ABORT_FAILED);
		sess_note(s, "abort refused (%s): the migration had already "
		    "arrived; abort on the source",
		    sess_signal_name(s->unlisten_signum));
	}
	/*
	 * A newer target QEMU (10.0, 11.1) says "setup" from migrate-incoming,
	 * before any source connects (7.2 says nothing): only "active" and
	 * later mean a migration arrived.
	 */
	if (!s->started && (mi->status == QMS_ACTIVE ||
	    qemu_mig_status_postcopy(mi->status) ||
	    mi->status == QMS_COMPLETED)) {
		s->started = 1;
		s->t0 = ev->t;
		sess_phase(s, PHASE_RUNNING);
		sess_enter(s, SS_PRECOPY);
	}
	switch (mi->status) {
	case QMS_POSTCOPY_ACTIVE:
	case QMS_POSTCOPY_DEVICE:
		if (s->state == SS_RECOVER) {
			sess_note(s, "post-copy recovered");
			memset(&s->recover, 0, sizeof s->recover);
		}
		if (s->mode != MODE_POSTCOPY)
			sess_mode(s, MODE_POSTCOPY);
		release_watch(s);
		sess_enter(s, SS_POSTCOPY);
		break;
	case QMS_POSTCOPY_PAUSED:
		target_recover(s, ev->t);
		if (s->state == SS_DONE)
			return;
		break;
	case QMS_COMPLETED:
		target_arrived(s);
		break;
	case QMS_FAILED:
		if (s->abort_asked_here) {
			sess_abort_status(s, ABORT_SUCCEEDED);
			sess_fail(s, FAIL_ABORTED, "aborted here: the stream "
			    "was stopped; the guest runs on the source");
		} else if (s->source_aborted)
			sess_fail(s, FAIL_ABORTED, "the source aborted the "
			    "migration");
		else
			sess_fail(s, FAIL_DATA, "incoming migration failed: "
			    "%s", mi->error_desc[0] != '\0' ? mi->error_desc :
			    "no reason given");
		return;
	default:
		break;
	}
	sess_publish(s, "progress");
}

/* ---- the source's messages (tls:) ---------------------------------- */

static void
target_offer(struct session *s, const struct control_msg *m)
{
	const struct control_offer	*o = &m->offer;
	char				 reason[SESS_REASON_MAX];

	if (s->offered || s->state != SS_OFFERED_WAIT) {
		answer(s, ANSWER_REFUSED, "a migration is already under way "
		    "here");
		return;
	}
	s->offered = 1;
	if (s->abort_asked_here) {
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
		sess_note(s, "migration %s from the source over %s", o->uid,
		    s->cfg.peer);
	sess_enter(s, SS_PREPARING);
	sess_job(s, SJ_PREPARE_TARGET, 0);
}

static void
target_control(struct session *s, const struct sess_event *ev)
{
	const struct control_msg *m = ev->msg;

	switch (m->type) {
	case CONTROL_OFFER:
		if (s->state == SS_SETUP && !s->early_offer) {
			/* The proxy listens before QEMU is checked. */
			s->early_offer = 1;
			s->early_msg = *m;
			s->early_msg.offer.disks = NULL;
			s->early_msg.offer.ndisks = 0;
			return;
		}
		target_offer(s, m);
		return;
	case CONTROL_WATCH:
		if (s->abort_asked_here)
			answer(s, ANSWER_ABORT, s->failure_reason);
		else if (s->watch_held || (s->state != SS_LISTEN &&
		    s->state != SS_PRECOPY && s->state != SS_PREPARING))
			answer(s, ANSWER_OK, NULL);
		else {
			s->watch_held = 1;
			sess_timer(s, STIMER_WATCH, WATCH_HOLD_SECONDS);
		}
		return;
	case CONTROL_ABORT:
		s->source_aborted = 1;
		sess_note(s, "the source aborted: %s", m->reason);
		answer(s, ANSWER_OK, NULL);
		if (s->state == SS_LISTEN || s->state == SS_PREPARING) {
			/* Nothing arrived; the source will send nothing. */
			if (s->abort_asked_here)
				target_aborted_early(s, "aborted here: the "
				    "source cancelled before any memory moved; "
				    "the guest runs on the source");
			else
				sess_fail(s, FAIL_ABORTED, "the source "
				    "aborted the migration before any memory "
				    "moved: %s", m->reason);
		}
		return;
	case CONTROL_COMPLETED:
		/* Answered when this side knows (target_conclude). */
		s->confirm_asked = 1;
		if (s->state == SS_ENDING)
			answer_confirm(s);
		return;
	case CONTROL_RESUME:
		/* Answered once migrate-recover listens. */
		s->recover.source_asked = 1;
		resume_ready(s);
		return;
	case CONTROL_UNKNOWN:
		answer(s, ANSWER_OK, NULL);
		return;
	}
}

/*
 * SIGINT/SIGTERM.  Before QEMU listens, nothing can arrive: stop.  Over
 * tls:, the source is told (its next watch) and cancels; if it does not,
 * the stream is cut.  Over unix: or tcp: the target cannot stop a stream
 * its QEMU receives directly: refused, and the real outcome is reported.
 * Once post-copy started, this QEMU holds the guest: refused.
 */
static void
target_signal(struct session *s, const struct sess_event *ev)
{
	const char	*sig = sess_signal_name(ev->signum);
	char		 reason[SESS_REASON_MAX];

	sess_abort_requested(s);
	switch (s->state) {
	case SS_SETUP:
		/* QEMU may be listening already: decide once setup is over. */
		s->setup_signum = ev->signum;
		return;
	case SS_OFFERED_WAIT:
		snprintf(reason, sizeof reason, "abort requested (%s) before "
		    "any migration reached this target", sig);
		target_aborted_early(s, reason);
		return;
	case SS_POSTCOPY:
	case SS_RECOVER:
	case SS_ARRIVED:
	case SS_ENDING:
	case SS_CLEANUP:
		sess_abort_status(s, ABORT_FAILED);
		sess_note(s, "abort refused (%s): %s", sig,
		    s->state == SS_POSTCOPY || s->state == SS_RECOVER ?
		    "post-copy has started and this target holds the guest" :
		    "the migration has already ended here");
		sess_publish(s, "abort");
		return;
	default:
		break;
	}
	if (!s->cfg.tls && s->cfg.unix_listen && !s->started &&
	    s->unlisten_signum == 0) {
		/*
		 * Nothing arrived yet: once the socket's path is gone no
		 * source can connect.  The next sample says whether one did
		 * meanwhile (target_sample).
		 */
		s->unlisten_signum = ev->signum;
		sess_abort_status(s, ABORT_ABORTING);
		sess_act(s, SA_UNLISTEN);
		sess_act(s, SA_POLL);
		return;
	}
	if (!s->cfg.tls) {
		sess_abort_status(s, ABORT_FAILED);
		sess_note(s, "abort refused (%s): over %s the target cannot "
		    "stop the stream its QEMU receives; abort on the source "
		    "(qmigrate abort, or SIGTERM to qmigrate migrate)", sig,
		    s->cfg.peer);
		sess_publish(s, "abort");
		return;
	}
	if (s->abort_asked_here)
		return;
	s->abort_asked_here = 1;
	sess_abort_status(s, ABORT_ABORTING);
	sess_failure(s, FAIL_ABORTED, "abort requested (%s) on the target: "
	    "the source is told to cancel", sig);
	sess_publish(s, "abort");
	sess_timer(s, STIMER_CUT, CUT_SECONDS);
	release_watch(s);
}

/* ---- states -------------------------------------------------------- */

static void
state_setup(struct session *s, const struct sess_event *ev)
{
	struct sess_event sig;

	switch (ev->kind) {
	case SEV_SETUP_DONE:
		if (!ev->ok) {
			if (s->setup_signum != 0)
				sess_abort_status(s, ABORT_SUCCEEDED);
			sess_failure(s, ev->fail, "%s", ev->reason);
			sess_finish(s, PHASE_FAILED);
			break;
		}
		s->mirrors_out = s->cfg.disks;
		if (s->cfg.tls) {
			sess_phase(s, PHASE_PREPARING_TARGET);
			sess_enter(s, SS_OFFERED_WAIT);
		} else {
			sess_phase(s, PHASE_TARGET_READY);
			sess_enter(s, SS_LISTEN);
		}
		if (s->setup_signum != 0) {
			sig = *ev;
			sig.kind = SEV_SIGNAL;
			sig.signum = s->setup_signum;
			target_signal(s, &sig);
		}
		if (s->early_offer && s->state == SS_OFFERED_WAIT)
			target_offer(s, &s->early_msg);
		break;
	case SEV_CONTROL:
		target_control(s, ev);
		break;
	case SEV_SIGNAL:
		target_signal(s, ev);
		break;
	case SEV_DEADLINE:
		sess_failure(s, FAIL_CONTROL, "no migration arrived within "
		    "%.0f s (--timeout)", s->cfg.timeout);
		sess_finish(s, PHASE_FAILED);
		break;
	default:
		break;
	}
}

/*
 * What the waiting and migrating states share.  The guest running here
 * during post-copy is not the end: its pages still come from the source,
 * and a broken stream must be recovered here; the end is QEMU's
 * "completed" (SS_ARRIVED).
 */
static void
state_common(struct session *s, const struct sess_event *ev)
{
	switch (ev->kind) {
	case SEV_SAMPLE:
		target_sample(s, ev);
		break;
	case SEV_CONTROL:
		target_control(s, ev);
		break;
	case SEV_SIGNAL:
		target_signal(s, ev);
		break;
	case SEV_QMP_DONE:
		if (ev->cmd == SC_MIGRATE_RECOVER) {
			if (!ev->ok) {
				sess_log(s, 2, "migrate-recover: %s",
				    ev->reason);
				s->recover.sent = 0;
				break;
			}
			s->recover.listening = 1;
			resume_ready(s);
		}
		break;
	case SEV_QMP_CLOSED:
		/* QEMU exits when an incoming migration fails. */
		s->mirrors_out = 0;
		if (s->state == SS_POSTCOPY || s->state == SS_RECOVER)
			sess_fail(s, FAIL_POSTCOPY_LOST, "target QEMU gone "
			    "during post-copy: %s", ev->reason);
		else if (s->abort_asked_here) {
			sess_abort_status(s, ABORT_SUCCEEDED);
			sess_fail(s, FAIL_ABORTED, "aborted here: the stream "
			    "was stopped and the target QEMU exited (%s); the "
			    "guest runs on the source", ev->reason);
		} else if (s->source_aborted)
			sess_fail(s, FAIL_ABORTED, "the source aborted the "
			    "migration; the target QEMU exited (%s)",
			    ev->reason);
		else
			sess_fail(s, FAIL_DATA, "target QEMU gone before the "
			    "guest arrived: %s", ev->reason);
		break;
	case SEV_QMP_SILENT:
		if (sess_monitor_silent(s, ev))
			sess_fail(s, FAIL_UNKNOWN, "target QEMU %s: the "
			    "monitor stopped answering: whether the guest "
			    "arrived is not known", s->cfg.qmp_path);
		break;
	case SEV_CONTROL_LOST:
		if (!s->started && s->state == SS_LISTEN) {
			sess_fail(s, FAIL_CONTROL, "the source ended the "
			    "session before any guest memory moved: %s",
			    ev->reason);
		} else if (s->state == SS_PRECOPY)
			sess_timer(s, STIMER_SOURCE_GONE,
			    SOURCE_GONE_SECONDS);
		break;
	case SEV_DEADLINE:
		if (!s->started)
			sess_fail(s, FAIL_CONTROL, "no migration arrived "
			    "within %.0f s (--timeout)", s->cfg.timeout);
		break;
	case SEV_TIMER:
		if (ev->timer == STIMER_CUT && s->abort_asked_here &&
		    (s->state == SS_LISTEN || s->state == SS_PRECOPY ||
		    s->state == SS_PREPARING)) {
			sess_note(s, "the source did not cancel within %.0f s: "
			    "the stream is cut", CUT_SECONDS);
			sess_act(s, SA_CUT);
			s->control_lost = 1;	/* cut with the stream */
			s->watch_held = 0;
			if (!s->started)
				target_aborted_early(s, "aborted here before "
				    "any memory moved: the connection to the "
				    "source is cut; the guest runs on the "
				    "source");
			else
				sess_timer(s, STIMER_SOURCE_GONE,
				    CONFIRM_WAIT_SECONDS);
		} else if (ev->timer == STIMER_WATCH)
			release_watch(s);
		else if (ev->timer == STIMER_SOURCE_GONE &&
		    s->state == SS_PRECOPY) {
			sess_act(s, SA_CUT);
			s->control_lost = 1;
			s->watch_held = 0;
			if (s->abort_asked_here) {
				sess_abort_status(s, ABORT_SUCCEEDED);
				sess_fail(s, FAIL_ABORTED, "aborted here: "
				    "the stream was cut; the guest runs on the "
				    "source");
			} else
				sess_fail(s, FAIL_DATA, "the source's "
				    "control connection ended and the "
				    "migration did not end within %.0f s: the "
				    "stream is cut", SOURCE_GONE_SECONDS);
		}
		break;
	default:
		break;
	}
}

static void
state_preparing(struct session *s, const struct sess_event *ev)
{
	switch (ev->kind) {
	case SEV_JOB_DONE:
		if (ev->job != SJ_PREPARE_TARGET)
			break;
		if (!ev->ok) {
			target_refuse(s, ev->reason);
			break;
		}
		s->mirrors_out = s->cfg.disks;
		if (s->abort_asked_here) {
			target_refuse(s, "the target's qmigrate was asked to "
			    "abort");
			if (s->mirrors_out) {
				s->end_phase = PHASE_FAILED;
				sess_job(s, SJ_STOP_EXPORTS, 0);
				s->mirrors_out = 0;
			}
			break;
		}
		answer(s, ANSWER_READY, NULL);
		sess_phase(s, PHASE_TARGET_READY);
		sess_enter(s, SS_LISTEN);
		break;
	case SEV_CONTROL_LOST:
		sess_fail(s, FAIL_CONTROL, "the source ended the session "
		    "before any guest memory moved: %s", ev->reason);
		break;
	default:
		state_common(s, ev);
		break;
	}
}

static void
state_arrived(struct session *s, const struct sess_event *ev)
{
	switch (ev->kind) {
	case SEV_JOB_DONE:
		if (ev->job != SJ_RELEASE_DISKS)
			break;
		if (!ev->ok)
			sess_note(s, "disks: %s; exports removed by force",
			    ev->reason);
		s->mirrors_out = 0;
		sess_act(s, SA_QUERY_STATUS);
		break;
	case SEV_RESUMED:
		if (!s->mirrors_out)
			sess_act(s, SA_QUERY_STATUS);
		break;
	case SEV_RUN_STATE:
		if (ev->ri->state == RUN_RUNNING) {
			sess_log(s, 1, "guest running on the target");
			target_end(s, PHASE_SUCCEEDED);
			break;
		}
		/*
		 * Arrived paused: the source paused it for us (workload
		 * disruption) or it was paused before.  Resume unless told to
		 * keep it paused.
		 */
		if (ev->ri->state != RUN_PAUSED || s->resuming)
			break;
		if (s->cfg.keep_paused || s->arrives_paused) {
			sess_note(s,
			    "guest arrived paused and is kept paused%s",
			    s->cfg.keep_paused ? " (--keep-paused)" :
			    " (it was paused on the source)");
			target_end(s, PHASE_SUCCEEDED);
			break;
		}
		s->resuming = 1;
		sess_note(s, "guest arrived paused: resuming it");
		sess_qmp(s, SC_CONT, 0, 0);
		break;
	case SEV_QMP_DONE:
		if (ev->cmd == SC_CONT && !ev->ok)
			sess_fail(s, FAIL_DATA, "the guest arrived but cannot "
			    "be resumed on the target: %s", ev->reason);
		break;
	case SEV_SAMPLE:
		s->silent_since = 0;
		sess_progress(s, ev->mi, ev->t - s->t0);
		break;
	case SEV_CONTROL:
		target_control(s, ev);
		break;
	case SEV_SIGNAL:
		target_signal(s, ev);
		break;
	case SEV_QMP_CLOSED:
		sess_fail(s, FAIL_DATA, "target QEMU gone after the guest "
		    "arrived: %s", ev->reason);
		break;
	case SEV_QMP_SILENT:
		if (sess_monitor_silent(s, ev))
			sess_fail(s, FAIL_UNKNOWN, "target QEMU %s: the "
			    "monitor stopped answering after the migration "
			    "completed", s->cfg.qmp_path);
		break;
	default:
		break;
	}
}

static void
state_ending(struct session *s, const struct sess_event *ev)
{
	switch (ev->kind) {
	case SEV_CONTROL:
		target_control(s, ev);
		break;
	case SEV_SIGNAL:
		target_signal(s, ev);
		break;
	case SEV_CONTROL_LOST:
		sess_finish(s, s->end_phase);
		break;
	case SEV_TIMER:
		if (ev->timer == STIMER_END)
			sess_finish(s, s->end_phase);
		break;
	default:
		break;
	}
}

static void
state_cleanup(struct session *s, const struct sess_event *ev)
{
	switch (ev->kind) {
	case SEV_JOB_DONE:
		if (ev->job != SJ_STOP_EXPORTS)
			break;
		s->mirrors_out = 0;
		target_conclude(s);
		break;
	case SEV_CONTROL:
		target_control(s, ev);
		break;
	case SEV_SIGNAL:
		target_signal(s, ev);
		break;
	case SEV_QMP_CLOSED:
		s->mirrors_out = 0;
		target_conclude(s);
		break;
	default:
		break;
	}
}

void
target_step(struct session *s, const struct sess_event *ev)
{
	if (ev->kind == SEV_CONTROL_LOST) {
		s->control_lost = 1;	/* nobody to answer any more */
		s->watch_held = 0;
	}
	switch (s->state) {
	case SS_SETUP:
		state_setup(s, ev);
		break;
	case SS_PREPARING:
		state_preparing(s, ev);
		break;
	case SS_OFFERED_WAIT:
	case SS_LISTEN:
	case SS_PRECOPY:
	case SS_POSTCOPY:
	case SS_RECOVER:
		state_common(s, ev);
		break;
	case SS_ARRIVED:
		state_arrived(s, ev);
		break;
	case SS_ENDING:
		state_ending(s, ev);
		break;
	case SS_CLEANUP:
		state_cleanup(s, ev);
		break;
	default:
		break;
	}
}
