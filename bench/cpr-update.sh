#!/usr/bin/env bash
# bench/cpr-update.sh [--write] [BUILD-DIR]: an in-place update by
# cpr-transfer (`qmigrate update`) against a normal local migration
# (`qmigrate migrate` to `qmigrate incoming` over a unix socket, no
# bandwidth cap, the adaptive controller, auto-converge allowed: without
# it this guest never converges here and the controller gives up) of the same
# busy memory guest, side by side in one run (the runs of the two
# interleaved), for 256 MiB and 1 GiB guests rewriting BENCH_RATE MB/s
# (default 150).  Figures: the guest's pause (QEMU's downtime), the whole
# command's time (update: from its start to the old QEMU gone), the bytes
# QEMU sent.  Issue 31's goals: a pause of 10 ms or less whatever the
# size, under 1 MiB sent, under 1 s in all.
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
runs=${BENCH_RUNS:-3}
rate=${BENCH_RATE:-150}
sizes=${BENCH_SIZES:-256 1024}
export QEMU_SRC_VERSION=${BENCH_QEMU:-11.1} QEMU_DST_VERSION=${BENCH_QEMU:-11.1}
# A 1 GiB guest boots slowly under TCG on a loaded host (tests/lib.sh).
# shellcheck disable=SC2034
MEMGUEST_BOOT_TIMEOUT=300

echo '{ "name": "converge", "migration": { "allowAutoConverge": true } }' >"$TMP/converge.json"
n=0
# run_update MIB: prints "pause_ms total_ms bytes", or "failed WHY".
run_update() {
	local mib=$1 t0 t1 st rc=0
	n=$((n + 1))
	st=$TMP/u$n.status
	cpr_start_old "o$n" "$mib" "$rate"
	cpr_start_new "n$n" "$mib" defer
	t0=$(now_ms)
	"$QMIGRATE" update --qmp "$TMP/o$n.qmp" --new-qmp "$TMP/n$n.qmp" \
		--to "unix:$TMP/n$n.main" --cpr "unix:$TMP/n$n.cpr" --defer \
		--status-file "$st" >/dev/null 2>"$TMP/u$n.err" || rc=$?
	wait_guest_exit "o$n" 30
	t1=$(now_ms)
	if [ "$rc" -ne 0 ]; then
		echo "failed exit $rc"
	else
		echo "$(jq -r .progress.downtimeMs "$st") $((t1 - t0)) $(jq -r .progress.dataProcessed "$st")"
	fi
	kill_guest "n$n"
}

# run_migrate MIB: the same for a normal local migration.
run_migrate() {
	local mib=$1 t0 t1 st rc=0
	n=$((n + 1))
	st=$TMP/m$n.status
	cpr_start_old "s$n" "$mib" "$rate"
	cpr_ram_args "$mib"
	start_memguest_incoming "d$n" "$mib" "$rate" "${CPR_RAM_ARGS[@]}"
	bg_start "in$n" "$QMIGRATE" incoming --qmp "$TMP/d$n.qmp" \
		--listen "unix:$TMP/m$n.sock" --policy "$TMP/converge.json" \
		--status-file "$TMP/in$n.status"
	wait_for 30 "d$n prepared" eval "[ \"\$(jq -r .phase '$TMP/in$n.status' 2>/dev/null)\" = TargetReady ]"
	t0=$(now_ms)
	"$QMIGRATE" migrate --qmp "$TMP/s$n.qmp" --to "unix:$TMP/m$n.sock" \
		--policy "$TMP/converge.json" --status-file "$st" --timeout 120 >/dev/null 2>"$TMP/m$n.err" || rc=$?
	t1=$(now_ms)
	if [ "$rc" -ne 0 ]; then
		echo "failed exit $rc: $(jq -r .failureReason "$st" | cut -c1-80)"
	else
		echo "$(jq -r .progress.downtimeMs "$st") $((t1 - t0)) $(jq -r .progress.dataProcessed "$st")"
	fi
	kill_guest "s$n"
	kill_guest "d$n"
}

# col N FILE: field N of the lines of FILE that did not fail: "median
# (min-max)".
col() {
	local v
	v=$({ grep -v '^failed' "$2" || true; } | awk -v n="$1" '{ print $n }')
	[ -n "$v" ] || { echo -; return; }
	# shellcheck disable=SC2086 # one number a word
	echo "$(median $v) ($(spread $v))"
}

report=$TMP/report.md
ver=$(bash "$top_srcdir/tests/qemu-wrap.sh" "$QEMU_SRC_VERSION" --version | head -n 1 |
	sed 's/QEMU emulator version \([^ ]*\).*/\1/')
{
	echo "## In-place update (cpr-transfer) against a local migration"
	echo
	echo "\`bench/cpr-update.sh\`, $(date -u '+%Y-%m-%d %H:%M') UTC, commit $(bench_rev);"
	echo "$(bench_machine | sed 's/, QEMU emulator.*, load/, load/'); QEMU $ver on both sides, $(test_accel_pick; echo "$TEST_ACCEL"),"
	echo "the memory guest rewriting $rate MB/s, its RAM a shared memfd in both cases;"
	echo "the local migration with no bandwidth cap and auto-converge allowed;"
	echo "median (min-max) of $runs runs per case, the two interleaved.  Total: the command's"
	echo "wall time (update: until the old QEMU is gone)."
	echo
	echo "| guest | how | pause ms | total ms | bytes sent | failed |"
	echo "| --- | --- | ---: | ---: | ---: | --- |"
} >"$report"
for mib in $sizes; do
	: >"$TMP/u-$mib"
	: >"$TMP/m-$mib"
	for ((i = 0; i < runs; i++)); do
		run_update "$mib" >>"$TMP/u-$mib"
		echo "$mib MiB update: $(tail -n 1 "$TMP/u-$mib")" >&2
		run_migrate "$mib" >>"$TMP/m-$mib"
		echo "$mib MiB migrate: $(tail -n 1 "$TMP/m-$mib")" >&2
	done
	for how in u m; do
		f=$TMP/$how-$mib
		echo "| $mib MiB | $([ $how = u ] && echo "update (cpr-transfer)" || echo "local migration") | $(col 1 "$f") | $(col 2 "$f") | $(col 3 "$f") | $(grep -c '^failed' "$f" || true) of $runs$(grep -m1 '^failed' "$f" | sed 's/^failed/:/' || true) |" >>"$report"
	done
done
cat "$report"
[ "$bench_write" -eq 0 ] || bench_section cpr-update "$report"
