#!/usr/bin/env bash
# The target QEMU killed during pre-copy: the source's stream breaks, so
# migrate exits 4 (data plane) saying so, and the guest runs on on the
# source with its memory intact; the target's qmigrate incoming reports its
# QEMU gone (exit 4).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

mig_stuck
wait_for 30 "the source migrating" status_is "$TMP/src.status" .progress.qemuStatus active
wait_for 30 "4 MiB migrated" moved_mib 4
kill_guest dst

expect_exit migrate 4 30
st=$TMP/src.status
[ "$(status_get "$st" .failurePlane)" = data ] || fail "failurePlane $(status_get "$st" .failurePlane)"
[ "$(status_get "$st" .phase)" = Failed ] || fail "phase $(status_get "$st" .phase)"
[ "$(status_get "$st" .abortRequested)" = false ] || fail "abortRequested not false"
status_get "$st" .failureReason | grep -q 'migration stream failed' ||
	fail "failureReason: $(status_get "$st" .failureReason)"
grep -q 'migration stream failed' "$TMP/migrate.err" || fail "no failure line on stderr"
[ "$(mon src query-migrate | jq -r .status)" = failed ] || fail "source QEMU's migration is not failed"
assert_stayed

expect_exit incoming 4 30
[ "$(status_get "$TMP/dst.status" .failurePlane)" = data ] ||
	fail "target failurePlane $(status_get "$TMP/dst.status" .failurePlane)"
echo "ok: target killed, the guest runs on on the source: $(status_get "$st" .failureReason)"
