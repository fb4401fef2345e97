#!/usr/bin/env bash
# qmigrate update --mode exec (cpr-exec, QEMU 11.1) killed in the
# switchover, and QEMU's exec of the new command line (a binary that does
# not exist) fails while no qmigrate watches it; the update is run again
# with the same --status-file.  The re-run closes the record as the live
# run ends it: 3, QEMU's "execvp ... failed", the guest on the old QEMU
# (the same process, every page), and QEMU's migration mode put back to
# normal, though the re-run sent no migrate (a later migrate would exec
# again).  Before 0b64bf8 the re-run said 4 and left the mode cpr-exec; on
# b475dc5 there is no --mode exec.
# A relay (tests/qmp-relay) in front of the monitor drops the killed run's
# migrate-continue: a real QEMU cannot be made to lose it, and without it
# the killed run would see the failure itself (cpr-exec's completion and
# its exec take ms).  The test then sends migrate-continue by hand.
. "$top_srcdir/tests/cpr-exec-lib.sh"
cpr_exec_test_begin
relay=$top_builddir/tests/qmp-relay
need_file "$relay" "tests/qmp-relay"

cpr_exec_start g 32 50
pid=$CPR_EXEC_PID
cpr_exec_command "$TMP/new.cmd" /nonexistent/qemu-system-x86_64
bg_start relay "$relay" --drop '"migrate-continue"' "$TMP/r.qmp" "$TMP/g.qmp"
wait_log "$TMP/relay.out" '^ready' 10

# The first run: killed once its migrate-continue was dropped (QEMU waits
# in pre-switchover, the guest's vCPUs stopped).
st=$TMP/u.status
bg_start u "$QMIGRATE" update --mode exec --qmp "$TMP/r.qmp" --to "file:$TMP/vm.state" \
	--new-command "$TMP/new.cmd" --status-file "$st"
wait_log "$TMP/relay.out" 'dropped a command' 60
_lib_pid_of u
kill -KILL "$_lib_pid"
expect_exit u 137 10
uid=$(status_get "$st" .migrationUid)
case $uid in "" | null) fail "no migrationUid in the killed run's document" ;; esac

# No qmigrate watches: the migration goes on by hand, QEMU's execvp fails.
"$QMIGRATE" qmp --qmp "$TMP/r.qmp" migrate-continue '{"state": "pre-switchover"}' >/dev/null ||
	fail "migrate-continue by hand: $(qmp g query-migrate)"
exec_failed() { qmp g query-migrate | grep -q '"status": "failed"'; }
wait_for 30 "QEMU's exec to fail" exec_failed
qmp g query-migrate | grep -q 'execvp /nonexistent/qemu-system-x86_64 failed' ||
	fail "QEMU's migration: $(qmp g query-migrate)"
qmp g query-migrate-parameters | grep -q '"mode": "cpr-exec"' ||
	fail "QEMU's mode is not cpr-exec before the re-run: $(qmp g query-migrate-parameters | grep mode)"

# The re-run: QEMU's refusal, 3, and the mode back to normal.
run_qmigrate 3 update --mode exec --qmp "$TMP/r.qmp" --to "file:$TMP/vm.state" \
	--new-command "$TMP/new.cmd" --status-file "$st"
expect_status "$st" .phase Failed
expect_status "$st" .exitCode 3
expect_status "$st" .migrationUid "$uid"
reason=$(status_get "$st" .failureReason)
grep -q "could not exec the new command line (execvp /nonexistent/qemu-system-x86_64 failed" <<<"$reason" ||
	fail "failureReason: $reason"
qmp g query-migrate-parameters | grep -q '"mode": "normal"' ||
	fail "the mode was not put back: $(qmp g query-migrate-parameters | grep mode)"
kill -0 "$pid" 2>/dev/null || fail "QEMU $pid is gone"
cpr_running g || fail "the guest does not run: $(qmp g query-status)"
[ "$(grep -ac '^memguest: ready ' "$TMP/g.serial")" -eq 1 ] || fail "the guest restarted"
assert_memory_intact "$TMP/g.serial"
echo "ok: a re-run that finds QEMU's exec failed unwatched: 3 in QEMU's words, mode normal, the guest runs on, every page"
