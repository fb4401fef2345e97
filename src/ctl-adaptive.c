/*
 * ctl-adaptive.c: qmigrate's own convergence controller.
 *
 * Instead of waiting out a timeout, it judges every completed pass: with
 * the bandwidth B QEMU really achieved and the rate D the guest dirties
 * memory, pre-copy shrinks what is left by D/B per pass.  When that cannot
 * reach the downtime limit soon it escalates at once.  If some downtime
 * limit the policy allows (up to maxDowntimeMs) lets pre-copy finish, it
 * raises the limit to that; if none does, it goes straight to the step that
 * can finish: post-copy when allowed (at once when the guest rewrites its
 * dirty set faster than it is sent, else at a low point of the remaining
 * data), otherwise throttling the vCPUs (dirty-limit where the QEMUs and
 * KVM's dirty ring allow it, else auto-converge), pausing the guest,
 * and finally aborting, one step per pass so each step's effect is seen
 * before the next; once the vCPUs are throttled, the downtime limit goes
 * to the policy's before a pause or an abort.  The acceptable completion
 * time and progress timeout stay as a last net.
 *
 * The first judgement comes after the bulk pass, whose dirty rate QEMU
 * averages over the whole pass: a guest rewriting a small hot set looks
 * slow then.  A dirty rate measured before the migration (calc-dirty-rate,
 * ctl_config.measured_dirty_rate) corrects that first judgement, and lets
 * it come before the bulk pass ends: a guest that will have rewritten
 * most of its memory by then is switched to post-copy at once, since that
 * pass would only be sent again (ctl_wants_dirty_rate() says when the
 * second the measurement costs is worth it).
 */
#include <math.h>
#include <stdio.h>

#include "qmigrate.h"
#include "ctl.h"

/* Pre-copy never converges when the guest dirties this share of B. */
#define DIVERGING_RATIO		0.95
/* Pre-copy that is predicted to need longer than this is not worth it. */
#define MAX_PREDICTED_SECONDS	20.0
/* Passes to give the CPU throttle before the next step. */
#define THROTTLE_PASSES		4
/* Passes at the maximum throttle before giving up on it. */
#define THROTTLE_FULL_PASSES	3
/* ... and seconds without a new low of the remaining data, ... */
#define THROTTLE_STALL_SECONDS	20.0
/* ... unless QEMU expects a switchover within this many downtime limits. */
#define NEAR_FINISH_FACTOR	3
/* The throttle aims at a guest dirtying this share of B: each pass halves. */
#define THROTTLE_TARGET_RATIO	0.5
/*
 * A guest that rewrote this share of its RAM in one pass dirties faster than
 * QEMU can count (the dirty set is the whole working set, whatever the rate).
 */
#define SATURATED_SHARE		0.5
/* ... and is throttled to this at once (QEMU adds 10 per trigger after). */
#define SATURATED_THROTTLE	90
/*
 * dirty-limit's floor, MB/s per vCPU (QEMU's smallest vcpu-dirty-limit):
 * the throttle at its maximum.
 */
#define DIRTY_LIMIT_MIN_MBPS	1
/* A dirty rate this much over dirty-limit's aim lowers the limit. */
#define DIRTY_LIMIT_SLACK	1.2
/* Post-copy waits at most this long for a low point of remaining data. */
#define LOW_POINT_WAIT		3.0

/*
 * Seconds pre-copy still needs to bring floor bytes under what the downtime
 * limit lets QEMU send at switchover; INFINITY when it never will.
 */
static double
predict_seconds(double floor, double bw, double dirty, double downtime_ms)
{
	double r, target, n;

	if (bw <= 0)
		return INFINITY;
	target = bw * downtime_ms / 1000.0;
	if (floor <= target)
		return 0;
	if (dirty >= bw * DIVERGING_RATIO)
		return INFINITY;
	r = dirty / bw;
	if (r <= 0)
		return floor / bw;
	n = ceil(log(target / floor) / log(r));
	return floor / bw * (1 - pow(r, n)) / (1 - r);
}

#define MB(x) ((x) / 1e6)

/*
 * The CPU throttle (percent) that brings the guest's dirty rate down to
 * THROTTLE_TARGET_RATIO of the bandwidth, given floor, the dirty set the
 * last pass left.  QEMU applies a throttle only every second pass, so a
 * throttle that starts low and climbs 10-20 points at a time costs many
 * passes, each rewriting the working set again; starting at the level
 * that converges ends the migration sooner and with less guest work lost.
 */
static int
throttle_needed(const struct ctl_sample *s, double floor)
{
	double pct;

	if (s->total > 0 && floor >= SATURATED_SHARE * (double)s->total)
		return SATURATED_THROTTLE;
	if (s->dirty_rate <= 0 || s->bandwidth <= 0)
		return 20;
	pct = ceil(100 * (1 - THROTTLE_TARGET_RATIO * s->bandwidth /
	    s->dirty_rate));
	return pct < 20 ? 20 : pct > 99 ? 99 : (int)pct;
}

/*
 * dirty-limit's vcpu-dirty-limit (MB/s per vCPU) that brings the guest's
 * dirty rate to THROTTLE_TARGET_RATIO of the bandwidth: QEMU then slows
 * only the vCPUs that dirty faster than that, and only by what they
 * exceed it.  The limit is per vCPU and QEMU cannot say which vCPUs
 * dirty, so it starts at the share of one of the guest's vCPUs (the
 * worst case: all of them dirty alike); later passes correct it from
 * the dirty rate measured under it (dirty_limit_adjusted()).  KVM's
 * dirty ring counts every page written, so unlike the rate QEMU infers
 * from the bitmap a guest that rewrites its whole working set each pass
 * is seen at its true rate.
 */
static uint64_t
dirty_limit_needed(const struct ctl *ctl, const struct ctl_sample *s)
{
	double	n = ctl->cfg.vcpus > 0 ? ctl->cfg.vcpus : 1, mbps;

	if (s->bandwidth <= 0)
		return DIRTY_LIMIT_MIN_MBPS;
	mbps = THROTTLE_TARGET_RATIO * s->bandwidth / n / 1e6;
	return mbps < DIRTY_LIMIT_MIN_MBPS ? DIRTY_LIMIT_MIN_MBPS :
	    (uint64_t)mbps;
}

/*
 * Under dirty-limit, for a pass that still does not converge: the limit
 * that brings a guest dirtying more than the aim (by DIRTY_LIMIT_SLACK)
 * down to it, the last limit scaled by aim / rate; where the rate is
 * held already, half the last limit (as QEMU's auto-converge climbs by
 * itself); 0 at the floor.
 */
static uint64_t
dirty_limit_adjusted(const struct ctl *ctl, const struct ctl_sample *s)
{
	double	aim = THROTTLE_TARGET_RATIO * s->bandwidth, next;

	if (ctl->dirty_limit_mbps <= DIRTY_LIMIT_MIN_MBPS)
		return 0;
	if (aim <= 0 || s->dirty_rate <= aim * DIRTY_LIMIT_SLACK)
		next = (double)ctl->dirty_limit_mbps / 2;
	else
		next = (double)ctl->dirty_limit_mbps * aim / s->dirty_rate;
	return next < DIRTY_LIMIT_MIN_MBPS ? DIRTY_LIMIT_MIN_MBPS :
	    (uint64_t)next;
}

/* Whether the throttle is at its maximum. */
static int
throttle_full(const struct ctl *ctl, const struct ctl_sample *s)
{
	if (ctl->cfg.dirty_limit)
		return ctl->dirty_limit_mbps <= DIRTY_LIMIT_MIN_MBPS;
	return s->throttle_pct >= 99;
}

static void
decide(struct ctl_decision *d, enum ctl_action action, uint64_t value,
    const char *why, const struct ctl_sample *s)
{
	d->action = action;
	d->value = value;
	snprintf(d->reason, sizeof d->reason,
	    "%s (pass %llu: dirty %.1f MB/s, bandwidth %.1f MB/s, "
	    "remaining %.1f MB)", why, (unsigned long long)s->pass,
	    MB(s->dirty_rate), MB(s->bandwidth), MB((double)s->remaining));
}

/*
 * Whether the guest rewrites what a pass leaves faster than QEMU sends it:
 * more pre-copy only sends pages that are dirty again before the switch.
 */
static int
saturated(const struct ctl_sample *s, double floor)
{
	return (s->bandwidth > 0 &&
	    s->dirty_rate >= s->bandwidth * DIVERGING_RATIO) ||
	    (s->total > 0 && floor >= SATURATED_SHARE * (double)s->total);
}

/*
 * Before a step that costs the guest more than a throttle (a pause, an
 * abort), the largest downtime the policy allows, even when the passes
 * say it cannot help: a throttled guest's passes understate the link.
 * Under TCG every dirty-bitmap sync waits for the vCPU to finish its
 * throttle sleep (up to a second at 99%), so the sender idles, a pass's
 * bytes per second fall to the guest's dirty rate, and QEMU's switchover
 * threshold (its bandwidth over the last 100 ms times the limit) with it;
 * on a busy 2-core host, 3 of 6 migrations under a 50 ms limit had not
 * switched over after 60 s, while each under 300 ms did within 9 s
 * (bench/tcg-throttle.sh).  The raise gets its own passes and
 * THROTTLE_STALL_SECONDS before the next step.
 */
static void
raise_for_throttle(struct ctl *ctl, const struct ctl_sample *s,
    struct ctl_decision *d)
{
	char	why[240], how[64];

	if (ctl->cfg.dirty_limit)
		snprintf(how, sizeof how, "to %llu MB/s per vCPU (dirty-limit)",
		    (unsigned long long)ctl->dirty_limit_mbps);
	else
		snprintf(how, sizeof how, "to %d%%", s->throttle_pct);
	snprintf(why, sizeof why, "not converging with the vCPUs throttled "
	    "%s: raising the downtime limit from %llu to the policy's "
	    "%llu ms before giving up on pre-copy", how,
	    (unsigned long long)ctl->downtime_ms,
	    (unsigned long long)ctl->cfg.max_downtime_ms);
	ctl->downtime_ms = ctl->cfg.max_downtime_ms;
	ctl->throttle_downtime_raised = 1;
	ctl->stalled_passes = 0;
	ctl->last_action_t = s->t;
	decide(d, CTL_SET_DOWNTIME, ctl->downtime_ms, why, s);
}

/*
 * The next step up the ladder, for a migration judged not to converge soon
 * (predicted: seconds pre-copy still needs, INFINITY for never).  A step
 * that cannot finish is skipped: the downtime limit is raised only when
 * some limit the policy allows lets pre-copy converge, or, once the vCPUs
 * are throttled, to the policy's limit before a pause or an abort.
 */
static void
escalate(struct ctl *ctl, const struct ctl_sample *s, double floor,
    double predicted, int late, struct ctl_decision *d)
{
	const struct ctl_config *cfg = &ctl->cfg;
	double	 need_ms = s->bandwidth > 0 ? floor / s->bandwidth * 1000 : 0;
	double	 at_max;
	uint64_t max_ms;
	char	 why[240];

	max_ms = cfg->max_downtime_ms > ctl->downtime_ms ?
	    cfg->max_downtime_ms : ctl->downtime_ms;
	at_max = predict_seconds(floor, s->bandwidth, s->dirty_rate,
	    (double)max_ms);
	if (at_max > MAX_PREDICTED_SECONDS && cfg->allow_post_copy) {
		ctl->last_action_t = s->t;
		if (saturated(s, floor)) {
			ctl->postcopy = 1;
			snprintf(why, sizeof why, "not converging under any "
			    "downtime up to %llu ms, the guest dirties memory as "
			    "fast as it is sent: switching to post-copy now",
			    (unsigned long long)max_ms);
			decide(d, CTL_POST_COPY, 0, why, s);
		} else
			ctl->want_postcopy = 1;	/* at the next low point */
		return;
	}
	if (at_max <= MAX_PREDICTED_SECONDS &&
	    cfg->max_downtime_ms > ctl->downtime_ms) {
		uint64_t next = ctl->downtime_ms * 2;

		if (need_ms * 1.25 > (double)next)
			next = (uint64_t)(need_ms * 1.25);
		/*
		 * A throttled guest's passes understate the link (see
		 * raise_for_throttle()), and what it loses to the throttle
		 * every second outweighs the policy's longest switchover.
		 */
		if (ctl->throttling)
			next = cfg->max_downtime_ms;
		if (next > cfg->max_downtime_ms)
			next = cfg->max_downtime_ms;
		snprintf(why, sizeof why, "not converging: switchover needs "
		    "about %.0f ms, raising the downtime limit from %llu to "
		    "%llu ms%s", need_ms, (unsigned long long)ctl->downtime_ms,
		    (unsigned long long)next, ctl->throttling ?
		    " (the policy's limit: the vCPUs are throttled)" : "");
		ctl->downtime_ms = next;
		decide(d, CTL_SET_DOWNTIME, next, why, s);
		return;
	}
	if (cfg->allow_auto_converge && cfg->dirty_limit && !ctl->throttling) {
		ctl->throttling = 1;
		ctl->stalled_passes = 0;
		ctl->dirty_limit_mbps = dirty_limit_needed(ctl, s);
		snprintf(why, sizeof why, "not converging at the downtime "
		    "limit: limiting each vCPU to dirtying %llu MB/s "
		    "(dirty-limit; half the bandwidth over %d vCPU%s)",
		    (unsigned long long)ctl->dirty_limit_mbps,
		    cfg->vcpus > 0 ? cfg->vcpus : 1,
		    cfg->vcpus > 1 ? "s" : "");
		decide(d, CTL_DIRTY_LIMIT, ctl->dirty_limit_mbps, why, s);
		return;
	}
	if (cfg->allow_auto_converge && !ctl->throttling) {
		int pct = throttle_needed(s, floor);

		ctl->throttling = 1;
		ctl->stalled_passes = 0;
		snprintf(why, sizeof why, "not converging at the downtime "
		    "limit: throttling the vCPUs to %d%% (auto-converge)%s",
		    pct, pct == SATURATED_THROTTLE && s->total > 0 &&
		    floor >= SATURATED_SHARE * (double)s->total ?
		    ", the guest rewrote most of its memory in one pass" : "");
		decide(d, CTL_AUTO_CONVERGE, (uint64_t)pct, why, s);
		return;
	}
	if (ctl->throttling) {
		/*
		 * Let the throttle bite before the next step.  When that step
		 * would be an abort, give it until it has held at its maximum
		 * for a few passes: a throttled guest may still converge.
		 */
		int last = !cfg->allow_post_copy &&
		    !(cfg->allow_workload_disruption && !ctl->paused);
		int waiting;
		uint64_t lower;

		if (throttle_full(ctl, s))
			ctl->throttle_full_passes++;
		if (ctl->throttle_downtime_raised)	/* the raise's passes */
			waiting = ctl->stalled_passes < THROTTLE_FULL_PASSES &&
			    !late;
		else if (last)
			waiting = ctl->throttle_full_passes <
			    THROTTLE_FULL_PASSES;
		else
			waiting = ctl->stalled_passes < THROTTLE_PASSES &&
			    !throttle_full(ctl, s);
		/*
		 * QEMU raises auto-converge's throttle by itself; dirty-limit
		 * holds the rate it was given, which the controller lowers
		 * while the guest still dirties more than the aim.
		 */
		if (cfg->dirty_limit && waiting &&
		    (lower = dirty_limit_adjusted(ctl, s)) != 0) {
			snprintf(why, sizeof why, "still not converging under "
			    "dirty-limit: lowering each vCPU's limit from %llu "
			    "to %llu MB/s", (unsigned long long)
			    ctl->dirty_limit_mbps, (unsigned long long)lower);
			ctl->dirty_limit_mbps = lower;
			ctl->last_action_t = s->t;
			decide(d, CTL_DIRTY_LIMIT, lower, why, s);
			return;
		}
		if (waiting)
			return;
		if (!cfg->allow_post_copy && !ctl->throttle_downtime_raised &&
		    cfg->max_downtime_ms > ctl->downtime_ms) {
			raise_for_throttle(ctl, s, d);
			return;
		}
	}
	if (cfg->allow_post_copy) {
		ctl->want_postcopy = 1;
		ctl->last_action_t = s->t;
		return;	/* switched at the next low point */
	}
	if (cfg->allow_workload_disruption && !ctl->paused) {
		ctl->paused = 1;
		decide(d, CTL_PAUSE, 0, "not converging: pausing the guest so "
		    "that pre-copy completes (workload disruption allowed)", s);
		return;
	}
	if (ctl->paused)
		return;	/* a paused guest converges */
	if (ctl->stalled_passes < 2)
		return;	/* one pass can mislead: abort on the second */
	/*
	 * A guest throttled to the maximum can still creep to convergence
	 * (QEMU's own auto-converge finishes such guests given time): give
	 * up on it only once the remaining data stops reaching new lows.
	 */
	if (ctl->throttling &&
	    s->t - fmax(ctl->last_progress, ctl->last_action_t) <
	    THROTTLE_STALL_SECONDS)
		return;
	/*
	 * Near the finish line the dirty set of a fully throttled guest
	 * hovers around what the downtime allows, and every pass is a fresh
	 * chance to switch over (QEMU alone finishes such guests so): keep
	 * going until the completion time or the progress timeout rather
	 * than throw the copy away.
	 */
	if (ctl->throttling && !late && s->expected_downtime_ms > 0 &&
	    s->expected_downtime_ms <= NEAR_FINISH_FACTOR * ctl->downtime_ms)
		return;
	/*
	 * Slow is not hopeless: aborting throws away all the work done, so a
	 * pre-copy predicted to finish within the acceptable completion time
	 * goes on.
	 */
	if (!late && isfinite(predicted) && (ctl->acceptable == 0 ||
	    s->t + predicted < ctl->acceptable))
		return;
	snprintf(why, sizeof why, "cannot converge (%s) and neither "
	    "post-copy nor workload disruption is allowed: aborting while the "
	    "guest still runs on the source", late ? "out of time" :
	    isfinite(predicted) ? "too slow for the completion time" :
	    "the guest dirties memory as fast as it is sent");
	decide(d, CTL_ABORT, 0, why, s);
}

/*
 * During the bulk pass, with a dirty rate measured before migrate: if the
 * guest dirties memory faster than it is sent and will have rewritten at
 * least half of it by the time the bulk pass ends, no downtime the policy
 * allows can converge and that pass would only be sent again: switch to
 * post-copy now, when allowed.  Judged once, at the first sample a second
 * in, when QEMU's rate limit shows in the bytes sent.
 */
static void
early_judgement(struct ctl *ctl, const struct ctl_sample *s,
    struct ctl_decision *d)
{
	const struct ctl_config *cfg = &ctl->cfg;
	double	 bw, dirty = cfg->measured_dirty_rate, left, will, max_ms;
	char	 why[240];

	if (dirty <= 0 || !cfg->allow_post_copy || s->t < 1 ||
	    s->transferred == 0)
		return;
	ctl->early_judged = 1;
	bw = (double)s->transferred / s->t;
	if (s->bandwidth > bw)
		bw = s->bandwidth;
	left = (double)s->remaining;
	will = dirty * left / bw;
	if (s->total > 0 && will > (double)s->total)
		will = (double)s->total;
	max_ms = (double)(cfg->max_downtime_ms > ctl->downtime_ms ?
	    cfg->max_downtime_ms : ctl->downtime_ms);
	if (dirty < bw * DIVERGING_RATIO || s->total == 0 ||
	    will < SATURATED_SHARE * (double)s->total ||
	    predict_seconds(will, bw, dirty, max_ms) <= MAX_PREDICTED_SECONDS)
		return;
	ctl->postcopy = 1;
	snprintf(why, sizeof why, "the guest dirties %.1f MB/s (measured "
	    "before migrating), faster than the %.1f MB/s sent, and will "
	    "have rewritten %.0f%% of its memory when the first pass ends: "
	    "switching to post-copy now", MB(dirty), MB(bw),
	    100 * will / (double)s->total);
	decide(d, CTL_POST_COPY, 0, why, s);
}

void
ctl_adaptive_step(struct ctl *ctl, const struct ctl_sample *sample,
    struct ctl_decision *d)
{
	struct ctl_sample	 measured = *sample, *s = &measured;
	double			 floor, predicted;
	int			 new_pass = 0, late;

	if (ctl->postcopy)
		return;

	if (s->pass != ctl->last_pass) {
		/*
		 * QEMU's mbps covers the last 100 ms or so and dips whenever
		 * the machine is busy; the bytes sent over a whole pass are
		 * what pre-copy can count on.
		 */
		if (ctl->last_pass != 0 && s->t > ctl->pass_start_t + 0.2 &&
		    s->transferred > ctl->pass_start_bytes)
			ctl->pass_bandwidth = (double)(s->transferred -
			    ctl->pass_start_bytes) / (s->t - ctl->pass_start_t);
		ctl->pass_start_t = s->t;
		ctl->pass_start_bytes = s->transferred;
		if (ctl->last_pass != 0)
			ctl->prev_pass_min = ctl->pass_min_remaining;
		ctl->pass_min_remaining = s->remaining;
		ctl->last_pass = s->pass;
		new_pass = 1;
	} else if (s->remaining < ctl->pass_min_remaining)
		ctl->pass_min_remaining = s->remaining;

	if (ctl->want_postcopy) {
		/*
		 * Switch when remaining is back near the last pass's low
		 * point: fewer pages then have to be faulted in from the
		 * source while the guest already runs on the target.
		 */
		if (s->remaining <= ctl->prev_pass_min + ctl->prev_pass_min / 8
		    || s->t - ctl->last_action_t > LOW_POINT_WAIT) {
			ctl->postcopy = 1;
			ctl->want_postcopy = 0;
			decide(d, CTL_POST_COPY, 0, "not converging: switching "
			    "to post-copy at a low point of remaining data", s);
		}
		return;
	}

	late = (ctl->acceptable > 0 && s->t > ctl->acceptable) ||
	    (ctl->cfg.progress_timeout != 0 &&
	    s->t - ctl->last_progress > (double)ctl->cfg.progress_timeout);

	if (s->pass <= 1 && !ctl->early_judged)
		early_judgement(ctl, s, d);
	if (ctl->postcopy)
		return;

	/*
	 * The first pass copies everything; judge from the second on.  What
	 * QEMU must fit into the downtime at switchover is the dirty set a
	 * pass leaves behind: the remaining data just after a dirty-bitmap
	 * sync, which is this first sample of the new pass (MIGRATION_PASS
	 * triggers it at once).
	 */
	if (!new_pass || s->pass < 2) {
		if (late && s->t - ctl->last_action_t > 5)
			escalate(ctl, s, (double)s->remaining, INFINITY, late,
			    d);
		return;
	}

	floor = (double)s->remaining;
	if (ctl->pass_bandwidth > 0)
		s->bandwidth = ctl->pass_bandwidth;
	/*
	 * No bandwidth measured yet: nothing to judge by.  QEMU 11.1 with
	 * post-copy allowed counts two dirty-bitmap syncs before any byte
	 * is sent, and judging that "pass" switched to post-copy at once.
	 */
	if (s->bandwidth <= 0 && !late)
		return;
	/*
	 * QEMU's rate for the bulk pass is the dirty set over the whole
	 * pass: a guest rewriting a hot set of 10% of its RAM seems to dirty
	 * a tenth of the bandwidth, and the truth shows only a pass later.
	 * A rate measured at the start (calc-dirty-rate over a second) is
	 * closer for that first judgement; later passes are QEMU's own.
	 */
	if (!ctl->judged && ctl->cfg.measured_dirty_rate > s->dirty_rate)
		s->dirty_rate = ctl->cfg.measured_dirty_rate;
	ctl->judged = 1;
	predicted = predict_seconds(floor, s->bandwidth, s->dirty_rate,
	    (double)ctl->downtime_ms);
	if (predicted <= MAX_PREDICTED_SECONDS && !late) {
		ctl->stalled_passes = 0;
		return;
	}
	ctl->stalled_passes++;
	escalate(ctl, s, floor, predicted, late, d);
}
