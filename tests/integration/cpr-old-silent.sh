#!/usr/bin/env bash
# qmigrate update whose old QEMU's monitor goes silent (SIGSTOP) before
# switchover: after 30 s without an answer the outcome is not known, exit
# 8, failurePlane unknown, never "failed" as if the guest were known to
# run there.  Once the old QEMU is let go on, the guest runs there and
# only there, intact (the new QEMU still waits).  Held as cpr_update_held
# says.
. "$top_srcdir/tests/cpr-lib.sh"
cpr_test_begin 10.0
cpr_pair 64 20
cpr_update_held update
stop_guest old
expect_exit update 8 90
expect_status "$TMP/update.status" .phase Failed
expect_status "$TMP/update.status" .failurePlane unknown
kill -CONT "$(guest_pid old)"
cpr_guest_on_old
echo "ok: the old monitor silent: 8; the guest runs on the old QEMU once it goes on"
