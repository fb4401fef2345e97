#!/usr/bin/env bash
# qmigrate update --mode exec (cpr-exec, QEMU 11.1): a busy memory guest
# with a qcow2 disk and a NIC is updated in place, first to the same
# binary, then to a wrapper that stands for another build: the pid is
# unchanged, the guest did not restart (one "memguest: ready"), every page
# is intact after, the status document says CprExec and Succeeded.  Then
# an exec to a binary that does not exist: QEMU survives it, the guest
# runs on, qmigrate exits 3 with QEMU's "execvp ... failed", and QEMU's
# migration mode is put back to normal (a later migrate would exec again).
# Each success's progress.downtimeMs is the guest's pause (the old QEMU's
# STOP to the new QEMU's RESUME), never 0.  A new command line with -S:
# the new QEMU loads the guest and waits; qmigrate conts it (0 in
# seconds, not 8 after 30 s), unless the guest was paused before the
# update: then it stays paused (audit N14), a note says the pause is not
# known and the document has no downtimeMs.
. "$top_srcdir/tests/cpr-exec-lib.sh"
cpr_exec_test_begin

cpr_exec_start g 32 100
pid=$CPR_EXEC_PID
[ "$(cat "$TMP/g.pid")" = "$pid" ] || fail "pidfile $(cat "$TMP/g.pid") is not QEMU's $pid"

# updated NAME: the guest runs on the same pid, not restarted, every page.
updated() {
	expect_status "$TMP/$1.status" .phase Succeeded
	expect_status "$TMP/$1.status" .mode CprExec
	expect_status "$TMP/$1.status" .exitCode 0
	kill -0 "$pid" 2>/dev/null || fail "QEMU $pid is gone"
	[ "$(cat "$TMP/g.pid")" = "$pid" ] || fail "the pid changed: $(cat "$TMP/g.pid"), was $pid"
	cpr_running g || fail "the guest does not run: $(qmp g query-status)"
	[ "$(grep -ac '^memguest: ready ' "$TMP/g.serial")" -eq 1 ] ||
		fail "the guest restarted: $(grep -a '^memguest: ready ' "$TMP/g.serial")"
	assert_memory_intact "$TMP/g.serial"
}

# pause_measured NAME: downtimeMs is the pause measured, not a 0.
pause_measured() {
	local down
	down=$(status_get "$TMP/$1.status" .progress.downtimeMs)
	if ! [[ $down =~ ^[0-9]+$ ]] || [ "$down" -eq 0 ]; then
		fail "$1: downtimeMs $down is not the guest's pause"
	fi
	echo "$1: the guest's pause $down ms ($(jq -r '.notes[]' "$TMP/$1.status" | grep -o 'at most [0-9]* ms' || echo "STOP to RESUME"))"
}

# 1. The same binary.
cpr_exec_command "$TMP/new.cmd" /usr/bin/qemu-system-x86_64
run_qmigrate 0 update --mode exec --qmp "$TMP/g.qmp" --to "file:$TMP/vm.state" \
	--new-command "$TMP/new.cmd" --status-file "$TMP/same.status"
updated same
pause_measured same

# 2. "Another build": a wrapper that execs QEMU; its $$ is QEMU's pid.
cat >"$TMP/other-build.sh" <<EOS
#!/bin/sh
echo \$\$ >>"$TMP/other-build.ran"
exec /usr/bin/qemu-system-x86_64 "\$@"
EOS
chmod +x "$TMP/other-build.sh"
rm -f "$TMP/vm.state"
cpr_exec_command "$TMP/new.cmd" "$TMP/other-build.sh"
run_qmigrate 0 update --mode exec --qmp "$TMP/g.qmp" --to "file:$TMP/vm.state" \
	--new-command "$TMP/new.cmd" --status-file "$TMP/other.status"
updated other
[ "$(cat "$TMP/other-build.ran")" = "$pid" ] ||
	fail "the other build did not run in QEMU's process: $(cat "$TMP/other-build.ran"), QEMU $pid"
pause_measured other

# 3. -S in the new command line: the new QEMU waits paused; qmigrate conts
# it once its load completed, as --mode transfer does.
rm -f "$TMP/vm.state"
cpr_exec_command "$TMP/new.cmd" /usr/bin/qemu-system-x86_64
echo -S >>"$TMP/new.cmd"
t0=$(date +%s)
run_qmigrate 0 update --mode exec --qmp "$TMP/g.qmp" --to "file:$TMP/vm.state" \
	--new-command "$TMP/new.cmd" --status-file "$TMP/held.status"
[ $(($(date +%s) - t0)) -lt 25 ] || fail "-S: $(($(date +%s) - t0)) s: waited for the 30 s bound?"
updated held
pause_measured held

# ... the guest paused before the update (the operator's): it stays
# paused on the new QEMU, no cont; the pause is not known there: the
# document has no downtimeMs (a 0 would read as a pause of 0 ms).
rm -f "$TMP/vm.state"
qmp g stop >/dev/null || fail "stop: $(qmp g query-status)"
run_qmigrate 0 update --mode exec --qmp "$TMP/g.qmp" --to "file:$TMP/vm.state" \
	--new-command "$TMP/new.cmd" --status-file "$TMP/stopped.status"
expect_status "$TMP/stopped.status" .phase Succeeded
qmp g query-status | grep -q '"status": "paused"' ||
	fail "the guest paused before the update was resumed: $(qmp g query-status)"
jq -r '.notes[]' "$TMP/stopped.status" | grep -q "pause in the update is not known" ||
	fail "no note that the pause is not known: $(jq -c .notes "$TMP/stopped.status")"
[ "$(jq '.progress | has("downtimeMs")' "$TMP/stopped.status")" = false ] ||
	fail "a downtimeMs for a pause not known: $(jq -c .progress "$TMP/stopped.status")"
qmp g cont >/dev/null || fail "cont: $(qmp g query-status)"
cpr_running g || fail "the guest does not run after cont: $(qmp g query-status)"

# 4. A binary that does not exist: QEMU's execvp fails, QEMU runs on.
rm -f "$TMP/vm.state"
cpr_exec_command "$TMP/new.cmd" /nonexistent/qemu-system-x86_64
run_qmigrate 3 update --mode exec --qmp "$TMP/g.qmp" --to "file:$TMP/vm.state" \
	--new-command "$TMP/new.cmd" --status-file "$TMP/missing.status"
expect_status "$TMP/missing.status" .phase Failed
expect_status "$TMP/missing.status" .exitCode 3
status_get "$TMP/missing.status" .failureReason | grep -q "execvp /nonexistent/qemu-system-x86_64 failed" ||
	fail "failureReason: $(status_get "$TMP/missing.status" .failureReason)"
qmp g query-migrate-parameters | grep -q '"mode": "normal"' ||
	fail "the mode was not put back: $(qmp g query-migrate-parameters | grep mode)"
cpr_running g || fail "the guest does not run after the failed exec: $(qmp g query-status)"
assert_memory_intact "$TMP/g.serial"

# 5. A command line without -incoming is refused before anything moves.
printf '%s\n' /usr/bin/qemu-system-x86_64 "${CPR_EXEC_ARGS[@]}" >"$TMP/bad.cmd"
run_qmigrate 1 update --mode exec --qmp "$TMP/g.qmp" --to "file:$TMP/vm.state" \
	--new-command "$TMP/bad.cmd"
one_line_err "no -incoming file:$TMP/vm.state: the new QEMU would boot a second, fresh guest"
echo "ok: update --mode exec keeps the pid and every page, its pause measured; -S: cont unless paused before; a failed exec leaves QEMU running, mode normal"
