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
# 8 MiB/s, signalled once 16 MiB moved: QEMU completes within the hold
# and before the target's own 5 s cut.
# What a user must see: both exit 0; both documents Succeeded; the
# target's abortStatus Failed (the abort came too late); the guest never
# runs on both QEMUs and runs on the target with every page intact.
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
[ "$(qemu_mig_status src)" = completed ] ||
	fail "QEMU's migration is $(qemu_mig_status src), not completed: the cancel came in time and the test proved nothing"
echo "migrate exited $m ($(doc_says "$TMP/src.status")); incoming exited $i ($(doc_says "$TMP/dst.status"))"
assert_never_both "cancel too late"
[ "$m/$i" = 0/0 ] ||
	fail "cancel too late: migrate exited $m, incoming $i (source $SRC_STATE, target $DST_STATE): expected 0 on both"
expect_doc "$TMP/src.status" source Succeeded 0
expect_doc "$TMP/dst.status" target Succeeded 0
expect_status "$TMP/dst.status" .abortStatus Failed target
assert_on_target "cancel too late"
echo "ok: SIGTERM to incoming, the cancel too late: exits 0/0, the target's abortStatus Failed, the guest on the target"
