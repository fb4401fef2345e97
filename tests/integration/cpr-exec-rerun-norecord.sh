#!/usr/bin/env bash
# qmigrate update --mode exec (cpr-exec, QEMU 11.1) killed after the exec,
# its record never saying the update began (sim-real --update-exec seed
# 538: every write after the first failed), run again with the same
# --status-file.  The new command line is "a build" that drops -incoming:
# the exec's new QEMU boots a fresh guest, the old one is gone (QEMU's
# exec keeps the pid).  The re-run finds a QEMU with no migration; it said
# 4, "the guest runs on the source", over a guest that exists nowhere.
# QEMU's migration mode tells what the record does not: the old QEMU would
# hold the killed run's cpr-exec; this one says normal.  Not known: 8.
# The record's phase is put back to the first write's (Pending) between the
# kill and the re-run: what a Running write that failed leaves.
. "$top_srcdir/tests/cpr-exec-lib.sh"
cpr_exec_test_begin

cpr_exec_start g 32 50
pid=$CPR_EXEC_PID
cat >"$TMP/fresh-build.sh" <<EOS
#!/bin/bash
echo \$\$ >"$TMP/g.execd"
args=()
while [ \$# -gt 0 ]; do
	if [ "\$1" = -incoming ]; then shift 2; continue; fi
	args+=("\$1")
	shift
done
exec /usr/bin/qemu-system-x86_64 "\${args[@]}"
EOS
chmod +x "$TMP/fresh-build.sh"
printf '%s\n' "$TMP/fresh-build.sh" "${CPR_EXEC_ARGS[@]}" -incoming "file:$TMP/vm.state" >"$TMP/new.cmd"

# The first run: killed once the exec happened, while it waits for the
# new QEMU to say it runs the guest.
st=$TMP/u.status
bg_start u "$QMIGRATE" update --mode exec --qmp "$TMP/g.qmp" --to "file:$TMP/vm.state" \
	--new-command "$TMP/new.cmd" --status-file "$st"
wait_for 60 "the exec" test -s "$TMP/g.execd"
[ "$(cat "$TMP/g.execd")" = "$pid" ] || fail "the build ran as $(cat "$TMP/g.execd"), QEMU is $pid"
wait_for 30 "the new QEMU's monitor" _lib_qmp_ready g
_lib_pid_of u
kill -KILL "$_lib_pid"
expect_exit u 137 10
uid=$(status_get "$st" .migrationUid)
case $uid in "" | null) fail "no migrationUid in the killed run's document" ;; esac
jq '.phase = "Pending" | .exitCode = null' "$st" >"$st.new" && mv "$st.new" "$st"
qmp g query-migrate-parameters | grep -q '"mode": "normal"' ||
	fail "the new QEMU's mode: $(qmp g query-migrate-parameters | grep mode)"

# The re-run: not known, never "the guest runs on the source".
run_qmigrate 8 update --mode exec --qmp "$TMP/g.qmp" --to "file:$TMP/vm.state" \
	--new-command "$TMP/new.cmd" --status-file "$st"
expect_failed "$st" 8 unknown "re-run"
expect_status "$st" .migrationUid "$uid" "re-run"
status_get "$st" .failureReason | grep -q "not the cpr-exec" ||
	fail "failureReason: $(status_get "$st" .failureReason)"
kill -0 "$pid" 2>/dev/null || fail "QEMU $pid is gone"
echo "ok: a re-run over a record that never said the update began, the exec's new QEMU a fresh boot: not known (8), not 4"
