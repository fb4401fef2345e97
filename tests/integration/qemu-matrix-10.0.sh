#!/usr/bin/env bash
# The core migration tests (tests/qemu-matrix-lib.sh) with QEMU 10.0 on both
# sides, run from its root (tests/qemu-roots.sh).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/qemu-matrix-lib.sh"
matrix_want 10.0
export QEMU_VERSION=10.0 QEMU_SRC_VERSION=10.0 QEMU_DST_VERSION=10.0
matrix_run "QEMU 10.0" "${MATRIX_CORE[@]}"
