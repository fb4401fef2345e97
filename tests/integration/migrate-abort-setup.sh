#!/usr/bin/env bash
# SIGTERM while `qmigrate migrate` is still setting up (issue 14, defect 3:
# the default action killed it, exit 143, no status document).  Whatever
# the moment: the abort path, a whole status document (file and stdout)
# saying Failed with the exit status, abortStatus Succeeded, exit 5 (never
# 3: the setup did not fail by itself, the SIGTERM ended it; issue 22,
# defect 8), never a signal death;
# and the guest runs on on the source, intact.  Each SIGTERM is sent once
# an event shows migrate waiting in that phase:
# 1. pre-flight on a hung source QEMU (SIGSTOPped: its monitor accepts no
#    connection): migrate's connection waits in the monitor's backlog;
# 2. the slot wait: the only slot of --slot-dir is held (flock): the
#    status notes that migrate waits for one;
# 3. tls:, a target that went silent (its `qmigrate incoming` SIGSTOPped
#    after it started listening): migrate's connection waits in the
#    target's backlog;
# 4. tls:, a TLS peer that completes the handshake and never answers the
#    offer (openssl s_server with the target's certificate): the offer
#    has reached it.
# Over tls: the abort also removes migrate's private directory (its
# QEMU-side sockets).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd openssl ss flock
setup_tmp
# The private directories of the tls: proxies (mig-tls.c), inside $TMP.
export TMPDIR=$TMP/run
mkdir "$TMPDIR"

make_pki src dst
port=$((20000 + RANDOM % 20000))
start_memguest src 32 10 -qmp "unix:$TMP/src.mon,server=on,wait=off"

# backlog SOCKET...: a connection waits in the accept queue of the
# listening socket ("unix PATH" or "tcp PORT").
backlog() {
	local q
	if [ "$1" = unix ]; then
		q=$(ss -xlnH src "$2" | awk '{ print $3 }')
	else
		q=$(ss -tlnH "sport = :$2" | awk '{ print $2 }')
	fi
	[ "${q:-0}" -ge 1 ]
}

# setup_aborted NAME: the SIGTERMed migrate NAME ended by the abort path.
setup_aborted() {
	local rc=0 st=$TMP/$1.status dir
	bg_wait "$1" 30 || rc=$?
	[ "$rc" -lt 128 ] || fail "$1: killed by signal $((rc - 128)) (exit $rc): $(tail -n 2 "$TMP/$1.err")"
	# The SIGTERM was obeyed: exit 5, abortStatus Succeeded.  A 3 would
	# be a setup that failed by itself, the abort ignored (issue 22,
	# defect 8: accepting it let the test pass with the signal lost).
	[ "$rc" -eq 5 ] || fail "$1: exit $rc, expected 5 (the abort): $(tail -n 2 "$TMP/$1.err")"
	jq -e . "$st" >/dev/null 2>&1 || fail "$1: the status file is not a whole document: $(head -c 200 "$st")"
	[ "$(status_get "$st" .phase)" = Failed ] || fail "$1: phase $(status_get "$st" .phase)"
	[ "$(status_get "$st" .abortRequested)" = true ] || fail "$1: abortRequested $(status_get "$st" .abortRequested)"
	[ "$(status_get "$st" .abortStatus)" = Succeeded ] || fail "$1: abortStatus $(status_get "$st" .abortStatus)"
	[ "$(status_get "$st" .exitCode)" = "$rc" ] ||
		fail "$1: exitCode $(status_get "$st" .exitCode), the exit status was $rc"
	[ -n "$(status_get "$st" .failureReason)" ] || fail "$1: no failureReason"
	[ "$(jq -s 'last | .phase' "$TMP/$1.out" 2>/dev/null)" = '"Failed"' ] ||
		fail "$1: no final document on stdout"
	[ "$(run_state src)" = running ] || fail "$1: the source is $(run_state src)"
	[ "$(qemu_mig_status src)" = none ] || fail "$1: the source QEMU migrated ($(qemu_mig_status src))"
	dir=$(sed -n 's|.*source: listening on unix:\(.*\)/[^/]*\.sock, forwarding.*|\1|p' "$TMP/$1.err" | head -n 1)
	[ -z "$dir" ] || [ ! -e "$dir" ] || fail "$1: private directory $dir left behind"
	echo "ok: $1: exit $rc, $(status_get "$st" .failureReason)"
}

# start_migrate NAME TO [ARGS...]
start_migrate() {
	local name=$1 to=$2
	shift 2
	bg_start "$name" "$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "$to" \
		--status-file "$TMP/$name.status" "$@"
}

# 1. Pre-flight, the source QEMU hung.
kill -STOP "$(guest_pid src)"
start_migrate preflight "unix:$TMP/none.sock"
wait_for 10 "migrate waiting for the hung monitor" backlog unix "$TMP/src.qmp"
kill -TERM "$(guest_pid preflight)"
kill -CONT "$(guest_pid src)"
setup_aborted preflight

# 2. The slot wait.
mkdir "$TMP/slots"
bg_idle holder "$TMP/slots/slot-0"
start_migrate slot "unix:$TMP/none.sock" --slot-dir "$TMP/slots" --max-parallel 1
wait_for 30 "migrate waiting for a slot" \
	eval 'status_get "$TMP/slot.status" ".notes[]" 2>/dev/null | grep -q "waiting for a migration slot"'
kill -TERM "$(guest_pid slot)"
setup_aborted slot

# 3. tls:, the target's qmigrate incoming stopped once it listens.
start_memguest_incoming dst 32
bg_start incoming "$QMIGRATE" incoming --qmp "$TMP/dst.qmp" \
	--listen "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/dst" \
	--status-file "$TMP/dst.status"
wait_for 30 "incoming listening" grep -q "listening for the source" "$TMP/incoming.err"
kill -STOP "$(guest_pid incoming)"
start_migrate silent "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/src" --tls-name dst
wait_for 30 "migrate waiting for the silent target" backlog tcp "$port"
kill -TERM "$(guest_pid silent)"
setup_aborted silent

# 4. tls:, a TLS peer that never answers the offer.
# s_server ends when its stdin does: it reads a FIFO this shell holds open.
port=$((port + 1))
mkfifo "$TMP/mute.in"
exec {mute_in}<>"$TMP/mute.in"
bg_start mute bash -c 'exec openssl s_server -accept "$1" -cert "$2/cert.pem" \
	-key "$2/key.pem" -CAfile "$2/ca.pem" -Verify 1 <"$3"' \
	s_server "127.0.0.1:$port" "$TMP/pki/dst" "$TMP/mute.in"
wait_log "$TMP/mute.out" '^ACCEPT' 10
start_migrate mute-offer "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/src" --tls-name dst
wait_log "$TMP/mute.out" 'migrationUid' 30
kill -TERM "$(guest_pid mute-offer)"
setup_aborted mute-offer

assert_stayed
