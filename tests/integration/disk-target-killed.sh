#!/usr/bin/env bash
# The target QEMU is killed while the disk is being mirrored: the mirror
# fails, qmigrate migrate exits 4 (data plane) naming the disk, no memory
# was sent, the mirror job and the NBD node are gone, and the guest keeps
# running on the source on its own disk, intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/disk-lib.sh"
setup_tmp

# 1 MiB/s: the copy is still running when the target dies.
disk_mirror_slow
kill_guest dst KILL
expect_exit migrate 4 60
grep -q "copy of disk data (.*src.qcow2) failed" "$TMP/migrate.err" ||
	fail "failure does not name the disk: $(cat "$TMP/migrate.err")"
assert_disk_kept data
expect_exit incoming 4 30

quit_guest src
assert_image_holds "$TMP/src.qcow2" "source image damaged" 0x5a 0 16M
echo "ok: the target killed during the mirror left the source as it was"
