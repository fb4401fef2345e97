#!/usr/bin/env bash
# Control-plane failures and usage errors: exit 3 or 1 with one line naming
# the peer or field at fault, and the guest untouched on the source.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

start_memguest src 32 10 -qmp "unix:$TMP/src.mon,server=on,wait=off"

# Nobody listens at the target: control plane, exit 3.
rc=0
"$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/nobody.sock" \
	--status-file "$TMP/s1.json" >"$TMP/s1.out" 2>"$TMP/s1.err" || rc=$?
[ "$rc" -eq 3 ] || fail "unreachable target: exit $rc, expected 3"
grep -q "nobody.sock" "$TMP/s1.err" || fail "error does not name the target"
[ "$(status_get "$TMP/s1.json" .failurePlane)" = control ] || fail "plane not control"
assert_stayed

# No QMP socket: exit 3, naming it.
rc=0
"$QMIGRATE" migrate --qmp "$TMP/none.qmp" --to "unix:$TMP/x.sock" 2>"$TMP/s2.err" >/dev/null || rc=$?
[ "$rc" -eq 3 ] || fail "missing QMP socket: exit $rc, expected 3"
grep -q "none.qmp" "$TMP/s2.err" || fail "error does not name the QMP socket"

# Plaintext tcp: without disableTLS: refused before anything is touched.
rc=0
"$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to tcp:127.0.0.1:4444 2>"$TMP/s3.err" >/dev/null || rc=$?
[ "$rc" -eq 1 ] || fail "plaintext tcp: exit $rc, expected 1"
grep -q "disableTLS" "$TMP/s3.err" || fail "plaintext refusal does not say why"
[ "$(wc -l <"$TMP/s3.err")" -eq 1 ] || fail "plaintext refusal is not one line"

# Usage errors: exit 1, one line.
for args in "--to unix:/x" "--qmp x" "--qmp x --to ftp:x" "--qmp x --to unix:/x --bogus"; do
	rc=0
	# shellcheck disable=SC2086
	"$QMIGRATE" migrate $args 2>"$TMP/u.err" >/dev/null || rc=$?
	[ "$rc" -eq 1 ] || fail "migrate $args: exit $rc, expected 1"
	[ "$(wc -l <"$TMP/u.err")" -eq 1 ] || fail "migrate $args: not one line"
done

# A target QEMU that is not waiting for a migration: exit 3 at once.
rc=0
"$QMIGRATE" incoming --qmp "$TMP/src.qmp" --listen "unix:$TMP/y.sock" \
	2>"$TMP/i.err" >/dev/null || rc=$?
[ "$rc" -eq 3 ] || fail "incoming on a running QEMU: exit $rc, expected 3"
grep -q -- "-incoming defer" "$TMP/i.err" || fail "incoming error does not say what to do"
assert_stayed
echo "ok: control-plane failures reported, guest untouched"
