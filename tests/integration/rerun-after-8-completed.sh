#!/usr/bin/env bash
# The re-run the README prescribes after exit 8, when QEMU completed
# meanwhile (issue 30, audit D5: the re-run answered exit 2, "already
# migrated its guest away: nothing to migrate", Failed plane control, over
# the record of a migration that had succeeded).  A real QEMU never drops
# its monitor: tests/qmp-relay stands in front of the source's and hangs up
# once the switchover began (QEMU's "device", after migrate's
# migrate-continue: since migrate sets pause-before-switchover, a QEMU cut
# off before that waits in pre-switchover for a re-run), then refuses every
# connection for 40 s, so migrate exits 8 (outcome not known) while QEMU
# completes alone (unix:).
# The same command with the same --status-file then reports the success
# QEMU had: exit 0, the same migrationUid, Succeeded, a note saying so;
# no new migration; the guest runs on the target, every page intact, and
# the source QEMU is postmigrate.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp
st=$TMP/src.status

mig_policy slower '{ "bandwidthPerMigration": "4Mi" }'
mig_start_pair 64 2
mig_incoming --policy "$TMP/slower.json"
mig_relay --cut-after '"status": "device"' --refuse-for 40
MIG_QMP=$TMP/relay.sock mig_migrate --policy "$TMP/slower.json"
expect_exit migrate 8 120
grep -q 'cut after' "$TMP/relay.out" ||
	fail "the relay never saw the switchover's \"device\": the test proved nothing"
expect_failed "$st" 8 unknown "the first run"
uid=$(status_get "$st" .migrationUid)
echo "ok: the monitor lost: exit 8 ($(status_get "$st" .failureReason))"

# QEMU completes on its own; the target's incoming sees it.
wait_for 120 "the source QEMU's migration to end" _mig_qemu_ended src
expect_qemu_mig src "after the 8" completed
expect_exit incoming 0 60
before=$(mon src query-migrate | jq -c .)

# The same command again (the source's monitor itself: the relay may
# still refuse).
bg_start again "$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/mig.sock" \
	--status-file "$st" --policy "$TMP/slower.json" --events
expect_exit again 0 60
expect_status "$st" .phase Succeeded re-run
expect_status "$st" .exitCode 0 re-run
expect_status "$st" .migrationUid "$uid" re-run
status_get "$st" '.notes[]' | grep -q 'after QEMU had completed it' ||
	fail "re-run: no note says QEMU had completed it: $(status_get "$st" .notes)"
[ "$(mon src query-migrate | jq -c .)" = "$before" ] ||
	fail "re-run: QEMU's migration changed (a new one?): $(mon src query-migrate | jq -c .status)"
assert_moved
echo "ok: the re-run after 8 reported QEMU's success: exit 0, $uid Succeeded, the guest on the target"
