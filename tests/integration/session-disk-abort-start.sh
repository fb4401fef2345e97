#!/usr/bin/env bash
# An abort while the disk mirrors start (issue 22, defect 1: over unix:
# with a local disk, a SIGTERM or the deadline while the mirrors were being
# set up was noted and then forgotten once the mirror job ran: the
# migration went on to the target, exit 0, "completed before QEMU could
# cancel it").  The window is held open by tests/qmp-relay, which holds
# migrate's blockdev-mirror command 6 s before it reaches the source QEMU.
# 1. SIGTERM to migrate meanwhile;
# 2. --timeout 5 passing meanwhile.
# Each time: exit 5, abortStatus Succeeded (abortRequested true for the
# signal, false for the deadline, whose failureReason names it), no guest
# memory migrated (the source QEMU never ran `migrate`), no mirror job or
# NBD node left, and the guest runs on on the source, its memory intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/disk-lib.sh"
setup_tmp

relay=$top_builddir/tests/qmp-relay
need_file "$relay" "tests/qmp-relay"
mig_policy disks '{ "blockMigration": "auto", "bandwidthPerMigration": "16Mi" }'

# held_start [MIGRATE-ARGS...]: PAIR's guest with a disk, its incoming, and
# migrate talking to the source QEMU through a relay that holds the first
# blockdev-mirror 6 s.
held_start() {
	disk_pair 32 1 32M 32M
	mig_incoming --policy "$TMP/disks.json"
	bg_start "${PAIR}relay" "$relay" --hold blockdev-mirror --hold-for 6 \
		"$TMP/${PAIR}relay.sock" "$TMP/${PAIR}src.qmp"
	wait_log "$TMP/${PAIR}relay.out" '^ready' 10
	bg_start "${PAIR}migrate" "$QMIGRATE" migrate \
		--qmp "$TMP/${PAIR}relay.sock" --to "unix:$TMP/${PAIR}mig.sock" \
		--status-file "$TMP/${PAIR}src.status" --policy "$TMP/disks.json" \
		--events "$@"
}

# check_aborted HOW REQUESTED: PAIR's migrate aborted before any memory moved.
check_aborted() {
	local st=$TMP/${PAIR}src.status
	expect_exit "${PAIR}migrate" 5 60
	[ "$(status_get "$st" .phase)" = Failed ] || fail "$1: phase $(status_get "$st" .phase)"
	[ "$(status_get "$st" .exitCode)" = 5 ] || fail "$1: exitCode $(status_get "$st" .exitCode)"
	[ "$(status_get "$st" .abortStatus)" = Succeeded ] ||
		fail "$1: abortStatus $(status_get "$st" .abortStatus)"
	[ "$(status_get "$st" .abortRequested)" = "$2" ] ||
		fail "$1: abortRequested $(status_get "$st" .abortRequested), expected $2"
	[ "$(qemu_mig_status "${PAIR}src")" = none ] ||
		fail "$1: the source QEMU migrated ($(qemu_mig_status "${PAIR}src")): the abort was not obeyed"
	assert_no_disk_jobs "${PAIR}src"
	PAIR=$PAIR assert_stayed
	# Over unix: the target cannot know; its operator ends it.
	kill -TERM "$(guest_pid "${PAIR}incoming")"
	expect_exit "${PAIR}incoming" 5 30
	echo "ok: $1: $(status_get "$st" .failureReason)"
}

# 1. SIGTERM while blockdev-mirror is on its way.
held_start
wait_log "$TMP/relay.out" 'holding' 30
kill -TERM "$(guest_pid migrate)"
check_aborted SIGTERM true

# 2. The deadline passes while blockdev-mirror is on its way: 5 s falls in
# the 6 s hold whenever the mirrors start within 5 s (the setup takes 1-3).
PAIR=t-
held_start --timeout 5
check_aborted --timeout false
grep -q 'holding' "$TMP/t-relay.out" ||
	fail "--timeout: the deadline passed before blockdev-mirror was sent: the test proved nothing"
status_get "$TMP/t-src.status" .failureReason | grep -Eqi 'deadline|timeout|--timeout' ||
	fail "--timeout: failureReason does not name the deadline: $(status_get "$TMP/t-src.status" .failureReason)"
echo "ok: an abort while the mirrors start is obeyed"
