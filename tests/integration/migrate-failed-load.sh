#!/usr/bin/env bash
# migrate-failed-load.sh: a stream the target QEMU cannot load is reported
# with QEMU's own reason on the target (issue 33).  Over unix: each side
# chooses alone: the source's policy allows post-copy, the target's does
# not, so the target QEMU (no postcopy-ram) refuses the post-copy advise at
# the stream's start: "RAM postcopy is disabled but have 16 byte advise".
# From QEMU 9.1 qmigrate's migrate-incoming says exit-on-error: false, so
# the target QEMU does not exit on the failed load: its query-migrate says
# failed with the reason in error-desc, and `incoming` fails in the data
# plane (exit 4) naming it instead of a socket error, having stopped that
# QEMU for good (quit).  11.1 gives the whole reason there; 10.0 only
# "load of migration failed: Invalid argument" (the advise line goes to its
# stderr alone).  The source's migrate fails at once, the guest still
# running there, every page intact: nothing moved (exit 3, "target ... not
# ready") when QEMU failed before it went active, or a stream failure
# (exit 4, data plane) when it had gone active and begun sending RAM
# before the target's refusal reached it (seen once in a loaded full run:
# "Sibling indicated error 1"; over unix: no word from the target can
# tell the two apart).  On QEMU 10.0 and 11.1 (the version
# matrix, tests/qemu-matrix-lib.sh).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/qemu-matrix-lib.sh"
matrix_want 10.0 11.1
setup_tmp

mig_policy pc '{ "allowPostCopy": true }'
mig_policy nopc '{ "allowPostCopy": false }'
for v in 10.0 11.1; do
	export QEMU_SRC_VERSION=$v QEMU_DST_VERSION=$v
	PAIR=v${v//./}-
	mig_start_pair 64 20
	mig_incoming --policy "$TMP/nopc.json"
	mig_migrate --policy "$TMP/pc.json"
	expect_exit "${PAIR}incoming" 4 60
	st=$TMP/${PAIR}dst.status
	expect_failed "$st" 4 data "QEMU $v's target"
	case $v in
	10.0) why="load of migration failed: Invalid argument" ;;
	*) why="RAM postcopy is disabled but have 16 byte advise" ;;
	esac
	reason=$(status_get "$st" .failureReason)
	[[ $reason == *"$why"* ]] ||
		fail "QEMU $v: the target's failureReason does not name QEMU's reason ($why): $reason"
	# Then `incoming` stops that QEMU for good (quit: the fence).
	wait_guest_exit "${PAIR}dst" 10
	m=0
	bg_wait "${PAIR}migrate" 60 || m=$?
	case $m in
	3) expect_failed "$TMP/${PAIR}src.status" 3 control "QEMU $v's source" ;;
	4) expect_failed "$TMP/${PAIR}src.status" 4 data "QEMU $v's source"
	   [[ $(status_get "$TMP/${PAIR}src.status" .failureReason) == "migration stream failed"* ]] ||
		fail "QEMU $v: the source's 4 is not the stream's failure: $(status_get "$TMP/${PAIR}src.status" .failureReason)" ;;
	*) cat "$TMP/${PAIR}migrate.err" >&2
	   fail "${PAIR}migrate exited $m, expected 3 (nothing moved) or 4 (the stream failed)" ;;
	esac
	assert_stayed
	echo "ok: QEMU $v: the target says \"$reason\"; migrate exited $m; the guest runs on the source"
	echo "    the source says \"$(status_get "$TMP/${PAIR}src.status" .failureReason)\""
done
