#!/usr/bin/env bash
# check-reasons.sh: KubeVirt's non-migratable reasons that this machine's
# QEMU can be made to show, each on a guest of its own, through `qmigrate
# check` (exit 2, the reason in its condition) and, for one, `qmigrate
# migrate` (refused before anything moves, the guest untouched):
#   VirtIOFSNotLiveMigratable               a real virtiofsd
#   PersistentReservationNotLiveMigratable  a real qemu-pr-helper
#   HotplugNotLiveMigratable                a device_add
#   BlockJobNotLiveMigratable               a backup job held at 1 KiB/s
#   NoTSCFrequencyNotLiveMigratable         -cpu ...,hv-reenlightenment=on
#   HypervPassthroughNotLiveMigratable      -cpu ...,hv-passthrough=on
#   CPUModeLiveMigratable (a warning)       -cpu max
# The others (a VFIO device, SEV, TDX, Secure Execution, a vDPA NIC) need
# hardware this machine lacks: tests/unit/test-preflight.c replays
# recorded QOM trees for them.
# Also: the policy check applies is picked from KubeVirt manifests by the
# namespace's labels (--vmi, --namespace-label, --namespace-labels-file).
. "$top_srcdir/tests/lib.sh"
VIRTIOFSD=/usr/lib/qemu/virtiofsd
need_cmd "$QEMU" jq qemu-img qemu-pr-helper
need_file "$VIRTIOFSD" "virtiofsd (Debian package qemu-system-common)"
[ -x "$QMIGRATE" ] || fail "qmigrate not built: $QMIGRATE"
setup_tmp

# check_reason NAME REASON CONDITION: qmigrate check on guest NAME exits 2
# and its CONDITION (LiveMigratable, StorageLiveMigratable) names REASON.
check_reason() {
	local rc=0
	"$QMIGRATE" check --qmp "$TMP/$1.qmp" --json >"$TMP/$1.check" \
		2>"$TMP/$1.check.err" || rc=$?
	[ "$rc" -eq 2 ] || fail "$1: check exited $rc, expected 2: $(cat "$TMP/$1.check" "$TMP/$1.check.err")"
	jq -e --arg c "$3" --arg r "$2" '.conditions[] | select(.type == $c) |
	    .status == "False" and ([.reasons[].reason] | index($r) != null)' \
		"$TMP/$1.check" >/dev/null ||
		fail "$1: $3 does not name $2: $(cat "$TMP/$1.check")"
	echo "ok: $1: $2"
}

# virtiofs: a real daemon; vhost-user needs guest memory QEMU can share.
mkdir "$TMP/share"
bg_start virtiofsd "$VIRTIOFSD" --socket-path="$TMP/vfs.sock" \
	-o source="$TMP/share" -o cache=none
wait_for 10 "virtiofsd socket" test -S "$TMP/vfs.sock"
start_memguest vfs 16 0 -machine memory-backend=mem \
	-object memory-backend-memfd,id=mem,size=80M,share=on \
	-chardev "socket,id=vfs,path=$TMP/vfs.sock" \
	-device vhost-user-fs-pci,chardev=vfs,tag=share
check_reason vfs VirtIOFSNotLiveMigratable LiveMigratable
# One reason per device, not one per QOM node of it.
[ "$(jq '[.conditions[0].reasons[] | select(.reason == "VirtIOFSNotLiveMigratable")] | length' "$TMP/vfs.check")" -eq 1 ] ||
	fail "virtiofs reported more than once: $(cat "$TMP/vfs.check")"

# SCSI persistent reservations: a real qemu-pr-helper.
bg_start prhelper qemu-pr-helper -k "$TMP/pr.sock"
wait_for 10 "qemu-pr-helper socket" test -S "$TMP/pr.sock"
start_memguest pr 16 0 -object "pr-manager-helper,id=pr0,path=$TMP/pr.sock"
check_reason pr PersistentReservationNotLiveMigratable LiveMigratable
check_reason pr PersistentReservationNotLiveMigratable StorageLiveMigratable

# Hot-plug: a device the target's command line would not have.  Before
# the device_add the guest moves; after it, migrate refuses (exit 2) and
# the guest runs on.
start_memguest hot 16 5
rc=0
"$QMIGRATE" check --qmp "$TMP/hot.qmp" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "hot: not live-migratable before any hot-plug (exit $rc)"
qmp hot device_add '{"driver": "virtio-rng-pci", "id": "rng0"}' >/dev/null
check_reason hot HotplugNotLiveMigratable LiveMigratable
grep -q '/machine/peripheral/rng0 (virtio-rng-pci) was hot-plugged' "$TMP/hot.check" ||
	fail "hot: the reason does not name the device: $(cat "$TMP/hot.check")"
rc=0
"$QMIGRATE" migrate --qmp "$TMP/hot.qmp" --to "unix:$TMP/nowhere.sock" \
	--status-file "$TMP/hot.status" >/dev/null 2>"$TMP/hot.mig.err" || rc=$?
[ "$rc" -eq 2 ] || fail "hot: migrate exited $rc, expected 2: $(cat "$TMP/hot.mig.err")"
grep -q HotplugNotLiveMigratable "$TMP/hot.mig.err" ||
	fail "hot: migrate does not say why: $(cat "$TMP/hot.mig.err")"
[ "$(qmp hot query-status | jq -r .status)" = running ] || fail "hot: the guest stopped"
wait_progress "$TMP/hot.serial" 20

# A block job: a backup held at 1 KiB/s stays running.
qemu-img create -f qcow2 "$TMP/disk.qcow2" 64M >/dev/null
start_memguest job 16 0 -drive "file=$TMP/disk.qcow2,if=none,id=d0,format=qcow2" \
	-device virtio-blk-pci,drive=d0
qmp job drive-backup "{\"device\": \"d0\", \"job-id\": \"backup0\",
    \"target\": \"$TMP/backup.qcow2\", \"format\": \"qcow2\",
    \"sync\": \"full\", \"speed\": 1024}" >/dev/null
[ "$(qmp job query-block-jobs | jq -r '.[0].status')" = running ] ||
	fail "job: the backup is not running: $(qmp job query-block-jobs)"
check_reason job BlockJobNotLiveMigratable LiveMigratable
grep -q 'block job backup0 (backup) is running' "$TMP/job.check" ||
	fail "job: the reason does not name the job: $(cat "$TMP/job.check")"

# The policy check uses is the one KubeVirt would pick, namespace labels
# included: a KubeVirt policy for the gold namespace says the directory of
# the job guest's disk is shared storage, the bronze one does not.
mkdir "$TMP/kube"
cat >"$TMP/kube/policies.yaml" <<EOF
apiVersion: migrations.kubevirt.io/v1alpha1
kind: MigrationPolicy
metadata:
  name: gold
  annotations:
    qmigrate.io/sharedStoragePaths: $TMP
spec:
  selectors:
    namespaceSelector: {tier: gold}
---
apiVersion: migrations.kubevirt.io/v1alpha1
kind: MigrationPolicy
metadata:
  name: bronze
spec:
  selectors:
    namespaceSelector: {tier: bronze}
EOF
cat >"$TMP/kube/namespaces.yaml" <<'EOF'
apiVersion: v1
kind: Namespace
metadata: {name: prod, labels: {tier: gold}}
EOF
cat >"$TMP/vmi.yaml" <<'EOF'
apiVersion: kubevirt.io/v1
kind: VirtualMachineInstance
metadata: {name: job, namespace: prod}
spec: {domain: {devices: {}}}
EOF
# check_policy WANT-POLICY WANT-DISK-REASONS ARGS...: check on the job guest.
check_policy() {
	local want=$1 disks=$2 rc=0
	shift 2
	"$QMIGRATE" check --qmp "$TMP/job.qmp" --json --policy "$TMP/kube" \
		"$@" >"$TMP/pol.check" 2>&1 || rc=$?
	[ "$rc" -eq 2 ] || fail "check $*: exit $rc: $(cat "$TMP/pol.check")"
	[ "$(jq -r .policy "$TMP/pol.check")" = "$want" ] ||
		fail "check $*: policy $(jq -r .policy "$TMP/pol.check"), expected $want"
	[ "$(jq '[.conditions[0].reasons[] | select(.reason == "DisksNotLiveMigratable")] | length' \
	    "$TMP/pol.check")" -eq "$disks" ] ||
		fail "check $*: expected $disks DisksNotLiveMigratable: $(cat "$TMP/pol.check")"
}
check_policy gold 0 --vmi "$TMP/vmi.yaml"
check_policy bronze 1 --vmi "$TMP/vmi.yaml" --namespace-label tier=bronze
printf 'tier: gold\n' >"$TMP/ns-labels.yaml"
check_policy gold 0 --namespace-labels-file "$TMP/ns-labels.yaml"
check_policy null 1
echo "ok: check selects the policy by namespace labels"

# Hyper-V reenlightenment without a TSC frequency (TCG takes the flag);
# with one, the guest may move.
start_memguest tsc 16 0 -cpu qemu64,hv-reenlightenment=on
check_reason tsc NoTSCFrequencyNotLiveMigratable LiveMigratable
grep -q 'has hv-reenlightenment but no TSC frequency' "$TMP/tsc.check" ||
	fail "tsc: the reason does not say why: $(cat "$TMP/tsc.check")"
# The max CPU model (the host's own under KVM): a warning, not a blocker.
start_memguest tscf 16 0 -cpu max,hv-reenlightenment=on,tsc-frequency=1000000000
rc=0
"$QMIGRATE" check --qmp "$TMP/tscf.qmp" --json >"$TMP/tscf.check" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "tscf: a pinned TSC frequency still refused (exit $rc): $(cat "$TMP/tscf.check")"
jq -e '[.conditions[0].warnings[].reason] | index("CPUModeLiveMigratable") != null' \
	"$TMP/tscf.check" >/dev/null ||
	fail "tscf: no CPUModeLiveMigratable warning for -cpu max: $(cat "$TMP/tscf.check")"
echo "ok: tscf: live-migratable, warning CPUModeLiveMigratable"

# hv-passthrough (TCG takes the flag too).
start_memguest hvp 16 0 -cpu qemu64,hv-passthrough=on
check_reason hvp HypervPassthroughNotLiveMigratable LiveMigratable
echo "PASS: virtiofs, persistent reservations, hot-plug, block jobs, reenlightenment without a TSC frequency and hv-passthrough refused with KubeVirt's reasons, the max CPU model warned of; check picks the namespace's policy"
