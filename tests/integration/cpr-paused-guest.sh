#!/usr/bin/env bash
# qmigrate update of a guest an operator paused on the old QEMU (`stop`)
# before the update (audit N14): the new QEMU loads it paused, and it
# stays paused there: exit 0, a note saying so, the old QEMU gone, the new
# QEMU's run state paused.  Then `cont` (the operator's) runs it, every
# page intact.  On b475dc5 the update cont'ed the new QEMU: the guest ran.
. "$top_srcdir/tests/cpr-lib.sh"
cpr_test_begin 10.0
cpr_pair 32 20
mon old stop >/dev/null
mon old query-status | grep -q '"status": "paused"' ||
	fail "the old QEMU: $(mon old query-status)"
run_qmigrate 0 update --qmp "$TMP/old.qmp" --new-qmp "$TMP/new.qmp" \
	--to "unix:$TMP/new.main" --cpr "unix:$TMP/new.cpr" --defer \
	--status-file "$TMP/update.status"
expect_status "$TMP/update.status" .phase Succeeded
wait_guest_exit old 10
mon new query-status | grep -q '"status": "paused"' ||
	fail "the new QEMU: $(mon new query-status), expected paused"
status_get "$TMP/update.status" '.notes[]' | grep -q "stays paused" ||
	fail "no note: $(status_get "$TMP/update.status" .notes)"
mon new cont >/dev/null
assert_memory_intact "$TMP/new.serial"
assert_no_corrupt "$TMP/old.serial"
echo "ok: a guest paused before the update stayed paused on the new QEMU"
