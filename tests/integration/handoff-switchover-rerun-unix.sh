#!/usr/bin/env bash
# Issue 37, audit N3 after a crash: migrate SIGKILLed while the source QEMU
# keeps the guest stopped for the switchover (its return path awaiting the
# target's word), run again with the same --status-file, and SIGTERMed
# there.  QEMU 7.2 says `active` all along; only its run state,
# finish-migrate, says the switchover began.  Before the fix the re-run
# re-attached in pre-copy and cancelled: the source QEMU resumed its copy
# while the target ran the bytes already sent (b475dc5, the return path
# set by hand: both QEMUs running).
# The fake: tests/qmp-relay on the migration STREAM holds the bytes from
# the first that name a device (i6300esb, on both QEMUs) for 20 s; a real
# socket between two QEMUs on one host cannot be made that slow.
# What a user must see: the re-run refuses the abort (a note says so) and
# exits 0 once QEMU completes; the guest never runs on both QEMUs and runs
# on the target, every page intact.
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
bg_start wire "$RELAY" --hold i6300esb --hold-for 20 "$TMP/wire.sock" "$TMP/mig.sock"
wait_log "$TMP/wire.out" '^ready' 10
hand_sample
bg_start migrate "$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/wire.sock" \
	--status-file "$st" --events
wait_log "$TMP/wire.out" 'holding' 120
kill -KILL "$(guest_pid migrate)"
wait_for 10 "the first migrate gone" _lib_gone "$(guest_pid migrate)"
# QEMU 7.2 writes the stream's last bytes with its big lock held: had the
# relay stopped reading, a blocked write would keep its monitors silent
# until the hold ended (clean-clone runs of 96c0f42 and 9dbf419; the re-run
# then found "completed").  The relay reads on while it holds, up to a
# bound it says when reached, so QEMU answers at once.
! grep -q 'the most it keeps' "$TMP/wire.out" ||
	fail "the relay's hold filled: $(grep 'the most it keeps' "$TMP/wire.out")"
state=$("$QMIGRATE" qmp --qmp "$TMP/src.mon" --timeout 10 query-status | jq -r .status)
[ "$state" = finish-migrate ] ||
	fail "the source QEMU is ${state:-silent} after the kill, not finish-migrate: the test proved nothing"
bg_start again "$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/wire.sock" \
	--status-file "$st" --events
wait_log "$TMP/again.err" "re-attached|switchover" 30
! grep -q "after QEMU had completed" "$TMP/again.err" ||
	fail "the re-run found the migration completed (QEMU's monitor answered only once the relay's hold ended): the test proved nothing"
kill -TERM "$(guest_pid again)"
exit_of again 60
m=$RC
exit_of incoming 60
i=$RC
echo "relay: $(grep -E "held" "$TMP/wire.out" | tr "\n" ";")"
echo "re-run exited $m ($(doc_says "$st")); incoming exited $i ($(doc_says "$TMP/dst.status"))"
assert_never_both "SIGTERM to a re-run at the switchover"
[ "$m/$i" = 0/0 ] || fail "re-run $m, incoming $i (source $SRC_STATE, target $DST_STATE): expected 0/0"
expect_status "$st" .abortStatus Failed re-run
status_get "$st" '.notes[]' | grep -q 'abort refused' ||
	fail "no note says the abort was refused: $(status_get "$st" .notes)"
assert_on_target "SIGTERM to a re-run at the switchover"
echo "ok: a re-run that found QEMU at the switchover refused the abort: 0/0, the guest on the target"
