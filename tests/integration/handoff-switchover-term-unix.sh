#!/usr/bin/env bash
# Issue 37, audit N3: the point of no return.  With QEMU's return path the
# source QEMU keeps the guest stopped (run state finish-migrate, status
# `active` on 7.2) until the target says it loaded the guest.  Before the
# fix a SIGTERM then sent migrate_cancel: the source QEMU cancelled and
# resumed its copy while the target loaded the bytes already sent and ran
# the guest too (b475dc5, the return path set by hand as the audit did:
# migrate 5, incoming 0, both guests sweeping memory).
# The fake: tests/qmp-relay on the migration STREAM holds the bytes from
# the first that name a device (i6300esb, on both QEMUs) for 3 s, so that
# the switchover lasts long enough to be hit; a real socket between two
# QEMUs on one host cannot be made that slow.  Everything else is real.
# The signal is fired at many moments of the switchover, one migration per
# moment: from the hold's start to after its end.
# What a user must see, every time: the guest never runs on both QEMUs;
# where it runs, every page is intact; a refused abort says so and the
# migration ends as it ends (0 on both sides); an abort that came before
# the vCPUs stopped cancels (5, the guest on the source).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp

refused=0
for offset in 0 0.2 0.6 1.2 2 2.8 3.3; do
	PAIR=t${offset/./_}-
	s=$TMP/${PAIR}src d=$TMP/${PAIR}dst st=$TMP/${PAIR}src.status
	start_memguest "${PAIR}src" 32 1 -device i6300esb \
		-qmp "unix:$s.mon,server=on,wait=off" -qmp "unix:$s.watch,server=on,wait=off"
	start_memguest_incoming "${PAIR}dst" 32 -device i6300esb \
		-qmp "unix:$d.mon,server=on,wait=off" -qmp "unix:$d.watch,server=on,wait=off"
	# As the audit did: the source QEMU waits for the target's word
	# (qmigrate since issue 37 sets it itself).
	mon "${PAIR}src" migrate-set-capabilities \
		'{"capabilities":[{"capability":"return-path","state":true}]}' >/dev/null
	mig_incoming
	bg_start "${PAIR}wire" "$RELAY" --hold i6300esb --hold-for 3 \
		"$TMP/${PAIR}wire.sock" "$TMP/${PAIR}mig.sock"
	wait_log "$TMP/${PAIR}wire.out" '^ready' 10
	hand_sample
	bg_start "${PAIR}migrate" "$QMIGRATE" migrate --qmp "$s.qmp" \
		--to "unix:$TMP/${PAIR}wire.sock" --status-file "$st" --events
	wait_log "$TMP/${PAIR}wire.out" 'holding' 120
	sleep "$offset"	# the moment of the switchover this run hits
	# The last moment may come after migrate ended: that run shows the end.
	late=0
	kill -TERM "$(guest_pid "${PAIR}migrate")" 2>/dev/null || late=1
	exit_of "${PAIR}migrate" 120
	m=$RC
	exit_of "${PAIR}incoming" 60
	i=$RC
	echo "SIGTERM $offset s into the hold: migrate exited $m ($(doc_says "$st")); incoming exited $i ($(doc_says "$d.status"))"
	assert_never_both "SIGTERM $offset s into the switchover"
	case $m/$i in
	0/0)
		expect_doc "$st" "SIGTERM at $offset s" Succeeded 0
		if [ "$late" -eq 0 ]; then
			expect_status "$st" .abortStatus Failed "SIGTERM at $offset s"
			status_get "$st" '.notes[]' | grep -q 'abort refused' ||
				fail "SIGTERM at $offset s: no note says the abort was refused: $(status_get "$st" .notes)"
			refused=$((refused + 1))
		fi
		assert_on_target "SIGTERM $offset s into the switchover" ;;
	5/*)
		[ "$SRC_STATE" = running ] || fail "SIGTERM at $offset s: migrate 5 but the source QEMU is $SRC_STATE"
		[ "$i" -ne 0 ] || fail "SIGTERM at $offset s: migrate 5 and incoming 0"
		assert_memory_intact "$s.serial" ;;
	*)
		fail "SIGTERM $offset s into the switchover: migrate exited $m, incoming $i (source $SRC_STATE, target $DST_STATE)" ;;
	esac
	kill "$(guest_pid "${PAIR}sampler")" 2>/dev/null || true
	kill_guest "${PAIR}src"
	kill_guest "${PAIR}dst"
done
# The holds put every signal but the last inside the switchover.
[ "$refused" -ge 5 ] || fail "only $refused of 7 signals met the switchover: the test proved little"
echo "ok: SIGTERM at 7 moments of the switchover: $refused refused (0 on both sides, the guest on the target), never both QEMUs running, every page intact"
