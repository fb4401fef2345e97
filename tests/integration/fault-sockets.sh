#!/usr/bin/env bash
# Sockets, files and privileges (issue 7), with a caller whose umask is 000
# (nothing below may depend on the caller's umask):
# - `qmigrate proxy source --listen unix:PATH` creates PATH mode 0600;
# - `qmigrate incoming --listen tls:` and `qmigrate migrate --to tls:` put
#   the unix sockets QEMU uses in a private directory, mode 0700 and the
#   caller's, removed when they exit;
# - every status file a migration writes, read at any moment, is a whole
#   JSON document (written to a temporary file and renamed), and no
#   temporary file is left behind;
# - `qmigrate proxy target --user nobody` runs as nobody with no
#   capability at all (effective, permitted, bounding).
# (No system()/popen()/shell: tests/lint/no-shell.sh.)
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd openssl stat
setup_tmp
umask 000
# mig-tls.c makes its private directories under TMPDIR: inside $TMP, so
# that the test sees them and can tell they are gone.
export TMPDIR=$TMP/run
mkdir -m 0700 "$TMPDIR"
make_pki src dst

# mode_is PATH MODE: PATH exists with octal permission bits MODE.
mode_is() {
	local m
	m=$(stat -c %a "$1") || fail "$1 does not exist"
	[ "$m" = "$2" ] || fail "$1 has mode $m, expected $2"
}

# proc_field PID FIELD: a line of /proc/PID/status, without its name.
proc_field() {
	sed -n "s/^$2:[[:space:]]*//p" "/proc/$1/status"
}

# 1. The standalone source proxy's socket.
bg_start psrc "$QMIGRATE" proxy source --listen "unix:$TMP/psrc.sock" \
	--to tls:127.0.0.1:9 --tls-dir "$TMP/pki/src" --tls-name dst
wait_log "$TMP/psrc.err" 'source: listening on' 10
[ -S "$TMP/psrc.sock" ] || fail "$TMP/psrc.sock is not a socket"
mode_is "$TMP/psrc.sock" 600
echo "ok: proxy source --listen unix: socket is 0600 under umask 000"

# 2. --user nobody: the target proxy drops to nobody and every capability.
nobody_uid=$(id -u nobody) || fail "no user nobody on this machine"
bg_start ptgt "$QMIGRATE" proxy target --user nobody \
	--listen tls:127.0.0.1:0 --to "unix:$TMP/ptgt.sock" \
	--tls-dir "$TMP/pki/dst"
wait_log "$TMP/ptgt.err" 'running as nobody without capabilities' 10
pid=$(guest_pid ptgt)
read -r ruid euid suid fsuid <<<"$(proc_field "$pid" Uid)"
for u in "$ruid" "$euid" "$suid" "$fsuid"; do
	[ "$u" = "$nobody_uid" ] || fail "proxy target uids: $ruid $euid $suid $fsuid, expected nobody ($nobody_uid)"
done
for f in CapEff CapPrm CapBnd CapInh CapAmb; do
	v=$(proc_field "$pid" $f)
	[ $((16#$v)) -eq 0 ] || fail "proxy target --user nobody: $f $v, expected 0"
done
# Still serving: it accepts a TCP connection on its port.
port=$(sed -n 's/.*target: listening on .*(port \([0-9]*\)).*/\1/p' "$TMP/ptgt.err" | head -n 1)
(exec 3<>"/dev/tcp/127.0.0.1/$port") || fail "proxy target as nobody does not accept on port $port"
echo "ok: proxy target --user nobody: uid $nobody_uid, no capability, still listening"

# 3. A TLS migration: private directories, sockets, status files.
mig_policy slow '{ "bandwidthPerMigration": "2Mi" }'
start_memguest src 16 1 -qmp "unix:$TMP/src.mon,server=on,wait=off"
start_memguest_incoming dst 16 -qmp "unix:$TMP/dst.mon,server=on,wait=off"
tport=$((20000 + RANDOM % 20000))
bg_start incoming "$QMIGRATE" incoming --qmp "$TMP/dst.qmp" \
	--listen "tls:127.0.0.1:$tport" --tls-dir "$TMP/pki/dst" \
	--status-file "$TMP/dst.status"
wait_log "$TMP/incoming.err" 'listening for the source' 30
tdir=$(sed -n 's|.*forwarding to unix:\(.*\)/incoming.sock.*|\1|p' "$TMP/incoming.err" | head -n 1)
[ -n "$tdir" ] || fail "incoming did not name its socket"
[[ $tdir == "$TMPDIR"/* ]] || fail "incoming's private directory $tdir is not under TMPDIR"
mode_is "$tdir" 700
[ "$(stat -c %u "$tdir")" = "$(id -u)" ] || fail "$tdir is not the caller's"

bg_start migrate "$QMIGRATE" migrate --qmp "$TMP/src.qmp" \
	--to "tls:127.0.0.1:$tport" --tls-dir "$TMP/pki/src" --tls-name dst \
	--policy "$TMP/slow.json" --status-file "$TMP/src.status"
wait_log "$TMP/migrate.err" 'source: listening on unix:' 30
ssock=$(sed -n 's|.*source: listening on unix:\([^,]*\), forwarding.*|\1|p' "$TMP/migrate.err" | head -n 1)
sdir=${ssock%/*}
[[ $sdir == "$TMPDIR"/* ]] || fail "migrate's private directory $sdir is not under TMPDIR"
mode_is "$sdir" 700
mode_is "$ssock" 600

# While 16 MiB cross at 2 MiB/s: every read of either status file is a
# whole JSON document (a torn write would fail jq).
_whole_json() {
	local f
	for f in "$TMP/src.status" "$TMP/dst.status"; do
		[ -e "$f" ] || continue
		jq -e .phase "$f" >/dev/null 2>&1 ||
			{ [ -e "$f" ] && fail "$f read mid-write: $(head -c 200 "$f")"; }
	done
	reads=$((reads + 1))
	! kill -0 "$(guest_pid migrate)" 2>/dev/null
}
reads=0
wait_for 120 "the migration to end" _whole_json
expect_exit migrate 0 10
expect_exit incoming 0 30
[ "$(run_state dst)" = running ] || fail "dst is $(run_state dst), not running"
assert_memory_intact "$TMP/dst.serial"
[ ! -e "$sdir" ] || fail "migrate left its private directory $sdir"
[ ! -e "$tdir" ] || fail "incoming left its private directory $tdir"
left=$(find "$TMP" -maxdepth 1 -name '*.status.tmp*')
[ -z "$left" ] || fail "temporary status files left: $left"
echo "ok: TLS migration: private dirs 0700, socket 0600, both removed; $reads reads of the status files, each whole JSON"
