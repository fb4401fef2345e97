#!/usr/bin/env bash
# make check-long's randomized fault campaign: tests/integration/
# fault-random.sh with FAULT_RUNS runs (100 from tests/long/local.mk's
# FAULT_RANDOM_N), stops of the source QEMU longer than any of qmigrate's
# waits included (FAULT_LONG=1), from a new first seed each time unless
# FAULT_SEED is given (each run prints its own: FAULT_SEED=N FAULT_RUNS=1
# draws it again).  Its last line sums up the campaign: runs, faults by
# kind, exit statuses, violations.
: "${top_srcdir:?run through make check-long}"
FAULT_RUNS=${FAULT_RUNS:-100}
FAULT_SEED=${FAULT_SEED:-$(( $(date +%s) % 1000000 ))}
FAULT_LONG=${FAULT_LONG:-1}
export FAULT_RUNS FAULT_SEED FAULT_LONG
echo "fault-random: $FAULT_RUNS runs from FAULT_SEED=$FAULT_SEED"
exec bash "$top_srcdir/tests/integration/fault-random.sh"
