#!/usr/bin/env bash
# bench/throttle.sh [--write] [BUILD-DIR]: the adaptive controller's two
# throttles for a guest whose dirty rate exceeds the link (issue 33):
# auto-converge (every vCPU put to sleep for a share of each period) under
# -accel kvm, against dirty-limit (only the vCPUs that dirty memory, slowed
# to the rate the controller sets) under -accel kvm,dirty-ring-size=4096,
# which is what makes the adaptive controller choose it.  For each: the
# throttle qmigrate chose (migrationConfiguration.throttle), the total time
# of the migration (QEMU's total-time), its downtime, the controller's
# decisions, and the guest's work: pages its verifier checked per second
# during the migration against the THROTTLE_BEFORE (3) s before it
# (bench-lib.sh work_rate;
# the counter moves with the guest to the target).
#
# A THROTTLE_MIB (default 128) MiB memory guest dirtying THROTTLE_RATE
# (400) MB/s over a THROTTLE_BW (100Mi) link, QEMU_VERSION (default 10.0),
# BENCH_RUNS (1) runs of each, interleaved; the adaptive controller with
# allowAutoConverge.  Needs a /dev/kvm that opens; it runs where
# tests/lib.sh's probe finds that KVM does not serve as well (an emulating
# nested KVM), and the table says what the probe found.  Not in `make
# bench` (bench_scripts): run by hand where KVM serves.  With --write it
# replaces its section of bench/RESULTS.md.
set -eu -o pipefail
. "$(dirname "$0")/bench-lib.sh"
bench_init "$@"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/qemu-matrix-lib.sh"
export QEMU_VERSION=${QEMU_VERSION:-10.0}
export QEMU_SRC_VERSION=$QEMU_VERSION QEMU_DST_VERSION=$QEMU_VERSION
QEMU_VERSIONS="$QEMU_VERSION" matrix_want "$QEMU_VERSION"
mib=${THROTTLE_MIB:-128} rate=${THROTTLE_RATE:-400} bw=${THROTTLE_BW:-100Mi}
runs=${BENCH_RUNS:-1}
# Seconds of the guest's own work measured before the migration: longer
# where the guest prints its progress seldom (an emulating KVM).
pre=${THROTTLE_BEFORE:-3}
MEMGUEST_BOOT_TIMEOUT=${MEMGUEST_BOOT_TIMEOUT_KVM:-300}
MEMGUEST_VERIFY_TIMEOUT=600
{ : <>/dev/kvm; } 2>/dev/null || fail "/dev/kvm does not open here: dirty-limit needs KVM"
start_load=$(cut -d' ' -f1-3 /proc/loadavg)
QMIGRATE_TEST_ACCEL='' test_accel_pick
probe="$TEST_ACCEL ($TEST_ACCEL_WHY)"
mig_policy busy '{ "bandwidthPerMigration": "'"$bw"'",
	"allowAutoConverge": true, "convergence": "adaptive" }'

# one CASE RUN: one migration under CASE (auto-converge or dirty-limit);
# sets ROW, its table row.
one() {
	local c=$1 r=$2 t0 t1 st base mig total down dec chose
	TEST_ACCEL=kvm TEST_ACCEL_WHY="bench/throttle.sh" _lib_accel_said=
	if [ "$c" = dirty-limit ]; then
		TEST_ACCEL_OPTS=dirty-ring-size=4096
	else
		TEST_ACCEL_OPTS=
	fi
	PAIR=$c-$r-
	mig_start_pair "$mib" "$rate"
	serial_stamps "${PAIR}src"
	serial_stamps "${PAIR}dst"
	mig_incoming --policy "$TMP/busy.json"
	sleep "$pre"	# the guest's own rate before the migration, by definition
	t0=$EPOCHREALTIME
	mig_migrate --policy "$TMP/busy.json"
	expect_exit "${PAIR}migrate" 0 900
	expect_exit "${PAIR}incoming" 0 120
	t1=$EPOCHREALTIME
	sleep 1	# the last progress line before t1 reaches the stamps
	st=$TMP/${PAIR}src.status
	chose=$(status_get "$st" .migrationConfiguration.throttle)
	[[ $chose == "$c:"* ]] || fail "$c wanted, qmigrate chose: $chose"
	base=$(work_rate "$(awk -v t="$t0" -v p="$pre" 'BEGIN { printf "%.6f", t - p }')" "$t0" "${PAIR}src")
	mig=$(work_rate "$t0" "$t1" "${PAIR}src" "${PAIR}dst")
	total=$(status_get "$st" .progress.totalTimeMs)
	down=$(status_get "$st" '.progress.downtimeMs // "-"')
	dec=$(status_get "$st" '[.decisions[] | .action +
		(if .action == "dirty-limit" then " " + (.reason |
		capture("(dirtying|to) (?<n>[0-9]+) MB/s").n // "?") + " MB/s" else "" end)] | join(", ")')
	assert_moved >/dev/null
	kill_guest "${PAIR}src"
	kill_guest "${PAIR}dst"
	ROW=$(printf '| %s | %s | %s ms | %s ms | %s | %s | %s |' "$c" "$r" \
	    "$total" "$down" "${dec:-none}" "${base%% *}" "${mig%% *}")
}

rows=()
for ((r = 1; r <= runs; r++)); do
	for c in auto-converge dirty-limit; do
		one "$c" "$r"
		rows+=("$ROW")
		printf '%s\n' "$ROW"
	done
done

out=$TMP/section.md
{
	echo "## Throttles: auto-converge against dirty-limit"
	echo
	echo "bench/throttle.sh, $(date -u '+%Y-%m-%d %H:%M') UTC, commit $(bench_rev)."
	echo
	echo "Machine: $(bench_machine) at the end (load average $start_load at the start);"
	echo "KVM: $(cd /sys/module 2>/dev/null && ls -d kvm* 2>/dev/null | paste -sd, -); tests/lib.sh's probe: $probe."
	echo "QEMU $QEMU_VERSION on both sides; a $mib MiB memory guest told to dirty $rate MB/s,"
	echo "bandwidthPerMigration $bw, the adaptive controller with allowAutoConverge;"
	echo "auto-converge under -accel kvm, dirty-limit under -accel kvm,dirty-ring-size=4096."
	echo "\"work\": pages the guest's verifier checked per second, in the $pre s before the"
	echo "migration and during it (source, then target)."
	echo
	echo "| throttle | run | total | downtime | decisions | work before (pages/s) | work during (pages/s) |"
	echo "|------|---:|------:|------:|------|------:|------:|"
	printf '%s\n' "${rows[@]}"
} >"$out"
cat "$out"
[ "$bench_write" -eq 0 ] || bench_section throttle "$out"
