#!/usr/bin/env bash
# proxy-migrate.sh: a real multifd migration (8 channels) of the busy
# memory guest through qmigrate proxy source -> TLS -> proxy target, by
# plain QMP.  QEMU 7.2's target tells the main stream from the multifd
# channels only by accept order, so this fails unless the proxy delivers
# the 9 connections in the order the source QEMU opened them.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/proxy-lib.sh"
need_cmd "$QEMU"
setup_tmp
make_pki

start_memguest src 64 20
start_memguest_incoming dst 64
for side in src dst; do
	qmp "$side" migrate-set-capabilities \
		'{"capabilities":[{"capability":"multifd","state":true}]}' >/dev/null
	qmp "$side" migrate-set-parameters '{"multifd-channels":8}' >/dev/null
done
start_target tgt "$TMP/incoming.sock"
start_source srcp "$TMP/outgoing.sock" "$TARGET_PORT" --tls-dir "$TMP/pki/source"
qmp dst migrate-incoming '{"uri":"unix:'"$TMP"'/incoming.sock"}' >/dev/null
wait_for 10 "target QEMU's incoming socket" test -S "$TMP/incoming.sock"
qmp src migrate '{"uri":"unix:'"$TMP"'/outgoing.sock"}' >/dev/null

migration_done() {
	local st
	st=$(qmp src query-migrate | sed -n 's/^ *"status": "\([a-z-]*\)".*/\1/p' | head -n 1)
	case $st in
	completed) return 0 ;;
	failed | cancelled) fail "migration $st: $(qmp src query-migrate)" ;;
	esac
	return 1
}
wait_for 120 "migration to complete" migration_done
qmp dst query-status | grep -q '"status": "running"' ||
	fail "target not running: $(qmp dst query-status)"
wait_progress "$TMP/dst.serial" 30
wait_progress "$TMP/dst.serial" 30
assert_no_corrupt "$TMP/dst.serial"

# The main stream and 8 channels went through the proxy, in order.
n=$(count_lines "$TMP/tgt.err" 'conn [0-9]+ from .*: forwarding')
[ "$n" -eq 9 ] || fail "target proxy forwarded $n connections, want 9"
bytes=$(qmp src query-migrate | sed -n 's/^ *"transferred": \([0-9]*\).*/\1/p' | head -n 1)
echo "ok: multifd 8 channels through the TLS proxy, $bytes bytes, target guest runs clean"
