#!/usr/bin/env bash
# qmigrate update (cpr-transfer): a busy memory guest with a qcow2 disk
# and a NIC moved from
# QEMU 10.0 to QEMU 11.1, an in-place upgrade on the old machine type (pc-i440fx-10.0) on the same host, its RAM passed as file
# descriptors: it runs on the new QEMU with every page intact, the old QEMU
# is gone, and the pause, the bytes and the whole time are printed.
. "$top_srcdir/tests/cpr-lib.sh"
cpr_test_begin 10.0 11.1 pc-i440fx-10.0
# The NIC is an e1000: 11.1 cannot load 10.0's virtio-net-pci on
# pc-i440fx-10.0 ("VQ 0 vring.num 1024 exceeds allocated max 256"), by
# cpr-transfer or by a plain migration alike (checked by hand, 2026-11-28).
CPR_NIC=e1000
cpr_update_run
