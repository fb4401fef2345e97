#!/usr/bin/env bash
# A disk's mirror that ends while migrate's monitor connection is down
# (sim-real D1, seed 4005020): unix:, a local qcow2 disk (tests/disk-lib.sh).
# migrate reaches the source QEMU through a relay (tests/qmp-relay.c: a
# real QEMU cannot be made to drop its monitor); once memory moves with the
# mirror in sync, the relay hangs up and refuses connections for 20 s.  In
# that gap the mirror ends unseen (block-job-cancel with force on the
# test's own monitor: the job is dismissed as a broken NBD link's failure
# is, its event went nowhere migrate listens), the guest's disk device
# writes 1 MiB the target never gets, and QEMU completes the migration
# (since migrate sets pause-before-switchover, QEMU waits in pre-switchover
# for migrate's migrate-continue: the gap ends with QEMU there, and the
# reconnected migrate, which sees the STOP first, goes on to completion).
# migrate connects again and finds QEMU completed and no mirror: it must
# not take the vanished mirror for one that ended in sync (the old code
# judged completed on its view of the jobs from before the cut: 0).
# It exits 8, Failed plane unknown, the reason naming the disk; and that is
# what happened: the source's image holds the write, the target's not.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/disk-lib.sh"
setup_tmp
RELAY=$top_builddir/tests/qmp-relay

st=$TMP/src.status
disk_pair 64 2 64M 64M
mig_policy disks '{ "blockMigration": "auto", "bandwidthPerMigration": "4Mi" }'
bg_start relay "$RELAY" --refuse-for 20 "$TMP/relay.sock" "$TMP/src.qmp"
wait_log "$TMP/relay.out" '^ready' 10
mig_incoming --policy "$TMP/disks.json"
MIG_QMP=$TMP/relay.sock mig_migrate --policy "$TMP/disks.json"
wait_for 60 "memory moving after the disk" eval \
	'status_is "$st" .progress.qemuStatus active && moved_mib 2'
# The policy's 4 MiB/s leaves about 30 s of memory to send: the mirror's
# end and the write come before completion.  (No command of the test's
# own while migrate's connection is up: with one, the QEMU model's check
# of the traces must interleave two monitors, past its search's bound.)
kill -USR1 "$(guest_pid relay)"
wait_log "$TMP/relay.out" 'cut on SIGUSR1' 10
t_cut=${EPOCHREALTIME//[!0-9]/}

mon src block-job-cancel '{"device": "qm-mirror-data", "force": true}' >/dev/null
wait_for 10 "the mirror job gone" no_disk_jobs src
hmp_write 20 1 0xa5
expect_qemu_mig src "after the write" active
mon src migrate-set-parameters '{"max-bandwidth": 1073741824}' >/dev/null
wait_for 15 "the source QEMU waiting in pre-switchover" eval \
	'[ "$(qemu_mig_status src)" = pre-switchover ]'
now=${EPOCHREALTIME//[!0-9]/}
[ $(((now - t_cut) / 1000)) -lt 19000 ] ||
	fail "the gap's work took $(((now - t_cut) / 1000)) ms: the relay's 20 s refusal had ended"
grep -q 'connected again' "$TMP/migrate.err" &&
	fail "migrate connected again before QEMU reached the switchover: not the window"

expect_exit migrate 8 90
grep -q 'connected again' "$TMP/migrate.err" || fail "migrate did not connect again"
expect_failed "$st" 8 unknown
status_get "$st" .failureReason | grep -q "disk data ($TMP/src.qcow2): its mirror ended unseen" ||
	fail "failureReason: $(status_get "$st" .failureReason)"
echo "ok: migrate says 8 after the reconnect: $(status_get "$st" .failureReason)"

bg_wait incoming 90 || true
echo "incoming ended: $(status_get "$TMP/dst.status" .phase) $(status_get "$TMP/dst.status" .exitCode)"
assert_write_missed
echo "ok: the target's image misses the write made in the gap, the source's holds it"
