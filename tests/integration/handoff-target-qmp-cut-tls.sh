#!/usr/bin/env bash
# Issue 30, window a (audit D1, variant without -S): over tls:, the
# target's QMP connection drops right after its QEMU reports "completed".
# Before the fix the target took the lost monitor for "the guest did not
# arrive", answered the source's "completed?" with `failed`, and the source
# resumed its own copy: the guest ran on both QEMUs, both sides exited 4.
# The fake: tests/qmp-relay in front of the TARGET's monitor hangs up once,
# right after the line with "status": "completed" (a real QEMU never drops
# its monitor); a reconnection is relayed normally.  Both QEMUs, both
# qmigrates and the guest are real.
# What a user must see: the guest never runs on both QEMUs (sampled all
# along, and at the end), and the exits and documents tell the truth:
# - 0 on both (the target reconnected and found its guest running):
#   both documents Succeeded, the guest on the target, every page intact;
# - or 8 on both (not known): both documents Failed, exitCode 8; the
#   source has not resumed its copy; the guest runs in at most one place,
#   intact there.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp
mig_tls

hand_pair 32 1
relay_before dst-relay dst --cut-after '"status": "completed"'
hand_tls_incoming "$TMP/dst-relay.sock"
hand_sample
mig_tls_migrate migrate "$TMP/src.qmp"
exit_of migrate 120
m=$RC
exit_of incoming 60
i=$RC
grep -q 'cut after' "$TMP/dst-relay.out" ||
	fail "the relay never saw the target's \"completed\": the test proved nothing: $(cat "$TMP/dst-relay.out")"
echo "migrate exited $m ($(doc_says "$TMP/src.status")); incoming exited $i ($(doc_says "$TMP/dst.status"))"
assert_never_both "target monitor cut after completed"
case $m/$i in
0/0)
	expect_doc "$TMP/src.status" source Succeeded 0
	expect_doc "$TMP/dst.status" target Succeeded 0
	assert_on_target "target monitor cut after completed" ;;
8/8)
	expect_doc "$TMP/src.status" source Failed 8
	expect_doc "$TMP/dst.status" target Failed 8
	[ "$SRC_STATE" != running ] || fail "not known: the source resumed its guest"
	[ "$DST_STATE" != running ] || assert_memory_intact "$TMP/dst.serial" ;;
*)	fail "target monitor cut after completed: migrate exited $m, incoming $i (source $SRC_STATE, target $DST_STATE): expected 0 on both, or 8 on both" ;;
esac
echo "ok: the target's monitor cut after completed: exits $m/$i, source $SRC_STATE, target $DST_STATE"
