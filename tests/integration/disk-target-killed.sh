#!/usr/bin/env bash
# The target QEMU is killed while the disk is being mirrored: the mirror
# fails, qmigrate migrate exits 4 (data plane) naming the disk, no memory
# was sent, the mirror job and the NBD node are gone, and the guest keeps
# running on the source on its own disk, intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/disk-lib.sh"
setup_tmp

disk_pair 64 50 64M 64M
# 1 MiB/s: the copy is still running when the target dies.
mig_policy disks '{ "blockMigration": "auto", "bandwidthPerMigration": "1Mi" }'
mig_incoming --policy "$TMP/disks.json"
mig_migrate --policy "$TMP/disks.json"
wait_for 30 "the source's mirror job" mirroring
kill_guest dst KILL
expect_exit migrate 4 60
grep -q "copy of disk data (.*src.qcow2) failed" "$TMP/migrate.err" ||
	fail "failure does not name the disk: $(cat "$TMP/migrate.err")"
[ "$(status_get "$TMP/src.status" .failurePlane)" = data ] ||
	fail "failurePlane $(status_get "$TMP/src.status" .failurePlane)"
[ "$(mon src query-migrate | jq -r '.status // "none"')" = none ] ||
	fail "the source QEMU sent memory"
assert_no_disk_jobs src
assert_stayed
expect_exit incoming 4 30

quit_guest src
qemu-io -c "read -q -P 0x5a 0 16M" "$TMP/src.qcow2" >"$TMP/verify.out" 2>&1
if grep -q "Pattern verification failed" "$TMP/verify.out"; then
	fail "source image damaged: $(cat "$TMP/verify.out")"
fi
echo "ok: the target killed during the mirror left the source as it was"
