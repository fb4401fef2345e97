#!/usr/bin/env bash
# `qmigrate incoming` killed (SIGKILL) over tls: in pre-copy (issue 22,
# defect 8: no real-QEMU test covered the README's row "target `qmigrate
# incoming` killed ... tls: its proxy dies with it, a broken stream").  The
# stream breaks with the target's proxy: migrate exits 4, plane data, the
# source QEMU's migration has ended without completing, and the guest runs
# on the source with its memory intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd openssl
setup_tmp

make_pki src dst
port=$((20000 + RANDOM % 20000))
mkdir "$TMP/priv"
export TMPDIR=$TMP/priv

# 200 MB/s under 20 MiB/s with kubevirt's 150 s: only the kill ends it.
mig_policy stuck '{ "bandwidthPerMigration": "20Mi", "convergence": "kubevirt" }'
mig_start_pair 64 200
bg_start incoming "$QMIGRATE" incoming --qmp "$TMP/dst.qmp" \
	--listen "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/dst" \
	--status-file "$TMP/dst.status"
wait_log "$TMP/incoming.err" "listening for the source" 30
bg_start migrate "$QMIGRATE" migrate --qmp "$TMP/src.qmp" \
	--to "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/src" --tls-name dst \
	--policy "$TMP/stuck.json" --status-file "$TMP/src.status" --events
wait_for 30 "8 MiB migrated" eval \
	'[ "$(status_get "$TMP/src.status" .progress.dataProcessed)" -ge 8388608 ] 2>/dev/null'
kill_guest incoming
expect_exit migrate 4 60
st=$TMP/src.status
[ "$(status_get "$st" .phase)" = Failed ] || fail "phase $(status_get "$st" .phase)"
[ "$(status_get "$st" .exitCode)" = 4 ] || fail "exitCode $(status_get "$st" .exitCode)"
[ "$(status_get "$st" .failurePlane)" = data ] || fail "failurePlane $(status_get "$st" .failurePlane)"
case $(qemu_mig_status src) in
failed | cancelled) ;;
*) fail "the source QEMU's migration is $(qemu_mig_status src)" ;;
esac
assert_stayed
echo "ok: incoming killed over tls: exit 4, $(status_get "$st" .failureReason); the guest runs on the source"
