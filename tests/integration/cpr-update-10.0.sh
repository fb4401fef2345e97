#!/usr/bin/env bash
# qmigrate update (cpr-transfer): a busy memory guest with a qcow2 disk
# and a NIC moved from
# QEMU 10.0 to a new QEMU 10.0 on the same host, its RAM passed as file
# descriptors: it runs on the new QEMU with every page intact, the old QEMU
# is gone, and the pause, the bytes and the whole time are printed.
. "$top_srcdir/tests/cpr-lib.sh"
cpr_test_begin 10.0 10.0 pc
cpr_update_run
