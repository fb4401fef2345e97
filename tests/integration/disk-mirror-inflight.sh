#!/usr/bin/env bash
# disk-mirror-stalled.sh with the mirror's writes in flight when the target
# QEMU stops (what made that test fail in a loaded run): 48 MiB of data at
# 4 MiB/s; QEMU's mirror sends a first burst (its 16 MiB buffer), sleeps for
# the rate limit, and the target stops in that sleep, so the next burst's
# NBD writes fill the socket and wait on a peer that reads nothing.  QEMU
# 7.2's yank does not wake such a write and a forced block-job-cancel waits
# for it: migrate exits 4 within progressTimeout and 20 s, the guest
# running on the source, and names the job and NBD node left on the source
# and what ends them (assert_stalled_copy_ended).  On 7.2 the job is left
# every time; a QEMU that ends it passes the other branch.
#
# Then the operator retries (issue 38).  While the job still runs, a retry
# to a fresh target is refused: exit 3, one line naming the job, the job
# and its node untouched, the guest on the source.  Once the stopped target
# is killed the job ends but its NBD node qm-nbd-data stays on the source;
# before, a retry then failed on blockdev-add's duplicate node name until
# someone ran blockdev-del by hand.  Now the retry removes the node, says
# so, and the guest moves to a fresh target with every page and the
# source's whole disk.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
DISK_DATA_MIB=48
. "$top_srcdir/tests/disk-lib.sh"
setup_tmp

# The first burst has been copied: offset moved, the job sleeps.
first_burst_copied() {
	mon src query-block-jobs | jq -e '.[0].offset > 0' >/dev/null
}

# has_nbd_node: the source QEMU holds the NBD client node qm-nbd-data.
has_nbd_node() {
	mon src query-named-block-nodes |
		jq -e 'any(.[]; .["node-name"] == "qm-nbd-data")' >/dev/null
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

mig_policy retry '{ "blockMigration": "auto" }'
if [ "$disk_outcome" = job-kept ]; then
	# A retry while the job runs: refused, nothing done on the source.
	disk_target early retry
	disk_retry early-migrate early retry
	expect_exit early-migrate 3 60
	# The job's status as QEMU lists it (7.2: running, its writes hang).
	grep -qE "the source QEMU still runs mirror job qm-mirror-data \([a-z]+\) of an earlier run, on its NBD node qm-nbd-data: it ends when that NBD connection breaks \(the earlier target QEMU discarded\); nothing done" "$TMP/early-migrate.err" ||
		fail "the refused retry does not name the job left: $(cat "$TMP/early-migrate.err")"
	expect_status "$TMP/early-migrate.status" .failurePlane control
	if no_disk_jobs src; then
		fail "the refused retry ended the earlier run's mirror job"
	fi
	has_nbd_node || fail "the refused retry removed the NBD node of a running job"
	expect_qemu_mig src "refused retry" none
	assert_stayed
	kill -TERM "$(guest_pid early-incoming)"
	expect_exit early-incoming 5 30
	quit_guest early
fi

# The stopped target killed: the job ends; its NBD node stays until the
# retry's start removes it.
end_stalled_target
if [ "$disk_outcome" = job-kept ]; then
	has_nbd_node || fail "the NBD node went with the job: the retry has nothing to remove"
fi
disk_target fresh retry
disk_retry retry-migrate fresh retry
expect_exit retry-migrate 0 180
expect_exit fresh-incoming 0 60
if [ "$disk_outcome" = job-kept ]; then
	grep -qF "removed node qm-nbd-data, left on the source QEMU by an earlier run (no block job used it)" "$TMP/retry-migrate.err" ||
		fail "the retry does not say it removed the earlier run's node: $(cat "$TMP/retry-migrate.err")"
fi
[ "$(run_state fresh)" = running ] || fail "fresh is $(run_state fresh), not running"
[ "$(run_state src)" = postmigrate ] || fail "src is $(run_state src), not postmigrate"
assert_memory_intact "$TMP/fresh.serial"
assert_no_corrupt "$TMP/src.serial"
assert_no_disk_jobs src
quit_guest src
quit_guest fresh
assert_image_holds "$TMP/src.qcow2" "source image damaged" 0x5a 0 48M
qemu-img compare -q "$TMP/src.qcow2" "$TMP/fresh.qcow2" ||
	fail "source and fresh target images differ"
echo "ok: writes in flight to a stopped target: exit 4 within progressTimeout ($disk_outcome); a retry refused while the job ran, then one to a fresh target moved the guest"
