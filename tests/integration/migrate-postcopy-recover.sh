#!/usr/bin/env bash
# A broken stream during post-copy, recovered.  QEMU's migrate-pause
# (allowed in postcopy-active) cuts the stream as a network failure would and
# both QEMUs stop in postcopy-paused; qmigrate recovers it (migrate-recover
# on the target, migrate resume on the source) and the guest arrives intact.
# (migrate-postcopy-lost.sh: the same when the target is out of reach.)
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

mig_postcopy_busy
mon src migrate-pause >/dev/null
wait_for 10 "the note of a broken stream" eval \
	'status_get "$TMP/src.status" ".notes[]" | grep -q "post-copy stream broken"'
expect_moved 90 30
status_get "$TMP/src.status" '.notes[]' | grep -q 'post-copy recovered' ||
	fail "source notes do not say post-copy recovered: $(status_get "$TMP/src.status" .notes)"
status_get "$TMP/dst.status" '.notes[]' | grep -q 'post-copy recovered' ||
	fail "target notes do not say post-copy recovered: $(status_get "$TMP/dst.status" .notes)"
expect_status "$TMP/src.status" .completed true
echo "ok: recovered ($(last_progress "$TMP/dst.serial"))"
