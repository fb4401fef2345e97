#!/usr/bin/env bash
# proxy-migrate.sh: real migrations of the busy memory guest through
# qmigrate proxy source -> TLS -> proxy target, by plain QMP:
# 1. multifd with 8 channels: QEMU 7.2's target tells the main stream from
#    the multifd channels only by accept order, so this fails unless the
#    proxy delivers the 9 connections in the order the source opened them;
# 2. post-copy (the return path crosses the proxy the other way);
# 3. the target proxy killed mid-migration: the migration fails, the
#    source guest keeps running;
# 4. a TLS error on one multifd channel (a bit flipped on the wire, the
#    target's worker finds a record that fails authentication): that
#    worker's pair ends, the migration fails, the source guest runs on.
# Both proxies forward on 4 worker threads (each with its own loop): the
# 9 connections of case 1 must have run on more than one of them.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/proxy-lib.sh"
need_cmd "$QEMU"
setup_tmp
make_pki source target

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

# guests P RATE [CAPABILITY]: memory guests Psrc (64 MiB written at RATE
# MB/s) and Pdst (-incoming), both with the migration CAPABILITY if given.
guests() {
	local side
	start_memguest "$1src" 64 "$2"
	start_memguest_incoming "$1dst" 64
	[ $# -ge 3 ] || return 0
	for side in "$1src" "$1dst"; do
		qmp "$side" migrate-set-capabilities \
			"{\"capabilities\":[{\"capability\":\"$3\",\"state\":true}]}" >/dev/null
	done
}

# migrate_through P [PORT]: guest Psrc migrates to Pdst (started
# -incoming) by plain QMP through a source proxy Psrcp (unix
# $TMP/Poutgoing.sock) and a target proxy Ptgt (to $TMP/Pincoming.sock,
# where Pdst listens); with PORT, Ptgt runs already and the source proxy
# goes to PORT.
migrate_through() {
	[ $# -ge 2 ] || start_target "$1tgt" "$TMP/$1incoming.sock" --workers 4
	start_source "$1srcp" "$TMP/$1outgoing.sock" "${2:-$TARGET_PORT}" \
		--tls-dir "$TMP/pki/source" --workers 4
	qmp "$1dst" migrate-incoming "{\"uri\":\"unix:$TMP/$1incoming.sock\"}" >/dev/null
	wait_for 10 "target QEMU's incoming socket" test -S "$TMP/$1incoming.sock"
	qmp "$1src" migrate "{\"uri\":\"unix:$TMP/$1outgoing.sock\"}" >/dev/null
}

# assert_runs NAME WHAT: guest NAME runs, with every page intact.
assert_runs() {
	qmp "$1" query-status | grep -q '"status": "running"' ||
		fail "$2 not running: $(qmp "$1" query-status)"
	assert_memory_intact "$TMP/$1.serial"
}

guests "" 20 multifd
for side in src dst; do
	qmp "$side" migrate-set-parameters '{"multifd-channels":8}' >/dev/null
done
migrate_through ""
wait_for 120 "migration to complete" migration_is src completed
assert_runs dst target

# The main stream and 8 channels went through the proxy, in order.
n=$(count_lines "$TMP/tgt.err" 'conn [0-9]+ from .*: forwarding')
[ "$n" -eq 9 ] || fail "target proxy forwarded $n connections, want 9"
# ... on more than one worker thread of each proxy.
for side in tgt srcp; do
	w=$(sed -n 's/.* conn [0-9]* .*: forwarding on worker \([0-9]*\)$/\1/p' \
		"$TMP/$side.err" | sort -u | wc -l)
	[ "$w" -ge 2 ] || fail "$side forwarded on $w worker(s): $(grep forwarding "$TMP/$side.err")"
done
bytes=$(qmp src query-migrate | sed -n 's/^ *"transferred": \([0-9]*\).*/\1/p' | head -n 1)
echo "ok: multifd 8 channels through the TLS proxy, $bytes bytes, target guest runs clean"

# 2. Post-copy: pre-copy at 16 MiB/s cannot catch a guest dirtying 50 MB/s;
# switch to post-copy and let the target pull the rest.
guests p 50 postcopy-ram
qmp psrc migrate-set-parameters '{"max-bandwidth":16777216}' >/dev/null
migrate_through p
wait_for 30 "post-copy migration active" migration_is psrc active
qmp psrc migrate-start-postcopy >/dev/null
wait_for 120 "post-copy migration to complete" migration_is psrc completed
pbytes=$(qmp psrc query-migrate | sed -n 's/^ *"postcopy-bytes": \([0-9]*\).*/\1/p' | head -n 1)
[ "${pbytes:-0}" -gt 0 ] || fail "no bytes moved in post-copy: $(qmp psrc query-migrate)"
assert_runs pdst "post-copy target"
echo "ok: post-copy through the TLS proxy ($pbytes bytes in post-copy), target guest runs clean"

# 3. The target proxy dies mid-migration (8 MiB/s: the migration lasts):
# the source QEMU sees its connection close, the migration fails and the
# source guest keeps running.
guests k 20
qmp ksrc migrate-set-parameters '{"max-bandwidth":8388608}' >/dev/null
migrate_through k
wait_log "$TMP/ktgt.err" 'conn 0 from .*: forwarding' 10
wait_for 30 "migration active" migration_is ksrc active
_lib_pid_of ktgt
kill -KILL "$_lib_pid"
wait_for 60 "migration to fail" migration_is ksrc failed
wait_log "$TMP/ksrcp.err" 'conn 0 to .*closed: (read from|write to) peer' 10
assert_runs ksrc "source guest after the failed migration"
echo "ok: target proxy killed: migration failed, source guest runs on"

# 4. A TLS error on a multifd channel: a relay between the proxies flips
# one bit 256 KiB into the 4th connection it carries (the control
# connection, the main stream, then the channels).  The target's worker
# finds the record does not authenticate and ends that pair; QEMU sees
# its channel break on both sides and the migration fails.
guests c 20 multifd
for side in csrc cdst; do
	qmp "$side" migrate-set-parameters '{"multifd-channels":4}' >/dev/null
done
start_target ctgt "$TMP/cincoming.sock" --workers 4
bg_start crelay "$PEER" corrupt "$TARGET_PORT" 3 262144
wait_log "$TMP/crelay.out" '^port [0-9]+' 10
rport=$(sed -n 's/^port //p' "$TMP/crelay.out" | head -n 1)
migrate_through c "$rport"
wait_for 60 "migration to fail" migration_is csrc failed
wait_log "$TMP/crelay.out" '^corrupted conn 3' 10
wait_log "$TMP/ctgt.err" 'conn [0-9]+ from .*: closed: read from peer: TLS record failed authentication' 10
grep -Eq 'conn [0-9]+ from .*: forwarding on worker [0-9]+$' "$TMP/ctgt.err" ||
	fail "target forwarded on no worker: $(cat "$TMP/ctgt.err")"
assert_runs csrc "source guest after the TLS error"
echo "ok: TLS error on one multifd channel: migration failed, source guest runs on"
