/*
 * test-observe.c: the pure parts of the observability area: the
 * convergence estimate behind `qmigrate dirty-rate`, label escaping and
 * --vm parsing of the exporter.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "qmigrate.h"
#include "dirty-rate.h"
#include "observe.h"

#define MiB (1024.0 * 1024)

/*
 * The estimate for a GiB of RAM at a dirty rate and a bandwidth (0: no
 * limit) with 300 ms of downtime: its verdict and, where given (passes not
 * 0), the passes, the seconds between smin and smax, and the ratio of the
 * dirty rate to the bandwidth (within 0.001).
 */
static void
test_estimate(void **state)
{
	static const struct {
		double			 dirty, bw;
		enum dirty_verdict	 verdict;
		int			 passes;
		double			 smin, smax, ratio;
	} cases[] = {
		/* No bandwidth limit: nothing to estimate. */
		{ 100 * MiB, 0, DIRTY_UNKNOWN, 0, 0, 0, 0 },
		/* Nothing dirtied: one pass at 100 MiB/s, then a tiny stop. */
		{ 0, 100 * MiB, DIRTY_CONVERGES, 2, 10.23, 10.25, 0 },
		/*
		 * Ratio 0.5: passes of 1024, 512, 256, 128, 64, 32 MiB, then
		 * 16 MiB is under 100 MiB/s x 0.3 s = 30 MiB and goes with the
		 * guest stopped: (1024 + ... + 32 + 16) / 100 = 20.32 s in 7
		 * passes.
		 */
		{ 50 * MiB, 100 * MiB, DIRTY_CONVERGES, 7, 20.31, 20.33, 0.5 },
		/* 0.8 x bandwidth: where pre-copy is judged not to converge. */
		{ 80 * MiB, 100 * MiB, DIRTY_DIVERGES, 0, 0, 0, 0 },
		{ 79 * MiB, 100 * MiB, DIRTY_CONVERGES, 0, 0, 0, 0 },
	};
	struct dirty_estimate	e;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		dirty_rate_estimate((uint64_t)(1024 * MiB), cases[i].dirty,
		    (uint64_t)cases[i].bw, 300, &e);
		assert_int_equal(e.verdict, cases[i].verdict);
		if (cases[i].passes == 0)
			continue;
		assert_int_equal(e.passes, cases[i].passes);
		assert_true(e.seconds > cases[i].smin &&
		    e.seconds < cases[i].smax);
		if (cases[i].ratio != 0)
			assert_true(e.ratio > cases[i].ratio - 0.001 &&
			    e.ratio < cases[i].ratio + 0.001);
	}
}

static void
test_modes(void **state)
{
	assert_true(dirty_rate_mode_ok("page-sampling"));
	assert_true(dirty_rate_mode_ok("dirty-ring"));
	assert_true(dirty_rate_mode_ok("dirty-bitmap"));
	assert_false(dirty_rate_mode_ok("dirty"));
}

static void
test_escape(void **state)
{
	char *s;

	s = prom_escape_label("a\"b\\c\nd");
	assert_string_equal(s, "a\\\"b\\\\c\\nd");
	free(s);
	s = prom_escape_label("");
	assert_string_equal(s, "");
	free(s);
}

static void
test_vm_spec(void **state)
{
	struct exporter_vm_spec	 s;
	char			*cause = NULL;

	assert_int_equal(exporter_vm_spec_parse("vm1=/run/a.qmp", &s, &cause),
	    0);
	assert_string_equal(s.name, "vm1");
	assert_string_equal(s.qmp, "/run/a.qmp");
	assert_null(s.qga);
	assert_null(s.status);
	exporter_vm_spec_free(&s);

	assert_int_equal(exporter_vm_spec_parse(
	    "db=/q,status=/s.json,qga=/g", &s, &cause), 0);
	assert_string_equal(s.qga, "/g");
	assert_string_equal(s.status, "/s.json");
	exporter_vm_spec_free(&s);

	assert_int_equal(exporter_vm_spec_parse("=/q", &s, &cause), -1);
	assert_non_null(strstr(cause, "expected NAME=QMP_PATH"));
	free(cause);
	assert_int_equal(exporter_vm_spec_parse("vm", &s, &cause), -1);
	free(cause);
	assert_int_equal(exporter_vm_spec_parse("vm=/q,qga=/a,qga=/b", &s,
	    &cause), -1);
	assert_non_null(strstr(cause, "\"qga=/b\""));
	free(cause);
	assert_int_equal(exporter_vm_spec_parse("vm=/q,bogus=1", &s, &cause),
	    -1);
	free(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_estimate),
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_vm_spec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
