#!/usr/bin/env bash
# The guest paused by the controller (policy allowWorkloadDisruption: the
# kubevirt controller's pause decision), then SIGTERM to migrate, and a
# second SIGTERM while migrate resumes the guest (issue 22, defect 5:
# `cont` came after the last document and after the signal watchers were
# stopped, so the second signal killed migrate, exit 143, with the guest
# left paused).  tests/qmp-relay holds migrate's `cont` 6 s on its way to
# QEMU: the window.  Then: exit 5, never a signal, abortStatus Succeeded,
# the source runs the guest the moment migrate is gone, and its memory is
# intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp
need_file "$top_builddir/tests/qmp-relay" "tests/qmp-relay"

# 8 MiB/s against a guest dirtying 200 MB/s: the controller pauses it
# after its acceptable time, and the paused guest's last pass then takes
# seconds (the window).
mig_policy pause '{ "bandwidthPerMigration": "8Mi", "allowWorkloadDisruption": true,
	"completionTimeoutPerGiB": 8, "convergence": "kubevirt" }'

# paused_by_controller: PAIR's migrate decided to pause and QEMU is paused.
paused_by_controller() {
	decisions "$TMP/${PAIR}src.status" | grep -qw pause &&
		[ "$(run_state "${PAIR}src")" = paused ]
}

# start_paused: PAIR's migration, waited for until the controller paused.
start_paused() {
	mig_start_pair 64 200
	mig_incoming --policy "$TMP/pause.json"
	bg_start relay "$top_builddir/tests/qmp-relay" --hold '"execute":"cont"' \
		--hold-for 6 "$TMP/relay.sock" "$TMP/src.qmp"
	wait_log "$TMP/relay.out" '^ready' 10
	bg_start migrate "$QMIGRATE" migrate --qmp "$TMP/relay.sock" \
		--to "unix:$TMP/mig.sock" --status-file "$TMP/src.status" \
		--policy "$TMP/pause.json" --events
	wait_for 90 "the controller's pause" paused_by_controller
}

start_paused
pid=$(guest_pid migrate)
kill -TERM "$pid"
wait_log "$TMP/relay.out" 'holding' 30
kill -TERM "$pid" 2>/dev/null || true
rc=0
bg_wait migrate 60 || rc=$?
# Right away: QEMU was resumed before migrate exited.
state=$(run_state src)
[ "$rc" -lt 128 ] || fail "migrate killed by signal $((rc - 128)) with the source $state"
[ "$state" = running ] || fail "the source is $state when migrate exited $rc"
[ "$rc" -eq 5 ] || fail "exit $rc, expected 5: $(tail -n 3 "$TMP/migrate.err")"
st=$TMP/src.status
[ "$(status_get "$st" .exitCode)" = 5 ] || fail "exitCode $(status_get "$st" .exitCode)"
[ "$(status_get "$st" .abortStatus)" = Succeeded ] || fail "abortStatus $(status_get "$st" .abortStatus)"
assert_stayed
echo "ok: paused by the controller, then two SIGTERMs: exit 5, the guest resumed on the source"
