#!/usr/bin/env bash
# bench/qmigrate-cost.sh: what qmigrate itself costs while it drives a
# migration, against the QEMUs it drives.  qmigrate migrate and qmigrate
# incoming run under /usr/bin/time -v (peak RSS, user+system CPU); the
# source and target QEMU are read from /proc (VmHWM; utime+stime during
# the migration, which includes the guest's vCPU: memguest spins on its
# TSC pacing, so a QEMU thread is busy whatever the rate).
#
# Cases (memguest BENCH_MIB MiB, default 256, bandwidth 100 MiB/s):
#   idle       rate 0, adaptive
#   50 MB/s    converges, adaptive
#   400 MB/s   post-copy allowed, adaptive (switches to post-copy)
#   150 MB/s   auto-converge only, kubevirt (a long pre-copy: qmigrate
#              samples for tens of seconds)
#
# usage: bench/qmigrate-cost.sh [--write] [BUILD-DIR]
# env:   BENCH_MIB (256), BENCH_RUNS (1; 3 with BENCH_FULL=1), BENCH_CASES
set -euo pipefail
. "$(dirname "$0")/bench-lib.sh"
bench_init "$@"
[ -x /usr/bin/time ] || { bench_need_pkg /usr/bin/time time; }
mib=${BENCH_MIB:-256}
if [ -n "${BENCH_FULL:-}" ]; then runs=${BENCH_RUNS:-3}; else runs=${BENCH_RUNS:-1}; fi
tck=$(getconf CLK_TCK)
out=${BENCH_OUT:-$top_builddir/bench-out}/cost
rm -rf "$out"
mkdir -p "$out"
results=$out/runs.tsv
printf 'case\trun\tsecs\tended\tmig_rss_kb\tmig_cpu_s\tinc_rss_kb\tinc_cpu_s\tsrc_hwm_kb\tsrc_cpu_s\tdst_hwm_kb\tdst_cpu_s\n' >"$results"

cases=(${BENCH_CASES:-idle busy50 postcopy400 autoconv150})
case_args() { # sets rate, perm, ctl for a case
	case $1 in
	idle) rate=0 perm='"allowPostCopy": false' ctl=adaptive ;;
	busy50) rate=50 perm='"allowPostCopy": false' ctl=adaptive ;;
	postcopy400) rate=400 perm='"allowPostCopy": true' ctl=adaptive ;;
	autoconv150) rate=150 perm='"allowAutoConverge": true' ctl=kubevirt ;;
	esac
}
case_name() {
	case $1 in
	idle) echo "idle, adaptive" ;;
	busy50) echo "50 MB/s, adaptive" ;;
	postcopy400) echo "400 MB/s, post-copy allowed, adaptive" ;;
	autoconv150) echo "150 MB/s, auto-converge only, kubevirt" ;;
	esac
}

# proc_cpu PID: utime+stime of PID in seconds.
proc_cpu() {
	awk -v t="$tck" '{ sub(/^.*\) /, ""); printf "%.2f\n", ($12 + $13) / t }' "/proc/$1/stat"
}
proc_hwm() {
	awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"
}
# time_field FILE LABEL: a value of /usr/bin/time -v's report.
time_field() {
	sed -n "s/^[[:space:]]*$2: //p" "$1" | head -n 1
}
time_cpu() {
	awk -v u="$(time_field "$1" 'User time (seconds)')" \
	    -v s="$(time_field "$1" 'System time (seconds)')" 'BEGIN { printf "%.2f\n", u + s }'
}

n=0
one() {
	local c=$1 run=$2 g s d sp dp c0s c0d t0 t1 rc=0 ended
	case_args "$c"
	n=$((n + 1))
	g=k$n s=k${n}s d=k${n}d
	printf '{ "name": "cost", "migration": { "bandwidthPerMigration": "100Mi", %s } }\n' \
		"$perm" >"$TMP/$g.json"
	start_memguest "$s" "$mib" "$rate"
	start_memguest_incoming "$d" "$mib"
	sp=$(guest_pid "$s") dp=$(guest_pid "$d")
	bg_start "$g-inc" /usr/bin/time -v -o "$TMP/$g-inc.time" \
		"$QMIGRATE" incoming --qmp "$TMP/$d.qmp" \
		--listen "unix:$TMP/$g.mig" --policy "$TMP/$g.json"
	wait_for 30 "target prepared" test -S "$TMP/$g.mig"
	c0s=$(proc_cpu "$sp") c0d=$(proc_cpu "$dp")
	t0=$(now_ms)
	/usr/bin/time -v -o "$TMP/$g-mig.time" "$QMIGRATE" migrate \
		--qmp "$TMP/$s.qmp" --to "unix:$TMP/$g.mig" --policy "$TMP/$g.json" \
		--convergence "$ctl" --slot-dir "$TMP/slots" \
		--status-file "$TMP/$g.status" >/dev/null 2>"$TMP/$g.err" || rc=$?
	t1=$(now_ms)
	bg_wait "$g-inc" 60 || true
	ended=$(jq -r .phase "$TMP/$g.status")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$run" \
		"$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1000 }')" \
		"$ended/$rc" \
		"$(time_field "$TMP/$g-mig.time" 'Maximum resident set size (kbytes)')" \
		"$(time_cpu "$TMP/$g-mig.time")" \
		"$(time_field "$TMP/$g-inc.time" 'Maximum resident set size (kbytes)')" \
		"$(time_cpu "$TMP/$g-inc.time")" \
		"$(proc_hwm "$sp")" \
		"$(awk -v a="$c0s" -v b="$(proc_cpu "$sp")" 'BEGIN { printf "%.2f", b - a }')" \
		"$(proc_hwm "$dp")" \
		"$(awk -v a="$c0d" -v b="$(proc_cpu "$dp")" 'BEGIN { printf "%.2f", b - a }')" \
		| tee -a "$results" >&2
	kill_guest "$s"
	kill_guest "$d"
}

started=$(date -u '+%Y-%m-%d %H:%M UTC')
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for run in $(seq "$runs"); do
	for c in "${cases[@]}"; do
		one "$c" "$run"
	done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

col() { # col CASE FIELD
	awk -F'\t' -v k="$1" -v f="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == k { print $c[f] }' "$results"
}
mib_of() { awk '{ printf "%.1f\n", $1 / 1024 }'; }
rep=$out/report.md
maxrss=0
{
	echo "## qmigrate's own cost while driving a migration"
	echo
	echo "bench/qmigrate-cost.sh, $started, commit $(bench_rev)."
	echo
	echo "Machine: $(bench_machine | sed 's/, load average.*//'); load average"
	echo "$load_before before, $load_after after (shared machine)."
	echo
	echo "Command: \`BENCH_MIB=$mib BENCH_RUNS=$runs bench/qmigrate-cost.sh --write BUILD\`"
	echo "(memguest $mib MiB, bandwidth 100 MiB/s, $runs run(s) per case, plain -O2"
	echo "build). qmigrate: \`/usr/bin/time -v\` of \`qmigrate migrate\` and \`qmigrate"
	echo "incoming\` (whole run). QEMU: VmHWM of /proc/PID/status, utime+stime of"
	echo "/proc/PID/stat over the migration (the guest's vCPU included). Medians,"
	echo "min-max in brackets."
	echo
	echo "| case | migration s | migrate RSS MiB | migrate CPU s | incoming RSS MiB | incoming CPU s | source QEMU VmHWM MiB | source QEMU CPU s | target QEMU VmHWM MiB | target QEMU CPU s | qmigrate CPU / source QEMU CPU | qmigrate RSS / source QEMU |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for c in "${cases[@]}"; do
		mapfile -t secs < <(col "$c" secs)
		mapfile -t mr < <(col "$c" mig_rss_kb | mib_of)
		mapfile -t mc < <(col "$c" mig_cpu_s)
		mapfile -t ir < <(col "$c" inc_rss_kb | mib_of)
		mapfile -t ic < <(col "$c" inc_cpu_s)
		mapfile -t sh < <(col "$c" src_hwm_kb | mib_of)
		mapfile -t sc < <(col "$c" src_cpu_s)
		mapfile -t dh < <(col "$c" dst_hwm_kb | mib_of)
		mapfile -t dc < <(col "$c" dst_cpu_s)
		printf '| %s | %s (%s) | %s (%s) | %s (%s) | %s (%s) | %s (%s) | %s | %s (%s) | %s | %s (%s) | %s | %s |\n' \
			"$(case_name "$c") [$(col "$c" ended | sort -u | paste -sd' ' -)]" \
			"$(median "${secs[@]}")" "$(spread "${secs[@]}")" \
			"$(median "${mr[@]}")" "$(spread "${mr[@]}")" \
			"$(median "${mc[@]}")" "$(spread "${mc[@]}")" \
			"$(median "${ir[@]}")" "$(spread "${ir[@]}")" \
			"$(median "${ic[@]}")" "$(spread "${ic[@]}")" \
			"$(median "${sh[@]}")" \
			"$(median "${sc[@]}")" "$(spread "${sc[@]}")" \
			"$(median "${dh[@]}")" \
			"$(median "${dc[@]}")" "$(spread "${dc[@]}")" \
			"$(awk -v a="$(median "${mc[@]}")" -v b="$(median "${sc[@]}")" 'BEGIN { if (b > 0) printf "%.1f%%", 100 * a / b; else print "-" }')" \
			"$(awk -v a="$(median "${mr[@]}")" -v b="$(median "${sh[@]}")" 'BEGIN { if (b > 0) printf "%.1f%%", 100 * a / b; else print "-" }')"
	done
	maxrss=$(tail -n +2 "$results" | cut -f5,7 | tr '\t' '\n' | sort -n | tail -n 1)
	echo
	echo "Target of issue 8: qmigrate's RSS under 10 MiB while driving a migration:"
	echo "largest peak RSS over all runs (migrate and incoming) $(awk -v k="$maxrss" 'BEGIN { printf "%.1f MiB", k / 1024 }'):"
	echo "$(awk -v k="$maxrss" 'BEGIN { print (k < 10240) ? "met" : "NOT met" }')."
} >"$rep"
cat "$rep"
if [ $bench_write = 1 ]; then
	mkdir -p "$bench_top/bench/data"
	cp "$results" "$bench_top/bench/data/qmigrate-cost-runs.tsv"
	bench_section qmigrate-cost "$rep"
fi
