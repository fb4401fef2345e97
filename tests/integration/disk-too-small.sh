#!/usr/bin/env bash
# The target's disk (32 MiB) is smaller than the source's (64 MiB): the
# source refuses before any mirror starts (exit 3, both sizes named), the
# target image is left untouched, and the source keeps running on its own
# disk with no job or NBD node left behind.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/disk-lib.sh"
setup_tmp

disk_pair 64 50 64M 32M
mig_policy disks '{ "blockMigration": "auto" }'
mig_incoming --policy "$TMP/disks.json"
mig_migrate --policy "$TMP/disks.json"
expect_exit migrate 3 60
grep -q "33554432 bytes, smaller than the source's .*src.qcow2 with 67108864 bytes" "$TMP/migrate.err" ||
	fail "refusal does not name both sizes: $(cat "$TMP/migrate.err")"
assert_disk_kept control

# The target gives up (SIGTERM): exports gone, image never written.
disk_target_stop
quit_guest dst
[ "$(qemu-img map --output=json "$TMP/dst.qcow2" | jq '[.[] | select(.data)] | length')" = 0 ] ||
	fail "data was written to the target image"
echo "ok: a too small target disk was refused before anything was copied"
