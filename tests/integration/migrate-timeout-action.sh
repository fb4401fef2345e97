#!/usr/bin/env bash
# `migrate --timeout S --timeout-action postcopy|pause`: a deadline that
# finishes the migration instead of cancelling it (issue 39 item 4; virsh's
# --timeout-postcopy and --timeout-suspend).  A busy guest (200 MB/s) under
# a 10 MiB/s cap does not converge on its own, and the kubevirt controller
# would wait 150 s before it acts: only the 6 s deadline can finish it.
# 1. postcopy: at the deadline migrate starts post-copy; both sides exit 0,
#    the guest runs on the target with every page verified, the source's
#    document says mode PostCopy and records the decision "post-copy" with
#    requestedBy "timeout".
# 2. pause: at the deadline the source's vCPUs are stopped, pre-copy
#    converges with the guest paused; both exit 0, the guest runs on the
#    target (incoming given --postcopy allows the disruption, so it resumes
#    what arrives paused), every page verified; decision "pause" by the
#    timeout.
# 3. Refusals before QEMU is touched: postcopy without post-copy allowed,
#    pause without workload disruption allowed, either without --timeout,
#    an unknown action: exit 1 with one line naming the flag, the source
#    QEMU still running with no migration.
# On b475dc5 the test fails at its first command (checked: incoming exits
# 1, "unknown option --bandwidth": the per-run flags came later); on main
# before --timeout-action, migrate exits 1 at that flag.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

flags=(--bandwidth 10Mi --convergence kubevirt --postcopy)

# expect_timeout_decision FILE ACTION: the document's last decision is
# ACTION, asked for by the timeout, with the figures it was taken on.
expect_timeout_decision() {
	local d
	d=$(status_get "$1" '.decisions[-1] | "\(.action) \(.requestedBy) \(.figures.dataRemaining)"')
	set -- "$1" "$2" $d
	[ "$3" = "$2" ] && [ "$4" = timeout ] && [ "${5:-0}" -gt 0 ] ||
		fail "$(basename "$1"): last decision is \"$3 by $4, ${5:-?} bytes left\", expected $2 by timeout: $(status_get "$1" .decisions)"
	status_get "$1" '.decisions[-1].reason' | grep -q -- '--timeout-action' ||
		fail "the decision's reason does not name --timeout-action: $(status_get "$1" '.decisions[-1].reason')"
}

# 1. postcopy.
PAIR=pc-
mig_start_pair 64 200
mig_incoming "${flags[@]}"
start=$SECONDS
mig_migrate "${flags[@]}" --timeout 6 --timeout-action postcopy
st=$TMP/pc-src.status
wait_for 30 "the source migrating" status_is "$st" .progress.qemuStatus active
expect_exit pc-migrate 0 120
took=$((SECONDS - start))
[ "$took" -ge 6 ] || fail "migrate completed in $took s, before the 6 s deadline: test proves nothing"
expect_exit pc-incoming 0 60
expect_status "$st" .mode PostCopy
expect_status "$st" .migrationConfiguration.timeoutAction postcopy
expect_status "$st" .migrationConfiguration.sources.timeoutAction "flag --timeout-action"
expect_status "$st" .abortStatus null
expect_timeout_decision "$st" post-copy
assert_moved
echo "ok: the deadline started post-copy; completed in $took s: $(status_get "$st" '.decisions[-1].reason')"

# 2. pause.
PAIR=pa-
mig_start_pair 64 200
mig_incoming "${flags[@]}"
start=$SECONDS
mig_migrate "${flags[@]}" --timeout 6 --timeout-action pause
st=$TMP/pa-src.status
wait_for 30 "the source migrating" status_is "$st" .progress.qemuStatus active
expect_exit pa-migrate 0 120
took=$((SECONDS - start))
[ "$took" -ge 6 ] || fail "migrate completed in $took s, before the 6 s deadline: test proves nothing"
expect_exit pa-incoming 0 60
expect_status "$st" .mode Paused
expect_status "$st" .migrationConfiguration.timeoutAction pause
expect_timeout_decision "$st" pause
assert_moved
echo "ok: the deadline paused the guest, pre-copy converged in $took s: $(status_get "$st" '.decisions[-1].reason')"

# 3. Refusals, the guest untouched.
PAIR=r-
mig_start_pair 16 20
# refuse WANT-IN-MESSAGE ARGS...: migrate exits 1 with one line naming it.
refuse() {
	local want=$1 rc=0
	shift
	"$QMIGRATE" migrate --qmp "$TMP/r-src.qmp" --to "unix:$TMP/r-mig.sock" "$@" \
		>"$TMP/refuse.out" 2>"$TMP/refuse.err" || rc=$?
	[ "$rc" -eq 1 ] || fail "migrate $*: exited $rc, expected 1 (usage): $(cat "$TMP/refuse.err")"
	[ "$(grep -c . "$TMP/refuse.err")" -eq 1 ] || fail "migrate $*: not one line: $(cat "$TMP/refuse.err")"
	grep -q -- "$want" "$TMP/refuse.err" || fail "migrate $*: the message does not name $want: $(cat "$TMP/refuse.err")"
	echo "refused: $(cat "$TMP/refuse.err")"
}
refuse "--timeout-action postcopy: post-copy is not allowed" --timeout 5 --timeout-action postcopy
refuse "--timeout-action pause: pausing the guest" --timeout 5 --timeout-action pause --no-postcopy
refuse "--timeout-action postcopy: needs a --timeout" --postcopy --timeout-action postcopy
refuse '--timeout-action: expected abort, postcopy or pause, got "later"' --timeout 5 --timeout-action later
[ "$(run_state r-src)" = running ] || fail "a refusal touched the source: $(run_state r-src)"
[ "$(qemu_mig_status r-src)" = none ] || fail "a refusal started a migration: $(qemu_mig_status r-src)"
assert_stayed
echo "ok: refusals left the guest running on the source"
