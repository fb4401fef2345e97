#!/usr/bin/env bash
# policy-kube.sh: KubeVirt's own objects handed to qmigrate as an operator
# keeps them (no QEMU needed): a directory of MigrationPolicy YAML files;
# KubeVirt's documented precedence example, winner by winner, through
# `policy explain`; a KubeVirt object's cluster defaults; --vmi and
# namespace labels; multi-document files and lists; the errors; and the
# same flags on every command that selects a policy.
. "$top_srcdir/tests/lib.sh"
need_cmd jq
setup_tmp
kv=$top_srcdir/tests/kubevirt

# A directory of KubeVirt MigrationPolicy YAML files is read, not skipped.
run_qmigrate 0 policy check "$kv/precedence"
[ "$(cat "$TMP/out")" = "ok: 7 policies, 1 namespace" ] ||
	fail "check said: $(cat "$TMP/out")"

# The shipped example directory, as policies/README.md shows it.
run_qmigrate 0 policy check "$top_srcdir/policies/kubevirt"
[ "$(cat "$TMP/out")" = "ok: 3 policies, 2 namespaces, cluster defaults from KubeVirt \"kubevirt\" ($top_srcdir/policies/kubevirt/kubevirt.yaml)" ] ||
	fail "check said: $(cat "$TMP/out")"
run_qmigrate 0 policy explain --policy "$top_srcdir/policies/kubevirt" \
	--vmi "$top_srcdir/policies/vmi/database.yaml" --json
[ "$(jq -r .name "$TMP/out")" = database-postcopy ] || fail "example: $(cat "$TMP/out")"
[ "$(jq -r .evictionStrategy "$TMP/out")" = LiveMigrate ] || fail "example: strategy"
[ "$(jq .terminationGracePeriodSeconds "$TMP/out")" = 600 ] || fail "example: the VMI's grace period"
[ "$(jq .migration.parallelMigrationThreads "$TMP/out")" = 4 ] || fail "example: annotation"
[ "$(jq .migration.allowAutoConverge "$TMP/out")" = false ] || fail "example: the policy over the cluster"
[ "$(jq .migration.bandwidthPerMigration "$TMP/out")" = 1073741824 ] || fail "example: 1Gi"

# KubeVirt's documented example: a VMI labelled size=small, os=fedora,
# gpu=nvidia in a namespace labelled priority=high, bandwidth=medium,
# hpc-workload=true, and seven policies numbered by the user guide's
# precedence.  Each must win in turn, in the order KubeVirt's controller
# picks them, as the ones before it are removed; the seventh never does.
# The first two tie on 4 labels, 2 of them the VMI's: the controller
# takes the smaller name, small-gpu-high-hpc (the guide's second).
# The VMI comes from its manifest and its namespace's labels from the
# Namespace manifest beside the policies; then the same from flags.
mkdir "$TMP/prec"
cp "$kv"/precedence/*.yaml "$TMP/prec/"
steps=(
	"2-small-gpu-high-hpc small-gpu-high-hpc 4 1610612736"
	"1-small-gpu-high-medium small-gpu-high-medium 4 222208"
	"3-small-gpu-high small-gpu-high 3 500000000"
	"4-small-high-hpc small-high-hpc 3 1000000000"
	"5-gpu-high gpu-high 2 67108864"
	"6-gpu gpu 1 33554432"
)
for step in "${steps[@]}"; do
	read -r file name n bw <<<"$step"
	run_qmigrate 0 policy explain --policy "$TMP/prec" --vmi "$kv/vmi/vmi.yaml"
	expect_out "policy \"$name\" ($TMP/prec/$file.yaml, document 1) applies: $n label"
	expect_out "namespace labels from Namespace hpc ($TMP/prec/namespace.yaml)"
	expect_out "\"bandwidthPerMigration\": $bw,"
	run_qmigrate 0 policy explain --policy "$TMP/prec" --json \
		--labels-file "$kv/vmi/vmi-labels.yaml" \
		--namespace-label priority=high --namespace-label bandwidth=medium \
		--namespace-label hpc-workload=true
	[ "$(jq -r .name "$TMP/out")" = "$name" ] ||
		fail "with flags: $(jq -r .name "$TMP/out"), expected $name"
	[ "$(jq -r .migration.bandwidthPerMigration "$TMP/out")" = "$bw" ] ||
		fail "with flags: bandwidth $(jq .migration.bandwidthPerMigration "$TMP/out")"
	rm "$TMP/prec/$file.yaml"
done
run_qmigrate 0 policy explain --policy "$TMP/prec" --vmi "$kv/vmi/vmi.yaml"
expect_out "no policy matches: the defaults apply"
expect_out "policy \"intel-high\" ($TMP/prec/7-intel-high.yaml, document 1) does not match: label gpu is \"nvidia\", the policy wants \"intel\""

# Why the guide's policy 1 loses to its policy 2: the name, and a note
# that the guide's sorted keys would pick policy 1.
run_qmigrate 0 policy explain --policy "$kv/precedence" --vmi "$kv/vmi/vmi.yaml"
expect_out "policy \"small-gpu-high-medium\" ($kv/precedence/1-small-gpu-high-medium.yaml, document 1) also matches 4 labels, 2 of them the VM's, but \"small-gpu-high-hpc\" sorts first by name"
expect_out "note: KubeVirt's user guide breaks a tie by the sorted label keys and would pick \"small-gpu-high-medium\" ($kv/precedence/1-small-gpu-high-medium.yaml, document 1; keys bandwidth, gpu, priority, size before gpu, hpc-workload, priority, size); its controller, which qmigrate follows, compares no keys"
expect_out "namespace labels from Namespace hpc ($kv/precedence/namespace.yaml), and kubernetes.io/metadata.name=hpc implied from --vmi $kv/vmi/vmi.yaml"

# The same objects in one multi-document stream, and as a kind: List.
mkdir "$TMP/stream"
for f in "$kv"/precedence/*.yaml; do
	echo "---"
	cat "$f"
done >"$TMP/stream/all.yaml"
run_qmigrate 0 policy check "$TMP/stream/all.yaml"
[ "$(cat "$TMP/out")" = "ok: 7 policies, 1 namespace" ] ||
	fail "stream: $(cat "$TMP/out")"
run_qmigrate 0 policy explain --policy "$TMP/stream" --vmi "$kv/vmi/vmi.yaml"
expect_out "policy \"small-gpu-high-hpc\" ($TMP/stream/all.yaml, document 2) applies"
cat >"$TMP/stream/list.yml" <<'EOF'
apiVersion: v1
kind: List
metadata:
  resourceVersion: ""
items:
- apiVersion: migrations.kubevirt.io/v1alpha1
  kind: MigrationPolicy
  metadata:
    name: fedora-everywhere
  spec:
    allowAutoConverge: true
    selectors:
      virtualMachineInstanceSelector:
        os: fedora
        size: small
        gpu: nvidia
      namespaceSelector:
        priority: high
        bandwidth: medium
EOF
run_qmigrate 0 policy explain --policy "$TMP/stream" --vmi "$kv/vmi/vmi.yaml"
expect_out "policy \"fedora-everywhere\" ($TMP/stream/list.yml, document 1, items[0]) applies: 5 labels matched"
expect_out '"allowAutoConverge": true'

# Cluster defaults from a KubeVirt object: what policies refine.  The
# VMI's own spec.evictionStrategy beats the cluster's.
mkdir "$TMP/cluster"
cat >"$TMP/cluster/kubevirt.yaml" <<'EOF'
apiVersion: kubevirt.io/v1
kind: KubeVirt
metadata:
  name: kubevirt
  namespace: kubevirt
spec:
  certificateRotateStrategy: {}
  configuration:
    developerConfiguration:
      featureGates: []
    evictionStrategy: External
    migrations:
      bandwidthPerMigration: 64Mi
      completionTimeoutPerGiB: 800
      parallelMigrationsPerCluster: 5
      parallelOutboundMigrationsPerNode: 1
      progressTimeout: 300
      allowPostCopy: true
  customizeComponents: {}
  imagePullPolicy: IfNotPresent
  workloadUpdateStrategy: {}
EOF
cat >"$TMP/cluster/db.yaml" <<'EOF'
apiVersion: migrations.kubevirt.io/v1alpha1
kind: MigrationPolicy
metadata:
  name: db
  annotations:
    qmigrate.io/convergence: kubevirt
spec:
  completionTimeoutPerGiB: 23
  selectors:
    virtualMachineInstanceSelector:
      workload-type: db
EOF
run_qmigrate 0 policy check "$TMP/cluster"
[ "$(cat "$TMP/out")" = "ok: 1 policy, cluster defaults from KubeVirt \"kubevirt\" ($TMP/cluster/kubevirt.yaml)" ] ||
	fail "check said: $(cat "$TMP/out")"
run_qmigrate 0 policy explain --policy "$TMP/cluster" --label workload-type=db --json
[ "$(jq -r .name "$TMP/out")" = db ] || fail "cluster: $(cat "$TMP/out")"
[ "$(jq .migration.completionTimeoutPerGiB "$TMP/out")" = 23 ] || fail "policy's completionTimeoutPerGiB"
[ "$(jq .migration.bandwidthPerMigration "$TMP/out")" = 67108864 ] || fail "cluster's bandwidth"
[ "$(jq .migration.progressTimeout "$TMP/out")" = 300 ] || fail "cluster's progressTimeout"
[ "$(jq .migration.allowWorkloadDisruption "$TMP/out")" = true ] || fail "allowWorkloadDisruption follows allowPostCopy"
[ "$(jq -r .migration.convergence "$TMP/out")" = kubevirt ] || fail "qmigrate.io/convergence"
[ "$(jq -r .evictionStrategy "$TMP/out")" = External ] || fail "cluster's evictionStrategy"
[ "$(jq .cluster.parallelOutboundMigrationsPerNode "$TMP/out")" = 1 ] || fail "parallelOutboundMigrationsPerNode"
cat >"$TMP/vmi-db.yaml" <<'EOF'
apiVersion: kubevirt.io/v1
kind: VirtualMachineInstance
metadata:
  name: db1
  labels:
    workload-type: db
spec:
  evictionStrategy: LiveMigrateIfPossible
  domain:
    devices: {}
EOF
run_qmigrate 0 policy explain --policy "$TMP/cluster" --vmi "$TMP/vmi-db.yaml"
expect_out "evictionStrategy LiveMigrateIfPossible (from the VMI's spec.evictionStrategy)"
expect_out "cluster defaults: KubeVirt \"kubevirt\" ($TMP/cluster/kubevirt.yaml)"

# evict reads the same: the cluster's External strategy records the
# request, touches nothing (no QEMU needed to see it chosen) and says the
# VM was handed over (exit 7).
run_qmigrate 7 evict --qmp "$TMP/none.qmp" --to "unix:$TMP/none.sock" \
	--policy "$TMP/cluster" --label workload-type=db \
	--status-file "$TMP/evict.json" --node node-a
[ "$(jq -r .eviction.strategy "$TMP/evict.json")" = External ] || fail "evict: $(cat "$TMP/evict.json")"
[ "$(jq -r .eviction.policy "$TMP/evict.json")" = db ] || fail "evict policy"
[ "$(jq -r .eviction.evacuationNodeName "$TMP/evict.json")" = node-a ] || fail "evict node"
# KubeVirt's names: EvictionRequested and evacuationNodeName, in the VMI
# status patch too.
[ "$(jq -r .evacuationNodeName "$TMP/evict.json")" = node-a ] || fail "evacuationNodeName"
run_qmigrate 0 status --status-file "$TMP/evict.json" --format kubevirt
[ "$(jq -r .status.evacuationNodeName "$TMP/out")" = node-a ] || fail "patch: evacuationNodeName"
[ "$(jq -r '.status.conditions[] | select(.type == "EvictionRequested") | .status + " " + .reason' "$TMP/out")" = "True EvictionRequested" ] ||
	fail "patch: EvictionRequested: $(cat "$TMP/out")"
[ "$(jq -r .status.migrationState.sourceNode "$TMP/out")" = node-a ] || fail "patch: sourceNode"

# evict and drain pick by the namespace's labels too: a policy for the
# ops namespace hands its VMs to an external controller (no QEMU needed).
mkdir "$TMP/ns"
cat >"$TMP/ns/ops.yaml" <<'EOF'
apiVersion: migrations.kubevirt.io/v1alpha1
kind: MigrationPolicy
metadata:
  name: ops-external
  annotations:
    qmigrate.io/evictionStrategy: External
spec:
  selectors:
    namespaceSelector:
      team: ops
EOF
run_qmigrate 7 evict --qmp "$TMP/none.qmp" --to "unix:$TMP/none.sock" \
	--policy "$TMP/ns" --namespace-label team=ops --node node-a \
	--status-file "$TMP/ns-evict.json"
[ "$(jq -r .eviction.policy "$TMP/ns-evict.json")" = ops-external ] ||
	fail "evict by namespace label: $(cat "$TMP/ns-evict.json")"
# drain: the namespace's labels from a kind: Namespace manifest.
cat >"$TMP/ns-labels.yaml" <<'EOF'
apiVersion: v1
kind: Namespace
metadata:
  name: ops
  labels:
    team: ops
EOF
printf '{"name": "vm1", "qmp": "%s", "to": "unix:%s"}\n' \
	"$TMP/none.qmp" "$TMP/none.sock" | jq -s . >"$TMP/ns-inv.json"
# A cluster allowing more at once than qmigrate's 64 slots: the drain
# takes 64, policy explain says what the cluster says.
cat >"$TMP/ns/kubevirt.yaml" <<'EOF'
apiVersion: kubevirt.io/v1
kind: KubeVirt
metadata: {name: kubevirt}
spec:
  configuration:
    migrations: {parallelMigrationsPerCluster: 500, parallelOutboundMigrationsPerNode: 100}
EOF
run_qmigrate 7 drain --inventory "$TMP/ns-inv.json" --policy "$TMP/ns" \
	--namespace-labels-file "$TMP/ns-labels.yaml" --node node-a \
	--slot-dir "$TMP/slots"
expect_out "1 left to an external controller"
expect_err "at most 64 at once"
# The same from the inventory entry's own namespaceLabels.
printf '{"name": "vm1", "qmp": "%s", "to": "unix:%s", "namespaceLabels": {"team": "ops"}}\n' \
	"$TMP/none.qmp" "$TMP/none.sock" | jq -s . >"$TMP/ns-inv2.json"
run_qmigrate 7 drain --inventory "$TMP/ns-inv2.json" --policy "$TMP/ns" \
	--node node-a --slot-dir "$TMP/slots"
expect_out "1 left to an external controller"
run_qmigrate 0 policy explain --policy "$TMP/ns" --json
[ "$(jq -c '[.cluster.parallelMigrationsPerCluster, .cluster.parallelOutboundMigrationsPerNode]' "$TMP/out")" = "[500,100]" ] ||
	fail "cluster limits: $(jq -c .cluster "$TMP/out")"

# Errors: one line naming the file, the document and the field; the
# whole directory refused.
mkdir "$TMP/bad"
cp "$TMP/cluster/db.yaml" "$TMP/bad/"
cat >"$TMP/bad/two.yaml" <<'EOF'
apiVersion: migrations.kubevirt.io/v1alpha1
kind: MigrationPolicy
metadata:
  name: web
spec:
  selectors: {}
---
apiVersion: migrations.kubevirt.io/v1alpha1
kind: MigrationPolicy
metadata:
  name: batch
spec:
  bandwidthPerMigraton: 64Mi
  selectors: {}
EOF
run_qmigrate 1 policy check "$TMP/bad"
one_line_err "qmigrate policy check: policy $TMP/bad/two.yaml: document 2: spec.bandwidthPerMigraton: unknown field"
[ ! -s "$TMP/out" ] || fail "a refused directory printed: $(cat "$TMP/out")"
# The user guide's example leaves "true" unquoted; the API server refuses
# a boolean label value, and so does qmigrate, saying how to fix it.
cat >"$TMP/bad/two.yaml" <<'EOF'
apiVersion: migrations.kubevirt.io/v1alpha1
kind: MigrationPolicy
metadata:
  name: my-awesome-policy
spec:
  allowAutoConverge: true
  bandwidthPerMigration: 217Ki
  completionTimeoutPerGiB: 23
  allowPostCopy: false
  selectors:
    namespaceSelector:
      hpc-workloads: true
    virtualMachineInstanceSelector:
      workload-type: db
EOF
run_qmigrate 1 policy explain --policy "$TMP/bad" --label workload-type=db
one_line_err "policy $TMP/bad/two.yaml: document 1: spec.selectors.namespaceSelector.hpc-workloads: expected a string, got true (quote it: YAML reads it as a boolean or a number)"
# Two policies with the same selectors: KubeVirt's admission accepts
# them, and its controller picks the smaller name.
cat >"$TMP/bad/two.yaml" <<'EOF'
apiVersion: migrations.kubevirt.io/v1alpha1
kind: MigrationPolicy
metadata:
  name: db-again
spec:
  selectors:
    virtualMachineInstanceSelector:
      workload-type: db
EOF
run_qmigrate 0 policy explain --policy "$TMP/bad" --label workload-type=db
expect_out "policy \"db\" ($TMP/bad/db.yaml, document 1) applies: 1 label matched (workload-type=db)"
expect_out "policy \"db-again\" ($TMP/bad/two.yaml, document 1) also matches 1 label, 1 of them the VM's, but \"db\" sorts first by name"
printf 'a: &x {}\nb: *x\n' >"$TMP/bad/two.yaml"
run_qmigrate 1 policy check "$TMP/bad"
one_line_err "policy $TMP/bad/two.yaml: line 2, column 4: YAML aliases (*x) are not supported"

# The flags reach every command that selects a policy.
for c in "migrate --to unix:$TMP/none --qmp $TMP/none.qmp" \
    "incoming --listen unix:$TMP/none --qmp $TMP/none.qmp" \
    "evict --to unix:$TMP/none --qmp $TMP/none.qmp" \
    "check --qmp $TMP/none.qmp" "dirty-rate --qmp $TMP/none.qmp" \
    "policy explain"; do
	# shellcheck disable=SC2086 # c is a command and its flags
	run_qmigrate 1 $c --vmi "$TMP/missing.yaml"
	expect_err "vmi $TMP/missing.yaml: No such file or directory"
	# shellcheck disable=SC2086
	run_qmigrate 1 $c --namespace-label priority
	expect_err "label \"priority\": expected KEY=VALUE"
	# shellcheck disable=SC2086
	run_qmigrate 1 $c --namespace-labels-file "$TMP/bad/two.yaml"
	expect_err "namespace labels $TMP/bad/two.yaml: line 2, column 4: YAML aliases (*x) are not supported"
done
run_qmigrate 1 drain --inventory "$TMP/none.json" --namespace-label priority
expect_err "label \"priority\": expected KEY=VALUE"

echo "policy-kube: ok"
