#!/usr/bin/env bash
# Over tls:, the target's first query-migrate in listen is answered late
# (9 s, under the 10 s command timeout), and incoming gets SIGTERM once
# the guest runs on the target: its abort cuts the stream 5 s later,
# which settles the target (the cut, then one more sample decides), and
# the "one more sample" was that late answer, QEMU's word of before the
# stream, with the stream's events behind it.  Found by sim-real (issue
# 37, seeds 8064 and 20598 at ffc129a: the target's 3 while the guest ran
# there, settled by its --timeout and by the end of the source's control
# connection; every settling shares the one sample).  Before the fix
# incoming exited 5, "aborted here before any memory moved ... the guest
# runs on the source", with the guest running on the target (the source
# QEMU paused in postmigrate): an agent would destroy the only copy.
# The fake: tests/qmp-relay in front of the TARGET's monitor holds every
# answer from the first query-migrate after migrate-incoming on (QEMU runs
# it at once: it says "listening", the source not yet begun).  Real QEMUs
# and qmigrates otherwise.  (Killing migrate instead does not settle the
# target here: its proxy owes the source an answer to "completed?" and
# reads nothing more of that connection until it answers.)
# What a user must see: incoming exits 0, its document Succeeded, the
# abort refused; migrate 0 or 8 (the target's answer cut), never 4 or 5;
# the guest never on both QEMUs, on the target with every page intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp
mig_tls

hand_pair 32 1
relay_before relay dst --armed-by '"migrate-incoming"' \
	--hold-answer '"query-migrate"' --hold-for 9
hand_tls_incoming "$TMP/relay.sock"
hand_sample
mig_tls_migrate migrate "$TMP/src.qmp"
wait_log "$TMP/relay.out" 'holding the answers' 60
# The cut comes 5 s after the signal: within the hold, or nothing is shown.
wait_for 3 "the guest running on the target within 3 s of the hold" eval \
	'[ "$(run_state dst)" = running ]'
kill -TERM "$(guest_pid incoming)"
exit_of incoming 60
i=$RC
exit_of migrate 60
m=$RC
grep -q 'the stream is cut' "$TMP/incoming.err" ||
	fail "incoming never cut the stream: the test proved nothing: $(tail -n 5 "$TMP/incoming.err")"
echo "migrate exited $m ($(doc_says "$TMP/src.status")); incoming exited $i ($(doc_says "$TMP/dst.status"))"
assert_never_both "late listen answer"
[ "$i" = 0 ] ||
	fail "late listen answer: incoming exited $i (source $SRC_STATE, target $DST_STATE): expected 0, the guest runs there"
case $m in 0 | 8) ;; *) fail "late listen answer: migrate exited $m: expected 0 or 8" ;; esac
grep -q 'asking again' "$TMP/incoming.err" ||
	fail "incoming did not take the late answer for stale: $(tail -n 5 "$TMP/incoming.err")"
expect_doc "$TMP/dst.status" target Succeeded 0
expect_status "$TMP/dst.status" .abortStatus Failed target
assert_on_target "late listen answer"
echo "ok: SIGTERM to incoming while its listen answer was held: incoming 0 (abort refused), migrate $m, the guest on the target"
