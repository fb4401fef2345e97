#!/usr/bin/env bash
# Issue 37, audit N4: `incoming` re-run after SIGKILL, with the same
# --status-file.  Before the fix the re-run wrote a new uid over the
# record at once and exited 3 ("control plane": QEMU refused
# migrate-incoming, "The incoming migration has already been started")
# while its QEMU listened, and the guest then arrived.  No fake: real
# QEMUs, a real SIGKILL.
# What a user must see:
#  1. killed once QEMU listens (TargetReady), run again: it re-attaches
#     (the killed run's migrationUid, a "re-attached" note) and the
#     migration that follows ends 0 on both sides, the guest on the target
#     with every page intact;
#  2. killed, then the guest arrives with no incoming watching (QEMU
#     migrates on alone over unix:), run again: it reports the arrival, 0,
#     Succeeded, the same uid;
#  3. the same, but the re-run cannot ask its QEMU (SIGSTOPped: its monitor
#     never greets): not known, 8, the record left byte for byte (found by
#     tests/sim/sim-real, seed 2244: it said 3, "on the source", while the
#     guest ran on the target).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp

# killed_incoming: PAIR's incoming up to TargetReady, then SIGKILLed;
# sets UID to its record's migrationUid.
killed_incoming() {
	mig_incoming
	UID_KILLED=$(jq -r .migrationUid "$TMP/${PAIR}dst.status")
	kill -KILL "$(guest_pid "${PAIR}incoming")"
	exit_of_killed=0
	bg_wait "${PAIR}incoming" 10 || exit_of_killed=$?
	[ "$exit_of_killed" -eq 137 ] || fail "incoming was not killed ($exit_of_killed)"
}

# rerun_incoming: PAIR's incoming again, the same status file, as
# "${PAIR}rerun".
rerun_incoming() {
	bg_start "${PAIR}rerun" "$QMIGRATE" incoming \
		--qmp "$TMP/${PAIR}dst.qmp" --listen "unix:$TMP/${PAIR}mig.sock" \
		--status-file "$TMP/${PAIR}dst.status"
}

# same_uid WHAT: the record still names the killed run's migration.
same_uid() {
	local now
	now=$(jq -r .migrationUid "$TMP/${PAIR}dst.status")
	[ "$now" = "$UID_KILLED" ] || fail "$1: the record's uid is $now, the killed run's was $UID_KILLED"
}

# 1. Killed while QEMU listens, run again before the source comes.
PAIR=a-
hand_pair 32 1
hand_sample
killed_incoming
rerun_incoming
wait_for 30 "the re-run re-attached" status_is "$TMP/${PAIR}dst.status" .phase TargetReady
same_uid "1: the re-run"
jq -r '.notes[]?' "$TMP/${PAIR}dst.status" | grep -q 're-attached' ||
	fail "1: no re-attached note: $(jq -c .notes "$TMP/${PAIR}dst.status")"
mig_migrate
exit_of "${PAIR}migrate" 120
m=$RC
exit_of "${PAIR}rerun" 60
i=$RC
echo "1: migrate exited $m, the re-run incoming $i ($(doc_says "$TMP/${PAIR}dst.status"))"
[ "$m/$i" = 0/0 ] || fail "1: migrate exited $m, the re-run incoming $i: expected 0/0"
expect_doc "$TMP/${PAIR}dst.status" target Succeeded 0
same_uid "1: the end"
assert_on_target "1: a re-run incoming"

# 2. Killed, the guest arrives alone, then run again.
PAIR=b-
hand_pair 32 1
killed_incoming
mig_migrate
exit_of "${PAIR}migrate" 120
[ "$RC" -eq 0 ] || fail "2: migrate with the target's incoming killed exited $RC, expected 0"
rerun_incoming
exit_of "${PAIR}rerun" 60
echo "2: the re-run after the arrival exited $RC ($(doc_says "$TMP/${PAIR}dst.status"))"
[ "$RC" -eq 0 ] || fail "2: the re-run incoming exited $RC, expected 0"
expect_doc "$TMP/${PAIR}dst.status" target Succeeded 0
same_uid "2: the re-run"
[ "$(run_state "${PAIR}dst")" = running ] || fail "2: the target QEMU is $(run_state "${PAIR}dst")"
assert_memory_intact "$TMP/${PAIR}dst.serial"
# 3. Killed, the guest arrives alone, the re-run finds its QEMU hung.
PAIR=c-
hand_pair 32 1
killed_incoming
mig_migrate
exit_of "${PAIR}migrate" 120
[ "$RC" -eq 0 ] || fail "3: migrate with the target's incoming killed exited $RC, expected 0"
cp "$TMP/${PAIR}dst.status" "$TMP/${PAIR}before.status"
kill -STOP "$(guest_pid "${PAIR}dst")"
rerun_incoming
exit_of "${PAIR}rerun" 60
echo "3: the re-run with its QEMU hung exited $RC: $(tail -n 1 "$TMP/${PAIR}rerun.err")"
kill -CONT "$(guest_pid "${PAIR}dst")"
[ "$RC" -eq 8 ] || fail "3: the re-run that could not ask its QEMU exited $RC, expected 8 (not known)"
cmp -s "$TMP/${PAIR}before.status" "$TMP/${PAIR}dst.status" ||
	fail "3: the re-run rewrote the record: $(doc_says "$TMP/${PAIR}dst.status")"
[ "$(run_state "${PAIR}dst")" = running ] || fail "3: the target QEMU is $(run_state "${PAIR}dst")"
assert_memory_intact "$TMP/${PAIR}dst.serial"
echo "ok: incoming re-run after SIGKILL re-attaches with the killed run's uid: listening (0/0) or arrived (0); unable to ask its QEMU, not known (8)"
