#!/usr/bin/env bash
# tests/demo.sh BUILDDIR: the live demo of README.md.  Two hosts (network
# namespaces joined by a veth pair), a QEMU on each, a busy guest that
# dirties memory faster than the migration's bandwidth cap, moved through
# qmigrate's TLS proxy while its progress and decisions scroll by.  The
# guest checks every page it wrote: a migration that lost a byte says
# CORRUPT, and the demo ends with the guest's full sweep over every page
# (tests/lib.sh assert_memory_intact, as in the tests).  Everything is
# cleaned up on exit, save the picture of the migration: `qmigrate report`
# writes it to DEMO_REPORT (default BUILDDIR/demo-report.html).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
qmigrate=$build/qmigrate
guest=$build/tests/guest/memguest.elf
# wait_for, fail and assert_memory_intact (no setup_tmp: the demo cleans
# up after itself).
top_srcdir=$top top_builddir=$build QMIGRATE=$qmigrate
. "$top/tests/lib.sh"
mib=${DEMO_MIB:-256}
rate=${DEMO_RATE:-150}
bandwidth=${DEMO_BANDWIDTH:-64Mi}
report=${DEMO_REPORT:-$build/demo-report.html}

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

[ -x "$qmigrate" ] || { echo "demo: $qmigrate not built" >&2; exit 1; }
[ -f "$guest" ] || make -C "$build" tests/guest/memguest.elf >/dev/null
command -v jq >/dev/null || { echo "demo: jq missing (apt-get install jq)" >&2; exit 1; }

dir=$(mktemp -d /tmp/qmigrate-demo.XXXXXX)
ns_src=qmdemo-src-$$ ns_dst=qmdemo-dst-$$
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for f in "$dir"/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; done
	ip netns del "$ns_src" 2>/dev/null || true
	ip netns del "$ns_dst" 2>/dev/null || true
	rm -rf "$dir"
}
trap cleanup EXIT

# Two hosts, when we may make them; else both sides on this host's loopback.
if ip netns add "$ns_src" 2>/dev/null && ip netns add "$ns_dst"; then
	ip link add "qmd$$a" type veth peer name "qmd$$b"
	ip link set "qmd$$a" netns "$ns_src"
	ip link set "qmd$$b" netns "$ns_dst"
	ip -n "$ns_src" addr add 10.99.0.1/24 dev "qmd$$a"
	ip -n "$ns_dst" addr add 10.99.0.2/24 dev "qmd$$b"
	ip -n "$ns_src" link set "qmd$$a" up
	ip -n "$ns_dst" link set "qmd$$b" up
	ip -n "$ns_src" link set lo up
	ip -n "$ns_dst" link set lo up
	on_src=(ip netns exec "$ns_src") on_dst=(ip netns exec "$ns_dst")
	addr=10.99.0.2
	say "two hosts: $ns_src (10.99.0.1) and $ns_dst (10.99.0.2), joined by a veth pair"
else
	on_src=() on_dst=()
	addr=127.0.0.1
	say "not allowed to create network namespaces (run as root for two hosts): using loopback"
fi

say "certificates: a CA and one node certificate per host (contrib/make-certs.sh)"
sh "$top/contrib/make-certs.sh" --ip "$addr" "$dir/pki" src dst >/dev/null
ls "$dir/pki/src" "$dir/pki/dst" | sed 's/^/   /'

# KVM where /dev/kvm serves, else TCG (QMIGRATE_TEST_ACCEL forces one).
_lib_accel_arg 2>/dev/null
say "accelerator: $TEST_ACCEL ($TEST_ACCEL_WHY)"
machine=(-machine pc -accel "$ACCEL_ARG" -smp 1 -m $((mib + 64)) -kernel "$guest"
	-append "mib=$mib rate=$rate" -display none -nodefaults -no-user-config)
say "source QEMU: a bare-metal guest writing $rate MB/s over $mib MiB and checking every page"
"${on_src[@]}" qemu-system-x86_64 "${machine[@]}" -qmp "unix:$dir/src.qmp,server=on,wait=off" \
	-serial "file:$dir/src.serial" -pidfile "$dir/src.pid" -daemonize
"${on_dst[@]}" qemu-system-x86_64 "${machine[@]}" -qmp "unix:$dir/dst.qmp,server=on,wait=off" \
	-serial "file:$dir/dst.serial" -pidfile "$dir/dst.pid" -daemonize -incoming defer
wait_for 30 "guest ready" grep -qs 'memguest: ready' "$dir/src.serial"
grep -a 'memguest: ready' "$dir/src.serial" | sed 's/^/   /'

cat >"$dir/policy.json" <<EOF
/* The demo's policy: a tight bandwidth cap, and post-copy allowed so that
   a guest that dirties memory faster than that can still finish. */
{ "name": "demo", "migration": {
	"bandwidthPerMigration": "$bandwidth", "allowPostCopy": true,
	"convergence": "adaptive" } }
EOF
say "policy: bandwidth $bandwidth per migration, post-copy allowed, adaptive controller"

"${on_dst[@]}" "$qmigrate" incoming --qmp "$dir/dst.qmp" --listen "tls:$addr:4444" \
	--tls-dir "$dir/pki/dst" --status-file "$dir/dst.status" \
	>"$dir/incoming.out" 2>"$dir/incoming.err" &
pids+=($!)
wait_for 10 "target listening" grep -qs "listening for the source" "$dir/incoming.err"

say "migrating through the TLS proxy to $addr:4444 (one line per sample)"
rc=0
"${on_src[@]}" "$qmigrate" migrate --qmp "$dir/src.qmp" --to "tls:$addr:4444" \
	--tls-dir "$dir/pki/src" --tls-name dst --policy "$dir/policy.json" \
	--status-file "$dir/src.status" --events 2>"$dir/migrate.err" |
	tee "$dir/events.jsonl" | jq -r --unbuffered '
		def mb: . / 1e6 | floor;
		.status as $s | $s.progress as $p |
		if .event == "decision" then
			"   decision: \($s.decisions[-1].action): \($s.decisions[-1].reason)"
		elif .event == "progress" or .event == "phase" or .event == "mode" then
			"   \($s.phase | .[0:9]) \($s.mode | .[0:8])  pass \($p.iteration)  " +
			"sent \($p.dataProcessed | mb) MB  remaining \($p.dataRemaining | mb) MB  " +
			"bandwidth \($p.bandwidth | mb) MB/s  dirty \($p.dirtyRate | mb) MB/s"
		else empty end' || rc=$?
[ "${PIPESTATUS[0]:-$rc}" = 0 ] || rc=1
wait "${pids[0]}" || true

say "result"
jq -r '"   source: \(.phase), mode \(.mode), \(.progress.dataProcessed / 1e6 | floor) MB in \(.progress.totalTimeMs) ms, \(if .progress.downtimeMs != null then "downtime \(.progress.downtimeMs) ms" else "downtime not reported by QEMU" end)"' "$dir/src.status"
jq -r '"   target: \(.phase)"' "$dir/dst.status"
if "$qmigrate" report --status-file "$dir/src.status" --events "$dir/events.jsonl" \
	--target-status-file "$dir/dst.status" --output "$report" 2>"$dir/report.err"; then
	echo "   the picture of this migration: file://$report (qmigrate report)"
else
	echo "   qmigrate report failed: $(cat "$dir/report.err")" >&2
fi
# Where the guest runs now: the target, or the source after a failure it
# survived (exit 4 or 5).
case $rc in
0) holder=dst where=target ;;
4 | 5) holder=src where=source ;;
*) echo "   qmigrate migrate exited $rc: the guest runs nowhere to check" >&2; exit "$rc" ;;
esac
echo "   the guest on the $where, verifying every page once more:"
assert_memory_intact "$dir/$holder.serial" 60 $((mib * 256))
grep -a 'memguest: \(progress\|verified\)' "$dir/$holder.serial" | tail -n 2 | sed 's/^/     /'
echo "   no CORRUPT page: every page the guest wrote is intact on the $where"
exit "$rc"
