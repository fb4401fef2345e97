#!/usr/bin/env bash
# Issue 37: the point of no return has a bound.  With QEMU's return path
# the source QEMU keeps the guest stopped until the target's word comes,
# and QEMU itself waits for it without a limit.  Here the word is 75 s
# late: tests/qmp-relay on the migration STREAM holds the bytes from the
# first that name a device (i6300esb, on both QEMUs) that long, as a
# partitioned link or a stopped target would; a real socket between two
# QEMUs on one host cannot be made that slow.  Everything else is real.
# Before (b475dc5, the return path set by hand) migrate waited as long as
# QEMU did, and would for ever.
# What a user must see: migrate ends 8 (not known, naming the switchover)
# about 60 s into the switchover, never a cancel (the guest never runs on
# both QEMUs); once the bytes arrive the target runs the guest, every page
# intact, and the same migrate with the same --status-file reports the
# success (0).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp
st=$TMP/src.status

start_memguest src 32 1 -device i6300esb \
	-qmp "unix:$TMP/src.mon,server=on,wait=off" -qmp "unix:$TMP/src.watch,server=on,wait=off"
start_memguest_incoming dst 32 -device i6300esb \
	-qmp "unix:$TMP/dst.mon,server=on,wait=off" -qmp "unix:$TMP/dst.watch,server=on,wait=off"
mon src migrate-set-capabilities \
	'{"capabilities":[{"capability":"return-path","state":true}]}' >/dev/null
mig_incoming
bg_start wire "$RELAY" --hold i6300esb --hold-for 75 "$TMP/wire.sock" "$TMP/mig.sock"
wait_log "$TMP/wire.out" '^ready' 10
hand_sample
bg_start migrate "$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/wire.sock" \
	--status-file "$st" --events
wait_log "$TMP/wire.out" 'holding' 120
t0=$SECONDS
exit_of migrate 70
m=$RC
t=$((SECONDS - t0))
echo "migrate exited $m after $t s of the switchover: $(doc_says "$st")"
[ "$m" -eq 8 ] || fail "migrate exited $m during a switchover held 75 s, expected 8"
expect_failed "$st" 8 unknown "a late switchover"
status_get "$st" .failureReason | grep -q 'switchover' ||
	fail "the failureReason does not name the switchover: $(status_get "$st" .failureReason)"
# The bytes arrive, the target loads and runs the guest, the source completes.
exit_of incoming 60
i=$RC
wait_for 30 "the source QEMU's migration to end" _mig_qemu_ended src
assert_never_both "a late switchover"
[ "$i" -eq 0 ] || fail "incoming exited $i: $(doc_says "$TMP/dst.status")"
assert_on_target "a late switchover"
bg_start again "$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/wire.sock" \
	--status-file "$st" --events
exit_of again 60
[ "$RC" -eq 0 ] || fail "the re-run exited $RC: $(doc_says "$st")"
expect_doc "$st" "the re-run" Succeeded 0
echo "ok: a switchover 75 s late: migrate 8 after $t s without a cancel, the guest on the target, the re-run 0"
