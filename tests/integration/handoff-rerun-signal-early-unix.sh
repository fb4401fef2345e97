#!/usr/bin/env bash
# Issue 37, found by tests/sim/sim-real on the fixed code (seeds 661 704
# 1573 1606 1956 2905 of 3000): over unix:, `migrate` is SIGKILLed in
# pre-copy; QEMU migrates on alone (then completed; since migrate sets
# pause-before-switchover, it waits in pre-switchover, the guest stopped,
# for the re-run's migrate-continue).  The operator runs the same migrate
# again (the README's re-run)
# and sends it SIGTERM before it has read QEMU's migration.  Before the
# fix the re-run took the signal as an abort "before the migration
# started" and exited 5 ("the guest still runs on the source") over the
# killed run's open record, while the guest ran on the target: a node
# agent trusting that 5 would restart the guest on the source.  A re-run
# cannot know there is no migration before it asked QEMU: it asks first
# (bounded by the monitor's timeouts), then applies the abort to what it
# found; here QEMU waits at the switchover, where no abort goes: the re-run
# goes on and reports the success.
# The fake: tests/qmp-relay in front of the SOURCE's monitor holds the
# re-run's qmp_capabilities 3 s (a real QEMU answers in microseconds, so
# the signal could not be made to land before the inspection otherwise).
# What a user must see: the re-run exits 0 and the record says Succeeded,
# exitCode 0, under the killed run's migrationUid; the guest never runs on
# both QEMUs and runs on the target with every page intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp
st=$TMP/src.status

# 64 MiB at 8 MiB/s of a lightly busy guest: ~8 s of pre-copy.
mig_policy slower '{ "bandwidthPerMigration": "8Mi" }'
hand_pair 64 2
mig_incoming --policy "$TMP/slower.json"
hand_sample
mig_migrate --policy "$TMP/slower.json"
wait_for 30 "4 MiB migrated" moved_mib 4
[ "$(qemu_mig_status src)" = active ] || fail "the migration is $(qemu_mig_status src) at the kill"
kill -KILL "$(guest_pid migrate)"
RC=0
bg_wait migrate 10 || RC=$?
[ "$RC" -eq 137 ] || fail "migrate did not die by SIGKILL: exit $RC"
uid=$(status_get "$st" .migrationUid)
wait_for 60 "the source QEMU waiting in pre-switchover" eval \
	'[ "$(qemu_mig_status src)" = pre-switchover ]'
echo "first run: SIGKILL in pre-copy; QEMU migrated on alone to its wait in pre-switchover"

# The re-run, signalled while its qmp_capabilities is held.
relay_before relay src --hold qmp_capabilities --hold-for 3
bg_start again "$QMIGRATE" migrate --qmp "$TMP/relay.sock" \
	--to "unix:$TMP/mig.sock" --status-file "$st" --events \
	--policy "$TMP/slower.json"
wait_log "$TMP/relay.out" 'holding' 10
kill -TERM "$(guest_pid again)"
exit_of again 40
m=$RC
echo "re-run, SIGTERM before its inspection: exit $m ($(doc_says "$st")): $(tail -n 1 "$TMP/again.err")"
assert_never_both "re-run signalled early"
[ "$m" -eq 0 ] ||
	fail "re-run signalled before it read QEMU's migration: exit $m, expected 0 (QEMU at the switchover: the abort refused, the guest goes to the target): $(doc_says "$st")"
exit_of incoming 60
[ "$RC" -eq 0 ] || fail "incoming exited $RC: $(doc_says "$TMP/dst.status")"
expect_doc "$st" re-run Succeeded 0
[ "$(status_get "$st" .migrationUid)" = "$uid" ] ||
	fail "re-run: migrationUid $(status_get "$st" .migrationUid), the record's was $uid"
assert_on_target "re-run signalled early"
echo "ok: a re-run signalled before its inspection found QEMU at the switchover and went on: exit 0, Succeeded"
