#!/bin/sh
# sim-real-tls.sh: the tls: schedules of sim-real (tests/sim/real-tls.c,
# issue 37) that found a defect, each run alone; each passes since its
# fix (tests/sim/README.md, "tls:"): 93 233 (a fenced answer cont'd the
# operator's paused guest), 5624 (the same after a re-run), 351 515 2413
# 2926 (an incoming re-run after SIGKILL said 3 while its QEMU held the
# guest), 665 (the same from a re-run after 8 that could not reach its
# QEMU: real-rerun.c, real-monitor.c), 3805 (the target's monitor cut
# while its exports waited: the release never ran again, G3; since the
# world breaks NBD with a proxy, a killed source's).  Seeds
# 1-300 run in tests/sim/sim-real.
: "${top_builddir:?run through make check}"
rc=0
for seed in 93 233 5624 351 515 2413 2926 665 3805; do
	"$top_builddir/tests/sim/sim-real" --seed "$seed" 2>&1 |
	    grep '^seed ' && rc=1
done
exit $rc
