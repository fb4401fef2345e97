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
 * KubeVirt's progress is the remaining data dropping below the previous
 * poll's (its progressWatermark is the last sample, not the minimum): a
 * busy guest whose remaining data falls within every pass is progressing
 * and ends at the acceptable completion time; a stream that moves nothing
 * is aborted after progressTimeout.
 */
static void
test_kubevirt_aborts_stuck_after_progress_timeout(void **state)
{
	struct ctl		ctl;
	struct ctl_config	cfg = config(0, 0, 0);
	struct ctl_decision	d;
	struct ctl_sample	s;
	double			when;
	int			i;

	(void)state;
	ctl_init(&ctl, CTL_KUBEVIRT, &cfg);
	d = run_trace(&ctl, 100 * MiB, 200 * MiB, 300 * MiB, 1000, &when);
	assert_int_equal(d.action, CTL_ABORT);
	assert_non_null(strstr(d.reason, "acceptable completion time"));
	assert_true(when > 300 && when < 301);

	ctl_init(&ctl, CTL_KUBEVIRT, &cfg);
	memset(&s, 0, sizeof s);
	s.pass = 1;
	s.remaining = (uint64_t)(500 * MiB);
	for (i = 1, d.action = CTL_NONE; d.action == CTL_NONE && i < 1000;
	    i++) {
		s.t = i * 0.5;
		/* 10 s of sending, then nothing moves. */
		if (s.t <= 10)
			s.remaining -= (uint64_t)(10 * MiB);
		ctl_step(&ctl, &s, &d);
	}
	assert_int_equal(d.action, CTL_ABORT);
	assert_non_null(strstr(d.reason, "no progress"));
	assert_true(s.t > 160 && s.t <= 160.5);
}

static void
test_kubevirt_postcopy_after_acceptable_time(void **state)
{
	struct ctl		ctl;
	struct ctl_config	cfg = config(1, 0, 1);
	struct ctl_decision	d;
	struct ctl_sample	s;
	int			i;

	(void)state;
	cfg.progress_timeout = 0;	/* isolate the completion rule */
	ctl_init(&ctl, CTL_KUBEVIRT, &cfg);
	memset(&s, 0, sizeof s);
	for (i = 1; i <= 700; i++) {
		s.t = i * 0.5;
		s.remaining = (uint64_t)(100 * MiB) - (uint64_t)i;
		ctl_step(&ctl, &s, &d);
		if (d.action != CTL_NONE)
			break;
	}
	assert_int_equal(d.action, CTL_POST_COPY);
	assert_true(s.t > 300 && s.t < 301);
	/* Once in post-copy it never aborts. */
	s.t = 10000;
	s.postcopy = 1;
	ctl_step(&ctl, &s, &d);
	assert_int_equal(d.action, CTL_NONE);
}

static void
test_kubevirt_pause_doubles_acceptable(void **state)
{
	struct ctl		ctl;
	struct ctl_config	cfg = config(0, 0, 1);
	struct ctl_decision	d;
	struct ctl_sample	s;

	(void)state;
	cfg.progress_timeout = 0;
	ctl_init(&ctl, CTL_KUBEVIRT, &cfg);
	memset(&s, 0, sizeof s);
	s.remaining = 1000;
	s.t = 301;
	ctl_step(&ctl, &s, &d);
	assert_int_equal(d.action, CTL_PAUSE);
	s.t = 500;
	s.remaining = 10;
	ctl_step(&ctl, &s, &d);
	assert_int_equal(d.action, CTL_NONE);
	s.t = 601;
	ctl_step(&ctl, &s, &d);
	assert_int_equal(d.action, CTL_ABORT);
}

static void
test_adaptive_leaves_converging_guest_alone(void **state)
{
	struct ctl		ctl;
	struct ctl_config	cfg = config(1, 1, 1);
	struct ctl_decision	d;
	double			when;

	(void)state;
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	d = run_trace(&ctl, 100 * MiB, 5 * MiB, 300 * MiB, 60, &when);
	assert_int_equal(d.action, CTL_NONE);
}

static void
test_adaptive_lets_slow_precopy_finish(void **state)
{
	struct ctl		ctl;
	struct ctl_config	cfg = config(0, 0, 0);
	struct ctl_decision	d;
	double			when;

	(void)state;
	/* 85% of the bandwidth: slow, but done long before 300 s. */
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	d = run_trace(&ctl, 100 * MiB, 85 * MiB, 300 * MiB, 120, &when);
	assert_int_equal(d.action, CTL_NONE);
}

/*
 * Feeds the controller a bulk pass of one GiB at s->bandwidth that ends at
 * t seconds leaving left bytes dirty: the first sample of pass 2, where the
 * adaptive controller first judges.
 */
static void
first_judgement(struct ctl *ctl, struct ctl_sample *s, double t, double left,
    struct ctl_decision *d)
{
	s->pass = 1;
	s->t = 0;
	s->transferred = 0;
	s->remaining = (uint64_t)GiB;
	ctl_step(ctl, s, d);
	s->pass = 2;
	s->t = t;
	s->transferred = (uint64_t)(t * s->bandwidth);
	s->remaining = (uint64_t)left;
	ctl_step(ctl, s, d);
}

static void
test_adaptive_throttled_guest_gets_time(void **state)
{
	struct ctl		ctl;
	struct ctl_config	cfg = config(0, 1, 0);
	struct ctl_decision	d;
	struct ctl_sample	s;
	int			i;

	(void)state;
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	memset(&s, 0, sizeof s);
	s.bandwidth = 100 * MiB;
	s.dirty_rate = 400 * MiB;
	first_judgement(&ctl, &s, 10, 300 * MiB, &d);
	assert_int_equal(d.action, CTL_AUTO_CONVERGE);
	/* At 99% it still dirties as fast as it is sent, but creeps down. */
	s.throttle_pct = 99;
	s.dirty_rate = 100 * MiB;
	for (i = 0; i < 20; i++) {
		s.pass++;
		s.t += 3;
		s.transferred += (uint64_t)(300 * MiB);
		s.remaining -= (uint64_t)(5 * MiB);
		ctl_step(&ctl, &s, &d);
		assert_int_equal(d.action, CTL_NONE);
	}
	/* Stuck: no new low for 20 s, then it gives up. */
	for (i = 0; i < 10 && d.action == CTL_NONE; i++) {
		s.pass++;
		s.t += 3;
		s.transferred += (uint64_t)(300 * MiB);
		ctl_step(&ctl, &s, &d);
	}
	assert_int_equal(d.action, CTL_ABORT);
	assert_true(i >= 7);

	/*
	 * The same stuck guest, but QEMU expects a switchover within a few
	 * downtime limits: it keeps trying until the progress timeout.
	 */
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	s.throttle_pct = 0;
	s.dirty_rate = 400 * MiB;
	first_judgement(&ctl, &s, 10, 300 * MiB, &d);
	assert_int_equal(d.action, CTL_AUTO_CONVERGE);
	s.throttle_pct = 99;
	s.remaining = (uint64_t)(50 * MiB);
	s.expected_downtime_ms = 500;
	for (d.action = CTL_NONE; d.action == CTL_NONE && s.t < 400;) {
		s.pass++;
		s.t += 3;
		s.transferred += (uint64_t)(50 * MiB);
		ctl_step(&ctl, &s, &d);
	}
	assert_int_equal(d.action, CTL_ABORT);
	/* Stopped by the progress timeout (150 s without a new low). */
	assert_true(s.t > 150);
	assert_non_null(strstr(d.reason, "out of time"));
}

static void
test_adaptive_postcopy_within_passes(void **state)
{
	struct ctl		ctl;
	struct ctl_config	cfg = config(1, 0, 1);
	struct ctl_decision	d;
	double			when;

	(void)state;
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	d = run_trace(&ctl, 100 * MiB, 400 * MiB, 300 * MiB, 1000, &when);
	assert_int_equal(d.action, CTL_POST_COPY);
	/* Bulk pass about 10.5 s, then a judged pass: well under 30 s. */
	assert_true(when < 30);
	assert_non_null(strstr(d.reason, "post-copy"));
}

static void
test_adaptive_order_downtime_throttle_pause_abort(void **state)
{
	struct ctl		ctl;
	struct ctl_config	cfg = config(0, 1, 0);
	struct ctl_decision	d;
	double			when;

	(void)state;
	cfg.max_downtime_ms = 1000;
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	d = run_trace(&ctl, 100 * MiB, 400 * MiB, 300 * MiB, 1000, &when);
	/* set-downtime is applied inside run_trace; next comes the throttle. */
	assert_int_equal(ctl.downtime_ms, 1000);
	assert_int_equal(d.action, CTL_AUTO_CONVERGE);
	/* 400 MiB/s down to half of 100 MiB/s: 87.5%, rounded up. */
	assert_int_equal(d.value, 88);
	assert_non_null(strstr(d.reason, "to 88%"));
	assert_true(when < 40);

	/* Nothing allowed but the downtime: abort soon, not after 150 s. */
	cfg = config(0, 0, 0);
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	d = run_trace(&ctl, 100 * MiB, 400 * MiB, 300 * MiB, 1000, &when);
	assert_int_equal(d.action, CTL_ABORT);
	assert_true(when < 30);

	/* Disruption allowed without post-copy: pause. */
	cfg = config(0, 0, 1);
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	d = run_trace(&ctl, 100 * MiB, 400 * MiB, 300 * MiB, 1000, &when);
	assert_int_equal(d.action, CTL_PAUSE);
	assert_true(when < 30);
}

/* The throttle starts where the guest converges, not low. */
static void
test_adaptive_throttle_level(void **state)
{
	struct ctl		ctl;
	struct ctl_config	cfg;
	struct ctl_decision	d;
	struct ctl_sample	s;
	double			when;

	(void)state;
	/*
	 * A guest rewriting all its memory every pass: its real rate is
	 * unknown (the dirty set cannot grow), so it gets the deep throttle.
	 */
	cfg = config(0, 1, 0);
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	memset(&s, 0, sizeof s);
	s.total = (uint64_t)GiB;
	s.bandwidth = 100 * MiB;
	s.dirty_rate = 100 * MiB;	/* all QEMU can see: one GiB a pass */
	first_judgement(&ctl, &s, 10.5, 0.9 * GiB, &d);
	assert_int_equal(d.action, CTL_AUTO_CONVERGE);
	assert_int_equal(d.value, 90);
	assert_non_null(strstr(d.reason, "rewrote most of its memory"));

	/* A guest just above the bandwidth gets a light one. */
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	d = run_trace(&ctl, 100 * MiB, 110 * MiB, 300 * MiB, 1000, &when);
	assert_int_equal(d.action, CTL_AUTO_CONVERGE);
	assert_int_equal(d.value, 55);
}

static void
test_adaptive_raises_downtime_when_enough(void **state)
{
	struct ctl		ctl;
	struct ctl_config	cfg = config(0, 0, 0);
	struct ctl_decision	d;
	struct ctl_sample	s;

	(void)state;
	cfg.max_downtime_ms = 2000;
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	memset(&s, 0, sizeof s);
	s.bandwidth = 100 * MiB;
	s.dirty_rate = 150 * MiB;
	s.pass = 1;
	s.remaining = (uint64_t)(500 * MiB);
	ctl_step(&ctl, &s, &d);
	s.pass = 2;
	s.t = 5;
	s.remaining = (uint64_t)(50 * MiB);
	ctl_step(&ctl, &s, &d);
	assert_int_equal(d.action, CTL_SET_DOWNTIME);
	/* 50 MiB at 100 MiB/s is 500 ms, plus a quarter of margin. */
	assert_int_equal(d.value, 625);
	/* Enough a pass later: nothing more to do. */
	s.pass = 3;
	s.t = 6;
	ctl_step(&ctl, &s, &d);
	assert_int_equal(d.action, CTL_NONE);
	/* The guest got busier: the next step doubles the limit. */
	s.pass = 4;
	s.t = 7;
	s.remaining = (uint64_t)(80 * MiB);
	ctl_step(&ctl, &s, &d);
	assert_int_equal(d.action, CTL_SET_DOWNTIME);
	assert_int_equal(d.value, 1250);
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
 * Issue 25's case: 512 MiB rewritten at 200 MB/s over 16 MiB/s, post-copy
 * allowed, maxDowntimeMs 900 and the 50 ms start: no downtime can converge,
 * so post-copy comes right after the bulk pass, with no set-downtime
 * first: one pass of RAM before the switch (the switch sends at most the
 * RAM again: 2.1x in all).
 */
static void
test_adaptive_hopeless_goes_straight_to_postcopy(void **state)
{
	struct ctl		ctl;
	struct ctl_config	cfg = config(1, 1, 1);
	struct ctl_decision	d;
	struct sim		g = { .ram = 512 * MiB, .hot = 512 * MiB,
				      .dirty = 200e6, .bw = 16 * MiB };

	(void)state;
	cfg.max_downtime_ms = 900;
	cfg.initial_downtime_ms = 50;
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	d = sim_run(&ctl, &g, 300);
	assert_int_equal(d.action, CTL_POST_COPY);
	assert_int_equal(g.first_action, CTL_POST_COPY);
	assert_int_equal(ctl.downtime_ms, 50);
	assert_int_equal(g.pass, 2);
	assert_non_null(strstr(d.reason, "switching to post-copy now"));
	/* Within 1.25x of one pass (32 s), the RAM sent once. */
	assert_true(g.t <= 1.25 * 32);
	assert_true(g.sent <= 1.02 * g.ram);

	/* Auto-converge only: the throttle at once, no set-downtime first. */
	cfg = config(0, 1, 0);
	cfg.max_downtime_ms = 900;
	cfg.initial_downtime_ms = 50;
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	d = sim_run(&ctl, &g, 300);
	assert_int_equal(d.action, CTL_AUTO_CONVERGE);
	assert_int_equal(g.first_action, CTL_AUTO_CONVERGE);
	assert_int_equal(g.pass, 2);

	/* Disruption only: the pause at once. */
	cfg = config(0, 0, 1);
	cfg.max_downtime_ms = 900;
	cfg.initial_downtime_ms = 50;
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	d = sim_run(&ctl, &g, 300);
	assert_int_equal(d.action, CTL_PAUSE);
	assert_int_equal(g.first_action, CTL_PAUSE);
	assert_int_equal(g.pass, 2);
}

/*
 * A hot set of 10% of the RAM: the bulk pass's dirty rate looks like a
 * tenth of the bandwidth, so pre-copy goes on for one pass of the hot set,
 * which shows it rewritten as fast as it is sent: post-copy then.  At most
 * 1.2x the RAM before the switch, 1.3x with what post-copy sends.  With a
 * dirty rate measured at the start the switch comes a pass sooner.
 */
static void
test_adaptive_hot_set_postcopy_bytes(void **state)
{
	struct ctl		ctl;
	struct ctl_config	cfg = config(1, 0, 1);
	struct ctl_decision	d;
	struct sim		g = { .ram = 512 * MiB, .hot = 51.2 * MiB,
				      .dirty = 200e6, .bw = 16 * MiB };

	(void)state;
	cfg.max_downtime_ms = 900;
	cfg.initial_downtime_ms = 50;
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	d = sim_run(&ctl, &g, 300);
	assert_int_equal(d.action, CTL_POST_COPY);
	assert_int_equal(g.first_action, CTL_POST_COPY);
	assert_int_equal(g.pass, 3);
	assert_true(g.sent + g.hot <= 1.3 * g.ram);

	/*
	 * Measured at the start (calc-dirty-rate over a second sees the hot
	 * set, 51 MiB/s): the bulk pass would leave the whole RAM dirty by
	 * that figure, so post-copy comes at once.
	 */
	cfg.measured_dirty_rate = 51.2 * MiB;
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	d = sim_run(&ctl, &g, 300);
	assert_int_equal(d.action, CTL_POST_COPY);
	assert_int_equal(g.pass, 1);
	assert_true(g.t <= 1.5);
	assert_true(g.sent + g.hot <= 1.15 * g.ram);
}

/*
 * A dirty rate measured before migrate: a guest that will have rewritten
 * its memory before the bulk pass ends goes to post-copy in the first
 * second (the whole migration about one pass long); one that will not, or
 * that converges, is left to pre-copy; and only where post-copy is allowed.
 */
static void
test_adaptive_measured_rate_early_postcopy(void **state)
{
	struct ctl		ctl;
	struct ctl_config	cfg = config(1, 1, 1);
	struct ctl_decision	d;
	struct sim		g = { .ram = 512 * MiB, .hot = 512 * MiB,
				      .dirty = 200e6, .bw = 16 * MiB };

	(void)state;
	cfg.max_downtime_ms = 900;
	cfg.initial_downtime_ms = 50;
	cfg.measured_dirty_rate = 200e6;
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	d = sim_run(&ctl, &g, 300);
	assert_int_equal(d.action, CTL_POST_COPY);
	assert_int_equal(g.pass, 1);
	assert_true(g.t <= 1.5);
	assert_non_null(strstr(d.reason, "measured before migrating"));
	assert_non_null(strstr(d.reason, "100% of its memory"));

	/* A converging guest: 5 MB/s over 100 MiB/s. */
	g.hot = 256 * MiB;
	g.ram = 256 * MiB;
	g.dirty = 5e6;
	g.bw = 100 * MiB;
	cfg.measured_dirty_rate = 5e6;
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	d = sim_run(&ctl, &g, 60);
	assert_true(g.completed);
	assert_int_equal(g.first_action, CTL_NONE);

	/*
	 * Faster than sent, but what is left of the bulk pass a second in
	 * is too short for the guest to dirty half its memory: judged once,
	 * left to the first pass.
	 */
	g.ram = g.hot = 128 * MiB;
	g.dirty = 120 * MiB;
	g.bw = 100 * MiB;
	cfg.measured_dirty_rate = 120 * MiB;
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	d = sim_run(&ctl, &g, 1.0);
	assert_int_equal(g.first_action, CTL_NONE);
	assert_true(ctl.early_judged);

	/* Post-copy not allowed: nothing early (a pause would stop the guest
	 * for the rest of the bulk pass). */
	cfg = config(0, 1, 1);
	cfg.measured_dirty_rate = 200e6;
	g.ram = g.hot = 512 * MiB;
	g.dirty = 200e6;
	g.bw = 16 * MiB;
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	d = sim_run(&ctl, &g, 20);
	assert_int_equal(g.first_action, CTL_NONE);
	assert_int_equal(g.pass, 1);
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
 * Where pre-copy converges the 50 ms start stays, and where a larger limit
 * the policy allows is enough, the limit is raised instead of post-copy.
 */
static void
test_adaptive_keeps_low_downtime_when_converging(void **state)
{
	struct ctl		ctl;
	struct ctl_config	cfg = config(1, 1, 1);
	struct ctl_decision	d;
	struct sim		g = { .ram = 256 * MiB, .hot = 256 * MiB,
				      .dirty = 5 * MiB, .bw = 100 * MiB };

	(void)state;
	cfg.max_downtime_ms = 900;
	cfg.initial_downtime_ms = 50;
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	d = sim_run(&ctl, &g, 60);
	assert_true(g.completed);
	assert_int_equal(d.action, CTL_NONE);
	assert_int_equal(g.first_action, CTL_NONE);
	assert_int_equal(ctl.downtime_ms, 50);

	/* A 30 MiB hot set rewritten faster than sent: 300 ms is enough. */
	g.hot = 30 * MiB;
	g.dirty = 400 * MiB;
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	d = sim_run(&ctl, &g, 60);
	assert_int_equal(g.first_action, CTL_SET_DOWNTIME);
	assert_int_equal(d.action, CTL_SET_DOWNTIME);
	assert_true(g.completed);
	assert_true(ctl.downtime_ms >= 300 && ctl.downtime_ms <= 900);
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
	struct ctl		ctl;
	struct ctl_config	cfg = config(0, 0, 0);
	struct ctl_decision	d;
	struct ctl_sample	s;
	uint64_t		seen[16];
	double			at[16];
	int			n = 0;

	(void)state;
	cfg.progress_timeout = 0;
	kv_experimental(&cfg, 0, 1);
	ctl_init(&ctl, CTL_KUBEVIRT, &cfg);
	memset(&s, 0, sizeof s);
	for (s.t = 0.5; s.t < 120 && n < 16; s.t += 0.5) {
		s.pass = 1 + (uint64_t)(s.t / 4);
		s.remaining = (uint64_t)(100 * MiB);
		ctl_step(&ctl, &s, &d);
		if (d.action == CTL_SET_DOWNTIME) {
			seen[n] = d.value;
			at[n++] = s.t;
		} else
			assert_int_equal(d.action, CTL_NONE);
	}
	assert_int_equal(n, 9);
	assert_int_equal(seen[0], 150);
	assert_true(at[0] == 0.5);
	assert_int_equal(seen[1], 257);
	/* Pass 3 starts at 8 s, the cooldown ends at 10.5 s. */
	assert_true(at[1] == 10.5);
	assert_int_equal(seen[2], 364);
	assert_true(at[2] == 20.5);
	assert_int_equal(seen[6], 792);
	assert_int_equal(seen[7], 899);
	assert_int_equal(seen[8], 900);

	/* The classic rules still apply on top. */
	cfg = config(1, 0, 1);
	kv_experimental(&cfg, 0, 1);
	ctl_init(&ctl, CTL_KUBEVIRT, &cfg);
	for (s.t = 0.5, d.action = CTL_NONE; s.t < 400 &&
	    (d.action == CTL_NONE || d.action == CTL_SET_DOWNTIME);
	    s.t += 0.5) {
		s.pass = 1 + (uint64_t)(s.t / 4);
		s.remaining = (uint64_t)(100 * MiB) - (uint64_t)(s.t * 10);
		ctl_step(&ctl, &s, &d);
	}
	assert_int_equal(d.action, CTL_POST_COPY);
	assert_true(s.t > 300 && s.t < 302);
}

/*
 * The stall detector: a guest stuck at about 100 MiB left is stalled once
 * the window (40 s) has a minimum outside it, and acts at the next pass
 * that comes near the best value: post-copy with disruption and post-copy
 * allowed, a hard stop-and-copy with disruption only, else a soft one when
 * the estimated downtime is within 1.5x of maxDowntimeMs, or an abort.
 * The classic progressTimeout no longer applies.
 */
static void
test_kubevirt_stall_detector(void **state)
{
	struct ctl		ctl;
	struct ctl_config	cfg = kv_newest(1, 1);
	struct ctl_decision	d;
	uint64_t		last;
	double			t;
	int			n;

	(void)state;
	ctl_init(&ctl, CTL_KUBEVIRT, &cfg);
	d = kv_run(&ctl, 100, 3, 2, 50 * MiB, 600, &t, &n, &last);
	assert_int_equal(d.action, CTL_POST_COPY);
	assert_non_null(strstr(d.reason, "local minimum"));
	assert_true(t > 40 && t < 46);
	assert_int_equal(n, 0);

	/* maxDowntimeMs over 300: the monitor starts at QEMU's 300 ms. */
	cfg.initial_downtime_ms = 900;
	ctl_init(&ctl, CTL_KUBEVIRT, &cfg);
	d = kv_run(&ctl, 100, 3, 2, 50 * MiB, 600, &t, &n, &last);
	assert_int_equal(d.action, CTL_POST_COPY);
	assert_int_equal(n, 1);
	assert_int_equal(last, 300);

	/* Disruption without post-copy: the hard stop-and-copy, and a
	 * switchover deadline 60 s later. */
	cfg = kv_newest(0, 1);
	ctl_init(&ctl, CTL_KUBEVIRT, &cfg);
	d = kv_run(&ctl, 100, 3, 2, 50 * MiB, 600, &t, &n, &last);
	assert_int_equal(d.action, CTL_ABORT);
	assert_int_equal(n, 1);
	assert_int_equal(last, CTL_QEMU_MAX_DOWNTIME_MS);
	assert_non_null(strstr(d.reason, "switchover deadline"));
	assert_true(t > 100 && t < 108);

	/* Neither: 100 MiB at 50 MiB/s is 2 s of downtime, over 1.5 x 900. */
	cfg = kv_newest(0, 0);
	ctl_init(&ctl, CTL_KUBEVIRT, &cfg);
	d = kv_run(&ctl, 100, 3, 2, 50 * MiB, 600, &t, &n, &last);
	assert_int_equal(d.action, CTL_ABORT);
	assert_non_null(strstr(d.reason, "exceeds the maximum"));
	assert_true(t > 40 && t < 46);

	/* ... but 30 MiB (600 ms) gets the soft stop-and-copy at 900 ms. */
	ctl_init(&ctl, CTL_KUBEVIRT, &cfg);
	d = kv_run(&ctl, 30, 1, 2, 50 * MiB, 600, &t, &n, &last);
	assert_int_equal(n, 1);
	assert_int_equal(last, 900);
	assert_int_equal(d.action, CTL_ABORT);
	assert_non_null(strstr(d.reason, "switchover deadline"));

	/* Without searchLocalMinima it acts as soon as it is stalled. */
	cfg = kv_newest(1, 1);
	cfg.stall.search_local_minima = 0;
	ctl_init(&ctl, CTL_KUBEVIRT, &cfg);
	d = kv_run(&ctl, 100, 3, 2, 50 * MiB, 600, &t, &n, &last);
	assert_int_equal(d.action, CTL_POST_COPY);
	assert_true(t > 40 && t < 44);
}

/*
 * The stall detector past the acceptable completion time (its switchover
 * deadline): post-copy when the rest can be sent before twice that time
 * (completionTimeoutFactor), even without disruption; with disruption only,
 * the hard stop-and-copy and the acceptable time doubled; otherwise abort.
 */
static void
test_kubevirt_stall_completion_deadline(void **state)
{
	struct ctl		ctl;
	struct ctl_config	cfg = kv_newest(1, 0);
	struct ctl_decision	d;
	uint64_t		last;
	double			t;
	int			n;

	(void)state;
	/* 1 GiB at 8 s per GB: 16 s; the guest converges slowly. */
	cfg.completion_timeout_per_gib = 8;
	ctl_init(&ctl, CTL_KUBEVIRT, &cfg);
	d = kv_run(&ctl, 100, 0, 100, 10 * MiB, 600, &t, &n, &last);
	assert_int_equal(d.action, CTL_POST_COPY);
	assert_true(t >= 17 && t < 18);
	assert_non_null(strstr(d.reason, "acceptable completion time 16 s"));

	cfg = kv_newest(0, 1);
	cfg.completion_timeout_per_gib = 8;
	ctl_init(&ctl, CTL_KUBEVIRT, &cfg);
	d = kv_run(&ctl, 100, 0, 100, 10 * MiB, 600, &t, &n, &last);
	assert_int_equal(n, 1);
	assert_int_equal(last, CTL_QEMU_MAX_DOWNTIME_MS);
	assert_int_equal(d.action, CTL_ABORT);
	/* Forced at 17 s: the switchover deadline is 60 s later. */
	assert_true(t >= 78 && t < 79);

	/* Too much left for the doubled deadline: abort at once. */
	cfg = kv_newest(1, 1);
	cfg.completion_timeout_per_gib = 8;
	ctl_init(&ctl, CTL_KUBEVIRT, &cfg);
	d = kv_run(&ctl, 900, 0, 1000, 10 * MiB, 600, &t, &n, &last);
	assert_int_equal(d.action, CTL_ABORT);
	assert_true(t >= 17 && t < 18);
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
	assert_int_equal(cfg.max_downtime_ms, CTL_KUBEVIRT_MAX_DOWNTIME_MS);

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
	struct ctl_config	cfg = config(1, 0, 0);
	struct ctl		ctl;
	struct ctl_sample	s;
	struct ctl_decision	d;

	(void)state;
	ctl_init(&ctl, CTL_ADAPTIVE, &cfg);
	memset(&s, 0, sizeof s);
	s.t = 0.1;
	s.pass = 2;
	s.total = (uint64_t)GiB;
	s.remaining = (uint64_t)GiB;
	s.dirty_rate = 50 * MiB;
	ctl_step(&ctl, &s, &d);
	assert_int_equal(d.action, CTL_NONE);
	s.t = 0.6;
	s.pass = 7;
	ctl_step(&ctl, &s, &d);
	assert_int_equal(d.action, CTL_NONE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_acceptable_rounds_up_decimal_gb),
		cmocka_unit_test(test_kubevirt_aborts_stuck_after_progress_timeout),
		cmocka_unit_test(test_kubevirt_postcopy_after_acceptable_time),
		cmocka_unit_test(test_kubevirt_pause_doubles_acceptable),
		cmocka_unit_test(test_adaptive_leaves_converging_guest_alone),
		cmocka_unit_test(test_adaptive_lets_slow_precopy_finish),
		cmocka_unit_test(test_adaptive_throttled_guest_gets_time),
		cmocka_unit_test(test_adaptive_postcopy_within_passes),
		cmocka_unit_test(test_adaptive_order_downtime_throttle_pause_abort),
		cmocka_unit_test(test_adaptive_throttle_level),
		cmocka_unit_test(test_adaptive_raises_downtime_when_enough),
		cmocka_unit_test(test_adaptive_hopeless_goes_straight_to_postcopy),
		cmocka_unit_test(test_adaptive_hot_set_postcopy_bytes),
		cmocka_unit_test(test_adaptive_keeps_low_downtime_when_converging),
		cmocka_unit_test(test_adaptive_no_judgement_without_bandwidth),
		cmocka_unit_test(test_adaptive_measured_rate_early_postcopy),
		cmocka_unit_test(test_ctl_wants_dirty_rate),
		cmocka_unit_test(test_kubevirt_downtime_tuning),
		cmocka_unit_test(test_kubevirt_stall_detector),
		cmocka_unit_test(test_kubevirt_stall_completion_deadline),
		cmocka_unit_test(test_ctl_config_experimental),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
