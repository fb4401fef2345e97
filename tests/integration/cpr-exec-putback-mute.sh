#!/usr/bin/env bash
# qmigrate update --mode exec (cpr-exec, QEMU 11.1) whose monitor goes mute
# during the pre-flight: QEMU set mode cpr-transfer for the probe and
# answered, then the put-back (mode normal) and every command behind it
# wait, unanswered, on a connection that stays open (a relay or a monitor
# hung in a command: sim-real --update-exec's dropped command, G2 in
# tests/sim/README.md).  The update fails (3, the guest on the old QEMU),
# and the put-back is sent again on a new connection, which QEMU serves:
# at the exit QEMU's mode is normal.  Before the fix the put-back went on
# the mute connection alone and the exit 3 left cpr-transfer set (a later
# plain migrate by another tool would be refused for want of a cpr
# channel).
# The relay (tests/qmp-relay) holds the put-back, and what follows it on
# that connection, 40 s, on the first connection only: past the
# pre-flight's two 10 s waits and the finishing's first one, so the
# put-back is sent again on new connections.  QEMU's monitor serves one
# client at a time, and the relay keeps the first one's connection to QEMU
# until its held bytes went on: the new connections are refused until
# then (qmigrate connects again for 30 s), and the second put-back is
# answered on one of them.  Before the fix, qmigrate exited 3 at ~20 s,
# while the hold lasted, with QEMU's mode cpr-transfer.
. "$top_srcdir/tests/cpr-exec-lib.sh"
cpr_exec_test_begin
relay=$top_builddir/tests/qmp-relay
need_file "$relay" "tests/qmp-relay"

cpr_exec_start g 32 50
pid=$CPR_EXEC_PID
cpr_exec_command "$TMP/new.cmd" /usr/bin/qemu-system-x86_64
bg_start relay "$relay" --hold '"mode":"normal"' --hold-for 40 --only-conn 1 \
	"$TMP/r.qmp" "$TMP/g.qmp"
wait_log "$TMP/relay.out" '^ready' 10

st=$TMP/u.status
start=$SECONDS
run_qmigrate 3 update --mode exec --qmp "$TMP/r.qmp" --to "file:$TMP/vm.state" \
	--new-command "$TMP/new.cmd" --status-file "$st"
grep -q '^conn 1: holding' "$TMP/relay.out" ||
	fail "the relay held nothing: $(cat "$TMP/relay.out")"
grep -q '^conn 2: accepted' "$TMP/relay.out" ||
	fail "no second connection: $(cat "$TMP/relay.out")"
[ $((SECONDS - start)) -ge 40 ] ||
	fail "qmigrate ended in $((SECONDS - start)) s, within the hold: $(cat "$TMP/relay.out")"
expect_err "no reply within 10 s: connecting again"
cat "$TMP/relay.out" "$TMP/err"
expect_status "$st" .phase Failed
expect_status "$st" .exitCode 3
qmp g query-migrate-parameters | grep -q '"mode": "normal"' ||
	fail "the mode was not put back: $(qmp g query-migrate-parameters | grep mode)"
if grep -q 'not confirmed' "$st"; then
	fail "the document says the mode may be left, though QEMU took it back: $(status_get "$st" .notes)"
fi
grep -q '"status": "active"\|"status": "completed"' <(qmp g query-migrate) &&
	fail "QEMU migrated: $(qmp g query-migrate)"
kill -0 "$pid" 2>/dev/null || fail "QEMU $pid is gone"
cpr_running g || fail "the guest does not run: $(qmp g query-status)"
[ "$(grep -ac '^memguest: ready ' "$TMP/g.serial")" -eq 1 ] || fail "the guest restarted"
assert_memory_intact "$TMP/g.serial"
echo "ok: a mute monitor under the pre-flight's put-back: 3, the mode put back on a new connection, the guest runs on, every page"
