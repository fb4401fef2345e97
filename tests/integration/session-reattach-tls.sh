#!/usr/bin/env bash
# Over tls:, `qmigrate migrate` killed (SIGKILL) early in pre-copy, then
# the same command again with the same --status-file (issue 22, defect 9:
# the re-run started a new migration under a new migrationUid, overwrote
# the earlier document and its notes, was refused by the target, and
# exited 3 or 4 by timing).  The proxy dies with the killed process, so
# QEMU's migration fails at once and the guest stays on the source.  Then:
# - the re-run does not start another migration: it closes the earlier
#   record truthfully: same migrationUid, phase Failed, plane data, a
#   failureReason, every earlier note kept; exit 4; the source QEMU did
#   not migrate again and the guest runs there, intact;
# - `incoming`, whose source is gone for good, exits (not 0) within 45 s
#   of the kill;
# - a third, explicit run with that file (now Failed) starts a new
#   migration under a new uid, to a new target, and completes: the guest
#   runs on the new target, intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd openssl
setup_tmp

make_pki src dst
port=$((20000 + RANDOM % 20000))
mkdir "$TMP/priv"
export TMPDIR=$TMP/priv
st=$TMP/src.status

# 64 MiB at 8 MiB/s of a lightly busy guest: ~8 s of pre-copy.
mig_policy slow '{ "bandwidthPerMigration": "8Mi" }'

# tls_incoming NAME DST: incoming NAME for QEMU DST on the next port.
tls_incoming() {
	port=$((port + 1))
	bg_start "$1" "$QMIGRATE" incoming --qmp "$TMP/$2.qmp" \
		--listen "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/dst" \
		--status-file "$TMP/$2.status"
	wait_log "$TMP/$1.err" "listening for the source" 30
}

# tls_migrate NAME: migrate NAME for src to the last port, status $st.
tls_migrate() {
	bg_start "$1" "$QMIGRATE" migrate --qmp "$TMP/src.qmp" \
		--to "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/src" --tls-name dst \
		--policy "$TMP/slow.json" --status-file "$st" --events
}

mig_start_pair 64 2
tls_incoming incoming dst
tls_migrate migrate
wait_for 30 "pre-copy under way" eval \
	'[ "$(status_get "$st" .progress.dataProcessed)" -ge 1048576 ] 2>/dev/null'
kill -KILL "$(guest_pid migrate)"
killed_at=$SECONDS
wait_for 10 "the first migrate gone" _lib_gone "$(guest_pid migrate)"
cp "$st" "$TMP/first.status"
uid=$(status_get "$st" .migrationUid)
[ -n "$uid" ] && [ "$uid" != null ] || fail "no migrationUid in the first document"

# The same command again.
tls_migrate again
expect_exit again 4 60
[ "$(status_get "$st" .migrationUid)" = "$uid" ] ||
	fail "re-run: migrationUid $(status_get "$st" .migrationUid), the earlier one was $uid: a new migration"
[ "$(status_get "$st" .phase)" = Failed ] || fail "re-run: phase $(status_get "$st" .phase)"
[ "$(status_get "$st" .exitCode)" = 4 ] || fail "re-run: exitCode $(status_get "$st" .exitCode)"
[ "$(status_get "$st" .failurePlane)" = data ] || fail "re-run: failurePlane $(status_get "$st" .failurePlane)"
[ -n "$(status_get "$st" '.failureReason // empty')" ] || fail "re-run: no failureReason"
while IFS= read -r note; do
	status_get "$st" '.notes[]' | grep -qxF -- "$note" ||
		fail "re-run: the earlier note \"$note\" is gone: $(status_get "$st" .notes)"
done < <(status_get "$TMP/first.status" '.notes[]?')
case $(qemu_mig_status src) in
failed | cancelled) ;;
*) fail "re-run: the source QEMU's migration is $(qemu_mig_status src)" ;;
esac
assert_stayed
echo "ok: the re-run closed $uid: $(status_get "$st" .failureReason)"

# incoming ends once its source is gone for good.
rc=0
bg_wait incoming $((45 - (SECONDS - killed_at))) || rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] || fail "incoming exited $rc once its source was gone"
echo "ok: incoming exited $rc $((SECONDS - killed_at)) s after the kill"

# A new, explicit run, to a new target.
start_memguest_incoming dst2 64 -qmp "unix:$TMP/dst2.mon,server=on,wait=off"
tls_incoming incoming2 dst2
tls_migrate third
expect_exit third 0 120
expect_exit incoming2 0 60
[ "$(status_get "$st" .migrationUid)" != "$uid" ] || fail "the new run kept the old uid $uid"
[ "$(status_get "$st" .phase)" = Succeeded ] || fail "new run: phase $(status_get "$st" .phase)"
[ "$(run_state dst2)" = running ] || fail "dst2 is $(run_state dst2)"
[ "$(run_state src)" = postmigrate ] || fail "src is $(run_state src)"
assert_memory_intact "$TMP/dst2.serial"
echo "ok: a new run under $(status_get "$st" .migrationUid) moved the guest"
