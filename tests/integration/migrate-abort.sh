#!/usr/bin/env bash
# Abort in pre-copy, twice: by `qmigrate abort --status-file` and by
# SIGTERM to `qmigrate migrate`.  The busy guest never converges under the
# 20 MiB/s cap and the kubevirt controller waits 150 s before it would give
# up by itself, so the abort is ours.  Each time: migrate exits 5 with
# abortStatus Succeeded, the guest runs on on the source with its memory
# intact, and the target (whose QEMU exits when the incoming stream is cut)
# reports a data-plane failure (exit 4).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

mig_policy stuck '{ "bandwidthPerMigration": "20Mi", "convergence": "kubevirt" }'

# check_aborted HOW: the aborted pair's user-visible outcome.
check_aborted() {
	local st=$TMP/${PAIR}src.status
	expect_exit "${PAIR}migrate" 5 30
	[ "$(status_get "$st" .phase)" = Failed ] || fail "$1: phase $(status_get "$st" .phase)"
	[ "$(status_get "$st" .failed)" = true ] || fail "$1: failed not true"
	[ "$(status_get "$st" .abortRequested)" = true ] || fail "$1: abortRequested not true"
	[ "$(status_get "$st" .abortStatus)" = Succeeded ] ||
		fail "$1: abortStatus $(status_get "$st" .abortStatus)"
	[ "$(status_get "$st" .exitCode)" = 5 ] || fail "$1: exitCode $(status_get "$st" .exitCode)"
	# Over unix: the return path is on (N1): the target's QEMU, seeing its
	# stream cut, may tell the source first, and QEMU then ends the
	# migration "failed" rather than "cancelled"; either way the guest
	# stayed (assert_stayed) and the exit is 5.
	case $(status_get "$st" .progress.qemuStatus) in
	cancelled | failed) ;;
	*) fail "$1: QEMU status $(status_get "$st" .progress.qemuStatus)" ;;
	esac
	case $(mon "${PAIR}src" query-migrate | jq -r .status) in
	cancelled | failed) ;;
	*) fail "$1: source QEMU's migration is neither cancelled nor failed" ;;
	esac
	assert_stayed
	# The target QEMU exits when its incoming stream is cut.
	expect_exit "${PAIR}incoming" 4 30
	wait_guest_exit "${PAIR}dst" 10
	st=$TMP/${PAIR}dst.status
	[ "$(status_get "$st" .failurePlane)" = data ] ||
		fail "$1: target failurePlane $(status_get "$st" .failurePlane)"
}

# 1. qmigrate abort.
mig_start_pair 64 200
mig_incoming --policy "$TMP/stuck.json"
mig_migrate --policy "$TMP/stuck.json"
wait_for 30 "8 MiB migrated" moved_mib 8
"$QMIGRATE" abort --status-file "$TMP/src.status" >"$TMP/abort.out" 2>"$TMP/abort.err" ||
	fail "qmigrate abort exited $?: $(cat "$TMP/abort.err")"
grep -qx 'abortStatus: Succeeded' "$TMP/abort.out" ||
	fail "qmigrate abort printed: $(cat "$TMP/abort.out")"
check_aborted "qmigrate abort"
grep -q 'abort requested (SIGTERM)' "$TMP/migrate.err" || fail "no abort line on stderr"
# The migration has ended: a second abort says so (exit 3).
rc=0
"$QMIGRATE" abort --status-file "$TMP/src.status" 2>"$TMP/abort2.err" || rc=$?
[ "$rc" -eq 3 ] || fail "abort of an ended migration exited $rc, expected 3"
grep -q 'already ended' "$TMP/abort2.err" || fail "abort of an ended migration: $(cat "$TMP/abort2.err")"

# 2. SIGTERM to qmigrate migrate, on a second pair.
PAIR=b-
mig_start_pair 64 200
mig_incoming --policy "$TMP/stuck.json"
mig_migrate --policy "$TMP/stuck.json"
wait_for 30 "8 MiB migrated" moved_mib 8
kill -TERM "$(guest_pid b-migrate)"
check_aborted SIGTERM
echo "ok: both aborts left the guest running on the source ($(last_progress "$TMP/b-src.serial"))"
