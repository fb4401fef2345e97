#!/usr/bin/env bash
# --events into a reader that stops reading for a while, then reads again
# (the audit's N8): the lines that did not fit are lost, counted and said
# where they were lost, and nothing else is: stdout stays JSON lines, one
# per change, the migration and its phases whole.  The test's shell holds
# the FIFO unread until the status document counts lost lines, then a
# reader drains it to the end.  On b475dc5 the loop blocked in write(2)
# and the document never counted anything.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

src=$TMP/src.status
# 2 MiB/s and a quiet guest: about 35 s of pre-copy, then it converges;
# qmigrate's queue for stdout (128 KiB: two progress lines a second)
# fills in about half of that.  64 KiB of filler make the FIFO full
# before migrate's first line.
mig_policy slow '{ "bandwidthPerMigration": "2Mi", "convergence": "kubevirt" }'
mig_start_pair 64 1
mig_incoming --policy "$TMP/slow.json"
mkfifo "$TMP/migrate.out"
exec {hold}<>"$TMP/migrate.out"
timeout 10 python3 -c 'import os, sys; os.write(int(sys.argv[1]), b"x" * 65536)' "$hold" ||
	fail "cannot fill the FIFO"
mig_migrate --policy "$TMP/slow.json"

lost() {
	[ "$(status_get "$src" '.outputLinesLost.stdout // 0')" -gt 0 ] 2>/dev/null
}
wait_for 60 "the status document to count lost event lines" lost
# The reader comes back: everything from here is read.
bg_start reader bash -c 'exec cat <"$0" '"$hold"'>&-' "$TMP/migrate.out"
opened() {
	[ "$(readlink "/proc/$(guest_pid reader)/fd/0")" = "$TMP/migrate.out" ]
}
wait_for 10 "the reader to open the FIFO" opened
exec {hold}<&-

expect_exit migrate 0 120
wait_for 10 "the reader to see the end of stdout" _lib_gone "$(guest_pid reader)"
# The filler, then migrate's lines.
head -c 65536 "$TMP/reader.out" | grep -q '^x*$' || fail "the filler is not first"
events=$TMP/events
tail -c +65537 "$TMP/reader.out" >"$events"
# Every line is one JSON object.
n=0
while IFS= read -r line; do
	n=$((n + 1))
	jq -e 'type == "object"' <<<"$line" >/dev/null 2>&1 || fail "stdout line $n is not one JSON object: ${line:0:200}"
done <"$events"
# One notice for the lines lost, counting what the document counts.
said=$(jq -s '[.[] | select(.event == "linesLost") | .lines] | add' "$events")
counted=$(status_get "$src" .outputLinesLost.stdout)
[ "$said" = "$counted" ] || fail "stdout says $said lines lost, the document $counted"
jq -se '[.[] | select(.event == "linesLost") | .message] |
	length == 1 and (.[0] | test("^[0-9]+ event lines lost: the reader of stdout did not read$"))' \
	"$events" >/dev/null || fail "not one notice line: $(grep linesLost "$events")"
# The end is whole: the last phase, the end event, the final document.
phases=$(jq -r 'select(.event == "phase") | .status.phase' "$events" | tr '\n' ' ')
[[ $phases == *"Succeeded " ]] || fail "phase events: $phases"
[ "$(tail -n 2 "$events" | head -n 1 | jq -r .event)" = end ] || fail "the line before the last is not the end event"
[ "$(tail -n 1 "$events" | jq -r .phase)" = Succeeded ] || fail "the last line is not the final document"
expect_status "$src" .phase Succeeded
assert_memory_intact "$TMP/dst.serial"
echo "ok: $n lines on stdout, $counted lost while nobody read and said so once read"
