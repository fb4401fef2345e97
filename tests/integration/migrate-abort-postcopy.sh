#!/usr/bin/env bash
# Abort refused in post-copy: once the source says mode PostCopy the target
# holds the guest, so `qmigrate abort` exits 5 with abortStatus Failed, the
# migration goes on and completes, and the guest arrives intact.  (10 MiB/s
# and 64 MiB: post-copy lasts ~7 s, long enough to ask.)
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

mig_policy busy '{ "bandwidthPerMigration": "10Mi", "allowPostCopy": true }'
mig_start_pair 64 200
mig_incoming --policy "$TMP/busy.json"
mig_migrate --policy "$TMP/busy.json"
wait_for 60 "source in post-copy" status_is "$TMP/src.status" .mode PostCopy

rc=0
"$QMIGRATE" abort --status-file "$TMP/src.status" >"$TMP/abort.out" 2>"$TMP/abort.err" || rc=$?
[ "$rc" -eq 5 ] || fail "qmigrate abort exited $rc, expected 5: $(cat "$TMP/abort.err")"
grep -qx 'abortStatus: Failed' "$TMP/abort.out" ||
	fail "qmigrate abort printed: $(cat "$TMP/abort.out")"
# The abort was refused while the migration still ran.
[ "$(status_get "$TMP/src.status" .phase)" = Running ] ||
	fail "the migration ended before the abort was answered: test proves nothing"

expect_moved 90 30

st=$TMP/src.status
expect_status "$st" .completed true
expect_status "$st" .abortRequested true
expect_status "$st" .abortStatus Failed
expect_status "$st" .failed false
status_get "$st" '.notes[]' | grep -q 'abort refused: post-copy has started' ||
	fail "no note says why the abort was refused: $(status_get "$st" .notes)"
echo "ok: abort refused in post-copy, the guest arrived ($(last_progress "$TMP/dst.serial"))"
