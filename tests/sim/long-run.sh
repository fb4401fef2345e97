#!/bin/sh
# tests/sim/long-run.sh [FIRST [COUNT [WORKERS]]]: sim-real over COUNT
# schedules from seed FIRST (default 1000000, 1000000, 1 worker), each
# worker a slice, at nice 19; not in make check.  Prints each worker's
# failing seeds, the schedules that entered each session state (summed),
# and the rate: per second of wall time, per second of the workers' CPU,
# and the core-hours 10^6 schedules take at that rate.  Run from the
# build directory (tests/sim/sim-real built).
set -eu
first=${1:-1000000}
count=${2:-1000000}
workers=${3:-1}
sim=${SIM_REAL:-tests/sim/sim-real}
[ -x "$sim" ] || { echo "long-run.sh: $sim not built" >&2; exit 2; }
out=$(mktemp -d "${TMPDIR:-/tmp}/sim-long.XXXXXX")
start=$(date +%s)
slice=$(( (count + workers - 1) / workers ))
i=0
while [ "$i" -lt "$workers" ]; do
	f=$(( first + i * slice ))
	n=$slice
	[ $(( f + n )) -gt $(( first + count )) ] && n=$(( first + count - f ))
	nice -n 19 "$sim" --seeds "$n" --first "$f" >"$out/w$i" 2>&1 &
	i=$(( i + 1 ))
done
wait || true
end=$(date +%s)
cat "$out"/w* | grep '^seed ' || true
for side in source target; do
	cat "$out"/w* | awk -v side="$side" '
	    $0 ~ "^sim-real: " side " states entered:" {
		for (i = 5; i < NF; i += 2) n[$i] += $(i + 1)
	    }
	    END {
		printf "long-run: %s states entered:", side
		for (s in n) printf " %s %d", s, n[s]
		printf "\n"
	    }'
done
bad=$(cat "$out"/w* | awk '/broke the promise/ { n += $(NF - 3) } END { print n + 0 }')
secs=$(( end - start ))
[ "$secs" -gt 0 ] || secs=1
# The workers' CPU: times' second line, the children's user and system
# (this shell's own: not in a command substitution's subshell).
times >"$out/times"
cpu=$(awk 'NR == 2 {
	for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] }
	printf "%.1f", s }' "$out/times")
echo "long-run: $count schedules from seed $first, $workers worker(s):" \
    "$bad broke the promise, $secs s wall, $(( count / secs )) schedules/s;" \
    "$(awk -v n="$count" -v c="$cpu" 'BEGIN { if (c <= 0) c = 0.1
	printf "%.1f s CPU, %.0f schedules/s of a core, 10^6 in %.1f " \
	    "core-hours", c, n / c, 1e6 * c / n / 3600 }')"
rm -rf "$out"
[ "$bad" -eq 0 ]
