#!/usr/bin/env bash
# policy-kube.sh: KubeVirt's own objects handed to qmigrate as an operator
# keeps them (no QEMU needed): a directory of MigrationPolicy YAML files;
# KubeVirt's documented precedence example, winner by winner, through
# `policy explain`; a KubeVirt object's cluster defaults; --vmi and
# namespace labels; multi-document files and lists; the errors; and the
# same flags on every command that selects a policy.
set -euo pipefail

: "${QMIGRATE:?QMIGRATE must name the qmigrate binary}"
: "${top_srcdir:?top_srcdir must name the source tree}"
[ -x "$QMIGRATE" ] || { echo "FAIL: $QMIGRATE is not executable" >&2; exit 1; }
command -v jq >/dev/null || { echo "FAIL: jq is needed" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kv=$top_srcdir/tests/kubevirt

fail() { echo "FAIL: $*" >&2; exit 1; }

# run EXPECTED-STATUS ARGS...: runs qmigrate, output in $tmp/out, $tmp/err.
run() {
	local want=$1 rc=0; shift
	"$QMIGRATE" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -ne "$want" ]; then
		cat "$tmp/out" "$tmp/err" >&2
		fail "qmigrate $*: exit $rc, expected $want"
	fi
}

expect_out() { grep -qF -- "$1" "$tmp/out" || { cat "$tmp/out" >&2; fail "stdout lacks: $1"; }; }
expect_err() { grep -qF -- "$1" "$tmp/err" || { cat "$tmp/err" >&2; fail "stderr lacks: $1"; }; }
one_line_err() {
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "expected one line: $(cat "$tmp/err")"
	expect_err "$1"
}

# A directory of KubeVirt MigrationPolicy YAML files is read, not skipped.
run 0 policy check "$kv/precedence"
[ "$(cat "$tmp/out")" = "ok: 7 policies, 1 namespace" ] ||
	fail "check said: $(cat "$tmp/out")"

# The shipped example directory, as policies/README.md shows it.
run 0 policy check "$top_srcdir/policies/kubevirt"
[ "$(cat "$tmp/out")" = "ok: 3 policies, 2 namespaces, cluster defaults from KubeVirt \"kubevirt\" ($top_srcdir/policies/kubevirt/kubevirt.yaml)" ] ||
	fail "check said: $(cat "$tmp/out")"
run 0 policy explain --policy "$top_srcdir/policies/kubevirt" \
	--vmi "$top_srcdir/policies/vmi/database.yaml" --json
[ "$(jq -r .name "$tmp/out")" = database-postcopy ] || fail "example: $(cat "$tmp/out")"
[ "$(jq -r .evictionStrategy "$tmp/out")" = LiveMigrate ] || fail "example: strategy"
[ "$(jq .terminationGracePeriodSeconds "$tmp/out")" = 600 ] || fail "example: the VMI's grace period"
[ "$(jq .migration.parallelMigrationThreads "$tmp/out")" = 4 ] || fail "example: annotation"
[ "$(jq .migration.allowAutoConverge "$tmp/out")" = false ] || fail "example: the policy over the cluster"
[ "$(jq .migration.bandwidthPerMigration "$tmp/out")" = 1073741824 ] || fail "example: 1Gi"

# KubeVirt's documented example: a VMI labelled size=small, os=fedora,
# gpu=nvidia in a namespace labelled priority=high, bandwidth=medium,
# hpc-workload=true, and seven policies numbered by the user guide's
# precedence.  Each must win in turn, in the order KubeVirt's controller
# picks them, as the ones before it are removed; the seventh never does.
# The first two tie on 4 labels, 2 of them the VMI's: the controller
# takes the smaller name, small-gpu-high-hpc (the guide's second).
# The VMI comes from its manifest and its namespace's labels from the
# Namespace manifest beside the policies; then the same from flags.
mkdir "$tmp/prec"
cp "$kv"/precedence/*.yaml "$tmp/prec/"
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
	run 0 policy explain --policy "$tmp/prec" --vmi "$kv/vmi/vmi.yaml"
	expect_out "policy \"$name\" ($tmp/prec/$file.yaml, document 1) applies: $n label"
	expect_out "namespace labels from Namespace hpc ($tmp/prec/namespace.yaml)"
	expect_out "\"bandwidthPerMigration\": $bw,"
	run 0 policy explain --policy "$tmp/prec" --json \
		--labels-file "$kv/vmi/vmi-labels.yaml" \
		--namespace-label priority=high --namespace-label bandwidth=medium \
		--namespace-label hpc-workload=true
	[ "$(jq -r .name "$tmp/out")" = "$name" ] ||
		fail "with flags: $(jq -r .name "$tmp/out"), expected $name"
	[ "$(jq -r .migration.bandwidthPerMigration "$tmp/out")" = "$bw" ] ||
		fail "with flags: bandwidth $(jq .migration.bandwidthPerMigration "$tmp/out")"
	rm "$tmp/prec/$file.yaml"
done
run 0 policy explain --policy "$tmp/prec" --vmi "$kv/vmi/vmi.yaml"
expect_out "no policy matches: the defaults apply"
expect_out "policy \"intel-high\" ($tmp/prec/7-intel-high.yaml, document 1) does not match: label gpu is \"nvidia\", the policy wants \"intel\""

# Why the guide's policy 1 loses to its policy 2: the name, and a note
# that the guide's sorted keys would pick policy 1.
run 0 policy explain --policy "$kv/precedence" --vmi "$kv/vmi/vmi.yaml"
expect_out "policy \"small-gpu-high-medium\" ($kv/precedence/1-small-gpu-high-medium.yaml, document 1) also matches 4 labels, 2 of them the VM's, but \"small-gpu-high-hpc\" sorts first by name"
expect_out "note: KubeVirt's user guide breaks a tie by the sorted label keys and would pick \"small-gpu-high-medium\" ($kv/precedence/1-small-gpu-high-medium.yaml, document 1; keys bandwidth, gpu, priority, size before gpu, hpc-workload, priority, size); its controller, which qmigrate follows, compares no keys"
expect_out "namespace labels from Namespace hpc ($kv/precedence/namespace.yaml), and kubernetes.io/metadata.name=hpc implied from --vmi $kv/vmi/vmi.yaml"

# The same objects in one multi-document stream, and as a kind: List.
mkdir "$tmp/stream"
for f in "$kv"/precedence/*.yaml; do
	echo "---"
	cat "$f"
done >"$tmp/stream/all.yaml"
run 0 policy check "$tmp/stream/all.yaml"
[ "$(cat "$tmp/out")" = "ok: 7 policies, 1 namespace" ] ||
	fail "stream: $(cat "$tmp/out")"
run 0 policy explain --policy "$tmp/stream" --vmi "$kv/vmi/vmi.yaml"
expect_out "policy \"small-gpu-high-hpc\" ($tmp/stream/all.yaml, document 2) applies"
cat >"$tmp/stream/list.yml" <<'EOF'
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
run 0 policy explain --policy "$tmp/stream" --vmi "$kv/vmi/vmi.yaml"
expect_out "policy \"fedora-everywhere\" ($tmp/stream/list.yml, document 1, items[0]) applies: 5 labels matched"
expect_out '"allowAutoConverge": true'

# Cluster defaults from a KubeVirt object: what policies refine.  The
# VMI's own spec.evictionStrategy beats the cluster's.
mkdir "$tmp/cluster"
cat >"$tmp/cluster/kubevirt.yaml" <<'EOF'
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
cat >"$tmp/cluster/db.yaml" <<'EOF'
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
run 0 policy check "$tmp/cluster"
[ "$(cat "$tmp/out")" = "ok: 1 policy, cluster defaults from KubeVirt \"kubevirt\" ($tmp/cluster/kubevirt.yaml)" ] ||
	fail "check said: $(cat "$tmp/out")"
run 0 policy explain --policy "$tmp/cluster" --label workload-type=db --json
[ "$(jq -r .name "$tmp/out")" = db ] || fail "cluster: $(cat "$tmp/out")"
[ "$(jq .migration.completionTimeoutPerGiB "$tmp/out")" = 23 ] || fail "policy's completionTimeoutPerGiB"
[ "$(jq .migration.bandwidthPerMigration "$tmp/out")" = 67108864 ] || fail "cluster's bandwidth"
[ "$(jq .migration.progressTimeout "$tmp/out")" = 300 ] || fail "cluster's progressTimeout"
[ "$(jq .migration.allowWorkloadDisruption "$tmp/out")" = true ] || fail "allowWorkloadDisruption follows allowPostCopy"
[ "$(jq -r .migration.convergence "$tmp/out")" = kubevirt ] || fail "qmigrate.io/convergence"
[ "$(jq -r .evictionStrategy "$tmp/out")" = External ] || fail "cluster's evictionStrategy"
[ "$(jq .cluster.parallelOutboundMigrationsPerNode "$tmp/out")" = 1 ] || fail "parallelOutboundMigrationsPerNode"
cat >"$tmp/vmi-db.yaml" <<'EOF'
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
run 0 policy explain --policy "$tmp/cluster" --vmi "$tmp/vmi-db.yaml"
expect_out "evictionStrategy LiveMigrateIfPossible (from the VMI's spec.evictionStrategy)"
expect_out "cluster defaults: KubeVirt \"kubevirt\" ($tmp/cluster/kubevirt.yaml)"

# evict reads the same: the cluster's External strategy records the
# request, touches nothing (no QEMU needed to see it chosen) and says the
# VM was handed over (exit 7).
run 7 evict --qmp "$tmp/none.qmp" --to "unix:$tmp/none.sock" \
	--policy "$tmp/cluster" --label workload-type=db \
	--status-file "$tmp/evict.json" --node node-a
[ "$(jq -r .eviction.strategy "$tmp/evict.json")" = External ] || fail "evict: $(cat "$tmp/evict.json")"
[ "$(jq -r .eviction.policy "$tmp/evict.json")" = db ] || fail "evict policy"
[ "$(jq -r .eviction.evacuationNodeName "$tmp/evict.json")" = node-a ] || fail "evict node"
# KubeVirt's names: EvictionRequested and evacuationNodeName, in the VMI
# status patch too.
[ "$(jq -r .evacuationNodeName "$tmp/evict.json")" = node-a ] || fail "evacuationNodeName"
run 0 status --status-file "$tmp/evict.json" --format kubevirt
[ "$(jq -r .status.evacuationNodeName "$tmp/out")" = node-a ] || fail "patch: evacuationNodeName"
[ "$(jq -r '.status.conditions[] | select(.type == "EvictionRequested") | .status + " " + .reason' "$tmp/out")" = "True EvictionRequested" ] ||
	fail "patch: EvictionRequested: $(cat "$tmp/out")"
[ "$(jq -r .status.migrationState.sourceNode "$tmp/out")" = node-a ] || fail "patch: sourceNode"

# evict and drain pick by the namespace's labels too: a policy for the
# ops namespace hands its VMs to an external controller (no QEMU needed).
mkdir "$tmp/ns"
cat >"$tmp/ns/ops.yaml" <<'EOF'
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
run 7 evict --qmp "$tmp/none.qmp" --to "unix:$tmp/none.sock" \
	--policy "$tmp/ns" --namespace-label team=ops --node node-a \
	--status-file "$tmp/ns-evict.json"
[ "$(jq -r .eviction.policy "$tmp/ns-evict.json")" = ops-external ] ||
	fail "evict by namespace label: $(cat "$tmp/ns-evict.json")"
# drain: the namespace's labels from a kind: Namespace manifest.
cat >"$tmp/ns-labels.yaml" <<'EOF'
apiVersion: v1
kind: Namespace
metadata:
  name: ops
  labels:
    team: ops
EOF
printf '{"name": "vm1", "qmp": "%s", "to": "unix:%s"}\n' \
	"$tmp/none.qmp" "$tmp/none.sock" | jq -s . >"$tmp/ns-inv.json"
# A cluster allowing more at once than qmigrate's 64 slots: the drain
# takes 64, policy explain says what the cluster says.
cat >"$tmp/ns/kubevirt.yaml" <<'EOF'
apiVersion: kubevirt.io/v1
kind: KubeVirt
metadata: {name: kubevirt}
spec:
  configuration:
    migrations: {parallelMigrationsPerCluster: 500, parallelOutboundMigrationsPerNode: 100}
EOF
run 7 drain --inventory "$tmp/ns-inv.json" --policy "$tmp/ns" \
	--namespace-labels-file "$tmp/ns-labels.yaml" --node node-a \
	--slot-dir "$tmp/slots"
expect_out "1 left to an external controller"
expect_err "at most 64 at once"
# The same from the inventory entry's own namespaceLabels.
printf '{"name": "vm1", "qmp": "%s", "to": "unix:%s", "namespaceLabels": {"team": "ops"}}\n' \
	"$tmp/none.qmp" "$tmp/none.sock" | jq -s . >"$tmp/ns-inv2.json"
run 7 drain --inventory "$tmp/ns-inv2.json" --policy "$tmp/ns" \
	--node node-a --slot-dir "$tmp/slots"
expect_out "1 left to an external controller"
run 0 policy explain --policy "$tmp/ns" --json
[ "$(jq -c '[.cluster.parallelMigrationsPerCluster, .cluster.parallelOutboundMigrationsPerNode]' "$tmp/out")" = "[500,100]" ] ||
	fail "cluster limits: $(jq -c .cluster "$tmp/out")"

# Errors: one line naming the file, the document and the field; the
# whole directory refused.
mkdir "$tmp/bad"
cp "$tmp/cluster/db.yaml" "$tmp/bad/"
cat >"$tmp/bad/two.yaml" <<'EOF'
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
run 1 policy check "$tmp/bad"
one_line_err "qmigrate policy: policy $tmp/bad/two.yaml: document 2: spec.bandwidthPerMigraton: unknown field"
[ ! -s "$tmp/out" ] || fail "a refused directory printed: $(cat "$tmp/out")"
# The user guide's example leaves "true" unquoted; the API server refuses
# a boolean label value, and so does qmigrate, saying how to fix it.
cat >"$tmp/bad/two.yaml" <<'EOF'
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
run 1 policy explain --policy "$tmp/bad" --label workload-type=db
one_line_err "policy $tmp/bad/two.yaml: document 1: spec.selectors.namespaceSelector.hpc-workloads: expected a string, got true (quote it: YAML reads it as a boolean or a number)"
# Two policies with the same selectors: KubeVirt's admission accepts
# them, and its controller picks the smaller name.
cat >"$tmp/bad/two.yaml" <<'EOF'
apiVersion: migrations.kubevirt.io/v1alpha1
kind: MigrationPolicy
metadata:
  name: db-again
spec:
  selectors:
    virtualMachineInstanceSelector:
      workload-type: db
EOF
run 0 policy explain --policy "$tmp/bad" --label workload-type=db
expect_out "policy \"db\" ($tmp/bad/db.yaml, document 1) applies: 1 label matched (workload-type=db)"
expect_out "policy \"db-again\" ($tmp/bad/two.yaml, document 1) also matches 1 label, 1 of them the VM's, but \"db\" sorts first by name"
printf 'a: &x {}\nb: *x\n' >"$tmp/bad/two.yaml"
run 1 policy check "$tmp/bad"
one_line_err "policy $tmp/bad/two.yaml: line 2, column 4: YAML aliases (*x) are not supported"

# The flags reach every command that selects a policy.
for c in "migrate --to unix:$tmp/none --qmp $tmp/none.qmp" \
    "incoming --listen unix:$tmp/none --qmp $tmp/none.qmp" \
    "evict --to unix:$tmp/none --qmp $tmp/none.qmp" \
    "check --qmp $tmp/none.qmp" "dirty-rate --qmp $tmp/none.qmp" \
    "policy explain"; do
	# shellcheck disable=SC2086 # c is a command and its flags
	run 1 $c --vmi "$tmp/missing.yaml"
	expect_err "vmi $tmp/missing.yaml: No such file or directory"
	# shellcheck disable=SC2086
	run 1 $c --namespace-label priority
	expect_err "label \"priority\": expected KEY=VALUE"
	# shellcheck disable=SC2086
	run 1 $c --namespace-labels-file "$tmp/bad/two.yaml"
	expect_err "namespace labels $tmp/bad/two.yaml: line 2, column 4: YAML aliases (*x) are not supported"
done
run 1 drain --inventory "$tmp/none.json" --namespace-label priority
expect_err "label \"priority\": expected KEY=VALUE"

echo "policy-kube: ok"
