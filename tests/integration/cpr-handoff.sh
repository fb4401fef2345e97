#!/usr/bin/env bash
# qmigrate update after the old QEMU completed, with the new QEMU's
# monitor held (tests/qmp-relay in front of it: a real QEMU cannot be made
# to hold its answers; it answers query-status late):
# 1. held 5 s, SIGTERM meanwhile: the abort is refused (abortStatus
#    Failed, a note), the new QEMU then says it runs the guest, the old
#    one is told quit: exit 0, the guest intact on the new QEMU.
# 2. held 45 s: no word within 30 s: exit 8, failurePlane unknown, the old
#    QEMU kept with its copy paused (postmigrate, never resumed nor told
#    quit); the guest runs on the new QEMU only.
# 3. the old QEMU's quit held 5 s (the relay in front of the old monitor),
#    SIGTERM meanwhile: refused, the old QEMU quits, exit 0.
. "$top_srcdir/tests/cpr-lib.sh"
cpr_test_begin 10.0
relay=$top_builddir/tests/qmp-relay
need_file "$relay" "tests/qmp-relay"

# held ROUND SECS: a pair, the relay holding the new QEMU's first
# query-status SECS s, and the update through it (as ROUND, --defer); the
# old QEMU has completed once the relay holds it.
held() {
	local r=$1
	cpr_start_old "old$r" 64 20 -qmp "unix:$TMP/old$r.mon,server=on,wait=off"
	cpr_start_new "new$r" 64 defer -qmp "unix:$TMP/new$r.mon,server=on,wait=off"
	bg_start "relay$r" "$relay" --hold query-status --hold-for "$2" \
		"$TMP/relay$r.sock" "$TMP/new$r.qmp"
	wait_log "$TMP/relay$r.out" '^ready' 10
	bg_start "update$r" "$QMIGRATE" update --qmp "$TMP/old$r.qmp" \
		--new-qmp "$TMP/relay$r.sock" --to "unix:$TMP/new$r.main" \
		--cpr "unix:$TMP/new$r.cpr" --defer --status-file "$TMP/update$r.status"
	wait_log "$TMP/relay$r.out" 'holding' 60
}

held 1 5
_lib_pid_of update1
kill -TERM "$_lib_pid"
expect_exit update1 0 60
expect_status "$TMP/update1.status" .phase Succeeded
expect_status "$TMP/update1.status" .abortStatus Failed
expect_status "$TMP/update1.status" .abortRequested true
status_get "$TMP/update1.status" '.notes[]' | grep -q "abort refused" ||
	fail "round 1: no note: $(status_get "$TMP/update1.status" .notes)"
wait_guest_exit old1 10
mon new1 query-status | grep -q '"status": "running"' || fail "round 1: the new QEMU: $(mon new1 query-status)"
assert_memory_intact "$TMP/new1.serial"
echo "ok: round 1: SIGTERM after the old QEMU completed was refused; the update ended (0)"

held 2 45
expect_exit update2 8 90
expect_status "$TMP/update2.status" .failurePlane unknown
mon old2 query-status | grep -q '"status": "postmigrate"' || fail "round 2: the old QEMU: $(mon old2 query-status)"
mon new2 query-status | grep -q '"status": "running"' || fail "round 2: the new QEMU: $(mon new2 query-status)"
assert_memory_intact "$TMP/new2.serial"
assert_no_corrupt "$TMP/old2.serial"
echo "ok: round 2: the new monitor silent after completion: 8, the old copy kept paused"

# 3. The old monitor behind the relay, its quit held.
cpr_start_old old3 64 20
cpr_start_new new3 64 defer -qmp "unix:$TMP/new3.mon,server=on,wait=off"
bg_start relay3 "$relay" --hold '"quit"' --hold-for 5 "$TMP/relay3.sock" "$TMP/old3.qmp"
wait_log "$TMP/relay3.out" '^ready' 10
bg_start update3 "$QMIGRATE" update --qmp "$TMP/relay3.sock" \
	--new-qmp "$TMP/new3.qmp" --to "unix:$TMP/new3.main" \
	--cpr "unix:$TMP/new3.cpr" --defer --status-file "$TMP/update3.status"
wait_log "$TMP/relay3.out" 'holding' 60
_lib_pid_of update3
kill -TERM "$_lib_pid"
expect_exit update3 0 60
expect_status "$TMP/update3.status" .phase Succeeded
expect_status "$TMP/update3.status" .abortStatus Failed
wait_guest_exit old3 10
mon new3 query-status | grep -q '"status": "running"' || fail "round 3: the new QEMU: $(mon new3 query-status)"
assert_memory_intact "$TMP/new3.serial"
echo "ok: round 3: SIGTERM while the old QEMU's quit was on its way was refused; the update ended (0)"
