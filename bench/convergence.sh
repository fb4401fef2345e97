#!/usr/bin/env bash
# bench/convergence.sh: how a busy guest's migration ends under four
# drivers given the same permissions, side by side in one run.
#
#   plain     what a script without an engine gets: `qmigrate qmp` sets
#             max-bandwidth and the capabilities the permission allows,
#             `migrate`, then query-migrate every 0.5 s until it ends.  It
#             never switches to post-copy by itself (QEMU's defaults), so a
#             migration that cannot converge runs until BENCH_PLAIN_CAP
#             seconds and is cancelled ("did not finish").
#   kubevirt  qmigrate migrate --convergence kubevirt: KubeVirt's classic
#             monitor at its default timeouts (150 s per GiB,
#             progressTimeout 150 s)
#   kubevirt-stall  the same with a MigrationPolicy whose
#             spec.experimental.stallDetector is {} (KubeVirt's newest
#             monitor at its defaults; maxDowntimeMs 900)
#   kubevirt-tuning  ... whose spec.experimental.downtimeTuning is {} (the
#             classic monitor raising the downtime limit from 150 to 900 ms;
#             KubeVirt refuses both experimental fields in one policy)
#   adaptive  qmigrate migrate --convergence adaptive
#   adaptive-alt  the same with the qmigrate of BENCH_ALT_QMIGRATE (another
#             build, to measure one change side by side)
#
# Permissions: a = post-copy allowed, b = auto-converge only, c = neither.
# Guest: memguest of BENCH_MIB MiB dirtying 0, 50, 150, 400 MB/s; bandwidth
# capped at 100 MiB/s.  Recorded per run: total time (QEMU's total-time when
# completed, else the wall time until the driver gave up), downtime, bytes
# sent (and over the guest's RAM), how it ended, the controller's
# decisions, when post-copy started, and the guest's work rate (memguest's
# pages_checked per second) during the migration and during post-copy
# against the 3 s before it.  The order of the drivers rotates from case to case so
# that a busier moment of this shared machine does not always hit the same
# one.  Remaining bytes over time (first run) go to convergence.png.
#
# Modes (what `make bench` runs is the standard one, about 35 min here):
#   standard  memguest 128 MiB, workloads 0 50 150 400, permissions a b c,
#             3 runs; a case whose first run ended on a timer (the plain
#             driver's cap, or a kubevirt timeout: completion time or
#             progressTimeout, 150 s each) is not repeated: its time is the
#             timer's, and three of them would not fit in 45 minutes.
#   full      BENCH_FULL=1: memguest 1024 MiB, every case 3 runs, plain cap
#             600 s (about 3 hours on 2 cores).
#   quick     BENCH_QUICK=1: 256 MiB, 1 run, workloads 50 and 400,
#             permissions a and c (a smoke run, ~15 min).
#
# usage: bench/convergence.sh [--write] [BUILD-DIR]
# env:   BENCH_FULL=1, BENCH_QUICK=1 (above); overrides: BENCH_MIB,
#        BENCH_RUNS, BENCH_RATES, BENCH_PERMS, BENCH_DRIVERS ("plain
#        kubevirt kubevirt-stall adaptive"), BENCH_BW_MIB (the bandwidth
#        cap, MiB/s, default 100), BENCH_HOT (percent of the guest's pages
#        it rewrites, memguest hot=), BENCH_ALT_QMIGRATE (for adaptive-alt),
#        BENCH_STALL (the stallDetector object of kubevirt-stall, JSON,
#        default {}),
#        BENCH_PLAIN_CAP (s), BENCH_PLAIN_CAP_B (s,
#        permission b; 3x the cap), BENCH_REPEAT_TIMED=1
#        (repeat timer-bound cases too), BENCH_OUT (raw data directory,
#        default BUILD-DIR/bench-out)
set -euo pipefail
. "$(dirname "$0")/bench-lib.sh"
bench_init "$@"
bench_need_pkg gnuplot gnuplot-nox

repeat_timed=${BENCH_REPEAT_TIMED:-}
if [ -n "${BENCH_QUICK:-}" ]; then
	mib=${BENCH_MIB:-256} runs=${BENCH_RUNS:-1}
	rates=${BENCH_RATES:-50 400} perms=${BENCH_PERMS:-a c}
	cap=${BENCH_PLAIN_CAP:-180} mode=quick
elif [ -n "${BENCH_FULL:-}" ]; then
	mib=${BENCH_MIB:-1024} runs=${BENCH_RUNS:-3}
	rates=${BENCH_RATES:-0 50 150 400} perms=${BENCH_PERMS:-a b c}
	cap=${BENCH_PLAIN_CAP:-600} mode=full repeat_timed=1
else
	mib=${BENCH_MIB:-128} runs=${BENCH_RUNS:-3}
	rates=${BENCH_RATES:-0 50 150 400} perms=${BENCH_PERMS:-a b c}
	cap=${BENCH_PLAIN_CAP:-60} mode=standard
fi
# With auto-converge QEMU alone finishes in the end: its cap is longer.
cap_b=${BENCH_PLAIN_CAP_B:-$((cap * 3))}
drivers=(${BENCH_DRIVERS:-plain kubevirt kubevirt-stall adaptive})
bw_mib=${BENCH_BW_MIB:-100}
hot=${BENCH_HOT:-100}
[ "$hot" = 100 ] || export MEMGUEST_HOT=$hot
out=${BENCH_OUT:-$top_builddir/bench-out}/convergence
rm -rf "$out"
mkdir -p "$out/series"
bw=$((bw_mib * 1048576))
# One pass of the guest's memory over the cap (issue 25's one-pass limit).
one_pass=$(awk -v m="$mib" -v b="$bw_mib" 'BEGIN { printf "%.1f", m / b }')
results=$out/runs.tsv
printf 'rate\tperm\tdriver\trun\ttotal_ms\twall_ms\tdowntime_ms\tbytes\tended\texit\tdecisions\tbase_pps\tmig_pps\tcorrupt\tpostcopy_s\tpc_pps\n' >"$results"

perm_name() {
	case $1 in
	a) echo "post-copy allowed" ;;
	b) echo "auto-converge only" ;;
	c) echo "neither" ;;
	esac
}

# The policy of permission P for qmigrate (the controller comes from
# --convergence): KubeVirt's default timeouts, the bandwidth cap; and the
# same as a MigrationPolicy with spec.experimental for kubevirt-stall and
# kubevirt-tuning (selecting the VM by the label bench=yes).
for p in $perms; do
	case $p in
	a) m='"allowPostCopy": true, "allowAutoConverge": false' ;;
	b) m='"allowPostCopy": false, "allowAutoConverge": true' ;;
	c) m='"allowPostCopy": false, "allowAutoConverge": false' ;;
	*) fail "unknown permission $p" ;;
	esac
	printf '{ "name": "bench-%s", "migration": { "bandwidthPerMigration": "%sMi", %s } }\n' \
		"$p" "$bw_mib" "$m" >"$TMP/policy-$p.json"
	for x in stall tuning; do
		case $x in
		stall) e=stallDetector o=${BENCH_STALL:-'{}'} ;;
		tuning) e=downtimeTuning o='{}' ;;
		esac
		printf '{ "apiVersion": "migrations.kubevirt.io/v1alpha1", "kind": "MigrationPolicy", "metadata": { "name": "bench-%s-%s" }, "spec": { "selectors": { "virtualMachineInstanceSelector": { "bench": "yes" } }, "bandwidthPerMigration": "%sMi", %s, "experimental": { "%s": %s } } }\n' \
			"$p" "$x" "$bw_mib" "$m" "$e" "$o" >"$TMP/policy-$p-$x.yaml"
	done
done

qmp_get() {
	"$QMIGRATE" qmp --qmp "$TMP/$1.qmp" "$2" ${3:+"$3"}
}

# plain_settled NAME: the migration of NAME is no longer active.
plain_settled() {
	case $(qmp_get "$1" query-migrate | jq -r .status) in
	active | cancelling | setup | device | pre-switchover) return 1 ;;
	esac
}

# plain_run G P: the plain driver on pair G (sets the r_* results).
plain_run() {
	local g=$1 p=$2 s=$1s d=$1d q st t0 now caps='[]' b last_bytes=
	local limit=$cap
	[ "$p" != b ] || limit=$cap_b
	case $p in
	a) caps='[{"capability":"postcopy-ram","state":true}]' ;;
	b) caps='[{"capability":"auto-converge","state":true}]' ;;
	esac
	t0=$(now_ms)
	qmp_get "$s" migrate-set-capabilities "{\"capabilities\":$caps}" >/dev/null
	qmp_get "$d" migrate-set-capabilities "{\"capabilities\":$caps}" >/dev/null
	qmp_get "$s" migrate-set-parameters "{\"max-bandwidth\":$bw}" >/dev/null
	qmp_get "$d" migrate-incoming "{\"uri\":\"unix:$TMP/$g.mig\"}" >/dev/null
	wait_for 10 "incoming socket" test -S "$TMP/$g.mig"
	qmp_get "$s" migrate "{\"uri\":\"unix:$TMP/$g.mig\"}" >/dev/null
	r_ended="did not finish" r_exit=- r_decisions=- r_pc=
	while :; do
		q=$(qmp_get "$s" query-migrate)
		now=$(now_ms)
		st=$(jq -r .status <<<"$q")
		b=$(jq -r '.ram.transferred // empty' <<<"$q")
		[ -z "$b" ] || last_bytes=$b
		jq -r --arg t "$(((now - t0)))" \
			'"\($t | tonumber / 1000) \(.ram.remaining // 0)"' <<<"$q" \
			>>"$TMP/$g.series"
		case $st in
		completed)
			r_ended=completed
			break ;;
		failed | cancelled)
			r_ended=$st
			break ;;
		esac
		if [ $((now - t0)) -gt $((limit * 1000)) ]; then
			qmp_get "$s" migrate_cancel >/dev/null
			wait_for 30 "the cancel of $s" plain_settled "$s"
			q=$(qmp_get "$s" query-migrate)
			break
		fi
		sleep 0.5
	done
	r_end=$(now_ms)
	r_wall=$((r_end - t0))
	r_total=$(jq -r '.["total-time"] // empty' <<<"$q")
	[ "$r_ended" = completed ] || r_total=$r_wall
	r_downtime=$(jq -r '.downtime // "-"' <<<"$q")
	r_bytes=$(jq -r ".ram.transferred // \"${last_bytes:--}\"" <<<"$q")
	r_t0=$t0
}

# stamp_lines: copies stdin to stdout, each line prefixed by the wall time.
stamp_lines() {
	local l
	while IFS= read -r l; do
		printf '%s %s\n' "$EPOCHREALTIME" "$l"
	done
}

# engine_run G P DRIVER: qmigrate incoming + migrate on pair G.
engine_run() {
	local g=$1 p=$2 c=$3 s=$1s d=$1d t0 st q=$QMIGRATE
	local policy=(--policy "$TMP/policy-$p.json")
	case $c in
	kubevirt-stall | kubevirt-tuning)
		policy=(--policy "$TMP/policy-$p-${c#kubevirt-}.yaml" --label bench=yes)
		c=kubevirt ;;
	adaptive-alt)
		q=${BENCH_ALT_QMIGRATE:?adaptive-alt needs BENCH_ALT_QMIGRATE}
		c=adaptive ;;
	esac
	bg_start "$g-inc" "$q" incoming --qmp "$TMP/$d.qmp" \
		--listen "unix:$TMP/$g.mig" "${policy[@]}" \
		--status-file "$TMP/$g-dst.status"
	wait_for 30 "target prepared" test -S "$TMP/$g.mig"
	t0=$(now_ms)
	r_exit=0
	"$q" migrate --qmp "$TMP/$s.qmp" --to "unix:$TMP/$g.mig" \
		"${policy[@]}" --convergence "$c" \
		--slot-dir "$TMP/slots" --status-file "$TMP/$g-src.status" \
		--events 2>"$TMP/$g.migerr" | stamp_lines >"$TMP/$g.events" ||
		r_exit=${PIPESTATUS[0]}
	# When post-copy started: the first event in mode PostCopy.
	r_pc=$(jq -Rr 'capture("^(?<t>[0-9.]+) (?<j>.*)$") |
		(.j | fromjson?) as $e | select($e.status.mode == "PostCopy") | .t' \
		"$TMP/$g.events" 2>/dev/null | head -n 1 || true)
	r_end=$(now_ms)
	r_wall=$((r_end - t0))
	r_t0=$t0
	st=$TMP/$g-src.status
	# Remaining bytes by wall time since the start, as for plain.
	jq -Rr --arg t0 "$t0" 'capture("^(?<t>[0-9.]+) (?<j>.*)$") |
		(.t | tonumber) as $t | (.j | fromjson) | select(.event == "progress") |
		"\(($t * 1000 - ($t0 | tonumber)) / 1000) \(.status.progress.dataRemaining)"' \
		"$TMP/$g.events" >"$TMP/$g.series" 2>/dev/null || true
	case $(jq -r .phase "$st") in
	Succeeded) r_ended=completed ;;
	*) r_ended="$(jq -r .phase "$st")" ;;
	esac
	r_decisions=$(jq -r '[.decisions[].action] | if length == 0 then "-" else join(",") end' "$st")
	r_total=$(jq -r .progress.totalTimeMs "$st")
	[ "$r_ended" = completed ] || r_total=$r_wall
	r_downtime=$(jq -r '.progress.downtimeMs // "-"' "$st")
	r_bytes=$(jq -r .progress.dataProcessed "$st")
	[ "$r_ended" = completed ] || r_downtime=-
	# QEMU's own figures, as for the plain driver (the source keeps them
	# after the migration; qmigrate has let go of its monitor).
	if [ "$r_ended" = completed ]; then
		local q qt
		q=$(qmp_get "$s" query-migrate)
		qt=$(jq -r '.["total-time"] // empty' <<<"$q")
		if [ -n "$qt" ] && [ "$qt" != "$r_total" ]; then
			echo "bench: note: $c status says totalTimeMs $r_total, QEMU total-time $qt" >&2
			cp "$st" "$out/status-$g-$c.json"
		fi
		[ -z "$qt" ] || r_total=$qt
		r_downtime=$(jq -r ".downtime // \"$r_downtime\"" <<<"$q")
		r_bytes=$(jq -r ".ram.transferred // \"$r_bytes\"" <<<"$q")
	fi
	# The target exits once the migration ended, either way.
	bg_wait "$g-inc" 60 >/dev/null 2>&1 || true
}

# stamps_at_least NAME N: guest NAME has printed N progress lines.
stamps_at_least() {
	[ "$(wc -l <"$(stamps_file "$1")" 2>/dev/null || echo 0)" -ge "$2" ]
}

n=0
run_case() {
	local rate=$1 p=$2 drv=$3 run=$4 g base mig corrupt live
	n=$((n + 1))
	g=g$n
	start_memguest "${g}s" "$mib" "$rate"
	start_memguest_incoming "${g}d" "$mib"
	serial_stamps "${g}s"
	serial_stamps "${g}d"
	# 4 progress lines: 3 s of undisturbed work to compare against.
	wait_for 30 "baseline progress of ${g}s" stamps_at_least "${g}s" 4
	if [ "$drv" = plain ]; then
		plain_run "$g" "$p"
	else
		engine_run "$g" "$p" "$drv"
	fi
	# The guest runs where it ended: wait for one progress line there.
	live=${g}s
	[ "$r_ended" = completed ] && live=${g}d
	wait_progress "$TMP/$live.serial" 30 || true
	local t0=${r_t0:0:-3}.${r_t0: -3} t1=${r_end:0:-3}.${r_end: -3}
	local pc_s=- pc=-
	base=$(work_rate "$(awk -v t="$t0" 'BEGIN { printf "%.6f", t - 3 }')" "$t0" "${g}s")
	mig=$(work_rate "$t0" "$t1" "${g}s" "${g}d")
	if [ -n "$r_pc" ]; then
		pc_s=$(awk -v a="$r_pc" -v b="$t0" 'BEGIN { printf "%.1f", a - b }')
		pc=$(work_rate "$r_pc" "$t1" "${g}s" "${g}d")
		pc=${pc%% *}
	fi
	corrupt=$(cat "$TMP/${g}s.serial" "$TMP/${g}d.serial" | grep -ac 'memguest: CORRUPT' || true)
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		"$rate" "$p" "$drv" "$run" "$r_total" "$r_wall" "$r_downtime" \
		"$r_bytes" "$r_ended" "$r_exit" "$r_decisions" "${base%% *}" \
		"${mig%% *}" "$corrupt" "$pc_s" "$pc" >>"$results"
	if [ "$run" = 1 ]; then
		cp "$TMP/$g.series" "$out/series/$rate-$p-$drv.dat" 2>/dev/null || :
	fi
	printf 'bench: %4s MB/s %s %-8s run %s: %s in %s ms (wall %s ms), downtime %s ms, %s bytes, exit %s, decisions %s, post-copy at %s s, work %s -> %s pages/s (%s in post-copy), corrupt %s\n' \
		"$rate" "$p" "$drv" "$run" "$r_ended" "$r_total" "$r_wall" \
		"$r_downtime" "$r_bytes" "$r_exit" "$r_decisions" "$pc_s" \
		"${base%% *}" "${mig%% *}" "$pc" "$corrupt" >&2
	kill_guest "${g}s"
	kill_guest "${g}d"
	rm -f "$TMP/${g}s.serial" "$TMP/${g}d.serial"
}

# timer_bound RATE PERM DRIVER: its first run ended on a timer, not on
# the migration: the plain driver gave up at its cap, or the kubevirt
# controller acted (it only ever acts at a timeout).
timer_bound() {
	awk -F'\t' -v r="$1" -v p="$2" -v d="$3" '
		$1 == r && $2 == p && $3 == d && $4 == 1 &&
		((d == "plain" && $9 != "completed") ||
		 (d ~ /^kubevirt/ && $11 != "-")) { found = 1 }
		END { exit !found }' "$results"
}

started=$(date -u '+%Y-%m-%d %H:%M UTC')
t_started=$SECONDS
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
k=0
for run in $(seq "$runs"); do
	for rate in $rates; do
		for p in $perms; do
			# Rotate the drivers' order from case to case.
			for i in "${!drivers[@]}"; do
				drv=${drivers[$(((i + k) % ${#drivers[@]}))]}
				if [ "$run" -gt 1 ] && [ -z "$repeat_timed" ] &&
					timer_bound "$rate" "$p" "$drv"; then
					continue
				fi
				run_case "$rate" "$p" "$drv" "$run"
			done
			k=$((k + 1))
		done
	done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
elapsed_min=$(((SECONDS - t_started + 30) / 60))

# ---- summary ----
# One row per (rate, perm, driver): medians and spreads over the runs.
summary=$out/summary.tsv
printf 'rate\tperm\tdriver\truns\ttotal_s\ttotal_spread\tdowntime_ms\tdowntime_spread\tMB\tMB_spread\tended\tdecisions\twork_pct\twork_spread\tcorrupt\txram\tpostcopy_s\tpc_work_pct\n' >"$summary"
col() { # col RATE PERM DRIVER FIELD
	awk -F'\t' -v r="$1" -v p="$2" -v d="$3" -v f="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == r && $2 == p && $3 == d { print $c[f] }' "$results"
}
for rate in $rates; do
	for p in $perms; do
		for drv in "${drivers[@]}"; do
			mapfile -t tot < <(col "$rate" "$p" "$drv" total_ms | awk '{ printf "%.2f\n", $1 / 1000 }')
			mapfile -t dt < <(col "$rate" "$p" "$drv" downtime_ms | grep -v '^-$' || true)
			mapfile -t mb < <(col "$rate" "$p" "$drv" bytes | awk '$1 != "-" { printf "%.0f\n", $1 / 1e6 }')
			mapfile -t wk < <(paste <(col "$rate" "$p" "$drv" base_pps) <(col "$rate" "$p" "$drv" mig_pps) |
				awk '$1 > 0 { printf "%.0f\n", 100 * $2 / $1 }')
			ended=$(col "$rate" "$p" "$drv" ended | sort | uniq -c | awk '{ $1 = $1 "x"; print }' | paste -sd, - | sed 's/,/, /g')
			[ "$runs" -gt 1 ] || ended=${ended#1x }
			dec=$(col "$rate" "$p" "$drv" decisions | sort -u | paste -sd/ -)
			ex=$(col "$rate" "$p" "$drv" exit | sort -u | paste -sd/ -)
			[ "$drv" = plain ] || ended="$ended (exit $ex)"
			cor=$(col "$rate" "$p" "$drv" corrupt | awk '{ s += $1 } END { print s + 0 }')
			# Bytes sent over the guest's RAM (memguest's area).
			mapfile -t xr < <(col "$rate" "$p" "$drv" bytes | awk -v m="$mib" '$1 != "-" { printf "%.2f\n", $1 / (m * 1048576) }')
			mapfile -t pcs < <(col "$rate" "$p" "$drv" postcopy_s | grep -v '^-$' || true)
			mapfile -t pcw < <(paste <(col "$rate" "$p" "$drv" base_pps) <(col "$rate" "$p" "$drv" pc_pps) |
				awk '$1 > 0 && $2 != "-" { printf "%.0f\n", 100 * $2 / $1 }')
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$rate" "$p" "$drv" \
				"${#tot[@]}" "$(median "${tot[@]}")" "$(spread "${tot[@]}")" \
				"$( [ ${#dt[@]} -gt 0 ] && median "${dt[@]}" || echo -)" \
				"$( [ ${#dt[@]} -gt 0 ] && spread "${dt[@]}" || echo -)" \
				"$(median "${mb[@]}")" "$(spread "${mb[@]}")" "$ended" "$dec" \
				"$( [ ${#wk[@]} -gt 0 ] && median "${wk[@]}" || echo -)" \
				"$( [ ${#wk[@]} -gt 0 ] && spread "${wk[@]}" || echo -)" "$cor" \
				"$( [ ${#xr[@]} -gt 0 ] && median "${xr[@]}" || echo -)" \
				"$( [ ${#pcs[@]} -gt 0 ] && median "${pcs[@]}" || echo -)" \
				"$( [ ${#pcw[@]} -gt 0 ] && median "${pcw[@]}" || echo -)" >>"$summary"
		done
	done
done
sget() { # sget RATE PERM DRIVER FIELD
	awk -F'\t' -v r="$1" -v p="$2" -v d="$3" -v f="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == r && $2 == p && $3 == d { print $c[f] }' "$summary"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || a == "-" || b == "-" || b == 0) print "-"; else printf "%.2fx", a / b }'; }

# ---- chart: one panel per workload and permission, one line per driver ----
np=$(wc -w <<<"$perms") nr=$(wc -w <<<"$rates")
{
	echo "set terminal pngcairo size $((420 * nr)),$((300 * np)) font 'sans,9'"
	echo "set output '$out/convergence.png'"
	echo "set multiplot layout $np,$nr title 'memguest $mib MiB$([ "$hot" = 100 ] || echo ", hot set $hot%"), $bw_mib MiB/s cap: remaining data (MB) over time (s), first run'"
	echo "set key top right"
	echo "set grid"
	echo "set yrange [0:*]"
	for p in $perms; do
		for rate in $rates; do
			echo "set title '$rate MB/s, $(perm_name "$p")'"
			plot="plot"
			any=0
			for drv in "${drivers[@]}"; do
				f=$out/series/$rate-$p-$drv.dat
				if [ -s "$f" ]; then
					plot+=" '$f' using 1:(\$2/1e6) with lines lw 2 title '$drv',"
					any=1
				fi
			done
			if [ $any = 1 ]; then echo "${plot%,}"; else echo "plot 0 notitle"; fi
		done
	done
	echo "unset multiplot"
} >"$out/convergence.gp"
gnuplot "$out/convergence.gp"

# ---- report ----
rep=$out/report.md
{
	echo "## Convergence: plain QEMU vs qmigrate's kubevirt (classic and newest) and adaptive controllers"
	echo
	echo "bench/convergence.sh ($mode mode), $started, commit $(bench_rev)."
	echo
	echo "Machine: $(bench_machine | sed 's/, load average.*//'); load average"
	echo "$load_before before, $load_after after (the machine is shared with other"
	echo "jobs: figures are noisy, the drivers run interleaved so ratios stay fair)."
	echo
	# The BENCH_ variables given, as they were.
	given=$(for v in BENCH_QUICK BENCH_FULL BENCH_MIB BENCH_RUNS BENCH_RATES \
		BENCH_PERMS BENCH_DRIVERS BENCH_BW_MIB BENCH_HOT BENCH_STALL \
		BENCH_PLAIN_CAP BENCH_PLAIN_CAP_B BENCH_REPEAT_TIMED; do
		[ -z "${!v:-}" ] || printf '%s=%q ' "$v" "${!v}"
	done)
	if [ -z "$given" ]; then
		echo "Command: \`make bench\` (bench/convergence.sh --write BUILD)"
	else
		echo "Command: \`${given}bench/convergence.sh BUILD\`"
	fi
	echo "(memguest $mib MiB$([ "$hot" = 100 ] || echo ", hot set $hot% of it"), workloads $rates MB/s, permissions $perms,"
	echo "bandwidth $bw_mib MiB/s (one pass of the guest's memory: $one_pass s), $runs run(s) per case, plain driver cancelled after $cap s, $cap_b s with auto-converge$(
		[ -n "$repeat_timed" ] || [ "$runs" = 1 ] ||
			echo "; a case whose first run ended on a timer, the plain driver's cap or a kubevirt timeout, ran once"))."
	echo "The convergence runs took $elapsed_min min."
	echo
	echo "Total: QEMU's total-time when completed, else wall time until the driver"
	echo "gave up. Downtime: QEMU's (post-copy: the switchover's). Work: the guest's"
	echo "pages checked per second during the migration, in % of the 3 s before"
	echo "(100% = not slowed; the window runs from the last progress line before"
	echo "the start to the last one before the end); in post-copy: the same from"
	echo "the switch to the end. x RAM: bytes sent over the guest's $mib MiB."
	echo "vs 1 pass: total time over one pass of its memory ($one_pass s). Values"
	echo "are medians, the spread is min-max over the runs."
	for p in $perms; do
		echo
		echo "### Permission $p: $(perm_name "$p")"
		echo
		echo "| MB/s | driver | runs | total s (spread) | vs 1 pass | downtime ms | MB sent | x RAM | ended | decisions | post-copy at s | work % | work in post-copy % | vs plain | vs kubevirt | vs kubevirt-stall |"
		echo "|---:|---|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---:|"
		for rate in $rates; do
			for drv in "${drivers[@]}"; do
				t=$(sget "$rate" "$p" "$drv" total_s)
				vp=- vk=- vs=-
				[ "$drv" = plain ] || vp=$(ratio "$t" "$(sget "$rate" "$p" plain total_s)")
				case $drv in
				adaptive*)
					vk=$(ratio "$t" "$(sget "$rate" "$p" kubevirt total_s)")
					vs=$(ratio "$t" "$(sget "$rate" "$p" kubevirt-stall total_s)") ;;
				esac
				printf '| %s | %s | %s | %s (%s) | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$rate" "$drv" \
					"$(sget "$rate" "$p" "$drv" runs)" \
					"$t" "$(sget "$rate" "$p" "$drv" total_spread)" \
					"$(ratio "$t" "$one_pass")" \
					"$(sget "$rate" "$p" "$drv" downtime_ms)" \
					"$(sget "$rate" "$p" "$drv" MB)" \
					"$(sget "$rate" "$p" "$drv" xram)" \
					"$(sget "$rate" "$p" "$drv" ended)" \
					"$(sget "$rate" "$p" "$drv" decisions)" \
					"$(sget "$rate" "$p" "$drv" postcopy_s)" \
					"$(sget "$rate" "$p" "$drv" work_pct)" \
					"$(sget "$rate" "$p" "$drv" pc_work_pct)" "$vp" "$vk" "$vs"
			done
		done
	done
	echo
	echo "Ratios: total time of the row / the peer's (below 1: sooner)."
	c=$(awk -F'\t' 'NR > 1 { s += $14 } END { print s + 0 }' "$results")
	echo "CORRUPT lines from the guests over all runs: $c."
	echo
	echo "### Targets of issue 8 (convergence)"
	echo
	echo "Adaptive vs kubevirt on the 150 and 400 MB/s workloads: at least 5x"
	echo "sooner, downtime no higher, guest slowdown (100 / work %) no worse than 1.5x:"
	echo
	for rate in $rates; do
		[ "$rate" -ge 150 ] || continue
		for p in $perms; do
			ta=$(sget "$rate" "$p" adaptive total_s) tk=$(sget "$rate" "$p" kubevirt total_s)
			da=$(sget "$rate" "$p" adaptive downtime_ms) dk=$(sget "$rate" "$p" kubevirt downtime_ms)
			wa=$(sget "$rate" "$p" adaptive work_pct) wk=$(sget "$rate" "$p" kubevirt work_pct)
			[ -n "$ta" ] && [ -n "$tk" ] || continue
			v=$(awk -v ta="$ta" -v tk="$tk" -v da="$da" -v dk="$dk" -v wa="$wa" -v wk="$wk" 'BEGIN {
				s = tk / ta
				t = (s >= 5) ? "met" : "NOT met"
				printf "%.1fx sooner (%s)", s, t
				if (da == "-" || dk == "-") printf "; downtime: n/a (%s vs %s ms)", da, dk
				else printf "; downtime %s vs %s ms (%s)", da, dk, (da + 0 <= dk + 0) ? "met" : "NOT met"
				if (wa == "-" || wk == "-" || wa == 0 || wk == 0) printf "; slowdown n/a"
				else { r = (100 / wa) / (100 / wk); printf "; slowdown %.2fx kubevirt'"'"'s (%s)", r, (r <= 1.5) ? "met" : "NOT met" }
			}')
			echo "- $rate MB/s, $(perm_name "$p"): adaptive $ta s ($(sget "$rate" "$p" adaptive ended)) vs kubevirt $tk s ($(sget "$rate" "$p" kubevirt ended)): $v."
		done
	done
	echo
	echo "qmigrate within 5% of plain QEMU's total time where plain QEMU completes"
	echo "(the converging workloads):"
	echo
	for rate in $rates; do
		for p in $perms; do
			# Only where every run of plain completed ("3x completed").
			case $(sget "$rate" "$p" plain ended) in
			*,*) continue ;;
			*completed) ;;
			*) continue ;;
			esac
			tp=$(sget "$rate" "$p" plain total_s)
			for drv in kubevirt adaptive; do
				t=$(sget "$rate" "$p" "$drv" total_s)
				[ -n "$t" ] || continue
				echo "- $rate MB/s, $(perm_name "$p"), $drv: $t s vs $tp s = $(ratio "$t" "$tp") ($(awk -v a="$t" -v b="$tp" 'BEGIN { print (a <= b * 1.05) ? "met" : "NOT met" }'))."
			done
		done
	done
	echo
	echo "![remaining data over time](convergence.png)"
} >"$rep"
cat "$rep"
cp "$results" "$summary" "$out/convergence.png" "$TMP/" 2>/dev/null || :
if [ $bench_write = 1 ]; then
	cp "$out/convergence.png" "$bench_top/bench/convergence.png"
	mkdir -p "$bench_top/bench/data"
	cp "$results" "$bench_top/bench/data/convergence-runs.tsv"
	bench_section convergence "$rep"
fi
