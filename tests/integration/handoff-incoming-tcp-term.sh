#!/usr/bin/env bash
# Issue 30, window "incoming --listen tcp: ignores SIGTERM before any source
# connects" (audit D17): qmigrate incoming over tcp: with no source at all,
# then SIGTERM.  Before the fix it refused the signal (over tcp: the target
# cannot stop a stream its QEMU receives) and, with nothing to end its
# listening, never exited.  No fake here: a real QEMU, a real incoming, no
# source.
# What a user must see: incoming exits 5 (aborted: nothing arrived) within
# 20 s of the SIGTERM, its document Failed, exitCode 5, abortStatus
# Succeeded; the target QEMU left as it was (still there, inmigrate: no
# guest ran there).
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
state=$(place_of dst)
[ "$state" = inmigrate ] || fail "the target QEMU is $state, expected inmigrate (left as it was)"
echo "ok: SIGTERM to incoming over tcp: before any source: exit 5, the QEMU left inmigrate"
