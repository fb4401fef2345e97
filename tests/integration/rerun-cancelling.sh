#!/usr/bin/env bash
# A re-run after a SIGKILL during "cancelling" finishes the abort (issue
# 30, audit D24: the re-attach forgot abortRequested and abortStatus and
# went on as a plain pre-copy, to exit 4 or no exit at all).  unix:, a
# guest that never converges; tests/qmp-relay in front of the source's
# monitor drops migrate_cancel (a real QEMU cannot be made to lose it), so
# SIGTERM leaves migrate cancelling (abortStatus Aborting) while QEMU
# migrates on; migrate is then SIGKILLed.  The same command with the same
# --status-file re-attaches, cancels again, and ends as the abort: exit 5,
# the same migrationUid, abortRequested true, abortStatus Succeeded; QEMU's
# migration ended (cancelled, or failed: expect_qemu_cancelled); the guest runs on the
# source, every page intact, and the target QEMU never ran it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp
st=$TMP/src.status

mig_policy stuck '{ "bandwidthPerMigration": "20Mi", "convergence": "kubevirt" }'
mig_start_pair 64 200
mig_incoming --policy "$TMP/stuck.json"
mig_relay --drop migrate_cancel
MIG_QMP=$TMP/relay.sock mig_migrate --policy "$TMP/stuck.json"
wait_for 30 "4 MiB migrated" moved_mib 4
kill -TERM "$(guest_pid migrate)"
wait_for 10 "abortStatus Aborting" status_is "$st" .abortStatus Aborting
wait_log "$TMP/relay.out" 'dropp' 10
kill -KILL "$(guest_pid migrate)"
wait_for 10 "the first migrate gone" _lib_gone "$(guest_pid migrate)"
uid=$(status_get "$st" .migrationUid)
expect_qemu_mig src "after the kill" active
echo "ok: killed while cancelling (the cancel lost); QEMU migrates on"

bg_start again "$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/mig.sock" \
	--status-file "$st" --policy "$TMP/stuck.json" --events
expect_exit again 5 60
expect_failed "$st" 5 - re-run
expect_status "$st" .migrationUid "$uid" re-run
expect_status "$st" .abortRequested true re-run
expect_status "$st" .abortStatus Succeeded re-run
expect_qemu_cancelled src "after the re-run"
d=$(mon dst query-status 2>/dev/null | jq -r .status || echo gone)
[ "$d" != running ] || fail "the target QEMU runs the guest too"
assert_stayed
expect_exit incoming 4 30
echo "ok: the re-run finished the abort of $uid: exit 5, the guest on the source (target: $d)"
