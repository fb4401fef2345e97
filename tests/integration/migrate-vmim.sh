#!/usr/bin/env bash
# migrate-vmim.sh: a migration that carries out a
# VirtualMachineInstanceMigration (--vmim, as kubectl get vmim -o yaml
# prints it) over tls:, both sides given the VMIM and the VMI: the VMIM's
# metadata.uid is the migrationUid of both status documents and its name
# and namespace are in them; `qmigrate status --format kubevirt-migration`
# prints the VMIM's status with one phase timestamp per phase entered, in
# KubeVirt's names, monotonic, each the time the --events line of that
# phase change reports; a VMIM of another VMI is refused.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd openssl jq
setup_tmp

kv=$top_srcdir/tests/kubevirt
uid=6c1e8f7a-2b3d-4e5f-8a9b-0c1d2e3f4a5b
make_pki src dst
port=$((20000 + RANDOM % 20000))

# A VMIM for another VMI than --vmi's: refused before anything starts.
sed 's/vmiName: testvmi/vmiName: othervmi/' "$kv/vmim/vmim.yaml" >"$TMP/other.yaml"
rc=0
"$QMIGRATE" migrate --qmp "$TMP/none.qmp" --to "unix:$TMP/none.sock" \
	--vmi "$kv/vmi/vmi.yaml" --vmim "$TMP/other.yaml" 2>"$TMP/err" || rc=$?
[ "$rc" -eq 1 ] && grep -q "vmim $TMP/other.yaml: spec.vmiName: \"othervmi\" is not the VMI of --vmi" "$TMP/err" ||
	fail "a VMIM of another VMI: exit $rc: $(cat "$TMP/err")"

mig_start_pair 32 10
bg_start inc "$QMIGRATE" incoming --qmp "$TMP/dst.qmp" \
	--listen "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/dst" \
	--vmi "$kv/vmi/vmi.yaml" --vmim "$kv/vmim/vmim.yaml" \
	--status-file "$TMP/dst.status" --node node-b
wait_for 30 "target listening" grep -q "listening for the source" "$TMP/inc.err"
status_is "$TMP/dst.status" .migrationUid "$uid" ||
	fail "the target's migrationUid before the offer: $(status_get "$TMP/dst.status" .migrationUid)"
bg_start mig "$QMIGRATE" migrate --qmp "$TMP/src.qmp" \
	--to "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/src" --tls-name dst \
	--vmi "$kv/vmi/vmi.yaml" --vmim "$kv/vmim/vmim.yaml" --node node-a \
	--status-file "$TMP/src.status" --events
expect_exit mig 0 120
expect_exit inc 0 60
assert_memory_intact "$TMP/dst.serial"

for side in src dst; do
	f=$TMP/$side.status
	status_is "$f" .migrationUid "$uid" ||
		fail "$side: migrationUid $(status_get "$f" .migrationUid), expected the VMIM's $uid"
	status_is "$f" .migrationName migration-testvmi &&
	status_is "$f" .migrationNamespace hpc ||
		fail "$side: the VMIM's name and namespace: $(jq -c '[.migrationName, .migrationNamespace]' "$f")"
	"$QMIGRATE" status --status-file "$f" --format kubevirt-migration \
		>"$TMP/$side.vmim.json" || fail "$side: status --format kubevirt-migration"
	v() { jq -r "$1" "$TMP/$side.vmim.json"; }
	[ "$(v .status.phase)" = Succeeded ] || fail "$side: VMIM phase $(v .status.phase)"
	[ "$(v .status.migrationState.migrationUid)" = "$uid" ] ||
		fail "$side: VMIM migrationState.migrationUid"
	[ "$(v .status.migrationState.completed)" = true ] || fail "$side: VMIM completed"
	# One per phase entered, KubeVirt's names, in order.
	[ "$(v '[.status.phaseTransitionTimestamps[].phase] | join(",")')" = \
		Pending,PreparingTarget,TargetReady,Running,Succeeded ] ||
		fail "$side: phases $(jq -c '[.status.phaseTransitionTimestamps[].phase]' "$TMP/$side.vmim.json")"
	[ "$(v '[.status.phaseTransitionTimestamps[].phaseTransitionTimestamp] | . == sort')" = true ] ||
		fail "$side: timestamps not monotonic: $(jq -c .status.phaseTransitionTimestamps "$TMP/$side.vmim.json")"
	[ "$(v '.status.migrationState.migrationConfiguration.maxDowntimeMs')" = 900 ] ||
		fail "$side: maxDowntimeMs is not KubeVirt's default 900"
done

# Each source timestamp is in the event line of its phase change, as the
# last timestamp of that line's list.
jq -r 'select(.event == "phase") | .status | "\(.phase) \(.phaseTransitionTimestamps[-1].phase) \(.phaseTransitionTimestamps[-1].phaseTransitionTimestamp)"' \
	"$TMP/mig.out" >"$TMP/phase-events"
[ "$(wc -l <"$TMP/phase-events")" -ge 4 ] || fail "phase events: $(cat "$TMP/phase-events")"
while read -r phase last ts; do
	[ "$phase" = "$last" ] || fail "event of phase $phase: last timestamp is $last's"
	[ "$(jq -r --arg p "$phase" '.status.phaseTransitionTimestamps[] | select(.phase == $p) | .phaseTransitionTimestamp' "$TMP/src.vmim.json")" = "$ts" ] ||
		fail "phase $phase: the event line says $ts, the VMIM $(jq -c .status.phaseTransitionTimestamps "$TMP/src.vmim.json")"
done <"$TMP/phase-events"

# A source that carries out another migration (its own uid) is refused
# by a target given the VMIM, before any memory moves.
PAIR=b-
mig_start_pair 32 10
port=$((port + 1))
bg_start b-inc "$QMIGRATE" incoming --qmp "$TMP/b-dst.qmp" \
	--listen "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/dst" \
	--vmim "$kv/vmim/vmim.yaml" --status-file "$TMP/b-dst.status"
wait_for 30 "target b listening" grep -q "listening for the source" "$TMP/b-inc.err"
bg_start b-mig "$QMIGRATE" migrate --qmp "$TMP/b-src.qmp" \
	--to "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/src" --tls-name dst \
	--status-file "$TMP/b-src.status"
rc=0
bg_wait b-mig 60 || rc=$?
[ "$rc" -ne 0 ] || fail "a source of another migration uid was not refused"
grep -q "refused the migration: the source.s migration uid .* is not this target.s --vmim uid $uid" "$TMP/b-mig.err" ||
	fail "the refusal does not say why: $(cat "$TMP/b-mig.err")"
status_is "$TMP/b-dst.status" .migrationUid "$uid" ||
	fail "the target took the source's uid: $(status_get "$TMP/b-dst.status" .migrationUid)"
echo "PASS: the VMIM's uid on both sides, its status with phase timestamps"

