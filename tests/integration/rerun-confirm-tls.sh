#!/usr/bin/env bash
# A re-run over tls: after qmigrate migrate was killed in the confirm
# phase, once the source QEMU had completed (issue 30, audit D19: the
# re-run reported exit 0, Succeeded, "the guest left this QEMU", whatever
# the target said or could say; the guest might run nowhere).  The target
# QEMU runs with -S, and tests/qmp-relay in front of its monitor holds the
# target's `cont` (a real QEMU answers it at once), so the source waits in
# the confirm phase, where it is SIGKILLed.  The re-run, with the same
# --status-file, asks the target as the killed run would have:
# 1. the target still there (its `cont` lands 12 s late, the guest then
#    runs there): the re-run exits 0 if the target confirms, else 8 (today
#    always 8: the target's proxy refuses a second control session while
#    the killed run's is open, "a session is already open"), never a
#    resumed source: the same migrationUid; the guest runs on the target
#    only, every page intact;
# 2. no target to ask (its incoming stopped, its QEMU killed: the guest
#    runs nowhere): the re-run exits 8, Failed plane unknown, the same
#    migrationUid, a failureReason saying the target did not confirm; the
#    source QEMU is not resumed on that (postmigrate), and never were both
#    QEMUs running.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp
mig_tls

# killed_in_confirm HOLD: PAIR's pair (target -S, its cont held HOLD s),
# migrated over tls: until the target's cont is held, then migrate
# SIGKILLed; sets uid.
killed_in_confirm() {
	local st=$TMP/${PAIR}src.status
	hand_pair 32 1 -S
	relay_before "${PAIR}dst-relay" "${PAIR}dst" --hold '"execute":"cont"' --hold-for "$1"
	hand_tls_incoming "$TMP/${PAIR}dst-relay.sock"
	hand_sample
	mig_tls_migrate "${PAIR}migrate" "$TMP/${PAIR}src.qmp"
	wait_log "$TMP/${PAIR}dst-relay.out" 'holding' 60
	wait_for 10 "the source QEMU completed" eval \
		'[ "$(qemu_mig_status "${PAIR}src")" = completed ]'
	kill -KILL "$(guest_pid "${PAIR}migrate")"
	wait_for 10 "the first migrate gone" _lib_gone "$(guest_pid "${PAIR}migrate")"
	uid=$(status_get "$st" .migrationUid)
	status_is "$st" .phase Running || fail "killed with the document at $(doc_says "$st")"
}

# 1. The target still there: it answers.
killed_in_confirm 12
mig_tls_migrate again "$TMP/src.qmp"
exit_of again 90
rerun=$RC
echo "re-run exited $RC ($(doc_says "$TMP/src.status"))"
case $RC in
0) expect_doc "$TMP/src.status" "re-run" Succeeded 0 ;;
8) expect_failed "$TMP/src.status" 8 unknown "re-run" ;;
*) fail "the target still there: re-run exited $RC, expected 0 or 8" ;;
esac
expect_status "$TMP/src.status" .migrationUid "$uid" "re-run"
status_get "$TMP/src.status" '.notes[]' | grep -q 'asking the target' ||
	fail "re-run: no note says it asked the target: $(status_get "$TMP/src.status" .notes)"
exit_of incoming 60
assert_on_target "the target answered"
echo "ok: killed in the confirm phase, the re-run asked the target: exit $rerun, the guest on the target"

# 2. No target to ask: not known.
PAIR=b-
killed_in_confirm 120
stop_guest b-incoming
kill_guest b-dst
mig_tls_migrate b-again "$TMP/b-src.qmp"
exit_of b-again 90
st=$TMP/b-src.status
echo "re-run exited $RC ($(doc_says "$st"))"
[ "$RC" -eq 8 ] || fail "no target to ask: re-run exited $RC, expected 8"
expect_failed "$st" 8 unknown "re-run"
expect_status "$st" .migrationUid "$uid" "re-run"
status_get "$st" .failureReason | grep -q 'did not confirm' ||
	fail "re-run: failureReason: $(status_get "$st" .failureReason)"
assert_never_both "no target to ask"
[ "$SRC_STATE" = postmigrate ] || fail "no target to ask: the source QEMU is $SRC_STATE, not postmigrate"
[ "$DST_STATE" = gone ] || fail "the target QEMU is $DST_STATE"
assert_no_corrupt "$TMP/b-src.serial"
kill -CONT "$(guest_pid b-incoming)"
echo "ok: killed in the confirm phase, no target to ask: exit 8, the source not resumed"
