#!/usr/bin/env bash
# migrate-abort-owner.sh: `qmigrate abort --status-file F` signals only the
# qmigrate that writes F.  After a crash the pid F names may belong to any
# process: an unrelated one (an idle cat), a qmigrate that only reads F
# (watch), or a qmigrate started after F was written are left alone, and
# abort exits 3 "no qmigrate is driving this migration" naming F.  The
# writer itself, a real `qmigrate migrate` waiting for a migration slot,
# is still aborted (exit 5, guest running on the source).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd flock
setup_tmp

# The node's only migration slot is taken, so migrate waits in Pending:
# a real writer of its status file, with nothing moving.
start_memguest src 16 10
mkdir "$TMP/slots"
bg_idle holder "$TMP/slots/slot-0"
# Its status file relative to its own directory, in the --opt=value
# spelling: abort is given the absolute path.
bg_start migrate env -C "$TMP" "$QMIGRATE" migrate --qmp "$TMP/src.qmp" \
	--to "unix:$TMP/none.sock" --status-file=src.status \
	--slot-dir "$TMP/slots" --max-parallel 1
waiting() { status_get "$TMP/src.status" '.notes[]?' | grep -q 'waiting for a migration slot'; }
wait_for 30 "migrate waiting for its slot" waiting
mig=$(guest_pid migrate)
[ "$(status_get "$TMP/src.status" .pid)" = "$mig" ] || fail "status pid is not migrate's"
[ -n "$(status_get "$TMP/src.status" '.pidStartTime // empty')" ] ||
	fail "no pidStartTime in $(cat "$TMP/src.status")"
cp "$TMP/src.status" "$TMP/orig.status"

# refused FILE PID WHY: abort of FILE exits 3 naming FILE and WHY; PID lives.
refused() {
	local rc=0
	"$QMIGRATE" abort --status-file "$1" --timeout 5 >"$TMP/abort.out" \
		2>"$TMP/abort.err" || rc=$?
	[ "$rc" -eq 3 ] || fail "abort of $1 (pid $2): exit $rc, expected 3: $(cat "$TMP/abort.err")"
	grep -qF "status file $1: no qmigrate is driving this migration (pid $2: $3)" \
		"$TMP/abort.err" || fail "abort of $1: $(cat "$TMP/abort.err")"
	kill -0 "$2" 2>/dev/null || fail "abort of $1 killed pid $2"
}

# 1. The pid was reused by an unrelated process: with the start time the
# crashed writer recorded, and without one (a document of an older
# qmigrate: the command line decides).
bg_idle victim
victim=$(guest_pid victim)
jq ".pid = $victim" "$TMP/orig.status" >"$TMP/crashed.status"
refused "$TMP/crashed.status" "$victim" "that pid now belongs to a process started later"
jq ".pid = $victim | del(.pidStartTime)" "$TMP/orig.status" >"$TMP/old.status"
refused "$TMP/old.status" "$victim" "that process is not a qmigrate migrate, incoming or evict given this status file"

# 2. A qmigrate that reads the file, not its writer.
jq 'del(.pidStartTime)' "$TMP/orig.status" >"$TMP/watched.status"
bg_start watch "$QMIGRATE" watch --status-file "$TMP/watched.status" --interval 0.2
watcher=$(guest_pid watch)
jq ".pid = $watcher | del(.pidStartTime)" "$TMP/orig.status" >"$TMP/w.tmp"
mv "$TMP/w.tmp" "$TMP/watched.status"
refused "$TMP/watched.status" "$watcher" "that process is not a qmigrate migrate, incoming or evict given this status file"

# 3. The writer's pid and command line, but another start time: a qmigrate
# started after the document was written.
jq '.pidStartTime += 1' "$TMP/orig.status" >"$TMP/s.tmp"
mv "$TMP/s.tmp" "$TMP/src.status"
refused "$TMP/src.status" "$mig" "that pid now belongs to a process started later"
status_is "$TMP/src.status" .abortRequested false || fail "migrate saw an abort"

# 4. The writer itself: aborted while it waits; the guest stays.
mv "$TMP/orig.status" "$TMP/src.status"
"$QMIGRATE" abort --status-file "$TMP/src.status" >"$TMP/abort.out" 2>"$TMP/abort.err" ||
	fail "abort of the real migration exited $?: $(cat "$TMP/abort.err")"
grep -qx 'abortStatus: Succeeded' "$TMP/abort.out" || fail "abort printed: $(cat "$TMP/abort.out")"
expect_exit migrate 5 30
[ "$(qmp src query-status | jq -r .status)" = running ] || fail "src not running after the abort"
assert_memory_intact "$TMP/src.serial"
kill -0 "$victim" 2>/dev/null || fail "the unrelated process died"
echo "PASS: abort left an unrelated process, a watch and a later process alone; aborted the real writer"
