/*
 * ctl-kubevirt.c: KubeVirt's migration monitor (virt-launcher's
 * live-migration-source.go and stall-detector.go, KubeVirt main of 2026),
 * reproduced so that operators who come from it get the same behaviour,
 * and as the baseline the adaptive controller is measured against.
 *
 * Which monitor runs is KubeVirt's choice too: spec.experimental.
 * stallDetector (of a policy or the KubeVirt CR) turns on the stall
 * detector, which replaces the classic timeouts; downtimeTuning alone
 * raises the downtime limit step by step under the classic monitor (the
 * stall detector ignores it, as KubeVirt's does); neither: the classic one.
 *
 * Classic, on every poll: in post-copy, nothing (never aborted); past the
 * acceptable completion time with workload disruption allowed and not yet
 * paused: post-copy when allowed, else pause the guest and double the
 * acceptable time; no progress (the remaining data not below the previous
 * poll's) for progressTimeout: abort; past the acceptable time: abort.
 *
 * Stall detector: it keeps an EWMA of the bandwidth (from the polls between
 * passes) and, at every pass, the minima of the remaining data; when the
 * remaining data stays within stallMargin of the smallest one older than
 * stallProgressTimeout, the migration is stalled, and at the next pass that
 * comes within the margin of the best value (a local minimum, relaxed over
 * time) it acts: post-copy with disruption and post-copy allowed, else a
 * "hard" stop-and-copy (QEMU's largest downtime) with disruption allowed,
 * else a "soft" one (maxDowntimeMs) when the estimated downtime is within
 * precopyPossibleFactor of it, else abort.  A switchover must then happen
 * within switchoverTimeout.  Past the acceptable time (its switchover
 * deadline) it starts post-copy or the hard stop-and-copy if the remaining
 * data can be sent before completionTimeoutFactor times that time, and
 * aborts otherwise.
 *
 * Each rule is a row of tests/unit/test-ctl.c.  Times are the samples':
 * KubeVirt compares whole seconds, and so does this file where it does.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "qmigrate.h"
#include "ctl.h"

#define MIB(x)	((double)(x) / 1048576.0)

static void
act(struct ctl_decision *d, enum ctl_action action, uint64_t value,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
act(struct ctl_decision *d, enum ctl_action action, uint64_t value,
    const char *fmt, ...)
{
	va_list ap;

	d->action = action;
	d->value = value;
	va_start(ap, fmt);
	vsnprintf(d->reason, sizeof d->reason, fmt, ap);
	va_end(ap);
}

/* The classic monitor's checks, in KubeVirt's order. */
static void
classic(struct ctl *ctl, const struct ctl_sample *s, struct ctl_decision *d)
{
	double stuck = s->t - ctl->kv_last_progress;

	if (ctl->cfg.allow_workload_disruption && ctl->acceptable > 0 &&
	    s->t > ctl->acceptable && !ctl->paused) {
		if (ctl->cfg.allow_post_copy) {
			ctl->postcopy = 1;
			act(d, CTL_POST_COPY, 0, "elapsed %.0f s exceeds the "
			    "acceptable completion time %.0f s: switching to "
			    "post-copy", s->t, ctl->acceptable);
		} else {
			ctl->paused = 1;
			act(d, CTL_PAUSE, 0, "elapsed %.0f s exceeds the "
			    "acceptable completion time %.0f s: pausing the "
			    "guest, acceptable time doubled", s->t,
			    ctl->acceptable);
			ctl->acceptable *= 2;
		}
		return;
	}

	if (ctl->cfg.progress_timeout != 0 &&
	    stuck > (double)ctl->cfg.progress_timeout) {
		act(d, CTL_ABORT, 0, "no progress for %.0f s (progressTimeout "
		    "%llu s): the remaining data (%llu bytes) has not dropped "
		    "since", stuck,
		    (unsigned long long)ctl->cfg.progress_timeout,
		    (unsigned long long)s->remaining);
		return;
	}

	if (ctl->acceptable > 0 && s->t > ctl->acceptable)
		act(d, CTL_ABORT, 0, "elapsed %.0f s exceeds the acceptable "
		    "completion time %.0f s and workload disruption is not "
		    "allowed", s->t, ctl->acceptable);
}

/*
 * Downtime tuning (KubeVirt's tuneDowntime): the first poll sets initialMs;
 * from pass startAfterIteration on, at most once per cooldownSeconds, the
 * limit grows by (maxDowntimeMs - initialMs) / steps up to maxDowntimeMs.
 */
static void
tune_downtime(struct ctl *ctl, const struct ctl_sample *s,
    struct ctl_decision *d)
{
	const struct ctl_tuning	*dt = &ctl->cfg.tuning;
	uint64_t		 max = ctl->cfg.max_downtime_ms;
	uint64_t		 initial = dt->initial_ms, step, next;

	if (initial > max)
		initial = max;
	if (!ctl->tuning_started) {
		ctl->tuning_started = 1;
		ctl->tuned_t = s->t;
		ctl->downtime_ms = initial;
		act(d, CTL_SET_DOWNTIME, initial, "downtime tuning: the "
		    "downtime limit starts at %llu ms (ceiling %llu ms)",
		    (unsigned long long)initial, (unsigned long long)max);
		return;
	}
	if (s->pass < dt->start_after_iteration ||
	    s->t - ctl->tuned_t < (double)dt->cooldown_s)
		return;
	step = (max - initial) / (dt->steps > 0 ? dt->steps : 1);
	if (step < 1)
		step = 1;
	next = ctl->downtime_ms + step;
	if (next > max)
		next = max;
	if (next <= ctl->downtime_ms)
		return;
	act(d, CTL_SET_DOWNTIME, next, "downtime tuning: pass %llu, raising "
	    "the downtime limit from %llu to %llu ms (ceiling %llu ms)",
	    (unsigned long long)s->pass, (unsigned long long)ctl->downtime_ms,
	    (unsigned long long)next, (unsigned long long)max);
	ctl->downtime_ms = next;
	ctl->tuned_t = s->t;
}

/* Milliseconds to send remaining at the bandwidth's EWMA; 0 without one. */
static double
estimate_ms(const struct ctl *ctl, uint64_t remaining)
{
	if (ctl->ewma_bw <= 0)
		return 0;
	return floor((double)remaining / (ctl->ewma_bw / 1000));
}

/* Whether est_ms fits before deadline (seconds) from elapsed (seconds). */
static int
can_finish(const struct ctl *ctl, double elapsed, double deadline,
    double est_ms)
{
	return ctl->ewma_bw > 0 && est_ms <= (deadline - elapsed) * 1000;
}

/* KubeVirt's updateCandidates: minima of the window, and the one before. */
static void
update_candidates(struct ctl *ctl, const struct ctl_record *r)
{
	double	window_ms = (double)ctl->cfg.stall.window_s * 1000;
	size_t	aged = 0;

	while (aged < ctl->ncand && (r->t_ms - ctl->cand[aged].t_ms >=
	    window_ms || ctl->ncand - aged >= CTL_STALL_CANDIDATES)) {
		if (!ctl->min_outside.set ||
		    ctl->cand[aged].remaining < ctl->min_outside.remaining)
			ctl->min_outside = ctl->cand[aged];
		aged++;
	}
	if (aged > 0) {
		memmove(ctl->cand, ctl->cand + aged,
		    (ctl->ncand - aged) * sizeof ctl->cand[0]);
		ctl->ncand -= aged;
	}
	if (ctl->min_outside.set &&
	    r->remaining > ctl->min_outside.remaining)
		return;
	if (ctl->ncand > 0 &&
	    r->remaining >= ctl->cand[ctl->ncand - 1].remaining)
		return;
	ctl->cand[ctl->ncand++] = *r;
}

/* The remaining bytes seen since the stall, smallest first (a min-heap). */
static void
history_push(struct ctl *ctl, uint64_t v)
{
	size_t i;

	if (ctl->nhist == CTL_STALL_HISTORY) {
		if (v >= ctl->hist[ctl->nhist - 1])
			return;	/* only the smallest ones are ever popped */
		ctl->nhist--;
	}
	for (i = ctl->nhist; i > 0 && ctl->hist[i - 1] > v; i--)
		ctl->hist[i] = ctl->hist[i - 1];
	ctl->hist[i] = v;
	ctl->nhist++;
}

/*
 * KubeVirt's processStallDetectionIteration, at a pass's first sample:
 * whether the migration is (still) stalled.
 */
static int
stall_pass(struct ctl *ctl, const struct ctl_record *r)
{
	const struct ctl_stall	*sd = &ctl->cfg.stall;
	double			 margin = (double)sd->margin_pct / 100;
	size_t			 i;

	if (ctl->ewma_bw <= 0 || ctl->switchover_initiated)
		return 0;
	update_candidates(ctl, r);
	if (ctl->stall_detected) {
		/* Relax the best value when the patience runs out. */
		history_push(ctl, r->remaining);
		if (r->t_ms < ctl->relax_deadline_ms)
			return 1;
		ctl->best_remaining = ctl->hist[0];
		memmove(ctl->hist, ctl->hist + 1,
		    (ctl->nhist - 1) * sizeof ctl->hist[0]);
		ctl->nhist--;
		ctl->relax_patience_ms = floor(ctl->relax_patience_ms *
		    sd->patience_decay);
		ctl->relax_deadline_ms = r->t_ms + ctl->relax_patience_ms;
		return 1;
	}
	if (!ctl->min_outside.set || (double)r->remaining <
	    floor((double)ctl->min_outside.remaining * (1 - margin)))
		return 0;
	ctl->best_remaining = ctl->min_outside.remaining;
	for (i = 0; i < ctl->ncand; i++)
		if (ctl->cand[i].remaining < ctl->best_remaining)
			ctl->best_remaining = ctl->cand[i].remaining;
	ctl->nhist = 0;
	ctl->relax_patience_ms = (double)sd->window_s * 1000;
	ctl->relax_deadline_ms = r->t_ms + ctl->relax_patience_ms;
	ctl->stall_detected = 1;
	return 1;
}

/* KubeVirt's decideAction and triggerConvergenceAction, for a stall. */
static void
stall_act(struct ctl *ctl, double elapsed, struct ctl_decision *d)
{
	const struct ctl_config	*cfg = &ctl->cfg;
	const struct ctl_stall	*sd = &cfg->stall;
	double			 margin = (double)sd->margin_pct / 100;
	double			 est = estimate_ms(ctl, ctl->rec.remaining);
	double			 deadline, max = (double)cfg->max_downtime_ms;

	if (ctl->switchover_initiated)
		return;
	if (sd->search_local_minima && (double)ctl->rec.remaining >
	    floor((double)ctl->best_remaining * (1 + margin)))
		return;	/* not at a local minimum yet */
	deadline = floor(ctl->acceptable * sd->completion_factor);
	if (!can_finish(ctl, elapsed, deadline, est))
		return;
	ctl->switchover_initiated = 1;
	if (cfg->allow_workload_disruption && cfg->allow_post_copy) {
		ctl->postcopy = 1;
		act(d, CTL_POST_COPY, 0, "stalled: %.1f MiB left is a local "
		    "minimum (best %.1f MiB), an estimated %.0f ms to send: "
		    "switching to post-copy", MIB(ctl->rec.remaining),
		    MIB(ctl->best_remaining), est);
		return;
	}
	if (cfg->allow_workload_disruption) {
		ctl->downtime_ms = CTL_QEMU_MAX_DOWNTIME_MS;
		act(d, CTL_SET_DOWNTIME, CTL_QEMU_MAX_DOWNTIME_MS, "stalled: "
		    "%.1f MiB left is a local minimum, an estimated %.0f ms of "
		    "downtime: forcing the switchover (hard stop-and-copy, "
		    "downtime limit %u ms)", MIB(ctl->rec.remaining), est,
		    CTL_QEMU_MAX_DOWNTIME_MS);
	} else if (est <= max * sd->precopy_factor) {
		ctl->downtime_ms = cfg->max_downtime_ms;
		act(d, CTL_SET_DOWNTIME, cfg->max_downtime_ms, "stalled: an "
		    "estimated %.0f ms of downtime is within %gx the maximum "
		    "of %llu ms: soft stop-and-copy", est, est <= max ? 1 :
		    sd->precopy_factor,
		    (unsigned long long)cfg->max_downtime_ms);
	} else {
		act(d, CTL_ABORT, 0, "stalled: an estimated %.0f ms of "
		    "downtime exceeds the maximum of %llu ms by more than "
		    "%gx and workload disruption is not allowed", est,
		    (unsigned long long)cfg->max_downtime_ms,
		    sd->precopy_factor);
		return;
	}
	/* Stop-and-copy may never start: it has its own deadline. */
	ctl->switchover_deadline = elapsed + (double)sd->switchover_timeout_s;
}

/* KubeVirt's processCompletionTimeouts. */
static void
completion_timeouts(struct ctl *ctl, double elapsed, struct ctl_decision *d)
{
	const struct ctl_config	*cfg = &ctl->cfg;
	const struct ctl_stall	*sd = &cfg->stall;
	double			 est = estimate_ms(ctl, ctl->rec.remaining);
	double			 deadline, limit;
	int			 completable;

	if (ctl->acceptable == 0)
		return;
	limit = ctl->paused ? ctl->acceptable : ctl->switchover_deadline;
	if (elapsed <= limit)
		return;
	if (ctl->ewma_bw <= 0) {
		act(d, CTL_ABORT, 0, "elapsed %.0f s past the deadline of %.0f "
		    "s with no bandwidth measured", elapsed, limit);
		return;
	}
	if (!ctl->switchover_initiated) {
		deadline = floor(ctl->acceptable * sd->completion_factor);
		completable = can_finish(ctl, elapsed, deadline, est);
		if (cfg->allow_post_copy && completable) {
			ctl->postcopy = 1;
			ctl->switchover_initiated = 1;
			act(d, CTL_POST_COPY, 0, "elapsed %.0f s exceeds the "
			    "acceptable completion time %.0f s: switching to "
			    "post-copy (an estimated %.0f ms left to send)",
			    elapsed, limit, est);
			return;
		}
		if (cfg->allow_workload_disruption && completable) {
			ctl->acceptable = deadline;
			ctl->switchover_deadline = elapsed +
			    (double)sd->switchover_timeout_s;
			ctl->switchover_initiated = 1;
			ctl->downtime_ms = CTL_QEMU_MAX_DOWNTIME_MS;
			act(d, CTL_SET_DOWNTIME, CTL_QEMU_MAX_DOWNTIME_MS,
			    "elapsed %.0f s exceeds the acceptable completion "
			    "time %.0f s: forcing the switchover (downtime "
			    "limit %u ms)", elapsed, limit,
			    CTL_QEMU_MAX_DOWNTIME_MS);
			return;
		}
	}
	act(d, CTL_ABORT, 0, "elapsed %.0f s exceeds the %s of %.0f s: "
	    "aborting (completion timeout)", elapsed,
	    ctl->switchover_initiated ? "switchover deadline" :
	    "acceptable completion time", limit);
}

/* KubeVirt's handleStallDetection, one poll. */
static void
stall_detector(struct ctl *ctl, const struct ctl_sample *s, int boundary,
    struct ctl_decision *d)
{
	const struct ctl_stall	*sd = &ctl->cfg.stall;
	double			 elapsed = floor(s->t);
	uint64_t		 initial;

	/* At most QEMU's 300 ms to start with. */
	if (ctl->kv_started == 1) {
		initial = ctl->cfg.max_downtime_ms < 300 ?
		    ctl->cfg.max_downtime_ms : 300;
		if (initial != ctl->downtime_ms) {
			ctl->downtime_ms = initial;
			act(d, CTL_SET_DOWNTIME, initial, "stall detector: "
			    "the downtime limit starts at %llu ms",
			    (unsigned long long)initial);
			return;
		}
	}
	if (boundary) {
		ctl->rec.t_ms = s->t * 1000;
		ctl->rec.remaining = s->remaining;
		ctl->rec.pass = s->pass;
		ctl->rec.set = 1;
		if (stall_pass(ctl, &ctl->rec)) {
			stall_act(ctl, elapsed, d);
			if (d->action != CTL_NONE)
				return;
		}
	} else if (ctl->paused || ctl->postcopy) {
		ctl->rec.t_ms = s->t * 1000;
		ctl->rec.remaining = s->remaining;
		ctl->rec.pass = s->pass;
	} else
		ctl->ewma_bw = ctl->ewma_bw == 0 ? s->bandwidth :
		    sd->ewma_alpha * s->bandwidth +
		    (1 - sd->ewma_alpha) * ctl->ewma_bw;
	if (!ctl->postcopy)
		completion_timeouts(ctl, elapsed, d);
}

void
ctl_kubevirt_step(struct ctl *ctl, const struct ctl_sample *s,
    struct ctl_decision *d)
{
	int boundary = s->pass != ctl->kv_last_pass;

	ctl->kv_last_pass = s->pass;
	ctl->kv_started++;
	/* Progress: the remaining data below the previous poll's. */
	if (!ctl->kv_have_prev || s->remaining < ctl->kv_prev_remaining)
		ctl->kv_last_progress = s->t;
	ctl->kv_prev_remaining = s->remaining;
	ctl->kv_have_prev = 1;

	if (ctl->postcopy)
		return;	/* the target holds the guest: nothing to track */
	if (ctl->cfg.stall.enabled) {
		stall_detector(ctl, s, boundary, d);
		return;
	}
	/*
	 * KubeVirt tunes the downtime, then runs the classic checks; one
	 * decision per sample here, so a classic action goes first and the
	 * tuning waits for the next sample.
	 */
	classic(ctl, s, d);
	if (d->action == CTL_NONE && ctl->cfg.tuning.enabled)
		tune_downtime(ctl, s, d);
}
