#!/usr/bin/env bash
# check-reasons.sh: KubeVirt's non-migratable reasons that this machine's
# QEMU can be made to show, each on a guest of its own, through `qmigrate
# check` (exit 2, the reason in its condition) and, for one, `qmigrate
# migrate` (refused before anything moves, the guest untouched):
#   VirtIOFSNotLiveMigratable               a real virtiofsd
#   PersistentReservationNotLiveMigratable  a real qemu-pr-helper
#   HotplugNotLiveMigratable                a device_add
#   BlockJobNotLiveMigratable               a backup job held at 1 KiB/s
# The others (a VFIO device, SEV, TDX, Secure Execution, Hyper-V
# passthrough, a vDPA NIC) need hardware or KVM this machine lacks:
# tests/unit/test-preflight.c replays recorded QOM trees for them.
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
echo "PASS: virtiofs, persistent reservations, hot-plug and block jobs refused with KubeVirt's reasons"
