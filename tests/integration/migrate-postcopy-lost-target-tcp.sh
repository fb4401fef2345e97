#!/usr/bin/env bash
# migrate-postcopy-lost-target.sh over tcp: (issue 37 finding (b)).  The
# source's qmigrate is killed in post-copy, QEMU's migrate-pause cuts the
# stream, and incoming gives up after its --recover-timeout.  Over tcp:
# nothing but quit closes the port QEMU listens on for the source's
# resume, and this QEMU holds part of the guest: incoming must not say 6
# (irrecoverable) but 8 (not known), leaving both QEMUs alive and paused.
# Then a late resume to that port (what the source's re-run sends) lands:
# post-copy completes and the guest runs on the target, intact, which is
# why 6 would have been false.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

port=$((20000 + RANDOM % 20000))
mig_policy busy '{ "bandwidthPerMigration": "10Mi", "allowPostCopy": true,
	"disableTLS": true }'
mig_start_pair 64 200
bg_start incoming "$QMIGRATE" incoming --qmp "$TMP/dst.qmp" \
	--listen "tcp:127.0.0.1:$port" --status-file "$TMP/dst.status" \
	--policy "$TMP/busy.json" --recover-timeout 5
wait_for 30 "dst prepared" status_is "$TMP/dst.status" .phase TargetReady
bg_start migrate "$QMIGRATE" migrate --qmp "$TMP/src.qmp" \
	--to "tcp:127.0.0.1:$port" --status-file "$TMP/src.status" \
	--policy "$TMP/busy.json" --events
wait_for 60 "src in post-copy" _mig_in_postcopy
kill -KILL "$(guest_pid migrate)"
mon src migrate-pause >/dev/null
expect_exit incoming 8 60
st=$TMP/dst.status
expect_failed "$st" 8 unknown
status_get "$st" .failureReason | grep -q 'may still listen' ||
	fail "failureReason: $(status_get "$st" .failureReason)"
_lib_guest_up src
_lib_guest_up dst
expect_qemu_mig dst "after incoming ended" postcopy-paused
echo "ok: over tcp: incoming exits 8, not 6; both QEMUs alive and paused"

# The late resume the 8 warns of: it lands on the port left open.
mon src migrate "{\"uri\": \"tcp:127.0.0.1:$port\", \"resume\": true}" \
	>/dev/null
wait_for 120 "the resumed migration to complete" \
	eval '[ "$(qemu_mig_status src)" = completed ]'
wait_for 10 "the guest running on the target" \
	eval '[ "$(run_state dst)" = running ]'
assert_memory_intact "$TMP/dst.serial"
echo "ok: a late resume to the open port completed: the guest runs on the target"
