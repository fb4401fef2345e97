#!/usr/bin/env bash
# qmigrate check --update (QEMU 11.1) sets QEMU's migration mode to
# cpr-transfer, then cpr-exec, for a moment each to read QEMU's blockers,
# and puts it back.  Here the put-back of cpr-exec gets no answer: a relay
# (tests/qmp-relay) holds it 15 s, past the check's 10 s.  QEMU may still
# be in cpr-exec when the check ends, in which a plain migrate would exec:
# the check says so in one clear line, how to undo it, and exits 3 (the
# man page's "QEMU could not be asked").  Before, it warned
# "migrate-set-parameters mode normal: no reply within 10 s" and exited 0,
# "Update modes: transfer exec".
. "$top_srcdir/tests/cpr-exec-lib.sh"
cpr_exec_test_begin
relay=$top_builddir/tests/qmp-relay
need_file "$relay" "tests/qmp-relay"

cpr_exec_start g 32 50
bg_start relay "$relay" --armed-by '"mode":"cpr-exec"' --hold '"mode":"normal"' --hold-for 15 \
	"$TMP/r.qmp" "$TMP/g.qmp"
wait_log "$TMP/relay.out" '^ready' 10

run_qmigrate 3 check --qmp "$TMP/r.qmp" --update
grep -q 'holding' "$TMP/relay.out" ||
	fail "the relay held nothing: the test proved nothing: $(cat "$TMP/relay.out")"
expect_err "its migration mode, set to cpr-exec for a moment to probe the update, was not put back (no answer): it may still be cpr-exec"
expect_err "undo it with migrate-set-parameters mode normal"
# The line is true: the relay, gone before its hold ended, never passed
# the put-back on, and QEMU is in cpr-exec; put back by hand.
_lib_pid_of relay
kill -TERM "$_lib_pid"
expect_exit relay 143 10
qmp g query-migrate-parameters | grep -q '"mode": "cpr-exec"' ||
	fail "QEMU's mode: $(qmp g query-migrate-parameters | grep mode)"
"$QMIGRATE" qmp --qmp "$TMP/g.qmp" migrate-set-parameters '{"mode": "normal"}' >/dev/null ||
	fail "the mode could not be put back by hand"
cpr_running g || fail "the guest does not run: $(qmp g query-status)"
echo "ok: check --update whose put-back got no answer: one line saying the mode may be left and how to undo it, exit 3"
