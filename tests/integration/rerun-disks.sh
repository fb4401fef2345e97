#!/usr/bin/env bash
# A re-run after qmigrate migrate was killed while disks were copied
# (issue 30, audit D18: the re-attach forgot the mirrors, and while the
# disks copied QEMU has no migration, so the re-run started a second one
# over the open record, under a new uid, and failed on blockdev-add
# "Duplicate node-name qm-nbd-data" while the old mirror ran on).  unix:,
# a local qcow2 disk (tests/disk-lib.sh).
# 1. SIGKILL while the disk's mirror copies, no memory moved yet: the
#    same command with the same --status-file closes the record: exit 4,
#    the same migrationUid, Failed plane data, a failureReason saying QEMU
#    has no migration; no new migration, no "Duplicate node-name"; the
#    mirror it left is cancelled and its NBD node removed; the guest runs
#    on the source, every page intact; the target never ran it.
# 2. SIGKILL once memory moves (the mirror in sync): the re-run
#    re-attaches, takes the mirror as its own, and ends it with the
#    migration: exit 0, incoming 0, no mirror job or NBD node left on the
#    source, the guest on the target, every page intact, and after both
#    QEMUs quit the images are identical.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/disk-lib.sh"
setup_tmp

# 1. Killed during the disk copy (1 MiB/s: it lasts the whole case).
disk_mirror_slow
st=$TMP/src.status
kill -KILL "$(guest_pid migrate)"
wait_for 10 "the first migrate gone" _lib_gone "$(guest_pid migrate)"
uid=$(status_get "$st" .migrationUid)
expect_qemu_mig src "after the kill" none
[ "$(mon src query-block-jobs | jq -r '.[0].device')" = qm-mirror-data ] ||
	fail "the mirror is not running after the kill: $(mon src query-block-jobs)"
bg_start again "$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/mig.sock" \
	--status-file "$st" --policy "$TMP/disks.json" --events
expect_exit again 4 90
! grep -q 'Duplicate node-name' "$TMP/again.err" ||
	fail "the re-run tried a second migration: $(tail -n 1 "$TMP/again.err")"
expect_failed "$st" 4 data "re-run"
expect_status "$st" .migrationUid "$uid" "re-run"
status_get "$st" .failureReason | grep -q 'QEMU has no migration' ||
	fail "re-run: failureReason: $(status_get "$st" .failureReason)"
d=$(run_state dst)
[ "$d" != running ] || fail "the target QEMU runs the guest"
assert_disk_kept data
disk_target_stop
echo "ok: killed during the disk copy: the re-run closed $uid, the mirror ended, the guest on the source"

# 2. Killed in pre-copy, the mirror in sync: re-attached with it.
PAIR=b-
st=$TMP/b-src.status
disk_pair 64 2 64M 64M
mig_policy bdisks '{ "blockMigration": "auto", "bandwidthPerMigration": "4Mi" }'
mig_incoming --policy "$TMP/bdisks.json"
mig_migrate --policy "$TMP/bdisks.json"
wait_for 60 "memory moving after the disk" eval \
	'status_is "$st" .progress.qemuStatus active && moved_mib 2'
kill -KILL "$(guest_pid b-migrate)"
wait_for 10 "the first migrate gone" _lib_gone "$(guest_pid b-migrate)"
uid=$(status_get "$st" .migrationUid)
expect_qemu_mig b-src "after the kill" active
bg_start b-again "$QMIGRATE" migrate --qmp "$TMP/b-src.qmp" --to "unix:$TMP/b-mig.sock" \
	--status-file "$st" --policy "$TMP/bdisks.json" --events
expect_exit b-again 0 120
expect_status "$st" .migrationUid "$uid" "re-attach"
status_get "$st" '.notes[]' | grep -q 'mirrors the earlier run left' ||
	fail "re-attach: no note about the mirror it took over: $(status_get "$st" .notes)"
expect_exit b-incoming 0 45
assert_no_disk_jobs b-src
assert_moved
quit_guest b-src
quit_guest b-dst
qemu-img compare -q "$TMP/b-src.qcow2" "$TMP/b-dst.qcow2" ||
	fail "source and target images differ"
echo "ok: re-attached with the disk's mirror: exit 0, the mirror ended, images identical"
