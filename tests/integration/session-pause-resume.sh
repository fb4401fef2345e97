#!/usr/bin/env bash
# The README's "resumed if QEMU had paused it" (issue 22, defect 8: no
# real-QEMU test covered it): the guest paused by the controller (policy
# allowWorkloadDisruption: the kubevirt controller's pause decision), then
# the target QEMU killed, a data-plane failure: migrate exits 4, plane
# data, and the source runs the guest again the moment migrate is gone,
# its memory intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

mig_pause
kill_guest dst
expect_resumed 4 60
expect_status "$TMP/src.status" .failurePlane data
status_get "$TMP/src.status" '.notes[]?' | grep -qi 'stays paused' &&
	fail "a note says the guest stays paused: $(status_get "$TMP/src.status" .notes)"
assert_stayed
echo "ok: paused by the controller, then the target killed: exit 4, the guest resumed on the source"
