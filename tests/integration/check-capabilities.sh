#!/usr/bin/env bash
# check-capabilities.sh: `qmigrate check` says which migration capabilities
# a migration of this VM would use with a target QEMU like its own, and why
# (mig-negotiate.c), as text and in --json: post-copy and postcopy-preempt
# when the policy allows post-copy; multifd dropped beside post-copy on
# QEMU 7.2 (it crashes the destination) and 10.0 (it refuses), kept on
# 11.1; validate-uuid once the VM has a UUID; the throttle (issue 33):
# dirty-limit under KVM with a dirty ring (TEST_ACCEL_OPTS=dirty-ring-size=
# 4096), else auto-converge with the reason (TCG has no dirty ring; KVM
# without one, QEMU's refusal quoted; QEMU 7.2 does not offer it), the
# kubevirt controller's always auto-converge (tests/lib.sh picks the
# accelerator; query-kvm says which ran).  Each "on" is a capability the
# QEMU lists.  The version matrix runs it on
# 10.0 and 11.1.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

uuid=7b0c4e2a-1d3f-4a5b-8c6d-9e0f1a2b3c4d
start_memguest src 16 0 -uuid "$uuid" \
	-qmp "unix:$TMP/src.mon,server=on,wait=off"
ver=$(mon src query-version | jq -r '.qemu | "\(.major).\(.minor).\(.micro)"')
listed=$(mon src query-migrate-capabilities | jq -r '.[].capability')
kvm=$(mon src query-kvm | jq -r .enabled)
[ "$kvm" = "$([ "$TEST_ACCEL" = kvm ] && echo true || echo false)" ] ||
	fail "the guest was started with -accel $TEST_ACCEL but query-kvm says enabled=$kvm"
mig_policy both '{ "allowPostCopy": true, "parallelMigrationThreads": 4 }'

out=$("$QMIGRATE" check --qmp "$TMP/src.qmp" --policy "$TMP/both.json") ||
	fail "check: exit $?: $out"
grep -qxF "Capabilities (QEMU $ver, to a target QEMU like it):" <<<"$out" ||
	fail "check names no capabilities for QEMU $ver: $out"
line() {
	grep -E "^  $1: " <<<"$out" || fail "check: no $1 line in: $out"
}
[[ $(line postcopy-ram) == "  postcopy-ram: on: the policy allows post-copy" ]] ||
	fail "post-copy: $(line postcopy-ram)"
[[ $(line postcopy-preempt) == "  postcopy-preempt: on: "* ]] ||
	fail "postcopy-preempt: $(line postcopy-preempt)"
[[ $(line validate-uuid) == "  validate-uuid: on: both QEMUs know the VM's UUID"* ]] ||
	fail "validate-uuid: $(line validate-uuid)"
case $ver in
7.2.*) want="  multifd: off: the policy allows post-copy and QEMU $ver crashes the destination"* ;;
10.0.*) want="  multifd: off: the policy allows post-copy and QEMU $ver refuses multifd with post-copy"* ;;
*) want="  multifd: on: 4 channels, with post-copy: QEMU $ver and $ver run both" ;;
esac
# shellcheck disable=SC2053 # want is a pattern
[[ $(line multifd) == $want ]] || fail "multifd on QEMU $ver: $(line multifd)"
# The throttle a migration would use, and why.
if ! grep -qx dirty-limit <<<"$listed"; then
	throttle="auto-converge: the source's QEMU $ver does not offer dirty-limit (QEMU 8.1 and later do)"
elif [ "$kvm" = false ]; then
	throttle="auto-converge: TCG has no dirty ring (dirty-limit needs KVM's)"
elif [[ $TEST_ACCEL_OPTS == *dirty-ring-size=* ]]; then
	throttle="dirty-limit: both QEMUs offer it and KVM has a dirty ring (QEMU accepted the capability): only the vCPUs that dirty memory are slowed, to the rate the controller sets"
else
	throttle="auto-converge: KVM has no dirty ring (start QEMU with -accel kvm,dirty-ring-size=4096 for dirty-limit): migrate-set-capabilities: dirty-limit requires KVM with accelerator property 'dirty-ring-size' set"
fi
echo "throttle: $throttle"
# This policy does not allow throttling: none, and what it would be.
want="Throttle (adaptive controller): none: the policy does not allow auto-converge (allowed, it would be $throttle)"
grep -qxF "$want" <<<"$out" || fail "check's throttle: want '$want' in: $out"
mig_policy throttled '{ "allowAutoConverge": true }'
out=$("$QMIGRATE" check --qmp "$TMP/src.qmp" --policy "$TMP/throttled.json") ||
	fail "check: exit $?: $out"
grep -qxF "Throttle (adaptive controller): $throttle" <<<"$out" ||
	fail "check's throttle: want '$throttle' in: $out"
if [[ $throttle == dirty-limit:* ]]; then
	[[ $(line dirty-limit) == "  dirty-limit: on: the adaptive controller's throttle" ]] ||
		fail "dirty-limit: $(line dirty-limit)"
elif grep -qx dirty-limit <<<"$listed"; then
	[[ $(line dirty-limit) == "  dirty-limit: off: $throttle" ]] ||
		fail "dirty-limit: $(line dirty-limit)"
fi
mig_policy kubevirt '{ "allowAutoConverge": true, "convergence": "kubevirt" }'
out=$("$QMIGRATE" check --qmp "$TMP/src.qmp" --policy "$TMP/kubevirt.json") ||
	fail "check: exit $?: $out"
grep -qxF "Throttle (kubevirt controller): auto-converge: the kubevirt controller throttles as KubeVirt does (auto-converge)" <<<"$out" ||
	fail "check's throttle under kubevirt: $out"
# The probe leaves QEMU's capabilities as it found them.
mon src query-migrate-capabilities | jq -e '[.[] | select(.capability ==
	"dirty-limit" or .capability == "auto-converge") | .state] | any | not' \
	>/dev/null || fail "check left dirty-limit or auto-converge on"
out=$("$QMIGRATE" check --qmp "$TMP/src.qmp" --policy "$TMP/both.json") ||
	fail "check: exit $?: $out"
# Every capability check turns on is one this QEMU lists.
for c in $(grep -E '^  [a-z-]+: on: ' <<<"$out" | sed -E 's/^  ([a-z-]+):.*/\1/'); do
	grep -qx "$c" <<<"$listed" || fail "check turns on $c, which QEMU $ver does not list"
done

# --json: the same reasons, and this QEMU as the offer describes it.
json=$("$QMIGRATE" check --qmp "$TMP/src.qmp" --policy "$TMP/both.json" --json) ||
	fail "check --json: exit $?"
jq -e --arg v "$ver" --arg u "$uuid" --arg kvm "$kvm" '.qemu.version == $v and .qemu.uuid == $u
	and .qemu.machine == "pc-i440fx-\($v | split(".")[0:2] | join("."))"
	and .qemu.ramBytes == 83886080 and .qemu.kvm == ($kvm == "true")
	and (.capabilities["postcopy-preempt"] | startswith("on: "))
	and (.throttle | startswith("none: the policy does not allow"))' \
	<<<"$json" >/dev/null || fail "check --json: $json"

# Without the policy: nothing but what needs no policy.
out=$("$QMIGRATE" check --qmp "$TMP/src.qmp") || fail "check: exit $?"
[[ $(line postcopy-ram) == "  postcopy-ram: off: the policy does not allow post-copy" ]] ||
	fail "default policy: $(line postcopy-ram)"
[[ $(line postcopy-preempt) == "  postcopy-preempt: off: no post-copy" ]] ||
	fail "default policy: $(line postcopy-preempt)"
echo "ok: check says what QEMU $ver would negotiate, and why"
