# tests/handoff-lib.sh: what issue 30's handoff tests share (the windows in
# which a monitor that answers late, or whose connection drops, could leave
# the guest running in two places or the exit codes lying); sourced after
# tests/lib.sh and tests/migrate-lib.sh.
#
# A real QEMU cannot be made to answer one command late or to drop its
# monitor: tests/qmp-relay stands in front of a monitor and does it.  The
# relay is the only fake: both QEMUs, both qmigrates and the guest are real.

RELAY=$top_builddir/tests/qmp-relay
need_file "$RELAY" "tests/qmp-relay"

# hand_pair MIB RATE [DST-ARGS...]: migrate-lib.sh's pair (src running, dst
# -incoming defer), each QEMU with a third monitor NAME.watch that only the
# sampler (hand_sample) uses; DST-ARGS go to the target QEMU (e.g. -S).
hand_pair() {
	local mib=$1 rate=$2 s=$TMP/${PAIR}src d=$TMP/${PAIR}dst
	shift 2
	start_memguest "${PAIR}src" "$mib" "$rate" \
		-qmp "unix:$s.mon,server=on,wait=off" \
		-qmp "unix:$s.watch,server=on,wait=off"
	start_memguest_incoming "${PAIR}dst" "$mib" \
		-qmp "unix:$d.mon,server=on,wait=off" \
		-qmp "unix:$d.watch,server=on,wait=off" "$@"
}

# relay_before NAME QEMU [ARGS...]: tests/qmp-relay (ARGS: its options) in
# front of QEMU's monitor $TMP/QEMU.qmp, listening on $TMP/NAME.sock, in the
# background as NAME (its event lines in $TMP/NAME.out); returns once it
# listens.
relay_before() {
	local name=$1 qemu=$2
	shift 2
	bg_start "$name" "$RELAY" "$@" "$TMP/$name.sock" "$TMP/$qemu.qmp"
	wait_log "$TMP/$name.out" '^ready' 10
}

# hand_tls_incoming QMP [ARGS...]: qmigrate incoming for PAIR's dst through
# the monitor socket QMP (a relay's), as PAIR's incoming, listening with TLS
# on the next TLS_PORT, status $TMP/${PAIR}dst.status; returns once it
# listens.
hand_tls_incoming() {
	local qmp=$1
	shift
	TLS_PORT=$((TLS_PORT + 1))
	bg_start "${PAIR}incoming" "$QMIGRATE" incoming --qmp "$qmp" \
		--listen "tls:127.0.0.1:$TLS_PORT" --tls-dir "$TMP/pki/dst" \
		--status-file "$TMP/${PAIR}dst.status" "$@"
	wait_log "$TMP/${PAIR}incoming.err" "listening for the source" 30
}

# hand_sample: samples both QEMUs' run states (query-status on their .watch
# monitors) about three times a second, one line "SECONDS SRC DST SRC" each
# (the source asked before and after the target: the two answers are not
# one instant, and a switchover between them is no double run), in
# $TMP/${PAIR}sampler.out, until the test ends.  A sampler, not a wait: it
# catches a guest that ran in two places for a while.
hand_sample() {
	bg_start "${PAIR}sampler" bash -c '
		q() {
			timeout 5 "$1" qmp --qmp "$2" query-status 2>/dev/null |
				jq -r .status 2>/dev/null | grep . || echo gone
		}
		while :; do
			s=$(q "$1" "$2")
			d=$(q "$1" "$3")
			echo "$SECONDS $s $d $(q "$1" "$2")"
			sleep 0.3	# the sampling period
		done' hand_sample "$QMIGRATE" "$TMP/${PAIR}src.watch" "$TMP/${PAIR}dst.watch"
	wait_for 30 "the first sample" test -s "$TMP/${PAIR}sampler.out"
}

# place_of NAME: QEMU NAME's run state now (its .mon monitor), or "gone".
place_of() {
	local pid s
	_lib_pid_of "$1"
	pid=$_lib_pid
	if ! kill -0 "$pid" 2>/dev/null ||
		! s=$(timeout 10 "$QMIGRATE" qmp --qmp "$TMP/$1.mon" query-status 2>/dev/null |
			jq -r .status); then
		echo gone
		return
	fi
	echo "$s"
}

# assert_never_both WHAT: the guest never ran on both QEMUs: not in any of
# the sampler's lines, and not now; sets SRC_STATE and DST_STATE to what
# both QEMUs say now.
assert_never_both() {
	local both
	SRC_STATE=$(place_of "${PAIR}src")
	DST_STATE=$(place_of "${PAIR}dst")
	[ "$SRC_STATE/$DST_STATE" != running/running ] ||
		fail "$1: the guest runs on both QEMUs"
	if [ -e "$TMP/${PAIR}sampler.out" ]; then
		both=$(grep -c ' running running running$' "$TMP/${PAIR}sampler.out" || true)
		[ "$both" -eq 0 ] ||
			fail "$1: the guest ran on both QEMUs in $both samples (from $(grep -m1 ' running running running$' "$TMP/${PAIR}sampler.out" | cut -d' ' -f1) s of the sampling)"
	fi
}

# exit_of NAME TIMEOUT: waits for bg_start's NAME (TIMEOUT s at most) and
# sets RC to its exit status; a command still running at the deadline
# fails the test, one killed by a signal too.
exit_of() {
	RC=0
	bg_wait "$1" "$2" || RC=$?
	[ "$RC" -lt 128 ] || fail "$1 killed by signal $((RC - 128))"
}

# gone_within PID SECS: true once process PID is gone, false if it still
# runs after SECS s (a bound the test reports itself).
gone_within() {
	local t0 now
	t0=${EPOCHREALTIME//[!0-9]/}
	while kill -0 "$1" 2>/dev/null; do
		now=${EPOCHREALTIME//[!0-9]/}
		[ $(((now - t0) / 1000000)) -lt "$2" ] || return 1
		sleep 0.1	# polling for the exit
	done
}

# doc_says FILE: one line of what a status document says: phase, exitCode,
# abortStatus, mode, failurePlane, failureReason.
doc_says() {
	jq -r '"phase \(.phase) exitCode \(.exitCode) abortStatus \(.abortStatus) mode \(.mode) plane \(.failurePlane) reason \(.failureReason)"' "$1" 2>/dev/null ||
		echo "(no document: $1)"
}

# assert_on_target WHAT: the guest runs on the target only (the source is
# postmigrate or gone), every page intact there.
assert_on_target() {
	assert_never_both "$1"
	[ "$DST_STATE" = running ] || fail "$1: the target QEMU is $DST_STATE, not running"
	[ "$SRC_STATE" != running ] || fail "$1: the source QEMU runs the guest"
	assert_memory_intact "$TMP/${PAIR}dst.serial"
	assert_no_corrupt "$TMP/${PAIR}src.serial"
}

# assert_cancelled_in_pause WHAT M I ST WIRE: an abort carried out while
# the source QEMU waited in pre-switchover for migrate-continue (the pause
# migrate sets): migrate exited M = 5 with abortStatus Succeeded in ST,
# incoming I not 0, no device state on the stream (the relay WIRE, holding
# from the first device bytes, never held), the guest on the source only,
# every page intact there.
assert_cancelled_in_pause() {
	assert_never_both "$1"
	[ "$2" = 5 ] || fail "$1: migrate exited $2, not 5 (source $SRC_STATE, target $DST_STATE)"
	[ "$3" != 0 ] || fail "$1: incoming exited 0: the target says it runs the guest"
	expect_doc "$4" "$1" Failed 5
	expect_status "$4" .abortStatus Succeeded "$1"
	grep -q 'aborting: .*(the source QEMU waits in pre-switchover: no device state has left)' \
		"$TMP/${PAIR}migrate.err" ||
		fail "$1: migrate did not cancel in QEMU's pre-switchover: $(grep -i -m5 abort "$TMP/${PAIR}migrate.err")"
	if grep -q 'holding a command with the cue' "$5"; then
		fail "$1: device state left the source: $(grep -m1 'holding' "$5")"
	fi
	[ "$SRC_STATE" = running ] || fail "$1: migrate 5 but the source QEMU is $SRC_STATE"
	[ "$DST_STATE" != running ] || fail "$1: the target QEMU runs the guest"
	assert_memory_intact "$TMP/${PAIR}src.serial"
}

# assert_abort_refused WHAT I ST: an abort refused past the point of no
# return, the migration ended as it ends: incoming I 0, ST says Succeeded,
# exit 0 and abortStatus Failed, the guest on the target only, every page
# intact there.
assert_abort_refused() {
	[ "$2" = 0 ] || fail "$1: migrate exited 0, incoming $2 (source $SRC_STATE, target $DST_STATE)"
	expect_doc "$3" "$1" Succeeded 0
	expect_status "$3" .abortStatus Failed "$1"
	assert_on_target "$1"
}

# expect_doc FILE WHAT PHASE EXIT: the status document FILE says phase
# PHASE and exitCode EXIT.
expect_doc() {
	jq -e . "$1" >/dev/null 2>&1 || fail "$2: $1 does not parse"
	expect_status "$1" .phase "$3" "$2"
	expect_status "$1" .exitCode "$4" "$2"
}
