#!/usr/bin/env bash
# evict-drain-external.sh: a drain never reports a node evacuated while VMs
# still run on it.  A VM whose policy says External is handed to an
# external controller and keeps running here: drain lists it and exits 7,
# even though the other VM migrated.  A VM left behind for another reason
# (LiveMigrate of a blocked VM, exit 2) outweighs the handed-over one.
. "$top_srcdir/tests/lib.sh"
need_cmd "$QEMU" jq
[ -x "$QMIGRATE" ] || fail "qmigrate not built: $QMIGRATE"
setup_tmp
shm=/dev/shm/qm-drain-ext-$$
lib_on_exit 'rm -f "$shm"'

mkdir "$TMP/policies"
for s in LiveMigrate:live External:ext; do
	cat >"$TMP/policies/${s#*:}.json" <<JSON
{ "name": "${s#*:}", "selector": { "labels": { "tier": "${s#*:}" } },
  "evictionStrategy": "${s%%:*}" }
JSON
done

# vm NAME TIER: one inventory entry.
vm() {
	printf '{"name": "%s", "qmp": "%s", "to": "unix:%s", "labels": {"tier": "%s"}, "statusFile": "%s"}' \
		"$1" "$TMP/$1.qmp" "$TMP/$1.mig" "$2" "$TMP/$1.status"
}

# drain INVENTORY-JSON: runs drain on it; its exit status in rc.
drain() {
	echo "$1" >"$TMP/inventory.json"
	rc=0
	"$QMIGRATE" drain --inventory "$TMP/inventory.json" --policy "$TMP/policies" \
		--slot-dir "$TMP/slots" --node node-a >"$TMP/drain.out" 2>"$TMP/drain.err" || rc=$?
}

# still_here NAME: QEMU NAME runs its guest, every page intact.
still_here() {
	qmp "$1" query-status | jq -e '.status == "running"' >/dev/null ||
		fail "$1 is not running here: $(qmp "$1" query-status)"
	assert_memory_intact "$TMP/$1.serial"
}

# 1. One VM migrates, one is handed over: not empty, exit 7.
start_memguest live 16 10
start_memguest_incoming live-dst 16
bg_start live-inc "$QMIGRATE" incoming --qmp "$TMP/live-dst.qmp" --listen "unix:$TMP/live.mig"
wait_for 10 "the incoming socket" test -S "$TMP/live.mig"
start_memguest ext 16 10
drain "[$(vm live live), $(vm ext ext)]"
[ "$rc" -eq 7 ] || fail "drain with a VM left to an external controller: exit $rc, expected 7: $(cat "$TMP/drain.out" "$TMP/drain.err")"
for want in \
	"left to an external controller: ext: still runs on this node (status $TMP/ext.status)" \
	'drain: 2 VMs: 1 migrated, 0 shut down, 1 left to an external controller, 0 left behind' \
	'drain: the node is not empty: 1 VMs left on it'; do
	grep -qxF "$want" "$TMP/drain.out" || fail "drain: no \"$want\" in: $(cat "$TMP/drain.out")"
done
[ "$(jq -r .phase "$TMP/ext.status")" = HandedOver ] || fail "ext: $(cat "$TMP/ext.status")"
still_here ext
rc=0
bg_wait live-inc 30 || rc=$?
[ "$rc" -eq 0 ] || fail "incoming of live: exit $rc: $(cat "$TMP/live-inc.err")"
assert_memory_intact "$TMP/live-dst.serial"

# 2. A blocked VM left behind (exit 2) and one handed over: exit 2.
start_memguest blk 16 10 \
	-object "memory-backend-file,id=hm,size=1M,mem-path=$shm,share=on" \
	-device ivshmem-plain,memdev=hm,master=off
drain "[$(vm blk live), $(vm ext ext)]"
[ "$rc" -eq 2 ] || fail "drain with a blocked VM and an external one: exit $rc, expected 2: $(cat "$TMP/drain.out")"
grep -qxF 'drain: 2 VMs: 0 migrated, 0 shut down, 1 left to an external controller, 1 left behind' \
	"$TMP/drain.out" || fail "drain: $(cat "$TMP/drain.out")"
grep -q '^left behind: blk: exit 2: ' "$TMP/drain.out" || fail "drain: $(cat "$TMP/drain.out")"
still_here blk
still_here ext
echo "PASS: drain exits 7 with a VM handed over, 2 when a VM is refused; both still run here"
