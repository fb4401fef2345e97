#!/usr/bin/env bash
# proxy-migration.sh: how much longer a real migration of the memory guest
# takes through the TLS proxy than over a plain unix socket (goal: at most
# 1.15x).  Not a test.  Uses tests/lib.sh; an idle guest, then one that
# dirties RATE MB/s of MIB MiB; max-bandwidth is lifted so that the
# transport is the limit.
#
# usage: bench/proxy-migration.sh [--write] [BUILD-DIR] [MIB] [RATE] [RUNS]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
write=0
if [ "${1:-}" = --write ]; then write=1; shift; fi
top_builddir=$(cd "${1:-$top/build}" && pwd)
mib=${2:-256}
rate=${3:-20}
runs=${4:-3}
top_srcdir=$top
QMIGRATE=$top_builddir/qmigrate
export top_srcdir top_builddir QMIGRATE
if ldd "$QMIGRATE" | grep -q 'libasan\|libubsan\|libtsan'; then
	echo "proxy-migration.sh: $QMIGRATE is a sanitizer build; configure one without --enable-sanitizers (-O2)" >&2
	exit 1
fi
. "$top/tests/lib.sh"
. "$top/tests/integration/proxy-lib.sh"
setup_tmp
make_pki

mig_status() {
	"$QMIGRATE" qmp --qmp "$TMP/$1.qmp" query-migrate |
		sed -n 's/^ *"status": "\([a-z-]*\)".*/\1/p' | head -n 1
}
mig_done() {
	case $(mig_status "$1") in
	completed) return 0 ;;
	failed | cancelled) fail "migration of $1 failed" ;;
	esac
	return 1
}

# one_run N MODE: migrates a fresh guest (MODE unix or proxy), prints the
# total-time in ms.
one_run() {
	local n=$1 mode=$2 s=src$rate-$1$2 d=dst$rate-$1$2 uri port
	start_memguest "$s" "$mib" "$rate"
	start_memguest_incoming "$d" "$mib"
	for g in "$s" "$d"; do
		qmp "$g" migrate-set-capabilities \
			'{"capabilities":[{"capability":"multifd","state":true}]}' >/dev/null
		qmp "$g" migrate-set-parameters '{"multifd-channels":4}' >/dev/null
	done
	qmp "$s" migrate-set-parameters '{"max-bandwidth":10737418240}' >/dev/null
	qmp "$d" migrate-incoming '{"uri":"unix:'"$TMP/$d"'.in"}' >/dev/null
	wait_for 10 "incoming socket" test -S "$TMP/$d.in"
	uri=$TMP/$d.in
	if [ "$mode" = proxy ]; then
		start_target "t$s" "$TMP/$d.in" >&2
		port=$TARGET_PORT
		start_source "p$s" "$TMP/$s.out" "$port" --tls-dir "$TMP/pki/source" >&2
		uri=$TMP/$s.out
	fi
	qmp "$s" migrate '{"uri":"unix:'"$uri"'"}' >/dev/null
	wait_for 300 "migration" mig_done "$s"
	qmp "$s" query-migrate | sed -n 's/^ *"total-time": \([0-9]*\).*/\1/p' | head -n 1
	kill_guest "$s"
	kill_guest "$d"
	# one_run runs in $(...): the EXIT trap does not know these two.
	if [ "$mode" = proxy ]; then
		for g in "t$s" "p$s"; do
			_lib_pid_of "$g"
			kill "$_lib_pid" 2>/dev/null || true
		done
	fi
}

med() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# The idle guest (rate 0: only its boot-time pages) and the busy one, each
# over a plain unix socket and through the proxy, interleaved run by run.
busy=$rate
lines=()
for rate in 0 "$busy"; do
	tu=() tp=()
	for i in $(seq "$runs"); do
		tu+=("$(one_run "$i" unix)")
		tp+=("$(one_run "$i" proxy)")
	done
	mu=$(med "${tu[@]}")
	mp=$(med "${tp[@]}")
	ratio=$(awk -v a="$mp" -v b="$mu" 'BEGIN { printf "%.2f", a / b }')
	lines+=("| $([ "$rate" = 0 ] && echo idle || echo "busy, $rate MB/s") | ${tu[*]} | $mu | ${tp[*]} | $mp | ${ratio}x |")
done
report=$(cat <<REPORT
## Migration time through the proxy

bench/proxy-migration.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo '?').

memguest $mib MiB, multifd 4 channels, max-bandwidth 10 GiB/s (the
transport is the limit), $runs runs each, total-time of query-migrate in
ms; goal of issue 4: through the proxy <= 1.15x the plain socket.
Machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end.

| guest | plain unix socket, ms | median | through the TLS proxy, ms | median | proxy / plain |
|---|---|---:|---|---:|---:|
$(printf '%s\n' "${lines[@]}")
REPORT
)
echo "$report"
if [ $write = 1 ]; then
	. "$top/bench/bench-lib.sh"
	printf '%s\n' "$report" >"$TMP/report.md"
	bench_section proxy-migration "$TMP/report.md"
fi
