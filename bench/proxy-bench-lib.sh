# bench/proxy-bench-lib.sh: what the proxy benchmarks (proxy-throughput.sh,
# proxy-profile.sh) share; sourced after `set -euo pipefail`, with $top
# the source tree.  Sets write, build, mib, rounds from the arguments
# [--write] [BUILD-DIR] [MIB] [ROUNDS] (default 2048 MiB, 3 rounds;
# BENCH_QUICK=1: 512 MiB, 1 round), qm and pump; checks the build is a
# plain one; makes $tmp with certificates in $tmp/pki (source, target);
# kills the processes in pids and removes $tmp on exit.
bench_name=$(basename "$0")
write=0
if [ "${1:-}" = --write ]; then write=1; shift; fi
build=$(cd "${1:-$top/build}" && pwd)
if [ -n "${BENCH_QUICK:-}" ]; then mib=${2:-512} rounds=${3:-1}
else mib=${2:-2048} rounds=${3:-3}; fi
qm=$build/qmigrate
pump=$build/bench/proxy-pump
[ -x "$qm" ] && [ -x "$pump" ] || {
	echo "$bench_name: build $build first (make qmigrate bench/proxy-pump)" >&2
	exit 1
}
# A sanitizer build measures ASan, not the proxy.
if ldd "$qm" | grep -q 'libasan\|libubsan\|libtsan'; then
	echo "$bench_name: $qm is a sanitizer build; configure one without --enable-sanitizers (-O2)" >&2
	exit 1
fi
# bench_need CMD PACKAGE: exits naming PACKAGE when CMD is missing.
bench_need() {
	command -v "$1" >/dev/null || {
		echo "$bench_name: $1 not found (apt-get install $2)" >&2
		exit 1
	}
}
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
"$top/contrib/make-certs.sh" "$tmp/pki" source target >/dev/null
tck=$(getconf CLK_TCK)

# Bounded polling: the proxies and stunnel announce nothing we can wait on.
wait_path() {
	local i
	for i in $(seq 200); do
		[ -e "$1" ] && return 0
		sleep 0.05
	done
	echo "$bench_name: $1 did not appear" >&2
	exit 1
}
wait_port() {
	local i
	for i in $(seq 200); do
		(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
		sleep 0.05
	done
	echo "$bench_name: port $1 did not open" >&2
	exit 1
}
stop_all() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	pids=()
}

# ticks PID...: user+system clock ticks the processes have used so far.
ticks() {
	local p t=0
	for p in "$@"; do
		t=$((t + $(awk '{ print $14 + $15 }' "/proc/$p/stat")))
	done
	echo "$t"
}
