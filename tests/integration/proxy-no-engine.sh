#!/usr/bin/env bash
# proxy-no-engine.sh: `qmigrate migrate --to tls:` pointed at a standalone
# `qmigrate proxy target` (no `qmigrate incoming` behind it).  The target
# QEMU even listens behind the proxy (migrate-incoming done by QMP), so
# only the control plane stands between the source's memory and a target
# nobody checked: the proxy must refuse the offer instead of answering
# ready for an engine it does not have.  migrate exits 3 (control plane),
# the source QEMU's migration never starts (query-migrate has no status),
# nothing crosses the proxy, and the guest runs on at the source.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/proxy-lib.sh"
need_cmd "$QEMU"
setup_tmp
make_pki source target

mig_start_pair 32 10
qmp dst migrate-incoming '{"uri":"unix:'"$TMP"'/incoming.sock"}' >/dev/null
wait_for 10 "target QEMU's incoming socket" test -S "$TMP/incoming.sock"
start_target tgt "$TMP/incoming.sock"

rc=0
"$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "tls:127.0.0.1:$TARGET_PORT" \
	--tls-dir "$TMP/pki/source" --tls-name target \
	--status-file "$TMP/src.status" >"$TMP/migrate.out" 2>"$TMP/migrate.err" || rc=$?
[ "$rc" -eq 3 ] || fail "migrate through a standalone proxy target: exit $rc, expected 3: $(cat "$TMP/migrate.err")"
[ "$(status_get "$TMP/src.status" .failurePlane)" = control ] ||
	fail "failure plane $(status_get "$TMP/src.status" .failurePlane), expected control"
status_get "$TMP/src.status" .failureReason | grep -q 'standalone qmigrate proxy target' ||
	fail "the reason does not say why: $(status_get "$TMP/src.status" .failureReason)"
# QEMU keeps the status of the last migration: none means none started.
st=$(mon src query-migrate | jq -r '.status // "none"')
[ "$st" = none ] || fail "the source QEMU's migration started: status $st"
wait_log "$TMP/tgt.err" 'refused a message for a migration engine' 10
[ "$(count_lines "$TMP/tgt.err" 'conn [0-9]+ from .*: forwarding')" -eq 0 ] ||
	fail "data crossed the standalone proxy target"
assert_stayed
echo "ok: migrate --to tls: against a standalone proxy target refused in the control plane, guest still on the source"
