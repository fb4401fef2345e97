#!/usr/bin/env bash
# A re-run over local disks whose mirror ended while no qmigrate watched
# (04d09ad; sim-real D1, seeds 417 7793): unix:, a local qcow2 disk
# (tests/disk-lib.sh).  migrate is SIGKILLed once memory moves (the mirror
# in sync); then, unwatched, the mirror ends (block-job-cancel with force:
# the job is dismissed as a broken NBD link's failure is, and QEMU keeps
# no word of how it ended), the guest's disk device writes 1 MiB that the
# target never gets, and QEMU migrates on alone to the switchover, where it
# waits in pre-switchover (migrate sets pause-before-switchover) for the
# re-run's migrate-continue.  The re-run
# with the same --status-file: exit 8 (not 0), Failed plane unknown, the
# same migrationUid, a failureReason naming the disk and saying that
# whether the target's disks hold every write is not known.  And that is
# what happened: once both QEMUs quit, the source's image holds the write
# and the target's does not.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/disk-lib.sh"
setup_tmp

st=$TMP/src.status
disk_pair 64 2 64M 64M
mig_policy disks '{ "blockMigration": "auto", "bandwidthPerMigration": "4Mi" }'
mig_incoming --policy "$TMP/disks.json"
mig_migrate --policy "$TMP/disks.json"
wait_for 60 "memory moving after the disk" eval \
	'status_is "$st" .progress.qemuStatus active && moved_mib 2'
kill -KILL "$(guest_pid migrate)"
wait_for 10 "the first migrate gone" _lib_gone "$(guest_pid migrate)"
uid=$(status_get "$st" .migrationUid)
# Slow enough that the mirror's end and the write come before completion.
mon src migrate-set-parameters '{"max-bandwidth": 524288}' >/dev/null
expect_qemu_mig src "after the kill" active

# Unwatched: the mirror ends, then the guest's device writes.
mon src block-job-cancel '{"device": "qm-mirror-data", "force": true}' >/dev/null
wait_for 30 "the mirror job gone" no_disk_jobs src
hmp_write 20 1 0xa5
expect_qemu_mig src "after the write" active
mon src migrate-set-parameters '{"max-bandwidth": 1073741824}' >/dev/null
wait_for 120 "the source QEMU waiting in pre-switchover" eval \
	'[ "$(qemu_mig_status src)" = pre-switchover ]'

bg_start again "$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/mig.sock" \
	--status-file "$st" --policy "$TMP/disks.json" --events
expect_exit again 8 60
expect_failed "$st" 8 unknown "re-run"
expect_status "$st" .migrationUid "$uid" "re-run"
# (QEMU waited in pre-switchover, so the re-run re-attached and saw the
# mirror gone as a reconnect does: "ended unseen"; QEMU completed before it
# came: "ended while no qmigrate watched it".)
status_get "$st" .failureReason | grep -Eq "disk data \($TMP/src.qcow2\): its mirror ended (unseen|while no qmigrate watched it).*(not known|may miss writes)" ||
	fail "re-run: failureReason: $(status_get "$st" .failureReason)"
echo "ok: the re-run says 8: $(status_get "$st" .failureReason)"

# What the 8 was about: the target's copy misses the write.  incoming
# cannot see the source's mirrors (docs/failures.md: over unix: its 0 with
# local disks rests on the source's document); it ends once its exports'
# 60 s release bound passes (the killed run's NBD node holds them).
bg_wait incoming 90 || true
echo "incoming ended: $(status_get "$TMP/dst.status" .phase) $(status_get "$TMP/dst.status" .exitCode)"
assert_write_missed
echo "ok: the target's image misses the write made after the mirror ended, the source's holds it"
