#!/usr/bin/env bash
# multifd: parallelMigrationThreads 4 on both sides moves the guest over 4
# channels (QEMU counts multifd bytes).  A policy asking for multifd and
# post-copy over unix:: QEMU 7.2 crashes the destination when post-copy
# ends on a multifd migration and 10.0 refuses the pair, and without a
# control channel neither side knows the other's QEMU, so multifd is
# dropped, the status notes say so, and the busy guest is finished by
# post-copy (over tls: the two QEMUs negotiate: migrate-negotiate.sh).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

# 1. multifd.
mig_policy multifd '{ "bandwidthPerMigration": "64Mi", "parallelMigrationThreads": 4 }'
mig_start_pair 64 20
mig_incoming --policy "$TMP/multifd.json"
mig_migrate --policy "$TMP/multifd.json"
expect_exit migrate 0 60
expect_exit incoming 0 30
assert_moved
for side in src dst; do
	[ "$(status_get "$TMP/$side.status" .migrationConfiguration.qemu.multifdChannels)" = 4 ] ||
		fail "$side status: multifdChannels $(status_get "$TMP/$side.status" .migrationConfiguration.qemu.multifdChannels)"
	mon "$side" query-migrate-capabilities |
		jq -e '.[] | select(.capability == "multifd") | .state' >/dev/null ||
		fail "$side QEMU: multifd capability not set"
	[ "$(mon "$side" query-migrate-parameters | jq -r '."multifd-channels"')" = 4 ] ||
		fail "$side QEMU: multifd-channels not 4"
done
bytes=$(mon src query-migrate | jq -r '.ram."multifd-bytes"')
[ "${bytes:-0}" -gt 0 ] || fail "the source QEMU sent no multifd bytes (${bytes:-none})"
echo "ok: multifd moved the guest, $bytes bytes over 4 channels"

# 2. multifd asked with post-copy: multifd dropped.
PAIR=b-
mig_policy both '{ "bandwidthPerMigration": "20Mi", "parallelMigrationThreads": 4,
	"allowPostCopy": true }'
mig_start_pair 64 200
mig_incoming --policy "$TMP/both.json"
mig_migrate --policy "$TMP/both.json"
expect_exit b-migrate 0 90
expect_exit b-incoming 0 30
assert_moved
for side in b-src b-dst; do
	st=$TMP/$side.status
	[ "$(status_get "$st" .migrationConfiguration.qemu.multifdChannels)" = 0 ] ||
		fail "$side status: multifdChannels $(status_get "$st" .migrationConfiguration.qemu.multifdChannels)"
	[ "$(status_get "$st" .migrationConfiguration.qemu.postCopy)" = true ] ||
		fail "$side status: postCopy not true"
	status_get "$st" '.notes[]' | grep -q '^multifd dropped: .*post-copy' ||
		fail "$side notes do not say why multifd was dropped: $(status_get "$st" .notes)"
	mon "$side" query-migrate-capabilities |
		jq -e '.[] | select(.capability == "multifd") | .state == false' >/dev/null ||
		fail "$side QEMU: multifd capability set"
done
[ "$(status_get "$TMP/b-src.status" .mode)" = PostCopy ] ||
	fail "the busy guest was not finished by post-copy (mode $(status_get "$TMP/b-src.status" .mode))"
[ "$(mon b-src query-migrate | jq -r '.ram."multifd-bytes"')" = 0 ] ||
	fail "multifd bytes sent although multifd was dropped"
echo "ok: $(status_get "$TMP/b-src.status" '.notes[0]')"
