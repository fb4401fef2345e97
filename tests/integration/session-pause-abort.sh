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

# The relay holds migrate's cont: the window for the second SIGTERM.
mig_relay --hold '"execute":"cont"' --hold-for 6
MIG_QMP=$TMP/relay.sock mig_pause
pid=$(guest_pid migrate)
kill -TERM "$pid"
wait_log "$TMP/relay.out" 'holding' 30
kill -TERM "$pid" 2>/dev/null || true
expect_resumed 5 60
expect_status "$TMP/src.status" .exitCode 5
expect_status "$TMP/src.status" .abortStatus Succeeded
assert_stayed
echo "ok: paused by the controller, then two SIGTERMs: exit 5, the guest resumed on the source"
