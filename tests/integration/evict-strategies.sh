#!/usr/bin/env bash
# evict-strategies.sh: qmigrate evict under each eviction strategy, with
# real QEMU: None powers the real Linux guest off through its real guest
# agent; LiveMigrate moves a memguest (no corruption, the target keeps
# counting) and refuses a blocked one (exit 2, left running);
# LiveMigrateIfPossible shuts a blocked guest down (quit after the grace
# period: memguest has no ACPI); External touches nothing and says the VM
# is still here (phase HandedOver, exit 7).
. "$top_srcdir/tests/lib.sh"
need_cmd "$QEMU" jq
[ -x "$QMIGRATE" ] || fail "qmigrate not built: $QMIGRATE"
setup_tmp
shm=/dev/shm/qm-evict-$$
lib_on_exit 'rm -f "$shm"'
blocker=(-object "memory-backend-file,id=hm,size=1M,mem-path=$shm,share=on"
	-device ivshmem-plain,memdev=hm,master=off)

P=$TMP/policies
mkdir "$P"
for s in None:none LiveMigrate:live LiveMigrateIfPossible:maybe External:ext; do
	cat >"$P/${s#*:}.json" <<JSON
{ "name": "${s#*:}", "selector": { "labels": { "tier": "${s#*:}" } },
  "evictionStrategy": "${s%%:*}", "terminationGracePeriodSeconds": 3 }
JSON
done

# status_has FILE REGEX: the status document matches REGEX (one line).
status_has() {
	grep -Eq -- "$2" "$1" || fail "$1: no /$2/ in: $(cat "$1")"
}

# None: guest-shutdown through the agent; QEMU exits by itself.
start_linux_guest lg
rc=0
"$QMIGRATE" evict --qmp "$TMP/lg.qmp" --qga "$TMP/lg.qga" \
	--to "unix:$TMP/unused.sock" --policy "$P" --label tier=none \
	--status-file "$TMP/none.status" >"$TMP/none.out" 2>"$TMP/none.err" || rc=$?
[ "$rc" -eq 0 ] || fail "evict None: exit $rc: $(cat "$TMP/none.err")"
wait_guest_exit lg 30
status_has "$TMP/none.status" '"strategy": ?"None"'
status_has "$TMP/none.status" '"policy": ?"none"'
status_has "$TMP/none.status" '"method": ?"guest-shutdown"'
status_has "$TMP/none.status" '"forced": ?false'
status_has "$TMP/none.status" '"phase": ?"Succeeded"'

# LiveMigrate: the guest moves; the target keeps counting, uncorrupted.
start_memguest src 32 20
start_memguest_incoming dst 32
bg_start inc "$QMIGRATE" incoming --qmp "$TMP/dst.qmp" --listen "unix:$TMP/mig.sock"
wait_for 10 "the incoming socket" test -S "$TMP/mig.sock"
rc=0
"$QMIGRATE" evict --qmp "$TMP/src.qmp" --to "unix:$TMP/mig.sock" \
	--policy "$P" --label tier=live --status-file "$TMP/live.status" \
	--node node-a >"$TMP/live.out" 2>"$TMP/live.err" || rc=$?
[ "$rc" -eq 0 ] || fail "evict LiveMigrate: exit $rc: $(cat "$TMP/live.err")"
rc=0
bg_wait inc 30 || rc=$?
[ "$rc" -eq 0 ] || fail "incoming: exit $rc: $(cat "$TMP/inc.err")"
status_has "$TMP/live.status" '"strategy": ?"LiveMigrate"'
status_has "$TMP/live.status" '"action": ?"migrate"'
status_has "$TMP/live.status" '"phase": ?"Succeeded"'
# KubeVirt's names in the VMI status patch: the pre-flight's
# LiveMigratable; the VM has left node-a, so as virt-handler and
# virt-controller do, evacuationNodeName is cleared (null) and the
# EvictionRequested condition dropped.
"$QMIGRATE" status --status-file "$TMP/live.status" --format kubevirt \
	>"$TMP/live.patch" || fail "status --format kubevirt failed"
cond() { jq -r --arg t "$1" '.status.conditions[] | select(.type == $t) |
    .status + " " + (.reason // "")' "$TMP/live.patch"; }
[ -z "$(cond EvictionRequested)" ] ||
	fail "LiveMigrate: EvictionRequested after the VM left: $(cat "$TMP/live.patch")"
[ "$(cond LiveMigratable)" = "True " ] ||
	fail "LiveMigrate: LiveMigratable: $(cat "$TMP/live.patch")"
[ "$(jq -c '.status | [has("evacuationNodeName"), .evacuationNodeName]' "$TMP/live.patch")" = '[true,null]' ] ||
	fail "LiveMigrate: evacuationNodeName not cleared: $(cat "$TMP/live.patch")"
[ "$(jq -r .status.migrationState.sourceNode "$TMP/live.patch")" = node-a ] ||
	fail "LiveMigrate: sourceNode: $(cat "$TMP/live.patch")"
assert_memory_intact "$TMP/dst.serial"
assert_no_corrupt "$TMP/src.serial"
kill_guest src
kill_guest dst

# LiveMigrate of a VM that cannot move: exit 2, every reason, untouched.
start_memguest blk 16 10 "${blocker[@]}"
rc=0
"$QMIGRATE" evict --qmp "$TMP/blk.qmp" --to "unix:$TMP/none.sock" \
	--policy "$P" --label tier=live --status-file "$TMP/blk.status" \
	>"$TMP/blk.out" 2>"$TMP/blk.err" || rc=$?
[ "$rc" -eq 2 ] || fail "evict LiveMigrate of a blocked VM: exit $rc, expected 2"
grep -q 'MigrationBlocked' "$TMP/blk.err" || fail "no reason: $(cat "$TMP/blk.err")"
status_has "$TMP/blk.status" '"strategy": ?"LiveMigrate"'
qmp blk query-status | grep -Eq '"status": ?"running"' || fail "blocked VM not running"
assert_memory_intact "$TMP/blk.serial"

# External: recorded, nothing touched, handed over: the VM is still here,
# and neither the exit status nor the status document says it is done.
rc=0
"$QMIGRATE" evict --qmp "$TMP/blk.qmp" --to "unix:$TMP/none.sock" \
	--policy "$P" --label tier=ext --node node-a \
	--status-file "$TMP/ext.status" >"$TMP/ext.out" 2>"$TMP/ext.err" || rc=$?
[ "$rc" -eq 7 ] || fail "evict External: exit $rc, expected 7: $(cat "$TMP/ext.err")"
status_has "$TMP/ext.status" '"strategy": ?"External"'
status_has "$TMP/ext.status" '"evictionRequested": ?true'
status_has "$TMP/ext.status" '"evacuationNodeName": ?"node-a"'
status_has "$TMP/ext.status" '"phase": ?"HandedOver"'
status_has "$TMP/ext.status" '"completed": ?false'
status_has "$TMP/ext.status" '"exitCode": ?7'
status_has "$TMP/ext.status" '"endTimestamp": ?"'
status_has "$TMP/ext.status" 'handed to an external controller \(evictionStrategy External\): the VM still runs on node node-a'
grep -q 'the VM still runs on node node-a' "$TMP/ext.err" ||
	fail "evict External: stderr does not say the VM is still here: $(cat "$TMP/ext.err")"
qmp blk query-status | grep -Eq '"status": ?"running"' || fail "External touched the VM"
assert_memory_intact "$TMP/blk.serial"

# LiveMigrateIfPossible, blocked: shut down; memguest ignores the power
# button, so QEMU is quit after the 3 s grace period.
rc=0
"$QMIGRATE" evict --qmp "$TMP/blk.qmp" --to "unix:$TMP/none.sock" \
	--policy "$P" --label tier=maybe --status-file "$TMP/maybe.status" \
	>"$TMP/maybe.out" 2>"$TMP/maybe.err" || rc=$?
[ "$rc" -eq 0 ] || fail "evict LiveMigrateIfPossible: exit $rc: $(cat "$TMP/maybe.err")"
wait_guest_exit blk 10
status_has "$TMP/maybe.status" '"strategy": ?"LiveMigrateIfPossible"'
status_has "$TMP/maybe.status" '"action": ?"shutdown"'
status_has "$TMP/maybe.status" '"actionReason": ?"[^"]*cannot move: MigrationBlocked'
status_has "$TMP/maybe.status" '"method": ?"system_powerdown"'
status_has "$TMP/maybe.status" '"forced": ?true'
echo "PASS: evict None, LiveMigrate (moved, refused), External, LiveMigrateIfPossible"
