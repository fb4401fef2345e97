#!/usr/bin/env bash
# check-capabilities.sh: `qmigrate check` says which migration capabilities
# a migration of this VM would use with a target QEMU like its own, and why
# (mig-negotiate.c), as text and in --json: post-copy and postcopy-preempt
# when the policy allows post-copy; multifd dropped beside post-copy on
# QEMU 7.2 (it crashes the destination) and 10.0 (it refuses), kept on
# 11.1; validate-uuid once the VM has a UUID; dirty-limit, where QEMU
# offers it, said to need KVM under TCG and left to auto-converge under KVM
# (tests/lib.sh picks the accelerator; query-kvm says which ran).  Each
# "on" is a capability the QEMU lists.  The version matrix runs it on
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
if grep -qx dirty-limit <<<"$listed"; then
	if [ "$kvm" = true ]; then
		want="  dirty-limit: off: needs KVM's dirty ring; the controllers throttle with auto-converge"
	else
		want="  dirty-limit: off: needs KVM's dirty ring: the guest runs under TCG"
	fi
	[[ $(line dirty-limit) == "$want" ]] ||
		fail "dirty-limit: $(line dirty-limit)"
fi
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
	and (.capabilities["postcopy-preempt"] | startswith("on: "))' \
	<<<"$json" >/dev/null || fail "check --json: $json"

# Without the policy: nothing but what needs no policy.
out=$("$QMIGRATE" check --qmp "$TMP/src.qmp") || fail "check: exit $?"
[[ $(line postcopy-ram) == "  postcopy-ram: off: the policy does not allow post-copy" ]] ||
	fail "default policy: $(line postcopy-ram)"
[[ $(line postcopy-preempt) == "  postcopy-preempt: off: no post-copy" ]] ||
	fail "default policy: $(line postcopy-preempt)"
echo "ok: check says what QEMU $ver would negotiate, and why"
