#!/usr/bin/env bash
# Issue 30, window "incoming --listen tcp: ignores SIGTERM before any source
# connects" (audit D17): qmigrate incoming over tcp: with no source at all,
# then SIGTERM.  Before the fix it refused the signal (over tcp: the target
# cannot stop a stream its QEMU receives) and, with nothing to end its
# listening, never exited.  No fake here: a real QEMU, a real incoming, no
# source.
# What a user must see (README's failure table: "SIGTERM to incoming
# --listen tcp: before any source came"): incoming exits 5 (aborted:
# nothing arrived) within 20 s of the SIGTERM, its document Failed,
# exitCode 5, abortStatus Succeeded; the target QEMU, which no guest ever
# ran in, is stopped for good (quit: over tcp: nothing else closes its
# listening socket, so no source can reach it later) and never ran a
# guest.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp

start_memguest_incoming dst 32 1 -qmp "unix:$TMP/dst.mon,server=on,wait=off"
port=$((20000 + RANDOM % 20000))
# Plaintext tcp: is the policy's choice (disableTLS).
mig_policy plain '{ "disableTLS": true }'
bg_start incoming "$QMIGRATE" incoming --qmp "$TMP/dst.qmp" \
	--listen "tcp:127.0.0.1:$port" --status-file "$TMP/dst.status" \
	--policy "$TMP/plain.json"
wait_for 30 "dst prepared" status_is "$TMP/dst.status" .phase TargetReady
kill -TERM "$(guest_pid incoming)"
t0=$SECONDS
if ! gone_within "$(guest_pid incoming)" 20; then
	fail "SIGTERM to incoming over tcp: before any source: still running after 20 s ($(doc_says "$TMP/dst.status"); $(tail -n 1 "$TMP/incoming.err"))"
fi
exit_of incoming 1
echo "incoming exited $RC $((SECONDS - t0)) s after its SIGTERM ($(doc_says "$TMP/dst.status"))"
[ "$RC" -eq 5 ] || fail "incoming exited $RC, expected 5: $(tail -n 2 "$TMP/incoming.err")"
expect_doc "$TMP/dst.status" target Failed 5
expect_status "$TMP/dst.status" .abortStatus Succeeded target
wait_guest_exit dst 10
! grep -aq '^memguest:' "$TMP/dst.serial" ||
	fail "a guest ran on the target QEMU: $(grep -a '^memguest:' "$TMP/dst.serial" | head -n 2)"
echo "ok: SIGTERM to incoming over tcp: before any source: exit 5, the idle target QEMU stopped"
