#!/usr/bin/env bash
# evict-signal-none.sh: SIGTERM to `qmigrate evict` under evictionStrategy
# None while it waits out the shutdown's grace period (audit D13: evict had
# no handler, died by the signal, exit 143, its document left Running with
# no exitCode).  The memory guest ignores the ACPI power button, so it
# still runs when the signal comes: evict must end the eviction as an
# abort (exit 5, README: the guest still runs here), never by the signal,
# within 2 s, without the quit the grace period would end with, and with a
# last document that says so; the guest runs on, intact.  SIGINT the same.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

cat >"$TMP/none.json" <<JSON
{ "name": "none", "evictionStrategy": "None", "terminationGracePeriodSeconds": 120 }
JSON
start_memguest vm 16 10 -qmp "unix:$TMP/vm.mon,server=on,wait=off"

# shutdown_sent NAME: evict NAME's document says the power button was pressed.
shutdown_sent() {
	[ "$(status_get "$TMP/$1.status" .eviction.shutdown.method)" = system_powerdown ] &&
		[ "$(status_get "$TMP/$1.status" .phase)" = Running ]
}

# signalled_in_grace NAME SIGNAL
signalled_in_grace() {
	local name=$1 sig=$2 rc=0 st=$TMP/$1.status t0 took
	bg_start "$name" "$QMIGRATE" evict --qmp "$TMP/vm.qmp" \
		--to "unix:$TMP/unused.sock" --policy "$TMP/none.json" \
		--status-file "$st"
	wait_for 30 "$name's shutdown request" shutdown_sent "$name"
	t0=$(date +%s%3N)
	kill -"$sig" "$(guest_pid "$name")"
	bg_wait "$name" 30 || rc=$?
	took=$(($(date +%s%3N) - t0))
	[ "$rc" -lt 128 ] || fail "$name: killed by signal $((rc - 128)) (exit $rc)"
	[ "$rc" -eq 5 ] || fail "$name: exit $rc, expected 5: $(tail -n 3 "$TMP/$name.err")"
	[ "$took" -le 2000 ] || fail "$name: exited $took ms after $sig"
	jq -e . "$st" >/dev/null 2>&1 || fail "$name: the status file is not a whole document"
	expect_status "$st" .phase Failed "$name"
	expect_status "$st" .exitCode 5 "$name"
	expect_status "$st" .abortRequested true "$name"
	expect_status "$st" .abortStatus Succeeded "$name"
	expect_status "$st" .eviction.strategy None "$name"
	expect_status "$st" .eviction.action shutdown "$name"
	status_get "$st" .failureReason | grep -q "abort requested (SIG$sig) during the shutdown's grace period: the guest still runs on this node" ||
		fail "$name: failureReason $(status_get "$st" .failureReason)"
	status_get "$st" '.notes[]' | grep -q "system_powerdown was sent" ||
		fail "$name: no note on the request sent: $(status_get "$st" .notes)"
	[ "$(jq -s 'last | .exitCode' "$TMP/$name.out")" = 5 ] ||
		fail "$name: no last document on stdout"
	# Where the document says: here, running (quit never sent).
	[ "$(run_state vm)" = running ] || fail "$name: the guest is $(run_state vm)"
	echo "ok: $name: exit $rc $took ms after SIG$sig: $(status_get "$st" .failureReason)"
}

signalled_in_grace term TERM
signalled_in_grace int INT
assert_memory_intact "$TMP/vm.serial"
