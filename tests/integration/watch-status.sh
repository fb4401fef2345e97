#!/usr/bin/env bash
# qmigrate watch --status-file as an operator meets it (issue 38, issue 39
# item 5).  A file that is not there: one line naming it, exit 1 (as
# `status`), within its 10 s wait and nothing on stdout; on b475dc5 it
# printed "phase=Pending" every second for ever.  A file that is no status
# document: the same at once.  A file that appears while watch waits:
# watched to its end, each line's figures with their units.  No QEMU
# needed.
. "$top_srcdir/tests/lib.sh"
setup_tmp

# watch_timed CODE MAX_S ARGS...: qmigrate watch ARGS exits CODE within
# MAX_S seconds (killed after 20 s), stdout in $TMP/out, stderr in $TMP/err.
watch_timed() {
	local code=$1 max=$2 t0 t1 rc=0
	shift 2
	t0=${EPOCHREALTIME//[!0-9]/}
	timeout 20 "$QMIGRATE" watch --interval 0.2 "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
	t1=${EPOCHREALTIME//[!0-9]/}
	[ "$rc" -ne 124 ] || fail "watch $* still ran after 20 s: $(tail -n 2 "$TMP/out")"
	[ "$rc" -eq "$code" ] || fail "watch $*: exit $rc, expected $code: $(cat "$TMP/err")"
	[ $(((t1 - t0) / 1000000)) -lt "$max" ] || fail "watch $*: $(((t1 - t0) / 1000)) ms, more than $max s"
}

need_cmd timeout

# Not there: one line naming the file, nothing drawn.
watch_timed 1 15 --status-file "$TMP/missing.status"
one_line_err "qmigrate watch: status file $TMP/missing.status: cannot open it: No such file or directory: not there for 10 s"
[ ! -s "$TMP/out" ] || fail "watch drew a view of a missing file: $(head -n 2 "$TMP/out")"

# Not a status document: at once.
echo '[1, 2' >"$TMP/garbage.status"
watch_timed 1 2 --status-file "$TMP/garbage.status"
one_line_err "qmigrate watch: status file $TMP/garbage.status: "
[ ! -s "$TMP/out" ] || fail "watch drew a view of a garbage file: $(head -n 2 "$TMP/out")"

# It appears, running, then succeeds: watched to the end with units.
doc() {
	printf '{ "phase": "%s", "mode": "PreCopy", "progress": { "qemuStatus": "%s",
	  "dataTotal": 67108864, "dataRemaining": %s, "dataProcessed": 50331648,
	  "bandwidth": 8388608, "dirtyRate": 1048576, "expectedDowntimeMs": 300,
	  "iteration": 2, "throttlePercentage": 0 }, "decisions": [] }\n' "$1" "$2" "$3" \
		>"$TMP/late.status.tmp"
	mv "$TMP/late.status.tmp" "$TMP/late.status"
}
bg_start watch timeout 30 "$QMIGRATE" watch --interval 0.2 --status-file "$TMP/late.status"
doc Running active 16777216
wait_log "$TMP/watch.out" '^phase=Running ' 10
doc Succeeded completed 0
rc=0
bg_wait watch 10 || rc=$?
[ "$rc" -eq 0 ] || fail "watch of a migration that succeeded: exit $rc"
grep -Eq '^phase=Running mode=PreCopy qemu=active progress=75\.0% remaining=16\.0MiB total=64\.0MiB bandwidth=8\.0MiB/s dirty_rate=1\.0MiB/s rates_from=controller expected_downtime=300ms pass=2 throttle=0% elapsed=[0-9]+s$' \
	"$TMP/watch.out" || fail "watch's running line: $(grep -m1 '^phase=Running' "$TMP/watch.out")"
tail -n 1 "$TMP/watch.out" | grep -Eq '^phase=Succeeded .*progress=100\.0% remaining=0\.0MiB ' ||
	fail "watch's last line: $(tail -n 1 "$TMP/watch.out")"
[ ! -s "$TMP/watch.err" ] || fail "watch wrote on stderr: $(cat "$TMP/watch.err")"
echo "ok: missing and garbage status files end watch (1) with one line; a late one is watched with units"
