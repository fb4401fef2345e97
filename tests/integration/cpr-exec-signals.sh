#!/usr/bin/env bash
# qmigrate update --mode exec (cpr-exec, QEMU 11.1) and SIGTERM or SIGKILL
# at many moments.  Each try boots its own guest (memory guest, a disk, a
# NIC; a second monitor for the watcher, which the new command line keeps)
# and execs a wrapper, "another build", that leaves a mark with its pid
# before it execs QEMU: the mark says whether the exec happened.  The
# watcher (cpr_signal_at) sends the signal at the first instant QEMU's
# query-migrate says the given status or a later one (QEMU's word, never
# a delay).  QEMU's
# completed lasts ms before the exec, and the watcher's monitor ends with
# it, so the moment after the exec (qmigrate reconnecting) is the other
# build's own: it sends the signal itself, and execs QEMU once the signal
# took effect (moment "exec"): SIGKILL, the update gone; SIGTERM, its
# document saying the abort was asked for (abortRequested; it is refused
# once the new QEMU answers); 10 s at most, else the try fails.
# SIGTERM: before migrate-continue the abort is safe (5: no exec, the mode
# back to normal, the guest runs on); from then on (device, completed) it
# is refused and the update ends (0: the exec happened).  At setup and
# pre-switchover the signal races the update: 0 and 5 are both right.
# SIGKILL: the update is run again with the same --status-file.  QEMU
# waits in pre-switchover (pause-before-switchover) for a migrate-continue
# that the re-run gives, or has exec'd: the re-run re-attaches (the same
# migrationUid) and ends it, 0.  Every try: the pid unchanged, the guest
# booted once, every page intact, on the new binary exactly when qmigrate
# says 0.  On b475dc5 there is no --mode exec: every try fails.
. "$top_srcdir/tests/cpr-exec-lib.sh"
cpr_exec_test_begin

# exec_done NAME: the exec happened (the other build left its mark), in
# QEMU's own process.
exec_done() {
	[ -f "$TMP/$1.execd" ] || return 1
	[ "$(cat "$TMP/$1.execd")" = "$(cat "$TMP/$1.qemu-pid")" ] ||
		fail "$1: the other build ran as $(cat "$TMP/$1.execd"), QEMU is $(cat "$TMP/$1.qemu-pid")"
}

# try N SIGNAL STATUS
try() {
	local n=$1 sig=$2 status=$3 name=g$1 st=$TMP/u$1.status rc=0 said uid
	cpr_exec_start "$name" 32 50 -qmp "unix:$TMP/$name.mon,server=on,wait=off"
	echo "$CPR_EXEC_PID" >"$TMP/$name.qemu-pid"
	local at_exec= took
	if [ "$sig" = KILL ]; then
		took='! [ -e /proc/$pid ] || grep -q "^State:[[:space:]]*Z" /proc/$pid/status'
	else
		took="grep -q '\"abortRequested\": *true' '$st'"
	fi
	[ "$status" != exec ] || at_exec="pid=\$(cat '$TMP/u$n.pid')
kill -$sig \$pid
i=0
until $took; do
	i=\$((i + 1))
	[ \$i -le 1000 ] || { echo 'SIG$sig had no effect after 1000 looks 10 ms apart' >'$TMP/$name.late'; break; }
	sleep 0.01	# bounded: 1000 times
done"
	cat >"$TMP/$name-build.sh" <<EOS
#!/bin/sh
echo \$\$ >"$TMP/$name.execd"
$at_exec
exec /usr/bin/qemu-system-x86_64 "\$@"
EOS
	chmod +x "$TMP/$name-build.sh"
	printf '%s\n' "$TMP/$name-build.sh" "${CPR_EXEC_ARGS[@]}" -incoming "file:$TMP/$name.state" >"$TMP/$name.cmd"
	if [ "$status" = exec ]; then
		bg_start "sig$n" echo "signalled by the other build after the exec"
	else
		cpr_signal_at "sig$n" "$name" "$status" - "$sig" "$TMP/u$n.pid"
	fi
	bg_start "u$n" "$QMIGRATE" update --mode exec --qmp "$TMP/$name.qmp" \
		--to "file:$TMP/$name.state" --new-command "$TMP/$name.cmd" --status-file "$st"
	_lib_pid_of "u$n"
	echo "$_lib_pid" >"$TMP/u$n.pid"
	bg_wait "u$n" 90 || rc=$?
	bg_wait "sig$n" 30 || true
	[ ! -e "$TMP/$name.late" ] || fail "try $n: the other build: $(cat "$TMP/$name.late")"
	said=$(grep -E '^(signalled|.* never came)' "$TMP/sig$n.out") ||
		fail "try $n: the watcher said nothing: $(cat "$TMP/sig$n.out" "$TMP/sig$n.err")"
	case $sig:$rc in
	TERM:0)
		expect_status "$st" .phase Succeeded "try $n"
		if [[ $said == signalled* ]]; then
			expect_status "$st" .abortStatus Failed "try $n (the abort refused)"
		fi
		exec_done "$name" || fail "try $n: exit 0 without the exec"
		;;
	TERM:5)
		! grep -Eq 'after (device|completed|the exec)' <<<"$said" ||
			fail "try $n: exit 5, $said (past the point of no return): $(tail -n 2 "$TMP/u$n.err")"
		expect_status "$st" .abortStatus Succeeded "try $n"
		! exec_done "$name" || fail "try $n: exit 5 but the exec happened"
		qmp "$name" query-migrate-parameters | grep -q '"mode": "normal"' ||
			fail "try $n: the mode was not put back: $(qmp "$name" query-migrate-parameters | grep mode)"
		;;
	KILL:137)
		uid=$(status_get "$st" .migrationUid)
		run_qmigrate 0 update --mode exec --qmp "$TMP/$name.qmp" \
			--to "file:$TMP/$name.state" --new-command "$TMP/$name.cmd" --status-file "$st"
		expect_status "$st" .phase Succeeded "try $n (re-run)"
		expect_status "$st" .migrationUid "$uid" "try $n (re-run)"
		status_get "$st" '.notes[]' | grep -q "re-attached" ||
			fail "try $n: no re-attach note: $(status_get "$st" .notes)"
		exec_done "$name" || fail "try $n: the re-run exited 0 without the exec"
		rc="137, re-run 0"
		;;
	*)
		fail "try $n ($said): update exited $rc: $(tail -n 3 "$TMP/u$n.err")"
		;;
	esac
	kill -0 "$CPR_EXEC_PID" 2>/dev/null || fail "try $n: QEMU $CPR_EXEC_PID is gone"
	[ "$(cat "$TMP/$name.pid")" = "$CPR_EXEC_PID" ] || fail "try $n: the pid changed"
	cpr_running "$name" || fail "try $n: the guest does not run: $(qmp "$name" query-status)"
	[ "$(grep -ac '^memguest: ready ' "$TMP/$name.serial")" -eq 1 ] ||
		fail "try $n: the guest restarted"
	assert_memory_intact "$TMP/$name.serial" >/dev/null
	echo "try $n: SIG$sig, $said: exit $rc, the guest on the $(exec_done "$name" && echo new || echo old) binary in pid $CPR_EXEC_PID, every page intact"
	kill_guest "$name"
}

n=0
for m in setup pre-switchover device exec; do
	n=$((n + 1))
	try "$n" TERM "$m"
done
for m in setup pre-switchover device completed exec; do
	n=$((n + 1))
	try "$n" KILL "$m"
done
echo "ok: SIGTERM and SIGKILL at $n moments of update --mode exec: one guest, every page, 0 exactly when it exec'd"
