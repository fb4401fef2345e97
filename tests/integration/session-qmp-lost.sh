#!/usr/bin/env bash
# migrate's connection to the source QEMU's monitor lost (issue 22, defect
# 4: lost during the confirm phase over tls:, it was reported Failed, plane
# control, exit 3 "nothing moved", while the guest ran on the target; lost
# in pre-copy, exit 3 too, while QEMU migrated on).  A real QEMU never
# drops its monitor: tests/qmp-relay stands between migrate and the
# monitor socket and hangs up.
# 1. tls:, hung up right after QEMU's "completed" (the confirm phase):
#    migrate reconnects (or asks the target) and exits 0; the guest runs
#    on the target, intact.
# 2. unix:, hung up in pre-copy: migrate reconnects and reports the
#    migration's real outcome: it completes, exit 0, the guest on the
#    target, intact.
# 3. unix:, hung up in pre-copy and the monitor refusing every connection
#    for longer than migrate's 30 s: exit 8 (outcome unknown) within 45 s,
#    Failed, a failureReason saying the monitor did not answer; QEMU
#    migrates on alone up to the switchover, where it waits, the guest
#    stopped on the source only (pause-before-switchover), until a re-run
#    of migrate goes on: 0, the guest on the target, intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp
mig_tls

# 1. tls:, the monitor lost in the confirm phase.
mig_start_pair 32 1
mig_tls_incoming
mig_relay --cut-after '"status": "completed"'
mig_tls_migrate migrate "$TMP/relay.sock"
expect_exit migrate 0 120
grep -q 'cut after' "$TMP/relay.out" || fail "confirm: the relay never saw \"completed\": the test proved nothing"
expect_exit incoming 0 60
expect_status "$TMP/src.status" .phase Succeeded confirm
assert_moved
echo "ok: the monitor lost in the confirm phase: exit 0, the guest on the target"

# 2. unix:, the monitor lost in pre-copy, back at once.
PAIR=b-
mig_policy slow '{ "bandwidthPerMigration": "8Mi" }'
mig_start_pair 64 2
mig_incoming --policy "$TMP/slow.json"
mig_relay
MIG_QMP=$TMP/b-relay.sock mig_migrate --policy "$TMP/slow.json"
wait_for 30 "4 MiB migrated" moved_mib 4
[ "$(qemu_mig_status b-src)" = active ] || fail "pre-copy: the migration is $(qemu_mig_status b-src) at the cut"
kill -USR1 "$(guest_pid b-relay)"
expect_exit b-migrate 0 120
expect_exit b-incoming 0 60
[ "$(grep -c ': accepted' "$TMP/b-relay.out")" -ge 2 ] ||
	fail "pre-copy: migrate never connected to the monitor again: $(cat "$TMP/b-relay.out")"
assert_moved
echo "ok: the monitor lost in pre-copy: migrate reconnected, exit 0"

# 3. unix:, the monitor lost in pre-copy for good (refused for 120 s).
PAIR=c-
mig_policy slower '{ "bandwidthPerMigration": "4Mi" }'
mig_start_pair 64 2
mig_incoming --policy "$TMP/slower.json"
mig_relay --refuse-for 120
MIG_QMP=$TMP/c-relay.sock mig_migrate --policy "$TMP/slower.json"
wait_for 30 "4 MiB migrated" moved_mib 4
kill -USR1 "$(guest_pid c-relay)"
expect_exit c-migrate 8 45
st=$TMP/c-src.status
expect_failed "$st" 8 - gone
status_get "$st" .failureReason | grep -Eqi 'monitor|answer|QMP' ||
	fail "gone: failureReason does not say the monitor was lost: $(status_get "$st" .failureReason)"
# QEMU knows nothing of it and migrates on, up to the switchover: there
# it waits in pre-switchover (migrate set pause-before-switchover), the
# guest stopped on the source, for a migrate-continue only a re-run sends.
src_migration_is() {
	[ "$(mon c-src query-migrate 2>/dev/null | jq -r .status)" = "$1" ]
}
wait_for 120 "the c-src QEMU waiting in pre-switchover" src_migration_is pre-switchover
[ "$(run_state c-src)" = finish-migrate ] ||
	fail "gone: the source QEMU is $(run_state c-src) in pre-switchover"
[ "$(mon c-dst query-status | jq -r .status)" = inmigrate ] ||
	fail "gone: the target QEMU is $(mon c-dst query-status | jq -r .status) before the switchover"
# The re-run, on the monitor itself (the relay still refuses), goes on.
bg_start c-again "$QMIGRATE" migrate --qmp "$TMP/c-src.qmp" \
	--to "unix:$TMP/c-mig.sock" --status-file "$st" --policy "$TMP/slower.json"
expect_exit c-again 0 120
expect_exit c-incoming 0 60
assert_one_place gone 60
[ "$PLACES" = postmigrate/running ] || fail "gone: after the re-run the guest is at $PLACES"
echo "ok: the monitor lost for good: exit 8; QEMU waited in pre-switchover, the guest stopped on the source, until the re-run, which moved it ($PLACES)"
