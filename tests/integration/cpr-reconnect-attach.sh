#!/usr/bin/env bash
# qmigrate update --defer whose old monitor is cut right after migrate
# (audit N6): tests/qmp-relay in front of the old QEMU's monitor hangs up
# after QEMU's MIGRATION "setup" event and refuses new clients for 2 s
# (a real QEMU's monitor cannot be made to drop its client).  The new
# QEMU's monitor appears 34-75 ms after migrate, while qmigrate reconnects
# to the old one: its answer and its migrate-incoming's are the attach's
# all the same, and once the old monitor is back the update ends: exit 0,
# the guest on the new QEMU, every page intact, the old QEMU gone.  On
# b475dc5 the new QEMU's QMP_UP was dropped, migrate-incoming never sent,
# the old QEMU waited in setup and update never ended.
. "$top_srcdir/tests/cpr-lib.sh"
cpr_test_begin 10.0
relay=$top_builddir/tests/qmp-relay
need_file "$relay" "tests/qmp-relay"
cpr_pair 32 20
bg_start relay "$relay" --cut-after '"status": "setup"' --refuse-for 2 \
	"$TMP/relay.sock" "$TMP/old.qmp"
wait_log "$TMP/relay.out" '^ready' 10
bg_start upd "$QMIGRATE" update --qmp "$TMP/relay.sock" \
	--new-qmp "$TMP/new.qmp" --to "unix:$TMP/new.main" \
	--cpr "unix:$TMP/new.cpr" --defer --status-file "$TMP/update.status"
expect_exit upd 0 60
grep -q 'cut after' "$TMP/relay.out" || fail "the relay never cut: $(cat "$TMP/relay.out")"
grep -q 'connecting again' "$TMP/upd.err" || fail "no reconnect: $(cat "$TMP/upd.err")"
expect_status "$TMP/update.status" .phase Succeeded
expect_status "$TMP/update.status" .mode CprTransfer
wait_guest_exit old 10
cpr_running new || fail "the new QEMU does not run the guest: $(mon new query-status)"
assert_memory_intact "$TMP/new.serial"
assert_no_corrupt "$TMP/old.serial"
echo "ok: the old monitor cut right after migrate, the new QEMU attached meanwhile: the update ended (0)"
