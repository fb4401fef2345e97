#!/usr/bin/env bash
# proxy-throughput.sh: throughput of the TLS migration proxy beside the
# same path without a proxy (raw) and through stunnel4, for 1 and 8
# connections, plus the single-core AES-128-GCM limit (openssl speed).
# Not a test: it prints figures and, with --write, replaces its section of
# bench/RESULTS.md.
#
# usage: bench/proxy-throughput.sh [--write] [BUILD-DIR] [MIB-PER-CASE]
# BUILD-DIR: a build without sanitizers (default ./build); MIB: 1024.
#
# Layout of every case (all on this machine):
#   proxy-peer multi -> unix -> [source side] -> TCP 127.0.0.1 ->
#   [target side] -> unix -> proxy-peer sink
# raw: the sender writes straight into the sink's unix socket.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
write=0
if [ "${1:-}" = --write ]; then write=1; shift; fi
build=$(cd "${1:-$top/build}" && pwd)
mib=${2:-1024}
qm=$build/qmigrate
peer=$build/tests/proxy-peer
[ -x "$qm" ] && [ -x "$peer" ] || {
	echo "proxy-throughput.sh: build $build first (make qmigrate tests/proxy-peer)" >&2
	exit 1
}
# A sanitizer build measures ASan, not the proxy.
if ldd "$qm" | grep -q 'libasan\|libubsan\|libtsan'; then
	echo "proxy-throughput.sh: $qm is a sanitizer build; configure one without --enable-sanitizers (-O2)" >&2
	exit 1
fi
command -v stunnel4 >/dev/null || {
	echo "proxy-throughput.sh: stunnel4 not found (apt-get install stunnel4)" >&2
	exit 1
}
export PROXY_PEER_NOHASH=1
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
"$top/contrib/make-certs.sh" "$tmp/pki" source target >/dev/null

wait_sock() {
	local i
	for i in $(seq 100); do
		[ -S "$1" ] && return 0
		sleep 0.05
	done
	echo "proxy-throughput.sh: $1 did not appear" >&2
	exit 1
}
wait_port() {
	local i
	for i in $(seq 100); do
		(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
		sleep 0.05
	done
	echo "proxy-throughput.sh: port $1 did not open" >&2
	exit 1
}
stop_all() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	pids=()
}

# cpu_s PID...: user+system CPU seconds the processes have used so far.
cpu_s() {
	local p t=0 tck
	tck=$(getconf CLK_TCK)
	for p in "$@"; do
		t=$((t + $(awk '{ print $14 + $15 }' "/proc/$p/stat")))
	done
	awk -v t="$t" -v k="$tck" 'BEGIN { printf "%.2f", t / k }'
}

# run_case CONNS SOCKET: sends MIB MiB over CONNS connections into SOCKET
# (a sink already listening at $tmp/sink.sock behind it); prints MB/s.
run_case() {
	local n=$1 sock=$2 per t0 t1
	per=$((mib * 1048576 / n))
	t0=$(date +%s.%N)
	"$peer" multi "$sock" "$n" "$per" >"$tmp/multi.out" || {
		echo "transfer failed: $(cat "$tmp/multi.out")" >&2
		exit 1
	}
	t1=$(date +%s.%N)
	awk -v b=$((per * n)) -v t0="$t0" -v t1="$t1" \
		'BEGIN { printf "%.0f\n", b / (t1 - t0) / 1e6 }'
}

start_sink() {
	rm -f "$tmp/sink.sock"
	mkdir -p "$tmp/out"
	"$peer" sink "$tmp/sink.sock" "$tmp/out" "$1" &
	pids+=($!)
	wait_sock "$tmp/sink.sock"
}

declare -A res cpu
port=47311
for n in 1 8; do
	# raw
	start_sink "$n"
	res[raw,$n]=$(run_case "$n" "$tmp/sink.sock")
	cpu[raw,$n]=0
	stop_all

	# qmigrate proxy
	start_sink "$n"
	"$qm" -q proxy target --listen "tls:127.0.0.1:$port" \
		--to "unix:$tmp/sink.sock" --tls-dir "$tmp/pki/target" &
	pids+=($!)
	wait_port "$port"
	rm -f "$tmp/src.sock"
	"$qm" -q proxy source --listen "unix:$tmp/src.sock" \
		--to "tls:127.0.0.1:$port" --tls-dir "$tmp/pki/source" &
	pids+=($!)
	wait_sock "$tmp/src.sock"
	res[qmigrate,$n]=$(run_case "$n" "$tmp/src.sock")
	cpu[qmigrate,$n]=$(cpu_s "${pids[@]:1}")
	stop_all
	port=$((port + 1))

	# stunnel4, same two hops, same certificates, TLS 1.3
	start_sink "$n"
	rm -f "$tmp/st-src.sock"
	cat >"$tmp/st-target.conf" <<CONF
foreground = yes
pid =
debug = 0
[target]
accept = 127.0.0.1:$port
connect = $tmp/sink.sock
cert = $tmp/pki/target/cert.pem
key = $tmp/pki/target/key.pem
CAfile = $tmp/pki/target/ca.pem
verifyChain = yes
sslVersionMin = TLSv1.3
CONF
	cat >"$tmp/st-source.conf" <<CONF
foreground = yes
pid =
debug = 0
[source]
client = yes
accept = $tmp/st-src.sock
connect = 127.0.0.1:$port
cert = $tmp/pki/source/cert.pem
key = $tmp/pki/source/key.pem
CAfile = $tmp/pki/source/ca.pem
verifyChain = yes
checkIP = 127.0.0.1
sslVersionMin = TLSv1.3
CONF
	stunnel4 "$tmp/st-target.conf" 2>"$tmp/st-target.log" &
	pids+=($!)
	wait_port "$port"
	stunnel4 "$tmp/st-source.conf" 2>"$tmp/st-source.log" &
	pids+=($!)
	wait_sock "$tmp/st-src.sock"
	res[stunnel,$n]=$(run_case "$n" "$tmp/st-src.sock")
	cpu[stunnel,$n]=$(cpu_s "${pids[@]:1}")
	stop_all
	port=$((port + 1))
done

aes=$(openssl speed -seconds 3 -evp aes-128-gcm 2>/dev/null |
	awk '/^AES-128-GCM/ { v = $(NF-1); sub(/k$/, "", v); printf "%.0f\n", v * 1000 / 1e6 }')
model=$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)
cores=$(nproc)
load=$(cut -d' ' -f1-3 /proc/loadavg)
ratio=$(awk -v a="${res[qmigrate,1]}" -v b="${res[stunnel,1]}" 'BEGIN { printf "%.2f", a / b }')
cratio=$(awk -v a="${cpu[qmigrate,1]}" -v b="${cpu[stunnel,1]}" 'BEGIN { printf "%.2f", b / a }')
share=$(awk -v a="${res[qmigrate,1]}" -v b="$aes" 'BEGIN { printf "%.0f", 100 * a / b }')
goal=$(awk -v b="${res[stunnel,1]}" 'BEGIN { printf "%.0f", 3 * b }')
goal_aes=$(awk -v b="$aes" 'BEGIN { printf "%.0f", 0.6 * b }')
per_gib() { awk -v c="$1" -v m="$mib" 'BEGIN { printf "%.2f", c * 1024 / m }'; }

report=$(cat <<REPORT
## TLS proxy throughput

bench/proxy-throughput.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo '?').

Machine: $model, $cores cores (load average $load at the end: shared).
$mib MiB per case, MB/s = 10^6 bytes/s, payload from bench's peer
(no hashing).  Each hop on this machine: unix -> source side -> TCP
127.0.0.1 -> target side -> unix.

| path | 1 connection MB/s | 8 connections MB/s | CPU s (both sides), 1 conn | CPU s, 8 conns |
|------|------:|------:|------:|------:|
| raw (no proxy) | ${res[raw,1]} | ${res[raw,8]} | - | - |
| qmigrate proxy (TLS 1.3, AES-128-GCM) | ${res[qmigrate,1]} | ${res[qmigrate,8]} | ${cpu[qmigrate,1]} | ${cpu[qmigrate,8]} |
| stunnel4 (TLS 1.3) | ${res[stunnel,1]} | ${res[stunnel,8]} | ${cpu[stunnel,1]} | ${cpu[stunnel,8]} |

CPU s: user+system seconds both proxy processes spent moving the $mib MiB
(a shared machine distorts MB/s; CPU per byte much less).

openssl speed -evp aes-128-gcm (16 KiB blocks, one core): $aes MB/s.
qmigrate / stunnel on one connection: ${ratio}x in MB/s, ${cratio}x in
CPU per byte; qmigrate one
connection is ${share}% of the single-core AES-GCM limit (each byte is
encrypted once and decrypted once, by two processes).
CPU seconds per GiB carried (both sides): qmigrate $(per_gib "${cpu[qmigrate,1]}")
(1 connection), $(per_gib "${cpu[qmigrate,8]}") (8); stunnel4 $(per_gib "${cpu[stunnel,1]}"),
$(per_gib "${cpu[stunnel,8]}").

The ceiling: issue 4 asks one connection for 3x stunnel (${goal} MB/s here)
and 60% of AES-GCM (${goal_aes} MB/s).  The same sender and sink joined by
one unix socket, no proxy and no TLS at all, moved ${res[raw,1]} MB/s in
the same run: $(awk -v r="${res[raw,1]}" -v g="$goal" -v a="$goal_aes" 'BEGIN {
	if (r < g && r < a) print "both goals are above what these endpoints reach with no proxy in between, so no proxy can meet them on this machine"
	else if (r < g) print "3x stunnel is above what these endpoints reach with no proxy in between"
	else print "the raw path leaves room above the goals"
}').
REPORT
)
echo "$report"
if [ $write = 1 ]; then
	. "$top/bench/bench-lib.sh"
	printf '%s\n' "$report" >"$tmp/report.md"
	bench_section proxy-throughput "$tmp/report.md"
fi
