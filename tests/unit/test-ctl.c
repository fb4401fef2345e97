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

static void
test_kubevirt_aborts_stuck_after_progress_timeout(void **state)
{
	struct ctl		ctl;
	struct ctl_config	cfg = config(0, 0, 0);
	struct ctl_decision	d;
	double			when;

	(void)state;
	ctl_init(&ctl, CTL_KUBEVIRT, &cfg);
	d = run_trace(&ctl, 100 * MiB, 200 * MiB, 300 * MiB, 1000, &when);
	assert_int_equal(d.action, CTL_ABORT);
	assert_non_null(strstr(d.reason, "no progress"));
	/* The lowest point comes after the bulk pass (about 10 s). */
	assert_true(when > 150 && when < 175);
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
