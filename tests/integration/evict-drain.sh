#!/usr/bin/env bash
# evict-drain.sh: qmigrate drain evacuates 4 memguests (LiveMigrate) with
# --max-parallel 2: all moved, memory checkers clean, and never more than
# 2 evictions at once (from the children's own status files: each
# eviction's [startTimestamp, endTimestamp] covers its migration).
. "$top_srcdir/tests/lib.sh"
need_cmd "$QEMU" date sort
[ -x "$QMIGRATE" ] || fail "qmigrate not built: $QMIGRATE"
setup_tmp

mkdir "$TMP/policies"
cat >"$TMP/policies/live.json" <<JSON
{ "name": "live", "selector": { "labels": { "tier": "live" } },
  "evictionStrategy": "LiveMigrate", "migration": { "convergence": "kubevirt" } }
JSON

vms=(vm1 vm2 vm3 vm4)
inv="["
for v in "${vms[@]}"; do
	start_memguest "$v" 32 10
	start_memguest_incoming "$v-dst" 32
	bg_start "$v-inc" "$QMIGRATE" incoming --qmp "$TMP/$v-dst.qmp" \
		--listen "unix:$TMP/$v.mig"
	inv+="{\"name\": \"$v\", \"qmp\": \"$TMP/$v.qmp\", \"to\": \"unix:$TMP/$v.mig\","
	inv+=" \"labels\": {\"tier\": \"live\"}, \"statusFile\": \"$TMP/$v.status\"},"
done
inv="${inv%,}]"
echo "$inv" >"$TMP/inventory.json"
for v in "${vms[@]}"; do
	wait_for 10 "incoming socket of $v" test -S "$TMP/$v.mig"
done

# A bad inventory is refused naming the file, the index and the field;
# so is a label name each child would read as another label (--label
# a=b=c is a = b=c), as every label is, before anything runs.
echo '[{"name": "x", "qmp": "/q", "to": "unix:/t", "colour": "red"}]' >"$TMP/bad.json"
run_qmigrate 1 drain --inventory "$TMP/bad.json"
one_line_err "inventory $TMP/bad.json: [0]: unknown field \"colour\""
echo '[{"name": "x", "qmp": "/q", "to": "unix:/t", "labels": {"a=b": "c"}}]' >"$TMP/bad.json"
run_qmigrate 1 drain --inventory "$TMP/bad.json"
one_line_err "inventory $TMP/bad.json: [0]: labels: \"a=b\": bad label name"

rc=0
"$QMIGRATE" drain --inventory "$TMP/inventory.json" --max-parallel 2 \
	--slot-dir "$TMP/slots" --policy "$TMP/policies" \
	>"$TMP/drain.out" 2>"$TMP/drain.err" || rc=$?
[ "$rc" -eq 0 ] || fail "drain: exit $rc: $(cat "$TMP/drain.out" "$TMP/drain.err")"
grep -q '^drain: 4 VMs: 4 migrated, 0 shut down, 0 left to an external controller, 0 left behind$' \
	"$TMP/drain.out" || fail "drain summary: $(cat "$TMP/drain.out")"

# At most 2 at once: sweep the eviction intervals (ends before starts on
# a tie: a slot is free once its holder has exited).
events=()
for v in "${vms[@]}"; do
	f=$TMP/$v.status
	grep -Eq '"phase": ?"Succeeded"' "$f" || fail "$v: not Succeeded: $(cat "$f")"
	s=$(grep -Eo '"startTimestamp": ?"[^"]+"' "$f" | grep -Eo '[0-9]{4}-[^"]+')
	e=$(grep -Eo '"endTimestamp": ?"[^"]+"' "$f" | grep -Eo '[0-9]{4}-[^"]+')
	[ -n "$s" ] && [ -n "$e" ] || fail "$v: no timestamps in $f"
	events+=("$(date -d "$s" +%s%3N) 1" "$(date -d "$e" +%s%3N) 0")
done
max=0 cur=0
while read -r t kind; do
	if [ "$kind" = 1 ]; then cur=$((cur + 1)); else cur=$((cur - 1)); fi
	[ "$cur" -le "$max" ] || max=$cur
done < <(printf '%s\n' "${events[@]}" | sort -n -k1,1 -k2,2)
[ "$max" -le 2 ] || fail "$max evictions ran at once with --max-parallel 2"
[ "$max" -eq 2 ] || fail "only $max eviction at a time: --max-parallel 2 unused"
# Slots are taken after each child's setup, so two evictions whose
# intervals overlap may still have held one slot in turn (a loaded
# machine: the first migrated before the second's setup ended): slot-1
# is not required, slot-2 never exists.
[ -e "$TMP/slots/slot-0" ] && [ ! -e "$TMP/slots/slot-2" ] ||
	fail "slot files: $(ls "$TMP/slots")"

for v in "${vms[@]}"; do
	rc=0
	bg_wait "$v-inc" 30 || rc=$?
	[ "$rc" -eq 0 ] || fail "incoming of $v: exit $rc"
	assert_memory_intact "$TMP/$v-dst.serial"
	assert_no_corrupt "$TMP/$v.serial"
done
echo "PASS: drain of 4 guests, at most 2 at once, all moved, no corruption"
