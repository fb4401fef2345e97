#!/usr/bin/env bash
# Issue 37, audit N14 (unix: part): a guest the operator paused on the
# source (stop), migrated over unix: to a target QEMU started without -S.
# QEMU carries the source's run state: that QEMU starts a guest that ran
# there by itself, so a guest that arrives paused was paused there.
# Before the fix incoming resumed it (cont): the VM paused on purpose ran
# after the move.  No fake: real QEMUs, real qmigrates.
# What a user must see: migrate 0, incoming 0, the target's document
# Succeeded with a note that the guest is kept paused because it was
# paused on the source; the target QEMU paused, not running; once the
# test resumes it by hand, every page intact.  And a guest that ran on the
# source runs on the target as before (the first pair).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp

# A running guest: QEMU starts it on the target by itself.
PAIR=a-
mig_start_pair 32 1
mig_incoming
mig_migrate
expect_exit "${PAIR}migrate" 0 120
expect_exit "${PAIR}incoming" 0 60
[ "$(run_state "${PAIR}dst")" = running ] ||
	fail "a running guest: the target QEMU is $(run_state "${PAIR}dst") after the migration"
assert_memory_intact "$TMP/${PAIR}dst.serial"

# A guest the operator paused before the migration.
PAIR=b-
mig_start_pair 32 1
mon "${PAIR}src" stop >/dev/null
[ "$(run_state "${PAIR}src")" = paused ] || fail "the source guest did not pause"
mig_incoming
mig_migrate
expect_exit "${PAIR}migrate" 0 120
expect_exit "${PAIR}incoming" 0 60
state=$(run_state "${PAIR}dst")
echo "paused on the source: the target QEMU is $state ($(doc_says "$TMP/${PAIR}dst.status"))"
[ "$state" = paused ] ||
	fail "a guest paused on the source is $state on the target: incoming resumed it"
expect_doc "$TMP/${PAIR}dst.status" target Succeeded 0
jq -r '.notes[]?' "$TMP/${PAIR}dst.status" 2>/dev/null | grep -q 'kept paused (it was paused on the source' ||
	fail "the target's document does not say why the guest is kept paused: $(jq -c '.notes' "$TMP/${PAIR}dst.status")"
[ "$(run_state "${PAIR}src")" = postmigrate ] ||
	fail "the source QEMU is $(run_state "${PAIR}src"), not postmigrate"
mon "${PAIR}dst" cont >/dev/null
assert_memory_intact "$TMP/${PAIR}dst.serial"
echo "ok: over unix:, a guest paused on the source arrives and stays paused; a running one runs"
