#!/usr/bin/env bash
# A broken stream during post-copy that cannot be recovered.  QEMU's
# migrate-pause (allowed in postcopy-active) cuts the stream and both QEMUs
# stop in postcopy-paused; the target is out of reach: its qmigrate is
# killed (nobody runs migrate-recover) and its socket path removed (QEMU 7.2
# keeps the first listener open during the migration and would accept a
# resume on it).  After --recover-timeout the source exits 6, says the guest
# is irrecoverable, and leaves its QEMU alive and paused in postcopy-paused
# for an operator, never killed or resumed; and the operator can recover
# it by hand, the guest arriving intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

mig_postcopy_busy --recover-timeout 5
kill -KILL "$(guest_pid incoming)"
rm "$TMP/mig.sock"
mon src migrate-pause >/dev/null
expect_exit migrate 6 30
st=$TMP/src.status
expect_failed "$st" 6 data
status_get "$st" .failureReason | grep -q 'irrecoverable' ||
	fail "failureReason: $(status_get "$st" .failureReason)"
grep -q 'irrecoverable' "$TMP/migrate.err" || fail "no irrecoverable line on stderr"
# Both QEMUs are alive and paused where post-copy stopped.
_lib_guest_up src
_lib_guest_up dst
expect_qemu_mig src "after the break" postcopy-paused
expect_qemu_mig dst "after the break" postcopy-paused
state=$(run_state src)  # finish-migrate in QEMU 7.2
[ "$state" != running ] || fail "src runs the guest again: its memory is on the target"
echo "ok: irrecoverable after 5 s, source left $state in postcopy-paused"

# What the README tells the operator: recover by hand.  The target QEMU
# listens again (migrate-recover), the source resumes to it; post-copy
# ends and the guest runs on the target with every page intact.
mon dst migrate-recover "{\"uri\": \"unix:$TMP/recover.sock\"}" >/dev/null
wait_for 10 "the target listening again" test -S "$TMP/recover.sock"
mon src migrate "{\"uri\": \"unix:$TMP/recover.sock\", \"resume\": true}" >/dev/null
wait_for 120 "the recovered migration to complete" eval '[ "$(qemu_mig_status src)" = completed ]'
wait_for 10 "the guest running on the target" eval '[ "$(run_state dst)" = running ]'
assert_memory_intact "$TMP/dst.serial"
echo "ok: recovered by hand, the guest runs on the target"
