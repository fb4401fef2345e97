#!/usr/bin/env bash
# qmigrate update --mode exec (cpr-exec, QEMU 11.1) killed after the exec
# with no record at all, run again with the same --status-file (sim-real
# --update-exec seeds 2821 3684 6016968 6020198 6026378: every write of
# the status file failed, a full filesystem, while the update marker's
# had not).  Here the record the killed run wrote is removed between the
# kill and the re-run, as cpr-exec-rerun-norecord.sh edits its own: a
# write that fails leaves nothing QEMU can tell apart.  The new command
# line is "another build" that leaves a mark, kills the update's qmigrate
# (SIGKILL), then execs QEMU, which loads the guest from the --to file:
# the guest runs on the new QEMU, in the same process (same pid and start
# time), with mode normal and no migration, which a re-run cannot tell
# from a QEMU no update touched.  Without the marker the re-run started a
# second update over it (exit 0, the build ran twice).  With it
# (<status-file>.update, written before the migrate that makes QEMU exec)
# the re-run says not known, 8, in one line naming the marker and what to
# do, and starts nothing.  Then a marker that cannot be written (the
# temporary it opens a directory) stops an update before the exec: 3,
# QEMU untouched, its mode put back to normal, the guest running on.
# Last, a marker of this QEMU that QEMU's answers contradict (mode
# cpr-exec, which only the old QEMU holds, and no migration: a run killed
# between the marker and its migrate; a second guest, h): removed with a
# note, and the update runs (0, the build runs, the marker gone at its
# end).
. "$top_srcdir/tests/cpr-exec-lib.sh"
cpr_exec_test_begin

cpr_exec_start g 32 50
pid=$CPR_EXEC_PID
cat >"$TMP/build.sh" <<EOS
#!/bin/sh
echo \$\$ >>"$TMP/g.execd"
qm=\$(cat "$TMP/u.pid")
[ -z "\$qm" ] || kill -KILL "\$qm"
i=0
while [ -n "\$qm" ] && [ -e "/proc/\$qm" ] && ! grep -qs "^State:[[:space:]]*Z" "/proc/\$qm/status"; do
	i=\$((i + 1))
	[ \$i -le 1000 ] || { echo 'SIGKILL had no effect after 1000 looks 10 ms apart' >"$TMP/g.late"; break; }
	sleep 0.01	# bounded: 1000 times
done
exec /usr/bin/qemu-system-x86_64 "\$@"
EOS
chmod +x "$TMP/build.sh"
cpr_exec_command "$TMP/new.cmd" "$TMP/build.sh"

st=$TMP/u.status
bg_start u "$QMIGRATE" update --mode exec --qmp "$TMP/g.qmp" --to "file:$TMP/vm.state" \
	--new-command "$TMP/new.cmd" --status-file "$st"
_lib_pid_of u
echo "$_lib_pid" >"$TMP/u.pid"
expect_exit u 137 90
[ ! -e "$TMP/g.late" ] || fail "the other build: $(cat "$TMP/g.late")"
[ "$(cat "$TMP/g.execd")" = "$pid" ] || fail "the build ran as $(cat "$TMP/g.execd"), QEMU is $pid"
uid=$(status_get "$st" .migrationUid)
rm "$st"
wait_for 30 "the new QEMU's monitor" _lib_qmp_ready g
wait_for 30 "the guest running on the new QEMU" cpr_running g
qmp g query-migrate-parameters | grep -q '"mode": "normal"' ||
	fail "the new QEMU's mode: $(qmp g query-migrate-parameters | grep mode)"

# The re-run: not known, and no second update over it.
run_qmigrate 8 update --mode exec --qmp "$TMP/g.qmp" --to "file:$TMP/vm.state" \
	--new-command "$TMP/new.cmd" --status-file "$st"
one_line_err "update $uid: its marker $st.update (QEMU pid $pid) and no record of its end: QEMU may have exec'd (the same process answers"
expect_err "no update starts over it: check QEMU's log and query-status, then remove the marker and run update again"
[ "$(wc -l <"$TMP/g.execd")" -eq 1 ] || fail "the build ran again: $(cat "$TMP/g.execd")"
[ -f "$st.update" ] || fail "no update marker $st.update (or the re-run removed it)"
[ "$(jq -r .pid "$st.update")" = "$pid" ] || fail "the marker names $(cat "$st.update"), QEMU is $pid"
[ "$(jq -r .migrationUid "$st.update")" = "$uid" ] || fail "the marker names $(cat "$st.update"), the update was $uid"
[ ! -e "$st" ] || fail "the re-run wrote a record: $(cat "$st")"
kill -0 "$pid" 2>/dev/null || fail "QEMU $pid is gone"
cpr_running g || fail "the guest does not run: $(qmp g query-status)"
assert_memory_intact "$TMP/g.serial"
echo "ok: a re-run over no record and this QEMU's update marker: not known (8), nothing started"

# A marker that cannot be written: 3 before the exec, QEMU untouched.
# The temporary the marker's write opens is a directory (the shell's pid
# is qmigrate's: it execs it).  A marker that cannot be read is not one
# to refuse: a re-run that finds it says 8 (its path a directory).
rm "$st.update"
: >"$TMP/u.pid"
rc=0
# shellcheck disable=SC2016 # expanded by the inner shell
sh -c 'mkdir "$1.update.tmp.$$" && shift && exec "$@"' sh "$st" \
	"$QMIGRATE" update --mode exec --qmp "$TMP/g.qmp" --to "file:$TMP/vm.state" \
	--new-command "$TMP/new.cmd" --status-file "$st" >"$TMP/out" 2>"$TMP/err" || rc=$?
[ "$rc" -eq 3 ] || { cat "$TMP/err" >&2; fail "an update whose marker cannot be written: exit $rc, expected 3"; }
expect_err "cannot write its update marker ($st.update.tmp."
expect_err "the update stops before QEMU execs"
expect_failed "$st" 3 control "marker refused"
[ "$(wc -l <"$TMP/g.execd")" -eq 1 ] || fail "QEMU exec'd: $(cat "$TMP/g.execd")"
qmp g query-migrate-parameters | grep -q '"mode": "normal"' ||
	fail "the mode was not put back: $(qmp g query-migrate-parameters | grep mode)"
cpr_running g || fail "the guest does not run: $(qmp g query-status)"
assert_memory_intact "$TMP/g.serial"
echo "ok: an update marker that cannot be written: 3 before the exec, the guest runs on, mode normal"

# A QEMU no update touched (the one above answers completed, its load's),
# its marker (same pid and start time) and mode cpr-exec with no
# migration: the exec never happened.  The update goes on and ends 0.
cpr_exec_start h 32 50
pid=$CPR_EXEC_PID
cpr_exec_command "$TMP/h.cmd" "$TMP/build.sh"
st=$TMP/h.status
start=$(sed 's/.*) //' "/proc/$pid/stat" | cut -d' ' -f20)
printf '{"migrationUid":"killed-before-migrate","pid":%s,"startTime":%s,"qmp":"%s","time":0}' \
	"$pid" "$start" "$TMP/h.qmp" >"$st.update"
qmp h migrate-set-parameters '{"mode":"cpr-exec"}' >/dev/null
qmp h query-migrate-parameters | grep -q '"mode": "cpr-exec"' || fail "mode cpr-exec not set"
run_qmigrate 0 update --mode exec --qmp "$TMP/h.qmp" --to "file:$TMP/vm.state" \
	--new-command "$TMP/h.cmd" --status-file "$st"
expect_status "$st" .phase Succeeded "marker contradicted"
status_get "$st" '.notes[]' | grep -q "update marker $st.update of update killed-before-migrate (QEMU pid $pid) removed: the same QEMU says it never exec'd" ||
	fail "no note of the marker removed: $(status_get "$st" '.notes[]')"
[ ! -e "$st.update" ] || fail "the marker is left after a success: $(cat "$st.update")"
[ "$(wc -l <"$TMP/g.execd")" -eq 2 ] || fail "the build ran $(wc -l <"$TMP/g.execd") times, expected 2"
[ "$(tail -n 1 "$TMP/g.execd")" = "$pid" ] || fail "the build ran as $(tail -n 1 "$TMP/g.execd"), QEMU is $pid"
cpr_running h || fail "the guest does not run: $(qmp h query-status)"
assert_memory_intact "$TMP/h.serial"
echo "ok: a marker QEMU contradicts (mode cpr-exec, no migration): removed with a note, the update ran (0), no marker left"
