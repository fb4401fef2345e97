#!/usr/bin/env bash
# Issue 37 (pcpend): an abort kept through a reconnect of the source's
# monitor.  The source QEMU's answers and events are held from a
# query-migrate on, the switchover begins behind them (its STOP held),
# then the relay hangs up: what it held, the STOP included, is gone with
# the connection, and 7.2 says "active" through the switchover.  A
# SIGTERM comes while qmigrate connects again (the relay refuses for 3 s).
# Before this test's fix the new connection's first act was migrate_cancel:
# QEMU took it in the switchover (its return path awaited), cancelled and
# resumed its copy while the target loaded what was sent and ran the guest:
# both ran.  Now a reconnect in pre-copy asks query-status, and an abort
# waits for it: finish-migrate, and the abort waits on for QEMU's
# pre-switchover (migrate sets pause-before-switchover), where it cancels
# before any device state leaves.
# The fakes: tests/qmp-relay in front of the source's monitor
# (--hold-answer query-migrate --hold-for 60, armed by SIGUSR2; SIGUSR1
# cuts; --refuse-for 3); another on the migration stream holds the bytes
# from the first that name a device (i6300esb) for 20 s.
# What a user must see: migrate 5 (abortStatus Succeeded), incoming not 0,
# no device state on the stream, the guest never on both QEMUs, running on
# the source with every page intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp
st=$TMP/src.status

start_memguest src 32 1 -device i6300esb \
	-qmp "unix:$TMP/src.mon,server=on,wait=off" -qmp "unix:$TMP/src.watch,server=on,wait=off"
start_memguest_incoming dst 32 -device i6300esb \
	-qmp "unix:$TMP/dst.mon,server=on,wait=off" -qmp "unix:$TMP/dst.watch,server=on,wait=off"
mig_incoming
relay_before srcmon src --hold-answer query-migrate --hold-for 60 --armed-by-usr2 --refuse-for 3
bg_start wire "$RELAY" --hold i6300esb --hold-for 20 "$TMP/wire.sock" "$TMP/mig.sock"
wait_log "$TMP/wire.out" '^ready' 10
hand_sample
bg_start migrate "$QMIGRATE" migrate --qmp "$TMP/srcmon.sock" --to "unix:$TMP/wire.sock" \
	--status-file "$st" --events --bandwidth 16Mi
wait_for 60 "the migration to run" status_is "$st" .phase Running
kill -USR2 "$(guest_pid srcmon)"
wait_log "$TMP/srcmon.out" 'holding the answers' 10
# Since migrate sets pause-before-switchover, QEMU waits behind the hold in
# pre-switchover, the guest stopped; the stream's device bytes go only on
# the migrate-continue migrate sends once it saw that.
src_migration_is() {
	[ "$(timeout 5 "$QMIGRATE" qmp --qmp "$TMP/src.watch" query-migrate 2>/dev/null |
		jq -r .status)" = "$1" ]
}
wait_for 120 "the source QEMU in pre-switchover behind the hold" \
	src_migration_is pre-switchover
t_sw=${EPOCHREALTIME//[!0-9]/}
# The switchover began behind the held answers: the hang-up takes its STOP
# (one that began before the hold was seen at once: the window not reached).
early=0
grep -q 'the switchover began' "$TMP/migrate.err" && early=1
kill -USR1 "$(guest_pid srcmon)"
wait_log "$TMP/migrate.err" 'connecting again' 30
kill -TERM "$(guest_pid migrate)"
now=${EPOCHREALTIME//[!0-9]/}
late_ms=$(((now - t_sw) / 1000))
[ "$late_ms" -lt 15000 ] || fail "the SIGTERM came ${late_ms} ms into the stream's 20 s hold: too late to test"
exit_of migrate 150
m=$RC
exit_of incoming 60
i=$RC
echo "SIGTERM during the reconnect, ${late_ms} ms into the switchover: migrate exited $m ($(doc_says "$st")); incoming exited $i ($(doc_says "$TMP/dst.status"))"
assert_never_both "SIGTERM during the reconnect"
grep -q 'connected again' "$TMP/migrate.err" || fail "migrate did not reconnect"
# The window: the abort waited for query-status on the new connection.
# Else migrate had seen the STOP before the hold (the switchover sure, or
# its query-status held): refused on that, the window not reached.
if grep -q "the abort waits for the source QEMU's run state" "$TMP/migrate.err"; then
	echo "the abort waited for the run state on the new connection"
else
	echo "note: migrate saw the switchover's STOP before the hold (switchover begun before it: $early): the reconnect's window was not reached this time"
fi
# Seen before the hold, the switchover may have been continued then: the
# abort is refused and the migration ends as it ends, the window not
# reached.  (Seen with QEMU's pre-switchover behind the hold, the abort
# cancels there, as when the switchover was not seen at all.)
if [ "$early" = 1 ] && [ "$m" = 0 ]; then
	assert_abort_refused "SIGTERM during the reconnect" "$i" "$st"
	echo "ok (window not reached): the switchover seen before the hold, the abort refused, 0 on both sides, the guest on the target"
	exit 0
fi
assert_cancelled_in_pause "SIGTERM during the reconnect" "$m" "$i" "$st" "$TMP/wire.out"
echo "ok: SIGTERM while the monitor reconnected, the switchover's STOP lost with the old connection: cancelled in QEMU's pre-switchover, 5, no device state sent, the guest on the source with every page intact"
