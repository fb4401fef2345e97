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
#include <stdarg.h>
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
/* A stream whose source's control connection ended gets this long. */
#define SOURCE_GONE_SECONDS	30.0
/*
 * The source's "watch" is held this long before "ok": an abort asked for
 * here meanwhile is its answer at once, whatever QEMU is doing (the
 * source asks again as soon as it hears "ok").
 */
#define WATCH_HOLD_SECONDS	1.0
/* How long QEMU gets to exit after quit (the fence). */
#define FENCE_SECONDS		10.0
/* Reconnecting to a monitor whose connection closed, as the source does. */
#define RECONNECT_SECONDS	1.0
#define RECONNECT_TIMEOUT	30.0
/*
 * Once QEMU's socket path is removed, a sample decides "nothing arrived"
 * only if QEMU's accept queue was empty as it was asked; where the queue
 * cannot be read, only a sample this long after the removal (QEMU accepts
 * in the same main-loop turn it sees a connection).
 */
#define QUEUE_UNKNOWN_SECONDS	1.0
/* cont again when the guest is found paused after one got no answer. */
#define CONT_TRIES		3

static void	target_after_fence(struct session *);
static int	target_fence_needed(const struct session *);
static void	target_now_unknown(struct session *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static int	target_must_fence(const struct session *);
static void	target_settle(struct session *, double, int, int);
static int	target_settled(struct session *, const struct sess_event *);
static void	target_reconnect(struct session *,
		    const struct sess_event *);

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
	else if (s->qemu_failed && s->failure != FAIL_NONE)
		/* QEMU's own reason, for the source's document. */
		answer(s, ANSWER_FENCED, s->failure_reason);
	else
		answer(s, ANSWER_OK, NULL);
}

/* ---- the end ------------------------------------------------------- */

/*
 * Answers the source's "completed?" with what this side knows, then ends
 * (libvirt's Finish): the guest runs here; or this QEMU did not and
 * cannot run it (fenced: stopped for good, gone, or nothing arrived and
 * nothing can); or not known.  Only "fenced" lets the source resume.
 */
static void
answer_confirm(struct session *s)
{
	enum control_answer a;

	if (s->end_phase == PHASE_SUCCEEDED)
		a = ANSWER_RUNNING;
	else if (s->fenced || s->qemu_failed)
		a = ANSWER_FENCED;
	else
		a = ANSWER_NOT_KNOWN;
	answer(s, a, s->failure_reason);
	/*
	 * The guest runs here, but the source said a disk's mirror failed
	 * before its QEMU completed: this QEMU's copy of that disk may miss
	 * writes the source's holds (its guest kept stopped there).  Not a
	 * success on this side either (sim-real D1 over tls:): 8, as the
	 * source's.  The answer stays "running": it is where the guest is.
	 */
	if (a == ANSWER_RUNNING && s->source_disks_lost[0] != '\0') {
		target_now_unknown(s, "the guest runs on the target, but the "
		    "source says %s: this QEMU's copy of that disk may miss "
		    "writes the source's disk holds (the source keeps its "
		    "guest stopped); look at both before the guest runs on",
		    s->source_disks_lost);
		s->end_phase = PHASE_FAILED;
	}
	s->confirm_answered = 1;
	sess_timer(s, STIMER_END, ANSWER_LEAVES_SECONDS);
}

/*
 * Whether a source that lost its control connection may still ask
 * "completed?" on a new one: a stream reached this QEMU (its source may
 * have completed) and the proxy was not cut here.
 */
static int
target_may_be_asked(const struct session *s)
{
	return s->cfg.tls && s->offered && !s->cut && (s->started ||
	    s->arrived);
}

/* After the exports are gone: over tls:, the source waits for our word. */
static void
target_conclude(struct session *s)
{
	if (!s->cfg.tls || !s->offered || (s->control_lost &&
	    !target_may_be_asked(s))) {
		sess_finish(s, s->end_phase);
		return;
	}
	sess_enter(s, SS_ENDING);
	sess_publish(s, "ending");
	if (s->confirm_asked && !s->control_lost)
		answer_confirm(s);
	else	/* the question, or a new control connection with it */
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
	    s->state == SS_FENCING || s->state == SS_DONE)
		return;
	release_watch(s);
	s->end_phase = phase;
	if (phase == PHASE_SUCCEEDED) {
		/* An abort asked for here came too late: say so, truly. */
		if (s->abort == ABORT_ABORTING) {
			sess_abort_status(s, ABORT_FAILED);
			sess_note(s, "abort refused: the migration completed "
			    "before the source could cancel it; the guest runs "
			    "on the target");
		}
		if (s->failure != FAIL_NONE)
			sess_clear_failure(s);
	} else if (target_must_fence(s)) {
		/*
		 * The guest may be in this QEMU: stop it for good before the
		 * source hears anything, so that it resumes only a guest that
		 * cannot run here (DESIGN.md, the handoff).
		 */
		sess_log(s, 2, "stopping the target QEMU %s for good (quit): "
		    "the guest must not run here", s->cfg.qmp_path);
		sess_enter(s, SS_FENCING);
		sess_timer(s, STIMER_FENCE, FENCE_SECONDS);
		/* QEMU's own fresh word (failed; nothing arrived): quit. */
		s->fence_polled = s->qemu_failed || s->fence_wanted;
		if (s->fence_polled)
			sess_qmp(s, SC_QUIT, 0, 0);
		else
			sess_act(s, SA_POLL);	/* QEMU's state first */
		return;
	}
	target_after_fence(s);
}

/* After the fence (or none needed): the exports go, then the answer. */
static void
target_after_fence(struct session *s)
{
	/*
	 * A fence was due but could not be made (no monitor): the guest may
	 * run here, whatever failed before; the answer will be "unknown",
	 * and so is this side's exit.  QEMU's own "failed" still stands.
	 */
	if (s->end_phase == PHASE_FAILED && target_fence_needed(s) &&
	    !s->qemu_failed && !s->fence_wanted)
		target_now_unknown(s, "target QEMU %s: it could not be stopped "
		    "(%s): whether the guest runs here is not known",
		    s->cfg.qmp_path, s->failure_reason);
	if (s->end_phase == PHASE_FAILED && s->mirrors_out && !s->fenced) {
		sess_enter(s, SS_CLEANUP);
		sess_job(s, SJ_STOP_EXPORTS, 0);
		return;
	}
	/* A QEMU that quit took its exports with it. */
	s->mirrors_out = 0;
	target_conclude(s);
}

/*
 * Whether a failed end must stop QEMU first: over tls: once a stream may
 * have reached it (the source resumes on our word), and on any transport
 * when QEMU said its load failed (its state is known; stopped on purpose).
 * Over unix: and tcp: a guest that arrived is the only copy: never.
 */
static int
target_fence_needed(const struct session *s)
{
	/* In post-copy both QEMUs hold part of the guest: never stopped. */
	if (s->fenced || s->failure == FAIL_UNKNOWN || s->mode == MODE_POSTCOPY)
		return 0;
	if (s->qemu_failed || s->fence_wanted)
		return 1;
	return s->cfg.tls && (s->started || s->arrived) && s->offered;
}

/* ... and can be: a monitor is there to send quit to. */
static int
target_must_fence(const struct session *s)
{
	return target_fence_needed(s) && s->state != SS_SETUP &&
	    s->state != SS_RECONNECT;
}

/* Refuses the source's offer: the answer leaves, then the end. */
static void
target_refuse(struct session *s, const char *reason)
{
	answer(s, ANSWER_REFUSED, reason);
	if (s->abort_asked_here) {
		/* Our own abort: nothing arrived, nothing will (D20). */
		sess_abort_status(s, ABORT_SUCCEEDED);
		sess_failure(s, FAIL_ABORTED, "%s", s->failure_reason[0] !=
		    '\0' ? s->failure_reason : reason);
	} else
		sess_failure(s, FAIL_CONTROL, "refused the source's "
		    "migration: %s", reason);
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

/*
 * --recover-timeout passed with QEMU in postcopy-paused: 1 while a
 * resume could still land here.  QEMU has no command that closes the
 * listener migrate-recover (or 10.0's migrate-incoming) left, and its
 * guest must not be stopped: over unix: its path is removed, and the
 * first sample asked after that with QEMU's accept queue empty that still
 * says postcopy-paused proves no source can resume it (QEMU takes a
 * resume in the main-loop turn it accepts it: audit D27's rule).  tls:
 * reaches QEMU only through this qmigrate's proxy, which ends with it.
 */
static int
target_recover_closing(struct session *s, const struct sess_event *ev)
{
	struct sess_recover *r = &s->recover;

	if (s->cfg.tls || !s->cfg.unix_listen || r->unanswered)
		return 0;
	if (r->sent && !r->listening)
		return 1;	/* its answer first: it may bind the path */
	if (!r->unlistened) {
		r->unlistened = 1;
		s->unlisten_t = ev->t;
		sess_act(s, SA_UNLISTEN);
		sess_act(s, SA_POLL);
		return 1;
	}
	if (ev->asked < s->unlisten_t)
		return 1;
	if (ev->queued > 0 || (ev->queued < 0 && ev->t - s->unlisten_t <
	    QUEUE_UNKNOWN_SECONDS)) {
		if (!s->queue_said++)
			sess_log(s, 1, "a source's connection waits in the "
			    "target QEMU's accept queue: waiting for its "
			    "resume");
		return 1;
	}
	return 0;
}

static void
target_recover(struct session *s, const struct sess_event *ev)
{
	struct sess_recover	*r = &s->recover;
	double			 t = ev->t;

	if (r->deadline != 0 && t > r->deadline) {
		if (target_recover_closing(s, ev))
			return;
		if (!s->cfg.tls && (!s->cfg.unix_listen || r->unanswered)) {
			/* A late resume may still land here. */
			target_now_unknown(s, "post-copy was not recovered "
			    "within %.0f s, and the target QEMU may still "
			    "listen for the source's resume (%s): whether the "
			    "guest is recovered is not known; the target QEMU "
			    "is left paused", s->cfg.recover_timeout,
			    r->unanswered ? "a migrate-recover got no answer" :
			    "over tcp: only quitting it closes its port, which "
			    "would lose the guest");
			sess_finish(s, PHASE_FAILED);
			return;
		}
	}
	if (sess_recover_lost(s, t, "target paused in postcopy-paused; "
	    "waiting for the source to resume", s->cfg.tls ?
	    "the target QEMU is" : "the target QEMU's recovery socket is "
	    "removed, no source can resume it; the target QEMU is")) {
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

/*
 * After the socket path went (unix:): 1 while a source that connected
 * before may still be accepted by QEMU, so no sample says "nothing
 * arrived" yet (audit D27): one asked before the removal (a source may
 * have connected after QEMU answered it), or one asked while a source
 * waited in QEMU's accept queue.
 */
static int
target_source_queued(struct session *s, const struct sess_event *ev)
{
	if (ev->asked < s->unlisten_t)
		return 1;
	if (ev->queued == 0 || (ev->queued < 0 && ev->t - s->unlisten_t >=
	    QUEUE_UNKNOWN_SECONDS))
		return 0;
	if (ev->queued > 0 && !s->queue_said++)
		sess_log(s, 1, "a source's connection waits in the target "
		    "QEMU's accept queue: waiting for it to arrive");
	return 1;
}

static void
target_sample(struct session *s, const struct sess_event *ev)
{
	const struct mig_info	*mi = ev->mi;
	char			 reason[SESS_REASON_MAX];

	s->silent_since = 0;
	sess_progress(s, mi, ev->t - s->t0);
	if (s->unlisten_signum != 0 && s->abort == ABORT_ABORTING) {
		if ((mi->status == QMS_NONE || mi->status == QMS_SETUP) &&
		    target_source_queued(s, ev))
			return;
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
	if (target_settled(s, ev))
		return;
	if (s->settle && s->started && s->settle_signum != 0 &&
	    s->abort == ABORT_ABORTING) {
		s->settle = 0;
		sess_abort_status(s, ABORT_FAILED);
		sess_note(s, "abort refused (%s): the migration had already "
		    "arrived; abort on the source",
		    sess_signal_name(s->settle_signum));
	}
	switch (mi->status) {
	case QMS_POSTCOPY_ACTIVE:
	case QMS_POSTCOPY_DEVICE:
		if (s->abort == ABORT_ABORTING) {
			/* This QEMU holds the guest now: abort refused. */
			sess_abort_status(s, ABORT_FAILED);
			if (s->failure == FAIL_ABORTED)
				sess_clear_failure(s);
			sess_note(s, "abort refused: post-copy has started and "
			    "this target holds the guest");
		}
		if (s->state == SS_RECOVER) {
			sess_note(s, "post-copy recovered");
			memset(&s->recover, 0, sizeof s->recover);
		}
		if (s->mode != MODE_POSTCOPY)
			sess_mode(s, MODE_POSTCOPY);
		release_watch(s);
		sess_enter(s, SS_POSTCOPY);
		break;
	case QMS_POSTCOPY_RECOVER:
	case QMS_POSTCOPY_RECOVER_SETUP:
		s->recover.recovering = 1;
		break;
	case QMS_POSTCOPY_PAUSED:
		if (s->recover.recovering) {
			/*
			 * Paused again after a recovery began: the link broke
			 * once more, and QEMU listens no longer (D16).
			 */
			s->recover.recovering = 0;
			s->recover.sent = 0;
			s->recover.listening = 0;
		}
		target_recover(s, ev);
		if (s->state == SS_DONE)
			return;
		break;
	case QMS_COMPLETED:
		s->arrived = 1;
		target_arrived(s);
		break;
	case QMS_FAILED:
		s->qemu_failed = 1;	/* QEMU's word: the load failed */
		if (s->mode == MODE_POSTCOPY) {
			/*
			 * The source sent pages it no longer holds: it has no
			 * whole copy to resume (the target half of D23, N12).
			 */
			if (s->failure != FAIL_NONE)
				sess_clear_failure(s);
			sess_fail(s, FAIL_POSTCOPY_LOST, "incoming migration "
			    "failed during post-copy: %s: the source holds no "
			    "whole copy; the guest is irrecoverable",
			    mi->error_desc[0] != '\0' ? mi->error_desc :
			    "no reason given");
		} else if (s->abort_asked_here) {
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
	s->postcopy_offered = o->plan.postcopy;
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
		else if (s->qemu_failed && s->failure != FAIL_NONE)
			answer(s, ANSWER_FENCED, s->failure_reason);
		else if (s->watch_held || (s->state != SS_LISTEN &&
		    s->state != SS_PRECOPY && s->state != SS_PREPARING &&
		    s->state != SS_RECONNECT && s->state != SS_OFFERED_WAIT))
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
		if (s->state == SS_LISTEN && !s->started) {
			/* Nothing seen yet: one more sample says so. */
			target_settle(s, ev->t, 0, 1);
			return;
		}
		if (s->state == SS_PREPARING) {
			/* Nothing can have arrived: QEMU did not listen. */
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
		s->postcopy_said = m->postcopy;
		if (m->disks_lost)
			snprintf(s->source_disks_lost,
			    sizeof s->source_disks_lost, "%s", m->reason);
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
	case SS_FENCING:
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
		s->unlisten_t = ev->t;
		sess_abort_status(s, ABORT_ABORTING);
		sess_act(s, SA_UNLISTEN);
		sess_act(s, SA_POLL);
		return;
	}
	if (!s->cfg.tls && !s->cfg.unix_listen && !s->started &&
	    s->state == SS_LISTEN) {
		/* tcp: before anything arrived: settle, then stop QEMU. */
		target_settle(s, ev->t, ev->signum, 0);
		sess_publish(s, "abort");
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

/* ---- nothing arrived yet: make sure nothing can ----------------------- */

/*
 * The deadline, a signal over tcp:, the source's abort or the end of its
 * control connection (source 1, 2), before any stream was seen: one
 * sample may be behind a stream that began.  Close the way in first
 * (tls: cut the proxy; unix: remove the socket's path), then let the next
 * sample decide (target_settled); tcp: has no way to close but QEMU
 * itself, so that sample decides whether QEMU is stopped.
 */
static void
target_settle(struct session *s, double t, int signum, int source)
{
	if (s->settle)
		return;
	s->settle = 1;
	s->settle_t = t;
	s->settle_signum = signum;
	s->settle_source = source;
	if (signum != 0)
		sess_abort_status(s, ABORT_ABORTING);
	if (s->cfg.tls && s->offered) {
		sess_act(s, SA_CUT);
		s->cut = 1;
		s->control_lost = 1;	/* cut with the stream */
		s->watch_held = 0;
	} else if (!s->cfg.tls && s->cfg.unix_listen) {
		sess_act(s, SA_UNLISTEN);
		s->unlisten_t = t;
	}
	sess_act(s, SA_POLL);
}

/* The sample after target_settle: 1 when it ended the session. */
static int
target_settled(struct session *s, const struct sess_event *ev)
{
	const struct mig_info	*mi = ev->mi;
	char			 reason[SESS_REASON_MAX];

	if (!s->settle || s->started || (mi->status != QMS_NONE &&
	    mi->status != QMS_SETUP))
		return 0;
	if (ev->asked < s->settle_t) {
		/*
		 * QEMU's word of before the way in closed (an answer held
		 * past the settling: target_settle's poll waited behind it):
		 * a stream may have begun since, its events behind this
		 * answer (the simulator's seeds 8064 and 20598, tls:, exit 3
		 * with the guest arriving).  One asked now decides.
		 */
		sess_log(s, 1, "target QEMU %s: its answer to a query-migrate "
		    "asked %.1f s before the way in closed came only now: "
		    "asking again (a migration may have arrived since)",
		    s->cfg.qmp_path, s->settle_t - ev->asked);
		sess_act(s, SA_POLL);
		return 0;
	}
	if (!s->cfg.tls && s->cfg.unix_listen && target_source_queued(s, ev))
		return 0;
	if (s->settle_source == 4 && !s->cfg.tls && s->cfg.unix_listen &&
	    !s->relistened) {
		/*
		 * migrate-incoming got no answer: QEMU may have run it after
		 * the path was removed, and bound the path anew (sim-real
		 * seeds 10011082 and 10304759: the command 13.8 and 29 s
		 * late, a 3 while the source then connected and the guest ran
		 * here).  Commands run in order, so this answer, asked after
		 * it, comes after its bind, whatever it says (7.2 gives a
		 * listening target no status, only its socket-address): one
		 * more removal, and a sample asked after it (a source that
		 * got in meanwhile waits in the accept queue) decides.
		 */
		s->relistened = 1;
		sess_log(s, 1, "target QEMU %s: its migrate-incoming may have "
		    "run after the socket's path was removed: removing the "
		    "path again", s->cfg.qmp_path);
		sess_act(s, SA_UNLISTEN);
		s->unlisten_t = ev->t;
		s->settle_t = ev->t;
		sess_act(s, SA_POLL);
		return 0;
	}
	if (s->settle_source == 3)
		snprintf(reason, sizeof reason, "aborted here before any "
		    "memory moved: the connection to the source is cut; the "
		    "guest runs on the source");
	else if (s->settle_source == 4 && s->settle_signum == 0)
		snprintf(reason, sizeof reason, "target QEMU %s: "
		    "migrate-incoming got no answer, and no migration arrived "
		    "before the way in was closed%s", s->cfg.qmp_path,
		    s->cfg.unix_listen ? " (the socket's path is removed: no "
		    "source can reach it)" : "");
	else if (s->settle_source != 0 && s->abort_asked_here)
		snprintf(reason, sizeof reason, "aborted here: the source "
		    "cancelled before any memory moved; the guest runs on the "
		    "source");
	else if (s->settle_source == 1)
		snprintf(reason, sizeof reason, "the source aborted the "
		    "migration before any memory moved");
	else if (s->settle_source == 2)
		snprintf(reason, sizeof reason, "the source ended the session "
		    "before any guest memory moved");
	else if (s->settle_signum != 0)
		snprintf(reason, sizeof reason, "abort requested (%s) before "
		    "any migration arrived",
		    sess_signal_name(s->settle_signum));
	else
		snprintf(reason, sizeof reason, "no migration arrived within "
		    "%.0f s (--timeout)", s->cfg.timeout);
	if (s->cfg.tls)
		s->fenced = 1;	/* cut, or not listening: nothing came */
	else if (!s->cfg.unix_listen) {
		/* tcp: QEMU still listens: it is stopped for good. */
		s->fence_wanted = 1;
		strncat(reason, ": the target QEMU is stopped (over tcp: "
		    "nothing else closes its listening socket)",
		    sizeof reason - strlen(reason) - 1);
	}
	if (s->settle_signum != 0 || (s->settle_source != 0 &&
	    s->abort_asked_here)) {
		sess_abort_status(s, ABORT_SUCCEEDED);
		sess_fail(s, FAIL_ABORTED, "%s", reason);
	} else if (s->settle_source == 1)
		sess_fail(s, FAIL_ABORTED, "%s", reason);
	else
		sess_fail(s, FAIL_CONTROL, "%s", reason);
	return 1;
}

/* ---- the monitor --------------------------------------------------- */

/*
 * Whatever was recorded before (an abort asked for here, a failure QEMU
 * was to be stopped for), what is known now is that nothing is: the
 * guest may run here.  Records that, without ending (the caller ends).
 */
static void
target_now_unknown(struct session *s, const char *fmt, ...)
{
	char	reason[SESS_REASON_MAX];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof reason, fmt, ap);
	va_end(ap);
	if (s->abort == ABORT_ABORTING)
		sess_abort_status(s, ABORT_FAILED);
	if (s->failure != FAIL_NONE)
		sess_clear_failure(s);
	sess_failure(s, FAIL_UNKNOWN, "%s", reason);
}


/*
 * QEMU's process is gone (it exits when an incoming migration fails): it
 * runs no guest, and what that means depends on where the session was.
 */
static void
target_qemu_gone(struct session *s, enum sess_state where, const char *why)
{
	s->fenced = 1;
	s->mirrors_out = 0;
	why = why != NULL ? why : "closed";
	if (where == SS_POSTCOPY || where == SS_RECOVER)
		sess_fail(s, FAIL_POSTCOPY_LOST, "target QEMU gone during "
		    "post-copy: %s", why);
	else if (where == SS_ARRIVED)
		sess_fail(s, FAIL_DATA, "target QEMU gone after the guest "
		    "arrived (%s): it runs nowhere here", why);
	else if (s->abort_asked_here) {
		sess_abort_status(s, ABORT_SUCCEEDED);
		sess_fail(s, FAIL_ABORTED, "aborted here: the stream was "
		    "stopped and the target QEMU exited (%s); the guest runs "
		    "on the source", why);
	} else if (s->source_aborted)
		sess_fail(s, FAIL_ABORTED, "the source aborted the migration; "
		    "the target QEMU exited (%s)", why);
	else if (!s->started && !s->cfg.disks)
		/* Nothing of the guest's had moved: the control plane. */
		sess_fail(s, FAIL_CONTROL, "target QEMU gone before any "
		    "migration arrived: %s", why);
	else
		sess_fail(s, FAIL_DATA, "target QEMU gone before the guest "
		    "arrived: %s", why);
}

/*
 * The monitor's connection closed: a QEMU known to be gone is decided at
 * once; otherwise connect again (a closed connection says nothing of the
 * guest), as the source does.
 */
static void
target_reconnect(struct session *s, const struct sess_event *ev)
{
	if (ev->qemu_gone) {
		target_qemu_gone(s, s->state, ev->reason);
		return;
	}
	sess_log(s, 2, "target QEMU %s: %s: connecting again",
	    s->cfg.qmp_path, ev->reason != NULL ? ev->reason : "closed");
	s->conts_out = 0;	/* gone with the connection */
	s->back_to = s->state;
	s->reconnect_deadline = ev->t + RECONNECT_TIMEOUT;
	sess_enter(s, SS_RECONNECT);
	sess_act(s, SA_RECONNECT);
}

static void	state_common(struct session *, const struct sess_event *);

static void
state_reconnect(struct session *s, const struct sess_event *ev)
{
	switch (ev->kind) {
	case SEV_QMP_UP:
		sess_log(s, 1, "target QEMU %s: connected again",
		    s->cfg.qmp_path);
		s->silent_since = 0;
		sess_enter(s, s->back_to);
		sess_act(s, SA_POLL);
		/*
		 * The exports' release ended with the old connection, or is
		 * about to (a try still to come on it): it runs again here.
		 */
		if (s->state == SS_ARRIVED && s->mirrors_out)
			sess_job(s, SJ_RELEASE_DISKS, 0);
		else if (s->state == SS_ARRIVED)
			sess_act(s, SA_QUERY_STATUS);
		break;
	case SEV_QMP_CLOSED:
		if (ev->qemu_gone) {
			sess_enter(s, s->back_to);
			target_qemu_gone(s, s->back_to, ev->reason);
		} else if (ev->t < s->reconnect_deadline)
			sess_timer(s, STIMER_RECONNECT, RECONNECT_SECONDS);
		else {
			sess_enter(s, s->back_to);
			target_now_unknown(s, "target QEMU %s: its monitor "
			    "could not be reached again within %.0f s (%s): "
			    "whether the guest runs here is not known",
			    s->cfg.qmp_path,
			    RECONNECT_TIMEOUT, ev->reason != NULL ? ev->reason :
			    "closed");
			target_end(s, PHASE_FAILED);
		}
		break;
	case SEV_TIMER:
		if (ev->timer == STIMER_RECONNECT)
			sess_act(s, SA_RECONNECT);
		else
			state_common(s, ev);
		break;
	case SEV_CONTROL:
	case SEV_SIGNAL:
	case SEV_DEADLINE:
		state_common(s, ev);
		break;
	default:
		break;
	}
}

/*
 * FENCING's first sample, asked after the stream was cut (nothing can
 * start post-copy any more): a QEMU the session last saw through a silent
 * monitor may have begun post-copy or completed meanwhile, and then holds
 * the guest, or part of it: never stopped.  Otherwise quit.
 */
static void
fence_sample(struct session *s, const struct mig_info *mi)
{
	s->fence_polled = 1;
	if (qemu_mig_status_postcopy(mi->status) ||
	    mi->status == QMS_POSTCOPY_PAUSED) {
		if (s->mode != MODE_POSTCOPY)
			sess_mode(s, MODE_POSTCOPY);
		if (s->failure != FAIL_NONE)
			sess_clear_failure(s);
		sess_failure(s, FAIL_POSTCOPY_LOST, "post-copy began on the "
		    "target QEMU %s while its monitor was not heard; the "
		    "stream is cut: both QEMUs hold part of the guest, left "
		    "paused for the operator", s->cfg.qmp_path);
		target_after_fence(s);
		return;
	}
	if (mi->status == QMS_COMPLETED && !s->arrived) {
		target_now_unknown(s, "target QEMU %s completed the migration "
		    "while its monitor was not heard: it may run the guest",
		    s->cfg.qmp_path);
		target_after_fence(s);
		return;
	}
	sess_qmp(s, SC_QUIT, 0, 0);
}

/*
 * SS_FENCING: QEMU's state is read (fence_sample), then quit is out.
 * QEMU is fenced once it said it quits and its monitor closed, or its
 * process is gone; a closed connection alone may be the connection's
 * failure, not QEMU's exit: connect again and ask once more, until
 * FENCE_SECONDS.
 */
static void
state_fencing(struct session *s, const struct sess_event *ev)
{
	switch (ev->kind) {
	case SEV_SAMPLE:
		s->silent_since = 0;
		if (!s->fence_polled)
			fence_sample(s, ev->mi);
		break;
	case SEV_QMP_SILENT:
		if (s->fence_polled)
			break;
		/* QEMU's state cannot be read: it is not stopped blind. */
		target_now_unknown(s, "target QEMU %s: its monitor did not "
		    "answer before the fence: whether the guest runs here is "
		    "not known", s->cfg.qmp_path);
		target_after_fence(s);
		break;
	case SEV_QMP_DONE:
		if (ev->cmd != SC_QUIT)
			break;
		if (ev->outcome == SO_ANSWERED)
			s->quit_answered = 1;
		else if (ev->outcome == SO_REFUSED) {
			/* QEMU's word that its load failed still stands. */
			if (!s->qemu_failed)
				target_now_unknown(s, "target QEMU %s: quit "
				    "refused (%s): it may run the guest",
				    s->cfg.qmp_path, ev->reason != NULL ?
				    ev->reason : "no reason given");
			target_after_fence(s);
		}
		break;
	case SEV_QMP_CLOSED:
		if (s->quit_answered || ev->qemu_gone) {
			s->fenced = 1;
			sess_log(s, 1, "target QEMU stopped for good");
			target_after_fence(s);
		} else
			sess_timer(s, STIMER_RECONNECT, RECONNECT_SECONDS);
		break;
	case SEV_QMP_UP:
		if (s->fence_polled)
			sess_qmp(s, SC_QUIT, 0, 0);
		else
			sess_act(s, SA_POLL);
		break;
	case SEV_TIMER:
		if (ev->timer == STIMER_RECONNECT)
			sess_act(s, SA_RECONNECT);
		else if (ev->timer == STIMER_FENCE) {
			/* QEMU said it quits: it runs nothing more. */
			s->fenced = s->quit_answered;
			if (!s->fenced && s->state == SS_FENCING &&
			    !s->qemu_failed)
				target_now_unknown(s, "target QEMU %s: it did "
				    "not quit within %.0f s: it may run the "
				    "guest",
				    s->cfg.qmp_path, FENCE_SECONDS);
			target_after_fence(s);
		}
		break;
	case SEV_CONTROL:
		target_control(s, ev);
		break;
	case SEV_SIGNAL:
		target_signal(s, ev);
		break;
	default:
		break;
	}
}

/* ---- states -------------------------------------------------------- */

/*
 * Over unix: or tcp:, migrate-incoming got no answer (a timeout, a closed
 * connection): QEMU may listen, and a source may connect.  Not a refusal
 * (audit N2): the way in is closed (unix: the socket's path removed; tcp:
 * QEMU stopped if nothing came), and a sample asked after that decides,
 * by the accept-queue rule (target_settled): a stream that began is
 * watched to its end.  A closed monitor is connected again first.
 */
static void
setup_unanswered(struct session *s, const struct sess_event *ev)
{
	sess_note(s, "target QEMU %s: migrate-incoming got no answer (%s): "
	    "it may listen; asking QEMU again", s->cfg.qmp_path,
	    ev->reason != NULL ? ev->reason : "no reason given");
	sess_enter(s, SS_LISTEN);
	target_settle(s, ev->t, s->setup_signum, 4);
	if (s->setup_closed) {
		struct sess_event closed = *ev;

		closed.kind = SEV_QMP_CLOSED;
		closed.qemu_gone = s->setup_qemu_gone;
		target_reconnect(s, &closed);
	}
}

static void
state_setup(struct session *s, const struct sess_event *ev)
{
	struct sess_event sig;

	switch (ev->kind) {
	case SEV_SETUP_DONE:
		if (!ev->ok && ev->outcome == SO_NO_ANSWER && !s->cfg.tls) {
			setup_unanswered(s, ev);
			break;
		}
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
		} else if (s->setup_deadline) {
			/* QEMU listens now: the way in closes, a sample
			 * decides (state_common). */
			sig = *ev;
			sig.kind = SEV_DEADLINE;
			state_common(s, &sig);
		}
		if (s->early_offer && s->state == SS_OFFERED_WAIT)
			target_offer(s, &s->early_msg);
		if (s->setup_closed && s->state != SS_DONE) {
			/* Closed after the setup's last answer: the samples
			 * that decide come over a new connection. */
			sig = *ev;
			sig.kind = SEV_QMP_CLOSED;
			sig.qemu_gone = s->setup_qemu_gone;
			target_reconnect(s, &sig);
		}
		break;
	case SEV_CONTROL:
		target_control(s, ev);
		break;
	case SEV_SIGNAL:
		target_signal(s, ev);
		break;
	case SEV_DEADLINE:
		/*
		 * QEMU may be listening already (migrate-incoming is out):
		 * decided once the setup says what it did, as a signal is
		 * (N2).  The setup's commands are bounded (10 s each).
		 */
		s->setup_deadline = 1;
		break;
	case SEV_QMP_CLOSED:
		/* What it means is decided with the setup's end. */
		s->setup_closed = 1;
		s->setup_qemu_gone = ev->qemu_gone;
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
				/* Not a refusal: QEMU may still listen late. */
				if (ev->outcome == SO_NO_ANSWER)
					s->recover.unanswered = 1;
				break;
			}
			s->recover.listening = 1;
			resume_ready(s);
		}
		break;
	case SEV_QMP_CLOSED:
		target_reconnect(s, ev);
		break;
	case SEV_QMP_SILENT:
		if (sess_monitor_silent(s, ev)) {
			target_now_unknown(s, "target QEMU %s: the monitor "
			    "stopped answering for 30 s: whether the guest "
			    "arrived is not known", s->cfg.qmp_path);
			target_end(s, PHASE_FAILED);
		}
		break;
	case SEV_CONTROL_LOST:
		if (!s->started && s->state == SS_LISTEN)
			target_settle(s, ev->t, 0, 2);
		else if (s->state == SS_PRECOPY)
			sess_timer(s, STIMER_SOURCE_GONE,
			    SOURCE_GONE_SECONDS);
		break;
	case SEV_DEADLINE:
		if (s->state == SS_OFFERED_WAIT)
			/* No offer taken, QEMU not listening: nothing can come,
			 * and a late offer is refused once this has ended. */
			sess_fail(s, FAIL_CONTROL, "no migration arrived within "
			    "%.0f s (--timeout)", s->cfg.timeout);
		else if (!s->started)
			target_settle(s, ev->t, 0, 0);
		break;
	case SEV_TIMER:
		if (ev->timer == STIMER_CUT && s->abort_asked_here &&
		    (s->state == SS_LISTEN || s->state == SS_PRECOPY ||
		    s->state == SS_PREPARING)) {
			sess_note(s, "the source did not cancel within %.0f s: "
			    "the stream is cut", CUT_SECONDS);
			if (!s->started && s->state == SS_LISTEN) {
				/* A stale poll: one more sample decides. */
				target_settle(s, ev->t, 0, 3);
				break;
			}
			sess_act(s, SA_CUT);
			s->cut = 1;
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
		    s->state == SS_PRECOPY && s->control_lost) {
			sess_act(s, SA_CUT);
			s->cut = 1;
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

/*
 * The guest arrived paused and QEMU will not resume it.  Over tls: the
 * source still holds it: this QEMU is stopped for good and the source
 * resumes its own.  Over unix: and tcp: this is the only copy: it stays
 * here, paused, and the document says so.
 */
static void
arrived_cannot_resume(struct session *s, const char *why)
{
	why = why != NULL ? why : "no reason given";
	/*
	 * Post-copy may have run unseen (this monitor was away, the offer
	 * allowed it and the source has not said it did not): this QEMU may
	 * hold the only whole copy.  Stopping it could lose the guest and
	 * keeping it says nothing to the source: not known, kept paused
	 * (the simulator's seed 4332017: post-copy completed while the
	 * monitor was cut, three conts lost, quit, the guest lost).
	 */
	if (s->cfg.tls && s->offered && s->mode != MODE_POSTCOPY &&
	    s->postcopy_offered && s->postcopy_said != 0) {
		target_now_unknown(s, "the guest arrived but cannot be "
		    "resumed on the target (%s), and post-copy may have run: "
		    "it stays here paused, not stopped; whether the source "
		    "holds a whole copy is not known here", why);
		target_end(s, PHASE_FAILED);
		return;
	}
	/* After post-copy the source holds nothing: this is the guest. */
	if (s->cfg.tls && s->offered && s->mode != MODE_POSTCOPY) {
		sess_fail(s, FAIL_DATA, "the guest arrived but cannot be "
		    "resumed on the target: %s", why);
		return;
	}
	sess_note(s, "the guest arrived but cannot be resumed on the target "
	    "(%s): it stays here, paused", why);
	target_end(s, PHASE_SUCCEEDED);
}

/*
 * Over unix: or tcp: (no offer says how the guest was), whether a guest
 * that arrived paused was paused on the source (N14): QEMU carries the
 * source's run state, so a QEMU started without -S starts a guest that
 * ran there by itself (process_incoming_migration_bh), and arrives
 * paused only one paused there: by the operator, or by the source's
 * controller, which pauses only where the policy allows workload
 * disruption.  Under -S, or where the QEMU's command line could not be
 * read, a paused arrival says nothing: resumed as before.
 */
static int
target_paused_there(const struct session *s)
{
	return !s->cfg.tls && s->cfg.qemu_autostart == 1 && !s->cfg.may_pause;
}

static void
state_arrived(struct session *s, const struct sess_event *ev)
{
	switch (ev->kind) {
	case SEV_JOB_DONE:
		if (ev->job != SJ_RELEASE_DISKS)
			break;
		if (!ev->ok && ev->outcome == SO_NO_ANSWER) {
			/* Its monitor closed: run again once it is back. */
			sess_log(s, 2, "disks: %s", ev->reason);
			break;
		}
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
		s->silent_since = 0;
		if (ev->ri->state == RUN_RUNNING) {
			sess_log(s, 1, "guest running on the target");
			target_end(s, PHASE_SUCCEEDED);
			break;
		}
		if (ev->ri->state == RUN_PRELAUNCH) {
			/*
			 * QEMU carries the source's run state: that guest was
			 * never started (-S, no cont).  Started here it would
			 * boot, not go on: left as it came, and the end is
			 * said, whatever a signal or the deadline wants.
			 */
			sess_note(s, "the guest arrived never started (run "
			    "state prelaunch: its source QEMU was started with "
			    "-S and never resumed): it is left so here");
			target_end(s, PHASE_SUCCEEDED);
			break;
		}
		/* A migration's own passing states: not an arrival's. */
		if (ev->ri->state == RUN_INMIGRATE || ev->ri->state ==
		    RUN_FINISH_MIGRATE || ev->ri->state == RUN_RESTORE_VM)
			break;
		if (ev->ri->state != RUN_PAUSED) {
			/*
			 * Any other state QEMU set from the source's (suspended,
			 * shutdown, guest-panicked, an error): the guest is
			 * here as it was there; cont would not make it what it
			 * was not.  Said, and the end (no state waits for ever).
			 */
			sess_note(s, "the guest arrived in run state %s, as it "
			    "was on the source: it is left so here",
			    ev->ri->state_name[0] != '\0' ?
			    ev->ri->state_name : "unknown");
			target_end(s, PHASE_SUCCEEDED);
			break;
		}
		/*
		 * Arrived paused: the source paused it for us (workload
		 * disruption), it was paused there before, or this QEMU runs
		 * -S.  Resume unless told to keep it paused or it was paused
		 * on the source (target_paused_there).
		 */
		/* Asked before a cont on its way: its outcome asks again. */
		if (s->conts_out > 0)
			break;
		if (s->cfg.keep_paused || s->arrives_paused ||
		    target_paused_there(s)) {
			sess_note(s,
			    "guest arrived paused and is kept paused%s",
			    s->cfg.keep_paused ? " (--keep-paused)" :
			    s->arrives_paused ? " (it was paused on the source)" :
			    " (it was paused on the source: this QEMU, started "
			    "without -S, starts a guest that ran there by "
			    "itself, and the policy does not let the source "
			    "pause it)");
			target_end(s, PHASE_SUCCEEDED);
			break;
		}
		if (s->resuming && s->cont_tries >= CONT_TRIES) {
			arrived_cannot_resume(s, "cont got no answer");
			break;
		}
		if (!s->resuming)
			sess_note(s, "guest arrived paused: resuming it");
		s->resuming = 1;
		s->cont_tries++;
		s->conts_out++;
		sess_qmp(s, SC_CONT, 0, 0);
		break;
	case SEV_QMP_DONE:
		if (ev->cmd != SC_CONT)
			break;
		if (s->conts_out > 0)
			s->conts_out--;
		if (ev->outcome == SO_REFUSED)
			arrived_cannot_resume(s, ev->reason);
		else	/* Whether it runs now, QEMU says. */
			sess_act(s, SA_QUERY_STATUS);
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
		target_reconnect(s, ev);
		break;
	case SEV_QMP_SILENT:
		if (sess_monitor_silent(s, ev)) {
			target_now_unknown(s, "target QEMU %s: the monitor "
			    "stopped answering for 30 s after the migration "
			    "completed: whether the guest runs here is not "
			    "known", s->cfg.qmp_path);
			target_end(s, PHASE_FAILED);
		} else if (!s->mirrors_out)
			/* The run state is what decides: ask again. */
			sess_act(s, SA_QUERY_STATUS);
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
		/*
		 * Gone after our answer: it had it.  Before: it may ask
		 * again on a new connection (its confirm phase does).
		 */
		if (s->confirm_answered || !target_may_be_asked(s))
			sess_finish(s, s->end_phase);
		else
			sess_timer(s, STIMER_END, CONFIRM_WAIT_SECONDS);
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
	if (ev->kind == SEV_SWITCHOVER) {
		/* `qmigrate switchover` is the source's to answer. */
		sess_act_why(s, SA_ST_SWITCHOVER, "this is the target's "
		    "qmigrate incoming: the source's qmigrate migrate "
		    "finishes a migration")->value = SWA_REFUSED;
		sess_publish(s, "switchover");
		return;
	}
	if (ev->kind == SEV_CONTROL_LOST) {
		s->control_lost = 1;	/* nobody to answer any more */
		s->watch_held = 0;
	} else if (ev->kind == SEV_CONTROL && !s->cut)
		s->control_lost = 0;	/* the source opened it again */
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
	case SS_FENCING:
		state_fencing(s, ev);
		break;
	case SS_RECONNECT:
		state_reconnect(s, ev);
		break;
	default:
		break;
	}
}
