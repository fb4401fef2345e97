#!/usr/bin/env bash
# The re-run after exit 8, when QEMU's migration failed meanwhile (issue
# 30, audit D5: the record of an exit 8 is phase Failed, so the re-run took
# it for closed and started a brand-new migration over it, under a new
# uid).  tests/qmp-relay hangs up the source's monitor in pre-copy and
# refuses it for 40 s (a real QEMU cannot drop its monitor): migrate exits
# 8 while QEMU migrates on alone (unix:, a guest that never converges).
# Then the target QEMU dies, so QEMU's migration fails.  The same command
# with the same --status-file closes the record with what is known: exit
# 4, the same migrationUid, Failed plane data, a failureReason saying QEMU
# failed it while no qmigrate watched; it starts no migration (QEMU's
# query-migrate is unchanged); the guest runs on the source, every page
# intact, and the target QEMU is gone.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp
st=$TMP/src.status

# A busy guest under 20 MiB/s that never converges (kubevirt would wait
# 150 s): QEMU is still migrating when migrate gives up.
mig_policy stuck '{ "bandwidthPerMigration": "20Mi", "convergence": "kubevirt" }'
mig_start_pair 64 200
mig_incoming --policy "$TMP/stuck.json"
mig_relay --refuse-for 40
MIG_QMP=$TMP/relay.sock mig_migrate --policy "$TMP/stuck.json"
wait_for 30 "4 MiB migrated" moved_mib 4
kill -USR1 "$(guest_pid relay)"
expect_exit migrate 8 60
expect_failed "$st" 8 unknown "the first run"
uid=$(status_get "$st" .migrationUid)
expect_qemu_mig src "after the 8" active
echo "ok: the monitor lost: exit 8, QEMU migrates on"

# The target QEMU dies: the source QEMU's migration fails.
kill_guest dst
wait_for 60 "the source QEMU's migration to fail" _mig_qemu_ended src
expect_qemu_mig src "the target gone" failed
before=$(mon src query-migrate | jq -c .)
rc=0
bg_wait incoming 60 || rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] || fail "incoming exited $rc with its QEMU gone"

bg_start again "$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/mig.sock" \
	--status-file "$st" --policy "$TMP/stuck.json" --events
expect_exit again 4 60
expect_failed "$st" 4 data re-run
expect_status "$st" .migrationUid "$uid" re-run
status_get "$st" .failureReason | grep -q 'failed in QEMU while no qmigrate watched it' ||
	fail "re-run: failureReason: $(status_get "$st" .failureReason)"
status_get "$st" '.notes[]' | grep -q 'started no migration' ||
	fail "re-run: no note says it started no migration: $(status_get "$st" .notes)"
[ "$(mon src query-migrate | jq -c .)" = "$before" ] ||
	fail "re-run: QEMU's migration changed (a new one?): $(mon src query-migrate | jq -c .status)"
[ -e "$TMP/dst.mon" ] && mon dst query-status >/dev/null 2>&1 &&
	fail "the target QEMU still answers"
assert_stayed
echo "ok: the re-run closed $uid: exit 4, the guest runs on the source"
