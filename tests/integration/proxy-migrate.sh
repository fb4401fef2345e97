#!/usr/bin/env bash
# proxy-migrate.sh: real migrations of the busy memory guest through
# qmigrate proxy source -> TLS -> proxy target, by plain QMP:
# 1. multifd with 8 channels: QEMU 7.2's target tells the main stream from
#    the multifd channels only by accept order, so this fails unless the
#    proxy delivers the 9 connections in the order the source opened them;
# 2. post-copy (the return path crosses the proxy the other way);
# 3. the target proxy killed mid-migration: the migration fails, the
#    source guest keeps running.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/proxy-lib.sh"
need_cmd "$QEMU"
setup_tmp
make_pki source target

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

# mig_status NAME: the status field of NAME's query-migrate.
mig_status() {
	qmp "$1" query-migrate | sed -n 's/^ *"status": "\([a-z-]*\)".*/\1/p' | head -n 1
}
# migration_is NAME STATUS: condition for wait_for; a failure other than
# the one awaited fails the test.
migration_is() {
	local st
	st=$(mig_status "$1")
	[ "$st" = "$2" ] && return 0
	case $st in
	completed | failed | cancelled) fail "migration of $1 $st: $(qmp "$1" query-migrate)" ;;
	esac
	return 1
}
wait_for 120 "migration to complete" migration_is src completed
qmp dst query-status | grep -q '"status": "running"' ||
	fail "target not running: $(qmp dst query-status)"
assert_memory_intact "$TMP/dst.serial"

# The main stream and 8 channels went through the proxy, in order.
n=$(count_lines "$TMP/tgt.err" 'conn [0-9]+ from .*: forwarding')
[ "$n" -eq 9 ] || fail "target proxy forwarded $n connections, want 9"
bytes=$(qmp src query-migrate | sed -n 's/^ *"transferred": \([0-9]*\).*/\1/p' | head -n 1)
echo "ok: multifd 8 channels through the TLS proxy, $bytes bytes, target guest runs clean"

# 2. Post-copy: pre-copy at 16 MiB/s cannot catch a guest dirtying 50 MB/s;
# switch to post-copy and let the target pull the rest.
start_memguest psrc 64 50
start_memguest_incoming pdst 64
for side in psrc pdst; do
	qmp "$side" migrate-set-capabilities \
		'{"capabilities":[{"capability":"postcopy-ram","state":true}]}' >/dev/null
done
qmp psrc migrate-set-parameters '{"max-bandwidth":16777216}' >/dev/null
start_target ptgt "$TMP/pincoming.sock"
start_source psrcp "$TMP/poutgoing.sock" "$TARGET_PORT" --tls-dir "$TMP/pki/source"
qmp pdst migrate-incoming '{"uri":"unix:'"$TMP"'/pincoming.sock"}' >/dev/null
wait_for 10 "target QEMU's incoming socket" test -S "$TMP/pincoming.sock"
qmp psrc migrate '{"uri":"unix:'"$TMP"'/poutgoing.sock"}' >/dev/null
wait_for 30 "post-copy migration active" migration_is psrc active
qmp psrc migrate-start-postcopy >/dev/null
wait_for 120 "post-copy migration to complete" migration_is psrc completed
pbytes=$(qmp psrc query-migrate | sed -n 's/^ *"postcopy-bytes": \([0-9]*\).*/\1/p' | head -n 1)
[ "${pbytes:-0}" -gt 0 ] || fail "no bytes moved in post-copy: $(qmp psrc query-migrate)"
qmp pdst query-status | grep -q '"status": "running"' ||
	fail "post-copy target not running: $(qmp pdst query-status)"
assert_memory_intact "$TMP/pdst.serial"
echo "ok: post-copy through the TLS proxy ($pbytes bytes in post-copy), target guest runs clean"

# 3. The target proxy dies mid-migration (8 MiB/s: the migration lasts):
# the source QEMU sees its connection close, the migration fails and the
# source guest keeps running.
start_memguest ksrc 64 20
start_memguest_incoming kdst 64
qmp ksrc migrate-set-parameters '{"max-bandwidth":8388608}' >/dev/null
start_target ktgt "$TMP/kincoming.sock"
start_source ksrcp "$TMP/koutgoing.sock" "$TARGET_PORT" --tls-dir "$TMP/pki/source"
qmp kdst migrate-incoming '{"uri":"unix:'"$TMP"'/kincoming.sock"}' >/dev/null
wait_for 10 "target QEMU's incoming socket" test -S "$TMP/kincoming.sock"
qmp ksrc migrate '{"uri":"unix:'"$TMP"'/koutgoing.sock"}' >/dev/null
wait_log "$TMP/ktgt.err" 'conn 0 from .*: forwarding' 10
wait_for 30 "migration active" migration_is ksrc active
_lib_pid_of ktgt
kill -KILL "$_lib_pid"
wait_for 60 "migration to fail" migration_is ksrc failed
wait_log "$TMP/ksrcp.err" 'conn 0 to .*closed: (read from|write to) peer' 10
qmp ksrc query-status | grep -q '"status": "running"' ||
	fail "source guest not running after the failed migration: $(qmp ksrc query-status)"
assert_memory_intact "$TMP/ksrc.serial"
echo "ok: target proxy killed: migration failed, source guest runs on"
