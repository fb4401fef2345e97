#!/usr/bin/env bash
# The controller aborts (issue 22, defect 8: no real-QEMU test covered the
# README's "abort (... the controller) before post-copy"): a guest that
# cannot converge (200 MB/s under 20 MiB/s), a policy that allows neither
# post-copy nor a pause, and the kubevirt controller's acceptable time
# (completionTimeoutPerGiB 8) passing.  migrate exits 5 on its own: phase
# Failed, abortStatus Succeeded, abortRequested false (nobody asked), an
# abort decision with its reason, QEMU's migration cancelled; the guest
# runs on the source with its memory intact; the target reports the
# broken stream (exit 4).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

mig_policy hopeless '{ "bandwidthPerMigration": "20Mi", "completionTimeoutPerGiB": 8,
	"convergence": "kubevirt" }'
mig_start_pair 64 200
mig_incoming --policy "$TMP/hopeless.json"
mig_migrate --policy "$TMP/hopeless.json"
expect_exit migrate 5 120
st=$TMP/src.status
[ "$(status_get "$st" .phase)" = Failed ] || fail "phase $(status_get "$st" .phase)"
[ "$(status_get "$st" .exitCode)" = 5 ] || fail "exitCode $(status_get "$st" .exitCode)"
[ "$(status_get "$st" .abortStatus)" = Succeeded ] || fail "abortStatus $(status_get "$st" .abortStatus)"
[ "$(status_get "$st" .abortRequested)" = false ] ||
	fail "abortRequested $(status_get "$st" .abortRequested): nobody asked for this abort"
decisions "$st" | grep -qw abort || fail "no abort decision: $(decisions "$st")"
reason=$(status_get "$st" '.decisions[] | select(.action == "abort") | .reason')
[ -n "$reason" ] || fail "the abort decision has no reason"
expect_qemu_cancelled src "after the controller's abort"
assert_stayed
expect_exit incoming 4 30
echo "ok: the controller aborted ($reason); the guest runs on the source"
