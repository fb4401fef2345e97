#!/bin/bash
# conform-traces.sh: the QEMU model (tests/sim/qemu-model-table.c) accepts
# the QMP traces committed under tests/traces/qmp, recorded from real QEMU
# 7.2, 10.0 and 11.1 (tests/traces/qmp/README.md); and taking one row out
# of the table makes the checker fail on them, naming the trace and line:
# so the check is one that can fail.
set -u
: "${top_srcdir:?run through make check}" "${top_builddir:?}"
conform=$top_builddir/tests/sim/conform
traces=$top_srcdir/tests/traces/qmp
fail() { echo "FAIL: $*" >&2; exit 1; }

for d in "$traces"/*/; do
	out=$("$conform" "$d" 2>&1) || { echo "$out" >&2; fail "$d rejected"; }
	echo "ok: $(basename "$d"): ${out##*$'\n'}"
done

# Row "stream-written" of 10.0/11.1 (DEVICE -> COMPLETED without a return
# path): without it, a pre-copy source's "completed" after "device" is a
# behaviour the model cannot produce.
row=$("$conform" --rows | awk '$3 == "stream-written" && /calculate_complete/ { print $1; exit }')
[ -n "$row" ] || fail "no row stream-written in the table"
out=$("$conform" --without-row "$row" "$traces/precopy-10.0" 2>&1) &&
	fail "the checker passed precopy-10.0 without row $row"
grep -q '^FAIL .*precopy-10.0/.*jsonl:[0-9]* .*"completed"' <<<"$out" ||
	{ echo "$out" >&2; fail "the failure does not name the trace, line and the completed event"; }
echo "ok: without row $row (stream-written) precopy-10.0 fails:"
echo "$out" | head -3
