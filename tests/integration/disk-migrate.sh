#!/usr/bin/env bash
# A guest with a local qcow2 disk (not on shared storage) moves live with
# migration.blockMigration "auto": the pre-flight lets the disk through,
# the target exports it over NBD (unix:PATH.nbd), the source mirrors it,
# a write made while the mirror runs reaches the target, memory follows,
# and after both QEMUs quit the two images are identical.  Without the
# policy the same guest is refused (exit 2, DisksNotLiveMigratable).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/disk-lib.sh"
setup_tmp

disk_pair 64 2 64M 64M

# The default policy (blockMigration never) keeps refusing local disks.
rc=0
"$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/mig.sock" \
	>"$TMP/refused.out" 2>"$TMP/refused.err" || rc=$?
[ "$rc" -eq 2 ] || fail "local disk without blockMigration: exit $rc, expected 2"
grep -q DisksNotLiveMigratable "$TMP/refused.err" ||
	fail "refusal does not name DisksNotLiveMigratable: $(cat "$TMP/refused.err")"

# 16 MiB/s: the 64 MiB disk takes a few seconds to copy; the guest dirties
# 2 MB/s, so its memory converges at that rate too.
mig_policy disks '{ "blockMigration": "auto", "bandwidthPerMigration": "16Mi" }'
mig_incoming --policy "$TMP/disks.json"
[ -S "$TMP/mig.sock.nbd" ] || fail "no NBD socket at $TMP/mig.sock.nbd"
[ "$(mon dst query-block-exports | jq -r '.[0].id')" = data ] ||
	fail "target does not export the disk: $(mon dst query-block-exports)"
mig_migrate --policy "$TMP/disks.json"
wait_for 30 "the source's mirror job" mirroring
# While the mirror copies: a write through the guest's device.
hmp_write 32 1 0x77
[ "$(status_get "$TMP/src.status" .migrationConfiguration.blockMigration)" = auto ] ||
	fail "blockMigration not in the status configuration"

expect_moved 180 60
[ "$(status_get "$TMP/src.status" '.progress.disks["qm-mirror-data"].ready')" = true ] ||
	fail "mirror not ready in the final status: $(status_get "$TMP/src.status" .progress.disks)"
# The mirror covered the whole disk, and finished: a write that lands
# behind the mirror's position is copied again, so len may exceed the
# disk's size by what was rewritten (the 1 MiB write above, or not).  QEMU
# 11.1's mirror counts only the blocks that hold data (it skips what the
# new image already reads as zero): the 16 MiB written first and the 1 MiB
# write (the images are compared below).
len=$(status_get "$TMP/src.status" '.progress.disks["qm-mirror-data"].len')
off=$(status_get "$TMP/src.status" '.progress.disks["qm-mirror-data"].offset')
[ "$len" -ge 17825792 ] && [ "$len" -le $((67108864 + 1048576)) ] ||
	fail "mirror length $len: not the disk's data or size (plus at most the rewrite)"
[ "$off" = "$len" ] || fail "mirror at $off of $len at the end"
jq -e '.conditions[0].warnings[] | select(.reason == "DiskCopied")' "$TMP/src.status" >/dev/null ||
	fail "pre-flight did not report the copied disk"
assert_no_disk_jobs src
assert_no_exports

# Every block written before and during the migration is on the target.
quit_guest src
quit_guest dst
qemu-img compare -q "$TMP/src.qcow2" "$TMP/dst.qcow2" ||
	fail "source and target images differ"
assert_image_holds "$TMP/dst.qcow2" "target image lacks the data" 0x5a 0 16M 0x77 32M 1M
echo "ok: the local disk moved with the guest, images identical"
