#!/usr/bin/env bash
# migrate-status-kubevirt.sh: the status documents of a tls: migration
# under KubeVirt's names: one migrationUid on both sides (the source's),
# each side's node and pod from --node/--pod and the environment, the
# other side's over the control channel, targetNodeAddress, the policy
# and its configuration; and `qmigrate status --format kubevirt`, the
# merge patch of the VMI's status.migrationState and conditions.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd openssl jq
setup_tmp

make_pki src dst
port=$((20000 + RANDOM % 20000))

cat >"$TMP/policy.yaml" <<'EOF'
apiVersion: migrations.kubevirt.io/v1alpha1
kind: MigrationPolicy
metadata:
  name: status-demo
spec:
  bandwidthPerMigration: 64Mi
  completionTimeoutPerGiB: 300
  selectors: {}
EOF

start_memguest src 32 10 -qmp "unix:$TMP/src.mon,server=on,wait=off"
start_memguest_incoming dst 32 -qmp "unix:$TMP/dst.mon,server=on,wait=off"
# The target's node and pod from the environment, the source's from flags.
NODE_NAME=node-b POD_NAME=virt-launcher-vm1-b bg_start inc "$QMIGRATE" \
	incoming --qmp "$TMP/dst.qmp" --listen "tls:127.0.0.1:$port" \
	--tls-dir "$TMP/pki/dst" --status-file "$TMP/dst.status"
wait_for 30 "target listening" grep -q "listening for the source" "$TMP/inc.err"
bg_start mig "$QMIGRATE" migrate --qmp "$TMP/src.qmp" \
	--to "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/src" --tls-name dst \
	--policy "$TMP/policy.yaml" --node node-a --pod virt-launcher-vm1-a \
	--status-file "$TMP/src.status"
expect_exit mig 0 120
expect_exit inc 0 60
assert_memory_intact "$TMP/dst.serial"

for side in src dst; do
	f=$TMP/$side.status
	for kv in sourceNode=node-a sourcePod=virt-launcher-vm1-a \
	    targetNode=node-b targetPod=virt-launcher-vm1-b \
	    targetNodeAddress=127.0.0.1 completed=true failed=false \
	    abortRequested=false mode=PreCopy; do
		status_is "$f" ".${kv%%=*}" "${kv#*=}" ||
			fail "$side: ${kv%%=*} is $(status_get "$f" ".${kv%%=*}"), expected ${kv#*=}"
	done
done
uid=$(status_get "$TMP/src.status" .migrationUid)
[ -n "$uid" ] && [ "$uid" != null ] || fail "no migrationUid"
status_is "$TMP/dst.status" .migrationUid "$uid" ||
	fail "the target's migrationUid $(status_get "$TMP/dst.status" .migrationUid) is not the source's $uid"
status_is "$TMP/src.status" .migrationPolicyName status-demo || fail "migrationPolicyName"
status_is "$TMP/src.status" .migrationConfiguration.bandwidthPerMigration 67108864 ||
	fail "migrationConfiguration"

# The VMI status patch, from either document.
"$QMIGRATE" status --status-file "$TMP/src.status" --format kubevirt >"$TMP/patch.json" ||
	fail "status --format kubevirt failed"
ms() { jq -r ".status.migrationState.$1" "$TMP/patch.json"; }
[ "$(ms migrationUid)" = "$uid" ] || fail "patch: migrationUid $(ms migrationUid)"
[ "$(ms sourceNode)" = node-a ] && [ "$(ms targetNode)" = node-b ] ||
	fail "patch: nodes $(ms sourceNode) $(ms targetNode)"
[ "$(ms targetPod)" = virt-launcher-vm1-b ] || fail "patch: targetPod"
[ "$(ms completed)" = true ] && [ "$(ms failed)" = false ] || fail "patch: completed/failed"
[ "$(ms migrationPolicyName)" = status-demo ] || fail "patch: migrationPolicyName"
# KubeVirt's VMIMConfigurationOptions: a quantity, no qmigrate-only field.
[ "$(ms migrationConfiguration.bandwidthPerMigration)" = 64Mi ] ||
	fail "patch: bandwidthPerMigration $(ms migrationConfiguration.bandwidthPerMigration)"
[ "$(ms migrationConfiguration.completionTimeoutPerGiB)" = 300 ] || fail "patch: completionTimeoutPerGiB"
[ "$(ms migrationConfiguration.convergence)" = null ] || fail "patch: a qmigrate-only field"
# The cluster's limits, KubeVirt's defaults here (no KubeVirt object).
[ "$(ms migrationConfiguration.parallelMigrationsPerCluster)" = 5 ] &&
[ "$(ms migrationConfiguration.parallelOutboundMigrationsPerNode)" = 2 ] ||
	fail "patch: parallel migrations $(jq -c .status.migrationState.migrationConfiguration "$TMP/patch.json")"
[ "$(ms startTimestamp)" != null ] && [ "$(ms endTimestamp)" != null ] || fail "patch: timestamps"
[ "$(jq -r '.status.migrationState | has("progress") or has("decisions")' "$TMP/patch.json")" = false ] ||
	fail "patch: qmigrate's own fields in migrationState"
# The pre-flight's conditions, one reason and message each.
[ "$(jq -r '.status.conditions[] | select(.type == "LiveMigratable") | .status' "$TMP/patch.json")" = True ] ||
	fail "patch: LiveMigratable: $(cat "$TMP/patch.json")"
[ "$(jq -r '.status.conditions[0] | has("reasons")' "$TMP/patch.json")" = false ] ||
	fail "patch: qmigrate's reasons list in a condition"
# --format json is the document itself.
"$QMIGRATE" status --status-file "$TMP/dst.status" >"$TMP/doc.json"
[ "$(jq -r .role "$TMP/doc.json")" = target ] || fail "status --format json"
rc=0
"$QMIGRATE" status --status-file "$TMP/src.status" --format yaml 2>"$TMP/err" || rc=$?
[ "$rc" -eq 1 ] && grep -q -- '--format: expected json, kubevirt or kubevirt-migration' "$TMP/err" || fail "bad --format"
rc=0
"$QMIGRATE" status --status-file "$TMP/none.status" 2>"$TMP/err" || rc=$?
[ "$rc" -eq 1 ] && grep -q "$TMP/none.status" "$TMP/err" || fail "missing status file: $rc $(cat "$TMP/err")"
echo "PASS: KubeVirt's names on both sides, one uid, the VMI status patch"
