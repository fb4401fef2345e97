#!/usr/bin/env bash
# migrate's progress on a terminal (issue 39 item 5): with stderr on a pty
# (tests/pty-stderr.py), a real migration (bandwidth capped so that
# pre-copy lasts seconds) shows one line updated in place: phase, %, MiB
# left, MB/s, dirty MB/s and ETA, drawn again and again with a carriage
# return, never a new line; what the terminal shows at the end
# (tests/tty-screen.py) is the log lines only, the progress line erased.
# A second pair migrates at the same time with its terminal full and never
# read (a stopped terminal: ^S, a stuck ssh): the migration must not wait
# for it and ends as the first does, the lines it lost counted.  (On a pipe or a file nothing changes: every
# other test's stderr is one, and report-chromium.sh checks it has no
# carriage return.)
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd python3
setup_tmp

mig_policy slow '{ "bandwidthPerMigration": "8Mi" }'
mig_start_pair 32 4
mig_incoming --policy "$TMP/slow.json"
PAIR=b- mig_start_pair 32 4
PAIR=b- mig_incoming --policy "$TMP/slow.json"
migrate_on_pty "$TMP/tty" -- --events --policy "$TMP/slow.json"
PAIR=b- migrate_on_pty "$TMP/b-tty" --never-read -- --events --policy "$TMP/slow.json"
expect_moved 120 60
PAIR=b- expect_moved 120 60

# The updates, as the terminal got them: each starts with a carriage
# return; at least three (32 MiB at 8 MiB/s: four seconds or more, four
# a second), with the figures changing.
tr '\r' '\n' <"$TMP/tty" | grep -aE '^qmigrate migrate: Running [0-9.]+% [0-9.]+ MiB left [0-9.]+ MB/s dirty [0-9.]+ MB/s ETA ([0-9hms]+|--)' |
	sed 's/\x1b\[K$//' >"$TMP/updates" || true
n=$(sort -u "$TMP/updates" | grep -c . || true)
echo "progress: $n distinct updates, e.g. $(sed -n 2p "$TMP/updates")"
[ "$n" -ge 3 ] || fail "$n progress updates on the terminal: $(head -c 600 "$TMP/tty" | od -c | head -n 20)"
[ "$(grep -o 'MiB left' "$TMP/updates" | wc -l)" -eq "$(wc -l <"$TMP/updates")" ] || fail "an update without MiB left"
left=$(awk '{ print $5 }' "$TMP/updates" | sort -un | wc -l)
[ "$left" -ge 2 ] || fail "the MiB left never changed: $(sort -u "$TMP/updates")"
# One line: the screen at the end holds the log lines and no progress
# (an update ended by a newline, or never erased, would be left there).
python3 "$top_srcdir/tests/tty-screen.py" "$TMP/tty" >"$TMP/screen" ||
	fail "the terminal got bytes that are not the progress line's"
! grep -q 'MiB left' "$TMP/screen" ||
	fail "progress left on the screen: $(grep 'MiB left' "$TMP/screen" | head -n 3)"
grep -q '^qmigrate migrate: ' "$TMP/screen" || fail "no log line on the screen: $(cat "$TMP/screen")"
! grep -v '^qmigrate migrate: ' "$TMP/screen" | grep -q . ||
	fail "a screen line without the command's prefix: $(grep -v '^qmigrate migrate: ' "$TMP/screen" | head -n 3)"
# The terminal nobody read cost the migration nothing: same outcome, and
# the document says so.
expect_status "$TMP/b-src.status" .phase Succeeded
expect_status "$TMP/src.status" .phase Succeeded
# (A writer that waited for it would wait for ever: expect_moved's bound.)
fill=$(grep -o '[0-9]* bytes fill' "$TMP/b-migrate.err" | grep -o '^[0-9]*')
[ "${fill:-0}" -gt 0 ] || fail "the stopped terminal was not filled: $(cat "$TMP/b-migrate.err")"
! grep -q 'migration completed' "$TMP/b-tty" ||
	fail "the stopped terminal took every line: it never stopped the writer"
echo "stopped terminal: $fill bytes filled it, $(($(stat -c %s "$TMP/b-tty") - fill)) more got in"
echo "ok: one updating progress line on a terminal; a stopped terminal does not hold the migration"
