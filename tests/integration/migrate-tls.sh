#!/usr/bin/env bash
# Migrations through the built-in TLS proxy (`migrate --to tls:`,
# `incoming --listen tls:`): the target takes its configuration from the
# source's offer (it is given no policy), multifd with 8 channels and
# post-copy both arrive intact, and a source whose certificate comes from
# another CA is refused before any guest memory moves.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd openssl
setup_tmp

make_pki src dst
bash "$top_srcdir/contrib/make-certs.sh" "$TMP/other" src >/dev/null
port=$((20000 + RANDOM % 20000))

# tls_pair NAME MIB RATE: a source/target pair named NAME-src, NAME-dst
# whose target qmigrate listens with TLS on the next port.
tls_pair() {
	start_memguest "$1-src" "$2" "$3" -qmp "unix:$TMP/$1-src.mon,server=on,wait=off"
	start_memguest_incoming "$1-dst" "$2" -qmp "unix:$TMP/$1-dst.mon,server=on,wait=off"
	port=$((port + 1))
	bg_start "$1-in" "$QMIGRATE" incoming --qmp "$TMP/$1-dst.qmp" \
		--listen "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/dst" \
		--status-file "$TMP/$1-dst.status"
	wait_for 30 "$1 target listening" grep -q "listening for the source" "$TMP/$1-in.err"
}

# Pre-copy with multifd: 8 TLS data connections, delivered in order.
mig_policy mfd '{ "parallelMigrationThreads": 8 }'
tls_pair m 128 10
bg_start m-mig "$QMIGRATE" migrate --qmp "$TMP/m-src.qmp" --to "tls:127.0.0.1:$port" \
	--tls-dir "$TMP/pki/src" --tls-name dst --policy "$TMP/mfd.json" \
	--status-file "$TMP/m-src.status"
expect_exit m-mig 0 120
expect_exit m-in 0 60
[ "$(status_get "$TMP/m-dst.status" .migrationConfiguration.qemu.multifdChannels)" = 8 ] ||
	fail "the target did not take the source's multifd channels"
[ "$(grep -c 'conn [0-9]* from .*: forwarding' "$TMP/m-in.err")" -eq 9 ] ||
	fail "expected 9 connections (main + 8 multifd) through the proxy"
[ "$(mon m-dst query-status | jq -r .status)" = running ] || fail "m-dst not running"
assert_memory_intact "$TMP/m-dst.serial"
[ "$(mon m-src query-migrate | jq '.ram["multifd-bytes"]')" -gt 0 ] ||
	fail "no bytes went over multifd"

# A busy guest finished by post-copy: page requests flow back through TLS.
mig_policy pc '{ "bandwidthPerMigration": "20Mi", "allowPostCopy": true }'
tls_pair p 64 200
bg_start p-mig "$QMIGRATE" migrate --qmp "$TMP/p-src.qmp" --to "tls:127.0.0.1:$port" \
	--tls-dir "$TMP/pki/src" --tls-name dst --policy "$TMP/pc.json" \
	--status-file "$TMP/p-src.status"
expect_exit p-mig 0 120
expect_exit p-in 0 60
[ "$(status_get "$TMP/p-src.status" .mode)" = PostCopy ] || fail "not finished by post-copy"
[ "$(mon p-dst query-status | jq -r .status)" = running ] || fail "p-dst not running"
assert_memory_intact "$TMP/p-dst.serial"

# A source certificate from another CA: refused, control plane, and the
# guest never left the source.
tls_pair r 32 10
rc=0
"$QMIGRATE" migrate --qmp "$TMP/r-src.qmp" --to "tls:127.0.0.1:$port" \
	--tls-dir "$TMP/other/src" --tls-name dst --status-file "$TMP/r.status" \
	>/dev/null 2>"$TMP/r.err" || rc=$?
[ "$rc" -eq 3 ] || fail "foreign CA: exit $rc, expected 3"
[ "$(status_get "$TMP/r.status" .failurePlane)" = control ] || fail "foreign CA: plane not control"
wait_for 10 "the target to log the refusal" grep -q "refused" "$TMP/r-in.err"
[ "$(mon r-src query-status | jq -r .status)" = running ] || fail "r-src not running"
assert_memory_intact "$TMP/r-src.serial"
# An incoming QEMU that never ran migrate-incoming reports no status.
[ "$(mon r-dst query-migrate | jq -r '.status // "none"')" = none ] ||
	fail "r-dst received something"
echo "ok: multifd and post-copy through TLS, foreign CA refused"
