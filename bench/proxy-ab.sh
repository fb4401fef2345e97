#!/usr/bin/env bash
# proxy-ab.sh: the TLS proxy of two builds side by side (a change's before
# and after), interleaved round by round on one connection, the raw path
# beside them to show the pump is not the limit.  Not a test: it prints
# each build's MB/s and CPU seconds per GiB (both proxies), and the
# per-round ratio new/old, whose median is the figure to quote.
#
# usage: bench/proxy-ab.sh OLD-BUILD [NEW-BUILD] [MIB] [ROUNDS]
# Builds without sanitizers (make qmigrate bench/proxy-pump); NEW-BUILD
# defaults to ./build; MIB per case (1024), ROUNDS (15).
set -euo pipefail
if [ $# -lt 1 ]; then
	echo "usage: $0 OLD-BUILD [NEW-BUILD] [MIB] [ROUNDS]" >&2
	exit 2
fi
qm_old=$(cd "$1" && pwd)/qmigrate
shift
if [ ! -x "$qm_old" ]; then
	echo "proxy-ab.sh: no $qm_old: build it first" >&2
	exit 1
fi
PROXY_BENCH_CASES_ONLY=1
# shellcheck source=bench/proxy-throughput.sh
. "$(dirname "$0")/proxy-throughput.sh" "${1:-}" "${2:-1024}" "${3:-15}"
qm_new=$qm
for r in $(seq "$rounds"); do
	qm=$qm_old; one_case qmigrate 1 "$tmp/old"
	qm=$qm_new; one_case qmigrate 1 "$tmp/new"
	one_case raw 1 "$tmp/raw"
done
echo "proxy-ab.sh: $(date -u '+%F %H:%M') UTC, $mib MiB x $rounds rounds," \
	"one connection, TLS"
echo "old: $qm_old"
echo "new: $qm_new"
paste -d' ' "$tmp/old" "$tmp/new" "$tmp/raw" | awk '
	function med(a, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{ n++; om[n] = $1; oc[n] = $2; nm[n] = $5; nc[n] = $6; rw[n] = $9
	  rm[n] = $5 / $1; rc[n] = $6 / $2 }
	END {
		printf "raw path MB/s median %.0f\n", med(rw, n)
		printf "old MB/s median %.0f, CPU s/GiB %.2f\n", med(om, n), med(oc, n)
		printf "new MB/s median %.0f, CPU s/GiB %.2f\n", med(nm, n), med(nc, n)
		printf "per round new/old: MB/s %.3f, CPU s/GiB %.3f (medians)\n",
		    med(rm, n), med(rc, n)
	}'
