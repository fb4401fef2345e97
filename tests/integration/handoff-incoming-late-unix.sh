#!/usr/bin/env bash
# Issue 37, audit N2: over unix:, the target QEMU runs migrate-incoming at
# once but its answer comes after qmigrate's 10 s (a slow or frozen QEMU),
# or --timeout fires while the answer is out.  Before the fix incoming took
# the missing answer for a refusal and exited 3 ("control plane") while its
# QEMU listened, and a source then moved the guest there (migrate 0).
# The fake: tests/qmp-relay in front of the TARGET's monitor passes
# migrate-incoming to QEMU at once and holds everything QEMU sends back for
# N s (--hold-answer): a real QEMU answers migrate-incoming at once and
# cannot be made to answer late.
# What a user must see, in three runs:
#  1. a source that connects while the answer is late: its stream is
#     watched to its end: incoming 0, migrate 0, the guest on the target
#     with every page intact;
#  2. no source until incoming has ended: incoming 3 (plane control, the
#     reason saying migrate-incoming got no answer), the socket's path
#     gone, so the source cannot reach the target QEMU: migrate 3, the
#     guest runs on the source, every page intact;
#  3. --timeout 5 with the answer 8 s late: the deadline is kept until the
#     answer, then the way in closes: incoming 3 "no migration arrived
#     within 5 s", migrate 3, the guest on the source.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp

# late_incoming HOLD [ARGS...]: PAIR's incoming through a relay holding
# migrate-incoming's answer HOLD s; returns once QEMU has the command.
late_incoming() {
	local hold=$1
	shift
	relay_before "${PAIR}relay" "${PAIR}dst" \
		--hold-answer '"execute":"migrate-incoming"' --hold-for "$hold"
	bg_start "${PAIR}incoming" "$QMIGRATE" incoming \
		--qmp "$TMP/${PAIR}relay.sock" --listen "unix:$TMP/${PAIR}mig.sock" \
		--status-file "$TMP/${PAIR}dst.status" "$@"
	wait_log "$TMP/${PAIR}relay.out" 'holding the answers' 30
}

# source_intact WHAT: the guest runs on the source only, every page intact.
source_intact() {
	assert_never_both "$1"
	[ "$SRC_STATE" = running ] || fail "$1: the source QEMU is $SRC_STATE, not running"
	[ "$DST_STATE" != running ] || fail "$1: the target QEMU runs the guest"
	assert_memory_intact "$TMP/${PAIR}src.serial"
	assert_no_corrupt "$TMP/${PAIR}dst.serial"
}

# 1. The source connects during the late answer.
PAIR=a-
hand_pair 32 1
hand_sample
late_incoming 12
mig_migrate
exit_of "${PAIR}migrate" 120
m=$RC
exit_of "${PAIR}incoming" 60
i=$RC
echo "1: migrate exited $m, incoming $i ($(doc_says "$TMP/${PAIR}dst.status"))"
assert_never_both "1: a source during migrate-incoming's late answer"
[ "$m/$i" = 0/0 ] ||
	fail "1: migrate-incoming answered late, a source connected meanwhile: migrate exited $m, incoming $i (source $SRC_STATE, target $DST_STATE): expected 0 on both"
expect_doc "$TMP/${PAIR}dst.status" target Succeeded 0
assert_on_target "1: a source during migrate-incoming's late answer"

# 2. No source until incoming has ended.
PAIR=b-
hand_pair 32 1
hand_sample
late_incoming 12
exit_of "${PAIR}incoming" 60
i=$RC
echo "2: incoming exited $i ($(doc_says "$TMP/${PAIR}dst.status"))"
[ "$i" -eq 3 ] || fail "2: incoming exited $i, expected 3"
expect_failed "$TMP/${PAIR}dst.status" 3 control target
jq -r .failureReason "$TMP/${PAIR}dst.status" | grep -q 'migrate-incoming got no answer' ||
	fail "2: the reason does not say migrate-incoming got no answer: $(jq -r .failureReason "$TMP/${PAIR}dst.status")"
[ ! -e "$TMP/${PAIR}mig.sock" ] || fail "2: the target QEMU's socket path is still there"
mig_migrate
exit_of "${PAIR}migrate" 60
m=$RC
echo "2: then migrate exited $m ($(doc_says "$TMP/${PAIR}src.status"))"
[ "$m" -eq 3 ] || fail "2: migrate to a target whose incoming exited 3 exited $m, expected 3"
source_intact "2: incoming ended 3 after migrate-incoming's lost answer"

# 3. --timeout during the setup, the answer late.
PAIR=c-
hand_pair 32 1
hand_sample
late_incoming 8 --timeout 5
exit_of "${PAIR}incoming" 60
i=$RC
echo "3: incoming exited $i ($(doc_says "$TMP/${PAIR}dst.status"))"
[ "$i" -eq 3 ] || fail "3: incoming exited $i, expected 3"
expect_failed "$TMP/${PAIR}dst.status" 3 control target
jq -r .failureReason "$TMP/${PAIR}dst.status" | grep -q 'within 5 s' ||
	fail "3: the reason does not name the deadline: $(jq -r .failureReason "$TMP/${PAIR}dst.status")"
[ ! -e "$TMP/${PAIR}mig.sock" ] || fail "3: the target QEMU's socket path is still there"
mig_migrate
exit_of "${PAIR}migrate" 60
m=$RC
echo "3: then migrate exited $m"
[ "$m" -eq 3 ] || fail "3: migrate to a target whose incoming exited 3 exited $m, expected 3"
source_intact "3: --timeout during migrate-incoming's late answer"
echo "ok: migrate-incoming answered late over unix: is not a refusal: a source during it arrives (0/0); none: 3, the path gone, migrate 3, the guest on the source; --timeout kept until the answer"
