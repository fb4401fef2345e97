#!/usr/bin/env bash
# The target's NBD server stops answering while the disk is mirrored (the
# target QEMU is SIGSTOPped: a stalled peer, audit D22).  Before, only the
# whole copy's bound (60 s + completionTimeoutPerGiB per GiB, unbounded
# with 0) ended it.  Now progressTimeout bounds a copy that stands still:
# qmigrate migrate exits 4 (data plane) within it and a little, naming
# progressTimeout, no memory was sent, the mirror job and the NBD node are
# gone, and the guest keeps running on the source on its own disk.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/disk-lib.sh"
setup_tmp

disk_pair 64 50 64M 64M
# completionTimeoutPerGiB 0: no bound on the whole copy; progressTimeout
# 10 s alone must end it.
mig_policy stall '{ "blockMigration": "auto", "bandwidthPerMigration": "1Mi",
	"completionTimeoutPerGiB": 0, "progressTimeout": 10 }'
mig_incoming --policy "$TMP/stall.json"
mig_migrate --policy "$TMP/stall.json"
wait_for 30 "the source's mirror job" mirroring
stop_guest dst
stopped_at=$(date +%s)
expect_exit migrate 4 60
took=$(($(date +%s) - stopped_at))
echo "migrate exited 4 ${took} s after the target QEMU stopped: $(status_get "$TMP/src.status" .failureReason)"
[ "$took" -le 30 ] ||
	fail "the stalled copy ended ${took} s after the stall, progressTimeout is 10 s"
status_get "$TMP/src.status" .failureReason | grep -q 'no progress for .* (progressTimeout)' ||
	fail "failure does not name progressTimeout: $(status_get "$TMP/src.status" .failureReason)"
assert_disk_kept data

# The node agent's cleanup of the target (SIGKILL ends a stopped QEMU).
kill_guest dst KILL
bg_wait incoming 30 || true
quit_guest src
assert_image_holds "$TMP/src.qcow2" "source image damaged" 0x5a 0 16M
echo "ok: a stalled disk copy ended within progressTimeout, the guest on the source"
