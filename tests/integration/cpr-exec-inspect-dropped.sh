#!/usr/bin/env bash
# qmigrate update --mode exec (cpr-exec, QEMU 11.1) whose first questions,
# query-migrate included, QEMU does not answer on that connection (a relay
# or a monitor hung in a command: the connection stays open and mute; here
# tests/qmp-relay holds the first query-migrate and what follows it 20 s).
# What QEMU is doing decides what a run may say (a re-run over a record
# never written finds a migration waiting in pre-switchover: sim-real
# --update-exec seed 4760, exit 3 "on the source" with the guest's vCPUs
# stopped), so the inspection is asked again on a new connection; QEMU's
# monitor serves one client, and the relay keeps the mute one until its
# hold ends: the connects are refused until then, and tried again (30 s).
# The update goes on and ends 0, the guest on the new binary.  Before the
# fix: exit 3 at 10 s, "no reply within 10 s".
. "$top_srcdir/tests/cpr-exec-lib.sh"
cpr_exec_test_begin
relay=$top_builddir/tests/qmp-relay
need_file "$relay" "tests/qmp-relay"

cpr_exec_start g 32 50
pid=$CPR_EXEC_PID
cpr_exec_command "$TMP/new.cmd" /usr/bin/qemu-system-x86_64
bg_start relay "$relay" --hold '"execute":"query-migrate"' --hold-for 20 --only-conn 1 \
	"$TMP/r.qmp" "$TMP/g.qmp"
wait_log "$TMP/relay.out" '^ready' 10

st=$TMP/u.status
run_qmigrate 0 update --mode exec --qmp "$TMP/r.qmp" --to "file:$TMP/vm.state" \
	--new-command "$TMP/new.cmd" --status-file "$st"
grep -q '^conn 1: holding' "$TMP/relay.out" ||
	fail "the relay held nothing: $(cat "$TMP/relay.out")"
grep -Eq '^conn [2-9]: accepted' "$TMP/relay.out" ||
	fail "no second connection: $(cat "$TMP/relay.out")"
expect_err "no reply within 10 s: asking again on a new connection"
expect_status "$st" .phase Succeeded
kill -0 "$pid" 2>/dev/null || fail "QEMU $pid is gone (the exec keeps the pid)"
cpr_running g || fail "the guest does not run: $(qmp g query-status)"
assert_memory_intact "$TMP/g.serial"
echo "ok: the first query-migrate never answered: asked again on a new connection, the update ends 0"
