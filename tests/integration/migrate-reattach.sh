#!/usr/bin/env bash
# qmigrate migrate killed (SIGKILL) mid-migration: QEMU goes on migrating.
# A new qmigrate migrate with the same --status-file re-attaches to that
# migration instead of starting another (status note "re-attached", same
# migrationUid, its own pid), watches it, and can abort it cleanly: exit 5,
# the guest runs on on the source with its memory intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

mig_orphan
st=$TMP/src.status
uid=$(status_get "$st" .migrationUid)
[ "$(mon src query-migrate | jq -r .status)" = active ] ||
	fail "QEMU stopped migrating when qmigrate was killed"
moved=$(mon src query-migrate | jq -r .ram.transferred)

bg_start again "$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/mig.sock" \
	--status-file "$st" --policy "$TMP/stuck.json" --events
reattached() {
	status_get "$st" '.notes[]' | grep -q 're-attached' &&
		status_is "$st" .phase Running
}
wait_for 30 "the new qmigrate re-attached" reattached
[ "$(status_get "$st" .pid)" = "$(guest_pid again)" ] || fail "status pid is not the new qmigrate's"
[ "$(status_get "$st" .migrationUid)" = "$uid" ] ||
	fail "migrationUid changed: $uid -> $(status_get "$st" .migrationUid)"
# The same migration goes on (no second one from zero).
wait_for 30 "progress after re-attaching" \
	eval '[ "$(status_get "$st" .progress.dataProcessed)" -gt "$moved" ]'
[ "$(status_get "$st" .progress.qemuStatus)" = active ] ||
	fail "QEMU status $(status_get "$st" .progress.qemuStatus) after re-attaching"

"$QMIGRATE" abort --status-file "$st" >"$TMP/abort.out" 2>"$TMP/abort.err" ||
	fail "qmigrate abort exited $?: $(cat "$TMP/abort.err")"
grep -qx 'abortStatus: Succeeded' "$TMP/abort.out" ||
	fail "qmigrate abort printed: $(cat "$TMP/abort.out")"
expect_exit again 5 30
[ "$(status_get "$st" .abortStatus)" = Succeeded ] || fail "abortStatus $(status_get "$st" .abortStatus)"
[ "$(status_get "$st" .migrationUid)" = "$uid" ] || fail "migrationUid changed at the end"
expect_qemu_cancelled src "after the abort"
assert_stayed
expect_exit incoming 4 30
echo "ok: re-attached to $uid and aborted it; the guest runs on the source"
