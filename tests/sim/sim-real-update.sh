#!/bin/sh
# sim-real-update.sh: sim-real's schedule kind update --mode exec
# (tests/sim/real-update.c, issue 40), seeds 1-300: the real update entry
# against the QEMU model's cpr-exec, properties E1-E5 (tests/sim/README.md).
: "${top_builddir:?run through make check}"
exec "$top_builddir/tests/sim/sim-real" --update-exec "$@"
