#!/usr/bin/env bash
# What an update sets on the old QEMU does not outlive it (audit N11):
# 1. an update that fails (its new QEMU dead before it starts: 3, the
#    guest on the old QEMU) puts the old QEMU's migration mode back to
#    normal and pause-before-switchover off before it exits;
# 2. a mode left at cpr-transfer all the same (an update or check --update
#    killed between setting and resetting it: set here by hand) does not
#    stop a later plain migrate, which sets it back to normal and moves
#    the guest: exit 0, every page intact on the target.
# On b475dc5 the failed update left cpr-transfer, and QEMU refused the
# later migrate ("missing 'cpr' migration channel"): exit 3 for a reason
# that named nothing qmigrate had done.
. "$top_srcdir/tests/cpr-lib.sh"
cpr_test_begin 10.0
cpr_pair 32 20
kill_guest new
run_qmigrate 3 update --qmp "$TMP/old.qmp" --new-qmp "$TMP/new.qmp" \
	--to "unix:$TMP/new.main" --cpr "unix:$TMP/new.cpr" --defer \
	--status-file "$TMP/update.status"
mon old query-status | grep -q '"status": "running"' ||
	fail "the old QEMU: $(mon old query-status)"
mode=$(mon old query-migrate-parameters | jq -r .mode)
[ "$mode" = normal ] || fail "the failed update left mode $mode on the old QEMU"
pause=$(mon old query-migrate-capabilities |
	jq -r '.[] | select(.capability == "pause-before-switchover") | .state')
[ "$pause" = false ] || fail "the failed update left pause-before-switchover $pause"
echo "1: the failed update put mode normal and the pause off back"

mon old migrate-set-parameters '{"mode": "cpr-transfer"}' >/dev/null

cpr_ram_args 32
start_memguest_incoming dst 32 "${CPR_RAM_ARGS[@]}"
qmp dst migrate-incoming "{\"uri\":\"unix:$TMP/mig.sock\"}" >/dev/null
run_qmigrate 0 migrate --qmp "$TMP/old.qmp" --to "unix:$TMP/mig.sock" \
	--status-file "$TMP/migrate.status"
[ "$(mon old query-migrate-parameters | jq -r .mode)" = normal ] ||
	fail "mode after migrate: $(mon old query-migrate-parameters | jq -r .mode)"
qmp dst query-status | grep -q '"status": "running"' || fail "dst: $(qmp dst query-status)"
assert_memory_intact "$TMP/dst.serial"
echo "ok: 2: a plain migrate of a QEMU left in cpr-transfer set the mode back to normal and moved the guest"
