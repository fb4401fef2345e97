#!/usr/bin/env bash
# Issue 37: migrate sets pause-before-switchover, so the source QEMU that
# reached the switchover waits in pre-switchover, the guest stopped, for
# migrate's migrate-continue.  A migrate killed (SIGKILL) in that wait
# leaves the guest stopped, on the source only; the re-run with the same
# --status-file must find the wait and go on with the switchover.
# The fake: tests/qmp-relay in front of the source's monitor holds the
# first run's migrate-continue 30 s, so that the kill lands in the wait;
# the relay is stopped with the run (its held bytes with it), and the
# re-run talks to QEMU's monitor directly.  Everything else is real.
# What a user must see: the guest stopped on the source (never on both)
# while no qmigrate drives it, then the re-run 0 and incoming 0, the guest
# on the target with every page intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp
st=$TMP/src.status

src_migration_is() {
	[ "$(timeout 5 "$QMIGRATE" qmp --qmp "$TMP/src.watch" query-migrate 2>/dev/null |
		jq -r .status)" = "$1" ]
}

start_memguest src 32 1 -qmp "unix:$TMP/src.mon,server=on,wait=off" \
	-qmp "unix:$TMP/src.watch,server=on,wait=off"
start_memguest_incoming dst 32 -qmp "unix:$TMP/dst.mon,server=on,wait=off" \
	-qmp "unix:$TMP/dst.watch,server=on,wait=off"
mig_incoming
relay_before srcmon src --hold migrate-continue --hold-for 30
hand_sample
bg_start migrate "$QMIGRATE" migrate --qmp "$TMP/srcmon.sock" \
	--to "unix:$TMP/mig.sock" --status-file "$st" --events
wait_log "$TMP/srcmon.out" 'holding' 120
wait_for 10 "the source QEMU in pre-switchover" src_migration_is pre-switchover
kill -KILL "$(guest_pid migrate)"
wait_for 10 "the first migrate gone" _lib_gone "$(guest_pid migrate)"
kill "$(guest_pid srcmon)"
wait_for 10 "the relay gone" _lib_gone "$(guest_pid srcmon)"
state=$("$QMIGRATE" qmp --qmp "$TMP/src.mon" --timeout 10 query-status | jq -r .status)
[ "$state" = finish-migrate ] ||
	fail "the source QEMU is ${state:-silent} after the kill, not finish-migrate (stopped for the switchover)"
src_migration_is pre-switchover ||
	fail "the source QEMU left pre-switchover with no qmigrate to continue it"
bg_start again "$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/mig.sock" \
	--status-file "$st" --events
exit_of again 120
m=$RC
exit_of incoming 60
i=$RC
echo "re-run exited $m ($(doc_says "$st")); incoming exited $i ($(doc_says "$TMP/dst.status"))"
assert_never_both "a re-run after a kill in pre-switchover"
[ "$m/$i" = 0/0 ] || fail "re-run $m, incoming $i (source $SRC_STATE, target $DST_STATE): expected 0/0"
grep -q "re-attached" "$TMP/again.err" ||
	fail "the re-run did not re-attach: $(head -5 "$TMP/again.err")"
expect_doc "$st" "re-run after a kill in pre-switchover" Succeeded 0
assert_on_target "a re-run after a kill in pre-switchover"
echo "ok: migrate killed while QEMU waited in pre-switchover: the guest stayed stopped on the source; the re-run went on, 0/0, the guest on the target"
