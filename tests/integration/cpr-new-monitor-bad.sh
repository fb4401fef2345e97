#!/usr/bin/env bash
# qmigrate update --defer whose --new-qmp socket is there but is no
# working monitor (audit N5): one that accepts and closes every connection
# at once (tests/qmp-relay in front of a monitor that does not exist: the
# relay hangs up each client as it fails to reach it), and one that
# accepts and never greets (a python3 listener: as a QMP chardev does for a
# second client while another holds it).  Real QEMU cannot be made to do
# either.  The old QEMU waits in setup for the new one's migrate-incoming,
# so only qmigrate's own bound ends it: within 20 s of migrate (plus one
# handshake's 10 s) the update is cancelled, exit 4, the monitor named, the
# guest runs on the old QEMU only, every page intact; and qmigrate does
# not spin meanwhile (its CPU time is printed and bounded).  On b475dc5
# both rounds run for ever (the first at full speed) and the test fails.
. "$top_srcdir/tests/cpr-lib.sh"
cpr_test_begin 10.0
relay=$top_builddir/tests/qmp-relay
need_file "$relay" "tests/qmp-relay"
need_cmd python3

# round N SOCKET WHAT: the update of a fresh pair with --new-qmp SOCKET.
round() {
	local n=$1 sock=$2 cpu u s t0 t1
	cpr_start_old "old$n" 32 20 -qmp "unix:$TMP/old$n.mon,server=on,wait=off"
	cpr_start_new "new$n" 32 defer -qmp "unix:$TMP/new$n.mon,server=on,wait=off"
	# bash's time: qmigrate's user and system CPU seconds, on stderr
	# (timeout: a qmigrate that never ends is not left behind).
	t0=${EPOCHREALTIME//[!0-9]/}
	bg_start "u$n" bash -c 'TIMEFORMAT="cpu %U %S"; time timeout 70 "$@"' _ \
		"$QMIGRATE" update --qmp "$TMP/old$n.qmp" --new-qmp "$sock" \
		--to "unix:$TMP/new$n.main" --cpr "unix:$TMP/new$n.cpr" --defer \
		--status-file "$TMP/u$n.status"
	expect_exit "u$n" 4 60
	t1=${EPOCHREALTIME//[!0-9]/}
	expect_status "$TMP/u$n.status" .phase Failed
	expect_status "$TMP/u$n.status" .failurePlane data
	status_get "$TMP/u$n.status" .failureReason | grep -qF "$sock" ||
		fail "round $n: failureReason: $(status_get "$TMP/u$n.status" .failureReason)"
	cpu=$(grep '^cpu ' "$TMP/u$n.err") || fail "round $n: no CPU time: $(cat "$TMP/u$n.err")"
	read -r _ u s <<<"$cpu"
	awk -v u="$u" -v s="$s" 'BEGIN { exit !(u + s < 2) }' ||
		fail "round $n: qmigrate used $u s user, $s s system: it spun"
	CPR_NEW=new$n
	mon "old$n" query-status | grep -q '"status": "running"' ||
		fail "round $n: the old QEMU: $(mon "old$n" query-status)"
	! mon "new$n" query-status | grep -q '"status": "running"' ||
		fail "round $n: the new QEMU runs the guest too"
	assert_memory_intact "$TMP/old$n.serial" >/dev/null
	echo "round $n ($3): exit 4 after $(((t1 - t0) / 1000)) ms, $u s user and $s s system CPU, the guest on the old QEMU, every page intact"
	kill_guest "old$n"
	kill_guest "new$n"
}

bg_start relay "$relay" "$TMP/closes.sock" "$TMP/absent.qmp"
wait_log "$TMP/relay.out" '^ready' 10
round 1 "$TMP/closes.sock" "accepts and closes"

bg_start mute python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(64)
held = []
print("ready", flush=True)
while True:
    held.append(s.accept()[0])' "$TMP/mute.sock"
wait_log "$TMP/mute.out" '^ready' 10
round 2 "$TMP/mute.sock" "never greets"
echo "ok: a new monitor that closes or never greets: update bounded, cancelled (4), no spin"
