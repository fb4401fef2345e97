#!/usr/bin/env bash
# Issue 30, window "exit 3 while the guest moved" (audit D3): over unix:,
# the source's `migrate` command answered after 12 s, where qmigrate's
# command timeout is 10 s.  Before the fix migrate took the timeout for a
# refusal and exited 3 ("control plane: nothing moved") while QEMU, given
# the command at 12 s, migrated the guest to the target and incoming
# exited 0.
# The fake: tests/qmp-relay in front of the SOURCE's monitor holds the
# command with "execute":"migrate","arguments" 12 s (and what follows it on
# that connection) before QEMU gets it: a real QEMU answers `migrate` at
# once.
# What a user must see: migrate watches QEMU migrate and exits 0, incoming
# exits 0, both documents Succeeded; the guest never runs on both QEMUs
# and runs on the target with every page intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp

hand_pair 32 1
mig_incoming
relay_before relay src --hold '"execute":"migrate","arguments"' --hold-for 12
hand_sample
MIG_QMP=$TMP/relay.sock mig_migrate
exit_of migrate 120
m=$RC
wait_log "$TMP/relay.out" 'released|hung up|closed' 30
grep -q 'holding' "$TMP/relay.out" ||
	fail "the relay never held migrate: the test proved nothing: $(cat "$TMP/relay.out")"
# QEMU got the command at 12 s whatever migrate made of it: its migration
# ends by itself (nobody cancels it).
wait_for 60 "the source QEMU's migration to end" _mig_qemu_ended src
exit_of incoming 60
i=$RC
echo "migrate exited $m ($(doc_says "$TMP/src.status")); incoming exited $i ($(doc_says "$TMP/dst.status")); QEMU's migration $(qemu_mig_status src)"
assert_never_both "migrate answered late"
[ "$m/$i" = 0/0 ] ||
	fail "migrate answered late: migrate exited $m, incoming $i, QEMU's migration $(qemu_mig_status src) (source $SRC_STATE, target $DST_STATE): expected 0 on both"
expect_doc "$TMP/src.status" source Succeeded 0
expect_doc "$TMP/dst.status" target Succeeded 0
assert_on_target "migrate answered late"
echo "ok: the source's migrate answered 12 s late: migrate watched QEMU migrate, exits 0/0, the guest on the target"
