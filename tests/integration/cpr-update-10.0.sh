#!/usr/bin/env bash
# qmigrate update (cpr-transfer): a busy memory guest with a qcow2 disk
# and a NIC moved from
# QEMU 10.0 to a new QEMU 10.0 on the same host, its RAM passed as file
# descriptors: it runs on the new QEMU with every page intact, the old QEMU
# is gone, and the pause, the bytes and the whole time are printed.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/qemu-matrix-lib.sh"
. "$top_srcdir/tests/cpr-lib.sh"
matrix_want 10.0 10.0
export QEMU_SRC_VERSION=10.0 QEMU_DST_VERSION=10.0 QEMU_MACHINE=pc
cpr_update_run
