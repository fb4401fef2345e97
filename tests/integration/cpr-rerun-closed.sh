#!/usr/bin/env bash
# qmigrate update killed (SIGKILL) before switchover, then its new QEMU
# killed too: the old QEMU's migration fails with no qmigrate watching, the
# guest runs on there, and the old QEMU keeps what the update set (mode
# cpr-transfer, pause-before-switchover).  The update run again with the
# same --status-file closes the killed run's record (Failed, the guest on
# the old QEMU) and puts both back, as a watched failure does (audit N11):
# a later plain migrate would otherwise be refused for want of a cpr
# channel.  Before the fix only a cpr-exec record put them back: the mode
# stayed cpr-transfer here.  The first run is held before switchover as
# cpr_update_held says.
. "$top_srcdir/tests/cpr-lib.sh"
cpr_test_begin 10.0
cpr_pair 32 20
cpr_update_held first
uid=$(status_get "$TMP/update.status" .migrationUid)
_lib_pid_of first
kill -KILL "$_lib_pid"
wait_for 10 "the first update to die" _lib_gone "$_lib_pid"
kill_guest new KILL
_old_failed() { mon old query-migrate | grep -q '"status": "failed"'; }
wait_for 30 "the old QEMU's migration to fail" _old_failed
[ "$(mon old query-migrate-parameters | jq -r .mode)" = cpr-transfer ] ||
	fail "the killed update left mode $(mon old query-migrate-parameters | jq -r .mode), not cpr-transfer: nothing to put back"
cpr_update again
bg_wait again 60 || rc=$?
case ${rc:-0} in
3 | 4) ;;
*) fail "the re-run exited ${rc:-0}, not 3 or 4 (a failed update): $(tail -n 3 "$TMP/again.err")" ;;
esac
expect_status "$TMP/update.status" .phase Failed
expect_status "$TMP/update.status" .migrationUid "$uid"
mode=$(mon old query-migrate-parameters | jq -r .mode)
[ "$mode" = normal ] || fail "the re-run left mode $mode on the old QEMU"
pause=$(mon old query-migrate-capabilities |
	jq -r '.[] | select(.capability == "pause-before-switchover") | .state')
[ "$pause" = false ] || fail "the re-run left pause-before-switchover $pause"
cpr_guest_on_old
echo "ok: the re-run closed the killed update's record (exit $rc, uid $uid) and put mode normal and the pause off back"
