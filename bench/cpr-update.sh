#!/usr/bin/env bash
# bench/cpr-update.sh [--write] [BUILD-DIR]: the in-place updates, by
# cpr-exec (`qmigrate update --mode exec`: the QEMU process execs the new
# command line) and by cpr-transfer (`qmigrate update`: to a second QEMU),
# against a normal local migration (`qmigrate migrate` to `qmigrate
# incoming` over a unix socket, no bandwidth cap, the adaptive controller,
# auto-converge allowed: without it this guest never converges here and
# the controller gives up) of the same busy memory guest, side by side in
# one run (the runs of the three interleaved), for 256 MiB and 1 GiB
# guests rewriting BENCH_RATE MB/s (default 150).  Figures: the guest's
# pause as QEMU's events show it (its STOP on the old QEMU to its RESUME
# on the new one, QEMU's own timestamps, from QMIGRATE_QMP_TRACE), QEMU's
# downtime figure (the old QEMU's stop to its completion: it leaves out
# the new QEMU's start, which cpr-exec's pause holds), the whole command's
# time (update: from its start to the guest on the new QEMU and the old
# one gone), the bytes QEMU sent (cpr-exec: the state file's size), and
# the VM's QEMU processes' RSS (VmRSS, all of them on the host) before
# the command and after it.  Issue 31's goals: a pause of 10 ms or less
# whatever the size, under 1 MiB sent, under 1 s in all.
#
# The pods' memory: each QEMU starts in a memory cgroup of its own (v1), as
# a pod's would (the new QEMU of cpr-transfer in a second pod): the
# source pod's and the target pod's usage after the command (what each
# pod's limit still counts: cpr-transfer's memfd pages stay charged to the
# old QEMU's pod after it quits, the new QEMU only mapping them) and their
# peak during it (memory.max_usage_in_bytes, reset at the command's start).
# cpr-exec has one pod.  Where cgroups cannot be made, "-".
#
# BENCH_RUNS (default 3) runs of each case, the median reported;
# BENCH_QEMU (default 11.1) the QEMU of both sides; BENCH_SIZES (default
# "256 1024") the guests' MiB.  A normal migration that does not complete
# in 120 s is reported as such.
set -eu -o pipefail
. "$(dirname "$0")/bench-lib.sh"
bench_init "$@"
# shellcheck source=../tests/cpr-lib.sh
. "$top_srcdir/tests/cpr-lib.sh"
# shellcheck source=../tests/cpr-exec-lib.sh
. "$top_srcdir/tests/cpr-exec-lib.sh"
runs=${BENCH_RUNS:-3}
rate=${BENCH_RATE:-150}
sizes=${BENCH_SIZES:-256 1024}
export QEMU_SRC_VERSION=${BENCH_QEMU:-11.1} QEMU_DST_VERSION=${BENCH_QEMU:-11.1}
# A 1 GiB guest boots slowly under TCG on a loaded host (tests/lib.sh).
# shellcheck disable=SC2034
MEMGUEST_BOOT_TIMEOUT=300

echo '{ "name": "converge", "migration": { "allowAutoConverge": true } }' >"$TMP/converge.json"
n=0
# rss NAME...: the guests' QEMUs' VmRSS together, MiB (a QEMU gone: 0).
rss() {
	local name kb=0 v
	for name in "$@"; do
		_lib_pid_of "$name"
		v=$(awk '/^VmRSS:/ { print $2 }' "/proc/$_lib_pid/status" 2>/dev/null) || v=0
		kb=$((kb + ${v:-0}))
	done
	echo $((kb / 1024))
}

# pod NAME: what starts from now on starts in NAME's memory cgroup (its
# pages charged there from its first: v1 cannot move charges here,
# memory.move_charge_at_immigrate is refused), until pod_end.
cg=/sys/fs/cgroup/memory
home=$cg$(awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup)
pods=()
pod() {
	local d=$cg/qmbench-$$-$1
	mkdir "$d" 2>/dev/null && echo $$ >"$d/cgroup.procs" 2>/dev/null || return 0
	pods+=("$d")
}
pod_end() {
	echo $$ >"$home/cgroup.procs" 2>/dev/null || true
}

# pod_reset NAME...: their pods' peaks start again now.
pod_reset() {
	local name
	for name in "$@"; do
		echo 0 >"$cg/qmbench-$$-$name/memory.max_usage_in_bytes" 2>/dev/null || true
	done
}

# pod_mib NAME: "usage peak" of NAME's pod, MiB ("- -" without one).
pod_mib() {
	local d=$cg/qmbench-$$-$1
	[ -r "$d/memory.usage_in_bytes" ] || { echo "- -"; return; }
	echo "$(($(cat "$d/memory.usage_in_bytes") / 1048576)) $(($(cat "$d/memory.max_usage_in_bytes") / 1048576))"
}

# pods_remove: the pods, once their last QEMU has left (a killed QEMU's
# exit is not synchronous with its kill: 5 s at most each).
pods_remove() {
	local d i
	for d in "${pods[@]}"; do
		for ((i = 0; i < 50; i++)); do
			rmdir "$d" 2>/dev/null && break
			sleep 0.1	# no event says a cgroup emptied (v1)
		done
	done
}
lib_on_exit pods_remove

# pause_ms DIR: the guest's pause in the QMP traces of DIR: from the last
# STOP before the first RESUME after a STOP to that RESUME (QEMU's event
# timestamps, the same host clock for every QEMU), ms.  A RESUME that came
# before qmigrate's monitor was back (cpr-exec: the new QEMU may run the
# guest before the reconnect) is not in the traces: then the first
# query-status answer "running" after the STOP (the trace's own clock, the
# same host's) bounds it, and the figure is followed by "+" ("at most").
# "-" without a STOP.
pause_ms() {
	cat "$1"/*.jsonl 2>/dev/null | jq -rs '
		[ .[] | select(.d == "<")
		  | if .m.event == "STOP" or .m.event == "RESUME" then
		      { e: .m.event, t: (.m.timestamp.seconds * 1000000 + .m.timestamp.microseconds) }
		    elif (.m.return | type) == "object" and .m.return.status == "running" then
		      { e: "RUNNING", t: (.t * 1000000) }
		    else empty end ]
		| sort_by(.t) as $ev
		| ([ $ev[] | select(.e == "STOP") ] | first) as $s
		| if $s == null then "-" else
		  ([ $ev[] | select((.e == "RESUME" or .e == "RUNNING") and .t > $s.t) ] | first) as $r
		  | if $r == null then "-" else
		    ([ $ev[] | select(.e == "STOP" and .t < $r.t) ] | last) as $s2
		    | (($r.t - $s2.t) / 1000 | floor | tostring) + (if $r.e == "RUNNING" then "+" else "" end) end end'
}

# run_update MIB: prints "pause_ms downtime_ms total_ms bytes rss_before
# rss_after", or "failed WHY".
run_update() {
	local mib=$1 t0 t1 st rc=0 before
	n=$((n + 1))
	st=$TMP/u$n.status
	pod "o$n"
	cpr_start_old "o$n" "$mib" "$rate"
	pod "n$n"
	cpr_start_new "n$n" "$mib" defer
	pod_end
	before=$(rss "o$n" "n$n")
	mkdir -p "$TMP/trace$n"
	pod_reset "o$n" "n$n"
	t0=$(now_ms)
	QMIGRATE_QMP_TRACE=$TMP/trace$n "$QMIGRATE" update --qmp "$TMP/o$n.qmp" --new-qmp "$TMP/n$n.qmp" \
		--to "unix:$TMP/n$n.main" --cpr "unix:$TMP/n$n.cpr" --defer \
		--status-file "$st" >/dev/null 2>"$TMP/u$n.err" || rc=$?
	wait_guest_exit "o$n" 30
	t1=$(now_ms)
	if [ "$rc" -ne 0 ]; then
		echo "failed exit $rc"
	else
		echo "$(pause_ms "$TMP/trace$n") $(jq -r '.progress.downtimeMs // "-"' "$st") $((t1 - t0)) $(jq -r .progress.dataProcessed "$st") $before $(rss "n$n") $(pod_mib "o$n") $(pod_mib "n$n")"
	fi
	kill_guest "n$n"
}

# run_exec MIB: the same for an update by cpr-exec, to the same binary.
run_exec() {
	local mib=$1 t0 t1 st rc=0 before
	n=$((n + 1))
	st=$TMP/e$n.status
	pod "e$n"
	CPR_EXEC_BARE=1 cpr_exec_start "e$n" "$mib" "$rate"
	pod_end
	printf '%s\n' /usr/bin/qemu-system-x86_64 "${CPR_EXEC_ARGS[@]}" -incoming "file:$TMP/e$n.state" >"$TMP/e$n.cmd"
	before=$(rss "e$n")
	mkdir -p "$TMP/trace$n"
	pod_reset "e$n"
	t0=$(now_ms)
	QMIGRATE_QMP_TRACE=$TMP/trace$n "$QMIGRATE" update --mode exec --qmp "$TMP/e$n.qmp" \
		--to "file:$TMP/e$n.state" --new-command "$TMP/e$n.cmd" \
		--status-file "$st" >/dev/null 2>"$TMP/e$n.err" || rc=$?
	t1=$(now_ms)
	if [ "$rc" -ne 0 ]; then
		echo "failed exit $rc: $(jq -r .failureReason "$st" | cut -c1-80)"
	else
		echo "$(pause_ms "$TMP/trace$n") $(jq -r '.progress.downtimeMs // "-"' "$st") $((t1 - t0)) $(stat -c %s "$TMP/e$n.state") $before $(rss "e$n") $(pod_mib "e$n") - -"
	fi
	kill_guest "e$n"
}

# run_migrate MIB: the same for a normal local migration.
run_migrate() {
	local mib=$1 t0 t1 st rc=0 before
	n=$((n + 1))
	st=$TMP/m$n.status
	pod "s$n"
	cpr_start_old "s$n" "$mib" "$rate"
	cpr_ram_args "$mib"
	pod "d$n"
	start_memguest_incoming "d$n" "$mib" "$rate" "${CPR_RAM_ARGS[@]}"
	pod_end
	mkdir -p "$TMP/trace$n"
	QMIGRATE_QMP_TRACE=$TMP/trace$n bg_start "in$n" "$QMIGRATE" incoming --qmp "$TMP/d$n.qmp" \
		--listen "unix:$TMP/m$n.sock" --policy "$TMP/converge.json" \
		--status-file "$TMP/in$n.status"
	wait_for 30 "d$n prepared" eval "[ \"\$(jq -r .phase '$TMP/in$n.status' 2>/dev/null)\" = TargetReady ]"
	before=$(rss "s$n" "d$n")
	pod_reset "s$n" "d$n"
	t0=$(now_ms)
	QMIGRATE_QMP_TRACE=$TMP/trace$n "$QMIGRATE" migrate --qmp "$TMP/s$n.qmp" --to "unix:$TMP/m$n.sock" \
		--policy "$TMP/converge.json" --status-file "$st" --timeout 120 >/dev/null 2>"$TMP/m$n.err" || rc=$?
	t1=$(now_ms)
	if [ "$rc" -ne 0 ]; then
		echo "failed exit $rc: $(jq -r .failureReason "$st" | cut -c1-80)"
	else
		echo "$(pause_ms "$TMP/trace$n") $(jq -r '.progress.downtimeMs // "-"' "$st") $((t1 - t0)) $(jq -r .progress.dataProcessed "$st") $before $(rss "s$n" "d$n") $(pod_mib "s$n") $(pod_mib "d$n")"
	fi
	kill_guest "s$n"
	kill_guest "d$n"
}

# col N FILE: field N of the lines of FILE that did not fail: "median
# (min-max)", a "+" after it where any was a bound (pause_ms).
col() {
	local v bound=
	v=$({ grep -v '^failed' "$2" || true; } | awk -v n="$1" '{ print $n }')
	[ -n "$v" ] && [[ $v != *-* ]] || { echo -; return; }
	[[ $v != *+* ]] || bound=+
	v=${v//+/}
	# shellcheck disable=SC2086 # one number a word
	echo "$(median $v)$bound ($(spread $v))"
}

report=$TMP/report.md
ver=$(bash "$top_srcdir/tests/qemu-wrap.sh" "$QEMU_SRC_VERSION" --version | head -n 1 |
	sed 's/QEMU emulator version \([^ ]*\).*/\1/')
{
	echo "## In-place updates (cpr-exec, cpr-transfer) against a local migration"
	echo
	echo "\`bench/cpr-update.sh\`, $(date -u '+%Y-%m-%d %H:%M') UTC, commit $(bench_rev);"
	echo "$(bench_machine | sed 's/, QEMU emulator.*, load/, load/'); QEMU $ver on both sides, $(test_accel_pick; echo "$TEST_ACCEL"),"
	echo "the memory guest rewriting $rate MB/s, its RAM a shared memfd in both cases;"
	echo "the local migration with no bandwidth cap and auto-converge allowed;"
	echo "median (min-max) of $runs runs per case, the three interleaved.  Pause: the guest's,"
	echo "QEMU's STOP on the old QEMU to its RESUME on the new one (their event timestamps; \"+\":"
	echo "at most, the RESUME came before qmigrate was connected again, bounded by the first"
	echo "query-status \"running\" answer);"
	echo "QEMU downtime: the old QEMU's own figure (its stop to its completion; after a cpr-exec"
	echo "qmigrate's document has none: the old QEMU's completed is gone with the exec).  Total:"
	echo "the command's wall time (update: until the old QEMU is gone).  Bytes: what QEMU sent"
	echo "(cpr-exec: the state file).  RSS: the VM's QEMU processes' VmRSS together, MiB, before"
	echo "the command and after it (a local migration's source still holds its copy after)."
	echo "Pods: each QEMU started in a memory cgroup of its own (v1), the source's"
	echo "and the target's usage after the command (cpr-transfer: the old QEMU gone) and peak"
	echo "during it, MiB; cpr-exec has one pod."
	echo
	echo "| guest | how | pause ms | QEMU downtime ms | total ms | bytes sent | RSS before MiB | RSS after MiB | source pod after MiB | source pod peak MiB | target pod after MiB | target pod peak MiB | failed |"
	echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
} >"$report"
for mib in $sizes; do
	: >"$TMP/e-$mib"
	: >"$TMP/u-$mib"
	: >"$TMP/m-$mib"
	for ((i = 0; i < runs; i++)); do
		run_exec "$mib" >>"$TMP/e-$mib"
		echo "$mib MiB exec: $(tail -n 1 "$TMP/e-$mib")" >&2
		run_update "$mib" >>"$TMP/u-$mib"
		echo "$mib MiB update: $(tail -n 1 "$TMP/u-$mib")" >&2
		run_migrate "$mib" >>"$TMP/m-$mib"
		echo "$mib MiB migrate: $(tail -n 1 "$TMP/m-$mib")" >&2
	done
	for how in e u m; do
		f=$TMP/$how-$mib
		case $how in
		e) what="update --mode exec (cpr-exec)" ;;
		u) what="update (cpr-transfer)" ;;
		m) what="local migration" ;;
		esac
		echo "| $mib MiB | $what | $(col 1 "$f") | $(col 2 "$f") | $(col 3 "$f") | $(col 4 "$f") | $(col 5 "$f") | $(col 6 "$f") | $(col 7 "$f") | $(col 8 "$f") | $(col 9 "$f") | $(col 10 "$f") | $(grep -c '^failed' "$f" || true) of $runs$(grep -m1 '^failed' "$f" | sed 's/^failed/:/' || true) |" >>"$report"
	done
done
cat "$report"
[ "$bench_write" -eq 0 ] || bench_section cpr-update "$report"
