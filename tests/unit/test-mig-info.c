/*
 * test-mig-info.c: the one decoder of QEMU's query-migrate and query-status
 * answers: QEMU's real shapes decode to the figures, and a peer that lies
 * (wrong types, nulls, unknown states) decodes as absent, never a crash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "mig-info.h"

static struct mig_info
decode(const char *text)
{
	struct mig_info	 mi;
	json_object	*reply = json_tokener_parse(text);

	assert_non_null(reply);
	assert_int_equal(mig_info_decode(reply, &mi), 0);
	json_object_put(reply);
	return mi;
}

/* An answer as QEMU 7.2 gives it during pre-copy. */
static void
test_active(void **state)
{
	struct mig_info mi = decode("{\"status\": \"active\", "
	    "\"expected-downtime\": 300, \"setup-time\": 2, "
	    "\"total-time\": 1234, \"cpu-throttle-percentage\": 20, "
	    "\"ram\": {\"total\": 268435456, \"remaining\": 1000, "
	    "\"transferred\": 5000, \"dirty-sync-count\": 3, "
	    "\"dirty-pages-rate\": 100, \"page-size\": 4096, "
	    "\"mbps\": 800.5, \"postcopy-requests\": 0}}");

	(void)state;
	assert_int_equal(mi.status, QMS_ACTIVE);
	assert_string_equal(mi.status_name, "active");
	assert_true(mi.has_ram);
	assert_int_equal(mi.ram_total, 268435456);
	assert_int_equal(mi.ram_remaining, 1000);
	assert_int_equal(mi.ram_transferred, 5000);
	assert_int_equal(mi.dirty_sync_count, 3);
	assert_int_equal(mi.expected_downtime_ms, 300);
	assert_int_equal(mi.throttle_pct, 20);
	assert_true(mi.has_total_time);
	assert_false(mi.has_downtime);
	assert_true(mig_info_dirty_rate(&mi) == 409600.0);
	assert_true(mig_info_bandwidth(&mi) == 800.5e6 / 8);
	assert_true(qemu_mig_status_in_progress(mi.status));
	assert_false(qemu_mig_status_postcopy(mi.status));
	assert_false(mi.has_dirty_limit);
}

/*
 * Under dirty-limit (8.1+, once a limit is in service) QEMU 10.0 adds how
 * long it held the vCPUs back per round and on a full dirty ring (µs):
 * the figures of a run under kvm-pvm with a limit of 1 MB/s.
 */
static void
test_dirty_limit(void **state)
{
	struct mig_info mi = decode("{\"status\": \"active\", "
	    "\"dirty-limit-throttle-time-per-round\": 9011492, "
	    "\"dirty-limit-ring-full-time\": 183908, "
	    "\"ram\": {\"total\": 71303168, \"remaining\": 0, "
	    "\"transferred\": 5000, \"dirty-sync-count\": 8}}");

	(void)state;
	assert_true(mi.has_dirty_limit);
	assert_int_equal(mi.dirty_limit_throttle_us, 9011492);
	assert_int_equal(mi.dirty_limit_ring_full_us, 183908);
	assert_int_equal(mi.throttle_pct, 0);
}

/*
 * Completed, as QEMU 7.2 answers between announcing it and computing the
 * times (seen in a real run: the final status said 0 ms), then after.
 */
static void
test_completed_times_late(void **state)
{
	struct mig_info early = decode("{\"status\": \"completed\", "
	    "\"setup-time\": 2, \"total-time\": 0, \"downtime\": 0}");
	struct mig_info done = decode("{\"status\": \"completed\", "
	    "\"setup-time\": 2, \"total-time\": 1834, \"downtime\": 12}");

	(void)state;
	assert_int_equal(early.status, QMS_COMPLETED);
	assert_false(early.has_total_time);
	assert_false(early.has_downtime);
	assert_true(done.has_total_time);
	assert_int_equal(done.total_time_ms, 1834);
	assert_true(done.has_downtime);
	assert_int_equal(done.downtime_ms, 12);
}

/*
 * A downtime longer than the whole migration, as QEMU 7.2 reported after
 * the demo's post-copy (its clock's reading): not known.
 */
static void
test_downtime_past_total_time(void **state)
{
	struct mig_info after_postcopy = decode("{\"status\": \"completed\", "
	    "\"setup-time\": 3, \"total-time\": 7557, "
	    "\"downtime\": 15690620}");
	struct mig_info whole = decode("{\"status\": \"completed\", "
	    "\"setup-time\": 3, \"total-time\": 7557, \"downtime\": 7557}");

	(void)state;
	assert_true(after_postcopy.has_total_time);
	assert_false(after_postcopy.has_downtime);
	assert_true(whole.has_downtime);
	assert_int_equal(whole.downtime_ms, 7557);
}

/* No migration yet: QEMU answers {} (no status member at all). */
static void
test_none(void **state)
{
	struct mig_info mi = decode("{}");

	(void)state;
	assert_int_equal(mi.status, QMS_NONE);
	assert_string_equal(mi.status_name, "none");
	assert_false(mi.has_ram);
	assert_int_equal(mi.page_size, 4096);
	assert_false(qemu_mig_status_in_progress(mi.status));
}

/* Every member of the wrong type or null reads as absent. */
static void
test_lies(void **state)
{
	struct mig_info mi = decode("{\"status\": null, \"ram\": [1,2], "
	    "\"downtime\": \"fast\", \"total-time\": -5, "
	    "\"error-desc\": 7, \"cpu-throttle-percentage\": 900}");

	(void)state;
	assert_int_equal(mi.status, QMS_NONE);
	assert_false(mi.has_ram);
	assert_false(mi.has_downtime);
	assert_false(mi.has_total_time);
	assert_string_equal(mi.error_desc, "");
	assert_int_equal(mi.throttle_pct, 100);

	mi = decode("{\"status\": \"teleporting\", \"error-desc\": \"x\"}");
	assert_int_equal(mi.status, QMS_UNKNOWN);
	assert_string_equal(mi.status_name, "teleporting");
	assert_true(qemu_mig_status_in_progress(mi.status));
	assert_string_equal(mi.error_desc, "x");
}

static void
test_not_object(void **state)
{
	struct mig_info	 mi;
	struct run_info	 ri;
	json_object	*arr = json_tokener_parse("[\"active\"]");

	(void)state;
	assert_int_equal(mig_info_decode(arr, &mi), -1);
	assert_int_equal(mi.status, QMS_NONE);
	assert_int_equal(mig_info_decode(NULL, &mi), -1);
	assert_int_equal(run_info_decode(arr, &ri), -1);
	assert_false(ri.running);
	json_object_put(arr);
}

static void
test_every_status_round_trips(void **state)
{
	int s;

	(void)state;
	for (s = QMS_NONE; s < QMS_UNKNOWN; s++)
		assert_int_equal(qemu_mig_status_parse(
		    qemu_mig_status_name((enum qemu_mig_status)s)), s);
	assert_true(qemu_mig_status_postcopy(QMS_POSTCOPY_PAUSED));
	assert_true(qemu_mig_status_postcopy(QMS_POSTCOPY_RECOVER));
	/* QEMU 10.2 (11.1 measured) loads device state after the switch. */
	assert_int_equal(qemu_mig_status_parse("postcopy-device"),
	    QMS_POSTCOPY_DEVICE);
	assert_true(qemu_mig_status_postcopy(QMS_POSTCOPY_DEVICE));
}

/*
 * Each status a QEMU after 7.2 reports, as query-migrate gives it: decoded
 * by name, and answered right by the predicates the session calls.
 */
static void
test_statuses_after_7_2(void **state)
{
	static const struct {
		const char		*json;
		enum qemu_mig_status	 status;
		int			 postcopy, in_progress;
	} rows[] = {
		/* 2.11; every migration passes through it from 10.0 */
		{ "{\"status\": \"device\", \"ram\": {\"total\": 1}}",
		    QMS_DEVICE, 0, 1 },
		/* 2.11, with pause-before-switchover */
		{ "{\"status\": \"pre-switchover\"}",
		    QMS_PRE_SWITCHOVER, 0, 1 },
		/* 4.2: a failover device's unplug */
		{ "{\"status\": \"wait-unplug\"}", QMS_WAIT_UNPLUG, 0, 1 },
		/* 2.8: x-colo */
		{ "{\"status\": \"colo\"}", QMS_COLO, 0, 1 },
		/* 9.1: the source preparing a post-copy recovery */
		{ "{\"status\": \"postcopy-recover-setup\", "
		    "\"ram\": {\"total\": 1}}",
		    QMS_POSTCOPY_RECOVER_SETUP, 1, 1 },
		/* 10.2: the target loads device state after the switch */
		{ "{\"status\": \"postcopy-device\"}",
		    QMS_POSTCOPY_DEVICE, 1, 1 },
		/* 11.0: the source, cleaning up before "failed" */
		{ "{\"status\": \"failing\", \"error-desc\": "
		    "\"Unable to write to socket: Broken pipe\"}",
		    QMS_FAILING, 0, 1 },
	};
	struct mig_info	mi;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		mi = decode(rows[i].json);
		assert_int_equal(mi.status, rows[i].status);
		assert_string_equal(mi.status_name,
		    qemu_mig_status_name(rows[i].status));
		assert_int_equal(qemu_mig_status_postcopy(mi.status),
		    rows[i].postcopy);
		assert_int_equal(qemu_mig_status_in_progress(mi.status),
		    rows[i].in_progress);
	}
	mi = decode(rows[6].json);
	assert_string_equal(mi.error_desc,
	    "Unable to write to socket: Broken pipe");
	assert_true(qemu_mig_status_recovering(QMS_POSTCOPY_RECOVER_SETUP));
	assert_true(qemu_mig_status_recovering(QMS_POSTCOPY_RECOVER));
	assert_false(qemu_mig_status_recovering(QMS_POSTCOPY_PAUSED));
	assert_false(qemu_mig_status_recovering(QMS_FAILING));
	assert_false(qemu_mig_status_in_progress(QMS_FAILED));
}

static void
test_run_state(void **state)
{
	struct run_info	 ri;
	json_object	*r;

	(void)state;
	r = json_tokener_parse("{\"status\": \"postmigrate\", "
	    "\"running\": false, \"singlestep\": false}");
	assert_int_equal(run_info_decode(r, &ri), 0);
	assert_int_equal(ri.state, RUN_POSTMIGRATE);
	assert_false(ri.running);
	json_object_put(r);

	r = json_tokener_parse("{\"status\": \"running\", \"running\": 1}");
	assert_int_equal(run_info_decode(r, &ri), 0);
	assert_int_equal(ri.state, RUN_RUNNING);
	assert_false(ri.running);	/* an int is not a boolean */
	json_object_put(r);

	r = json_tokener_parse("{\"status\": null}");
	assert_int_equal(run_info_decode(r, &ri), -1);
	json_object_put(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_active),
		cmocka_unit_test(test_dirty_limit),
		cmocka_unit_test(test_completed_times_late),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_lies),
		cmocka_unit_test(test_not_object),
		cmocka_unit_test(test_every_status_round_trips),
		cmocka_unit_test(test_statuses_after_7_2),
		cmocka_unit_test(test_run_state),
		cmocka_unit_test(test_downtime_past_total_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
