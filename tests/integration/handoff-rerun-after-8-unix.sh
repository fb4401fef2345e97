#!/usr/bin/env bash
# Issue 30, window "the re-run the README prescribes after exit 8 says exit
# 2" (audit D5): over unix:, the source's monitor drops in pre-copy and
# refuses every connection for 40 s, so migrate exits 8 (outcome unknown:
# right).  QEMU knows nothing of it and migrates on alone to the
# switchover, where it waits in pre-switchover, the guest stopped on the
# source only (migrate sets pause-before-switchover).  Then the same
# command with the same --status-file, as the README
# tells the operator.  Before the fix it answered exit 2 "already migrated
# its guest away: nothing to migrate" and overwrote the record.
# The fake: tests/qmp-relay in front of the SOURCE's monitor hangs up on
# SIGUSR1 and refuses new connections for 40 s: a real QEMU never drops its
# monitor.  The re-run goes through the same relay once it accepts again.
# What a user must see: migrate exits 8 (Failed, exitCode 8); incoming
# exits 0; the re-run exits 0 and the record says Succeeded, exitCode 0,
# under the same migrationUid; the guest never runs on both QEMUs and runs
# on the target with every page intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp
st=$TMP/src.status

# 64 MiB at 4 MiB/s of a lightly busy guest: ~17 s of pre-copy.
mig_policy slower '{ "bandwidthPerMigration": "4Mi" }'
hand_pair 64 2
mig_incoming --policy "$TMP/slower.json"
relay_before relay src --refuse-for 40
hand_sample
MIG_QMP=$TMP/relay.sock mig_migrate --policy "$TMP/slower.json"
wait_for 30 "4 MiB migrated" moved_mib 4
[ "$(qemu_mig_status src)" = active ] || fail "the migration is $(qemu_mig_status src) at the cut"
kill -USR1 "$(guest_pid relay)"
exit_of migrate 45
[ "$RC" -eq 8 ] || fail "the monitor lost for 40 s: migrate exited $RC, expected 8: $(doc_says "$st")"
expect_doc "$st" "first run" Failed 8
uid=$(status_get "$st" .migrationUid)
# QEMU migrates on alone, up to its wait for a migrate-continue.
wait_for 60 "the source QEMU waiting in pre-switchover" eval \
	'[ "$(qemu_mig_status src)" = pre-switchover ]'
assert_never_both "first run's 8"
[ "$SRC_STATE" = finish-migrate ] && [ "$DST_STATE" = inmigrate ] ||
	fail "in pre-switchover: source $SRC_STATE, target $DST_STATE"
echo "first run: exit 8 ($(doc_says "$st")); QEMU waits in pre-switchover, the guest stopped on the source"

# The same command again, once the monitor (through the relay) answers.
wait_for 40 "the relay to accept again" eval \
	'"$QMIGRATE" qmp --qmp "$TMP/relay.sock" query-status >/dev/null 2>&1'
bg_start again "$QMIGRATE" migrate --qmp "$TMP/relay.sock" \
	--to "unix:$TMP/mig.sock" --status-file "$st" --events \
	--policy "$TMP/slower.json"
exit_of again 60
m=$RC
echo "re-run: exit $m ($(doc_says "$st")): $(tail -n 1 "$TMP/again.err")"
assert_never_both "re-run after 8"
[ "$m" -eq 0 ] || fail "re-run after 8: exit $m, expected 0: $(doc_says "$st")"
exit_of incoming 60
[ "$RC" -eq 0 ] || fail "incoming exited $RC: $(doc_says "$TMP/dst.status")"
expect_doc "$st" re-run Succeeded 0
[ "$(status_get "$st" .migrationUid)" = "$uid" ] ||
	fail "re-run: migrationUid $(status_get "$st" .migrationUid), the record's was $uid"
assert_on_target "re-run after 8"
echo "ok: the re-run after exit 8 went on from QEMU's pre-switchover: exit 0, Succeeded"
