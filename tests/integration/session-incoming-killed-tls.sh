#!/usr/bin/env bash
# `qmigrate incoming` killed (SIGKILL) over tls: in pre-copy (issue 22,
# defect 8: no real-QEMU test covered the README's row "target `qmigrate
# incoming` killed ... tls: its proxy dies with it, a broken stream").  The
# stream breaks with the target's proxy: migrate exits 4, plane data, the
# source QEMU's migration has ended without completing, and the guest runs
# on the source with its memory intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp
mig_tls

# 200 MB/s under 20 MiB/s with kubevirt's 150 s: only the kill ends it.
mig_policy stuck '{ "bandwidthPerMigration": "20Mi", "convergence": "kubevirt" }'
mig_start_pair 64 200
mig_tls_incoming
mig_tls_migrate migrate "$TMP/src.qmp" --policy "$TMP/stuck.json"
wait_for 30 "8 MiB migrated" moved_mib 8
kill_guest incoming
expect_exit migrate 4 60
expect_failed "$TMP/src.status" 4 data
expect_qemu_mig src "incoming killed" failed cancelled
assert_stayed
echo "ok: incoming killed over tls: exit 4, $(status_get "$TMP/src.status" .failureReason); the guest runs on the source"
