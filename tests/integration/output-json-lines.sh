#!/usr/bin/env bash
# What a log pipeline or a node agent reads (issue 38, issue 39 item 6):
# with --events, stdout is JSON lines to its last line (the final document
# included, one line); with --log-json, stderr is JSON lines to its last
# line (the usage error and the final failure included), each naming the
# command; without it, every stderr line starts with the command's one
# prefix.  Each line is parsed alone, as a line-oriented reader does.  On
# b475dc5 stdout ended with a pretty-printed document of many lines and
# the final failure was plain text ("qmigrate source: ...").
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

# each_json FILE WHAT: every line of FILE is one JSON object on its own.
each_json() {
	local n=0 line
	[ -s "$1" ] || fail "$2 is empty"
	while IFS= read -r line; do
		n=$((n + 1))
		jq -e 'type == "object"' <<<"$line" >/dev/null 2>&1 ||
			fail "$2 line $n is not one JSON object: ${line:0:200}"
	done <"$1"
}

# A usage error: one JSON line, level error, the command named.
run_qmigrate 1 --log-json migrate --qmp "$TMP/none.qmp"
each_json "$TMP/err" "a usage error's stderr"
[ "$(jq -r '.level + " " + .command' "$TMP/err")" = "error migrate" ] ||
	fail "usage error: $(cat "$TMP/err")"

mig_start_pair 64 1
# A failure at the end: no target listens.  The last stderr line is the
# failure, as JSON.
run_qmigrate 3 --log-json migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/nobody.sock" \
	--status-file "$TMP/fail.status" --events
each_json "$TMP/out" "migrate --events' stdout"
each_json "$TMP/err" "migrate --log-json's stderr"
[ "$(tail -n 1 "$TMP/err" | jq -r .level)" = error ] || fail "the last stderr line: $(tail -n 1 "$TMP/err")"
[ "$(tail -n 1 "$TMP/err" | jq -r .msg)" = "$(status_get "$TMP/fail.status" .failureReason)" ] ||
	fail "the last stderr line is not the failure: $(tail -n 1 "$TMP/err")"
[ "$(jq -r .command "$TMP/err" | sort -u)" = migrate ] || fail "a line names another command: $(jq -r .command "$TMP/err" | sort -u)"
[ "$(tail -n 1 "$TMP/out" | jq -r .exitCode)" = 3 ] || fail "the last stdout line is not the final document"
# The same failure without --log-json: every line under one prefix.
run_qmigrate 3 migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/nobody.sock" \
	--status-file "$TMP/fail2.status"
bad=$(grep -v '^qmigrate migrate: ' "$TMP/err" || true)
[ -z "$bad" ] || fail "stderr lines without the command's prefix: $bad"
[ "$(tail -n 1 "$TMP/err")" = "qmigrate migrate: $(status_get "$TMP/fail2.status" .failureReason)" ] ||
	fail "the last stderr line is not the failure: $(tail -n 1 "$TMP/err")"

# A migration that succeeds, both outputs as JSON lines.
mig_incoming
bg_start jmigrate "$QMIGRATE" --log-json migrate --qmp "$TMP/src.qmp" \
	--to "unix:$TMP/mig.sock" --status-file "$TMP/src.status" --events
expect_exit jmigrate 0 120
each_json "$TMP/jmigrate.out" "migrate --events' stdout"
each_json "$TMP/jmigrate.err" "migrate --log-json's stderr"
[ "$(tail -n 2 "$TMP/jmigrate.out" | head -n 1 | jq -r .event)" = end ] || fail "no end event before the final document"
[ "$(tail -n 1 "$TMP/jmigrate.out" | jq -r .phase)" = Succeeded ] || fail "the last stdout line is not the final document"
expect_exit incoming 0 30
assert_memory_intact "$TMP/dst.serial"
echo "ok: $(wc -l <"$TMP/jmigrate.out") stdout lines and $(wc -l <"$TMP/jmigrate.err") stderr lines, each one JSON object"
