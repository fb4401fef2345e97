#!/usr/bin/env bash
# qmigrate update, the new QEMU killed (SIGKILL) before switchover: the old
# QEMU's migration fails and its guest runs on, intact, and only there;
# update exits 3 (the new QEMU was not ready: nothing had moved), its
# document Failed with QEMU's reason.  The update is held before
# switchover as cpr_update_held says (real QEMU cannot be stopped there
# otherwise).
. "$top_srcdir/tests/cpr-lib.sh"
cpr_test_begin 10.0
cpr_pair 64 20
cpr_update_held update
kill_guest new KILL
expect_exit update 3 60
expect_status "$TMP/update.status" .phase Failed
expect_status "$TMP/update.status" .mode CprTransfer
echo "failureReason: $(status_get "$TMP/update.status" .failureReason)"
cpr_guest_on_old
echo "ok: the new QEMU killed before switchover: the guest runs on the old QEMU"
