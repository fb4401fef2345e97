#!/usr/bin/env bash
# migrate-signal-early.sh: SIGTERM to `qmigrate migrate` and `qmigrate
# incoming` before they arm their signal watchers (audit D13, the pre-arm
# window: policy resolution, the TLS set-up, bind; a signal there was the
# default action, a death by signal).  From main()'s first instruction a
# signal is an abort: exit 5 (nothing touched) with a whole document, the
# guest where it was, never 128+N.
# 1. Held in the window: the --tls-dir's ca.pem is a FIFO, so the TLS
#    set-up waits reading it until the test writes it; the SIGTERM comes
#    while it waits (for incoming, then for migrate).
# 2. Signalled at the first instant of each stage of the start, each
#    stage a condition the test sees, not a delay: main() took the
#    signals (its SIGTERM handler in /proc/PID/status: before that the
#    dynamic loader runs, which no program can guard); the first status
#    document written; the stream up (migrate: QEMU connected to the
#    sink, a python3 listener that accepts and never reads, so that
#    migrate cannot fail by itself first; incoming: QEMU listens on the
#    --listen socket).  Over unix:, each side at each stage, incoming
#    with a target QEMU of its own each time.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd openssl python3
setup_tmp
mig_tls
mig_start_pair 16 1

# aborted NAME STATUS: NAME exited 5 with a whole document saying so.
aborted() {
	local rc=0 st=$2
	bg_wait "$1" 30 || rc=$?
	[ "$rc" -lt 128 ] || fail "$1: killed by signal $((rc - 128)) (exit $rc)"
	[ "$rc" -eq 5 ] || fail "$1: exit $rc, expected 5: $(tail -n 3 "$TMP/$1.err")"
	jq -e . "$st" >/dev/null 2>&1 || fail "$1: $st is not a whole document"
	expect_status "$st" .phase Failed "$1"
	expect_status "$st" .exitCode 5 "$1"
	expect_status "$st" .abortStatus Succeeded "$1"
	status_get "$st" .failureReason | grep -q "SIGTERM" ||
		fail "$1: failureReason $(status_get "$st" .failureReason)"
}

# held_in_tls NAME DIR CMD...: CMD (qmigrate ...) with DIR/ca.pem a FIFO:
# SIGTERM once it reads it, then its contents.
held_in_tls() {
	local name=$1 dir=$2 fd
	shift 2
	cp "$dir/ca.pem" "$TMP/$name-ca.pem"
	rm "$dir/ca.pem"
	mkfifo "$dir/ca.pem"
	bg_start "$name" "$@"
	# Opening the FIFO to write returns once the command opened it to read.
	exec {fd}>"$dir/ca.pem"
	kill -TERM "$(guest_pid "$name")"
	cat "$TMP/$name-ca.pem" >&"$fd"
	exec {fd}>&-
	rm "$dir/ca.pem"
	cp "$TMP/$name-ca.pem" "$dir/ca.pem"
}

# 1. Held in the TLS set-up.
held_in_tls tls-incoming "$TMP/pki/dst" "$QMIGRATE" incoming --qmp "$TMP/dst.qmp" \
	--listen "tls:127.0.0.1:$TLS_PORT" --tls-dir "$TMP/pki/dst" \
	--status-file "$TMP/tls-incoming.status"
aborted tls-incoming "$TMP/tls-incoming.status"
echo "ok: incoming signalled in its TLS set-up: $(status_get "$TMP/tls-incoming.status" .failureReason)"
held_in_tls tls-migrate "$TMP/pki/src" "$QMIGRATE" migrate --qmp "$TMP/src.qmp" \
	--to "tls:127.0.0.1:$TLS_PORT" --tls-dir "$TMP/pki/src" --tls-name dst \
	--status-file "$TMP/tls-migrate.status"
aborted tls-migrate "$TMP/tls-migrate.status"
echo "ok: migrate signalled in its TLS set-up: $(status_get "$TMP/tls-migrate.status" .failureReason)"

# 2. The first instant of each stage of the start.
# takes_term PID: PID runs qmigrate (exec'd: the shell's fork may catch
# SIGTERM too) and catches SIGTERM (SigCgt bit 15).
takes_term() {
	local m
	[ "$(readlink "/proc/$1/exe")" = "$(readlink -f "$QMIGRATE")" ] || return 1
	m=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2>/dev/null) || return 1
	[ -n "$m" ] && (( (16#$m >> 14) & 1 ))
}

# first_instant WHAT CMD...: returns once CMD is true, polling without a
# pause (the moment matters to the millisecond), 10 s at most.
first_instant() {
	local what=$1 end=$((${EPOCHREALTIME/./} + 10000000))
	shift
	until "$@"; do
		[ "${EPOCHREALTIME/./}" -lt "$end" ] || fail "never: $what"
	done
}

# A target that accepts and never reads: migrate's run lasts until the
# signal (to a missing socket it may fail by itself first).  It says
# "conn" for each connection QEMU makes.
bg_start sink python3 -c 'import select, signal, socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(64)
print("ready", flush=True)
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
held = []
while not signal.sigpending():
    if select.select([s], [], [], 0.05)[0]:
        held.append(s.accept()[0])
        print("conn", flush=True)' "$TMP/sink.sock"
wait_log "$TMP/sink.out" '^ready' 10

# sink_conns N: the sink took more than N connections.
sink_conns() { [ "$(grep -c '^conn' "$TMP/sink.out")" -gt "$1" ]; }

n=0
for stage in main document stream; do
	for side in migrate incoming; do
		n=$((n + 1))
		name=$side-$n
		conns=$(grep -c '^conn' "$TMP/sink.out" || true)
		if [ "$side" = migrate ]; then
			bg_start "$name" "$QMIGRATE" migrate --qmp "$TMP/src.qmp" \
				--to "unix:$TMP/sink.sock" --status-file "$TMP/$name.status"
		else
			# A target QEMU each: one that got as far as
			# migrate-incoming takes no other.
			start_memguest_incoming "dst-$n" 16
			bg_start "$name" "$QMIGRATE" incoming --qmp "$TMP/dst-$n.qmp" \
				--listen "unix:$TMP/$name.sock" --status-file "$TMP/$name.status"
		fi
		pid=$(guest_pid "$name")
		first_instant "$name takes SIGTERM" takes_term "$pid"
		case $stage/$side in
		document/*)
			first_instant "$name writes $TMP/$name.status" \
				test -s "$TMP/$name.status" ;;
		stream/migrate)
			first_instant "the source QEMU connects to the sink" \
				sink_conns "$conns" ;;
		stream/incoming)
			first_instant "the target QEMU listens on $TMP/$name.sock" \
				test -S "$TMP/$name.sock" ;;
		esac
		kill -TERM "$pid"
		aborted "$name" "$TMP/$name.status"
		echo "$name, SIGTERM at '$stage': $(status_get "$TMP/$name.status" .failureReason)"
		[ "$side" = migrate ] || kill_guest "dst-$n"
	done
	echo "ok: SIGTERM at the stage '$stage': migrate and incoming exit 5"
done
[ "$(run_state src)" = running ] || fail "the source is $(run_state src)"
# At the stage "stream" the run reached QEMU's migrate before its signal:
# it cancels it (exit 5, checked above); the source QEMU must never have
# got further than that.
case $(qemu_mig_status src) in
none | cancelled) ;;
*) fail "the source QEMU's migration is $(qemu_mig_status src), not none or cancelled" ;;
esac
assert_memory_intact "$TMP/src.serial"
