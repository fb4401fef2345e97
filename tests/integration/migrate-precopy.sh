#!/usr/bin/env bash
# Plain pre-copy of a busy guest over a unix socket: the guest arrives
# intact and keeps counting, the status file is readable while it runs,
# --events streams one JSON line per change, and both sides exit 0.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

mig_start_pair 128 20
mig_incoming
[ "$(status_get "$TMP/dst.status" .role)" = target ] || fail "dst status has no role"

# 64 MiB/s: slow enough to read the status while it runs.
mig_policy slow '{ "bandwidthPerMigration": "64Mi" }'
mig_migrate --policy "$TMP/slow.json"
wait_for 30 "source status Running" status_is "$TMP/src.status" .phase Running
# Both sides keep no capability once their sockets are open.
for side in migrate incoming; do
	_lib_pid_of "$side"
	caps=$(awk '/^CapEff:/ { print $2 }' "/proc/$_lib_pid/status")
	[ "$caps" = 0000000000000000 ] || fail "qmigrate $side kept capabilities ($caps)"
done
status_get "$TMP/src.status" .progress.dataTotal | grep -Eq '^[1-9][0-9]+$' ||
	fail "no dataTotal while running"
[ "$(status_get "$TMP/src.status" .migrationConfiguration.bandwidthPerMigration)" = 67108864 ] ||
	fail "effective configuration not in the status"

expect_moved 120 60

src=$TMP/src.status
expect_status "$src" .phase Succeeded
expect_status "$src" .completed true
expect_status "$src" .migrationPolicyName slow
# downtimeMs: QEMU's figure once completed; absent while not known (the
# samples before, the target's document), never a 0 that reads as a pause.
down=$(status_get "$src" .progress.downtimeMs)
[[ $down =~ ^[0-9]+$ ]] || fail "no downtimeMs in the source's document: $down"
[ "$down" -lt 2000 ] || fail "downtime too long: $down ms"
[ "$(jq -s '[.[] | .status.progress // {} | select(.qemuStatus == "active") |
	has("downtimeMs")] | any' "$TMP/migrate.out")" = false ] ||
	fail "a downtimeMs before QEMU gave one: $(jq -c 'select(.status.progress.qemuStatus == "active") | .status.progress' "$TMP/migrate.out" | head -n 1)"
[ "$(status_get "$TMP/dst.status" .progress.downtimeMs)" = null ] ||
	fail "the target's document has a downtimeMs: $(jq -c .progress "$TMP/dst.status")"
[ -n "$(status_get "$src" .endTimestamp)" ] || fail "no endTimestamp"
expect_status "$TMP/dst.status" .phase Succeeded

# Events: valid JSON lines, phases in order, progress samples between.
jq -e . "$TMP/migrate.out" >/dev/null || fail "--events output is not JSON lines"
phases=$(jq -r 'select(.event == "phase") | .status.phase' "$TMP/migrate.out" | tr '\n' ' ')
[ "$phases" = "Running Succeeded " ] || fail "phase events: $phases"
[ "$(grep -c '"event":"progress"' "$TMP/migrate.out")" -ge 2 ] || fail "fewer than 2 progress events"
echo "ok: pre-copy moved the guest ($(last_progress "$TMP/dst.serial"))"
