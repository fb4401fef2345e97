#!/usr/bin/env bash
# `migrate --timeout S` is a deadline, and a deadline is an abort (issue 14,
# defect 1: qmigrate exited 3 while QEMU went on migrating, so the guest
# could land on the target while the node agent believed it had failed).
# 1. Pre-copy that cannot finish before the deadline (a busy guest under a
#    20 MiB/s cap; the kubevirt controller would wait 150 s): at the
#    deadline migrate cancels, waits until QEMU says cancelled, and exits 5
#    with a failureReason naming the deadline; the guest runs on the
#    source, intact.
# 2. The deadline passes in post-copy (started by the test through the
#    second monitor, so that it surely starts before the deadline, and
#    slow at 6 MiB/s, so that it surely lasts past it: 64 MiB take 11 s): the target already
#    holds the guest, so nothing can be aborted; the migration goes on and
#    completes (exit 0), and the status says the deadline could not abort.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

# 1. Pre-copy.
mig_stuck --timeout 6
wait_for 30 "the source migrating" status_is "$TMP/src.status" .progress.qemuStatus active
rc=0
bg_wait migrate 60 || rc=$?
# Right at the exit: QEMU has cancelled, it is not still migrating.
qs=$(qemu_mig_status src)
[ "$rc" -eq 5 ] || fail "the deadline: migrate exited $rc, expected 5 (QEMU's migration: $qs): $(tail -n 2 "$TMP/migrate.err")"
expect_qemu_cancelled src "the deadline"
st=$TMP/src.status
[ "$(status_get "$st" .phase)" = Failed ] || fail "phase $(status_get "$st" .phase)"
[ "$(status_get "$st" .exitCode)" = 5 ] || fail "exitCode $(status_get "$st" .exitCode)"
# What QEMU said, as QEMU said it (expect_qemu_cancelled: either word).
[ "$(status_get "$st" .progress.qemuStatus)" = "$(qemu_mig_status src)" ] ||
	fail "the status says QEMU is $(status_get "$st" .progress.qemuStatus), QEMU says $(qemu_mig_status src)"
status_get "$st" .failureReason | grep -Eiq 'deadline|--timeout' ||
	fail "failureReason does not name the deadline: $(status_get "$st" .failureReason)"
assert_stayed
# The target lost its stream: its QEMU does not run the guest.
bg_wait incoming 30 || true
if kill -0 "$(guest_pid dst)" 2>/dev/null; then
	[ "$(run_state dst)" != running ] || fail "the guest runs on the target too"
fi
echo "ok: the deadline cancelled the migration: $(status_get "$st" .failureReason)"

# 2. The deadline in post-copy.
PAIR=pc-
mig_policy pc '{ "bandwidthPerMigration": "6Mi", "allowPostCopy": true,
	"convergence": "kubevirt" }'
mig_start_pair 64 200
mig_incoming --policy "$TMP/pc.json"
start=$SECONDS
mig_migrate --policy "$TMP/pc.json" --timeout 8
st=$TMP/pc-src.status
wait_for 30 "the source migrating" status_is "$st" .progress.qemuStatus active
mon pc-src migrate-start-postcopy >/dev/null
wait_for 30 "the source in post-copy" status_is "$st" .mode PostCopy
[ $((SECONDS - start)) -lt 7 ] ||
	fail "post-copy started $((SECONDS - start)) s after migrate, too close to the 8 s deadline: test proves nothing"
expect_exit pc-migrate 0 120
took=$((SECONDS - start))
[ "$took" -gt 8 ] ||
	fail "post-copy completed after $took s, before the 8 s deadline: test proves nothing"
expect_exit pc-incoming 0 60
[ "$(status_get "$st" .phase)" = Succeeded ] || fail "phase $(status_get "$st" .phase)"
status_get "$st" '.notes[]' | grep -Ei 'deadline|--timeout' | grep -qi 'post-copy' ||
	fail "no note says the deadline passed in post-copy: $(status_get "$st" .notes)"
assert_moved
echo "ok: the deadline passed in post-copy; the migration completed in $took s"
