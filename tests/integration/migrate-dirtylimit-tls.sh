#!/usr/bin/env bash
# migrate-dirtylimit-tls.sh: over tls: the target's QEMU is known (issue
# 33), under KVM with a dirty ring on both sides, QEMU 10.0 -> 11.1.  The
# adaptive controller: both QEMUs offer dirty-limit, so its throttle is
# dirty-limit, set on the source's QEMU.  The kubevirt controller, on a
# source QEMU an earlier migration left with dirty-limit on: auto-converge,
# with dirty-limit sent off (QEMU refuses the two together).  Both arrive
# intact.  (A target QEMU older than the source's, the one that could lack
# dirty-limit, is refused before anything moves.)  Needs KVM: where
# tests/lib.sh picks TCG it says why and skips.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/qemu-matrix-lib.sh"
matrix_want 10.0 11.1
setup_tmp
test_accel_pick
if [ "$TEST_ACCEL" != kvm ]; then
	echo "SKIP: dirty-limit needs KVM with a dirty ring; accelerator: tcg ($TEST_ACCEL_WHY) (QMIGRATE_TEST_ACCEL=kvm forces KVM)"
	exit 77
fi
case ",$TEST_ACCEL_OPTS," in
*,dirty-ring-size=*) ;;
*) TEST_ACCEL_OPTS=${TEST_ACCEL_OPTS:+$TEST_ACCEL_OPTS,}dirty-ring-size=4096 ;;
esac
echo "accelerator: kvm,$TEST_ACCEL_OPTS ($TEST_ACCEL_WHY)"
MEMGUEST_BOOT_TIMEOUT=${MEMGUEST_BOOT_TIMEOUT_KVM:-240}
MEMGUEST_VERIFY_TIMEOUT=${MEMGUEST_VERIFY_TIMEOUT_KVM:-600}
mig_tls
mig_policy thr '{ "allowAutoConverge": true, "convergence": "adaptive" }'
mig_policy kv '{ "allowAutoConverge": true, "convergence": "kubevirt" }'
QEMU_SRC_VERSION=10.0 QEMU_DST_VERSION=11.1 QEMU_MACHINE=pc-i440fx-10.0

# pair NAME POLICY [QMP-COMMAND ARGS]: a 4 MiB idle guest moved over tls:
# under POLICY, the command sent to the source's QEMU first; the source's
# status in $TMP/NAME-src.status.
pair() {
	PAIR=$1-
	mig_start_pair 4 0
	[ $# -lt 3 ] || mon "${PAIR}src" "$3" "$4" >/dev/null
	mig_tls_incoming
	mig_tls_migrate "${PAIR}migrate" "$TMP/${PAIR}src.qmp" --policy "$TMP/$2.json"
	expect_exit "${PAIR}migrate" 0 600
	expect_exit "${PAIR}incoming" 0 120
	assert_moved
}

pair both thr
st=$TMP/both-src.status
throttle=$(status_get "$st" .migrationConfiguration.throttle)
echo "10.0 -> 11.1: $throttle"
[[ $throttle == "dirty-limit: both QEMUs offer it and KVM has a dirty ring"* ]] ||
	fail "10.0 -> 11.1: migrationConfiguration.throttle: $throttle"
[ "$(status_get "$st" .migrationConfiguration.controller.throttle)" = dirty-limit ] ||
	fail "10.0 -> 11.1: the controller's throttle: $(status_get "$st" .migrationConfiguration.controller)"
mon both-src query-migrate-capabilities | jq -e '[.[] | select(.capability ==
	"dirty-limit")][0].state' >/dev/null ||
	fail "10.0 -> 11.1: dirty-limit is not on on the source's QEMU"

pair stale kv migrate-set-capabilities \
	'{"capabilities":[{"capability":"dirty-limit","state":true}]}'
st=$TMP/stale-src.status
throttle=$(status_get "$st" .migrationConfiguration.throttle)
echo "kubevirt, dirty-limit left on: $throttle"
[ "$throttle" = "auto-converge: the kubevirt controller throttles as KubeVirt does (auto-converge)" ] ||
	fail "kubevirt: migrationConfiguration.throttle: $throttle"
caps=$(mon stale-src query-migrate-capabilities)
jq -e '[.[] | select(.capability == "dirty-limit")][0].state | not' <<<"$caps" >/dev/null &&
	jq -e '[.[] | select(.capability == "auto-converge")][0].state' <<<"$caps" >/dev/null ||
	fail "kubevirt: the source's QEMU has not auto-converge alone: $caps"
echo "ok: over tls: dirty-limit where both QEMUs offer it, auto-converge under kubevirt"
