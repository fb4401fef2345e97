#!/usr/bin/env bash
# observe-watch.sh: qmigrate watch as a person sees it: in a real terminal
# (tmux, 100x30, then resized to 60x30) during a 16 MiB/s migration of a
# busy guest that the adaptive controller finishes with post-copy (long
# decision lines).  The screen is read with capture-pane after several
# refreshes: exactly one header line (no stale "migration ..." lines left
# by a redraw), no line wider than the terminal, the bandwidth the
# controller uses (the status document's), and at the end "Succeeded".
#
# Polling the screen is bounded (wait_for): a terminal signals nothing.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd "$QEMU" tmux
[ -x "$QMIGRATE" ] || fail "qmigrate not built: $QMIGRATE"
setup_tmp

# A tmux server of this test only.  After watch, the pane's shell waits
# for input that never comes, so its last screen stays as it was (tmux's
# remain-on-exit would scroll it to say the pane is dead).
TMUX_SOCK=$TMP/tmux.sock
tm() {
	tmux -S "$TMUX_SOCK" "$@"
}
lib_on_exit 'tmux -S "$TMUX_SOCK" kill-server 2>/dev/null'
printf 'set -g status off\n' >"$TMP/tmux.conf"

mig_policy pc '{ "bandwidthPerMigration": "16Mi", "allowPostCopy": true,
	"completionTimeoutPerGiB": 8, "convergence": "adaptive" }'
mig_start_pair 64 200
mig_incoming --policy "$TMP/pc.json"
mig_migrate --policy "$TMP/pc.json"

tm -f "$TMP/tmux.conf" new-session -d -s watch -x 100 -y 30 \
	"'$QMIGRATE' watch --qmp '$TMP/src.mon' --status-file '$TMP/src.status' --interval 0.3; echo watch-exit=\$?; read -r _"

# screen: the pane as text, into $TMP/screen.
screen() {
	tm capture-pane -p -t watch >"$TMP/screen" || fail "capture-pane failed"
}
# check_screen WIDTH: one header, nothing wider than WIDTH.
check_screen() {
	local n wide
	n=$(grep -c '^migration  ' "$TMP/screen") || true
	[ "$n" -eq 1 ] || fail "$n header lines on the ${1}-column screen:
$(cat "$TMP/screen")
--- with the last 40 lines of history:
$(tm capture-pane -p -S -40 -t watch)"
	wide=$(awk -v w="$1" 'length($0) > w' "$TMP/screen")
	[ -z "$wide" ] || fail "lines wider than $1 columns: $wide"
}
# seconds_shown: the elapsed seconds of the header (each refresh redraws).
seconds_shown() {
	sed -n 's/^migration  .*  \([0-9]*\) s$/\1/p' "$TMP/screen" | head -n 1
}

# Several refreshes with the controller's figures on screen, and at
# least one decision (the lines that wrapped before).
first=
refreshed() {
	local s
	screen
	s=$(seconds_shown)
	[ -n "$s" ] || return 1
	[ -n "$first" ] || first=$s
	[ "$s" -ge $((first + 3)) ] && grep -q '^decision   ' "$TMP/screen"
}
wait_for 60 "watch to redraw for 3 s with a decision" refreshed
check_screen 100
grep -q '^bandwidth  [0-9.]* MiB/s (controller)' "$TMP/screen" ||
	fail "no controller bandwidth on screen: $(grep '^bandwidth' "$TMP/screen")"
# The figure shown is the status document's, not QEMU's mbps.  The screen
# and the document are read at two moments, and early in a migration (the
# first decision can come at the second pass) the controller's measure
# still moves fast between them: the two must agree within a refresh or
# two, not at one arbitrary instant.
bandwidth_matches() {
	screen
	shown=$(sed -n 's/^bandwidth  \([0-9.]*\) MiB\/s.*/\1/p' "$TMP/screen")
	doc=$(status_get "$TMP/src.status" .progress.bandwidth)
	awk -v s="$shown" -v d="$doc" 'BEGIN { m = d / 1048576;
		exit !(s != "" && s >= m * 0.5 - 0.2 && s <= m * 1.5 + 0.2) }'
}
wait_for 10 "the bandwidth on screen to be the status document's" \
	bandwidth_matches

# Narrower: every line is cut, and the redraw still replaces the view.
tm resize-window -t watch -x 60 -y 30
before=$(seconds_shown)
narrow() {
	local s
	screen
	s=$(seconds_shown)
	[ -n "$s" ] && [ "$s" -ge $((before + 2)) ]
}
wait_for 30 "watch to redraw twice at 60 columns" narrow
check_screen 60

expect_exit migrate 0 240
expect_exit incoming 0 60
assert_moved
finished() {
	screen
	grep -q '^watch-exit=' "$TMP/screen"
}
wait_for 15 "watch to exit" finished
grep -qx 'watch-exit=0' "$TMP/screen" ||
	fail "watch did not exit 0: $(grep watch-exit "$TMP/screen")"
check_screen 60
grep -q '^migration  Succeeded, PostCopy ' "$TMP/screen" ||
	fail "last screen: $(cat "$TMP/screen")"
decisions "$TMP/src.status" | grep -qw post-copy ||
	fail "the controller did not switch to post-copy: $(decisions "$TMP/src.status")"
echo "PASS: watch redraws in place in a terminal, one header, cut to its width, the controller's bandwidth"
