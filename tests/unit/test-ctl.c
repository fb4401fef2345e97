/*
 * test-ctl.c: both controllers on synthetic traces: what they decide, and
 * when, for guests that converge, never converge, or stall.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "qmigrate.h"
#include "policy.h"
#include "ctl.h"

#define GiB (1024.0 * 1024 * 1024)
#define MiB (1024.0 * 1024)

static struct ctl_config
config(int postcopy, int autoconv, int disruption)
{
	struct ctl_config cfg = {
		.guest_bytes = (uint64_t)GiB,
		.completion_timeout_per_gib = 150,
		.progress_timeout = 150,
		.max_downtime_ms = 0,
		.initial_downtime_ms = 300,
		.allow_auto_converge = autoconv,
		.allow_post_copy = postcopy,
		.allow_workload_disruption = disruption,
	};
	return cfg;
}

/*
 * A simple guest model: bulk pass at bw, then each pass re-sends what the
 * guest dirtied during the last one (capped by its working set).  Runs the
 * controller every 0.5 s until it decides something other than none or
 * set-downtime (which it applies), or until limit seconds pass.
 */
static struct ctl_decision
run_trace(struct ctl *ctl, double bw, double dirty, double wss, double limit,
    double *when)
{
	struct ctl_sample	s;
	struct ctl_decision	d;
	double			t = 0, remaining = GiB, pass_left = GiB;
	double			sent = 0;
	uint64_t		pass = 1;

	memset(&d, 0, sizeof d);
	while (t < limit) {
		t += 0.5;
		sent += bw * 0.5;
		pass_left -= bw * 0.5;
		if (pass_left <= 0) {
			pass++;
			pass_left = dirty * (remaining / bw);
			if (pass_left > wss)
				pass_left = wss;
		}
		remaining = pass_left > 0 ? pass_left : 0;
		memset(&s, 0, sizeof s);
		s.t = t;
		s.pass = pass;
		s.total = (uint64_t)GiB;
		s.remaining = (uint64_t)remaining;
		s.transferred = (uint64_t)sent;
		s.dirty_rate = dirty;
		/* QEMU's mbps is a 100 ms window: make it dip now and then. */
		s.bandwidth = (int)(t * 2) % 3 == 0 ? bw / 40 : bw;
		ctl_step(ctl, &s, &d);
		if (d.action != CTL_NONE && d.action != CTL_SET_DOWNTIME)
			break;
	}
	*when = t;
	return d;
}

/* A controller stepped by hand: its configuration, a sample, a decision. */
struct hand {
	struct ctl		ctl;
	struct ctl_config	cfg;
	struct ctl_sample	s;
	struct ctl_decision	d;
};

/* Starts the controller of kind on h->cfg: a zeroed sample, no decision. */
static void
hand_init(struct hand *h, enum ctl_kind kind)
{
	ctl_init(&h->ctl, kind, &h->cfg);
	memset(&h->s, 0, sizeof h->s);
	memset(&h->d, 0, sizeof h->d);
}

/* Feeds h->s to the controller; returns the action it decides. */
static enum ctl_action
hand_step(struct hand *h)
{
	ctl_step(&h->ctl, &h->s, &h->d);
	return h->d.action;
}

static void
test_acceptable_rounds_up_decimal_gb(void **state)
{
	struct ctl_config cfg = config(0, 0, 0);

	(void)state;
	/* 1 GiB is 1.07 GB: two units of 150 s. */
	assert_true(ctl_acceptable_seconds(&cfg) == 300);
	cfg.guest_bytes = 1000000000ULL;
	assert_true(ctl_acceptable_seconds(&cfg) == 150);
	cfg.completion_timeout_per_gib = 0;
	assert_true(ctl_acceptable_seconds(&cfg) == 0);
}

/*
 * What each controller decides, and when, for a guest of one GiB sent at
 * 100 MiB/s (run_trace) dirtying a 300 MiB working set at a rate, each row
 * with its policy (post-copy, auto-converge, workload disruption allowed;
 * maxDowntimeMs).  The run stops at the first decision other than none or
 * set-downtime (applied), or at the row's limit; then the action, and
 * where given: when it came (seconds, moving in 0.5 s steps), the value,
 * words of the reason, the downtime limit by then.
 */
static const struct trace_case {
	const char	*what;
	enum ctl_kind	 kind;
	int		 postcopy, autoconv, disruption;
	uint64_t	 max_downtime_ms;
	double		 dirty, limit;		/* MiB/s, s */
	enum ctl_action	 action;
	double		 when_min, when_max;	/* 0: not checked */
	int		 value;			/* -1: not checked */
	const char	*reason;
	uint64_t	 downtime_ms;		/* 0: not checked */
	int		 dirty_limit, vcpus;	/* the throttle: dirty-limit */
} trace_cases[] = {
	/*
	 * KubeVirt's progress is the remaining data dropping below the
	 * previous poll's (its progressWatermark is the last sample, not the
	 * minimum): a busy guest whose remaining data falls within every
	 * pass is progressing and ends at the acceptable completion time.
	 */
	{ .what = "kubevirt: a busy guest progressing", .kind = CTL_KUBEVIRT,
	  .dirty = 200, .limit = 1000, .action = CTL_ABORT,
	  .when_min = 300.5, .when_max = 301, .value = -1,
	  .reason = "acceptable completion time" },
	{ .what = "adaptive: a converging guest left alone",
	  .kind = CTL_ADAPTIVE, .postcopy = 1, .autoconv = 1, .disruption = 1,
	  .dirty = 5, .limit = 60, .action = CTL_NONE, .value = -1 },
	/* 85% of the bandwidth: slow, but done long before 300 s. */
	{ .what = "adaptive: slow pre-copy let finish", .kind = CTL_ADAPTIVE,
	  .dirty = 85, .limit = 120, .action = CTL_NONE, .value = -1 },
	/* Bulk pass about 10.5 s, then a judged pass: well under 30 s. */
	{ .what = "adaptive: post-copy within passes", .kind = CTL_ADAPTIVE,
	  .postcopy = 1, .disruption = 1, .dirty = 400, .limit = 1000,
	  .action = CTL_POST_COPY, .when_max = 30, .value = -1,
	  .reason = "post-copy" },
	/*
	 * In order: the downtime (set-downtime is applied inside run_trace),
	 * then the throttle: 400 MiB/s down to half of 100 MiB/s, 87.5%,
	 * rounded up.
	 */
	{ .what = "adaptive: downtime, then throttle", .kind = CTL_ADAPTIVE,
	  .autoconv = 1, .max_downtime_ms = 1000, .dirty = 400, .limit = 1000,
	  .action = CTL_AUTO_CONVERGE, .when_max = 40, .value = 88,
	  .reason = "to 88%", .downtime_ms = 1000 },
	/* Nothing allowed but the downtime: abort soon, not after 150 s. */
	{ .what = "adaptive: nothing allowed", .kind = CTL_ADAPTIVE,
	  .dirty = 400, .limit = 1000, .action = CTL_ABORT, .when_max = 30,
	  .value = -1 },
	/* Disruption allowed without post-copy: pause. */
	{ .what = "adaptive: disruption allowed", .kind = CTL_ADAPTIVE,
	  .disruption = 1, .dirty = 400, .limit = 1000, .action = CTL_PAUSE,
	  .when_max = 30, .value = -1 },
	/* The throttle starts where the guest converges, not low. */
	{ .what = "adaptive: just above the bandwidth, a light throttle",
	  .kind = CTL_ADAPTIVE, .autoconv = 1, .dirty = 110, .limit = 1000,
	  .action = CTL_AUTO_CONVERGE, .value = 55 },
	/*
	 * Where the QEMUs and KVM's dirty ring allow it (mig_throttle_
	 * choose()): dirty-limit instead, at the same point of the ladder,
	 * each vCPU limited to half of 100 MiB/s (52.4 MB/s) over its vCPUs.
	 */
	{ .what = "adaptive: downtime, then dirty-limit", .kind = CTL_ADAPTIVE,
	  .autoconv = 1, .max_downtime_ms = 1000, .dirty = 400, .limit = 1000,
	  .action = CTL_DIRTY_LIMIT, .when_max = 40, .value = 52,
	  .reason = "limiting each vCPU to dirtying 52 MB/s (dirty-limit; "
	  "half the bandwidth over 1 vCPU)", .downtime_ms = 1000,
	  .dirty_limit = 1 },
	{ .what = "adaptive: dirty-limit over 4 vCPUs", .kind = CTL_ADAPTIVE,
	  .autoconv = 1, .dirty = 110, .limit = 1000,
	  .action = CTL_DIRTY_LIMIT, .value = 13,
	  .reason = "over 4 vCPUs", .dirty_limit = 1, .vcpus = 4 },
	/* No throttle allowed: dirty-limit is never used either. */
	{ .what = "adaptive: dirty-limit offered, no throttle allowed",
	  .kind = CTL_ADAPTIVE, .dirty = 400, .limit = 1000,
	  .action = CTL_ABORT, .when_max = 30, .value = -1,
	  .dirty_limit = 1 },
	/*
	 * The kubevirt controller is KubeVirt's: QEMU's auto-converge
	 * throttles by itself; the controller never sets a dirty limit.
	 */
	{ .what = "kubevirt: never dirty-limit", .kind = CTL_KUBEVIRT,
	  .autoconv = 1, .dirty = 200, .limit = 1000, .action = CTL_ABORT,
	  .when_min = 300.5, .when_max = 301, .value = -1,
	  .reason = "acceptable completion time", .dirty_limit = 1 },
};

static void
test_traces(void **state)
{
	const struct trace_case	*c;
	struct ctl		 ctl;
	struct ctl_config	 cfg;
	struct ctl_decision	 d;
	double			 when;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof trace_cases / sizeof trace_cases[0]; i++) {
		c = &trace_cases[i];
		cfg = config(c->postcopy, c->autoconv, c->disruption);
		cfg.max_downtime_ms = c->max_downtime_ms;
		cfg.dirty_limit = c->dirty_limit;
		cfg.vcpus = c->vcpus;
		ctl_init(&ctl, c->kind, &cfg);
		d = run_trace(&ctl, 100 * MiB, c->dirty * MiB, 300 * MiB,
		    c->limit, &when);
		if (d.action != c->action ||
		    (c->when_min != 0 && when < c->when_min) ||
		    (c->when_max != 0 && when >= c->when_max) ||
		    (c->value != -1 && d.value != (uint64_t)c->value) ||
		    (c->reason != NULL &&
		    strstr(d.reason, c->reason) == NULL) ||
		    (c->downtime_ms != 0 && ctl.downtime_ms != c->downtime_ms))
			fail_msg("%s: action %d at %.1f s, value %llu, "
			    "downtime %llu ms: %s", c->what, (int)d.action,
			    when, (unsigned long long)d.value,
			    (unsigned long long)ctl.downtime_ms, d.reason);
	}
}

/* A stream that moves nothing is aborted after progressTimeout. */
static void
test_kubevirt_aborts_stuck_after_progress_timeout(void **state)
{
	struct hand		h = { .cfg = config(0, 0, 0) };

	(void)state;
	hand_init(&h, CTL_KUBEVIRT);
	h.s = (struct ctl_sample){ .pass = 1,
	    .remaining = (uint64_t)(500 * MiB) };
	for (h.s.t = 0.5; h.s.t < 500; h.s.t += 0.5) {
		/* 10 s of sending, then nothing moves. */
		if (h.s.t <= 10)
			h.s.remaining -= (uint64_t)(10 * MiB);
		if (hand_step(&h) != CTL_NONE)
			break;
	}
	assert_int_equal(h.d.action, CTL_ABORT);
	assert_non_null(strstr(h.d.reason, "no progress"));
	assert_true(h.s.t > 160 && h.s.t <= 160.5);
}

static void
test_kubevirt_postcopy_after_acceptable_time(void **state)
{
	struct hand		h = { .cfg = config(1, 0, 1) };
	int			i;

	(void)state;
	h.cfg.progress_timeout = 0;	/* isolate the completion rule */
	hand_init(&h, CTL_KUBEVIRT);
	for (i = 1; i <= 700; i++) {
		h.s.t = i * 0.5;
		h.s.remaining = (uint64_t)(100 * MiB) - (uint64_t)i;
		hand_step(&h);
		if (h.d.action != CTL_NONE)
			break;
	}
	assert_int_equal(h.d.action, CTL_POST_COPY);
	assert_true(h.s.t > 300 && h.s.t < 301);
	/* Once in post-copy it never aborts. */
	h.s.t = 10000;
	h.s.postcopy = 1;
	assert_int_equal(hand_step(&h), CTL_NONE);
}

static void
test_kubevirt_pause_doubles_acceptable(void **state)
{
	struct hand		h = { .cfg = config(0, 0, 1) };

	(void)state;
	h.cfg.progress_timeout = 0;
	hand_init(&h, CTL_KUBEVIRT);
	h.s = (struct ctl_sample){ .t = 301, .remaining = 1000 };
	assert_int_equal(hand_step(&h), CTL_PAUSE);
	h.s.t = 500;
	h.s.remaining = 10;
	assert_int_equal(hand_step(&h), CTL_NONE);
	h.s.t = 601;
	assert_int_equal(hand_step(&h), CTL_ABORT);
}

/*
 * Feeds the controller a bulk pass of one GiB at h->s.bandwidth that ends
 * at t seconds leaving left bytes dirty: the first sample of pass 2, where
 * the adaptive controller first judges.
 */
static void
first_judgement(struct hand *h, double t, double left)
{
	h->s.pass = 1;
	h->s.t = 0;
	h->s.transferred = 0;
	h->s.remaining = (uint64_t)GiB;
	hand_step(h);
	h->s.pass = 2;
	h->s.t = t;
	h->s.transferred = (uint64_t)(t * h->s.bandwidth);
	h->s.remaining = (uint64_t)left;
	hand_step(h);
}

/*
 * The busy guest of first_judgement() (400 MiB/s over 100 MiB/s, 300 MiB
 * left after the bulk pass) throttled at once, then held at 99%.
 */
static void
throttled_to_the_maximum(struct hand *h)
{
	h->s.throttle_pct = 0;
	h->s.bandwidth = 100 * MiB;
	h->s.dirty_rate = 400 * MiB;
	first_judgement(h, 10, 300 * MiB);
	assert_int_equal(h->d.action, CTL_AUTO_CONVERGE);
	h->s.throttle_pct = 99;
}

/* One more pass of 3 s at 100 MiB/s leaving left bytes, dirtying dirty. */
static enum ctl_action
next_pass(struct hand *h, double left, double dirty)
{
	h->s.pass++;
	h->s.t += 3;
	h->s.transferred += (uint64_t)(300 * MiB);
	h->s.remaining = (uint64_t)left;
	h->s.dirty_rate = dirty;
	return hand_step(h);
}

/*
 * dirty-limit: set from the bandwidth and the vCPUs (half of 100 MiB/s
 * over 2 vCPUs: 26 MB/s each), then lowered from the dirty rate measured
 * under it while the guest still dirties more than the aim (200 MiB/s:
 * 26 * 52.4 / 209.7), halved where the rate holds but pre-copy still does
 * not converge, down to QEMU's floor of 1 MB/s, where it stays.
 */
static void
test_adaptive_dirty_limit_adjusted(void **state)
{
	struct hand		h = { .cfg = config(0, 1, 0) };

	(void)state;
	h.cfg.dirty_limit = 1;
	h.cfg.vcpus = 2;
	hand_init(&h, CTL_ADAPTIVE);
	h.s.bandwidth = 100 * MiB;
	h.s.dirty_rate = 400 * MiB;
	first_judgement(&h, 10, 300 * MiB);
	assert_int_equal(h.d.action, CTL_DIRTY_LIMIT);
	assert_int_equal(h.d.value, 26);
	assert_non_null(strstr(h.d.reason, "over 2 vCPUs"));
	assert_int_equal(next_pass(&h, 300 * MiB, 200 * MiB), CTL_DIRTY_LIMIT);
	assert_int_equal(h.d.value, 6);
	assert_non_null(strstr(h.d.reason, "from 26 to 6 MB/s"));
	assert_int_equal(next_pass(&h, 1000 * MiB, 55 * MiB), CTL_DIRTY_LIMIT);
	assert_int_equal(h.d.value, 3);
	assert_int_equal(next_pass(&h, 1000 * MiB, 55 * MiB), CTL_DIRTY_LIMIT);
	assert_int_equal(h.d.value, 1);
	h.d.action = CTL_NONE;
	assert_int_equal(next_pass(&h, 1000 * MiB, 55 * MiB), CTL_NONE);
	/* A converging pass under the limit: left alone. */
	assert_int_equal(next_pass(&h, 30 * MiB, 5 * MiB), CTL_NONE);
}

/*
 * A guest whose dirty set is most of its memory: auto-converge jumps to
 * 90% (QEMU's bitmap rate says little then); dirty-limit still sets the
 * rate from the bandwidth, which KVM's dirty ring measures truly.
 */
static void
test_adaptive_dirty_limit_saturated(void **state)
{
	struct hand		h = { .cfg = config(0, 1, 0) };

	(void)state;
	hand_init(&h, CTL_ADAPTIVE);
	h.s.total = (uint64_t)GiB;
	h.s.bandwidth = 100 * MiB;
	h.s.dirty_rate = 80 * MiB;
	first_judgement(&h, 10, 900 * MiB);
	assert_int_equal(h.d.action, CTL_AUTO_CONVERGE);
	assert_int_equal(h.d.value, 90);
	h.cfg.dirty_limit = 1;
	hand_init(&h, CTL_ADAPTIVE);
	h.s.total = (uint64_t)GiB;
	h.s.bandwidth = 100 * MiB;
	h.s.dirty_rate = 80 * MiB;
	first_judgement(&h, 10, 900 * MiB);
	assert_int_equal(h.d.action, CTL_DIRTY_LIMIT);
	assert_int_equal(h.d.value, 52);
}

static void
test_adaptive_throttled_guest_gets_time(void **state)
{
	struct hand		h = { .cfg = config(0, 1, 0) };
	int			i;

	(void)state;
	hand_init(&h, CTL_ADAPTIVE);
	throttled_to_the_maximum(&h);
	/* At 99% it still dirties as fast as it is sent, but creeps down. */
	h.s.dirty_rate = 100 * MiB;
	for (i = 0; i < 20; i++) {
		h.s.pass++;
		h.s.t += 3;
		h.s.transferred += (uint64_t)(300 * MiB);
		h.s.remaining -= (uint64_t)(5 * MiB);
		assert_int_equal(hand_step(&h), CTL_NONE);
	}
	/* Stuck: no new low for 20 s, then it gives up. */
	for (i = 0; i < 10 && h.d.action == CTL_NONE; i++) {
		h.s.pass++;
		h.s.t += 3;
		h.s.transferred += (uint64_t)(300 * MiB);
		hand_step(&h);
	}
	assert_int_equal(h.d.action, CTL_ABORT);
	assert_true(i >= 7);

	/*
	 * The same stuck guest, but QEMU expects a switchover within a few
	 * downtime limits: it keeps trying until the progress timeout.
	 */
	ctl_init(&h.ctl, CTL_ADAPTIVE, &h.cfg);
	throttled_to_the_maximum(&h);
	h.s.remaining = (uint64_t)(50 * MiB);
	h.s.expected_downtime_ms = 500;
	for (h.d.action = CTL_NONE; h.d.action == CTL_NONE && h.s.t < 400;) {
		h.s.pass++;
		h.s.t += 3;
		h.s.transferred += (uint64_t)(50 * MiB);
		hand_step(&h);
	}
	assert_int_equal(h.d.action, CTL_ABORT);
	/* Stopped by the progress timeout (150 s without a new low). */
	assert_true(h.s.t > 150);
	assert_non_null(strstr(h.d.reason, "out of time"));
}

/*
 * The stuck guest of the test above under a policy that allows more
 * downtime than the 50 ms the adaptive controller starts at: a throttled
 * guest's passes understate the link, so before the abort comes the
 * policy's largest limit, with its own passes and 20 s to work.
 */
static void
test_adaptive_throttled_guest_gets_the_largest_downtime(void **state)
{
	struct hand		h = { .cfg = config(0, 1, 0) };
	double			raised_t = 0;
	int			i;

	(void)state;
	h.cfg.max_downtime_ms = 300;
	h.cfg.initial_downtime_ms = 50;
	hand_init(&h, CTL_ADAPTIVE);
	throttled_to_the_maximum(&h);
	h.s.dirty_rate = 100 * MiB;
	h.s.remaining = (uint64_t)(30 * MiB);
	for (i = 0; i < 60 && h.d.action != CTL_ABORT; i++) {
		h.s.pass++;
		h.s.t += 1;
		h.s.transferred += (uint64_t)(30 * MiB);
		hand_step(&h);
		if (h.d.action == CTL_SET_DOWNTIME) {
			assert_true(raised_t == 0);
			assert_int_equal(h.d.value, 300);
			assert_non_null(strstr(h.d.reason, "throttled to 99%"));
			raised_t = h.s.t;
		}
	}
	assert_true(raised_t > 0);
	assert_int_equal(h.d.action, CTL_ABORT);
	assert_int_equal(h.ctl.downtime_ms, 300);
	assert_true(h.s.t - raised_t >= 20);
}

/*
 * A guest rewriting all its memory every pass: its real rate is unknown
 * (the dirty set cannot grow), so it gets the deep throttle.
 */
static void
test_adaptive_throttle_level(void **state)
{
	struct hand		h = { .cfg = config(0, 1, 0) };

	(void)state;
	hand_init(&h, CTL_ADAPTIVE);
	h.s.total = (uint64_t)GiB;
	h.s.bandwidth = 100 * MiB;
	h.s.dirty_rate = 100 * MiB;	/* all QEMU can see: one GiB a pass */
	first_judgement(&h, 10.5, 0.9 * GiB);
	assert_int_equal(h.d.action, CTL_AUTO_CONVERGE);
	assert_int_equal(h.d.value, 90);
	assert_non_null(strstr(h.d.reason, "rewrote most of its memory"));
}

static void
test_adaptive_raises_downtime_when_enough(void **state)
{
	struct hand		h = { .cfg = config(0, 0, 0) };

	(void)state;
	h.cfg.max_downtime_ms = 2000;
	hand_init(&h, CTL_ADAPTIVE);
	h.s = (struct ctl_sample){ .pass = 1, .bandwidth = 100 * MiB,
	    .dirty_rate = 150 * MiB, .remaining = (uint64_t)(500 * MiB) };
	hand_step(&h);
	h.s.pass = 2;
	h.s.t = 5;
	h.s.remaining = (uint64_t)(50 * MiB);
	assert_int_equal(hand_step(&h), CTL_SET_DOWNTIME);
	/* 50 MiB at 100 MiB/s is 500 ms, plus a quarter of margin. */
	assert_int_equal(h.d.value, 625);
	/* Enough a pass later: nothing more to do. */
	h.s.pass = 3;
	h.s.t = 6;
	assert_int_equal(hand_step(&h), CTL_NONE);
	/* The guest got busier: the next step doubles the limit. */
	h.s.pass = 4;
	h.s.t = 7;
	h.s.remaining = (uint64_t)(80 * MiB);
	assert_int_equal(hand_step(&h), CTL_SET_DOWNTIME);
	assert_int_equal(h.d.value, 1250);
}

/*
 * A guest of ram bytes rewriting a hot set of hot bytes round-robin at
 * dirty bytes/s, migrated at bw bytes/s, sampled every 0.5 s as QEMU
 * reports it: pass 1 sends all of the RAM; each later pass sends the
 * distinct pages dirtied during the one before (at most the hot set), and
 * QEMU's dirty rate is that set over the pass's length; a set that fits
 * in the downtime limit is sent at once (completed).  Set-downtime
 * decisions are applied; the run stops at any other decision, at the
 * completion or at limit seconds.  *sent: bytes sent until then; *first_action: the first action
 * other than none.
 */
struct sim {
	double		ram, hot, dirty, bw, measured;
	double		t, sent;
	uint64_t	pass;
	enum ctl_action	first_action;
	int		set_downtimes;
	int		completed;
};

static struct ctl_decision
sim_run(struct ctl *ctl, struct sim *g, double limit)
{
	struct ctl_sample	s;
	struct ctl_decision	d;
	double			left = g->ram, pass_t = 0, rate = 0, set;

	memset(&d, 0, sizeof d);
	g->t = g->sent = 0;
	g->pass = 1;
	g->first_action = CTL_NONE;
	g->set_downtimes = g->completed = 0;
	while (g->t < limit) {
		g->t += 0.5;
		g->sent += left < g->bw * 0.5 ? left : g->bw * 0.5;
		left -= g->bw * 0.5;
		if (left <= 0) {
			/* A sync: the distinct pages dirtied since the last. */
			set = g->dirty * (g->t - pass_t);
			if (set > g->hot)
				set = g->hot;
			rate = set / (g->t - pass_t);
			if (set <= g->bw * (double)ctl->downtime_ms / 1000) {
				g->sent += set;
				g->completed = 1;
				break;
			}
			left = set;
			pass_t = g->t;
			g->pass++;
		}
		memset(&s, 0, sizeof s);
		s.t = g->t;
		s.pass = g->pass;
		s.total = (uint64_t)g->ram;
		s.remaining = (uint64_t)(left > 0 ? left : 0);
		s.transferred = (uint64_t)g->sent;
		s.dirty_rate = rate;
		s.bandwidth = g->bw;
		ctl_step(ctl, &s, &d);
		if (d.action != CTL_NONE && g->first_action == CTL_NONE)
			g->first_action = d.action;
		if (d.action == CTL_SET_DOWNTIME)
			g->set_downtimes++;
		else if (d.action != CTL_NONE)
			break;
	}
	return d;
}

/*
 * The simulated guests (sim_run) under the adaptive controller, each row
 * with its policy (post-copy, auto-converge, disruption allowed), the
 * downtime limits (maxDowntimeMs and the start) and a dirty rate measured
 * before migrating (0: none); then, where given: the last and the first
 * action, the pass it ended in, its time (at most t_max s), the bytes sent
 * (at most sent_max x the RAM, with the hot set post-copy sends when
 * plus_hot), whether it completed, the downtime limit by then, words of
 * the reason, and whether the measured rate was judged early.
 */
static const struct sim_case {
	const char	*what;
	int		 postcopy, autoconv, disruption;
	uint64_t	 max_downtime_ms, initial_downtime_ms;
	double		 measured;
	double		 ram, hot, dirty, bw, limit;
	int		 action, first;		/* -1: not checked */
	uint64_t	 pass;			/* 0: not checked */
	double		 t_max, sent_max;	/* 0: not checked */
	int		 plus_hot;
	int		 completed;		/* -1: not checked */
	uint64_t	 dt_min, dt_max;	/* 0: not checked */
	const char	*reason[2];
	int		 early_judged;
} sim_cases[] = {
	/*
	 * Issue 25's case: 512 MiB rewritten at 200 MB/s over 16 MiB/s,
	 * post-copy allowed, maxDowntimeMs 900 and the 50 ms start: no
	 * downtime can converge, so post-copy comes right after the bulk
	 * pass, with no set-downtime first: one pass of RAM before the
	 * switch (the switch sends at most the RAM again: 2.1x in all);
	 * within 1.25x of one pass (32 s), the RAM sent once.
	 */
	{ .what = "hopeless: post-copy", .postcopy = 1, .autoconv = 1,
	  .disruption = 1, .max_downtime_ms = 900, .initial_downtime_ms = 50,
	  .ram = 512 * MiB, .hot = 512 * MiB, .dirty = 200e6, .bw = 16 * MiB,
	  .limit = 300, .action = CTL_POST_COPY, .first = CTL_POST_COPY,
	  .pass = 2, .t_max = 1.25 * 32, .sent_max = 1.02, .completed = -1,
	  .dt_min = 50, .dt_max = 50,
	  .reason = { "switching to post-copy now" } },
	/* Auto-converge only: the throttle at once, no set-downtime first. */
	{ .what = "hopeless: auto-converge", .autoconv = 1,
	  .max_downtime_ms = 900, .initial_downtime_ms = 50,
	  .ram = 512 * MiB, .hot = 512 * MiB, .dirty = 200e6, .bw = 16 * MiB,
	  .limit = 300, .action = CTL_AUTO_CONVERGE,
	  .first = CTL_AUTO_CONVERGE, .pass = 2, .completed = -1 },
	/* Disruption only: the pause at once. */
	{ .what = "hopeless: pause", .disruption = 1,
	  .max_downtime_ms = 900, .initial_downtime_ms = 50,
	  .ram = 512 * MiB, .hot = 512 * MiB, .dirty = 200e6, .bw = 16 * MiB,
	  .limit = 300, .action = CTL_PAUSE, .first = CTL_PAUSE, .pass = 2,
	  .completed = -1 },
	/*
	 * A hot set of 10% of the RAM: the bulk pass's dirty rate looks like
	 * a tenth of the bandwidth, so pre-copy goes on for one pass of the
	 * hot set, which shows it rewritten as fast as it is sent: post-copy
	 * then.  At most 1.2x the RAM before the switch, 1.3x with what
	 * post-copy sends.
	 */
	{ .what = "hot set: post-copy", .postcopy = 1, .disruption = 1,
	  .max_downtime_ms = 900, .initial_downtime_ms = 50,
	  .ram = 512 * MiB, .hot = 51.2 * MiB, .dirty = 200e6, .bw = 16 * MiB,
	  .limit = 300, .action = CTL_POST_COPY, .first = CTL_POST_COPY,
	  .pass = 3, .sent_max = 1.3, .plus_hot = 1, .completed = -1 },
	/*
	 * Its rate measured at the start (calc-dirty-rate over a second sees
	 * the hot set, 51 MiB/s): the bulk pass would leave the whole RAM
	 * dirty by that figure, so post-copy comes at once.
	 */
	{ .what = "hot set measured: post-copy at once", .postcopy = 1,
	  .disruption = 1, .max_downtime_ms = 900, .initial_downtime_ms = 50,
	  .measured = 51.2 * MiB, .ram = 512 * MiB, .hot = 51.2 * MiB,
	  .dirty = 200e6, .bw = 16 * MiB, .limit = 300,
	  .action = CTL_POST_COPY, .first = -1, .pass = 1, .t_max = 1.5,
	  .sent_max = 1.15, .plus_hot = 1, .completed = -1 },
	/*
	 * A dirty rate measured before migrate: a guest that will have
	 * rewritten its memory before the bulk pass ends goes to post-copy
	 * in the first second (the whole migration about one pass long).
	 */
	{ .what = "measured: early post-copy", .postcopy = 1, .autoconv = 1,
	  .disruption = 1, .max_downtime_ms = 900, .initial_downtime_ms = 50,
	  .measured = 200e6, .ram = 512 * MiB, .hot = 512 * MiB,
	  .dirty = 200e6, .bw = 16 * MiB, .limit = 300,
	  .action = CTL_POST_COPY, .first = -1, .pass = 1, .t_max = 1.5,
	  .completed = -1,
	  .reason = { "measured before migrating", "100% of its memory" } },
	/* One that converges (5 MB/s over 100 MiB/s) is left to pre-copy. */
	{ .what = "measured: converging", .postcopy = 1, .autoconv = 1,
	  .disruption = 1, .max_downtime_ms = 900, .initial_downtime_ms = 50,
	  .measured = 5e6, .ram = 256 * MiB, .hot = 256 * MiB, .dirty = 5e6,
	  .bw = 100 * MiB, .limit = 60, .action = -1, .first = CTL_NONE,
	  .completed = 1 },
	/*
	 * Faster than sent, but what is left of the bulk pass a second in
	 * is too short for the guest to dirty half its memory: judged once,
	 * left to the first pass.
	 */
	{ .what = "measured: judged once", .postcopy = 1, .autoconv = 1,
	  .disruption = 1, .max_downtime_ms = 900, .initial_downtime_ms = 50,
	  .measured = 120 * MiB, .ram = 128 * MiB, .hot = 128 * MiB,
	  .dirty = 120 * MiB, .bw = 100 * MiB, .limit = 1.0, .action = -1,
	  .first = CTL_NONE, .completed = -1, .early_judged = 1 },
	/*
	 * Post-copy not allowed: nothing early (a pause would stop the guest
	 * for the rest of the bulk pass).
	 */
	{ .what = "measured: no post-copy", .autoconv = 1, .disruption = 1,
	  .initial_downtime_ms = 300, .measured = 200e6, .ram = 512 * MiB,
	  .hot = 512 * MiB, .dirty = 200e6, .bw = 16 * MiB, .limit = 20,
	  .action = -1, .first = CTL_NONE, .pass = 1, .completed = -1 },
	/*
	 * Where pre-copy converges the 50 ms start stays, and where a larger
	 * limit the policy allows is enough, the limit is raised instead of
	 * post-copy: a 30 MiB hot set rewritten faster than sent, 300 ms.
	 */
	{ .what = "converging: the 50 ms start stays", .postcopy = 1,
	  .autoconv = 1, .disruption = 1, .max_downtime_ms = 900,
	  .initial_downtime_ms = 50, .ram = 256 * MiB, .hot = 256 * MiB,
	  .dirty = 5 * MiB, .bw = 100 * MiB, .limit = 60, .action = CTL_NONE,
	  .first = CTL_NONE, .completed = 1, .dt_min = 50, .dt_max = 50 },
	{ .what = "converging: the limit raised", .postcopy = 1,
	  .autoconv = 1, .disruption = 1, .max_downtime_ms = 900,
	  .initial_downtime_ms = 50, .ram = 256 * MiB, .hot = 30 * MiB,
	  .dirty = 400 * MiB, .bw = 100 * MiB, .limit = 60,
	  .action = CTL_SET_DOWNTIME, .first = CTL_SET_DOWNTIME,
	  .completed = 1, .dt_min = 300, .dt_max = 900 },
};

static void
test_sim(void **state)
{
	const struct sim_case	*c;
	struct ctl		 ctl;
	struct ctl_config	 cfg;
	struct ctl_decision	 d;
	struct sim		 g;
	double			 sent;
	size_t			 i, k;

	(void)state;
	for (i = 0; i < sizeof sim_cases / sizeof sim_cases[0]; i++) {
		c = &sim_cases[i];
		cfg = config(c->postcopy, c->autoconv, c->disruption);
		cfg.max_downtime_ms = c->max_downtime_ms;
		cfg.initial_downtime_ms = c->initial_downtime_ms;
		cfg.measured_dirty_rate = c->measured;
		memset(&g, 0, sizeof g);
		g.ram = c->ram;
		g.hot = c->hot;
		g.dirty = c->dirty;
		g.bw = c->bw;
		ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
		d = sim_run(&ctl, &g, c->limit);
		sent = g.sent + (c->plus_hot ? g.hot : 0);
		if ((c->action != -1 && (int)d.action != c->action) ||
		    (c->first != -1 && (int)g.first_action != c->first) ||
		    (c->pass != 0 && g.pass != c->pass) ||
		    (c->t_max != 0 && g.t > c->t_max) ||
		    (c->sent_max != 0 && sent > c->sent_max * g.ram) ||
		    (c->completed != -1 && g.completed != c->completed) ||
		    (c->dt_min != 0 && (ctl.downtime_ms < c->dt_min ||
		    ctl.downtime_ms > c->dt_max)) ||
		    (c->early_judged && !ctl.early_judged))
			fail_msg("%s: action %d (first %d) in pass %llu at "
			    "%.1f s, %.2f x the RAM sent, completed %d, "
			    "downtime %llu ms: %s", c->what, (int)d.action,
			    (int)g.first_action, (unsigned long long)g.pass,
			    g.t, sent / g.ram, g.completed,
			    (unsigned long long)ctl.downtime_ms, d.reason);
		for (k = 0; k < 2 && c->reason[k] != NULL; k++)
			if (strstr(d.reason, c->reason[k]) == NULL)
				fail_msg("%s: reason without \"%s\": %s",
				    c->what, c->reason[k], d.reason);
	}
}

static void
test_ctl_wants_dirty_rate(void **state)
{
	struct ctl_config cfg = config(1, 0, 0);

	(void)state;
	cfg.guest_bytes = (uint64_t)(512 * MiB);
	/* 32 s a pass: worth a second. */
	assert_true(ctl_wants_dirty_rate(CTL_ADAPTIVE, &cfg,
	    (uint64_t)(16 * MiB)));
	/* 5 s a pass, no cap, the kubevirt controller, no post-copy: no. */
	assert_false(ctl_wants_dirty_rate(CTL_ADAPTIVE, &cfg,
	    (uint64_t)(100 * MiB)));
	assert_false(ctl_wants_dirty_rate(CTL_ADAPTIVE, &cfg, 0));
	assert_false(ctl_wants_dirty_rate(CTL_KUBEVIRT, &cfg,
	    (uint64_t)(16 * MiB)));
	cfg.allow_post_copy = 0;
	assert_false(ctl_wants_dirty_rate(CTL_ADAPTIVE, &cfg,
	    (uint64_t)(16 * MiB)));
}

/*
 * KubeVirt's spec.experimental with its defaults: the stall detector
 * (virt-config's) and the downtime tuning (virt-launcher's), each when
 * asked, as a policy enabling them hands them to the kubevirt controller
 * (test_ctl_config_experimental checks that mapping); maxDowntimeMs 900.
 */
static void
kv_experimental(struct ctl_config *cfg, int stall, int tuning)
{
	struct mig_settings	s;

	policy_defaults(&s);
	s.stall_detector.enabled = stall;
	s.downtime_tuning.enabled = tuning;
	ctl_config_experimental(cfg, CTL_KUBEVIRT, &s);
}

/*
 * KubeVirt's newest monitor: a guest whose remaining data at each pass
 * start is floor_mib (plus wobble_mib every other pass), a pass every
 * pass_s seconds sent at bw; polls every 0.5 s.  Applies set-downtime
 * decisions (counted in *downtimes, the last in *last_downtime) and stops
 * at any other decision or at limit seconds, leaving the time in *t.
 */
static struct ctl_decision
kv_run(struct ctl *ctl, double floor_mib, double wobble_mib, double pass_s,
    double bw, double limit, double *t, int *downtimes,
    uint64_t *last_downtime)
{
	struct ctl_sample	s;
	struct ctl_decision	d;
	double			pass_t = 0;

	memset(&s, 0, sizeof s);
	memset(&d, 0, sizeof d);
	*downtimes = 0;
	*last_downtime = 0;
	s.pass = 1;
	s.total = (uint64_t)GiB;
	for (s.t = 0.5; s.t <= limit; s.t += 0.5) {
		if (s.t - pass_t >= pass_s) {
			pass_t = s.t;
			s.pass++;
		}
		s.remaining = (uint64_t)((floor_mib + (s.pass % 2 ? 0 :
		    wobble_mib)) * MiB - (s.t - pass_t) * bw / 2);
		s.bandwidth = bw;
		s.transferred = (uint64_t)(s.t * bw);
		ctl_step(ctl, &s, &d);
		if (d.action == CTL_SET_DOWNTIME) {
			(*downtimes)++;
			*last_downtime = d.value;
		} else if (d.action != CTL_NONE)
			break;
	}
	*t = s.t;
	return d;
}

static struct ctl_config
kv_newest(int postcopy, int disruption)
{
	struct ctl_config cfg = config(postcopy, 0, disruption);

	cfg.initial_downtime_ms = 300;
	kv_experimental(&cfg, 1, 0);
	return cfg;
}

/*
 * Downtime tuning under the classic monitor: 150 ms at the first poll,
 * then from pass 3 on one step of (900 - 150) / 7 = 107 ms (KubeVirt's
 * integer division) per 10 s, up to 900: 899, then 900.
 */
static void
test_kubevirt_downtime_tuning(void **state)
{
	struct hand		h = { .cfg = config(0, 0, 0) };
	uint64_t		seen[16];
	double			at[16];
	int			n = 0;

	(void)state;
	h.cfg.progress_timeout = 0;
	kv_experimental(&h.cfg, 0, 1);
	hand_init(&h, CTL_KUBEVIRT);
	for (h.s.t = 0.5; h.s.t < 120 && n < 16; h.s.t += 0.5) {
		h.s.pass = 1 + (uint64_t)(h.s.t / 4);
		h.s.remaining = (uint64_t)(100 * MiB);
		hand_step(&h);
		if (h.d.action == CTL_SET_DOWNTIME) {
			seen[n] = h.d.value;
			at[n++] = h.s.t;
		} else
			assert_int_equal(h.d.action, CTL_NONE);
	}
	assert_int_equal(n, 9);
	assert_int_equal(seen[0], 150);
	assert_true(at[0] == 0.5);
	assert_int_equal(seen[1], 257);
	/* Pass 3 starts at 8 s, the cooldown ends at 10.5 h.s. */
	assert_true(at[1] == 10.5);
	assert_int_equal(seen[2], 364);
	assert_true(at[2] == 20.5);
	assert_int_equal(seen[6], 792);
	assert_int_equal(seen[7], 899);
	assert_int_equal(seen[8], 900);

	/* The classic rules still apply on top. */
	h.cfg = config(1, 0, 1);
	kv_experimental(&h.cfg, 0, 1);
	ctl_init(&h.ctl, CTL_KUBEVIRT, &h.cfg);
	for (h.s.t = 0.5, h.d.action = CTL_NONE; h.s.t < 400 &&
	    (h.d.action == CTL_NONE || h.d.action == CTL_SET_DOWNTIME);
	    h.s.t += 0.5) {
		h.s.pass = 1 + (uint64_t)(h.s.t / 4);
		h.s.remaining = (uint64_t)(100 * MiB) - (uint64_t)(h.s.t * 10);
		hand_step(&h);
	}
	assert_int_equal(h.d.action, CTL_POST_COPY);
	assert_true(h.s.t > 300 && h.s.t < 302);
}

/*
 * KubeVirt's newest monitor (kv_newest, kv_run), each row with its policy
 * (post-copy, workload disruption allowed; maxDowntimeMs over 300, or 0;
 * completionTimeoutPerGiB, 0: 150; searchLocalMinima off) and its guest
 * (the remaining data at each pass start, the wobble every other pass, the
 * pass length, the bandwidth).  Then the action, words of the reason, when
 * (t_min <= t < t_max, 0.5 s steps), and where given the set-downtime
 * decisions applied and the last one's value.
 *
 * The stall detector: a guest stuck at about 100 MiB left is stalled once
 * the window (40 s) has a minimum outside it, and acts at the next pass
 * that comes near the best value: post-copy with disruption and post-copy
 * allowed, a hard stop-and-copy with disruption only, else a soft one when
 * the estimated downtime is within 1.5x of maxDowntimeMs, or an abort.
 * The classic progressTimeout no longer applies.
 *
 * Past the acceptable completion time (its switchover deadline):
 * post-copy when the rest can be sent before twice that time
 * (completionTimeoutFactor), even without disruption; with disruption
 * only, the hard stop-and-copy and the acceptable time doubled; otherwise
 * abort.
 */
static const struct kv_case {
	const char	*what;
	int		 postcopy, disruption;
	uint64_t	 initial_downtime_ms;	/* 0: 300 */
	uint64_t	 completion_per_gib;	/* 0: 150 */
	int		 no_local_minima;
	int		 tuning;	/* downtimeTuning given too */
	double		 floor_mib, wobble_mib, pass_s, bw_mib;
	enum ctl_action	 action;
	const char	*reason;
	double		 t_min, t_max;
	int		 downtimes;		/* -1: not checked */
	uint64_t	 last_downtime;		/* 0: not checked */
} kv_cases[] = {
	{ .what = "stalled: post-copy", .postcopy = 1, .disruption = 1,
	  .floor_mib = 100, .wobble_mib = 3, .pass_s = 2, .bw_mib = 50,
	  .action = CTL_POST_COPY, .reason = "local minimum",
	  .t_min = 40.5, .t_max = 46, .downtimes = 0 },
	/* maxDowntimeMs over 300: the monitor starts at QEMU's 300 ms. */
	{ .what = "stalled, limit 900: starts at 300 ms", .postcopy = 1,
	  .disruption = 1, .initial_downtime_ms = 900, .floor_mib = 100,
	  .wobble_mib = 3, .pass_s = 2, .bw_mib = 50,
	  .action = CTL_POST_COPY, .t_max = 600, .downtimes = 1,
	  .last_downtime = 300 },
	/*
	 * downtimeTuning beside the stall detector (the KubeVirt CR's one and
	 * a policy's other; KubeVirt refuses both in one policy): KubeVirt's
	 * monitor runs the stall detector alone, and so does this one: the
	 * same decisions as above, never the tuning's 150 ms first step.
	 */
	{ .what = "stalled, with downtimeTuning too: tuning unused",
	  .postcopy = 1, .disruption = 1, .tuning = 1,
	  .initial_downtime_ms = 900, .floor_mib = 100, .wobble_mib = 3,
	  .pass_s = 2, .bw_mib = 50, .action = CTL_POST_COPY, .t_max = 600,
	  .downtimes = 1, .last_downtime = 300 },
	/*
	 * Disruption without post-copy: the hard stop-and-copy, and a
	 * switchover deadline 60 s later.
	 */
	{ .what = "stalled: hard stop-and-copy", .disruption = 1,
	  .floor_mib = 100, .wobble_mib = 3, .pass_s = 2, .bw_mib = 50,
	  .action = CTL_ABORT, .reason = "switchover deadline",
	  .t_min = 100.5, .t_max = 108, .downtimes = 1,
	  .last_downtime = CTL_QEMU_MAX_DOWNTIME_MS },
	/* Neither: 100 MiB at 50 MiB/s is 2 s of downtime, over 1.5 x 900. */
	{ .what = "stalled: abort", .floor_mib = 100, .wobble_mib = 3,
	  .pass_s = 2, .bw_mib = 50, .action = CTL_ABORT,
	  .reason = "exceeds the maximum", .t_min = 40.5, .t_max = 46,
	  .downtimes = -1 },
	/* ... but 30 MiB (600 ms) gets the soft stop-and-copy at 900 ms. */
	{ .what = "stalled: soft stop-and-copy", .floor_mib = 30,
	  .wobble_mib = 1, .pass_s = 2, .bw_mib = 50, .action = CTL_ABORT,
	  .reason = "switchover deadline", .t_max = 600, .downtimes = 1,
	  .last_downtime = 900 },
	/* Without searchLocalMinima it acts as soon as it is stalled. */
	{ .what = "stalled, no local minima", .postcopy = 1, .disruption = 1,
	  .no_local_minima = 1, .floor_mib = 100, .wobble_mib = 3,
	  .pass_s = 2, .bw_mib = 50, .action = CTL_POST_COPY, .t_min = 40.5,
	  .t_max = 44, .downtimes = -1 },
	/* 1 GiB at 8 s per GB: 16 s; the guest converges slowly. */
	{ .what = "deadline: post-copy", .postcopy = 1,
	  .completion_per_gib = 8, .floor_mib = 100, .pass_s = 100,
	  .bw_mib = 10, .action = CTL_POST_COPY,
	  .reason = "acceptable completion time 16 s", .t_min = 17,
	  .t_max = 18, .downtimes = -1 },
	/* Forced at 17 s: the switchover deadline is 60 s later. */
	{ .what = "deadline: hard stop-and-copy", .disruption = 1,
	  .completion_per_gib = 8, .floor_mib = 100, .pass_s = 100,
	  .bw_mib = 10, .action = CTL_ABORT, .t_min = 78, .t_max = 79,
	  .downtimes = 1, .last_downtime = CTL_QEMU_MAX_DOWNTIME_MS },
	/* Too much left for the doubled deadline: abort at once. */
	{ .what = "deadline: too much left", .postcopy = 1, .disruption = 1,
	  .completion_per_gib = 8, .floor_mib = 900, .pass_s = 1000,
	  .bw_mib = 10, .action = CTL_ABORT, .t_min = 17, .t_max = 18,
	  .downtimes = -1 },
};

static void
test_kubevirt_stall(void **state)
{
	const struct kv_case	*c;
	struct ctl		 ctl;
	struct ctl_config	 cfg;
	struct ctl_decision	 d;
	uint64_t		 last;
	double			 t;
	size_t			 i;
	int			 n;

	(void)state;
	for (i = 0; i < sizeof kv_cases / sizeof kv_cases[0]; i++) {
		c = &kv_cases[i];
		cfg = kv_newest(c->postcopy, c->disruption);
		if (c->tuning)
			kv_experimental(&cfg, 1, 1);
		if (c->initial_downtime_ms != 0)
			cfg.initial_downtime_ms = c->initial_downtime_ms;
		if (c->completion_per_gib != 0)
			cfg.completion_timeout_per_gib = c->completion_per_gib;
		if (c->no_local_minima)
			cfg.stall.search_local_minima = 0;
		ctl_init(&ctl, CTL_KUBEVIRT, &cfg);
		d = kv_run(&ctl, c->floor_mib, c->wobble_mib, c->pass_s,
		    c->bw_mib * MiB, 600, &t, &n, &last);
		if (d.action != c->action || t < c->t_min || t >= c->t_max ||
		    (c->reason != NULL &&
		    strstr(d.reason, c->reason) == NULL) ||
		    (c->downtimes != -1 && n != c->downtimes) ||
		    (c->last_downtime != 0 && last != c->last_downtime))
			fail_msg("%s: action %d at %.1f s after %d "
			    "set-downtime (last %llu ms): %s", c->what,
			    (int)d.action, t, n, (unsigned long long)last,
			    d.reason);
	}
}

/*
 * The settings' spec.experimental into the kubevirt controller's bounds:
 * KubeVirt's defaults for what is not given, maxDowntimeMs 900 when unset;
 * nothing for the classic monitor or the adaptive controller.
 */
static void
test_ctl_config_experimental(void **state)
{
	struct mig_settings	s;
	struct ctl_config	cfg;

	(void)state;
	policy_defaults(&s);
	memset(&cfg, 0, sizeof cfg);
	cfg.max_downtime_ms = 300;
	ctl_config_experimental(&cfg, CTL_KUBEVIRT, &s);
	assert_false(cfg.stall.enabled);
	assert_false(cfg.tuning.enabled);
	assert_int_equal(cfg.max_downtime_ms, 300);

	s.stall_detector.enabled = 1;
	ctl_config_experimental(&cfg, CTL_ADAPTIVE, &s);
	assert_false(cfg.stall.enabled);
	assert_int_equal(cfg.max_downtime_ms, 300);
	ctl_config_experimental(&cfg, CTL_KUBEVIRT, &s);
	assert_true(cfg.stall.enabled);
	assert_int_equal(cfg.stall.margin_pct, 4);
	assert_true(cfg.stall.ewma_alpha == 0.4);
	assert_int_equal(cfg.stall.window_s, 40);
	assert_int_equal(cfg.stall.switchover_timeout_s, 60);
	assert_true(cfg.stall.precopy_factor == 1.5);
	assert_true(cfg.stall.patience_decay == 0.5);
	assert_true(cfg.stall.search_local_minima);
	assert_true(cfg.stall.completion_factor == 2);
	assert_int_equal(cfg.max_downtime_ms, KUBEVIRT_DEFAULT_MAX_DOWNTIME_MS);

	policy_defaults(&s);
	s.downtime_tuning.enabled = 1;
	s.downtime_tuning.steps = 3;
	s.max_downtime_ms = 600;
	memset(&cfg, 0, sizeof cfg);
	ctl_config_experimental(&cfg, CTL_KUBEVIRT, &s);
	assert_false(cfg.stall.enabled);
	assert_true(cfg.tuning.enabled);
	assert_int_equal(cfg.tuning.initial_ms, 150);
	assert_int_equal(cfg.tuning.steps, 3);
	assert_int_equal(cfg.tuning.start_after_iteration, 3);
	assert_int_equal(cfg.tuning.cooldown_s, 10);
	assert_int_equal(cfg.max_downtime_ms, 600);
}

/*
 * QEMU 11.1 with post-copy allowed: its dirty-sync count is already 2 at
 * the first sample, before any byte was sent.  No bandwidth is known yet:
 * no decision; the bulk pass then goes on as on 7.2.
 */
static void
test_adaptive_no_judgement_without_bandwidth(void **state)
{
	struct hand		h = { .cfg = config(1, 0, 0) };

	(void)state;
	hand_init(&h, CTL_ADAPTIVE);
	h.s = (struct ctl_sample){ .t = 0.1, .pass = 2,
	    .total = (uint64_t)GiB, .remaining = (uint64_t)GiB,
	    .dirty_rate = 50 * MiB };
	assert_int_equal(hand_step(&h), CTL_NONE);
	h.s.t = 0.6;
	h.s.pass = 7;
	assert_int_equal(hand_step(&h), CTL_NONE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_acceptable_rounds_up_decimal_gb),
		cmocka_unit_test(test_traces),
		cmocka_unit_test(test_sim),
		cmocka_unit_test(test_kubevirt_aborts_stuck_after_progress_timeout),
		cmocka_unit_test(test_kubevirt_postcopy_after_acceptable_time),
		cmocka_unit_test(test_kubevirt_pause_doubles_acceptable),
		cmocka_unit_test(test_adaptive_throttled_guest_gets_time),
		cmocka_unit_test(test_adaptive_dirty_limit_adjusted),
		cmocka_unit_test(test_adaptive_dirty_limit_saturated),
		cmocka_unit_test(
		    test_adaptive_throttled_guest_gets_the_largest_downtime),
		cmocka_unit_test(test_adaptive_throttle_level),
		cmocka_unit_test(test_adaptive_raises_downtime_when_enough),
		cmocka_unit_test(test_adaptive_no_judgement_without_bandwidth),
		cmocka_unit_test(test_ctl_wants_dirty_rate),
		cmocka_unit_test(test_kubevirt_downtime_tuning),
		cmocka_unit_test(test_kubevirt_stall),
		cmocka_unit_test(test_ctl_config_experimental),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
