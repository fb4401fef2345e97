#!/bin/bash
# conform-rows.sh: the committed traces (tests/traces/qmp) hold the QEMU
# model to real QEMU row by row.  `conform --each-row` checks them, then
# again without each row the checker took, in turn: a row the traces need
# makes a named trace fail when it is gone.  The count of rows needed may
# not fall below the floor (a trace dropped, or a row made redundant,
# shows here); rows taken but not needed (another path explains the
# traces) and rows never taken are listed in the log, for the traces still
# to collect.
set -u
: "${top_srcdir:?run through make check}" "${top_builddir:?}"
conform=$top_builddir/tests/sim/conform
traces=$top_srcdir/tests/traces/qmp
# Counted on 2026-12-03 over the 13 committed traces: 64 of the 101 rows.
floor=64
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$("$conform" --each-row "$traces"/*/ 2>&1) ||
	{ echo "$out" >&2; fail "the traces do not conform"; }
echo "$out"
summary=$(grep '^rows: ' <<<"$out") || fail "no count in the output"
needed=$(sed -n 's/^rows: .* \([0-9]*\) needed$/\1/p' <<<"$summary")
[ -n "$needed" ] || fail "cannot read the count: $summary"
# Each needed row names the trace that fails without it.
n=$(grep -c '^row .* needed: .*/tests/traces/qmp/.*\.jsonl fails without it$' \
	<<<"$out")
[ "$n" = "$needed" ] || fail "$needed rows needed, $n name a failing trace"
[ "$needed" -ge "$floor" ] ||
	fail "only $needed rows needed by the traces (at least $floor before)"
echo "ok: $summary (floor $floor)"
