#!/usr/bin/env bash
# Issue 37 (pcpend): an abort on a view older than the monitor's 10 s reply
# bound.  As handoff-stale-abort-unix.sh, the source QEMU's answers and
# events are held from a query-migrate on, and the switchover begins behind
# them; but the hold (25 s) outlasts the bound: that query-migrate gets "no
# reply within 10 s", the watch asks again, and the SIGTERM comes then.
# Before this test's fix the session measured its view by the query still
# out, the new one, young: migrate_cancel went at once on a view over 10 s
# old, QEMU took it in the switchover (its return path awaited), cancelled
# and resumed its copy while the target loaded what was sent and ran the
# guest: both ran.  Now the view's age is the oldest query-migrate still
# owed, the timed-out one included: the abort waits for a sample asked
# after it, the STOP comes first, and the abort waits on for QEMU's
# pre-switchover (migrate sets pause-before-switchover), where it cancels
# before any device state leaves.
# The fakes: tests/qmp-relay in front of the source's monitor
# (--hold-answer query-migrate --hold-for 25, armed by SIGUSR2); another on
# the migration stream holds the bytes from the first that name a device
# (i6300esb) for 20 s, so that the switchover lasts past the SIGTERM.
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
relay_before srcmon src --hold-answer query-migrate --hold-for 25 --armed-by-usr2
bg_start wire "$RELAY" --hold i6300esb --hold-for 20 "$TMP/wire.sock" "$TMP/mig.sock"
wait_log "$TMP/wire.out" '^ready' 10
hand_sample
bg_start migrate "$QMIGRATE" migrate --qmp "$TMP/srcmon.sock" --to "unix:$TMP/wire.sock" \
	--status-file "$st" --events --bandwidth 16Mi
wait_for 60 "the migration to run" status_is "$st" .phase Running
kill -USR2 "$(guest_pid srcmon)"
wait_log "$TMP/srcmon.out" 'holding the answers' 10
t_held=${EPOCHREALTIME//[!0-9]/}
# Both, in either order: the switchover began behind the held answers,
# and the query-migrate they hold passed its reply bound.
# (Since migrate sets pause-before-switchover, QEMU waits behind the hold
# in pre-switchover, the guest stopped, and the device state goes out only
# on the migrate-continue migrate sends once it saw that: the switchover
# the signal must meet is that wait.)
src_migration_is() {
	[ "$(timeout 5 "$QMIGRATE" qmp --qmp "$TMP/src.watch" query-migrate 2>/dev/null |
		jq -r .status)" = "$1" ]
}
wait_for 120 "the source QEMU in pre-switchover behind the hold" \
	src_migration_is pre-switchover
wait_log "$TMP/migrate.err" 'no reply within 10 s' 30
now=${EPOCHREALTIME//[!0-9]/}
held_ms=$(((now - t_held) / 1000))
[ "$held_ms" -lt 22000 ] || fail "the SIGTERM would come ${held_ms} ms into the 25 s hold: too late to test"
# A switchover that began before the hold shows its STOP at once: the
# abort is refused on what migrate saw, the window not reached.
early=0
grep -q 'the switchover began' "$TMP/migrate.err" && early=1
kill -TERM "$(guest_pid migrate)"
exit_of migrate 150
m=$RC
exit_of incoming 60
i=$RC
echo "SIGTERM ${held_ms} ms into the hold, past the reply bound: migrate exited $m ($(doc_says "$st")); incoming exited $i ($(doc_says "$TMP/dst.status"))"
assert_never_both "SIGTERM past the reply bound"
if [ "$early" = 1 ]; then
	echo "note: the switchover began before the hold (migrate saw its STOP): the stale view's window was not reached this time"
elif grep -q 'the abort waits for the source QEMU' "$TMP/migrate.err"; then
	echo "the abort waited on the stale view"
elif grep -q 'while the abort waited for QEMU' "$TMP/migrate.err"; then
	# A STOP seen before the hold, its query-status held: the abort
	# waited for that answer (an unsure switchover), as right.
	echo "the abort waited for the run state of a STOP seen before the hold"
else
	fail "migrate did not wait for QEMU's word: $(grep -i abort "$TMP/migrate.err" | head -5)"
fi
# Seen before the hold, the switchover may have been continued then: the
# abort is refused and the migration ends as it ends, the window not
# reached.  (Seen with QEMU's pre-switchover behind the hold, the abort
# cancels there, as when the switchover was not seen at all.)
if [ "$early" = 1 ] && [ "$m" = 0 ]; then
	assert_abort_refused "SIGTERM past the reply bound" "$i" "$st"
	echo "ok (window not reached): the switchover seen before the hold, the abort refused, 0 on both sides, the guest on the target"
	exit 0
fi
assert_cancelled_in_pause "SIGTERM past the reply bound" "$m" "$i" "$st" "$TMP/wire.out"
echo "ok: SIGTERM after the held query-migrate passed its reply bound, the switchover begun behind it: cancelled in QEMU's pre-switchover, 5, no device state sent, the guest on the source with every page intact"
