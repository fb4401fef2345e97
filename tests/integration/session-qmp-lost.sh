#!/usr/bin/env bash
# migrate's connection to the source QEMU's monitor lost (issue 22, defect
# 4: lost during the confirm phase over tls:, it was reported Failed, plane
# control, exit 3 "nothing moved", while the guest ran on the target; lost
# in pre-copy, exit 3 too, while QEMU migrated on).  A real QEMU never
# drops its monitor: tests/qmp-relay stands between migrate and the
# monitor socket and hangs up.
# 1. tls:, hung up right after QEMU's "completed" (the confirm phase):
#    migrate reconnects (or asks the target) and exits 0; the guest runs
#    on the target, intact.
# 2. unix:, hung up in pre-copy: migrate reconnects and reports the
#    migration's real outcome: it completes, exit 0, the guest on the
#    target, intact.
# 3. unix:, hung up in pre-copy and the monitor refusing every connection
#    for longer than migrate's 30 s: exit 8 (outcome unknown) within 45 s,
#    Failed, a failureReason saying the monitor did not answer; QEMU
#    migrates on alone and the guest runs in exactly one place, intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd openssl
setup_tmp

relay=$top_builddir/tests/qmp-relay
need_file "$relay" "tests/qmp-relay"
make_pki src dst
port=$((20000 + RANDOM % 20000))
mkdir "$TMP/priv"
export TMPDIR=$TMP/priv

# relay_start ARGS...: PAIR's relay in front of its source monitor.
relay_start() {
	bg_start "${PAIR}relay" "$relay" "$@" "$TMP/${PAIR}relay.sock" "$TMP/${PAIR}src.qmp"
	wait_log "$TMP/${PAIR}relay.out" '^ready' 10
}

moved_mib() {
	local done
	done=$(status_get "$TMP/${PAIR}src.status" .progress.dataProcessed)
	[ "${done:-0}" -ge $(($1 * 1024 * 1024)) ] 2>/dev/null
}

# 1. tls:, the monitor lost in the confirm phase.
mig_start_pair 32 1
bg_start incoming "$QMIGRATE" incoming --qmp "$TMP/dst.qmp" \
	--listen "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/dst" \
	--status-file "$TMP/dst.status"
wait_log "$TMP/incoming.err" "listening for the source" 30
relay_start --cut-after '"status": "completed"'
bg_start migrate "$QMIGRATE" migrate --qmp "$TMP/relay.sock" \
	--to "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/src" --tls-name dst \
	--status-file "$TMP/src.status" --events
expect_exit migrate 0 120
grep -q 'cut after' "$TMP/relay.out" || fail "confirm: the relay never saw \"completed\": the test proved nothing"
expect_exit incoming 0 60
[ "$(status_get "$TMP/src.status" .phase)" = Succeeded ] ||
	fail "confirm: phase $(status_get "$TMP/src.status" .phase)"
assert_moved
echo "ok: the monitor lost in the confirm phase: exit 0, the guest on the target"

# 2. unix:, the monitor lost in pre-copy, back at once.
PAIR=b-
mig_policy slow '{ "bandwidthPerMigration": "8Mi" }'
mig_start_pair 64 2
mig_incoming --policy "$TMP/slow.json"
relay_start
bg_start b-migrate "$QMIGRATE" migrate --qmp "$TMP/b-relay.sock" \
	--to "unix:$TMP/b-mig.sock" --policy "$TMP/slow.json" \
	--status-file "$TMP/b-src.status" --events
wait_for 30 "4 MiB migrated" moved_mib 4
[ "$(qemu_mig_status b-src)" = active ] || fail "pre-copy: the migration is $(qemu_mig_status b-src) at the cut"
kill -USR1 "$(guest_pid b-relay)"
expect_exit b-migrate 0 120
expect_exit b-incoming 0 60
[ "$(grep -c ': accepted' "$TMP/b-relay.out")" -ge 2 ] ||
	fail "pre-copy: migrate never connected to the monitor again: $(cat "$TMP/b-relay.out")"
assert_moved
echo "ok: the monitor lost in pre-copy: migrate reconnected, exit 0"

# 3. unix:, the monitor lost in pre-copy for good (refused for 120 s).
PAIR=c-
mig_policy slower '{ "bandwidthPerMigration": "4Mi" }'
mig_start_pair 64 2
mig_incoming --policy "$TMP/slower.json"
relay_start --refuse-for 120
bg_start c-migrate "$QMIGRATE" migrate --qmp "$TMP/c-relay.sock" \
	--to "unix:$TMP/c-mig.sock" --policy "$TMP/slower.json" \
	--status-file "$TMP/c-src.status" --events
wait_for 30 "4 MiB migrated" moved_mib 4
kill -USR1 "$(guest_pid c-relay)"
expect_exit c-migrate 8 45
st=$TMP/c-src.status
[ "$(status_get "$st" .phase)" = Failed ] || fail "gone: phase $(status_get "$st" .phase)"
[ "$(status_get "$st" .exitCode)" = 8 ] || fail "gone: exitCode $(status_get "$st" .exitCode)"
status_get "$st" .failureReason | grep -Eqi 'monitor|answer|QMP' ||
	fail "gone: failureReason does not say the monitor was lost: $(status_get "$st" .failureReason)"
# QEMU knows nothing of it and migrates on.
wait_for 120 "the source QEMU's migration to end" eval \
	'case $(qemu_mig_status c-src) in completed|failed|cancelled) true ;; *) false ;; esac'
s=$(run_state c-src) d=$(mon c-dst query-status 2>/dev/null | jq -r .status || echo gone)
if [ "$s" = running ] && [ "$d" != running ]; then
	assert_memory_intact "$TMP/c-src.serial"
elif [ "$d" = running ] && [ "$s" != running ]; then
	assert_memory_intact "$TMP/c-dst.serial"
else
	fail "gone: the guest is not in exactly one place: source $s, target $d"
fi
echo "ok: the monitor lost for good: exit 8, the guest in one place ($s/$d)"
