#!/usr/bin/env bash
# Issue 30, window b (audit D1): over tls:, the target QEMU started with -S
# (the guest arrives paused) and the `cont` that resumes it answered after
# 12 s, where qmigrate's command timeout is 10 s.  Before the fix the
# target took the timeout for a refusal, answered the source's
# "completed?" with `failed`, the source resumed its own copy, and at 12 s
# the late `cont` started the target's: the guest ran on both QEMUs, both
# sides exited 4.
# The fake: tests/qmp-relay in front of the TARGET's monitor holds the
# command with "execute":"cont" 12 s (and what follows it on that
# connection) before QEMU gets it: a real QEMU answers `cont` at once.
# What a user must see: the guest never runs on both QEMUs (sampled all
# along, and at the end); the late answer (or a re-query) finds the guest
# running on the target: migrate and incoming exit 0, both documents
# Succeeded, the guest on the target with every page intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp
mig_tls

hand_pair 32 1 -S
relay_before dst-relay dst --hold '"execute":"cont"' --hold-for 12
hand_tls_incoming "$TMP/dst-relay.sock"
hand_sample
mig_tls_migrate migrate "$TMP/src.qmp"
exit_of migrate 120
m=$RC
exit_of incoming 60
i=$RC
grep -q 'holding' "$TMP/dst-relay.out" ||
	fail "the relay never held the target's cont: the test proved nothing: $(cat "$TMP/dst-relay.out")"
# The held cont has reached QEMU by now, whatever qmigrate made of it.
wait_log "$TMP/dst-relay.out" 'released|hung up|closed' 30
echo "migrate exited $m ($(doc_says "$TMP/src.status")); incoming exited $i ($(doc_says "$TMP/dst.status"))"
assert_never_both "cont answered late"
[ "$m/$i" = 0/0 ] ||
	fail "cont answered late: migrate exited $m, incoming $i (source $SRC_STATE, target $DST_STATE): expected 0 on both"
expect_doc "$TMP/src.status" source Succeeded 0
expect_doc "$TMP/dst.status" target Succeeded 0
assert_on_target "cont answered late"
echo "ok: the target's cont answered 12 s late: exits 0/0, the guest on the target only"
