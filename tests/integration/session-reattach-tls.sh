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
#   not migrate again and the guest runs there, intact.  When QEMU had
#   failed before the re-run asked, the 4 is the target's word: failed
#   unwatched, which over tls: may be after the device state left
#   (sim-real seed 10059602), so the re-run asks the target, which says
#   it never loaded the guest; when QEMU failed after the re-run
#   re-attached, it saw the pre-copy failure itself;
# - `incoming`, whose source is gone for good, exits (not 0) within 45 s
#   of the kill;
# - a third, explicit run with that file (now Failed) starts a new
#   migration under a new uid, to a new target, and completes: the guest
#   runs on the new target, intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp
mig_tls
st=$TMP/src.status

# 64 MiB at 8 MiB/s of a lightly busy guest: ~8 s of pre-copy.
mig_policy slow '{ "bandwidthPerMigration": "8Mi" }'

# tls_migrate NAME: migrate NAME for src to the last incoming, status $st.
tls_migrate() {
	mig_tls_migrate "$1" "$TMP/src.qmp" --policy "$TMP/slow.json"
}

mig_start_pair 64 2
mig_tls_incoming
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
expect_failed "$st" 4 data re-run
# QEMU failed before the re-run asked (unwatched: the target's word) or
# after it re-attached (watched, in pre-copy: the stream's own failure).
status_get "$st" .failureReason | grep -Eq 'did not load the guest|^migration stream failed' ||
	fail "re-run: the failureReason is neither the target's word nor a watched pre-copy failure: $(status_get "$st" .failureReason)"
while IFS= read -r note; do
	status_get "$st" '.notes[]' | grep -qxF -- "$note" ||
		fail "re-run: the earlier note \"$note\" is gone: $(status_get "$st" .notes)"
done < <(status_get "$TMP/first.status" '.notes[]?')
expect_qemu_mig src re-run failed cancelled
assert_stayed
echo "ok: the re-run closed $uid: $(status_get "$st" .failureReason)"

# incoming ends once its source is gone for good.
rc=0
bg_wait incoming $((45 - (SECONDS - killed_at))) || rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] || fail "incoming exited $rc once its source was gone"
echo "ok: incoming exited $rc $((SECONDS - killed_at)) s after the kill"

# A new, explicit run, to a new target.
start_memguest_incoming dst2 64 -qmp "unix:$TMP/dst2.mon,server=on,wait=off"
mig_tls_incoming incoming2 dst2
tls_migrate third
expect_exit third 0 120
expect_exit incoming2 0 60
[ "$(status_get "$st" .migrationUid)" != "$uid" ] || fail "the new run kept the old uid $uid"
expect_status "$st" .phase Succeeded "new run"
[ "$(run_state dst2)" = running ] || fail "dst2 is $(run_state dst2)"
[ "$(run_state src)" = postmigrate ] || fail "src is $(run_state src)"
assert_memory_intact "$TMP/dst2.serial"
echo "ok: a new run under $(status_get "$st" .migrationUid) moved the guest"
