#!/usr/bin/env bash
# Issue 37, sim-real seed 9507581 (audit N3's other side): a cancel decided
# on an "active" that QEMU reads only once it began the switchover.  In the
# seed the source QEMU was stopped 35 s; the abort waited for a fresh
# answer, got "active", and QEMU stopped the guest for the switchover at
# once, before it read the migrate_cancel.  It sent the device state, the
# target loaded it and ran the guest, and the cancelled source resumed its
# own copy: migrate 5, incoming 0, the guest on both.  Now migrate sets
# pause-before-switchover: QEMU waits in pre-switchover, the guest stopped,
# for a migrate-continue that migrate sends only in the switchover it
# knows of, so a cancel that reaches QEMU there cancels, no device state
# sent.  On the old code QEMU completed within the hold and the wait for
# pre-switchover below fails.
# The fake: tests/qmp-relay in front of the source's monitor holds the
# migrate_cancel (and what follows it on that connection) 6 s, within the
# monitor's 10 s reply bound, so that QEMU reads it after the pre-copy's
# end (32 MiB at 16 MiB/s).  Everything else is real.
# What a user must see: migrate 5 (the guest on the source, every page
# intact), incoming not 0, the guest never on both QEMUs nor on the target.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp
st=$TMP/src.status

# src_migration_is STATUS: the source QEMU's migration status is STATUS
# (asked on the sampler's own monitor, not through the relay).
src_migration_is() {
	[ "$(timeout 5 "$QMIGRATE" qmp --qmp "$TMP/src.watch" query-migrate 2>/dev/null |
		jq -r .status)" = "$1" ]
}

start_memguest src 32 1 -qmp "unix:$TMP/src.mon,server=on,wait=off" \
	-qmp "unix:$TMP/src.watch,server=on,wait=off"
start_memguest_incoming dst 32 -qmp "unix:$TMP/dst.mon,server=on,wait=off" \
	-qmp "unix:$TMP/dst.watch,server=on,wait=off"
mig_incoming
relay_before srcmon src --hold migrate_cancel --hold-for 6
hand_sample
bg_start migrate "$QMIGRATE" migrate --qmp "$TMP/srcmon.sock" \
	--to "unix:$TMP/mig.sock" --bandwidth 16Mi --status-file "$st" --events
wait_for 60 "the migration to run" status_is "$st" .phase Running
kill -TERM "$(guest_pid migrate)"
wait_log "$TMP/srcmon.out" 'holding' 10
# QEMU got to the switchover while the cancel was held, and waits there.
wait_for 6 "the source QEMU in pre-switchover while the cancel is held" \
	src_migration_is pre-switchover
exit_of migrate 120
m=$RC
exit_of incoming 60
i=$RC
echo "SIGTERM in pre-copy, the cancel read in pre-switchover: migrate exited $m ($(doc_says "$st")); incoming exited $i ($(doc_says "$TMP/dst.status"))"
assert_never_both "a cancel read in pre-switchover"
[ "$m" = 5 ] || fail "migrate exited $m, not 5 (source $SRC_STATE, target $DST_STATE)"
[ "$i" != 0 ] || fail "incoming exited 0: the target says it runs the guest"
[ "$SRC_STATE" = running ] || fail "migrate 5 but the source QEMU is $SRC_STATE"
[ "$DST_STATE" != running ] || fail "the target QEMU runs the guest"
src_migration_is cancelled || fail "the source QEMU's migration is not cancelled: $(timeout 5 "$QMIGRATE" qmp --qmp "$TMP/src.watch" query-migrate)"
expect_doc "$st" "a cancel read in pre-switchover" Failed 5
expect_status "$st" .abortStatus Succeeded "a cancel read in pre-switchover"
assert_memory_intact "$TMP/src.serial"
echo "ok: a cancel QEMU read in pre-switchover: 5, the guest on the source with every page intact, never on the target"
