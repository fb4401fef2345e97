#!/usr/bin/env bash
# Re-attach restores what the killed qmigrate knew (issue 14, defect 8:
# the re-attached session started in mode PreCopy, so an abort could send
# migrate_cancel to a post-copy migration, and the migration's notes and
# decisions were lost).  qmigrate migrate is SIGKILLed in post-copy, and
# (second pair) while it holds the guest paused; a new qmigrate migrate
# with the same --status-file re-attaches.  From its first word on (every
# --events line, and the status file) it reports the same migrationUid and
# the mode QEMU is really in, and the status keeps the earlier notes and
# decisions.  Then an abort: refused in post-copy (the migration completes,
# the guest arrives); while paused it is cancelled and the guest resumes on
# the source.  The kubevirt controller acts at its acceptable completion
# time (48 s per GiB of a 128 MiB machine: 6 s), and 4 MiB/s makes what
# follows last ~16 s.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

# reattach POLICY MIGRATION-JSON MODE: PAIR's migration under policy
# POLICY (mig_policy's MIGRATION-JSON); SIGKILLs its migrate once its
# status says MODE, re-attaches a new one (background name PAIR"again"),
# and checks what it reports.
reattach() {
	local mode=$3 st=$TMP/${PAIR}src.status uid notes decisions bad
	mig_policy "$1" "$2"
	mig_start_pair 64 200
	mig_incoming --policy "$TMP/$1.json"
	mig_migrate --policy "$TMP/$1.json"
	wait_for 60 "${PAIR}src in mode $mode" status_is "$st" .mode "$mode"
	kill -KILL "$(guest_pid "${PAIR}migrate")"
	wait_for 10 "the first qmigrate gone" _lib_gone "$(guest_pid "${PAIR}migrate")"
	uid=$(status_get "$st" .migrationUid)
	notes=$(jq -c .notes "$st")
	decisions=$(jq -c .decisions "$st")
	[ "$(jq length <<<"$decisions")" -gt 0 ] || fail "no decision before the kill: test proves nothing"
	case $(qemu_mig_status "${PAIR}src") in
	active | postcopy-active) ;;
	*) fail "QEMU's migration is $(qemu_mig_status "${PAIR}src") after the kill: test proves nothing" ;;
	esac
	bg_start "${PAIR}again" "$QMIGRATE" migrate --qmp "$TMP/${PAIR}src.qmp" \
		--to "unix:$TMP/${PAIR}mig.sock" --status-file "$st" \
		--policy "$TMP/$1.json" --events
	wait_for 30 "the new qmigrate re-attached" eval \
		'status_get "$st" ".notes[]" 2>/dev/null | grep -q re-attached && status_is "$st" .phase Running'
	[ "$(status_get "$st" .migrationUid)" = "$uid" ] ||
		fail "migrationUid changed: $uid -> $(status_get "$st" .migrationUid)"
	[ "$(status_get "$st" .mode)" = "$mode" ] ||
		fail "re-attached in mode $(status_get "$st" .mode), QEMU is in $mode"
	bad=$(jq -c --arg uid "$uid" --arg mode "$mode" 'select(.event != null) |
		select(.status.migrationUid != $uid or .status.mode != $mode) |
		{event, migrationUid: .status.migrationUid, mode: .status.mode}' \
		"$TMP/${PAIR}again.out" | head -n 3)
	[ -z "$bad" ] || fail "the re-attaching qmigrate reported another identity or mode: $bad"
	jq -e --argjson old "$decisions" '.decisions[:($old | length)] == $old' "$st" >/dev/null ||
		fail "decisions lost: before $decisions, now $(jq -c .decisions "$st")"
	jq -e --argjson old "$notes" '($old - .notes) == []' "$st" >/dev/null ||
		fail "notes lost: before $notes, now $(jq -c .notes "$st")"
	echo "ok: re-attached to $uid in mode $mode with its notes and decisions"
}

# 1. Post-copy: the abort is refused, the guest arrives.
reattach pc '{ "bandwidthPerMigration": "4Mi", "allowPostCopy": true,
	"convergence": "kubevirt", "completionTimeoutPerGiB": 48 }' PostCopy
rc=0
"$QMIGRATE" abort --status-file "$TMP/src.status" >"$TMP/abort.out" 2>"$TMP/abort.err" || rc=$?
[ "$rc" -eq 5 ] || fail "abort in post-copy exited $rc, expected 5: $(cat "$TMP/abort.err")"
grep -qx 'abortStatus: Failed' "$TMP/abort.out" || fail "qmigrate abort printed: $(cat "$TMP/abort.out")"
expect_qemu_mig src "after the refused abort" postcopy-active
expect_exit again 0 90
expect_exit incoming 0 30
expect_status "$TMP/src.status" .abortStatus Failed
assert_moved

# 2. Paused by qmigrate: the abort cancels and resumes the guest on the source.
PAIR=p-
reattach pause '{ "bandwidthPerMigration": "4Mi", "allowWorkloadDisruption": true,
	"convergence": "kubevirt", "completionTimeoutPerGiB": 48 }' Paused
"$QMIGRATE" abort --status-file "$TMP/p-src.status" >"$TMP/p-abort.out" 2>"$TMP/p-abort.err" ||
	fail "qmigrate abort exited $?: $(cat "$TMP/p-abort.err")"
expect_exit p-again 5 30
expect_status "$TMP/p-src.status" .abortStatus Succeeded
expect_qemu_cancelled p-src "after the abort"
assert_stayed
echo "ok: re-attached sessions kept their mode: the post-copy abort was refused, the paused guest resumed on the source"
