#!/usr/bin/env bash
# proxy-calls.sh: what one TLS connection and eight cost the proxy pair
# per GiB in system calls, wake-ups and CPU, counted by the kernel
# (perf stat: task-clock, context switches, syscall tracepoints) on both
# proxy processes, the same transfer as proxy-throughput.sh (1 MiB blocks
# by bench/proxy-pump, MIB MiB in all, split over the connections).  The
# instrument behind the "8 connections" paragraph of bench/RESULTS.md:
# it tells a cost per call (more calls per GiB) from a cost per byte
# (as many calls, more CPU).  Not a test.
#
# usage: bench/proxy-calls.sh [--write] [BUILD-DIR] [MIB] [ROUNDS]
# (default 2048 MiB, 3 rounds; BENCH_QUICK=1: 512 MiB, 1 round)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/proxy-bench-lib.sh"
bench_need perf linux-perf
load0=$(cut -d' ' -f1-3 /proc/loadavg)
events=task-clock,context-switches
calls="readv sendmsg epoll_wait read write"
for c in $calls; do events="$events,syscalls:sys_enter_$c"; done

# transfer N: one transfer over N connections through a fresh proxy pair;
# appends "MB/s CPU-MS SWITCHES CALL..." per GiB to $tmp/runs.N.
port=47711
transfer() {
	local n=$1 tgt src perf out
	rm -f "$tmp/sink.sock" "$tmp/src.sock"
	"$pump" sink "$tmp/sink.sock" "$n" >"$tmp/sink.cpu" &
	pids+=($!)
	wait_path "$tmp/sink.sock"
	"$qm" -q proxy target --listen "tls:127.0.0.1:$port" \
		--to "unix:$tmp/sink.sock" --tls-dir "$tmp/pki/target" 2>/dev/null &
	tgt=$!
	pids+=($tgt)
	wait_port "$port"
	"$qm" -q proxy source --listen "unix:$tmp/src.sock" \
		--to "tls:127.0.0.1:$port" --tls-dir "$tmp/pki/source" 2>/dev/null &
	src=$!
	pids+=($src)
	wait_path "$tmp/src.sock"
	perf stat -x, -e "$events" -p "$tgt,$src" -o "$tmp/stat" &
	perf=$!
	# perf stat announces nothing when it is attached: bounded polling
	# on its output file, which it opens first.
	wait_path "$tmp/stat"
	out=$("$pump" send "$tmp/src.sock" "$n" $((mib * 1048576 / n))) || {
		echo "proxy-calls.sh: transfer over $n connections failed" >&2
		exit 1
	}
	kill -INT "$perf"
	wait "$perf" || true
	awk -F, -v m="$mib" -v o="$out" -v calls="$calls" '
		$1 ~ /^[0-9.]+$/ { v[$3] = $1 * 1024 / m }
		END {
			split(o, f, " ")
			printf "%.0f %.0f %.0f", f[2] / f[1] / 1e6,
			    v["task-clock"], v["context-switches"]
			k = split(calls, c, " ")
			for (i = 1; i <= k; i++)
				printf " %.0f", v["syscalls:sys_enter_" c[i]]
			printf "\n"
		}' "$tmp/stat" >>"$tmp/runs.$n"
	rm -f "$tmp/stat"
	stop_all
	port=$((port + 1))
}

for r in $(seq "$rounds"); do
	transfer 1
	transfer 8
done
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# med N FIELD: the median of one column over the rounds.
med() { awk -v f="$2" '{ print $f }' "$tmp/runs.$1" | median; }
row() {
	printf '| %s | %s | %s | %s |\n' "$1" "$(med 1 "$2")" "$(med 8 "$2")" \
		"$(awk -v a="$(med 1 "$2")" -v b="$(med 8 "$2")" \
		'BEGIN { if (a > 0) printf "%.2fx", b / a; else print "-" }')"
}
model=$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)

report=$(cat <<REPORT
## System calls and CPU per GiB: one connection and eight

bench/proxy-calls.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo '?').

Machine: $model, $(nproc) cores; load average $load0 at the start,
$(cut -d' ' -f1-3 /proc/loadavg) at the end.  $mib MiB per transfer
(split over the connections), $rounds rounds, one and eight connections
interleaved, a fresh TLS proxy pair each time; perf stat on both proxy
processes; medians per GiB carried.

| per GiB, both proxies | 1 connection | 8 connections | 8 / 1 |
|------|------:|------:|------:|
$(row "MB/s (not per GiB)" 1)
$(row "CPU ms" 2)
$(row "context switches" 3)
$(row "readv" 4)
$(row "sendmsg" 5)
$(row "epoll_wait" 6)
$(row "read (OpenSSL: setup, control)" 7)
$(row "write (OpenSSL: setup, control)" 8)
REPORT
)
echo "$report"
if [ $write = 1 ]; then
	. "$top/bench/bench-lib.sh"
	printf '%s\n' "$report" >"$tmp/report.md"
	bench_section proxy-calls "$tmp/report.md"
fi
