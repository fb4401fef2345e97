#!/usr/bin/env bash
# The core migration tests (tests/qemu-matrix-lib.sh) with QEMU 11.1 on both
# sides, run from its root (tests/qemu-roots.sh).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/qemu-matrix-lib.sh"
matrix_want 11.1
export QEMU_VERSION=11.1 QEMU_SRC_VERSION=11.1 QEMU_DST_VERSION=11.1
matrix_run "QEMU 11.1" "${MATRIX_CORE[@]}"
