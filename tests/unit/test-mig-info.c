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

/*
 * What `incoming` does with the QEMU it finds (mig-rerun.c), each
 * QEMU shape as the real traces give it (tests/traces/qmp/precopy-*).
 */
static enum target_found
found(int record, enum run_state rs, const char *answer)
{
	struct mig_info		 mi;
	json_object		*reply = json_tokener_parse(answer);
	enum target_found	 tf;

	assert_non_null(reply);
	assert_int_equal(mig_info_decode(reply, &mi), 0);
	tf = mig_target_found(record, rs, &mi,
	    json_object_object_get_ex(reply, "socket-address", NULL));
	json_object_put(reply);
	return tf;
}

#define LOADING "{\"status\": \"active\", \"socket-address\": " \
	"[{\"path\": \"/t/mig.sock\", \"type\": \"unix\"}]}"

/*
 * sim-real seeds 7072 9347 10043 16412 (main 29c9d08): a re-run after
 * SIGKILL over a record never written (every write failed: a full disk)
 * finds its QEMU mid-load.  A new setup is refused ("There's a migration
 * process in progress"): it was exit 3 while the guest then arrived.  It
 * re-attaches, as it does over a record.
 */
static void
test_target_found_loading_no_record(void **state)
{
	(void)state;
	assert_int_equal(found(0, RUN_INMIGRATE, LOADING), TF_REATTACH);
	assert_int_equal(found(1, RUN_INMIGRATE, LOADING), TF_REATTACH);
	/* 7.2 listening, nothing arrived yet: no status, its socket. */
	assert_int_equal(found(0, RUN_INMIGRATE, "{\"socket-address\": "
	    "[{\"path\": \"/t/mig.sock\", \"type\": \"unix\"}]}"),
	    TF_REATTACH);
	/* Post-copy runs the guest here already. */
	assert_int_equal(found(0, RUN_RUNNING,
	    "{\"status\": \"postcopy-active\"}"), TF_REATTACH);
	assert_int_equal(found(0, RUN_PAUSED,
	    "{\"status\": \"postcopy-paused\"}"), TF_REATTACH);
}

/*
 * Seed 1887 (ee6a4ba): no record, the killed run's migration completed
 * here: "not waiting for a migration (run state running)", 3, while the
 * guest runs here.  Whose guest this is no record says: not known.
 */
static void
test_target_found_arrived_no_record(void **state)
{
	(void)state;
	assert_int_equal(found(0, RUN_RUNNING, "{\"status\": "
	    "\"completed\"}"), TF_NOT_KNOWN);
	assert_int_equal(found(0, RUN_PAUSED, "{\"status\": "
	    "\"completed\"}"), TF_NOT_KNOWN);
	/* A record names it: re-attached, reported as it arrived. */
	assert_int_equal(found(1, RUN_RUNNING, "{\"status\": "
	    "\"completed\"}"), TF_REATTACH);
	/* A failed load still inmigrate never ran it; a failure past it
	 * may follow a post-copy that did. */
	assert_int_equal(found(0, RUN_INMIGRATE, "{\"status\": "
	    "\"failed\"}"), TF_NOT_WAITING);
	assert_int_equal(found(0, RUN_PAUSED, "{\"status\": "
	    "\"failed\"}"), TF_NOT_KNOWN);
	/* A source whose own migration failed and runs its guest: 3, not
	 * 8 (migrate-control.sh's incoming on a running QEMU). */
	assert_int_equal(found(0, RUN_RUNNING, "{\"status\": "
	    "\"failed\"}"), TF_NOT_WAITING);
}

static enum target_found
found_tls(int record, enum run_state rs, const char *answer)
{
	struct mig_info		 mi;
	json_object		*reply = json_tokener_parse(answer);
	enum target_found	 tf;

	assert_non_null(reply);
	assert_int_equal(mig_info_decode(reply, &mi), 0);
	tf = mig_target_found_tls(record, rs, &mi,
	    json_object_object_get_ex(reply, "socket-address", NULL));
	json_object_put(reply);
	return tf;
}

/*
 * sim-real seed 3085721 (11.1, tls:, cb7af35): `incoming` SIGKILLed once
 * the guest arrived and ran, every write of its record failed (a full
 * disk); its re-run over tls: said 3, "not waiting for a migration (run
 * state running)", "not on the target", while the guest ran there.  Over
 * tls: it cannot re-attach: an incoming migration that ended here or
 * still runs here, with no record, is not known (8).
 */
static void
test_target_found_tls_no_record(void **state)
{
	(void)state;
	assert_int_equal(found_tls(0, RUN_RUNNING, "{\"status\": "
	    "\"completed\"}"), TF_NOT_KNOWN);
	assert_int_equal(found_tls(0, RUN_PAUSED, "{\"status\": "
	    "\"completed\"}"), TF_NOT_KNOWN);
	/* Post-copy's half here, its source gone with the proxy. */
	assert_int_equal(found_tls(0, RUN_RUNNING,
	    "{\"status\": \"postcopy-paused\"}"), TF_NOT_KNOWN);
	/* An open record: not known whatever QEMU says (seeds 2413 515). */
	assert_int_equal(found_tls(1, RUN_RUNNING, "{}"), TF_NOT_KNOWN);
	/* Still 3: a running guest that never came in, a source's own
	 * migration (ram figures, postmigrate), a failed load that ran
	 * nothing. */
	assert_int_equal(found_tls(0, RUN_RUNNING, "{}"), TF_NOT_WAITING);
	assert_int_equal(found_tls(0, RUN_POSTMIGRATE, "{\"status\": "
	    "\"completed\", \"ram\": {\"transferred\": 1, "
	    "\"remaining\": 0, \"total\": 1}}"), TF_NOT_WAITING);
	assert_int_equal(found_tls(0, RUN_RUNNING, "{\"status\": "
	    "\"failed\"}"), TF_NOT_WAITING);
}

/*
 * The re-run's query-migrate unanswered (after 3085721's fix, by
 * reading: a held or dropped answer there took the setup's "no reply",
 * 3, over a QEMU whose guest had arrived).  A QEMU that no longer waits,
 * or an open record: not known.  One still inmigrate with no record: 3.
 */
static void
test_target_unanswered(void **state)
{
	(void)state;
	assert_int_equal(mig_target_unanswered(0, RUN_RUNNING), TF_NOT_KNOWN);
	assert_int_equal(mig_target_unanswered(0, RUN_PAUSED), TF_NOT_KNOWN);
	assert_int_equal(mig_target_unanswered(1, RUN_INMIGRATE),
	    TF_NOT_KNOWN);
	assert_int_equal(mig_target_unanswered(0, RUN_INMIGRATE),
	    TF_NOT_WAITING);
}

/*
 * What stays as it was: a QEMU that waits is set up; one that does not,
 * with no incoming migration (a running guest, a source whose own
 * migration runs, completed or was cancelled: ram figures, postmigrate),
 * is refused (3, tests/bad-input incoming-running-vm).
 */
static void
test_target_found_unchanged(void **state)
{
	(void)state;
	assert_int_equal(found(0, RUN_INMIGRATE, "{}"), TF_FRESH);
	assert_int_equal(found(1, RUN_INMIGRATE, "{}"), TF_FRESH);
	assert_int_equal(found(0, RUN_RUNNING, "{}"), TF_NOT_WAITING);
	assert_int_equal(found(1, RUN_RUNNING, "{}"), TF_NOT_WAITING);
	assert_int_equal(found(0, RUN_RUNNING, "{\"status\": \"active\", "
	    "\"ram\": {\"total\": 1, \"remaining\": 1, "
	    "\"transferred\": 0}}"), TF_NOT_WAITING);
	assert_int_equal(found(0, RUN_POSTMIGRATE, "{\"status\": "
	    "\"completed\"}"), TF_NOT_WAITING);
	assert_int_equal(found(0, RUN_RUNNING, "{\"status\": "
	    "\"cancelled\"}"), TF_NOT_WAITING);
}

/*
 * update --mode exec's re-run over an open record, QEMU with no migration
 * (mig-rerun.c).  sim-real --update-exec seed 538: every write after the
 * first failed, the exec's new QEMU booted afresh: the record's phase was
 * not Running, and the re-run said 4, "the guest runs on the source",
 * with no old copy left.  QEMU's mode normal (the new QEMU's, or an old
 * one killed before the plan) is not known; cpr-exec is the old QEMU,
 * never migrated.
 */
static void
test_exec_rerun_lost(void **state)
{
	(void)state;
	assert_true(mig_exec_rerun_lost(PHASE_PENDING, "normal"));
	assert_true(mig_exec_rerun_lost(PHASE_PENDING, NULL));
	assert_false(mig_exec_rerun_lost(PHASE_PENDING, "cpr-exec"));
	/* F2: the record saw the update start. */
	assert_true(mig_exec_rerun_lost(PHASE_RUNNING, "cpr-exec"));
	assert_true(mig_exec_rerun_lost(PHASE_RUNNING, "normal"));
}

/*
 * An update's start over a QEMU whose mode an earlier update left set,
 * with no record of that update (mig-rerun.c): sim-real --update-exec
 * seed 6023505, an update killed after its plan, every status write
 * failed; the re-run's pre-flight refused (2) and its probe put back the
 * cpr-exec it found: the mode was left.  Only the modes an update sets.
 */
static void
test_update_mode_left(void **state)
{
	(void)state;
	assert_true(mig_update_mode_left("cpr-exec"));
	assert_true(mig_update_mode_left("cpr-transfer"));
	assert_false(mig_update_mode_left("normal"));
	assert_false(mig_update_mode_left("cpr-reboot"));
	assert_false(mig_update_mode_left(NULL));
}

/*
 * An update marker with no record of its update (mig-rerun.c): sim-real
 * --update-exec seeds 2821 6020198 6026378 (the re-run's monitor refused:
 * was 3, "untouched"), 3684 (the exec's new QEMU, mode normal, no
 * migration: was a second update), 6016968 (connects refused 42 s).
 */
static void
test_marker_no_record(void **state)
{
	struct marker_seen m = {
		.pid = 4242, .start = 777, .start_now = 777,
	};

	(void)state;
	/* A refused monitor: the marker's QEMU running or gone. */
	assert_int_equal(mig_marker_verdict(&m), MV_NOT_KNOWN);
	m.start_now = 0;
	assert_int_equal(mig_marker_verdict(&m), MV_NOT_KNOWN);
	/* The same process answers (same pid, same start: the exec's). */
	m.connected = 1;
	m.start_now = 777;
	m.peer = 4242;
	m.peer_start = 777;
	assert_int_equal(mig_marker_verdict(&m), MV_NOT_KNOWN);
	/* Another process: another pid, or the pid reused. */
	m.peer = 4243;
	assert_int_equal(mig_marker_verdict(&m), MV_STALE);
	m.peer = 4242;
	m.peer_start = 778;
	assert_int_equal(mig_marker_verdict(&m), MV_STALE);
	/* Who answers not known (a relay): the marker's process decides. */
	m.peer = 0;
	m.peer_start = 0;
	assert_int_equal(mig_marker_verdict(&m), MV_NOT_KNOWN);
	m.start_now = 0;
	assert_int_equal(mig_marker_verdict(&m), MV_STALE);
	/* The same process, which says the exec never happened. */
	m.peer = 4242;
	m.peer_start = 777;
	m.start_now = 777;
	m.not_execd = 1;
	assert_int_equal(mig_marker_verdict(&m), MV_NOT_EXECD);
	m.connected = 0;
	assert_int_equal(mig_marker_verdict(&m), MV_NOT_KNOWN);
	m.connected = 1;
	m.not_execd = 0;
	m.peer = 0;
	m.peer_start = 0;
	/* A marker that names no process: never stale. */
	m.pid = 0;
	m.start = 0;
	assert_int_equal(mig_marker_verdict(&m), MV_NOT_KNOWN);
}

/* A record of the marker's update decides (closed: the marker's removal
 * failed; open: the re-run's record logic), refused monitor or not. */
static void
test_marker_record(void **state)
{
	struct marker_seen m = {
		.pid = 4242, .start = 777, .start_now = 777, .record = 1,
	};

	(void)state;
	assert_int_equal(mig_marker_verdict(&m), MV_ENDED);
	m.record_open = 1;
	assert_int_equal(mig_marker_verdict(&m), MV_RECORD);
	m.connected = 1;
	m.peer = 9;
	m.peer_start = 1;
	assert_int_equal(mig_marker_verdict(&m), MV_RECORD);
}

/*
 * What says an update's exec never happened: the old QEMU's mode
 * cpr-exec (the new QEMU starts normal) and no migration, or a failed
 * (execvp) or cancelled one; never a migration that runs or completed.
 */
static void
test_exec_not_done(void **state)
{
	(void)state;
	assert_true(mig_exec_not_done("cpr-exec", QMS_NONE));
	assert_true(mig_exec_not_done("cpr-exec", QMS_FAILED));
	assert_true(mig_exec_not_done("cpr-exec", QMS_CANCELLED));
	assert_false(mig_exec_not_done("cpr-exec", QMS_ACTIVE));
	assert_false(mig_exec_not_done("cpr-exec", QMS_PRE_SWITCHOVER));
	assert_false(mig_exec_not_done("cpr-exec", QMS_COMPLETED));
	assert_false(mig_exec_not_done("normal", QMS_NONE));
	assert_false(mig_exec_not_done("normal", QMS_COMPLETED));
	assert_false(mig_exec_not_done(NULL, QMS_NONE));
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
		cmocka_unit_test(test_target_found_loading_no_record),
		cmocka_unit_test(test_target_found_arrived_no_record),
		cmocka_unit_test(test_target_found_unchanged),
		cmocka_unit_test(test_target_found_tls_no_record),
		cmocka_unit_test(test_target_unanswered),
		cmocka_unit_test(test_exec_rerun_lost),
		cmocka_unit_test(test_update_mode_left),
		cmocka_unit_test(test_marker_no_record),
		cmocka_unit_test(test_marker_record),
		cmocka_unit_test(test_exec_not_done),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
