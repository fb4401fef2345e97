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
#include "exporter.h"

#define MiB (1024.0 * 1024)

static void
test_estimate_unlimited(void **state)
{
	struct dirty_estimate e;

	dirty_rate_estimate(1024 * MiB, 100 * MiB, 0, 300, &e);
	assert_int_equal(e.verdict, DIRTY_UNKNOWN);
}

static void
test_estimate_idle(void **state)
{
	struct dirty_estimate e;

	/* 1 GiB at 100 MiB/s, nothing dirtied: one pass, then a tiny stop. */
	dirty_rate_estimate((uint64_t)(1024 * MiB), 0, (uint64_t)(100 * MiB),
	    300, &e);
	assert_int_equal(e.verdict, DIRTY_CONVERGES);
	assert_int_equal(e.passes, 2);
	assert_true(e.seconds > 10.23 && e.seconds < 10.25);
}

static void
test_estimate_series(void **state)
{
	struct dirty_estimate e;

	/*
	 * Ratio 0.5: passes of 1024, 512, 256, 128, 64, 32 MiB, then 16 MiB
	 * is under 100 MiB/s x 0.3 s = 30 MiB and goes with the guest
	 * stopped: (1024 + ... + 32 + 16) / 100 = 20.32 s in 7 passes.
	 */
	dirty_rate_estimate((uint64_t)(1024 * MiB), 50 * MiB,
	    (uint64_t)(100 * MiB), 300, &e);
	assert_int_equal(e.verdict, DIRTY_CONVERGES);
	assert_true(e.ratio > 0.499 && e.ratio < 0.501);
	assert_int_equal(e.passes, 7);
	assert_true(e.seconds > 20.31 && e.seconds < 20.33);
}

static void
test_estimate_diverges(void **state)
{
	struct dirty_estimate e;

	/* 0.8 x bandwidth is where pre-copy is judged not to converge. */
	dirty_rate_estimate((uint64_t)(1024 * MiB), 80 * MiB,
	    (uint64_t)(100 * MiB), 300, &e);
	assert_int_equal(e.verdict, DIRTY_DIVERGES);
	dirty_rate_estimate((uint64_t)(1024 * MiB), 79 * MiB,
	    (uint64_t)(100 * MiB), 300, &e);
	assert_int_equal(e.verdict, DIRTY_CONVERGES);
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
		cmocka_unit_test(test_estimate_unlimited),
		cmocka_unit_test(test_estimate_idle),
		cmocka_unit_test(test_estimate_series),
		cmocka_unit_test(test_estimate_diverges),
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_vm_spec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
