#!/usr/bin/env bash
# proxy-profile.sh: where the TLS proxy pair's CPU goes, per GiB carried.
# One connection, unix -> source side -> TLS 1.3 over TCP 127.0.0.1 ->
# target side -> unix, moved by bench/proxy-pump as in proxy-throughput.sh;
# perf samples both proxy processes (cpu-clock, kernel included) while
# they carry MIB MiB.  The samples are sorted into what any proxy that
# encrypts in user space must pay (AES-GCM and GHASH in libcrypto; the
# kernel's copies between user memory and socket buffers: four per byte,
# a read and a write on each side) and what a better proxy could shave
# (the TCP and unix socket code, system call entry, scheduling, the
# proxy's own code and libc).  The first group is the floor of the CPU a
# user-space TLS proxy spends per GiB on this machine.  Not a test: it
# prints figures and, with --write, replaces its section of
# bench/RESULTS.md.
#
# usage: bench/proxy-profile.sh [--write] [BUILD-DIR] [MIB] [ROUNDS]
# (default 2048 MiB, 3 rounds; BENCH_QUICK=1: 512 MiB, 1 round)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/proxy-bench-lib.sh"
bench_need perf linux-perf
load0=$(cut -d' ' -f1-3 /proc/loadavg)

# transfer R PROFILE: one transfer through a fresh proxy pair; appends
# "MB/s CPU-S" to $tmp/runs.PROFILE; profiled (PROFILE=yes), writes the
# categories "NAME SHARE" to $tmp/cats.R.  perf's sampling costs CPU of
# its own (an interrupt per sample, in a VM a trip to the hypervisor), so
# the CPU per GiB comes from the unprofiled transfer of the same round.
transfer() {
	local r=$1 profile=$2 src tgt sink perf= c0 c1 out cpu mbs
	rm -f "$tmp/sink.sock" "$tmp/src.sock" "$tmp/perf.data"
	"$pump" sink "$tmp/sink.sock" 1 >"$tmp/sink.cpu" &
	sink=$!
	wait_path "$tmp/sink.sock"
	"$qm" -q proxy target --listen "tls:127.0.0.1:$port" \
		--to "unix:$tmp/sink.sock" --tls-dir "$tmp/pki/target" 2>"$tmp/target.log" &
	tgt=$!
	pids+=($tgt)
	wait_port "$port"
	"$qm" -q proxy source --listen "unix:$tmp/src.sock" \
		--to "tls:127.0.0.1:$port" --tls-dir "$tmp/pki/source" 2>"$tmp/source.log" &
	src=$!
	pids+=($src)
	wait_path "$tmp/src.sock"

	if [ "$profile" = yes ]; then
		perf record -q -g -e cpu-clock -F 1000 -p "$src,$tgt" \
			-o "$tmp/perf.data" 2>"$tmp/perf.log" &
		perf=$!
		wait_path "$tmp/perf.data"
		sleep 0.5	# perf attaches after it creates its file; nothing signals it
	fi
	c0=$(ticks "$src" "$tgt")
	out=$("$pump" send "$tmp/src.sock" 1 $((mib * 1048576)))
	c1=$(ticks "$src" "$tgt")
	if [ -n "$perf" ]; then
		kill -INT "$perf"
		wait "$perf" || true
	fi
	wait "$sink"
	cpu=$(awk -v c=$((c1 - c0)) -v k="$tck" 'BEGIN { printf "%.2f", c / k }')
	mbs=$(awk -v o="$out" 'BEGIN { split(o, f, " "); printf "%.0f", f[2] / f[1] / 1e6 }')

	echo "$mbs $cpu" >>"$tmp/runs.$profile"
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait "$src" "$tgt" 2>/dev/null || true
	pids=()
	port=$((port + 1))
	[ "$profile" = yes ] || return 0

	# Every sample by its leaf and, in the kernel, its call chain (perf
	# script: a header line, then the chain leaf first, then a blank line).
	perf script -i "$tmp/perf.data" -F ip,sym,dso 2>/dev/null >"$tmp/script"
	awk '
	function classify(   c) {
		if (leafdso ~ /libcrypto/)
			return "crypto"
		if (leafdso ~ /kernel/) {
			if (leaf ~ /copy_user|copy_to_user|copy_from_user|_copy_to_iter|_copy_from_iter|^memcpy|rep_movs|copy_page_to_iter|copy_page_from_iter/)
				return "kcopy"
			if (chain ~ / __schedule | schedule /)
				return "switch"
			if (chain ~ / unix_/)
				return "unix"
			if (chain ~ / tcp_| ip_| __dev_queue_xmit | net_rx_action | __release_sock /)
				return "tcp"
			return "kernel"
		}
		if (leafdso ~ /libc/ && leaf ~ /memcpy|memmove/)
			return "ucopy"
		return "user"
	}
	function flush() {
		if (n > 0) { share[classify()]++; total++ }
		n = 0; chain = " "
	}
	/^$/ { flush(); next }
	/^[ \t]+[0-9a-f]+ / {
		sym = $2; dso = $NF
		if (n == 0) { leaf = sym; leafdso = dso }
		chain = chain sym " "
		n++
		next
	}
	{ flush() }
	END {
		flush()
		split("crypto kcopy switch tcp unix kernel ucopy user", order, " ")
		for (i = 1; i <= 8; i++)
			printf "%s %.1f\n", order[i], 100 * share[order[i]] / total
	}' "$tmp/script" >"$tmp/cats.$r"
}

port=47411
for r in $(seq "$rounds"); do
	transfer "$r" no
	transfer "$r" yes
done
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
mbs=$(awk '{ print $1 }' "$tmp/runs.no" | median)
cpu=$(awk '{ print $2 }' "$tmp/runs.no" | median)
cpu_perf=$(awk '{ print $2 }' "$tmp/runs.yes" | median)
# CPU s/GiB of the unprofiled transfer of round R.
round_gib() { awk -v r="$1" -v m="$mib" 'NR == r { printf "%.4f", $2 * 1024 / m }' "$tmp/runs.no"; }
# Every category: the median share, and the median of share x the CPU
# per GiB of its round.
for c in crypto kcopy switch tcp unix kernel ucopy user; do
	sh=$(awk -v c="$c" '$1 == c { print $2 }' "$tmp"/cats.* | median)
	g=$(for r in $(seq "$rounds"); do
		awk -v c="$c" -v g="$(round_gib "$r")" '$1 == c { printf "%.2f\n", $2 * g / 100 }' "$tmp/cats.$r"
	done | median)
	echo "$c $sh $g"
done >"$tmp/cats"
floors=$(for r in $(seq "$rounds"); do
	awk -v g="$(round_gib "$r")" '$1 ~ /^(crypto|kcopy|tcp|unix)$/ { s += $2 }
		END { printf "%.2f\n", s * g / 100 }' "$tmp/cats.$r"
done)
floor_share=$(for r in $(seq "$rounds"); do
	awk '$1 ~ /^(crypto|kcopy|tcp|unix)$/ { s += $2 } END { printf "%.0f\n", s }' "$tmp/cats.$r"
done | median)
cat_share() { awk -v c="$1" '$1 == c { print $2 }' "$tmp/cats"; }
cat_gib() { awk -v c="$1" '$1 == c { print $3 }' "$tmp/cats"; }
per_gib=$(awk -v c="$cpu" -v m="$mib" 'BEGIN { printf "%.2f", c * 1024 / m }')
floor=$(printf '%s\n' $floors | median)
aes=$(openssl speed -seconds 3 -evp aes-128-gcm 2>/dev/null |
	awk '/^AES-128-GCM/ { v = $(NF-1); sub(/k$/, "", v); printf "%.0f\n", v * 1000 / 1e6 }')
aes_gib=$(awk -v a="$aes" 'BEGIN { printf "%.2f", 2 * 1073.741824 / a }')
model=$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)
row() {
	printf '| %s | %s%% | %s |\n' "$2" "$(cat_share "$1")" "$(cat_gib "$1")"
}

report=$(cat <<REPORT
## Where the TLS proxy's CPU goes

bench/proxy-profile.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo '?').

Machine: $model, $(nproc) cores; load average $load0 at the start,
$(cut -d' ' -f1-3 /proc/loadavg) at the end.  One connection, $mib MiB,
$rounds rounds of two transfers each, through a fresh proxy pair every
time: one plain ($mbs MB/s; both proxy processes $cpu CPU s, $per_gib per
GiB, medians), one under perf record -g -e cpu-clock (1000 Hz, kernel
and user, both processes; $cpu_perf CPU s with perf's own cost).  Every
sample is sorted by its leaf and its kernel call chain; CPU s/GiB is a
category's share times the plain transfer's CPU per GiB in the same
round (medians over the rounds):

| where | share of samples | CPU s/GiB |
|------|------:|------:|
$(row crypto "AES-GCM and GHASH (libcrypto)")
$(row kcopy "kernel copies between user memory and sockets")
$(row tcp "TCP/IP over loopback (send, receive in softirq, ACKs)")
$(row unix "unix sockets")
$(row switch "context switches (a sleep, a wake-up, a preemption)")
$(row kernel "the rest of the kernel (system call entry, epoll, memory)")
$(row ucopy "libc memcpy in the proxy")
$(row user "the proxy's own code, libev, the rest of libc")

The first four rows are what any proxy that encrypts in user space pays
here for every byte it carries from a unix socket to a TCP connection
and back: sealed once and opened once, copied four times between user
memory and a socket (a read and a write on each side; no kernel TLS on
this kernel, and TCP zero-copy does not apply on loopback), and the
kernel's TCP/IP and unix socket processing of the stream.  Together
$floor_share% of the samples, $floor CPU s/GiB (median; per round: $(echo $floors | sed 's/ /, /g')): the floor on
this machine.  Issue 17's goal of 1.0 CPU s/GiB leaves
$(awk -v f="$floor" 'BEGIN { d = 1.0 - f; printf "%.2f", d < 0 ? 0 : d }') for the last four rows, what a better proxy could still shave;
they take $(awk -v p="$per_gib" -v f="$floor" 'BEGIN { printf "%.2f", p - f }') today.
openssl speed -evp aes-128-gcm gives $aes MB/s on one core, $aes_gib CPU
s/GiB for the two passes in its hot cache; the proxy's records (16 KiB
and a content-type byte, the data fresh from a socket) cost more.
Context switches are partly this machine's: four busy processes (two
pumps, two proxies) share 2 cores, where two hosts would give each
proxy its own.
REPORT
)
echo "$report"
if [ $write = 1 ]; then
	. "$top/bench/bench-lib.sh"
	printf '%s\n' "$report" >"$tmp/report.md"
	bench_section proxy-profile "$tmp/report.md"
fi
