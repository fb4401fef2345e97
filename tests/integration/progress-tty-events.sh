#!/usr/bin/env bash
# migrate on a terminal with nothing redirected: stdout and stderr on one
# screen (tests/pty-stderr.py --stdout-too), as a person who types the
# command sees it.  Two pairs migrate at once, bandwidth capped so that
# pre-copy lasts seconds.
# 1. --events: each event line would be written into the progress line
#    (which has no newline of its own), so there is none: the screen at
#    the end (tests/tty-screen.py) is log lines and event lines only,
#    each event line a whole JSON object, the phases in order, the last
#    line the final document; no carriage return reached the terminal.
# 2. Without --events: the progress line is drawn in place (three updates
#    or more), and erased before the final document, which follows the
#    log lines whole (one JSON document, phase Succeeded); nothing of the
#    progress line is left on the screen.
# (progress-tty.sh: stderr alone on the terminal, stdout a file.)
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd python3
setup_tmp

mig_policy slow '{ "bandwidthPerMigration": "8Mi" }'
mig_start_pair 32 4
mig_incoming --policy "$TMP/slow.json"
PAIR=p- mig_start_pair 32 4
PAIR=p- mig_incoming --policy "$TMP/slow.json"
migrate_on_pty "$TMP/tty" --stdout-too -- --policy "$TMP/slow.json" --events
PAIR=p- migrate_on_pty "$TMP/p-tty" --stdout-too -- --policy "$TMP/slow.json"
expect_moved 120 60
PAIR=p- expect_moved 120 60

# screen CAPTURE OUT: what the terminal shows at the end, into OUT.
screen() {
	python3 "$top_srcdir/tests/tty-screen.py" "$1" >"$2" ||
		fail "$(basename "$1"): the terminal got bytes that are neither lines nor the progress line's"
}

# 1. --events on the terminal: log lines and whole event lines.
screen "$TMP/tty" "$TMP/screen"
! grep -q $'\r' "$TMP/tty" ||
	fail "--events on the terminal, yet a carriage return (a progress line): $(tr '\r' '\n' <"$TMP/tty" | grep -a 'MiB left' | head -n 2)"
grep -v '^qmigrate migrate: ' "$TMP/screen" >"$TMP/events"
[ "$(grep -c '^qmigrate migrate: ' "$TMP/screen")" -ge 1 ] || fail "no log line on the screen: $(cat "$TMP/screen")"
# Each a whole JSON object; each an event, but the last (the document).
n=0
while IFS= read -r line; do
	n=$((n + 1))
	jq -e 'type == "object"' <<<"$line" >/dev/null 2>&1 ||
		fail "screen line $n is neither a log line nor a whole JSON line: $line"
done <"$TMP/events"
[ "$n" -ge 3 ] || fail "$n event lines on the screen: $(cat "$TMP/screen")"
[ "$(head -n -1 "$TMP/events" | jq -s 'map(select(.event | type == "string")) | length')" = $((n - 1)) ] ||
	fail "a line before the last is not an event: $(head -n -1 "$TMP/events" | jq -c 'select(.event == null)' | head -c 300)"
phases=$(jq -r 'select(.event == "phase") | .status.phase' "$TMP/events" | tr '\n' ' ')
[ "${phases%Running Succeeded }" != "$phases" ] || fail "the phase events on the screen: $phases"
[ "$(tail -n 1 "$TMP/events" | jq -r '"\(.phase) \(.completed)"')" = "Succeeded true" ] ||
	fail "the screen's last event line is not the final document: $(tail -n 1 "$TMP/events" | head -c 300)"
echo "--events: $(grep -c . "$TMP/screen") screen lines, $n of them whole JSON lines (phases: $phases), no progress line"

# 2. Without --events: the progress line, then the final document whole.
tr '\r' '\n' <"$TMP/p-tty" | grep -aE '^qmigrate migrate: Running [0-9.]+% [0-9.]+ MiB left' |
	sed 's/\x1b\[K$//' | sort -u >"$TMP/p-updates" || true
u=$(grep -c . "$TMP/p-updates" || true)
[ "$u" -ge 3 ] || fail "$u progress updates on the terminal: $(head -c 600 "$TMP/p-tty" | od -c | head -n 20)"
screen "$TMP/p-tty" "$TMP/p-screen"
! grep -q 'MiB left' "$TMP/p-screen" ||
	fail "progress left on the screen: $(grep 'MiB left' "$TMP/p-screen" | head -n 3)"
# The log lines first, then the document from its first line to its last.
awk '!/^qmigrate migrate: / { d = 1 } d && /^qmigrate migrate: / { bad = 1 } END { exit bad }' "$TMP/p-screen" ||
	fail "a log line inside the final document: $(cat "$TMP/p-screen")"
grep -v '^qmigrate migrate: ' "$TMP/p-screen" >"$TMP/p-doc"
[ "$(jq -r '"\(.phase) \(.completed)"' "$TMP/p-doc" 2>/dev/null)" = "Succeeded true" ] ||
	fail "the final document on the screen is not whole: $(head -c 400 "$TMP/p-doc")"
[ "$(jq -s length "$TMP/p-doc")" = 1 ] || fail "more than one document on the screen"
echo "no --events: $u progress updates, then $(grep -c . "$TMP/p-doc") lines of one whole final document"
echo "ok: stdout and stderr on one terminal: events and progress never written into each other"
