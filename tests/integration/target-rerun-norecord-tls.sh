#!/usr/bin/env bash
# Issue 37, sim-real seed 3085721 (11.1, tls:, main cb7af35): `incoming`
# over tls: SIGKILLed once the guest had arrived and ran on the target,
# every write of its status file failed (a full disk), so no record; its
# re-run over tls: found QEMU completed and running and said 3, "not
# waiting for a migration (run state running): start it with -incoming
# defer", the exit that tells the guest is not on the target, while it
# ran there.  Over unix: that shape was 8 already (0e67619,
# target-rerun-norecord-unix.sh); over tls: the re-run did not ask
# QEMU's migration at all.  The record is taken away after the
# migration: the re-run finds what a killed run whose writes all failed
# leaves (QEMU completed, running; no record).  No fake: real QEMUs.
# What a user must see:
#  1. the re-run over the target QEMU whose guest arrived: not known (8,
#     phase Failed, a reason naming the incoming migration QEMU has and
#     the missing record), never 3; the guest still runs there, intact;
#  2. still 3 where it is true: `incoming` over tls: on the source QEMU
#     (postmigrate, its own outgoing migration completed);
#  3. the re-run of 1 with its query-migrate dropped (a relay): not known
#     (8), never the setup's "no reply" 3 (that was 3 before, by reading).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp
mig_tls

mig_start_pair 32 1
mig_tls_incoming
mig_tls_migrate migrate "$TMP/src.qmp"
expect_moved 120 60

# rerun_tls NAME QEMU: incoming over tls: for QEMU (no record), as NAME.
rerun_tls() {
	rm -f "$TMP/$2.status"
	TLS_PORT=$((TLS_PORT + 1))
	bg_start "$1" "$QMIGRATE" incoming --qmp "$TMP/$2.qmp" \
		--listen "tls:127.0.0.1:$TLS_PORT" --tls-dir "$TMP/pki/dst" \
		--status-file "$TMP/$2.status"
}

# 1. The guest arrived, no record: not known.
rerun_tls rerun dst
exit_of rerun 60
echo "1: the re-run over the arrived guest, no record, exited $RC: $(tail -n 1 "$TMP/rerun.err")"
[ "$RC" -eq 8 ] ||
	fail "1: the re-run incoming exited $RC, expected 8 (not known; 3 says the guest is not here)"
expect_doc "$TMP/dst.status" "1: the re-run's document" Failed 8
grep -q 'has an incoming migration (completed, run state running) and the status file no record of it' \
	"$TMP/rerun.err" || fail "1: the reason does not name QEMU's migration: $(tail -n 1 "$TMP/rerun.err")"
[ "$(run_state dst)" = running ] || fail "1: the target QEMU is $(run_state dst)"
assert_memory_intact "$TMP/dst.serial"

# 2. A QEMU whose own (outgoing) migration completed: 3 as before.
rerun_tls onsrc src
exit_of onsrc 60
echo "2: incoming on the source QEMU exited $RC: $(tail -n 1 "$TMP/onsrc.err")"
[ "$RC" -eq 3 ] || fail "2: incoming on the postmigrate source QEMU exited $RC, expected 3"
grep -q 'not waiting for a migration (run state postmigrate)' "$TMP/onsrc.err" ||
	fail "2: $(tail -n 1 "$TMP/onsrc.err")"

# 3. The re-run of 1, its setup's query-migrate (the one after its
# query-status) never answered: dropped.
need_file "$top_builddir/tests/qmp-relay" "tests/qmp-relay"
bg_start relay "$top_builddir/tests/qmp-relay" --armed-by '"query-status"' \
	--drop '"query-migrate"' \
	"$TMP/relay.sock" "$TMP/dst.qmp"
wait_log "$TMP/relay.out" '^ready' 10
rm -f "$TMP/dst.status"
TLS_PORT=$((TLS_PORT + 1))
bg_start mute "$QMIGRATE" incoming --qmp "$TMP/relay.sock" \
	--listen "tls:127.0.0.1:$TLS_PORT" --tls-dir "$TMP/pki/dst" \
	--status-file "$TMP/dst.status"
exit_of mute 60
echo "3: the re-run with query-migrate unanswered exited $RC: $(tail -n 1 "$TMP/mute.err")"
[ "$RC" -eq 8 ] || fail "3: the re-run whose query-migrate got no answer exited $RC, expected 8"
grep -q 'its query-migrate got no answer' "$TMP/mute.err" ||
	fail "3: the reason does not say the answer was missing: $(tail -n 1 "$TMP/mute.err")"
expect_doc "$TMP/dst.status" "3: the re-run's document" Failed 8
[ "$(run_state dst)" = running ] || fail "3: the target QEMU is $(run_state dst)"
echo "ok: incoming re-run over tls: with no record: an arrived guest not known (8), never 3, its query-migrate answered or not; a source QEMU still 3"
