#!/usr/bin/env bash
# migrate-preflight-signal.sh: a SIGTERM, or the --timeout deadline, while
# the source's pre-flight waits on its QOM walk (audit D10: the walk went
# on through every node, 10 s each, before the abort was looked at).
# tests/qmp-relay stands between migrate and the source's monitor and
# holds the pre-flight's qom-list of /machine/unattached for 600 s: a real
# QEMU cannot be made to sit on one command while it goes on running the
# guest (a SIGSTOPped one stops the guest too).  In both cases migrate
# exits within 2 s with 5 (aborted before anything moved), never by a
# signal, with a whole document saying so, and the guest runs on the
# source, never migrated.  3. With neither, the held command's 10 s
# timeout ends the pre-flight: exit 3 (control plane) within 15 s, where
# the walk went on to the next node (up to 2000 of them, 10 s each).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

start_memguest src 32 10 -qmp "unix:$TMP/src.mon,server=on,wait=off"

# held NAME: the relay in front of NAME's migrate holds the QOM walk.
held() {
	grep -q "holding a command" "$TMP/$1-relay.out"
}

# preflight_aborted NAME CAUSE: migrate NAME, started at START_MS, exited 5
# within 2 s of the moment the abort was asked (ASKED_MS).
preflight_aborted() {
	local rc=0 st=$TMP/$1.status end took
	bg_wait "$1" 30 || rc=$?
	end=$(date +%s%3N)
	took=$((end - ASKED_MS))
	[ "$rc" -lt 128 ] || fail "$1: killed by signal $((rc - 128))"
	[ "$rc" -eq 5 ] || fail "$1: exit $rc, expected 5: $(tail -n 3 "$TMP/$1.err")"
	[ "$took" -le 2500 ] || fail "$1: exited $took ms after $2, expected within 2 s"
	jq -e . "$st" >/dev/null 2>&1 || fail "$1: the status file is not a whole document"
	expect_status "$st" .phase Failed "$1"
	expect_status "$st" .exitCode 5 "$1"
	expect_status "$st" .abortStatus Succeeded "$1"
	status_get "$st" .failureReason | grep -q "before the migration started" ||
		fail "$1: failureReason $(status_get "$st" .failureReason)"
	[ "$(run_state src)" = running ] || fail "$1: the source is $(run_state src)"
	[ "$(qemu_mig_status src)" = none ] || fail "$1: the source QEMU migrated"
	echo "ok: $1: exit $rc $took ms after $2: $(status_get "$st" .failureReason)"
}

# start_held NAME ARGS...: migrate NAME through its own relay, which holds
# the QOM walk; returns once the walk is held.
start_held() {
	local name=$1
	shift
	bg_start "$name-relay" "$top_builddir/tests/qmp-relay" \
		--hold '"path":"/machine/unattached"' --hold-for 600 \
		"$TMP/$name-relay.sock" "$TMP/src.qmp"
	wait_log "$TMP/$name-relay.out" '^ready' 10
	bg_start "$name" "$QMIGRATE" migrate --qmp "$TMP/$name-relay.sock" \
		--to "unix:$TMP/none.sock" --status-file "$TMP/$name.status" "$@"
	wait_for 30 "$name's pre-flight held" held "$name"
}

need_file "$top_builddir/tests/qmp-relay" "tests/qmp-relay"

# 1. SIGTERM during the walk.
start_held term --timeout 20
ASKED_MS=$(date +%s%3N)
kill -TERM "$(guest_pid term)"
preflight_aborted term SIGTERM
expect_status "$TMP/term.status" .abortRequested true term
# The monitor takes one client at a time: the relay's goes.
kill "$(guest_pid term-relay)"
bg_wait term-relay 10 || true

# 2. The deadline during the walk: --timeout 6, the walk held from about
# 1 s in (measured from the start: the deadline is migrate's own clock).
START_MS=$(date +%s%3N)
start_held deadline --timeout 6
ASKED_MS=$((START_MS + 6000))
preflight_aborted deadline "its 6 s deadline"
expect_status "$TMP/deadline.status" .abortRequested false deadline
kill "$(guest_pid deadline-relay)"
bg_wait deadline-relay 10 || true

# 3. Neither: QEMU does not answer within 10 s, the pre-flight ends.
start_held silent --timeout 60
t0=$(date +%s%3N)
rc=0
bg_wait silent 30 || rc=$?
took=$(($(date +%s%3N) - t0))
[ "$rc" -eq 3 ] || fail "silent: exit $rc, expected 3: $(tail -n 3 "$TMP/silent.err")"
[ "$took" -le 15000 ] || fail "silent: exited $took ms after the walk was held"
expect_status "$TMP/silent.status" .failurePlane control silent
status_get "$TMP/silent.status" .failureReason | grep -q "pre-flight check: qom-list: " ||
	fail "silent: failureReason $(status_get "$TMP/silent.status" .failureReason)"
echo "ok: silent: exit 3 $took ms after the walk was held: $(status_get "$TMP/silent.status" .failureReason)"

assert_stayed
