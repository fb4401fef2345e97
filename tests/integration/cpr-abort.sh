#!/usr/bin/env bash
# qmigrate update and SIGTERM: at the start (the setup) and before
# switchover (held, as cpr_update_held says), and --timeout passing before
# switchover: the update is cancelled on the old QEMU: exit 5, abortStatus
# Succeeded, the guest runs on the old QEMU only, intact.  (Once the old QEMU completed an abort is refused:
# test-session's cpr rows; real QEMU completes in about 150 ms.)
. "$top_srcdir/tests/cpr-lib.sh"
cpr_test_begin 10.0
cpr_pair 64 20

# PID runs qmigrate and catches SIGTERM (SigCgt bit 15): main() took the
# signals (before, the dynamic loader runs, which no program can guard).
_cpr_is_qmigrate() {
	local m
	[ "$(readlink "/proc/$1/exe" 2>/dev/null)" = "$(readlink -f "$QMIGRATE")" ] || return 1
	m=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2>/dev/null) || return 1
	[ -n "$m" ] && (( (16#$m >> 14) & 1 ))
}

# At once: the signal reaches the setup.
cpr_update early
_lib_pid_of early
wait_for 10 "qmigrate to start" _cpr_is_qmigrate "$_lib_pid"
kill -TERM "$_lib_pid"
expect_exit early 5 60
expect_status "$TMP/update.status" .abortStatus Succeeded
mon old query-status | grep -q '"status": "running"' || fail "the old QEMU does not run the guest"

# Held before switchover, with another new QEMU (the first took its cpr
# channel).
kill_guest new
CPR_NEW=new2
cpr_start_new new2 64 defer -qmp "unix:$TMP/new2.mon,server=on,wait=off"
cpr_update_held held
_lib_pid_of held
kill -TERM "$_lib_pid"
expect_exit held 5 60
expect_status "$TMP/update.status" .phase Failed
expect_status "$TMP/update.status" .abortStatus Succeeded
expect_status "$TMP/update.status" .abortRequested true
cpr_guest_on_old

# --timeout passing before switchover (held again, a third new QEMU).
kill_guest new2
CPR_NEW=new3
cpr_start_new new3 64 defer -qmp "unix:$TMP/new3.mon,server=on,wait=off"
cpr_update late --timeout 5
expect_exit late 5 60
expect_status "$TMP/update.status" .abortStatus Succeeded
expect_status "$TMP/update.status" .abortRequested false
status_get "$TMP/update.status" .failureReason | grep -q "deadline" ||
	fail "failureReason: $(status_get "$TMP/update.status" .failureReason)"
cpr_guest_on_old
echo "ok: SIGTERM at the start and before switchover, --timeout before switchover: the guest runs on the old QEMU"
