#!/usr/bin/env bash
# bench/drain.sh: scale on one node.  `qmigrate drain` evacuates 8 small
# memguests (BENCH_MIB MiB, default 32, dirtying 10 MB/s) to 8 target
# QEMUs, with --max-parallel 1, 2 and 4; the total drain time is the wall
# time of the drain command.  Each VM is migrated by the LiveMigrate
# strategy under the adaptive controller, 64 MiB/s per migration
# (KubeVirt's default bandwidthPerMigration).  The three settings run
# interleaved (order rotated per run) so that the machine's load hits them
# alike.  All 16 QEMUs of one drain run at once: a memguest vCPU is always
# busy (it paces itself by spinning on the TSC), so on 2 cores the
# migrations compete with 8 guests for CPU, as on a crowded node.
#
# usage: bench/drain.sh [--write] [BUILD-DIR]
# env:   BENCH_MIB (32), BENCH_VMS (8), BENCH_RUNS (1; 3 with BENCH_FULL=1),
#        BENCH_PARALLEL ("1 2 4")
set -euo pipefail
. "$(dirname "$0")/bench-lib.sh"
bench_init "$@"
mib=${BENCH_MIB:-32}
nvm=${BENCH_VMS:-8}
pars=(${BENCH_PARALLEL:-1 2 4})
if [ -n "${BENCH_FULL:-}" ]; then runs=${BENCH_RUNS:-3}; else runs=${BENCH_RUNS:-1}; fi
out=${BENCH_OUT:-$top_builddir/bench-out}/drain
rm -rf "$out"
mkdir -p "$out"
results=$out/runs.tsv
printf 'parallel\trun\tsecs\texit\tmigrated\tmedian_vm_s\tcorrupt\n' >"$results"

cat >"$TMP/policy.json" <<JSON
{ "name": "drain", "evictionStrategy": "LiveMigrate",
  "migration": { "bandwidthPerMigration": "64Mi", "convergence": "adaptive" } }
JSON

n=0
one() {
	local par=$1 run=$2 i v inv="[" t0 t1 rc=0 migrated corrupt vm_s
	n=$((n + 1))
	for i in $(seq "$nvm"); do
		v=d${n}v$i
		start_memguest "$v" "$mib" 10
		start_memguest_incoming "$v-dst" "$mib"
		bg_start "$v-inc" "$QMIGRATE" incoming --qmp "$TMP/$v-dst.qmp" \
			--listen "unix:$TMP/$v.mig" --policy "$TMP/policy.json"
		inv+="{\"name\": \"$v\", \"qmp\": \"$TMP/$v.qmp\", \"to\": \"unix:$TMP/$v.mig\","
		inv+=" \"statusFile\": \"$TMP/$v.status\"},"
	done
	echo "${inv%,}]" >"$TMP/inv$n.json"
	for i in $(seq "$nvm"); do
		wait_for 30 "incoming socket of d${n}v$i" test -S "$TMP/d${n}v$i.mig"
	done
	t0=$(now_ms)
	"$QMIGRATE" drain --inventory "$TMP/inv$n.json" --max-parallel "$par" \
		--slot-dir "$TMP/slots$n" --policy "$TMP/policy.json" \
		>"$TMP/drain$n.out" 2>"$TMP/drain$n.err" || rc=$?
	t1=$(now_ms)
	migrated=$(sed -n 's/^drain: [0-9]* VMs: \([0-9]*\) migrated.*/\1/p' "$TMP/drain$n.out")
	# Each VM's own migration time (its status file's totalTimeMs).
	vm_s=$(for i in $(seq "$nvm"); do
		jq -r '.progress.totalTimeMs // 0' "$TMP/d${n}v$i.status" 2>/dev/null || echo 0
	done | awk '{ printf "%.1f\n", $1 / 1000 }' | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	corrupt=0
	for i in $(seq "$nvm"); do
		v=d${n}v$i
		bg_wait "$v-inc" 60 >/dev/null 2>&1 || true
		corrupt=$((corrupt + $(cat "$TMP/$v.serial" "$TMP/$v-dst.serial" | grep -ac 'memguest: CORRUPT' || true)))
	done
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$par" "$run" \
		"$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1000 }')" \
		"$rc" "${migrated:-?}" "$vm_s" "$corrupt" | tee -a "$results" >&2
	[ "$rc" -eq 0 ] || { echo "bench: drain exit $rc:" >&2; tail -n 5 "$TMP/drain$n.out" "$TMP/drain$n.err" >&2; }
	cp "$TMP/drain$n.out" "$out/drain-$par-$run.out"
	for i in $(seq "$nvm"); do
		kill_guest "d${n}v$i"
		kill_guest "d${n}v$i-dst"
	done
}

started=$(date -u '+%Y-%m-%d %H:%M UTC')
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
k=0
for run in $(seq "$runs"); do
	for i in "${!pars[@]}"; do
		one "${pars[$(((i + k) % ${#pars[@]}))]}" "$run"
	done
	k=$((k + 1))
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

col() {
	awk -F'\t' -v k="$1" -v f="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == k { print $c[f] }' "$results"
}
rep=$out/report.md
{
	echo "## Drain: $nvm guests on one node, --max-parallel ${pars[*]}"
	echo
	echo "bench/drain.sh, $started, commit $(bench_rev)."
	echo
	echo "Machine: $(bench_machine | sed 's/, load average.*//'); load average"
	echo "$load_before before, $load_after after (shared machine)."
	echo
	echo "Command: \`BENCH_MIB=$mib BENCH_RUNS=$runs bench/drain.sh --write BUILD\`"
	echo "($nvm memguests of $mib MiB dirtying 10 MB/s, LiveMigrate, adaptive,"
	echo "64 MiB/s per migration, $runs run(s) per setting; drain time = wall time of"
	echo "\`qmigrate drain\`; per VM = median of the VMs' own migration times)."
	echo
	echo "| --max-parallel | drain s (spread) | vs --max-parallel ${pars[0]} | per VM s | migrated | exit | CORRUPT |"
	echo "|---:|---:|---:|---:|---:|---|---:|"
	local_base=$(median $(col "${pars[0]}" secs))
	for p in "${pars[@]}"; do
		mapfile -t s < <(col "$p" secs)
		mapfile -t v < <(col "$p" median_vm_s)
		printf '| %s | %s (%s) | %s | %s | %s | %s | %s |\n' "$p" \
			"$(median "${s[@]}")" "$(spread "${s[@]}")" \
			"$(awk -v a="$(median "${s[@]}")" -v b="$local_base" 'BEGIN { printf "%.2fx", a / b }')" \
			"$(median "${v[@]}")" \
			"$(col "$p" migrated | paste -sd' ' -)/$nvm" \
			"$(col "$p" exit | sort -u | paste -sd/ -)" \
			"$(col "$p" corrupt | awk '{ s += $1 } END { print s + 0 }')"
	done
} >"$rep"
cat "$rep"
if [ $bench_write = 1 ]; then
	mkdir -p "$bench_top/bench/data"
	cp "$results" "$bench_top/bench/data/drain-runs.tsv"
	bench_section drain "$rep"
fi
