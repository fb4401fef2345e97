#!/usr/bin/env bash
# qmigrate update --mode exec (cpr-exec, QEMU 11.1) once the exec
# happened: there is no old copy of the guest to resume, so a new QEMU
# that does not come up is not known (8), decided as soon as its process
# is gone, never "failed" as if the guest ran on the old QEMU (3, 5, 6),
# and the line and the status document say that no old copy is left and
# what the operator can still do.  Two ways a real 11.1 loses the guest:
#  1. the new command is a program that exits at once (a broken build);
#  2. the new command line cannot load the guest: it lacks the NIC the
#     old QEMU had, and the new QEMU fails its load and exits.
#  3. the new command hangs (its process lives, it never binds the
#     monitor): not known after the 30 s bound, the process left alone.
# And the trap QEMU does not guard: a guest in plain -m RAM, for which
# 11.1 lists no cpr-exec blocker and would exec and lose the guest, is
# refused by the pre-flight (2) before anything moves: the guest runs on.
. "$top_srcdir/tests/cpr-exec-lib.sh"
cpr_exec_test_begin

# lost NAME CMD-FILE: update guest NAME by CMD-FILE; 8 well before the 30
# s bound (the process is seen gone), the pid gone, the words right.
lost() {
	local name=$1 cmd=$2 st=$TMP/$1.status t0 t1
	t0=$SECONDS
	run_qmigrate 8 update --mode exec --qmp "$TMP/$name.qmp" --to "file:$TMP/$name.state" \
		--new-command "$cmd" --status-file "$st"
	t1=$SECONDS
	[ $((t1 - t0)) -lt 15 ] || fail "$name: not known only after $((t1 - t0)) s: the gone process was not seen"
	expect_failed "$st" 8 unknown "$name"
	expect_status "$st" .mode CprExec "$name"
	status_get "$st" .failureReason | grep -q "process has exited" ||
		fail "$name: failureReason: $(status_get "$st" .failureReason)"
	status_get "$st" .failureReason | grep -q "no old copy is left" ||
		fail "$name: failureReason: $(status_get "$st" .failureReason)"
	grep -q "its disks hold what the guest wrote" "$TMP/err" ||
		fail "$name: the line does not say what is left: $(cat "$TMP/err")"
	! kill -0 "$CPR_EXEC_PID" 2>/dev/null || fail "$name: QEMU $CPR_EXEC_PID still runs"
}

# 1. A new command that exits at once (it gets the arguments, runs none).
cpr_exec_start exits 32 50
cat >"$TMP/broken-build.sh" <<'EOS'
#!/bin/sh
echo "broken build: exiting" >&2
exit 1
EOS
chmod +x "$TMP/broken-build.sh"
printf '%s\n' "$TMP/broken-build.sh" "${CPR_EXEC_ARGS[@]}" -incoming "file:$TMP/exits.state" >"$TMP/exits.cmd"
lost exits "$TMP/exits.cmd"

# 2. A new command line without the old QEMU's NIC: its load fails.
cpr_exec_start noload 32 50
cpr_exec_command "$TMP/full.cmd" /usr/bin/qemu-system-x86_64
sed -i "s|file:$TMP/vm.state|file:$TMP/noload.state|" "$TMP/full.cmd"
mapfile -t line <"$TMP/full.cmd"
for ((i = 0; i < ${#line[@]}; i++)); do
	if [[ ${line[i]} == -netdev && ${line[i + 1]} == user,id=net0 ]] ||
		[[ ${line[i]} == -device && ${line[i + 1]} == "$CPR_NIC,netdev=net0" ]]; then
		i=$((i + 1))
		continue
	fi
	printf '%s\n' "${line[i]}"
done >"$TMP/noload.cmd"
! grep -qx -- "$CPR_NIC,netdev=net0" "$TMP/noload.cmd" || fail "the NIC is still in $TMP/noload.cmd"
lost noload "$TMP/noload.cmd"
grep -q "load of migration failed\|Unknown savevm section\|Missing section" "$TMP/noload.err" ||
	fail "the new QEMU did not fail its load: $(tail -3 "$TMP/noload.err")"
# 3. A new command that hangs: 8 after 30 s, its process left running.
cpr_exec_start hangs 32 50
printf '#!/bin/sh\nexec sleep 600\n' >"$TMP/hung-build.sh"
chmod +x "$TMP/hung-build.sh"
printf '%s\n' "$TMP/hung-build.sh" "${CPR_EXEC_ARGS[@]}" -incoming "file:$TMP/hangs.state" >"$TMP/hangs.cmd"
t0=$SECONDS
run_qmigrate 8 update --mode exec --qmp "$TMP/hangs.qmp" --to "file:$TMP/hangs.state" \
	--new-command "$TMP/hangs.cmd" --status-file "$TMP/hangs.status"
[ $((SECONDS - t0)) -ge 29 ] && [ $((SECONDS - t0)) -le 45 ] ||
	fail "hangs: not known after $((SECONDS - t0)) s, expected the 30 s bound"
expect_failed "$TMP/hangs.status" 8 unknown hangs
status_get "$TMP/hangs.status" .failureReason | grep -q "could not be reached within 30 s" ||
	fail "hangs: failureReason: $(status_get "$TMP/hangs.status" .failureReason)"
status_get "$TMP/hangs.status" .failureReason | grep -q "no old copy is left" ||
	fail "hangs: failureReason: $(status_get "$TMP/hangs.status" .failureReason)"
kill -0 "$CPR_EXEC_PID" 2>/dev/null || fail "hangs: the process $CPR_EXEC_PID was killed"

# 4. Plain -m RAM: refused before the exec, the guest untouched.
start_memguest plain 32 50
plain_pid=$(cat "$TMP/plain.pid")
printf '%s\n' /usr/bin/qemu-system-x86_64 -m 32 -incoming "file:$TMP/plain.state" >"$TMP/plain.cmd"
run_qmigrate 2 update --mode exec --qmp "$TMP/plain.qmp" --to "file:$TMP/plain.state" \
	--new-command "$TMP/plain.cmd" --status-file "$TMP/plain.status"
expect_err "RAMNotShared"
expect_status "$TMP/plain.status" .exitCode 2
[ ! -e "$TMP/plain.state" ] || fail "the refused update wrote $TMP/plain.state"
kill -0 "$plain_pid" 2>/dev/null || fail "QEMU $plain_pid is gone"
qmp plain query-status | grep -q '"status": "running"' || fail "plain: $(qmp plain query-status)"
qmp plain query-migrate-parameters | grep -q '"mode": "normal"' ||
	fail "plain: the mode is not normal: $(qmp plain query-migrate-parameters | grep mode)"
assert_memory_intact "$TMP/plain.serial"
echo "ok: after the exec, a new QEMU that exits or cannot load is not known (8) at once, no old copy said; a hung one after 30 s; plain RAM refused before it (2)"
