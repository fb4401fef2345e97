#!/usr/bin/env bash
# The exporter, a long-running daemon, and every default-fatal signal a
# user can send (the audit's N9, signals.c's table): SIGHUP, SIGUSR1 and
# SIGUSR2 leave it serving (each logged), SIGQUIT ends it as SIGTERM does:
# exit 0, not a death by signal.  On b475dc5 SIGHUP killed it (129).  No
# QEMU needed: the VM it serves is not there (reported down).
. "$top_srcdir/tests/lib.sh"
[ -x "$QMIGRATE" ] || fail "qmigrate not built: $QMIGRATE"
need_cmd curl
setup_tmp

bg_start exp "$QMIGRATE" exporter --listen 127.0.0.1:0 --interval 0.5 \
	--vm "gone=$TMP/gone.qmp"
wait_log "$TMP/exp.err" 'listening on 127\.0\.0\.1:[0-9]+$' 10
port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$TMP/exp.err")
pid=$(guest_pid exp)
for sig in HUP USR1 USR2; do
	kill -"$sig" "$pid"
	wait_log "$TMP/exp.err" "^qmigrate exporter: SIG$sig" 10
	curl -sS -f --max-time 4 -o "$TMP/m" "http://127.0.0.1:$port/metrics" ||
		fail "no scrape answered after SIG$sig"
	grep -q '^qmigrate_vm_up{name="gone"} 0$' "$TMP/m" || fail "after SIG$sig: $(head -n 3 "$TMP/m")"
done
kill -QUIT "$pid"
rc=0
bg_wait exp 10 || rc=$?
[ "$rc" -eq 0 ] || fail "the exporter ended with $rc after SIGQUIT: $(tail -n 2 "$TMP/exp.err")"
grep -q '^qmigrate exporter: SIGQUIT: exiting$' "$TMP/exp.err" || fail "no exit line: $(tail -n 2 "$TMP/exp.err")"
echo "ok: SIGHUP, SIGUSR1, SIGUSR2 left the exporter serving; SIGQUIT ended it (0)"
