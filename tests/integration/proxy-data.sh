#!/usr/bin/env bash
# proxy-data.sh: data crosses qmigrate proxy source -> TLS -> proxy target
# intact, both ways, and connections reach the target's unix socket in the
# order the source side opened them, whether the pairs run on the main
# loop (--workers 0) or on worker threads; under a policy capping TLS at 1.2,
# OpenSSL carries the records and the data arrives intact as well; a
# proxy stopped while a worker forwards closes the pair and exits 0.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/proxy-lib.sh"
setup_tmp
make_pki source target

# send_checked WHAT SOCKET SINK TAG BYTES: sends BYTES as TAG on one
# connection to the source proxy at SOCKET; once start_sink's SINK is done,
# what it got (length and SHA-256) must be what was sent.  Sets GOT.
send_checked() {
	local sent out=$TMP/$4.send
	"$PEER" send "$2" "$4" "$5" >"$out" ||
		fail "$1 transfer failed: $(cat "$out")"
	bg_wait "$3" 10
	sent=$(awk '{ sub(/,$/, "", $4); print $3, $4 }' "$out")
	GOT=$(awk '{ print $2, $3 }' "$TMP/$3.d/0")
	[ "$sent" = "$GOT" ] || fail "$1: sink got \"$GOT\", sender sent \"$sent\""
}

# 1. One connection, 64 MiB: length and SHA-256 at the sink match what was
# sent; the sink's answer (sent after our half-close) comes back.
start_sink sink1 "$TMP/sink1.sock" 1
start_target tgt1 "$TMP/sink1.sock" --workers 0
start_source src1 "$TMP/src1.sock" "$TARGET_PORT" --tls-dir "$TMP/pki/source" --workers 0
send_checked "64 MiB" "$TMP/src1.sock" sink1 big 67108864
grep -q ' eof$' "$TMP/sink1.d/0" || fail "sink did not see a clean end"
wait_log "$TMP/tgt1.err" 'conn 0 from .*closed: both sides closed \(77 bytes from qemu, 67108868 bytes from peer' 10
wait_log "$TMP/src1.err" 'conn 0 to .*closed: both sides closed \(67108868 bytes from qemu, 77 bytes from peer' 10
grep -q 'TLS TLSv1.3' "$TMP/tgt1.err" || fail "target did not log TLS 1.3"
grep -Eq 'conn 0 from .*: forwarding$' "$TMP/tgt1.err" ||
	fail "--workers 0: the pair did not run on the main loop"
echo "ok: 64 MiB end to end (pairs on the main loop), sha256 $GOT"

# 2. Eight parallel connections through the source proxy: the source
# opens its TLS connections at once, so handshakes finish in any order;
# the sink must still accept them as conn 0..7.
start_sink sink8 "$TMP/sink8.sock" 8
start_target tgt8 "$TMP/sink8.sock" --workers 3
start_source src8 "$TMP/src8.sock" "$TARGET_PORT" --tls-dir "$TMP/pki/source" --workers 3
"$PEER" multi "$TMP/src8.sock" 8 4194304 >"$TMP/multi.out" ||
	fail "8 connections: $(cat "$TMP/multi.out")"
bg_wait sink8 10
for i in 0 1 2 3 4 5 6 7; do
	read -r tag n bytes sha status <"$TMP/sink8.d/$i"
	[ "$tag $n" = "conn $i" ] ||
		fail "sink's connection $i is \"$tag $n\" (out of order)"
	[ "$status" = eof ] || fail "connection $i ended with $status"
done
# ... forwarded on the 3 workers each side may start (none has a pair
# when the next connection comes, so all start).
for side in tgt8 src8; do
	w=$(sed -n 's/.*: forwarding on worker \([0-9]*\)$/\1/p' "$TMP/$side.err" |
		sort -u | tr '\n' ' ')
	[ "$w" = "0 1 2 " ] || fail "$side forwarded on workers \"$w\", want 0 1 2"
done
echo "ok: 8 parallel connections in order, over 3 workers each side"

# 3. A raw source that sets up data connections in reverse order (7 first,
# 0 last; each is held by the target, as its log says, before the next
# starts): the target must hand them to the sink as 0..7 nonetheless.
start_sink sinkr "$TMP/sinkr.sock" 8
start_target tgtr "$TMP/sinkr.sock"
"$PEER" tls-order 127.0.0.1 "$TARGET_PORT" "$TMP/pki/source" 127.0.0.1 8 1048576 \
	"$TMP/tgtr.err" >"$TMP/order.out" 2>&1 ||
	fail "reverse-order client: $(cat "$TMP/order.out")"
bg_wait sinkr 10
for i in 0 1 2 3 4 5 6 7; do
	read -r tag n rest <"$TMP/sinkr.d/$i"
	[ "$tag $n" = "conn $i" ] ||
		fail "target delivered \"$tag $n\" as connection $i"
done
for i in 7 6 5 4 3 2 1; do
	grep -q "conn $i from .*held until conn 0" "$TMP/tgtr.err" ||
		fail "target did not hold conn $i"
done
echo "ok: reverse-order handshakes delivered in sequence order"

# 4. A system crypto policy that caps TLS at 1.2 (OPENSSL_CONF), both sides
# allowing it (--tls12): OpenSSL's record layer carries the data instead
# of the proxy's own TLS 1.3 one, and it arrives intact all the same.
cat >"$TMP/tls12.cnf" <<'CNF'
openssl_conf = openssl_init
[openssl_init]
ssl_conf = ssl_sect
[ssl_sect]
system_default = system_default_sect
[system_default_sect]
MaxProtocol = TLSv1.2
CNF
start_sink sink2 "$TMP/sink2.sock" 1
OPENSSL_CONF=$TMP/tls12.cnf start_target tgt2 "$TMP/sink2.sock" --tls12
OPENSSL_CONF=$TMP/tls12.cnf start_source src2 "$TMP/src2.sock" "$TARGET_PORT" \
	--tls-dir "$TMP/pki/source" --tls12
send_checked "TLS 1.2" "$TMP/src2.sock" sink2 tls12 16777216
grep -q 'TLS TLSv1.2' "$TMP/tgt2.err" || fail "target did not log TLS 1.2"
grep -q 'OpenSSL carries the records: TLSv1.2' "$TMP/src2.err" ||
	fail "the source did not leave TLS 1.2 to OpenSSL"
echo "ok: TLS 1.2 under a system policy, carried by OpenSSL, sha256 $GOT"

# 5. SIGTERM while a pair forwards on a worker: the worker closes it
# ("proxy stopping"), the thread is joined and the proxy exits 0 (under
# the sanitizers: no leak, no use after free of what the worker owned).
start_sink sink5 "$TMP/sink5.sock" 1
start_target tgt5 "$TMP/sink5.sock"
start_source src5 "$TMP/src5.sock" "$TARGET_PORT" --tls-dir "$TMP/pki/source"
bg_start stall5 "$PEER" stall "$TMP/src5.sock" 1048576
wait_log "$TMP/src5.err" 'conn 0 to .*: forwarding on worker 0' 10
_lib_pid_of src5
kill -TERM "$_lib_pid"
bg_wait src5 10 || fail "source proxy exited $? after SIGTERM with a live pair"
grep -Eq 'conn 0 to .*: closed: proxy stopping' "$TMP/src5.err" ||
	fail "the worker's pair was not closed: $(cat "$TMP/src5.err")"
echo "ok: stopped with a pair live on a worker: closed, joined, exit 0"
