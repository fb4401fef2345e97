#!/usr/bin/env bash
# qmp-qemu.sh: `qmigrate qmp` and `qmigrate guest` against real QEMU (a
# paused machine without a guest) and a real qemu-ga running on the host.
# Nothing is faked: an agent that does not answer is a QEMU serial port
# with no guest behind it, and a busy agent is qemu-ga with another client
# (a second QEMU's socket chardev) connected.
. "$top_srcdir/tests/lib.sh"

QEMU_GA=${QEMU_GA:-/usr/sbin/qemu-ga}
need_cmd "$QEMU"
need_file "$QEMU_GA" "qemu-ga (Debian package qemu-guest-agent)"
setup_tmp

# run NAME COMMAND...: runs COMMAND, stdout in $TMP/NAME.o, stderr in
# $TMP/NAME.e, exit status in $RC and wall time in $MS (milliseconds).
run() {
	local name=$1 t0 t1
	shift
	t0=${EPOCHREALTIME//[!0-9]/}
	RC=0
	"$@" >"$TMP/$name.o" 2>"$TMP/$name.e" || RC=$?
	t1=${EPOCHREALTIME//[!0-9]/}
	MS=$(((t1 - t0) / 1000))
}

# expect_rc WANT NAME: the last run exited WANT, else fail showing output.
expect_rc() {
	[ "$RC" -eq "$1" ] ||
		fail "$2: exit $RC, expected $1; stdout: $(head -c 400 "$TMP/$2.o"); stderr: $(head -c 400 "$TMP/$2.e")"
}

# expect_grep NAME FILE-SUFFIX REGEX
expect_grep() {
	grep -Eq -- "$3" "$TMP/$1.$2" ||
		fail "$1: /$3/ not in $(head -c 600 "$TMP/$1.$2")"
}

# one_line NAME: stderr of the last run is exactly one line.
one_line() {
	[ "$(wc -l <"$TMP/$1.e")" -eq 1 ] ||
		fail "$1: expected a one-line error, got: $(cat "$TMP/$1.e")"
}

# expect_error CODE NAME [REGEX]: the last run exited CODE with a one-line
# error (on stderr) matching REGEX.
expect_error() {
	expect_rc "$1" "$2"
	one_line "$2"
	[ $# -lt 3 ] || expect_grep "$2" e "$3"
}

# connected NAME: QEMU NAME's socket chardev is connected (its filename
# says "disconnected:..." until then).
connected() {
	"$QMIGRATE" qmp --qmp "$TMP/$1.qmp" query-chardev |
		grep -q '"filename": "unix:"'
}

# hold_socket NAME PATH: a QEMU NAME whose socket chardev connects to PATH
# as a client, and stays: returns once it is connected.
hold_socket() {
	bg_start "$1" "$QEMU" -machine none -nodefaults -display none -S \
		-qmp "unix:$TMP/$1.qmp,server=on,wait=off" \
		-chardev "socket,id=hold,path=$2,server=off"
	wait_for 30 "QMP socket of $1" test -S "$TMP/$1.qmp"
	wait_for 10 "$1 connected to $2" connected "$1"
}

# --- The QMP monitor of a paused machine.  Its serial port is also a
# "guest agent" socket nobody answers on (no guest runs).
bg_start vm "$QEMU" -machine pc -nodefaults -display none -m 64 -S \
	-qmp "unix:$TMP/q.qmp,server=on,wait=off" \
	-chardev "socket,id=deaf,path=$TMP/deaf.qga,server=on,wait=off" \
	-device isa-serial,chardev=deaf
wait_for 30 "QMP socket $TMP/q.qmp" test -S "$TMP/q.qmp"

run status "$QMIGRATE" qmp --qmp "$TMP/q.qmp" query-status
expect_rc 0 status
expect_grep status o '"status": "prelaunch"'
expect_grep status o '"running": false'

run version "$QMIGRATE" qmp --qmp "$TMP/q.qmp" query-version
expect_rc 0 version
expect_grep version o '"major": 7'

run nocmd "$QMIGRATE" qmp --qmp "$TMP/q.qmp" no-such-command
expect_error 3 nocmd "^qmigrate qmp: $TMP/q.qmp: no-such-command: .*not been found"

run badargs "$QMIGRATE" qmp --qmp "$TMP/q.qmp" query-status '{"x":'
expect_error 1 badargs 'JSON-ARGS'

run badarg2 "$QMIGRATE" qmp --qmp "$TMP/q.qmp" query-status '{"x": 1}'
expect_error 3 badarg2 'query-status: .*x'

# Events: cont delivers RESUME, stop delivers STOP, each with a timestamp.
ts_re='"timestamp":[0-9]{9,}\.[0-9]{6}\}$'
run resume "$QMIGRATE" qmp --qmp "$TMP/q.qmp" --wait-event RESUME cont
expect_rc 0 resume
expect_grep resume o '^\{"event":"RESUME","data":\{\},'"$ts_re"
run running "$QMIGRATE" qmp --qmp "$TMP/q.qmp" query-status
expect_grep running o '"running": true'
run stop "$QMIGRATE" qmp --qmp "$TMP/q.qmp" --wait-event STOP stop
expect_rc 0 stop
expect_grep stop o '^\{"event":"STOP","data":\{\},'"$ts_re"
run paused "$QMIGRATE" qmp --qmp "$TMP/q.qmp" query-status
expect_grep paused o '"status": "paused"'

# An event that does not come: exit 3 after --timeout, not a hang.
run noevent "$QMIGRATE" qmp --qmp "$TMP/q.qmp" --timeout 1 \
	--wait-event RESUME query-status
expect_error 3 noevent 'no RESUME event within 1 s after query-status'
[ "$MS" -lt 5000 ] || fail "noevent took $MS ms"

# An agent socket with nothing behind it: a clear error within --timeout.
run deaf "$QMIGRATE" guest --qga "$TMP/deaf.qga" --timeout 1
expect_error 3 deaf "^qmigrate guest: $TMP/deaf.qga: no answer from the guest agent within 1 s"
[ "$MS" -lt 5000 ] || fail "deaf agent took $MS ms"

run noagent "$QMIGRATE" guest --qga "$TMP/absent.qga"
expect_error 3 noagent "$TMP/absent.qga: connect: No such file"

# --- qemu-ga on the host.  -t keeps its state file in $TMP; guest-get-users
# is blocked too, to see how `qmigrate guest` reports a refused part.
mkdir "$TMP/ga-state"
bg_start ga "$QEMU_GA" -m unix-listen -p "$TMP/ga.sock" -t "$TMP/ga-state" \
	-b guest-shutdown,guest-suspend-disk,guest-suspend-ram,guest-suspend-hybrid,guest-set-time,guest-get-users
wait_for 30 "qemu-ga socket $TMP/ga.sock" test -S "$TMP/ga.sock"

run ping "$QMIGRATE" qmp --qga "$TMP/ga.sock" guest-ping
expect_rc 0 ping
[ "$(tr -d ' \n' <"$TMP/ping.o")" = "{}" ] ||
	fail "guest-ping: expected {}, got $(cat "$TMP/ping.o")"

run info "$QMIGRATE" qmp --qga "$TMP/ga.sock" guest-info
expect_rc 0 info
expect_grep info o '"version": "[0-9]+\.[0-9]+'
expect_grep info o '"name": "guest-sync-delimited"'

# A blocked command is QEMU's error, named, exit 3.
run shutdown "$QMIGRATE" qmp --qga "$TMP/ga.sock" guest-shutdown
expect_error 3 shutdown 'guest-shutdown: .*disabled'

run guestall "$QMIGRATE" guest --qga "$TMP/ga.sock" all
expect_rc 0 guestall
expect_grep guestall o '"infoSource": "guest-agent"'
for part in ping info osinfo users fs net hostname; do
	expect_grep guestall o "^  \"$part\": "
done
expect_grep guestall o "\"host-name\": \"$(uname -n)\""
expect_grep guestall o '"kernel-release": "'"$(uname -r)"'"'
expect_grep guestall o '"name": "lo"'
# The refused part is an error object, the others still answered.
tr -d ' \n' <"$TMP/guestall.o" | grep -q '"users":{"error":"[^"]*disabled' ||
	fail "users: expected {\"error\": ...disabled...}: $(cat "$TMP/guestall.o")"

run guestsome "$QMIGRATE" guest --qga "$TMP/ga.sock" hostname ping
expect_rc 0 guestsome
expect_grep guestsome o '"hostname": '
if grep -q '"info"\|"fs"' "$TMP/guestsome.o"; then
	fail "guest hostname ping printed other parts: $(cat "$TMP/guestsome.o")"
fi

run badpart "$QMIGRATE" guest --qga "$TMP/ga.sock" memory
expect_error 1 badpart 'unknown part "memory"'

# qemu-ga serves one client at a time: while another holds it (a QEMU
# socket chardev connected as a client), we time out with a clear error.
hold_socket holder "$TMP/ga.sock"

run busy "$QMIGRATE" qmp --qga "$TMP/ga.sock" --timeout 2 guest-ping
expect_error 3 busy "$TMP/ga.sock: no answer from the guest agent within 2 s \(not running, or another client is connected\)"
[ "$MS" -lt 6000 ] || fail "busy agent took $MS ms"
run busyguest "$QMIGRATE" guest --qga "$TMP/ga.sock" --timeout 1 ping
expect_error 3 busyguest
[ "$MS" -lt 5000 ] || fail "busy agent (guest) took $MS ms"

# Once the other client is gone the agent answers again.
kill_guest holder TERM
agent_answers() {
	"$QMIGRATE" qmp --qga "$TMP/ga.sock" --timeout 1 guest-ping \
		>/dev/null 2>&1
}
wait_for 20 "qemu-ga answering after the other client left" agent_answers

# QEMU's monitor also serves one client at a time: no greeting, clear error.
hold_socket qmpholder "$TMP/q.qmp"
run qmpbusy "$QMIGRATE" qmp --qmp "$TMP/q.qmp" --timeout 1 query-status
expect_error 3 qmpbusy "$TMP/q.qmp: no QMP greeting within 1 s \(is another client connected\?\)"
[ "$MS" -lt 5000 ] || fail "busy monitor took $MS ms"

echo "PASS: qmp-qemu"
