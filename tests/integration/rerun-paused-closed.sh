#!/usr/bin/env bash
# A re-run that closes the record of a guest its killed run had paused
# resumes it (issue 30, audit D12: the record was closed with exit 4, "the
# guest runs on the source", while it stayed paused there).  Over tls:,
# the kubevirt controller pauses a busy guest (allowWorkloadDisruption);
# qmigrate migrate is SIGKILLed once the document says mode Paused; its
# proxy dies with it, so QEMU's migration fails and the guest stays
# paused on the source.  The same command with the same --status-file:
# exit 4, the same migrationUid, Failed plane data, a failureReason that
# says the guest runs on the source again (the target asked first: it
# never loaded it), mode PreCopy; the source runs the guest the
# moment migrate is gone, every page intact, and the target QEMU never
# ran it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp
mig_tls
st=$TMP/src.status

mig_policy pause '{ "bandwidthPerMigration": "8Mi", "allowWorkloadDisruption": true,
	"completionTimeoutPerGiB": 8, "convergence": "kubevirt" }'
mig_start_pair 64 200
mig_tls_incoming
mig_tls_migrate migrate "$TMP/src.qmp" --policy "$TMP/pause.json"
wait_for 90 "the controller's pause" _mig_paused
wait_for 10 "mode Paused in the document" status_is "$st" .mode Paused
kill -KILL "$(guest_pid migrate)"
wait_for 10 "the first migrate gone" _lib_gone "$(guest_pid migrate)"
uid=$(status_get "$st" .migrationUid)
wait_for 30 "the source QEMU's migration to fail" _mig_qemu_ended src
expect_qemu_mig src "after the kill" failed cancelled
[ "$(run_state src)" = paused ] || fail "the source is $(run_state src) after the kill, not paused"
echo "ok: killed while the guest was paused; QEMU's migration $(qemu_mig_status src)"

mig_tls_migrate again "$TMP/src.qmp" --policy "$TMP/pause.json"
expect_exit again 4 60
state=$(run_state src)
[ "$state" = running ] || fail "the source is $state after the re-run, not running"
expect_failed "$st" 4 data re-run
expect_status "$st" .migrationUid "$uid" re-run
expect_status "$st" .mode PreCopy re-run
# Over tls: the target's word closes it (QEMU failed unwatched, maybe
# after the device state left): "it runs on the source again".
status_get "$st" .failureReason | grep -Eq 'resumes it|runs on the source again' ||
	fail "re-run: the failureReason does not say the guest is resumed: $(status_get "$st" .failureReason)"
status_get "$st" '.notes[]?' | grep -qi 'stays paused' &&
	fail "a note says the guest stays paused: $(status_get "$st" .notes)"
d=$(mon dst query-status 2>/dev/null | jq -r .status || echo gone)
[ "$d" != running ] || fail "the target QEMU runs the guest too"
assert_stayed
echo "ok: the re-run closed $uid and resumed the guest on the source (target: $d)"
