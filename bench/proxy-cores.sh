#!/usr/bin/env bash
# proxy-cores.sh: the TLS proxy against the cipher's own speed and over the
# cores (issue 32), side by side in one run, interleaved round by round:
# raw unix, the proxy in plaintext (tcp:, what forwarding costs without
# the cryptography), the TLS proxy on 1 worker and on N (the default, one
# per CPU), stunnel4; one connection and 8; and `openssl speed` on one
# core (AES-256-GCM and AES-128-GCM, 16 KiB blocks) before and after the
# rounds.  Not a test: it prints figures and, with --write, replaces its
# section of bench/RESULTS.md.
#
# usage: bench/proxy-cores.sh [--write] [BUILD-DIR] [MIB] [ROUNDS]
# (a build without sanitizers, default ./build; 2048 MiB per case, 3
# rounds; BENCH_QUICK=1: 512 MiB, 1 round).  The layout of every case is
# proxy-throughput.sh's: pump -> unix -> source side -> TCP 127.0.0.1 ->
# target side -> unix -> pump, all on this machine, so the pumps and both
# proxies share its cores.
#
# PROXY_BEFORE=OLD-QMIGRATE adds a row: the same TLS cases through an
# older build (one that has no --workers), in the same rounds.
#
# QEMU's native TLS carries no byte stream of ours: its figures come from
# a migration, in bench/proxy-migration.sh's section.
set -euo pipefail
PROXY_BENCH_CASES_ONLY=1
# shellcheck source=bench/proxy-throughput.sh
. "$(dirname "$0")/proxy-throughput.sh" "$@"
bench_need taskset util-linux
# A port of our own: another benchmark on this machine may hold 47311+.
port=$((40000 + RANDOM % 5000))
nworkers=$cores

# speed CIPHER: openssl speed's 16 KiB figure on CPU 0, MB/s (10^6).
speed() {
	taskset -c 0 openssl speed -seconds 3 -evp "$1" 2>/dev/null |
		awk -v c="$(echo "$1" | tr a-z A-Z)" '$1 == c {
			v = $NF; sub(/k$/, "", v); printf "%.0f\n", v * 1000 / 1e6 }'
}
speed aes-256-gcm >>"$tmp/aes256"
speed aes-128-gcm >>"$tmp/aes128"
for r in $(seq "$rounds"); do
	for n in 1 8; do
		one_case raw "$n"
		one_case plain "$n"
		qm_workers=1 one_case qmigrate "$n" "$tmp/w1.$n"
		qm_workers=$nworkers one_case qmigrate "$n" "$tmp/wN.$n"
		if [ -n "${PROXY_BEFORE:-}" ]; then
			qm_new=$qm qm=$PROXY_BEFORE
			one_case qmigrate "$n" "$tmp/before.$n"
			qm=$qm_new
		fi
		one_case stunnel "$n"
	done
done
speed aes-256-gcm >>"$tmp/aes256"
speed aes-128-gcm >>"$tmp/aes128"
st_cipher=$(sed -n 's/.*TLSv1.3 ciphersuite: \([A-Z0-9_]*\).*/\1/p' \
	"$tmp/st-target.log" | head -n 1)

# col FILE FIELD: one column of $tmp/FILE, in run order.
col() { awk -v f="$2" '{ printf "%s%s", (NR > 1 ? " " : ""), $f }' "$tmp/$1"; }
median() { printf '%s\n' $1 | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
spread() { printf '%s\n' $1 | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 }
	END { if (lo == hi) print lo; else print lo "-" hi }'; }
gib() { awk -v m="$mib" '{ printf "%.2f\n", $2 * 1024 / m }' "$tmp/$1"; }
mbs() { median "$(col "$1" 1)"; }
cpu() { median "$(gib "$1")"; }
row() {
	local f=$1 label=$2 c1 c8
	if [ "$f" = raw ]; then c1=- c8=-
	else c1="$(cpu "$f.1") ($(spread "$(gib "$f.1")"))"
		c8="$(cpu "$f.8") ($(spread "$(gib "$f.8")"))"
	fi
	printf '| %s | %s (%s) | %s (%s) | %s | %s | %s |\n' "$label" \
		"$(mbs "$f.1")" "$(spread "$(col "$f.1" 1)")" \
		"$(mbs "$f.8")" "$(spread "$(col "$f.8" 1)")" "$c1" "$c8" \
		"$(spread "$(col "$f.1" 3) $(col "$f.8" 3)")"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f%%", 100 * a / b }'; }
verdict() { awk -v a="$1" -v b="$2" 'BEGIN { print (a >= b ? "met" : "NOT met") }'; }
a256=$(median "$(cat "$tmp/aes256")") a128=$(median "$(cat "$tmp/aes128")")
model=$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)
q1=$(mbs wN.1) q1w1=$(mbs w1.1) q8=$(mbs wN.8) q8w1=$(mbs w1.8)
qcpu=$(cpu wN.1) pcpu=$(cpu plain.1)
# AES-GCM once each way (sealed, then opened) at openssl speed's rate.
cipher_gib() { awk -v a="$1" 'BEGIN { printf "%.2f", 2 * 1073.741824 / a }'; }
c128=$(cipher_gib "$a128") c256=$(cipher_gib "$a256")
floor=$(awk -v p="$pcpu" -v c="$c128" 'BEGIN { printf "%.2f", p + c }')

report=$(cat <<REPORT
## TLS proxy against the cipher, and over the cores

bench/proxy-cores.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), commit "$(git -C "$top" log -1 --format=%s 2>/dev/null || echo '?')" (a subject survives rebases).

Machine: $model, $cores cores, no accelerator; load average $load0 at
the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end.  $mib MiB per
case, $rounds rounds, every path in every round; MB/s = 10^6 bytes/s,
median (min-max).  The layout of proxy-throughput.sh (pump -> unix ->
source side -> TCP 127.0.0.1 -> target side -> unix -> pump, all on
this machine).  qmigrate negotiates TLS_AES_128_GCM_SHA256; stunnel4
${st_cipher:-(cipher not logged)}.  N workers = $nworkers (one per CPU,
the default).

| path | 1 connection MB/s | 8 connections MB/s | CPU s/GiB, both proxies, 1 conn | 8 conns | CPU share other processes took |
|------|------:|------:|------:|------:|------:|
$(row raw "raw unix (no proxy)")
$(row plain "qmigrate, plaintext (tcp:), N workers")
$(row w1 "qmigrate TLS, 1 worker")
$(row wN "qmigrate TLS, N workers")
$( [ -z "${PROXY_BEFORE:-}" ] || row before "qmigrate TLS before issue 32 (one loop)")
$(row stunnel "stunnel4")

openssl speed -evp, 16 KiB blocks, CPU 0 (before; after):
AES-256-GCM $(tr '\n' ' ' <"$tmp/aes256")MB/s, AES-128-GCM $(tr '\n' ' ' <"$tmp/aes128")MB/s.

Goals (issue 32), from this run:
- one connection at least 70% of one core's AES-256-GCM: $q1 of $a256
  MB/s, $(pct "$q1" "$a256"), $(verdict "$(ratio "$q1" "$a256")" 0.70)
  (of AES-128-GCM, the suite it runs: $(pct "$q1" "$a128")).
- at most 0.5 CPU s/GiB for both proxies: $qcpu, $(verdict 0.5 "$qcpu").
  The floor of this layout: forwarding alone (the same proxy in
  plaintext, every copy and system call the TLS path makes) $pcpu, plus
  AES-128-GCM once each way at openssl speed's rate $c128 (AES-256:
  $c256): $floor CPU s/GiB before any TLS bookkeeping.
- N workers against 1: one connection $(ratio "$q1" "$q1w1")x, 8
  connections $(ratio "$q8" "$q8w1")x; 8 connections over one
  $(ratio "$q8" "$q1")x.  Against stunnel4, one connection
  $(ratio "$q1" "$(mbs stunnel.1)")x, CPU per GiB $(ratio "$(cpu stunnel.1)" "$qcpu")x less.
$( [ -z "${PROXY_BEFORE:-}" ] || echo "- Against the build before issue 32 (PROXY_BEFORE), N workers: one connection
  $(ratio "$q1" "$(mbs before.1)")x MB/s, $(ratio "$qcpu" "$(cpu before.1)")x CPU per GiB; 8 connections
  $(ratio "$q8" "$(mbs before.8)")x MB/s, $(ratio "$(cpu wN.8)" "$(cpu before.8)")x CPU per GiB.")
REPORT
)
echo "$report"
if [ "$write" = 1 ]; then
	. "$top/bench/bench-lib.sh"
	printf '%s\n' "$report" >"$tmp/report.md"
	bench_section proxy-cores "$tmp/report.md"
fi
