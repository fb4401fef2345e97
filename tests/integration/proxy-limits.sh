#!/usr/bin/env bash
# proxy-limits.sh: the proxy's limits as a peer sees them: a peer that
# stalls mid-stream hits the idle timeout; a flood of connections that
# never finish their handshake and a sender into a sink that never reads
# both leave the proxy's memory bounded; killing a proxy mid-transfer
# closes both ends.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/proxy-lib.sh"
setup_tmp
make_pki source target

# 1. Stall: 1 MiB, then silence.  The target closes after 2 s idle and the
# close reaches the source side's peer.
start_sink sink1 "$TMP/sink1.sock" 1
start_target tgt1 "$TMP/sink1.sock" --idle-timeout 2
start_source src1 "$TMP/src1.sock" "$TARGET_PORT" --tls-dir "$TMP/pki/source"
bg_start stall "$PEER" stall "$TMP/src1.sock" 1048576
bg_wait stall 15 || fail "stalled peer: exit status $?"
grep -Eq '^closed after [1-9]\.[0-9] s$' "$TMP/stall.out" ||
	fail "stalled peer: $(cat "$TMP/stall.out")"
wait_log "$TMP/tgt1.err" 'conn 0 from .*closed: no data for 2 s \(idle timeout\) \(1048582 bytes from peer|conn 0 from .*closed: no data for 2 s \(idle timeout\)' 10
grep -a 'idle timeout' "$TMP/tgt1.err"
echo "ok: idle timeout"

# 2. Handshake flood: 1000 TCP connections that send one byte and then
# nothing (a slow-loris).  The target keeps at most 64 handshakes, drops
# each after the handshake timeout, and its memory stays bounded.
start_sink sink2 "$TMP/sink2.sock" 1
# Under AddressSanitizer freed memory sits in a quarantine (256 MiB by
# default) instead of being reused, which would count every connection
# ever refused; a small quarantine measures what the proxy holds.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4
start_target tgt2 "$TMP/sink2.sock" --handshake-timeout 1
port2=$TARGET_PORT
rss0=$(rss_kib tgt2)
bg_start flood "$PEER" flood 127.0.0.1 "$port2" 1000
wait_log "$TMP/flood.out" "^open 1000\$" 30
wait_for 30 "64 handshake timeouts" \
	eval '[ "$(count_lines "$TMP/tgt2.err" "refused: handshake timeout")" -ge 64 ]'
rss1=$(rss_kib tgt2)
echo "target VmRSS: ${rss0} KiB before, ${rss1} KiB during the flood"
[ $((rss1 - rss0)) -lt 32768 ] || fail "flood grew the target by $((rss1 - rss0)) KiB"
_lib_pid_of flood
kill -KILL "$_lib_pid"
start_source src2 "$TMP/src2.sock" "$port2" --tls-dir "$TMP/pki/source"
"$PEER" send "$TMP/src2.sock" after-flood 1048576 >"$TMP/after.out" ||
	fail "transfer after the flood: $(cat "$TMP/after.out")"
echo "ok: flood bounded, service continues"

# 3. Data flood into a sink that never reads: backpressure stops the
# sender; neither proxy buffers what the sink does not take.
start_target tgt3 "$TMP/deaf.sock"
bg_start deaf "$PEER" deaf "$TMP/deaf.sock"
wait_for 10 "deaf sink" test -S "$TMP/deaf.sock"
start_source src3 "$TMP/src3.sock" "$TARGET_PORT" --tls-dir "$TMP/pki/source"
s0=$(rss_kib src3)
t0=$(rss_kib tgt3)
bg_start flooder "$PEER" send "$TMP/src3.sock" flood 1073741824
wait_log "$TMP/tgt3.err" 'conn 0 from .*forwarding' 10
# Samples for 3 s: a proxy without backpressure would swallow the
# flooder's ~100+ MB/s here.  The 3 s are wall time, not 30 samples: on a
# loaded machine 30 samples took 11 s, and a sink that never reads for
# PROXY_DEAD_PEER_TIMEOUT (10 s) has its connection ended by the source
# proxy's TCP_USER_TIMEOUT (zero-window probes count), flooder and all.
end=$((${EPOCHREALTIME/./} + 3000000))
while [ "${EPOCHREALTIME/./}" -lt "$end" ]; do
	s1=$(rss_kib src3)
	t1=$(rss_kib tgt3)
	[ $((s1 - s0)) -lt 32768 ] || fail "source proxy grew by $((s1 - s0)) KiB"
	[ $((t1 - t0)) -lt 32768 ] || fail "target proxy grew by $((t1 - t0)) KiB"
	sleep 0.1	# the sampling interval, not a wait for an event
done
_lib_pid_of flooder
kill -0 "$_lib_pid" || fail "flooder finished: backpressure did not hold it"
echo "VmRSS growth: source $((s1 - s0)) KiB, target $((t1 - t0)) KiB"
echo "ok: bounded buffers under a flood"

# 4. Kill the target proxy mid-transfer: the sender and the sink both see
# their connection end, the sink with fewer bytes than were to come.
start_sink sink4 "$TMP/sink4.sock" 1
start_target tgt4 "$TMP/sink4.sock"
start_source src4 "$TMP/src4.sock" "$TARGET_PORT" --tls-dir "$TMP/pki/source"
bg_start sender4 "$PEER" send "$TMP/src4.sock" killed 8589934592
wait_log "$TMP/tgt4.err" 'conn 0 from .*forwarding' 10
_lib_pid_of tgt4
kill -KILL "$_lib_pid"
rc=0
bg_wait sender4 20 || rc=$?
[ "$rc" -eq 3 ] || fail "sender: exit status $rc after the kill, want 3: $(cat "$TMP/sender4.out")"
grep -q 'closed' "$TMP/sender4.out" || fail "sender: $(cat "$TMP/sender4.out")"
bg_wait sink4 20 || fail "sink did not see the close"
read -r tag bytes sha status <"$TMP/sink4.d/0"
[ "$bytes" -lt 8589934592 ] || fail "sink got everything?"
wait_log "$TMP/src4.err" 'conn 0 to .*closed: (read from|write to) peer: ' 10
echo "ok: target killed: sender and sink saw the close ($bytes bytes arrived)"
