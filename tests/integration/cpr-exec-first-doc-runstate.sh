#!/usr/bin/env bash
# qmigrate update --mode exec (cpr-exec, QEMU 11.1) of a guest the operator
# paused: the first document the run writes (once it knows it starts a new
# update, before its pre-flight) says the guest's run state when the update
# began (migrationConfiguration.sourceRunState "paused").  A re-run whose
# record is that one document (every later write failed: a full disk)
# keeps such a guest paused; before the fix the run state was written only
# with the plan's document, and a re-run that re-attached told the new
# QEMU cont (sim-real --update-exec seed 6020044, P10).
# A relay (tests/qmp-relay) holds the pre-flight's `info network` 30 s,
# while the test reads the document and kills the run.
. "$top_srcdir/tests/cpr-exec-lib.sh"
cpr_exec_test_begin
relay=$top_builddir/tests/qmp-relay
need_file "$relay" "tests/qmp-relay"

cpr_exec_start g 32 50
pid=$CPR_EXEC_PID
cpr_exec_command "$TMP/new.cmd" /usr/bin/qemu-system-x86_64
qmp g stop >/dev/null
bg_start relay "$relay" --hold '"info network"' --hold-for 30 "$TMP/r.qmp" "$TMP/g.qmp"
wait_log "$TMP/relay.out" '^ready' 10

st=$TMP/u.status
bg_start u "$QMIGRATE" update --mode exec --qmp "$TMP/r.qmp" --to "file:$TMP/vm.state" \
	--new-command "$TMP/new.cmd" --status-file "$st"
wait_log "$TMP/relay.out" 'holding' 60
wait_for 10 "the first document" test -s "$st"
expect_status "$st" .phase Pending
expect_status "$st" .migrationConfiguration.sourceRunState paused
_lib_pid_of u
kill -KILL "$_lib_pid"
expect_exit u 137 10
kill -0 "$pid" 2>/dev/null || fail "QEMU $pid is gone"
echo "ok: the first document of an update of a paused guest says sourceRunState paused"
