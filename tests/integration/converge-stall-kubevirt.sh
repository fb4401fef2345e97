#!/usr/bin/env bash
# KubeVirt's newest monitor end to end: a MigrationPolicy whose
# spec.experimental.stallDetector is given (a 4 s window instead of 40 s, to
# stay short) reaches the kubevirt controller, which starts at QEMU's 300 ms
# downtime limit and, once the remaining data of a busy guest stops
# dropping, switches to post-copy at a local minimum (issue 25).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

cat >"$TMP/stall.yaml" <<'YAML'
apiVersion: migrations.kubevirt.io/v1alpha1
kind: MigrationPolicy
metadata:
  name: stall
spec:
  selectors:
    virtualMachineInstanceSelector:
      app: busy
  bandwidthPerMigration: 8Mi
  allowPostCopy: true
  experimental:
    stallDetector:
      stallProgressTimeout: 4
YAML
mig_start_pair 64 200
mig_incoming --policy "$TMP/stall.yaml" --label app=busy
mig_migrate --policy "$TMP/stall.yaml" --label app=busy --convergence kubevirt
expect_exit migrate 0 120
expect_exit incoming 0 60
assert_moved

src=$TMP/src.status
[ "$(status_get "$src" .migrationConfiguration.controller.stallDetector.stallProgressTimeout)" = 4 ] ||
	fail "the controller has no stallDetector with the policy's window: $(status_get "$src" .migrationConfiguration.controller)"
[ "$(status_get "$src" .migrationConfiguration.controller.maxDowntimeMs)" = 900 ] ||
	fail "maxDowntimeMs is not KubeVirt's 900"
[ "$(decisions "$src")" = "set-downtime post-copy" ] ||
	fail "decisions: $(decisions "$src"), expected set-downtime post-copy"
case $(status_get "$src" '.decisions[0].reason') in
*"starts at 300 ms"*) ;;
*) fail "the downtime limit did not start at 300 ms: $(status_get "$src" '.decisions[0].reason')" ;;
esac
reason=$(status_get "$src" '.decisions[1].reason')
case $reason in
stalled*"local minimum"*) ;;
*) fail "the post-copy decision is not the stall detector's: $reason" ;;
esac
[ "$(status_get "$src" .mode)" = PostCopy ] || fail "mode $(status_get "$src" .mode)"
echo "ok: $reason"
