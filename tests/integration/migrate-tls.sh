#!/usr/bin/env bash
# Migrations through the built-in TLS proxy (`migrate --to tls:`,
# `incoming --listen tls:`): the target takes its configuration from the
# source's offer (it is given no policy), multifd with 8 channels and
# post-copy both arrive intact, and a source whose certificate comes from
# another CA is refused before any guest memory moves.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

mig_tls
bash "$top_srcdir/contrib/make-certs.sh" "$TMP/other" src >/dev/null

# tls_pair NAME MIB RATE: PAIR NAME- (migrate-lib.sh's pair NAME-src,
# NAME-dst) whose target qmigrate listens with TLS on the next port.
tls_pair() {
	PAIR=$1-
	mig_start_pair "$2" "$3"
	mig_tls_incoming
}

# Pre-copy with multifd: 8 TLS data connections, delivered in order, and
# forwarded on more than one of each proxy's worker threads (4 here,
# whatever the machine's CPUs).
export QMIGRATE_PROXY_WORKERS=4
mig_policy mfd '{ "parallelMigrationThreads": 8 }'
tls_pair m 128 10
mig_tls_migrate m-migrate "$TMP/m-src.qmp" --policy "$TMP/mfd.json"
expect_exit m-migrate 0 120
expect_exit m-incoming 0 60
[ "$(status_get "$TMP/m-dst.status" .migrationConfiguration.qemu.multifdChannels)" = 8 ] ||
	fail "the target did not take the source's multifd channels"
[ "$(grep -c 'conn [0-9]* from .*: forwarding' "$TMP/m-incoming.err")" -eq 9 ] ||
	fail "expected 9 connections (main + 8 multifd) through the proxy"
for side in m-incoming m-migrate; do
	w=$(sed -n 's/.* conn [0-9]* .*: forwarding on worker \([0-9]*\)$/\1/p' \
		"$TMP/$side.err" | sort -u | wc -l)
	[ "$w" -ge 2 ] || fail "$side's proxy forwarded on $w worker(s)"
done
unset QMIGRATE_PROXY_WORKERS
assert_moved
[ "$(mon m-src query-migrate | jq '.ram["multifd-bytes"]')" -gt 0 ] ||
	fail "no bytes went over multifd"

# A busy guest finished by post-copy: page requests flow back through TLS.
mig_policy pc '{ "bandwidthPerMigration": "20Mi", "allowPostCopy": true }'
tls_pair p 64 200
mig_tls_migrate p-migrate "$TMP/p-src.qmp" --policy "$TMP/pc.json"
expect_exit p-migrate 0 120
expect_exit p-incoming 0 60
expect_status "$TMP/p-src.status" .mode PostCopy "post-copy"
assert_moved

# A source certificate from another CA: refused, control plane, and the
# guest never left the source.
tls_pair r 32 10
rc=0
"$QMIGRATE" migrate --qmp "$TMP/r-src.qmp" --to "tls:127.0.0.1:$TLS_PORT" \
	--tls-dir "$TMP/other/src" --tls-name dst --status-file "$TMP/r.status" \
	>/dev/null 2>"$TMP/r.err" || rc=$?
[ "$rc" -eq 3 ] || fail "foreign CA: exit $rc, expected 3"
expect_status "$TMP/r.status" .failurePlane control "foreign CA"
wait_for 10 "the target to log the refusal" grep -q "refused" "$TMP/r-incoming.err"
assert_stayed
# An incoming QEMU that never ran migrate-incoming reports no status.
expect_qemu_mig r-dst "foreign CA" none
echo "ok: multifd and post-copy through TLS, foreign CA refused"
