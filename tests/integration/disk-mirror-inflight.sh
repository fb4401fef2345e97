#!/usr/bin/env bash
# disk-mirror-stalled.sh with the mirror's writes in flight when the target
# QEMU stops (what made that test fail in a loaded run): 48 MiB of data at
# 4 MiB/s; QEMU's mirror sends a first burst (its 16 MiB buffer), sleeps for
# the rate limit, and the target stops in that sleep, so the next burst's
# NBD writes fill the socket and wait on a peer that reads nothing.  QEMU
# 7.2's yank does not wake such a write and a forced block-job-cancel waits
# for it: before, migrate waited 60 s more for the job after progressTimeout
# (exit 4 some 71 s after the stop) and said only "mirror jobs still running
# after 60 s".  Now it exits 4 within progressTimeout and 20 s, the guest
# running on the source, and names the job and NBD node left on the source
# and what ends them (assert_stalled_copy_ended).  On 7.2 the job is left
# every time; a QEMU that ends it passes the other branch.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
DISK_DATA_MIB=48
. "$top_srcdir/tests/disk-lib.sh"
setup_tmp

# The first burst has been copied: offset moved, the job sleeps.
first_burst_copied() {
	mon src query-block-jobs | jq -e '.[0].offset > 0' >/dev/null
}

disk_pair 64 50 64M 64M
mig_policy stall '{ "blockMigration": "auto", "bandwidthPerMigration": "4Mi",
	"completionTimeoutPerGiB": 0, "progressTimeout": 10 }'
mig_incoming --policy "$TMP/stall.json"
mig_migrate --policy "$TMP/stall.json"
wait_for 40 "the mirror's first burst" first_burst_copied
stop_guest dst
assert_stalled_copy_ended "$(date +%s)"
case ${QEMU_SRC_VERSION:-7.2} in
7.2)	[ "$disk_outcome" = job-kept ] ||
		fail "QEMU 7.2 ended a job whose writes wait on a stopped peer: this test no longer makes what it tests" ;;
esac
quit_guest src
assert_image_holds "$TMP/src.qcow2" "source image damaged" 0x5a 0 48M
echo "ok: writes in flight to a stopped target: exit 4 within progressTimeout ($disk_outcome), the guest on the source"
