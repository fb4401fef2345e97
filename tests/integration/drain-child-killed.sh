#!/usr/bin/env bash
# drain-child-killed.sh: a drain whose `qmigrate evict` child is SIGKILLed
# mid-migration, then the same drain again (audit D13, D26).  Over unix:
# QEMU migrates on without the child, so where the VM runs is not known:
# the drain says 8 for it (it said 4, "the guest still runs on the
# source").  The drain run again keeps the inventory's statusFile (it was
# deleted before each spawn, destroying the record the child re-attaches
# with): the new child re-attaches to the killed one's migration (same
# migrationUid) and reports its success, and the drain exits 0, the guest
# on the target, intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd pgrep
setup_tmp

# Slow enough to be killed mid-way: 64 MiB at 8 MiB/s (a guest writing 1 MB/s).
cat >"$TMP/live.json" <<JSON
{ "name": "live", "evictionStrategy": "LiveMigrate",
  "migration": { "bandwidthPerMigration": "8Mi" } }
JSON
mig_start_pair 64 1
bg_start inc "$QMIGRATE" incoming --qmp "$TMP/dst.qmp" --listen "unix:$TMP/mig.sock" \
	--status-file "$TMP/dst.status"
wait_for 30 "the incoming socket" test -S "$TMP/mig.sock"
st=$TMP/vm.status
printf '[{"name": "vm", "qmp": "%s", "to": "unix:%s", "statusFile": "%s"}]\n' \
	"$TMP/src.qmp" "$TMP/mig.sock" "$st" >"$TMP/inventory.json"

# moving: the child's migration has moved 4 MiB and goes on.
moving() {
	local done
	done=$(status_get "$st" .progress.dataProcessed)
	[ "${done:-0}" -ge $((4 * 1024 * 1024)) ] 2>/dev/null &&
		[ "$(status_get "$st" .phase)" = Running ]
}

bg_start drain1 "$QMIGRATE" drain --inventory "$TMP/inventory.json" \
	--slot-dir "$TMP/slots" --policy "$TMP/live.json"
wait_for 60 "the child's migration under way" moving
uid=$(status_get "$st" .migrationUid)
child=$(pgrep -P "$(guest_pid drain1)")
[ -n "$child" ] || fail "no child of the drain"
kill -KILL "$child"
rc=0
bg_wait drain1 30 || rc=$?
[ "$rc" -eq 8 ] || fail "drain: exit $rc, expected 8 (not known): $(cat "$TMP/drain1.out")"
grep -q '^left behind: vm: exit 8: qmigrate evict killed by signal 9: where the VM runs is not known' \
	"$TMP/drain1.out" || fail "drain's summary: $(cat "$TMP/drain1.out")"
[ -s "$st" ] || fail "the status file is gone"
echo "ok: drain1: exit 8, $(grep '^left behind' "$TMP/drain1.out")"

# The same drain again: it re-attaches with the record the child left.
rc=0
"$QMIGRATE" drain --inventory "$TMP/inventory.json" --slot-dir "$TMP/slots" \
	--policy "$TMP/live.json" >"$TMP/drain2.out" 2>"$TMP/drain2.err" || rc=$?
[ "$rc" -eq 0 ] || fail "drain again: exit $rc: $(cat "$TMP/drain2.out" "$TMP/vm.status.log")"
grep -q '^drain: 1 VMs: 1 migrated, 0 shut down, 0 left to an external controller, 0 left behind$' \
	"$TMP/drain2.out" || fail "drain again: $(cat "$TMP/drain2.out")"
expect_status "$st" .phase Succeeded
expect_status "$st" .migrationUid "$uid"
grep -q "re-attach" "$TMP/vm.status.log" || fail "the child did not re-attach: $(cat "$TMP/vm.status.log")"
rc=0
bg_wait inc 60 || rc=$?
[ "$rc" -eq 0 ] || fail "incoming: exit $rc"
assert_memory_intact "$TMP/dst.serial"
echo "ok: drain2: exit 0, re-attached to migration $uid"
