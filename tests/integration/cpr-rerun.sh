#!/usr/bin/env bash
# qmigrate update killed (SIGKILL) before switchover, then run again with
# the same --status-file: it re-attaches to the update the old QEMU still
# runs (same migrationUid), attaches the new QEMU again, and ends it: the
# guest runs on the new QEMU, intact, the old QEMU is gone, exit 0.  The
# first run is held before switchover as cpr_update_held says (it is not
# told --defer); the re-run is, and gives the new QEMU its migrate-incoming.
. "$top_srcdir/tests/cpr-lib.sh"
cpr_test_begin 10.0
cpr_pair 64 20
cpr_update_held first
uid=$(status_get "$TMP/update.status" .migrationUid)
_lib_pid_of first
kill -KILL "$_lib_pid"
wait_for 10 "the first update to die" _lib_gone "$_lib_pid"
cpr_update again --defer
expect_exit again 0 60
expect_status "$TMP/update.status" .phase Succeeded
expect_status "$TMP/update.status" .mode CprTransfer
expect_status "$TMP/update.status" .migrationUid "$uid"
status_get "$TMP/update.status" '.notes[]' | grep -q "re-attached" ||
	fail "no re-attach note: $(status_get "$TMP/update.status" .notes)"
wait_guest_exit old 10
cpr_running new || fail "the new QEMU does not run the guest: $(qmp new query-status)"
assert_memory_intact "$TMP/new.serial"
echo "ok: a re-run after SIGKILL re-attached and ended the update (uid $uid)"
