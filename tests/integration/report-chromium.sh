#!/usr/bin/env bash
# qmigrate report on a real migration that needed a decision: a busy guest
# (64 MiB written at 200 MiB/s) over a 20 MiB/s link, finished by the
# adaptive controller's pause.  The page must hold each series' path with
# more than one point, the phases as bands and the pause decision's mark
# and figures, and headless Chromium must draw it: its screenshot has each
# series' colour in the plot area (a page without lines, or with the wrong
# colours, fails).  What a user sees is the screenshot; the structure
# checks say which part went missing.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
if ! command -v chromium >/dev/null 2>&1; then
	echo "SKIP: chromium is not installed (Debian's chromium package)"
	exit 77
fi
need_cmd python3
setup_tmp

mig_policy busy '{ "bandwidthPerMigration": "20Mi", "allowWorkloadDisruption": true,
	"completionTimeoutPerGiB": 8, "convergence": "adaptive" }'
mig_start_pair 64 200
mig_incoming --policy "$TMP/busy.json"
mig_migrate --policy "$TMP/busy.json"
expect_exit migrate 0 240
expect_exit incoming 0 60
assert_moved
# stderr is a file here: no progress line (that is for a terminal).
! grep -q $'\r' "$TMP/migrate.err" || fail "a carriage return in migrate's stderr, a file"
decisions "$TMP/src.status" | grep -qw pause ||
	fail "no pause decision to draw: $(decisions "$TMP/src.status")"

"$QMIGRATE" report --status-file "$TMP/src.status" --events "$TMP/migrate.out" \
	--target-status-file "$TMP/dst.status" --output "$TMP/report.html" 2>"$TMP/report.err" ||
	fail "qmigrate report exited $?: $(cat "$TMP/report.err")"
html=$TMP/report.html

# Self-contained: no script, nothing fetched.
! grep -Eqi '<script|<link|src="http|href="http' "$html" ||
	fail "the page loads something: $(grep -Eoi '<script|<link|(src|href)="http[^"]*' "$html" | head -n 3)"
for s in remaining bandwidth dirty-rate throttle; do
	n=$(grep -o "class=\"series\" data-series=\"$s\" data-points=\"[0-9]*\"" "$html" |
		grep -o '[0-9]*"$' | tr -d '"')
	[ "${n:-0}" -gt 1 ] || fail "series $s has ${n:-no} points"
	d=$(grep -o "data-series=\"$s\" data-points=\"[0-9]*\" [^>]* d=\"[^\"]*\"" "$html" |
		grep -o ' L' | wc -l)
	[ "$d" -ge 1 ] || fail "series $s's path has no segment"
done
[ "$(grep -c '<rect class="phase"' "$html")" -ge 2 ] ||
	fail "fewer than 2 phase bands (per chart)"
grep -q '<g class="decision" data-action="pause"' "$html" || fail "no pause mark on the charts"
grep -A0 '<tr class="decision">' "$html" | grep -q 'pause' || fail "no pause row in the decisions table"
# Both QEMUs: the source's from its document, the target's from incoming's
# (over unix: the source's document does not know it).
for side in source:src target:dst; do
	v=$(status_get "$TMP/${side#*:}.status" ".migrationConfiguration.qemus.${side%:*}.version")
	[ -n "$v" ] && [ "$v" != null ] || fail "the ${side%:*}'s document has no QEMU version"
	grep -qF "<th>${side%:*} QEMU</th><td>$v</td>" "$html" ||
		fail "no ${side%:*} QEMU $v in the page: $(grep -o "<th>${side%:*} QEMU</th><td>[^<]*" "$html")"
done
# The guest's pause: QEMU's figure from the source's document.
down=$(status_get "$TMP/src.status" .progress.downtimeMs)
[[ $down =~ ^[0-9]+$ ]] || fail "no downtimeMs in the source's document: $down"
grep -qF "<th>downtime</th><td>$down ms</td>" "$html" ||
	fail "no downtime $down ms in the page: $(grep -o '<th>downtime</th><td>[^<]*' "$html")"
grep -q 'class="sources"' "$html" || fail "no settings' sources"
grep -q '<td>bandwidthPerMigration</td><td>policy busy</td>' "$html" ||
	fail "bandwidthPerMigration's source is not \"policy busy\""

# Chromium draws it.  Its own profile, no GPU, no sandbox (root in a
# container); timeout in case it hangs.
shot=$TMP/report.png
timeout 90 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--user-data-dir="$TMP/chromium" --window-size=1000,1500 \
	--screenshot="$shot" "file://$html" >"$TMP/chromium.log" 2>&1 ||
	fail "chromium exited $?: $(tail -n 3 "$TMP/chromium.log")"
[ -s "$shot" ] || fail "chromium wrote no screenshot: $(tail -n 3 "$TMP/chromium.log")"
# The plot area: right of the charts' titles and y labels (x 120..956 in
# the page, the body's 16 px margin included), the page's height.  The
# decision's marks, 2 px and crisp, are 632 pixels wherever the mark falls
# (at 1.5 px antialiased, 27 on a whole pixel's edge); none when missing.
mapfile -t counts < <(python3 "$top_srcdir/tests/png-colors.py" "$shot" 120 0 956 1500 \
	1f5fd0 129a3a d0202a 8a3cc8 f08a00)
names=(remaining bandwidth dirty-rate throttle decision-marks)
for i in 0 1 2 3 4; do
	echo "screenshot: ${names[$i]} ${counts[$i]} pixels"
	[ "${counts[$i]:-0}" -ge 200 ] ||
		fail "the screenshot has ${counts[$i]:-no} pixels of ${names[$i]}'s colour in the plot area"
done
echo "ok: report of a paused-to-finish migration drawn by chromium ($(stat -c %s "$html") bytes)"
