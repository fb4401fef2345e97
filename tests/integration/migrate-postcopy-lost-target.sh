#!/usr/bin/env bash
# The target's side of a post-copy lost for good (issue 37, sim-real
# seeds 6830 10003 13517).  The source's qmigrate is killed in post-copy
# (nobody resumes), then QEMU's migrate-pause cuts the stream: both QEMUs
# stop in postcopy-paused.  After its --recover-timeout incoming exits 6,
# and before that it removed its socket's path, so that no resume can
# land afterwards on the listener migrate-recover left (QEMU has no
# command to close it, and the guest must not be stopped): the source
# QEMU's own resume to that address reaches no one and the target stays
# paused.  Both QEMUs are left alive and paused, and the operator still
# recovers it by hand, the guest arriving intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

mig_policy busy '{ "bandwidthPerMigration": "10Mi", "allowPostCopy": true }'
mig_start_pair 64 200
mig_incoming --policy "$TMP/busy.json" --recover-timeout 5
mig_migrate --policy "$TMP/busy.json"
wait_for 60 "src in post-copy" _mig_in_postcopy
kill -KILL "$(guest_pid migrate)"
mon src migrate-pause >/dev/null
expect_exit incoming 6 60
st=$TMP/dst.status
expect_failed "$st" 6 data

# A late resume (the source's re-run would send this) reaches no one.
mon src migrate "{\"uri\": \"unix:$TMP/mig.sock\", \"resume\": true}" \
	>/dev/null 2>&1 || true
end=$((SECONDS + 3))
while [ "$SECONDS" -lt "$end" ]; do
	expect_qemu_mig dst "after the late resume" postcopy-paused
	sleep 0.2	# no event marks a resume that did not land: 3 s watched
done
expect_qemu_mig src "after the late resume" postcopy-paused \
	postcopy-recover-setup
_lib_guest_up src
_lib_guest_up dst
echo "ok: a late resume did not land; both QEMUs alive and paused"
[ ! -e "$TMP/mig.sock" ] || fail "the target's socket path is still there"
status_get "$st" .failureReason | grep -q 'irrecoverable' ||
	fail "failureReason: $(status_get "$st" .failureReason)"
status_get "$st" .failureReason | grep -q 'socket is removed' ||
	fail "failureReason: $(status_get "$st" .failureReason)"
echo "ok: incoming said 6 with its socket path removed"

# What failures.md tells the operator: recover by hand.
mon dst migrate-recover "{\"uri\": \"unix:$TMP/recover.sock\"}" >/dev/null
wait_for 10 "the target listening again" test -S "$TMP/recover.sock"
wait_for 10 "the source paused again" \
	eval '[ "$(qemu_mig_status src)" = postcopy-paused ]'
mon src migrate "{\"uri\": \"unix:$TMP/recover.sock\", \"resume\": true}" \
	>/dev/null
wait_for 120 "the recovered migration to complete" \
	eval '[ "$(qemu_mig_status src)" = completed ]'
wait_for 10 "the guest running on the target" \
	eval '[ "$(run_state dst)" = running ]'
assert_memory_intact "$TMP/dst.serial"
echo "ok: recovered by hand, the guest runs on the target"
