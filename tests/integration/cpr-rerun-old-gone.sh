#!/usr/bin/env bash
# qmigrate update killed (SIGKILL) after the old QEMU completed, the old
# QEMU then gone (the node agent stopped it, as the killed run's quit
# would have), and update run again with the same --status-file (audit
# N7): the old QEMU's absence is what a finished update leaves, so the
# re-run asks the new QEMU, which runs the guest: exit 0, the record
# closed Succeeded with a note, the guest intact on the new QEMU.  On
# b475dc5 the re-run exited 3 ("cannot reach QEMU's monitor", the file left
# at phase Running), and so did every later one.  The first run is held
# after completion by tests/qmp-relay in front of the new QEMU's monitor
# (its query-status answer held, as cpr-handoff does: a real QEMU cannot
# be made to answer late).
. "$top_srcdir/tests/cpr-lib.sh"
cpr_test_begin 10.0
relay=$top_builddir/tests/qmp-relay
need_file "$relay" "tests/qmp-relay"
cpr_pair 32 20
bg_start relay "$relay" --hold query-status --hold-for 60 \
	"$TMP/relay.sock" "$TMP/new.qmp"
wait_log "$TMP/relay.out" '^ready' 10
bg_start first "$QMIGRATE" update --qmp "$TMP/old.qmp" \
	--new-qmp "$TMP/relay.sock" --to "unix:$TMP/new.main" \
	--cpr "unix:$TMP/new.cpr" --defer --status-file "$TMP/update.status"
wait_log "$TMP/relay.out" 'holding' 60
mon old query-status | grep -q '"status": "postmigrate"' ||
	fail "the old QEMU has not completed: $(mon old query-status)"
uid=$(status_get "$TMP/update.status" .migrationUid)
_lib_pid_of first
kill -KILL "$_lib_pid"
wait_for 10 "the first update to die" _lib_gone "$_lib_pid"
# The relay holds the new QEMU's one QMP client place: gone with the run.
_lib_pid_of relay
kill "$_lib_pid"
wait_for 10 "the relay to exit" _lib_gone "$_lib_pid"
kill_guest old TERM
run_qmigrate 0 update --qmp "$TMP/old.qmp" --new-qmp "$TMP/new.qmp" \
	--to "unix:$TMP/new.main" --cpr "unix:$TMP/new.cpr" --defer \
	--status-file "$TMP/update.status"
expect_status "$TMP/update.status" .phase Succeeded
expect_status "$TMP/update.status" .migrationUid "$uid"
status_get "$TMP/update.status" '.notes[]' | grep -q "its monitor is gone" ||
	fail "no note: $(status_get "$TMP/update.status" .notes)"
cpr_running new || fail "the new QEMU does not run the guest: $(mon new query-status)"
assert_memory_intact "$TMP/new.serial"
# Once more: the record is closed, nothing left to do; no new update runs
# against a QEMU that is not there.
rc=0
"$QMIGRATE" update --qmp "$TMP/old.qmp" --new-qmp "$TMP/new.qmp" \
	--to "unix:$TMP/new.main" --cpr "unix:$TMP/new.cpr" --defer \
	--status-file "$TMP/update.status" >"$TMP/again.out" 2>"$TMP/again.err" || rc=$?
[ "$rc" -eq 3 ] || fail "a re-run after the end: exit $rc, expected 3: $(cat "$TMP/again.err")"
expect_status "$TMP/update.status" .phase Succeeded
echo "ok: a re-run after the old QEMU had gone asked the new QEMU: exit 0 (uid $uid)"
