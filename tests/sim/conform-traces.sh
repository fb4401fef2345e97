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

# The timestamps bound what a late reader may hold, both ways.
# late-reader-7.2 (passes, above) is CI's failure of handoff-tls-disk-confirm.sh
# rewritten onto a local run of it: a poller whose qmp_capabilities answer
# was read 3.4 ms late, behind STOP, two JOB_STATUS_CHANGE and
# pre-switchover.  listener-after-event-7.2 is the same poller with its
# qmp_capabilities queued 2 ms after QEMU made that STOP: QEMU sends an
# event only to monitors that had left negotiation, so the checker must
# reject it.
neg=$top_srcdir/tests/traces/qmp-rejected/listener-after-event-7.2
out=$("$conform" "$neg" 2>&1) &&
	fail "the checker passed $neg: a STOP made before its monitor negotiated"
grep -q '^FAIL .*listener-after-event-7.2/qmp-29225-1.jsonl:5 .*"STOP"' <<<"$out" ||
	{ echo "$out" >&2; fail "the failure does not name the poller's STOP"; }
echo "ok: a STOP made before its monitor's qmp_capabilities is rejected:"
echo "$out" | head -1
