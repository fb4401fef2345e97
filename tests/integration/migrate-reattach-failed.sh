#!/usr/bin/env bash
# A re-attach that fails writes nothing (issue 14, defect 8: the status
# file was rewritten with a fresh migrationUid before the re-attach had
# succeeded, so a failed one lost the migration's identity).  qmigrate
# migrate is SIGKILLed mid-migration; QEMU goes on.  Re-runs with the same
# --status-file that cannot attach, each "not known" (exit 8: the run
# cannot ask QEMU whether the killed run's migration still runs or has
# completed; issue 37, a control-plane 3 said "on the source") that leaves
# the file byte for byte as the killed qmigrate left it:
# 1. --qmp names a socket that does not exist;
# 2. the source QEMU hangs (SIGSTOPped: its monitor never greets), until
#    the monitor's timeout.
# Then a re-run that can attach does, under the same migrationUid, and
# aborts: the guest runs on the source, intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd cmp
setup_tmp

mig_orphan
st=$TMP/src.status
cp "$st" "$TMP/before.status"
uid=$(status_get "$st" .migrationUid)

# failed_rerun NAME QMP: a re-run on QMP that must fail (exit 8) and leave
# the status file as it was.
failed_rerun() {
	local rc=0
	bg_start "$1" "$QMIGRATE" migrate --qmp "$2" --to "unix:$TMP/mig.sock" \
		--status-file "$st" --policy "$TMP/stuck.json" --events
	bg_wait "$1" 60 || rc=$?
	[ "$rc" -eq 8 ] || fail "$1: exit $rc, expected 8: $(tail -n 2 "$TMP/$1.err")"
	cmp -s "$TMP/before.status" "$st" ||
		fail "$1: the failed re-attach rewrote the status file (migrationUid $uid -> $(status_get "$st" .migrationUid), phase $(status_get "$st" .phase))"
	echo "ok: $1: exit 8, status file untouched: $(tail -n 1 "$TMP/$1.err")"
}

# 1. No such monitor.
failed_rerun no-qmp "$TMP/nothing.qmp"

# 2. A hung QEMU.
kill -STOP "$(guest_pid src)"
failed_rerun hung "$TMP/src.qmp"
kill -CONT "$(guest_pid src)"
[ "$(qemu_mig_status src)" = active ] || fail "QEMU's migration is $(qemu_mig_status src)"

# The real re-attach, then an abort.
bg_start again "$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/mig.sock" \
	--status-file "$st" --policy "$TMP/stuck.json" --events
wait_for 30 "the re-attach" eval \
	'status_get "$st" ".notes[]" 2>/dev/null | grep -q re-attached && status_is "$st" .phase Running'
[ "$(status_get "$st" .migrationUid)" = "$uid" ] ||
	fail "migrationUid changed: $uid -> $(status_get "$st" .migrationUid)"
"$QMIGRATE" abort --status-file "$st" >/dev/null 2>"$TMP/abort.err" ||
	fail "qmigrate abort exited $?: $(cat "$TMP/abort.err")"
expect_exit again 5 30
expect_qemu_cancelled src "after the abort"
assert_stayed
expect_exit incoming 4 30
echo "ok: failed re-attaches left $uid in the status file; the real one aborted it"
