#!/usr/bin/env bash
# qmigrate update --mode exec (cpr-exec, QEMU 11.1) killed after its plan
# set QEMU's migration mode cpr-exec, before QEMU got its migrate, and no
# record of it written (every write of the status file failed: a full
# disk; here the file is removed after the kill).  The re-run is refused
# by its pre-flight (a policy that allows post-copy: "Cannot use postcopy
# with CPR", exit 2), the guest on the old QEMU: its mode must be put back
# to normal, and pause-before-switchover off (a later plain migrate would
# exec, or wait in pre-switchover).  Before the fix the re-run's probe put
# back the cpr-exec it found, and nothing else: exit 2 with cpr-exec left
# (sim-real --update-exec seed 6023505).
# A relay (tests/qmp-relay) drops the killed run's migrate, so that the
# kill lands between the plan and the migration.
. "$top_srcdir/tests/cpr-exec-lib.sh"
cpr_exec_test_begin
relay=$top_builddir/tests/qmp-relay
need_file "$relay" "tests/qmp-relay"

cpr_exec_start g 32 50
pid=$CPR_EXEC_PID
cpr_exec_command "$TMP/new.cmd" /usr/bin/qemu-system-x86_64
bg_start relay "$relay" --drop '"execute":"migrate","arguments"' "$TMP/r.qmp" "$TMP/g.qmp"
wait_log "$TMP/relay.out" '^ready' 10

st=$TMP/u.status
bg_start u "$QMIGRATE" update --mode exec --qmp "$TMP/r.qmp" --to "file:$TMP/vm.state" \
	--new-command "$TMP/new.cmd" --status-file "$st"
wait_log "$TMP/relay.out" 'dropped a command' 60
_lib_pid_of u
kill -KILL "$_lib_pid"
expect_exit u 137 10
rm -f "$st"
qmp g query-migrate-parameters | grep -q '"mode": "cpr-exec"' ||
	fail "the killed run's plan did not set cpr-exec: $(qmp g query-migrate-parameters | grep mode)"
qmp g query-migrate | grep -q '"status"' &&
	fail "QEMU migrated: $(qmp g query-migrate)"

cat >"$TMP/pc.json" <<EOS
{ "name": "postcopy", "migration": { "allowPostCopy": true } }
EOS
run_qmigrate 2 update --mode exec --qmp "$TMP/g.qmp" --to "file:$TMP/vm.state" \
	--new-command "$TMP/new.cmd" --status-file "$st" --policy "$TMP/pc.json"
expect_status "$st" .exitCode 2
qmp g query-migrate-parameters | grep -q '"mode": "normal"' ||
	fail "the mode the killed run left was not put back: $(qmp g query-migrate-parameters | grep mode)"
qmp g query-migrate-capabilities | jq -e '.[] | select(.capability == "pause-before-switchover") | .state == false' >/dev/null ||
	fail "pause-before-switchover left on: $(qmp g query-migrate-capabilities)"
kill -0 "$pid" 2>/dev/null || fail "QEMU $pid is gone"
cpr_running g || fail "the guest does not run: $(qmp g query-status)"
[ "$(grep -ac '^memguest: ready ' "$TMP/g.serial")" -eq 1 ] || fail "the guest restarted"
assert_memory_intact "$TMP/g.serial"
echo "ok: a re-run with no record over the mode a killed update left: refused (2), mode normal, the pause off, the guest runs on, every page"
