#!/usr/bin/env bash
# `qmigrate switchover --status-file F [--postcopy|--pause]`: an operator
# asks a running migration to finish now (issue 39 item 4; virsh
# migrate-postcopy, Nova's force-complete).  A busy guest (200 MB/s) under a
# 10 MiB/s cap does not converge on its own, and the kubevirt controller
# would wait 150 s before it acts: only the operator's request finishes it.
# 1. --postcopy: switchover exits 0 saying post-copy started; migrate and
#    incoming exit 0, the guest runs on the target with every page verified;
#    the source's document says mode PostCopy, records the decision
#    "post-copy" with requestedBy "operator" and switchoverRequest Started.
# 2. --pause: the source's vCPUs are stopped, pre-copy converges; both exit
#    0 (incoming given --postcopy allows the disruption, so it resumes what
#    arrives paused), every page verified; decision "pause" by the operator.
#    Neither flag, post-copy negotiated: as 1 (qmigrate(1): the default).
# 3. Two requests at once (the race): while the first is pending (written,
#    the migrate stopped before it read it) a second is refused at once (5,
#    one line naming the status file and the first's request), the first's
#    file untouched; the migrate, continued, answers the first, which
#    exits 0, post-copy started.  A third, taken while the first is
#    accepted but not yet started (the source QEMU stopped: no sample),
#    is refused (5, a switchover already under way), and the first's
#    Started still comes under the first's id.  Before the fix the second
#    replaced the first (the first waited for an answer no one gave) and
#    the third's id took the first's Started.
# 4. Refusals, each one line and its exit, the migration untouched (still
#    pre-copy, no decision, QEMU's migration active): post-copy not
#    negotiated (--postcopy, neither flag, and --pause without workload
#    disruption allowed: 5), a target's document (5), a file that does not
#    exist (3), both flags (1); then, aborted, the ended document (3).
# On b475dc5 the test fails at its first command (incoming exits 1,
# "unknown option --bandwidth"); on main before this commit `qmigrate
# switchover` is an unknown command.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

# switchover NAME STATUS-FILE [ARGS...]: qmigrate switchover, its exit in
# $rc, its output in $TMP/NAME.out and .err.
switchover() {
	local name=$1 file=$2
	shift 2
	rc=0
	timeout 60 "$QMIGRATE" switchover --status-file "$file" "$@" \
		>"$TMP/$name.out" 2>"$TMP/$name.err" || rc=$?
}

# expect_operator_decision FILE ACTION: the document's last decision is
# ACTION, asked for by the operator, with the figures it was taken on, and
# its switchoverRequest says Started with that finish.
expect_operator_decision() {
	local d
	d=$(status_get "$1" '.decisions[-1] | "\(.action) \(.requestedBy) \(.figures.dataRemaining)"')
	set -- "$1" "$2" $d
	[ "$3" = "$2" ] && [ "$4" = operator ] && [ "${5:-0}" -gt 0 ] ||
		fail "$(basename "$1"): last decision is \"$3 by $4, ${5:-?} bytes left\", expected $2 by operator: $(status_get "$1" .decisions)"
	[ "$(status_get "$1" '[.decisions[] | select(.requestedBy != "operator")] | length')" = 0 ] ||
		fail "$(basename "$1"): another decision than the operator's: $(status_get "$1" .decisions)"
	expect_status "$1" .switchoverRequest.status Started
}

flags=(--bandwidth 10Mi --convergence kubevirt --postcopy)

# finish_by FLAG ACTION MODE [FINISH]: a busy pair, migrating, finished by
# `switchover FLAG` (FLAG "": neither flag, which finishes as FINISH); it
# moves with every page, decision ACTION, mode MODE.
finish_by() {
	local flag=$1 action=$2 mode=$3 finish=${4:-${1#--}} st
	st=$TMP/${PAIR}src.status
	mig_start_pair 64 200
	mig_incoming "${flags[@]}"
	mig_migrate "${flags[@]}"
	wait_for 30 "the source migrating" status_is "$st" .progress.qemuStatus active
	switchover "${PAIR}switchover" "$st" ${flag:+"$flag"}
	[ "$rc" -eq 0 ] || fail "switchover $flag exited $rc, expected 0: $(cat "$TMP/${PAIR}switchover.err")"
	grep -q "^switchover: $finish started: an operator asked to finish now" "$TMP/${PAIR}switchover.out" ||
		fail "switchover $flag said: $(cat "$TMP/${PAIR}switchover.out" "$TMP/${PAIR}switchover.err")"
	expect_exit "${PAIR}migrate" 0 120
	expect_exit "${PAIR}incoming" 0 60
	expect_status "$st" .mode "$mode"
	expect_status "$st" .abortStatus null
	expect_operator_decision "$st" "$action"
	[ ! -e "$st.switchover" ] || fail "the request file was left behind"
	assert_moved
	echo "ok: switchover ${flag:-(neither flag)}: $(cat "$TMP/${PAIR}switchover.out")"
}

# 1, 2; and neither flag, post-copy negotiated: post-copy.
PAIR=pc- finish_by --postcopy post-copy PostCopy
PAIR=pa- finish_by --pause pause Paused
PAIR=pn- finish_by "" post-copy PostCopy postcopy

# 3. Two requests at once, and one while the first is accepted.
PAIR=tw-
st=$TMP/tw-src.status
mig_start_pair 64 200
mig_incoming "${flags[@]}"
mig_migrate "${flags[@]}"
wait_for 30 "the source migrating" status_is "$st" .progress.qemuStatus active
stop_guest tw-src		# no sample: an accepted request waits
stop_guest tw-migrate		# no request is read
bg_start tw-first "$QMIGRATE" switchover --status-file "$st" --postcopy --timeout 90
wait_for 10 "the first request published" test -s "$st.switchover"
first=$(jq -r .requestId "$st.switchover")
switchover tw-second "$st" --pause
[ "$rc" -eq 5 ] || fail "the second request exited $rc, expected 5: $(cat "$TMP/tw-second.err")"
[ "$(grep -c . "$TMP/tw-second.err")" -eq 1 ] && [ ! -s "$TMP/tw-second.out" ] ||
	fail "the second request said more than one line: $(cat "$TMP/tw-second.out" "$TMP/tw-second.err")"
grep -qF "qmigrate switchover: status file $st: another switchover request is pending (request $first)" "$TMP/tw-second.err" ||
	fail "the second request's refusal: $(cat "$TMP/tw-second.err")"
[ "$(jq -r '"\(.requestId) \(.finish)"' "$st.switchover")" = "$first postcopy" ] ||
	fail "the second request touched the first's file: $(cat "$st.switchover")"
echo "refused (5): $(cat "$TMP/tw-second.err")"
_lib_pid_of tw-migrate
kill -CONT "$_lib_pid"
wait_for 30 "the first request accepted" status_is "$st" .switchoverRequest.status Accepted
expect_status "$st" .switchoverRequest.requestId "$first"
switchover tw-third "$st" --pause
[ "$rc" -eq 5 ] || fail "the third request exited $rc, expected 5: $(cat "$TMP/tw-third.err")"
grep -q "switchover refused: a switchover is already under way" "$TMP/tw-third.err" ||
	fail "the third request's refusal: $(cat "$TMP/tw-third.err")"
echo "refused (5): $(cat "$TMP/tw-third.err")"
_lib_pid_of tw-src
kill -CONT "$_lib_pid"
expect_exit tw-first 0 90
grep -q "^switchover: postcopy started: an operator asked to finish now" "$TMP/tw-first.out" ||
	fail "the first request said: $(cat "$TMP/tw-first.out" "$TMP/tw-first.err")"
expect_exit tw-migrate 0 120
expect_exit tw-incoming 0 60
expect_status "$st" .mode PostCopy
expect_operator_decision "$st" post-copy
expect_status "$st" .switchoverRequest.requestId "$first"
[ ! -e "$st.switchover" ] || fail "the request file was left behind"
assert_moved
echo "ok: two requests at once: the second refused, the first answered: $(cat "$TMP/tw-first.out")"

# 4. Refusals.
PAIR=r-
st=$TMP/r-src.status
mig_start_pair 64 200
mig_incoming --bandwidth 10Mi --convergence kubevirt --no-postcopy
mig_migrate --bandwidth 10Mi --convergence kubevirt --no-postcopy
wait_for 30 "the source migrating" status_is "$st" .progress.qemuStatus active

# refused CODE WANT-IN-MESSAGE FILE ARGS...: switchover exits CODE with
# one line on stderr naming WANT.
refused() {
	local code=$1 want=$2 file=$3
	shift 3
	switchover refuse "$file" "$@"
	[ "$rc" -eq "$code" ] || fail "switchover $*: exited $rc, expected $code: $(cat "$TMP/refuse.err")"
	[ "$(grep -c . "$TMP/refuse.err")" -eq 1 ] || fail "switchover $*: not one line: $(cat "$TMP/refuse.err")"
	grep -q "^qmigrate switchover: .*$want" "$TMP/refuse.err" ||
		fail "switchover $*: the message does not say \"$want\": $(cat "$TMP/refuse.err")"
	[ ! -s "$TMP/refuse.out" ] || fail "switchover $*: printed $(cat "$TMP/refuse.out")"
	echo "refused ($rc): $(cat "$TMP/refuse.err")"
}
refused 5 "switchover refused: post-copy was not negotiated (postcopy-ram is off" "$st" --postcopy
expect_status "$st" .switchoverRequest.status Refused
refused 5 "post-copy was not negotiated, and pausing the guest is a workload disruption" "$st"
refused 5 "pausing the guest is a workload disruption the settings do not allow" "$st" --pause
refused 5 "a target's document" "$TMP/r-dst.status" --postcopy
refused 3 "$TMP/nowhere.status" "$TMP/nowhere.status"
refused 1 "--postcopy and --pause" "$st" --postcopy --pause
# The migration went on untouched.
expect_status "$st" .mode PreCopy
expect_status "$st" '.decisions | length' 0
[ "$(qemu_mig_status r-src)" = active ] || fail "a refusal changed the source's migration: $(qemu_mig_status r-src)"
[ "$(run_state r-src)" = running ] || fail "a refusal touched the source's guest: $(run_state r-src)"
[ "$(status_get "$st" '[.notes[] | select(startswith("switchover refused: "))] | length')" = 3 ] ||
	fail "the source's notes do not record the 3 refusals: $(status_get "$st" .notes)"
"$QMIGRATE" abort --status-file "$st" >/dev/null || fail "abort failed"
expect_exit r-migrate 5 60
refused 3 "no migration is running: it already ended (Failed)" "$st" --pause
assert_stayed
echo "ok: refusals named why, the migration went on untouched"
