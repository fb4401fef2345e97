#!/usr/bin/env bash
# Issue 37, the long run's seed 1075841: an abort on a stale view of QEMU.
# The source QEMU's answers are held (from a query-migrate on), and behind
# them the STOP of the switchover QEMU begins meanwhile; a SIGTERM then.
# Before a943773 migrate sent migrate_cancel at once on what it last knew
# (pre-copy): QEMU took it in the switchover (its return path awaited),
# cancelled and resumed its copy, while the target loaded the bytes already
# sent and ran the guest too.  Now an abort while a query-migrate is out
# for 2 s or more waits for a sample asked after it; the STOP comes first,
# and the abort waits on for QEMU's pre-switchover.  Since migrate sets
# pause-before-switchover, QEMU waits behind the hold in pre-switchover,
# the guest stopped, and the device state goes out only on the
# migrate-continue migrate sends once it saw that: the abort kept until
# then cancels there (before, it was refused and the migration completed).
# The fakes: tests/qmp-relay in front of the source's monitor holds every
# answer and event from the first query-migrate after its SIGUSR2 for 15 s
# (--hold-answer: QEMU runs each command at once, a relay that answers
# late); another on the migration STREAM holds the bytes from the first
# that name a device (i6300esb) for 8 s, so that the switchover lasts.
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
relay_before srcmon src --hold-answer query-migrate --hold-for 15 --armed-by-usr2
bg_start wire "$RELAY" --hold i6300esb --hold-for 8 "$TMP/wire.sock" "$TMP/mig.sock"
wait_log "$TMP/wire.out" '^ready' 10
hand_sample
# 16 MiB/s, as its siblings: 32 MiB take 2 s or more, so that the hold is
# armed before QEMU stops the guest (unbounded, a loaded full run saw the
# switchover begin, and go on, before the hold).
bg_start migrate "$QMIGRATE" migrate --qmp "$TMP/srcmon.sock" --to "unix:$TMP/wire.sock" \
	--status-file "$st" --events --bandwidth 16Mi
wait_for 60 "the migration to run" status_is "$st" .phase Running
kill -USR2 "$(guest_pid srcmon)"
wait_log "$TMP/srcmon.out" 'holding the answers' 10
t_held=${EPOCHREALTIME//[!0-9]/}
# src_migration_is STATUS: the source QEMU's migration status (asked on
# the sampler's monitor, not through the relay).
src_migration_is() {
	[ "$(timeout 5 "$QMIGRATE" qmp --qmp "$TMP/src.watch" query-migrate 2>/dev/null |
		jq -r .status)" = "$1" ]
}
wait_for 120 "the source QEMU in pre-switchover behind the hold" \
	src_migration_is pre-switchover
# The switchover began while the answers were held: the signal must come
# once the query behind the hold is 2 s old (the session's bound), and
# within the stream's hold.
now=${EPOCHREALTIME//[!0-9]/}
held_ms=$(((now - t_held) / 1000))
[ "$held_ms" -lt 12000 ] || fail "the switchover began ${held_ms} ms into the 15 s hold: too late to test"
[ "$held_ms" -ge 2500 ] || sleep "$(awk -v m="$held_ms" 'BEGIN { printf "%.3f", (2500 - m) / 1000 }')"	# the session's 2 s bound, passed
kill -TERM "$(guest_pid migrate)"
exit_of migrate 120
m=$RC
exit_of incoming 60
i=$RC
echo "SIGTERM in the switchover, the answers held: migrate exited $m ($(doc_says "$st")); incoming exited $i ($(doc_says "$TMP/dst.status"))"
# Two ways to wait, both right: the stale view's own (the signal within
# the 10 s reply bound), or, where a loaded host began the switchover so
# late that the held query-migrate passed that bound first, the monitor's
# reconnect, which keeps the abort pending too.
if grep -q 'the abort waits for the source QEMU' "$TMP/migrate.err"; then
	echo "the abort waited on the stale view"
elif grep -q 'no reply within 10 s' "$TMP/migrate.err" &&
	grep -q 'while the abort waited for QEMU' "$TMP/migrate.err"; then
	echo "the query's reply bound passed first: the abort waited through the monitor's reconnect"
else
	fail "migrate did not wait for QEMU's word: $(grep -i abort "$TMP/migrate.err" | head -5)"
fi
assert_cancelled_in_pause "SIGTERM on a stale view" "$m" "$i" "$st" "$TMP/wire.out"
echo "ok: SIGTERM with the source's answers held and the switchover begun behind them: the abort waited for QEMU's word and cancelled in its pre-switchover, 5, no device state sent, the guest on the source with every page intact"
