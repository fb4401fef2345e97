#!/usr/bin/env bash
# qmigrate update whose new QEMU cannot load the device state and exits:
# QEMU 11.1 cannot load 10.0's virtio-net-pci on pc-i440fx-10.0 ("VQ 0
# vring.num 1024 exceeds allocated max 256").  The old QEMU then says
# "failed" (Broken pipe) or, when it had sent everything before the new
# one gave up, "completed": it does not hear of the new one's load.
# - failed: the guest runs on the old QEMU, intact (exit 3 or 4);
# - completed: where the guest runs is not known to qmigrate: exit 8,
#   failurePlane unknown, the old QEMU kept (never told quit) with its
#   copy paused (postmigrate), never resumed: the RAM is shared, and a
#   new QEMU that ran the guest before it died would have changed it.
# Never both running.  Both outcomes were seen here; each run checks the
# one it got and says which.
. "$top_srcdir/tests/cpr-lib.sh"
cpr_test_begin 10.0 11.1 pc-i440fx-10.0
# shellcheck disable=SC2054 # commas inside QEMU option values
nic=(-netdev user,id=net0 -device virtio-net-pci,netdev=net0)
cpr_start_old old 64 20 "${nic[@]}" -qmp "unix:$TMP/old.mon,server=on,wait=off"
cpr_start_new new 64 defer "${nic[@]}"
cpr_update update --defer
rc=0
bg_wait update 60 || rc=$?
grep -q "exceeds allocated max" "$TMP/new.err" || fail "the new QEMU failed otherwise: $(cat "$TMP/new.err")"
wait_guest_exit new 10
case $rc in
3 | 4)
	expect_status "$TMP/update.status" .phase Failed
	mon old query-status | grep -q '"status": "running"' ||
		fail "exit $rc but the old QEMU: $(mon old query-status)"
	assert_memory_intact "$TMP/old.serial"
	echo "ok: the new QEMU failed its load, the old QEMU failed the update: $rc, the guest runs on the old one"
	;;
8)
	expect_status "$TMP/update.status" .failurePlane unknown
	status_get "$TMP/update.status" .failureReason | grep -q "did not say that it runs the guest" ||
		fail "failureReason: $(status_get "$TMP/update.status" .failureReason)"
	mon old query-status | grep -q '"status": "postmigrate"' ||
		fail "the old QEMU: $(mon old query-status)"
	assert_no_corrupt "$TMP/old.serial"
	echo "ok: the new QEMU failed its load after the old one completed: 8, the old copy kept paused"
	;;
*)
	cat "$TMP/update.err" >&2
	fail "update exited $rc, expected 3, 4 or 8"
	;;
esac
