#!/usr/bin/env bash
# Abort while the disk is being mirrored (SIGTERM to qmigrate migrate):
# exit 5, the mirror job cancelled and the NBD node removed, the guest runs
# on the source on its own disk, which writes still reach; the target,
# told to stop, removes its export and NBD socket.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/disk-lib.sh"
setup_tmp

disk_pair 64 50 64M 64M
# 1 MiB/s: 16 MiB take far longer than the test waits.
mig_policy disks '{ "blockMigration": "auto", "bandwidthPerMigration": "1Mi" }'
mig_incoming --policy "$TMP/disks.json"
mig_migrate --policy "$TMP/disks.json"
wait_for 30 "the source's mirror job" mirroring
[ "$(mon src query-block-jobs | jq -r '.[0].device')" = qm-mirror-data ] ||
	fail "no mirror job in the source QEMU"
kill -TERM "$(guest_pid migrate)"
expect_exit migrate 5 60
[ "$(status_get "$TMP/src.status" .abortStatus)" = Succeeded ] ||
	fail "abortStatus $(status_get "$TMP/src.status" .abortStatus)"
assert_no_disk_jobs src
assert_stayed
hmp_write 40 1 0x33

kill -TERM "$(guest_pid incoming)"
expect_exit incoming 5 30
[ "$(mon dst query-block-exports | jq length)" = 0 ] || fail "target still exports disks"
[ ! -e "$TMP/mig.sock.nbd" ] || fail "NBD socket left on the target"

# The source's own image holds everything, the write after the abort too.
quit_guest src
qemu-io -c "read -q -P 0x5a 0 16M" -c "read -q -P 0x33 40M 1M" "$TMP/src.qcow2" >"$TMP/verify.out" 2>&1
if grep -q "Pattern verification failed" "$TMP/verify.out"; then
	fail "source image damaged: $(cat "$TMP/verify.out")"
fi
echo "ok: abort during the mirror left the guest and its disk on the source"
