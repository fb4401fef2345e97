#!/usr/bin/env bash
# The README's "resumed if QEMU had paused it" (issue 22, defect 8: no
# real-QEMU test covered it): the guest paused by the controller (policy
# allowWorkloadDisruption: the kubevirt controller's pause decision), then
# the target QEMU killed, a data-plane failure: migrate exits 4, plane
# data, and the source runs the guest again the moment migrate is gone,
# its memory intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

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
	mig_migrate --policy "$TMP/pause.json"
	wait_for 90 "the controller's pause" paused_by_controller
}

PAIR=
start_paused
kill_guest dst
rc=0
bg_wait migrate 60 || rc=$?
state=$(run_state src)
[ "$state" = running ] || fail "the source is $state when migrate exited $rc"
[ "$rc" -eq 4 ] || fail "exit $rc, expected 4: $(tail -n 3 "$TMP/migrate.err")"
[ "$(status_get "$TMP/src.status" .failurePlane)" = data ] ||
	fail "failurePlane $(status_get "$TMP/src.status" .failurePlane)"
status_get "$TMP/src.status" '.notes[]?' | grep -qi 'stays paused' &&
	fail "a note says the guest stays paused: $(status_get "$TMP/src.status" .notes)"
assert_stayed
echo "ok: paused by the controller, then the target killed: exit 4, the guest resumed on the source"
