#!/usr/bin/env bash
# Issue 37, audit N10: a re-run's "the earlier run paused the guest" came
# from the status file alone, which can be stale by design (a write that
# fails leaves the last one that fit: "the migration goes on").  The
# kubevirt controller pauses a busy guest while the status file's disk (a
# 16 KiB tmpfs: this test needs root) is full, so the document never says
# mode Paused; migrate is SIGKILLed, the target QEMU killed, and the source
# QEMU's migration fails with the guest paused there.  Before the fix the
# re-run closed the record in mode PreCopy without cont: exit 4 "the guest
# runs on the source" while it stayed paused (b475dc5).
# What a user must see: the re-run exits 4, the same migrationUid, a note
# saying why it takes the guest as paused by the earlier run; the guest
# runs on the source again, every page intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd mount umount dd
setup_tmp

disk=$TMP/disk
mkdir "$disk"
mount -t tmpfs -o size=16k,mode=0755 qmigrate-test "$disk" ||
	fail "cannot mount a tmpfs on $disk (this test needs root)"
trap 'rc=$?; umount -l "$disk" 2>/dev/null; (exit $rc); _lib_cleanup' EXIT
st=$disk/src.status

mig_policy pause '{ "bandwidthPerMigration": "8Mi", "allowWorkloadDisruption": true,
	"completionTimeoutPerGiB": 8, "convergence": "kubevirt" }'
mig_start_pair 64 200
mig_incoming --policy "$TMP/pause.json"
bg_start migrate "$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/mig.sock" \
	--status-file "$st" --policy "$TMP/pause.json" --events
wait_for 30 "source status Running" status_is "$st" .phase Running
dd if=/dev/zero of="$disk/fill" bs=1k 2>/dev/null && fail "16 KiB tmpfs never filled up"
wait_log "$TMP/migrate.err" "status file $st: .*No space left on device.*the migration goes on" 30
# The pause decision, seen in QEMU (the document cannot say it).
wait_for 90 "the controller's pause in QEMU" eval '[ "$(run_state src)" = paused ]'
kill -KILL "$(guest_pid migrate)"
wait_for 10 "the first migrate gone" _lib_gone "$(guest_pid migrate)"
kill_guest dst
wait_for 30 "the source QEMU's migration to fail" _mig_qemu_ended src
expect_qemu_mig src "after the kill" failed cancelled
[ "$(run_state src)" = paused ] || fail "the source is $(run_state src) after the kill, not paused: the test proved nothing"
[ "$(status_get "$st" .mode)" = PreCopy ] ||
	fail "the file says mode $(status_get "$st" .mode): its write did not fail, the test proved nothing"
uid=$(status_get "$st" .migrationUid)
rm "$disk/fill"
echo "ok: killed while the guest was paused, the file still says PreCopy; QEMU's migration $(qemu_mig_status src)"

bg_start again "$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/mig.sock" \
	--status-file "$st" --policy "$TMP/pause.json" --events
expect_exit again 4 60
state=$(run_state src)
[ "$state" = running ] || fail "the source is $state after the re-run, not running: $(status_get "$st" .failureReason)"
expect_failed "$st" 4 data re-run
expect_status "$st" .migrationUid "$uid" re-run
status_get "$st" '.notes[]' | grep -q 'takes it as paused by that run' ||
	fail "re-run: no note says why it resumed the guest: $(status_get "$st" .notes)"
assert_stayed
echo "ok: the re-run found the guest paused though the file did not say so, and resumed it"
