#!/usr/bin/env bash
# bench/tcg-throttle.sh [--write] [BUILD-DIR]: what QEMU's CPU throttle does
# to a migration under TCG, measured with plain QMP (no controller), the
# cases of each comparison interleaved:
#
# A. the sender at a pinned throttle, on each QEMU of QEMU_VERSIONS
#    (default "7.2 10.0 11.1"): a 128 MiB memory guest writing 400 MB/s,
#    200 MiB/s cap, auto-converge at 90, 95 or 99% from the start
#    (cpu-throttle-initial = max-cpu-throttle), a downtime limit of 1 ms so
#    that it rarely completes; over 10 s: MB/s sent, and the longest time
#    the bytes sent stood still (query-migrate every 50 ms or so).  TCG
#    runs an empty job on every vCPU after each dirty-bitmap sync, which
#    waits for a vCPU asleep in the throttle (99%: 990 ms of every 1 s).
# B. on the host's QEMU, the adaptive controller's situation: the same
#    guest, the throttle armed at 90% after 4 syncs (then +10 per trigger,
#    up to 99%), the downtime limit 50 ms (its start) or 300 ms (QEMU's
#    default, the policy's when unset) throughout, BENCH_HOGS (default 2)
#    busy loops beside it as on a loaded CI machine: seconds to complete,
#    60 s at most.
#
# BENCH_RUNS (default 3) runs of each case (B: twice that); medians, and
# each run's figure for B.  BENCH_GROUPS (default "A B") picks them.
set -eu -o pipefail
. "$(dirname "$0")/bench-lib.sh"
bench_init "$@"
test_accel_tcg "TCG's throttle is what it measures"
runs=${BENCH_RUNS:-3}
versions=${QEMU_VERSIONS:-7.2 10.0 11.1}
hogs=${BENCH_HOGS:-2}
MIB=128 RATE=400 CAP=209715200

# mig_pair N: boots guest sN and its target dN; prints nothing.
mig_pair() {
	start_memguest "s$1" "$MIB" "$RATE"
	start_memguest_incoming "d$1" "$MIB" "$RATE"
	qmp "d$1" migrate-incoming '{"uri":"unix:'"$TMP/$1.sock"'"}' >/dev/null
	qmp "s$1" migrate-set-capabilities \
	    '{"capabilities":[{"capability":"auto-converge","state":true}]}' >/dev/null
}

# sample N: "ms status transferred syncs throttle" of guest sN now.
sample() {
	qmp "s$1" query-migrate | jq -r --arg t "$(now_ms)" '[$t, .status,
	    .ram.transferred // 0, .ram["dirty-sync-count"] // 0,
	    .["cpu-throttle-percentage"] // 0] | map(tostring) | join(" ")'
}

# pinned N PCT: group A's run; prints "MBS FREEZE_MS DONE" (DONE 1: it
# completed within the 14 s anyway, the guest too slow to leave anything
# dirty), figures over the samples at PCT ("-" under a second of them).
runs_done=0
pinned() {
	local n=$1 pct=$2 t0 line status tx s0 x0 last_x last_t freeze=0
	mig_pair "$n"
	qmp "s$n" migrate-set-parameters "{\"cpu-throttle-initial\":$pct,
	    \"cpu-throttle-increment\":1,\"max-cpu-throttle\":$pct,
	    \"downtime-limit\":1,\"max-bandwidth\":$CAP}" >/dev/null
	qmp "s$n" migrate '{"uri":"unix:'"$TMP/$n.sock"'"}' >/dev/null
	t0=$(now_ms) s0='' x0='' last_x='' last_t=''
	while [ $(($(now_ms) - t0)) -lt 14000 ]; do
		read -r line status tx _ thr <<<"$(sample "$n")"
		case $status in
		setup) continue ;;
		active) ;;
		*) break ;;
		esac
		[ "$thr" -ge "$pct" ] || continue
		[ -n "$s0" ] || { s0=$line; x0=$tx; }
		if [ "$tx" != "$last_x" ]; then
			last_x=$tx last_t=$line
		elif [ $((line - last_t)) -gt "$freeze" ]; then
			freeze=$((line - last_t))
		fi
	done
	done=0
	[ "$status" = active ] || { done=1; line=$last_t tx=$last_x; }
	if [ -z "$s0" ] || [ $((line - s0)) -lt 1000 ]; then
		echo "- - $done"
	else
		echo "$(((tx - x0) * 1000 / (line - s0) / 1000000)) $freeze $done"
	fi
	kill_guest "s$n"
	kill_guest "d$n"
}

# armed N DOWNTIME: group B's run; prints seconds to complete or "60+".
armed() {
	local n=$1 dt=$2 t0 status syncs armed=0
	mig_pair "$n"
	qmp "s$n" migrate-set-parameters "{\"cpu-throttle-initial\":1,
	    \"cpu-throttle-increment\":1,\"max-cpu-throttle\":1,
	    \"downtime-limit\":$dt,\"max-bandwidth\":$CAP}" >/dev/null
	qmp "s$n" migrate '{"uri":"unix:'"$TMP/$n.sock"'"}' >/dev/null
	t0=$(now_ms)
	while [ $(($(now_ms) - t0)) -lt 60000 ]; do
		read -r _ status _ syncs _ <<<"$(sample "$n")"
		case $status in
		completed | failed) break ;;
		esac
		if [ "$armed" -eq 0 ] && [ "$syncs" -ge 4 ]; then
			# As qmigrate arms it (src/mig-watch.c): 90, then +10.
			qmp "s$n" migrate-set-parameters '{"cpu-throttle-initial":90,
			    "cpu-throttle-increment":10,"max-cpu-throttle":99}' >/dev/null
			armed=1
		fi
		sleep 0.05	# polling the source's status
	done
	if [ "$status" = completed ]; then
		awk -v ms=$(($(now_ms) - t0)) 'BEGIN { printf "%.1f\n", ms / 1000 }'
	else
		echo 60+
	fi
	kill_guest "s$n"
	kill_guest "d$n"
}

# header FILE TITLE: a section's title and how it was measured.
header() {
	{
		echo "## $2"
		echo
		echo "\`bench/tcg-throttle.sh\`, $(date -u '+%Y-%m-%d %H:%M') UTC, commit $(bench_rev);"
		echo "$(bench_machine | sed 's/, QEMU emulator.*, load/, load/'); plain QMP, TCG, unix socket."
	} >"$1"
}

# figure K FILE: the median of field K of FILE's lines, "-" when none.
figure() {
	awk -v k="$1" '$k != "-" { print $k }' "$2" | sort -n |
		awk '{ a[NR] = $1 } END { print NR ? a[int((NR + 1) / 2)] : "-" }'
}

groups=${BENCH_GROUPS:-A B}
case " $groups " in
*" A "*)
	report=$TMP/report-A.md
	header "$report" "TCG: the sender at a pinned CPU throttle"
	{
		echo
		echo "128 MiB guest writing 400 MB/s, 200 MiB/s cap, auto-converge pinned"
		echo "from the start, downtime limit 1 ms; while QEMU reports the throttle at"
		echo "that level (14 s at most): MB/s sent and the longest stretch in which"
		echo "nothing was sent, median of $runs runs (of those with a second or more"
		echo "at the level); a run that left nothing dirty completed anyway: a sync"
		echo "takes its snapshot before it waits for the sleeping vCPU, so the deeper"
		echo "the throttle, the less it finds."
		echo
		echo "| QEMU | throttle | MB/s sent | longest standstill ms | completed anyway |"
		echo "| --- | --- | --- | --- | --- |"
	} >>"$report"
	for v in $versions; do
		QEMU_SRC_VERSION=$v QEMU_DST_VERSION=$v
		for p in 90 95 99; do : >"$TMP/A-$v-$p"; done
		for ((i = 0; i < runs; i++)); do
			for p in 90 95 99; do
				runs_done=$((runs_done + 1))
				pinned "$runs_done" "$p" >>"$TMP/A-$v-$p"
				echo "A $v $p%: $(tail -n 1 "$TMP/A-$v-$p")" >&2
			done
		done
		for p in 90 95 99; do
			f=$TMP/A-$v-$p
			echo "| $v | $p% | $(figure 1 "$f") | $(figure 2 "$f") | $(awk '$3 == 1' "$f" | wc -l) of $runs |" >>"$report"
		done
	done
	cat "$report"
	[ "$bench_write" -eq 0 ] || bench_section tcg-throttle-sender "$report"
	;;
esac

case " $groups " in
*" B "*)
	QEMU_SRC_VERSION='' QEMU_DST_VERSION=''
	report=$TMP/report-B.md
	header "$report" "TCG: a late throttle under a 50 ms and a 300 ms downtime limit"
	{
		echo
		echo "The same guest; the throttle armed at 90% after 4 dirty-bitmap syncs"
		echo "(+10 per trigger, up to 99%), the downtime limit fixed, $hogs CPU hogs"
		echo "beside it; seconds to complete (60+: not within 60 s), $((2 * runs)) runs each,"
		echo "interleaved."
		echo
		echo "| downtime limit | median s | each run s |"
		echo "| --- | --- | --- |"
	} >>"$report"
	for ((h = 0; h < hogs; h++)); do
		bg_start "hog$h" bash -c 'while :; do :; done'
	done
	: >"$TMP/B-50"
	: >"$TMP/B-300"
	for ((i = 0; i < 2 * runs; i++)); do
		for dt in 50 300; do
			runs_done=$((runs_done + 1))
			armed "$runs_done" "$dt" >>"$TMP/B-$dt"
			echo "B ${dt} ms: $(tail -n 1 "$TMP/B-$dt")" >&2
		done
	done
	for dt in 50 300; do
		echo "| $dt ms | $(sed 's/+//' "$TMP/B-$dt" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }') | $(tr '\n' ' ' <"$TMP/B-$dt" | sed 's/ $//') |" >>"$report"
	done
	cat "$report"
	[ "$bench_write" -eq 0 ] || bench_section tcg-throttle-downtime "$report"
	;;
esac
