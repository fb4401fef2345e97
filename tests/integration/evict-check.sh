#!/usr/bin/env bash
# evict-check.sh: qmigrate check (the pre-flight) against real QEMU: a
# clean guest, QEMU's own blocker (ivshmem peer mode), a local disk and the
# same disk once a policy's sharedStoragePaths covers it; and qmigrate
# migrate refusing the blocked guest (exit 2) and leaving it running.
. "$top_srcdir/tests/lib.sh"
need_cmd "$QEMU" qemu-img
[ -x "$QMIGRATE" ] || fail "qmigrate not built: $QMIGRATE"
setup_tmp
shm=/dev/shm/qm-check-$$
lib_on_exit 'rm -f "$shm"'

# A clean guest: migratable, exit 0, both conditions True.
start_memguest clean 16 0
rc=0
out=$("$QMIGRATE" check --qmp "$TMP/clean.qmp") || rc=$?
[ "$rc" -eq 0 ] || fail "check of a clean guest: exit $rc: $out"
grep -qx 'LiveMigratable: True' <<<"$out" || fail "clean: $out"
grep -qx 'StorageLiveMigratable: True' <<<"$out" || fail "clean: $out"

# QEMU's own blocker and a local writable disk: both reasons, exit 2.
# The empty CD-ROM and the read-only disk do not count.
qemu-img create -f qcow2 "$TMP/disk.qcow2" 16M >/dev/null
qemu-img create -f qcow2 "$TMP/ro.qcow2" 16M >/dev/null
start_memguest blocked 16 10 \
	-object "memory-backend-file,id=hm,size=1M,mem-path=$shm,share=on" \
	-device ivshmem-plain,memdev=hm,master=off \
	-drive "file=$TMP/disk.qcow2,if=virtio" \
	-drive "file=$TMP/ro.qcow2,if=virtio,readonly=on" \
	-drive if=ide,media=cdrom
rc=0
out=$("$QMIGRATE" check --qmp "$TMP/blocked.qmp") || rc=$?
[ "$rc" -eq 2 ] || fail "check of a blocked guest: exit $rc, expected 2: $out"
grep -qx 'LiveMigratable: False' <<<"$out" || fail "blocked: $out"
grep -q "^  MigrationBlocked: .*ivshmem" <<<"$out" ||
	fail "blocked: no MigrationBlocked reason: $out"
grep -q "^  DisksNotLiveMigratable: disk virtio0: $TMP/disk.qcow2 is on a local" <<<"$out" ||
	fail "blocked: no DisksNotLiveMigratable reason for virtio0: $out"
! grep -q "ro.qcow2\|disk ide" <<<"$out" ||
	fail "blocked: a read-only disk or the empty CD-ROM counted: $out"
grep -qx 'StorageLiveMigratable: False' <<<"$out" || fail "blocked: $out"

# --json: the same, machine-readable.
rc=0
json=$("$QMIGRATE" check --qmp "$TMP/blocked.qmp" --json) || rc=$?
[ "$rc" -eq 2 ] || fail "check --json: exit $rc"
for want in '"liveMigratable": false' '"type": "LiveMigratable"' \
	'"reason": "MigrationBlocked"' '"reason": "DisksNotLiveMigratable"' \
	'"type": "StorageLiveMigratable"'; do
	grep -qF "$want" <<<"$json" || fail "check --json: no $want in $json"
done

# A policy whose sharedStoragePaths covers $TMP: the disk is shared, only
# QEMU's blocker remains.
mkdir "$TMP/policies"
cat >"$TMP/policies/shared.json" <<JSON
{ "name": "shared", "selector": { "labels": { "storage": "shared" } },
  "evictionStrategy": "LiveMigrate",
  "migration": { "sharedStoragePaths": ["$TMP"] } }
JSON
rc=0
out=$("$QMIGRATE" check --qmp "$TMP/blocked.qmp" --policy "$TMP/policies" \
	--label storage=shared) || rc=$?
[ "$rc" -eq 2 ] || fail "check with shared storage: exit $rc: $out"
! grep -q DisksNotLiveMigratable <<<"$out" ||
	fail "disk under sharedStoragePaths still counted: $out"
grep -qx 'StorageLiveMigratable: True' <<<"$out" || fail "shared: $out"

# The same disk on a guest without the blocker: migratable with the
# policy, not without it.
start_memguest disk 16 0 -drive "file=$TMP/disk.qcow2,if=virtio,file.locking=off"
rc=0
"$QMIGRATE" check --qmp "$TMP/disk.qmp" >/dev/null || rc=$?
[ "$rc" -eq 2 ] || fail "local disk without a policy: exit $rc, expected 2"
rc=0
out=$("$QMIGRATE" check --qmp "$TMP/disk.qmp" --policy "$TMP/policies" \
	--label storage=shared) || rc=$?
[ "$rc" -eq 0 ] || fail "disk under sharedStoragePaths: exit $rc: $out"

# migrate refuses the blocked guest: exit 2, every reason, guest running.
start_memguest_incoming dst 16 10
rc=0
"$QMIGRATE" migrate --qmp "$TMP/blocked.qmp" --to "unix:$TMP/mig.sock" \
	--status-file "$TMP/mig.status" >"$TMP/mig.out" 2>"$TMP/mig.err" || rc=$?
[ "$rc" -eq 2 ] || fail "migrate of a blocked guest: exit $rc, expected 2: $(cat "$TMP/mig.err")"
grep -q 'MigrationBlocked: .*DisksNotLiveMigratable' "$TMP/mig.err" ||
	fail "migrate: the reasons are not all on stderr: $(cat "$TMP/mig.err")"
grep -Eq '"type": ?"LiveMigratable"' "$TMP/mig.status" ||
	fail "migrate: no conditions in the status file"
grep -Eq '"phase": ?"Failed"' "$TMP/mig.status" || fail "migrate: status not Failed"
st=$(qmp blocked query-status)
grep -Eq '"status": ?"running"' <<<"$st" || fail "blocked guest not running: $st"
assert_memory_intact "$TMP/blocked.serial"
echo "PASS: pre-flight reasons, shared storage, migrate refuses a blocked guest"
