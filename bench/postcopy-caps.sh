#!/usr/bin/env bash
# bench/postcopy-caps.sh [--write] [BUILD-DIR]: what the capabilities
# qmigrate negotiates since issue 23 buy, measured with plain QMP (the same
# capabilities qmigrate sets, no controller in the way), the runs of each
# comparison interleaved so that they share the machine's state:
#
# A. post-copy with and without postcopy-preempt, on each QEMU of
#    QEMU_VERSIONS (default "7.2 10.0 11.1"): a 256 MiB memory guest writing
#    100 MB/s, 64 MiB/s on the wire (max-bandwidth and
#    max-postcopy-bandwidth), post-copy started once 32 MiB are sent.
#    Figures: the vCPU's time blocked on page faults during post-copy (the
#    target's postcopy-blocktime), post-copy's length, and the guest's work
#    while it lasts (the memory guest's rate_mbs on the target).
# B. on QEMU 11.1: multifd (4 channels) with post-copy against each alone,
#    the same guest writing as fast as it can, no bandwidth cap: total time,
#    downtime, blocked time, the guest's work on the target in the 3 s
#    after it resumed there.
#
# BENCH_RUNS (default 3) runs of each case; the median is reported.
# BENCH_GROUPS (default "A B") picks the comparisons; each has its own
# section of bench/RESULTS.md.
set -eu -o pipefail
. "$(dirname "$0")/bench-lib.sh"
bench_init "$@"
runs=${BENCH_RUNS:-3}
versions=${QEMU_VERSIONS:-7.2 10.0 11.1}
MIB=256

# qj NAME COMMAND [JSON]: a QMP answer, compact.
qj() {
	qmp "$@" | jq -c .
}

caps_json() {
	local c out='{"capabilities":[{"capability":"events","state":true}'
	for c in "$@"; do
		out+=',{"capability":"'$c'","state":true}'
	done
	echo "$out]}"
}

# run_one VERSION MODE RATE CAP: one migration; prints "total downtime
# postcopy_ms blocktime work_mbs" (- where it does not apply), or
# "failed WHY".  MODE: postcopy, preempt, multifd, multifd-postcopy.
runs_done=0
run_one() {
	local v=$1 mode=$2 rate=$3 cap=$4 n src dst caps=() dcaps=()
	local t_switch=0 t_done pc=0 st info total down bt work off
	# A name per run (guest names may not repeat within one $TMP).
	runs_done=$((runs_done + 1))
	n=$runs_done
	src=s$n
	dst=d$n
	QEMU_SRC_VERSION=$v QEMU_DST_VERSION=$v
	start_memguest "$src" "$MIB" "$rate"
	start_memguest_incoming "$dst" "$MIB" "$rate"
	case $mode in
	postcopy) caps=(postcopy-ram); pc=1 ;;
	preempt) caps=(postcopy-ram postcopy-preempt); pc=1 ;;
	multifd) caps=(multifd) ;;
	multifd-postcopy) caps=(multifd postcopy-ram); pc=1 ;;
	esac
	dcaps=("${caps[@]}")
	[ "$pc" -eq 0 ] || dcaps+=(postcopy-blocktime)
	qmp "$src" migrate-set-capabilities "$(caps_json "${caps[@]}")" >/dev/null
	qmp "$dst" migrate-set-capabilities "$(caps_json "${dcaps[@]}")" >/dev/null
	if [ "$mode" = multifd ] || [ "$mode" = multifd-postcopy ]; then
		qmp "$src" migrate-set-parameters '{"multifd-channels":4}' >/dev/null
		qmp "$dst" migrate-set-parameters '{"multifd-channels":4}' >/dev/null
	fi
	qmp "$src" migrate-set-parameters "{\"max-bandwidth\":$cap,\"max-postcopy-bandwidth\":$cap}" >/dev/null
	qmp "$dst" migrate-incoming '{"uri":"unix:'"$TMP/$n.sock"'"}' >/dev/null
	qmp "$src" migrate '{"uri":"unix:'"$TMP/$n.sock"'"}' >/dev/null
	if [ "$pc" -eq 1 ]; then
		wait_for 60 "32 MiB sent" eval \
			'[ "$(qmp '"$src"' query-migrate | jq ".ram.transferred // 0")" -ge 33554432 ]'
		qmp "$src" migrate-start-postcopy >/dev/null
		t_switch=$(now_ms)
	fi
	off=$(stat -c %s "$TMP/$dst.serial")
	local deadline=$((SECONDS + 60))
	while :; do
		st=$(qmp "$src" query-migrate | jq -r .status)
		case $st in
		completed | failed) break ;;
		esac
		if [ $SECONDS -ge $deadline ]; then
			qmp "$src" migrate_cancel >/dev/null 2>&1 || true
			st="no completion in 60 s"
			break
		fi
		sleep 0.05	# polling the source's status
	done
	t_done=$(now_ms)
	if [ "$st" != completed ]; then
		echo "failed $st"
		kill_guest "$src"; kill_guest "$dst"
		return 0
	fi
	info=$(qj "$src" query-migrate)
	total=$(jq -r '."total-time"' <<<"$info")
	down=$(jq -r '.downtime // "-"' <<<"$info")
	wait_for 30 "$dst completed" eval \
		'[ "$(qmp '"$dst"' query-migrate | jq -r .status)" = completed ]'
	bt=$(qmp "$dst" query-migrate | jq -r '."postcopy-blocktime" // "-"')
	# The guest's work on the target: 3 s of it after it resumed there.
	wait_for 30 "3 progress lines on $dst" eval \
		'[ "$(grep -ac "^memguest: progress" "$TMP/'"$dst"'.serial")" -ge 3 ]'
	work=$(grep -a '^memguest: progress' "$TMP/$dst.serial" | head -n 3 |
		sed 's/.*rate_mbs=//' | awk '{ s += $1 } END { printf "%d", s / NR }')
	assert_no_corrupt "$TMP/$dst.serial"
	echo "$total $down $([ "$pc" -eq 1 ] && echo $((t_done - t_switch)) || echo -) $bt $work"
	kill_guest "$src"
	kill_guest "$dst"
}

# med_in: the median of the numbers on stdin ("-" when none).
med_in() {
	sort -n | awk '{ a[NR] = $1 } END { if (NR == 0) print "-"; else print a[int((NR + 1) / 2)] }'
}

# col N FILE: field N of the lines of FILE that did not fail, median.
col() {
	{ grep -v '^failed' "$2" || true; } | awk -v n="$1" '$n != "-" { print $n }' | med_in
}

groups=${BENCH_GROUPS:-A B}
# header FILE TITLE: a section's title and how it was measured.
header() {
	{
		echo "## $2"
		echo
		echo "\`bench/postcopy-caps.sh\`, $(date -u '+%Y-%m-%d %H:%M') UTC, commit $(bench_rev);"
		echo "$(bench_machine | sed 's/, QEMU emulator.*, load/, load/'); plain QMP, TCG, unix socket,"
		echo "median of $runs runs per case, the cases of a comparison interleaved."
	} >"$1"
}

report=$TMP/report-A.md
case " $groups " in
*" A "*)
header "$report" "Post-copy with and without postcopy-preempt"
{
	echo
	echo "256 MiB guest writing 100 MB/s, 64 MiB/s cap, post-copy from 32 MiB sent."
	echo "Blocked: the target's postcopy-blocktime (ms the vCPU waited on faults);"
	echo "work: the guest's MB/s on the target in its first 3 s there (asked: 100)."
	echo
	echo
	echo "| QEMU | preempt | post-copy ms | blocked ms | downtime ms | work MB/s | failed |"
	echo "| --- | --- | --- | --- | --- | --- | --- |"
} >>"$report"
for v in $versions; do
	ver=$(bash "$top_srcdir/tests/qemu-wrap.sh" "$v" --version | head -n 1 |
		sed 's/QEMU emulator version \([^ ]*\).*/\1/')
	: >"$TMP/A-$v-postcopy"
	: >"$TMP/A-$v-preempt"
	for ((i = 0; i < runs; i++)); do
		for m in postcopy preempt; do
			run_one "$v" "$m" 100 67108864 >>"$TMP/A-$v-$m"
			echo "A $v $m: $(tail -n 1 "$TMP/A-$v-$m")" >&2
		done
	done
	for m in postcopy preempt; do
		f=$TMP/A-$v-$m
		echo "| $ver | $([ $m = preempt ] && echo on || echo off) | $(col 3 "$f") | $(col 4 "$f") | $(col 2 "$f") | $(col 5 "$f") | $(grep -c '^failed' "$f" || true) of $runs |" >>"$report"
	done
done
cat "$report"
[ "$bench_write" -eq 0 ] || bench_section postcopy-preempt "$report"
;;
esac

case " $groups : $versions " in
*" B "*:*" 11.1"*)
	report=$TMP/report-B.md
	header "$report" "QEMU 11.1: multifd with post-copy against each alone"
	{
		echo
		echo "256 MiB guest writing as fast as it can (rate 1000 MB/s), no bandwidth"
		echo "cap; multifd: 4 channels; post-copy from 32 MiB sent.  Work: the guest's"
		echo "MB/s on the target in its first 3 s there."
		echo
		echo "| mode | total ms | downtime ms | post-copy ms | blocked ms | work MB/s | failed |"
		echo "| --- | --- | --- | --- | --- | --- | --- |"
	} >>"$report"
	for m in postcopy multifd multifd-postcopy; do : >"$TMP/B-$m"; done
	for ((i = 0; i < runs; i++)); do
		for m in postcopy multifd multifd-postcopy; do
			run_one 11.1 "$m" 1000 0 >>"$TMP/B-$m"
			echo "B 11.1 $m: $(tail -n 1 "$TMP/B-$m")" >&2
		done
	done
	for m in postcopy multifd multifd-postcopy; do
		f=$TMP/B-$m
		echo "| $m | $(col 1 "$f") | $(col 2 "$f") | $(col 3 "$f") | $(col 4 "$f") | $(col 5 "$f") | $(grep -c '^failed' "$f" || true) of $runs |" >>"$report"
	done
	cat "$report"
	[ "$bench_write" -eq 0 ] || bench_section multifd-postcopy "$report"
	;;
esac
