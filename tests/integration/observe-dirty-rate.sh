#!/usr/bin/env bash
# observe-dirty-rate.sh: qmigrate dirty-rate against memguest.  QEMU's
# page-sampling counts the sampled pages that changed over the period, so
# the working set must hold more than rate x period of distinct pages: a
# 256 MiB working set at 50 MB/s for 1 s rewrites ~20% of it, never the
# same page twice.  Busy reads what the guest wrote (50 MB/s = 47.7 MiB/s
# told; its progress lines say what it managed) within a factor of 2;
# idle reads near 0; dirty-bitmap is refused without KVM (QEMU survives)
# and measures under it.
. "$top_srcdir/tests/lib.sh"
need_cmd "$QEMU"
[ -x "$QMIGRATE" ] || fail "qmigrate not built: $QMIGRATE"
setup_tmp

start_memguest busy 256 50
start_memguest idle 64 0

json_num() {	# json_num KEY FILE: the number after "KEY":
	sed -n 's/^ *"'"$1"'": \([0-9.e+-]*\),*$/\1/p' "$2" | head -n 1
}

# The rate the guest really wrote meanwhile is the reference, from its own
# progress lines (one a second, rate_mbs over that second): on a loaded
# host a starved vCPU writes less than it was told (measured 7-14 MB/s of
# 50 at load 5), and QEMU can only measure what was written.
off=$(stat -c %s "$TMP/busy.serial")
"$QMIGRATE" dirty-rate --qmp "$TMP/busy.qmp" --seconds 1 \
	--sample-pages 4096 --bandwidth 4Mi --json >"$TMP/busy.json" ||
	fail "dirty-rate on the busy guest failed"
wait_progress "$TMP/busy.serial"
wrote=$(_lib_complete_after "$TMP/busy.serial" "$off" |
	sed -n 's/^memguest: progress .* rate_mbs=\([0-9]*\)$/\1/p' |
	awk '{ s += $1; n++ } END { if (n) printf "%.1f", s / n / 1.048576 }')
[ -n "$wrote" ] || fail "no progress line of the busy guest during the measurement"
awk -v w="$wrote" 'BEGIN { exit !(w >= 8) }' ||
	fail "the busy guest wrote only $wrote MiB/s (told 47.7): too starved for the test to mean anything"
rate=$(json_num dirtyRateMiBps "$TMP/busy.json")
[ -n "$rate" ] || fail "no dirtyRateMiBps in $(cat "$TMP/busy.json")"
# Within a factor of 2 of what the guest wrote.
awk -v r="$rate" -v w="$wrote" 'BEGIN { exit !(r >= w / 2 && r <= w * 2) }' ||
	fail "busy guest: dirty rate $rate MiB/s, the guest wrote $wrote MiB/s (x/÷2)"
echo "busy guest: measured $rate MiB/s, the guest wrote $wrote MiB/s"
grep -q '"verdict": "does-not-converge"' "$TMP/busy.json" ||
	fail "$rate MiB/s over 4 MiB/s must not converge: $(cat "$TMP/busy.json")"

"$QMIGRATE" dirty-rate --qmp "$TMP/idle.qmp" --seconds 1 \
	--bandwidth 1Gi >"$TMP/idle.txt" || fail "dirty-rate on the idle guest failed"
# Near zero: page sampling extrapolates from a few hundred random pages, so
# one page of the guest's own stack counts; a tenth of the busy rate at most.
idle=$(sed -n 's/^dirty rate: \([0-9.]*\) MiB\/s$/\1/p' "$TMP/idle.txt")
awk -v r="${idle:-x}" 'BEGIN { exit !(r + 0 == r && r < 4.8) }' ||
	fail "idle guest: expected under 4.8 MiB/s: $(cat "$TMP/idle.txt")"
grep -q '^verdict: pre-copy converges: about ' "$TMP/idle.txt" ||
	fail "idle guest at 1 GiB/s must converge: $(cat "$TMP/idle.txt")"

# No bandwidth and no policy: unlimited, said so.
"$QMIGRATE" dirty-rate --qmp "$TMP/idle.qmp" >"$TMP/unl.txt" ||
	fail "dirty-rate without --bandwidth failed"
grep -q '^bandwidth: unlimited' "$TMP/unl.txt" ||
	fail "no 'bandwidth: unlimited' line: $(cat "$TMP/unl.txt")"

# A policy's bandwidth is the default.
cat >"$TMP/pol.json" <<'POL'
{ "name": "slow", "selector": { "labels": { "app": "db" } },
  "migration": { "bandwidthPerMigration": "16Mi" } }
POL
"$QMIGRATE" dirty-rate --qmp "$TMP/busy.qmp" --policy "$TMP/pol.json" \
	--label app=db --json >"$TMP/pol.out" || fail "dirty-rate --policy failed"
grep -q '"bandwidthBytesPerSecond": 16777216' "$TMP/pol.out" ||
	fail "the policy's 16Mi was not used: $(cat "$TMP/pol.out")"

# KubeVirt manifests: the policy KubeVirt would pick by the namespace's
# labels gives the bandwidth (gold 16Mi, bronze 32Mi).
mkdir "$TMP/kube"
cat >"$TMP/kube/policies.yaml" <<'POL'
apiVersion: migrations.kubevirt.io/v1alpha1
kind: MigrationPolicy
metadata: {name: gold}
spec:
  bandwidthPerMigration: 16Mi
  selectors: {namespaceSelector: {tier: gold}}
---
apiVersion: migrations.kubevirt.io/v1alpha1
kind: MigrationPolicy
metadata: {name: bronze}
spec:
  bandwidthPerMigration: 32Mi
  selectors: {namespaceSelector: {tier: bronze}}
---
apiVersion: v1
kind: Namespace
metadata: {name: prod, labels: {tier: gold}}
POL
cat >"$TMP/vmi.yaml" <<'VMI'
apiVersion: kubevirt.io/v1
kind: VirtualMachineInstance
metadata: {name: idle, namespace: prod}
VMI
for want in "16777216 --vmi $TMP/vmi.yaml" \
    "33554432 --vmi $TMP/vmi.yaml --namespace-label tier=bronze"; do
	# shellcheck disable=SC2086 # want is a number, then flags
	set -- $want
	"$QMIGRATE" dirty-rate --qmp "$TMP/idle.qmp" --seconds 1 \
		--policy "$TMP/kube" "${@:2}" --json >"$TMP/kube.out" ||
		fail "dirty-rate ${*:2} failed"
	grep -q "\"bandwidthBytesPerSecond\": $1" "$TMP/kube.out" ||
		fail "dirty-rate ${*:2}: expected $1 bytes/s: $(cat "$TMP/kube.out")"
done

# dirty-bitmap crashes QEMU 7.2 under TCG: refused, exit 1, QEMU alive.
# Under KVM (tests/lib.sh's choice) it is QEMU's to measure: a figure.
rc=0
"$QMIGRATE" dirty-rate --qmp "$TMP/idle.qmp" --mode dirty-bitmap \
	2>"$TMP/refused.err" >"$TMP/bitmap.out" || rc=$?
if [ "$TEST_ACCEL" = kvm ]; then
	[ "$rc" -eq 0 ] || fail "dirty-bitmap under KVM: exit $rc: $(cat "$TMP/refused.err")"
	kvm_modes="dirty-bitmap measured under KVM"
else
	[ "$rc" -eq 1 ] || fail "dirty-bitmap without KVM: exit $rc, expected 1"
	grep -q 'needs KVM' "$TMP/refused.err" ||
		fail "no clear refusal: $(cat "$TMP/refused.err")"
	kvm_modes="KVM-only modes refused"
fi
qmp idle query-status | grep -q '"status": "running"' ||
	fail "QEMU not running after the dirty-bitmap mode"
rc=0
"$QMIGRATE" dirty-rate --qmp "$TMP/idle.qmp" --seconds 61 2>/dev/null || rc=$?
[ "$rc" -eq 1 ] || fail "--seconds 61: exit $rc, expected 1"
echo "PASS: dirty-rate busy=$rate MiB/s, idle near 0, $kvm_modes"
