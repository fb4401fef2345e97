#!/usr/bin/env bash
# Abort while the disk is being mirrored (SIGTERM to qmigrate migrate):
# exit 5, the mirror job cancelled and the NBD node removed, the guest runs
# on the source on its own disk, which writes still reach; the target,
# told to stop, removes its export and NBD socket.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/disk-lib.sh"
setup_tmp

disk_mirror_slow
[ "$(mon src query-block-jobs | jq -r '.[0].device')" = qm-mirror-data ] ||
	fail "no mirror job in the source QEMU"
kill -TERM "$(guest_pid migrate)"
expect_exit migrate 5 60
expect_status "$TMP/src.status" .abortStatus Succeeded
assert_no_disk_jobs src
assert_stayed
hmp_write 40 1 0x33

disk_target_stop

# The source's own image holds everything, the write after the abort too.
quit_guest src
assert_image_holds "$TMP/src.qcow2" "source image damaged" 0x5a 0 16M 0x33 40M 1M
echo "ok: abort during the mirror left the guest and its disk on the source"
