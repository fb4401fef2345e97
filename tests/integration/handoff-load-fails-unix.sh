#!/usr/bin/env bash
# Issue 37, audit N1 (critical): over unix:, QEMU's "completed" on the
# source said only that it had written the stream.  The source has a
# device the target lacks (-device i6300esb on the source only), and the
# stream's last bytes reach the target 5 s late: before the fix migrate
# exited 0 "Succeeded" the moment the source QEMU had written everything,
# incoming exited 4 "the guest still runs on the source" once the target
# failed its load, and the guest sat paused in postmigrate on the source,
# running nowhere (b475dc5: migrate 0, incoming 4, source postmigrate).
# The fake: tests/qmp-relay on the migration STREAM (not a monitor) holds
# the bytes from the first that name the device the target lacks for 5 s,
# as a tcp: link's buffers or a slow target do; a real socket between two
# QEMUs on one host cannot be made that slow.  Both QEMUs, both qmigrates
# and the guest are real.
# What a user must see: no 0 anywhere; migrate exits 4 (the target did not
# load the guest, it runs on the source: QEMU's return path carried the
# target's end); the guest never runs on both QEMUs, runs on the source,
# every page intact there.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp
st=$TMP/src.status

start_memguest src 32 1 -device i6300esb \
	-qmp "unix:$TMP/src.mon,server=on,wait=off" \
	-qmp "unix:$TMP/src.watch,server=on,wait=off"
start_memguest_incoming dst 32 \
	-qmp "unix:$TMP/dst.mon,server=on,wait=off" \
	-qmp "unix:$TMP/dst.watch,server=on,wait=off"
mig_incoming
# The stream goes source -> wire.sock (the relay) -> mig.sock (the target).
bg_start wire "$RELAY" --hold i6300esb --hold-for 5 "$TMP/wire.sock" "$TMP/mig.sock"
wait_log "$TMP/wire.out" '^ready' 10
hand_sample
bg_start migrate "$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/wire.sock" \
	--status-file "$st" --events
exit_of migrate 120
m=$RC
exit_of incoming 60
i=$RC
grep -q 'holding' "$TMP/wire.out" ||
	fail "the relay never held the stream: the test proved nothing: $(cat "$TMP/wire.out")"
echo "migrate exited $m ($(doc_says "$st")); incoming exited $i ($(doc_says "$TMP/dst.status")); source QEMU $(run_state src), its migration $(qemu_mig_status src)"
assert_never_both "the target fails its load"
[ "$m" -ne 0 ] || fail "migrate exited 0 while the target failed to load the guest (source QEMU $SRC_STATE)"
[ "$m" -eq 4 ] || fail "migrate exited $m, expected 4 (the guest runs on the source): $(doc_says "$st")"
expect_failed "$st" 4 data "the target fails its load"
[ "$i" -ne 0 ] || fail "incoming exited 0 while its QEMU failed the load"
[ "$SRC_STATE" = running ] || fail "the source QEMU is $SRC_STATE: the guest runs nowhere"
assert_memory_intact "$TMP/src.serial"
echo "ok: the target failed its load of a late stream: migrate exits 4, the guest runs on the source, every page intact"
