#!/usr/bin/env bash
# Issue 30, window "target exit 5 with the guest on the target" (audit D4):
# over tls:, SIGTERM to incoming while its status says Running; the
# source's migrate_cancel reaches QEMU 6 s late, so QEMU completes first.
# Before the fix the source exited 0, but the target's document said phase
# Succeeded with exitCode 5 and abortStatus Aborting, and 5 means "the
# guest still runs on the source": an agent would destroy the only copy.
# The fake: tests/qmp-relay in front of the SOURCE's monitor holds the
# command with migrate_cancel 6 s (and what follows it on that connection):
# a real QEMU cancels at once.  A guest whose migration takes ~4 s at
# 8 MiB/s, signalled once 16 MiB moved: QEMU reaches the switchover within
# the hold.  Before migrate set pause-before-switchover QEMU completed
# there, and both sides had to say 0 (D4's fix: the target's abortStatus
# Failed).  Now QEMU waits in pre-switchover for a migrate-continue that a
# cancelling migrate never sends, and the late cancel still lands there,
# no device state sent (handoff-cancel-late-unix over unix:).
# What a user must see: migrate 5 and incoming 5, both documents saying
# the abort succeeded; never 5 with the guest on the target: the guest
# never runs on both QEMUs and runs on the source with every page intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp
mig_tls

mig_policy quick '{ "bandwidthPerMigration": "8Mi" }'
hand_pair 32 1
hand_tls_incoming "$TMP/dst.qmp"
relay_before relay src --hold migrate_cancel --hold-for 6
hand_sample
mig_tls_migrate migrate "$TMP/relay.sock" --policy "$TMP/quick.json"
wait_for 30 "the target Running and 16 MiB moved" eval \
	'status_is "$TMP/dst.status" .phase Running && moved_mib 16'
kill -TERM "$(guest_pid incoming)"
exit_of incoming 60
i=$RC
exit_of migrate 120
m=$RC
grep -q 'holding' "$TMP/relay.out" ||
	fail "the source never sent migrate_cancel (the relay held nothing): the test proved nothing: $(cat "$TMP/relay.out")"
[ "$(qemu_mig_status src)" = cancelled ] ||
	fail "QEMU's migration is $(qemu_mig_status src), not cancelled in its wait"
echo "migrate exited $m ($(doc_says "$TMP/src.status")); incoming exited $i ($(doc_says "$TMP/dst.status"))"
assert_never_both "cancel late"
[ "$m/$i" = 5/5 ] ||
	fail "cancel late: migrate exited $m, incoming $i (source $SRC_STATE, target $DST_STATE): expected 5 on both"
expect_doc "$TMP/src.status" source Failed 5
expect_doc "$TMP/dst.status" target Failed 5
expect_status "$TMP/src.status" .abortStatus Succeeded source
[ "$SRC_STATE" = running ] || fail "cancel late: the source QEMU is $SRC_STATE, not running"
[ "$DST_STATE" != running ] || fail "cancel late: the target QEMU runs the guest"
assert_memory_intact "$TMP/src.serial"
echo "ok: SIGTERM to incoming, the cancel late: QEMU cancelled in pre-switchover, exits 5/5, the guest on the source"
