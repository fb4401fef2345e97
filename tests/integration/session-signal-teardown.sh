#!/usr/bin/env bash
# A SIGTERM at the very end never kills qmigrate (found by fault-random.sh,
# seeds 1042 and 1059, after issue 22's rewrite: mig_watch_free() set
# SIG_IGN and then stopped libev's signal watchers, which put SIG_DFL back,
# so a signal during the rest of the teardown killed migrate or incoming,
# exit 143, while the status file said exitCode 0).  Three migrations; once
# each side's status file says Succeeded, that side gets a SIGTERM every
# 5 ms until it is gone: both exit 0, never by a signal, and the guest
# runs on the target, intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

# spam NAME STATUS: once STATUS says Succeeded, SIGTERM to NAME every 5 ms
# until it exits (in the background: its own process).
spam() {
	local pid
	pid=$(guest_pid "$1")
	bg_start "$1-spam" bash -c '
		until [ "$(jq -r .phase "$2" 2>/dev/null)" = Succeeded ]; do
			kill -0 "$1" 2>/dev/null || exit 0
			sleep 0.005	# bounded polling of the file: no event says it
		done
		# The fault itself: a SIGTERM every 5 ms until the process is gone.
		while kill -TERM "$1" 2>/dev/null; do sleep 0.005; done	# cadence' spam "$pid" "$2"
}

mig_policy quick '{ "bandwidthPerMigration": "64Mi" }'
for PAIR in a- b- c-; do
	mig_start_pair 32 1
	mig_incoming --policy "$TMP/quick.json"
	spam "${PAIR}incoming" "$TMP/${PAIR}dst.status"
	mig_migrate --policy "$TMP/quick.json"
	spam "${PAIR}migrate" "$TMP/${PAIR}src.status"
	rc=0
	bg_wait "${PAIR}migrate" 60 || rc=$?
	[ "$rc" -eq 0 ] || fail "${PAIR}migrate exited $rc (status file: exitCode $(status_get "$TMP/${PAIR}src.status" .exitCode))"
	rc=0
	bg_wait "${PAIR}incoming" 60 || rc=$?
	[ "$rc" -eq 0 ] || fail "${PAIR}incoming exited $rc (status file: exitCode $(status_get "$TMP/${PAIR}dst.status" .exitCode))"
	assert_moved
done
PAIR=
echo "ok: SIGTERMs at the end of three migrations killed neither side"
