#!/usr/bin/env bash
# policy-kube-drain.sh: a directory of KubeVirt manifests (a KubeVirt
# object, a Namespace, two MigrationPolicies) drives a real drain and a
# real migrate: each VM gets the policy KubeVirt would pick from its VMI's
# labels and its namespace's, the settings that policy gives over the
# cluster's, the cluster's evictionStrategy unless the policy's annotation
# or the VMI says otherwise, and the drain runs as many at once as the
# KubeVirt object allows.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd "$QEMU" jq
[ -x "$QMIGRATE" ] || fail "qmigrate not built: $QMIGRATE"
setup_tmp

mkdir "$TMP/kube"
cat >"$TMP/kube/kubevirt.yaml" <<'EOF'
apiVersion: kubevirt.io/v1
kind: KubeVirt
metadata:
  name: kubevirt
  namespace: kubevirt
spec:
  configuration:
    evictionStrategy: LiveMigrate
    migrations:
      bandwidthPerMigration: 1Gi
      completionTimeoutPerGiB: 800
      parallelMigrationsPerCluster: 5
      parallelOutboundMigrationsPerNode: 1
EOF
cat >"$TMP/kube/namespaces.yaml" <<'EOF'
apiVersion: v1
kind: Namespace
metadata:
  name: prod
  labels:
    tier: gold
---
apiVersion: v1
kind: Namespace
metadata:
  name: dev
  labels:
    tier: bronze
EOF
cat >"$TMP/kube/policies.yaml" <<'EOF'
apiVersion: migrations.kubevirt.io/v1alpha1
kind: MigrationPolicy
metadata:
  name: gold-db
  annotations:
    qmigrate.io/convergence: kubevirt
spec:
  bandwidthPerMigration: 512Mi
  allowAutoConverge: true
  selectors:
    namespaceSelector:
      tier: gold
    virtualMachineInstanceSelector:
      app: db
---
apiVersion: migrations.kubevirt.io/v1alpha1
kind: MigrationPolicy
metadata:
  name: batch
  annotations:
    qmigrate.io/evictionStrategy: External
spec:
  selectors:
    virtualMachineInstanceSelector:
      app: batch
EOF
vmi() {	# vmi NAME NAMESPACE APP: a VirtualMachineInstance manifest
	cat >"$TMP/$1.yaml" <<EOF
apiVersion: kubevirt.io/v1
kind: VirtualMachineInstance
metadata:
  name: $1
  namespace: $2
  labels:
    app: $3
spec:
  domain:
    devices: {}
EOF
}
vmi vm1 prod db
vmi vm2 dev batch

# The drain: vm1 (prod, app=db) moves by the cluster's LiveMigrate with
# gold-db's settings; vm2 (app=batch) is left to an external controller
# by batch's annotation, its QEMU untouched (it has none), so the node is
# not empty: exit 7.
start_memguest vm1 32 10
start_memguest_incoming vm1-dst 32
bg_start vm1-inc "$QMIGRATE" incoming --qmp "$TMP/vm1-dst.qmp" \
	--listen "unix:$TMP/vm1.mig"
wait_for 10 "incoming socket of vm1" test -S "$TMP/vm1.mig"
cat >"$TMP/inventory.json" <<EOF
[ { "name": "vm1", "qmp": "$TMP/vm1.qmp", "to": "unix:$TMP/vm1.mig",
    "vmi": "$TMP/vm1.yaml", "statusFile": "$TMP/vm1.status" },
  { "name": "vm2", "qmp": "$TMP/vm2.qmp", "to": "unix:$TMP/vm2.mig",
    "vmi": "$TMP/vm2.yaml", "statusFile": "$TMP/vm2.status" } ]
EOF
rc=0
"$QMIGRATE" drain --inventory "$TMP/inventory.json" --slot-dir "$TMP/slots" \
	--policy "$TMP/kube" --node node-a \
	>"$TMP/drain.out" 2>"$TMP/drain.err" || rc=$?
[ "$rc" -eq 7 ] || fail "drain: exit $rc, expected 7: $(cat "$TMP/drain.out" "$TMP/drain.err")"
grep -q '^drain: 2 VMs: 1 migrated, 0 shut down, 1 left to an external controller, 0 left behind$' \
	"$TMP/drain.out" || fail "drain summary: $(cat "$TMP/drain.out")"
# parallelOutboundMigrationsPerNode: 1, with no --max-parallel.
grep -q 'draining 2 VMs, at most 1 at once' "$TMP/drain.err" ||
	fail "drain did not take parallelOutboundMigrationsPerNode: $(cat "$TMP/drain.err")"

s=$TMP/vm1.status
status_is "$s" .phase Succeeded || fail "vm1: $(cat "$s")"
status_is "$s" .migrationPolicyName gold-db || fail "vm1 policy: $(status_get "$s" .migrationPolicyName)"
status_is "$s" .eviction.strategy LiveMigrate || fail "vm1 strategy"
status_is "$s" .eviction.namespaceLabels.tier gold || fail "vm1 namespace labels"
# The API server's label on every Namespace, implied from the VMI's.
status_is "$s" '.eviction.namespaceLabels["kubernetes.io/metadata.name"]' prod ||
	fail "vm1: kubernetes.io/metadata.name not implied: $(status_get "$s" .eviction.namespaceLabels)"
status_is "$s" .migrationConfiguration.bandwidthPerMigration 536870912 || fail "vm1 bandwidth"
status_is "$s" .migrationConfiguration.completionTimeoutPerGiB 800 || fail "vm1 cluster's completionTimeoutPerGiB"
status_is "$s" .migrationConfiguration.allowAutoConverge true || fail "vm1 allowAutoConverge"
status_is "$s" .migrationConfiguration.convergence kubevirt || fail "vm1 convergence"
status_is "$s" .migrationConfiguration.parallelOutboundMigrationsPerNode 1 || fail "vm1 the cluster's limits"
s=$TMP/vm2.status
status_is "$s" .eviction.strategy External || fail "vm2: $(cat "$s")"
status_is "$s" .eviction.policy batch || fail "vm2 policy"
status_is "$s" .eviction.evacuationNodeName node-a || fail "vm2 node"
rc=0
bg_wait vm1-inc 30 || rc=$?
[ "$rc" -eq 0 ] || fail "incoming of vm1: exit $rc"
assert_memory_intact "$TMP/vm1-dst.serial"

# migrate, directly: the same directory, a VirtualMachine manifest (its
# template's labels) and the namespace's labels as a flag.
cat >"$TMP/vm3.yaml" <<'EOF'
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: vm3
  labels:
    app: not-the-vmi-label
spec:
  runStrategy: Always
  template:
    metadata:
      labels:
        app: db
    spec:
      domain:
        devices: {}
EOF
mig_start_pair 32 10
mig_incoming
mig_migrate --policy "$TMP/kube" --vmi "$TMP/vm3.yaml" --namespace-label tier=gold
expect_exit migrate 0 60
s=$TMP/src.status
status_is "$s" .migrationPolicyName gold-db || fail "vm3 policy: $(status_get "$s" .migrationPolicyName)"
status_is "$s" .migrationConfiguration.bandwidthPerMigration 536870912 || fail "vm3 bandwidth"
expect_exit incoming 0 30
assert_moved
echo "PASS: KubeVirt manifests drive drain (LiveMigrate, External) and migrate"
