#!/usr/bin/env bash
# Issue 37, "a guest that arrives in prelaunch": a source QEMU started with
# -S and never resumed.  Before the fix `check` called that VM migratable,
# `migrate` moved it, and the target's `incoming` never ended (no case for
# that run state), deaf to --timeout and SIGTERM.  No fake: real QEMUs.
# What a user must see:
#  1. `check` says not live-migratable (exit 2), reason GuestNotStarted;
#     `migrate` refuses it (exit 2) with the reason in its document, and
#     the source QEMU is left in prelaunch, its migration never started;
#  2. the target handles it anyway: a prelaunch guest migrated by QEMU
#     itself (migrate sent by hand on the source's monitor) arrives, and
#     `incoming` ends 0 within 60 s, Succeeded, noting the guest was never
#     started, and leaves it in prelaunch (no cont); resumed by hand, the
#     guest boots there and reads every page.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

memguest_args 32 1
_lib_qemu src "${MEMGUEST_ARGS[@]}" -S -qmp "unix:$TMP/src.mon,server=on,wait=off"
wait_for 30 "the source QEMU's monitor" test -S "$TMP/src.mon"
[ "$(run_state src)" = prelaunch ] || fail "the source QEMU is $(run_state src), not prelaunch"

# 1. check and migrate refuse it.
rc=0
out=$("$QMIGRATE" check --qmp "$TMP/src.qmp" 2>&1) || rc=$?
echo "check exited $rc: $(echo "$out" | grep -m1 GuestNotStarted)"
[ "$rc" -eq 2 ] || fail "check on a never-started guest exited $rc, expected 2: $out"
echo "$out" | grep -q GuestNotStarted || fail "check does not name GuestNotStarted: $out"
start_memguest_incoming dst 32 1 -qmp "unix:$TMP/dst.mon,server=on,wait=off"
mig_incoming --timeout 120
mig_migrate
expect_exit migrate 2 60
expect_failed "$TMP/src.status" 2 - source
jq -r .failureReason "$TMP/src.status" | grep -q GuestNotStarted ||
	fail "migrate's reason does not name GuestNotStarted: $(jq -r .failureReason "$TMP/src.status")"
[ "$(run_state src)" = prelaunch ] || fail "migrate left the source QEMU $(run_state src), not prelaunch"
expect_qemu_mig src "the refused migrate" none

# 2. QEMU migrates it on its own word: the target ends, the guest as it came.
mon src migrate "{\"uri\": \"unix:$TMP/mig.sock\"}" >/dev/null
exit_code=0
bg_wait incoming 60 || exit_code=$?
echo "incoming exited $exit_code ($(jq -c '{phase, exitCode, notes}' "$TMP/dst.status"))"
[ "$exit_code" -eq 0 ] || fail "incoming for a guest that arrived in prelaunch exited $exit_code, expected 0"
expect_status "$TMP/dst.status" .phase Succeeded target
jq -r '.notes[]?' "$TMP/dst.status" | grep -q 'never started' ||
	fail "the target's document does not say the guest was never started: $(jq -c .notes "$TMP/dst.status")"
[ "$(run_state dst)" = prelaunch ] || fail "the target QEMU is $(run_state dst), not prelaunch: incoming started it"
mon dst cont >/dev/null
wait_for 30 "the guest to boot on the target" _lib_log_ready dst '^memguest: ready '
assert_memory_intact "$TMP/dst.serial"
echo "ok: a never-started guest: check and migrate refuse it (2); migrated anyway, incoming ends 0 and leaves it in prelaunch"
