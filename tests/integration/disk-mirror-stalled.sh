#!/usr/bin/env bash
# The target's NBD server stops answering while the disk is mirrored (the
# target QEMU is SIGSTOPped: a stalled peer, audit D22).  Before, only the
# whole copy's bound (60 s + completionTimeoutPerGiB per GiB, unbounded
# with 0) ended it.  Now progressTimeout bounds a copy that stands still:
# qmigrate migrate exits 4 (data plane) within it and a little, naming
# progressTimeout, no memory was sent, and the guest keeps running on the
# source on its own disk.  Whether writes of the job were in flight when
# the target stopped depends on the machine's load (the 1 MiB/s copy's
# first burst is slow under it): both outcomes are asserted
# (assert_stalled_copy_ended; disk-mirror-inflight.sh makes the second one
# every time).
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
assert_stalled_copy_ended "$(date +%s)"
end_stalled_target
quit_guest src
assert_image_holds "$TMP/src.qcow2" "source image damaged" 0x5a 0 16M
echo "ok: a stalled disk copy ended within progressTimeout ($disk_outcome), the guest on the source"
