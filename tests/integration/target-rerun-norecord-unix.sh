#!/usr/bin/env bash
# Issue 37, sim-real finding (b): `incoming` re-run after SIGKILL over a
# record that was never written (every write of the status file failed:
# a full disk).  Before the fix the re-run took its QEMU for a fresh one:
# over a listening QEMU its setup was refused (7.2: "There's a migration
# process in progress" once the stream runs, "The incoming migration has
# already been started" before) and it exited 3, "the guest is not here",
# while the guest then arrived; over an arrived guest it said 3, "not
# waiting for a migration (run state running)".  The record is taken away
# between the kill and the re-run: the re-run finds what a killed run whose
# writes all failed leaves.  No fake: real QEMUs, a real SIGKILL.
# What a user must see:
#  1. killed once QEMU listens, no record, run again: it re-attaches (a
#     "re-attached" note saying there was no record) and the migration
#     that follows ends 0 on both sides, the guest on the target, intact;
#  2. killed, the guest arrives with no incoming watching, no record, run
#     again: not known (8: whose guest arrived no record says), never 3,
#     and the guest still runs on the target.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp

# killed_incoming: PAIR's incoming up to TargetReady, then SIGKILLed.
killed_incoming() {
	mig_incoming
	kill -KILL "$(guest_pid "${PAIR}incoming")"
	exit_of_killed=0
	bg_wait "${PAIR}incoming" 10 || exit_of_killed=$?
	[ "$exit_of_killed" -eq 137 ] || fail "incoming was not killed ($exit_of_killed)"
}

# rerun_incoming: PAIR's incoming again, the same (now absent) status
# file, as "${PAIR}rerun".
rerun_incoming() {
	rm -f "$TMP/${PAIR}dst.status"
	bg_start "${PAIR}rerun" "$QMIGRATE" incoming \
		--qmp "$TMP/${PAIR}dst.qmp" --listen "unix:$TMP/${PAIR}mig.sock" \
		--status-file "$TMP/${PAIR}dst.status"
}

# 1. Killed while QEMU listens, no record, run again before the source.
PAIR=a-
hand_pair 32 1
hand_sample
killed_incoming
rerun_incoming
wait_for 30 "the re-run re-attached" status_is "$TMP/${PAIR}dst.status" .phase TargetReady
jq -r '.notes[]?' "$TMP/${PAIR}dst.status" | grep -q 're-attached.*no record' ||
	fail "1: no re-attached note: $(jq -c .notes "$TMP/${PAIR}dst.status")"
mig_migrate
exit_of "${PAIR}migrate" 120
m=$RC
exit_of "${PAIR}rerun" 60
i=$RC
echo "1: migrate exited $m, the re-run incoming $i ($(doc_says "$TMP/${PAIR}dst.status"))"
[ "$m/$i" = 0/0 ] || fail "1: migrate exited $m, the re-run incoming $i: expected 0/0"
expect_doc "$TMP/${PAIR}dst.status" target Succeeded 0
assert_on_target "1: a re-run incoming with no record"

# 2. Killed, the guest arrives alone, no record, then run again.
PAIR=b-
hand_pair 32 1
killed_incoming
mig_migrate
exit_of "${PAIR}migrate" 120
[ "$RC" -eq 0 ] || fail "2: migrate with the target's incoming killed exited $RC, expected 0"
rerun_incoming
exit_of "${PAIR}rerun" 60
echo "2: the re-run after the arrival, no record, exited $RC: $(tail -n 1 "$TMP/${PAIR}rerun.err")"
[ "$RC" -eq 8 ] || fail "2: the re-run incoming exited $RC, expected 8 (not known; 3 says the guest is not here)"
expect_doc "$TMP/${PAIR}dst.status" target Failed 8
[ "$(run_state "${PAIR}dst")" = running ] || fail "2: the target QEMU is $(run_state "${PAIR}dst")"
assert_memory_intact "$TMP/${PAIR}dst.serial"
echo "ok: incoming re-run after SIGKILL with no record: a listening QEMU re-attached (0/0), an arrived guest not known (8), never 3"
