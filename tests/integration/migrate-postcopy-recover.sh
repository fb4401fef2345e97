#!/usr/bin/env bash
# A broken stream during post-copy, recovered.  QEMU's migrate-pause
# (allowed in postcopy-active) cuts the stream as a network failure would and
# both QEMUs stop in postcopy-paused; qmigrate recovers it (migrate-recover
# on the target, migrate resume on the source) and the guest arrives intact.
# (migrate-postcopy-lost.sh: the same when the target is out of reach.)
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

# 10 MiB/s and 64 MiB: post-copy lasts ~10 s, time to break it.
mig_policy busy '{ "bandwidthPerMigration": "10Mi", "allowPostCopy": true }'

# in_postcopy: the source QEMU has been in post-copy for a few MiB.
in_postcopy() {
	local st=$TMP/src.status
	status_is "$st" .progress.qemuStatus postcopy-active &&
		[ "$(status_get "$st" .progress.postCopyRequests)" -gt 0 ]
}

mig_start_pair 64 200
mig_incoming --policy "$TMP/busy.json"
mig_migrate --policy "$TMP/busy.json"
wait_for 60 "source in post-copy" in_postcopy
mon src migrate-pause >/dev/null
wait_for 10 "the note of a broken stream" eval \
	'status_get "$TMP/src.status" ".notes[]" | grep -q "post-copy stream broken"'
expect_exit migrate 0 90
expect_exit incoming 0 30
assert_moved
status_get "$TMP/src.status" '.notes[]' | grep -q 'post-copy recovered' ||
	fail "source notes do not say post-copy recovered: $(status_get "$TMP/src.status" .notes)"
status_get "$TMP/dst.status" '.notes[]' | grep -q 'post-copy recovered' ||
	fail "target notes do not say post-copy recovered: $(status_get "$TMP/dst.status" .notes)"
[ "$(status_get "$TMP/src.status" .completed)" = true ] || fail "completed not true"
echo "ok: recovered ($(last_progress "$TMP/dst.serial"))"
