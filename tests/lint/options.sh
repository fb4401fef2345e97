#!/usr/bin/env bash
# Lint: one source of truth for options (issue 39).  The command tables
# (src/cmd-*.c, parsed by src/args.c) make each command's --help; the man
# page (contrib/qmigrate.1) and the bash completion
# (contrib/qmigrate.bash-completion) are written by hand and must say
# the same: every option of every command appears in its section of the
# man page (a .TP tag under the command's .SS) and in its opts="..." of
# the completion, and nothing else does; the global options of
# `qmigrate --help` likewise (the man page's OPTIONS, the completion's
# first word); every option that takes a value is in the completion's
# `case $prev` (so that it is not completed with an option).  Each
# difference is printed with where it is missing or extra.
set -eu -o pipefail
: "${top_builddir:?top_builddir not set: run the test through make check}"
: "${top_srcdir:?top_srcdir not set: run the test through make check}"

q=$top_builddir/qmigrate
man=$top_srcdir/contrib/qmigrate.1
comp=$top_srcdir/contrib/qmigrate.bash-completion
fail=0

# compare WHAT A-NAME A-LIST B-NAME B-LIST: the two sorted lists must be
# equal; prints each word one has and the other lacks.
compare() {
	local what=$1 an=$2 a=$3 bn=$4 b=$5 w
	for w in $(comm -23 <(echo "$a" | sort -u) <(echo "$b" | sort -u)); do
		echo "FAIL: $what: $w is in $an but not in $bn"
		fail=1
	done
	for w in $(comm -13 <(echo "$a" | sort -u) <(echo "$b" | sort -u)); do
		echo "FAIL: $what: $w is in $bn but not in $an"
		fail=1
	done
}

# The leaf commands, as `qmigrate --help` lists them ("policy check").
commands=$("$q" --help | awk '
	/^commands:/ { f = 1; next }
	f && /^$/ { f = 0 }
	f { c = substr($0, 3, 15); sub(/ +$/, "", c); print c }')
[ "$(echo "$commands" | grep -c .)" -gt 10 ] ||
	{ echo "FAIL: no commands in qmigrate --help" >&2; exit 1; }

# The options of --help's "options:" block (every name of a line).
help_options() {
	# shellcheck disable=SC2086 # "policy check" is two words
	"$q" $1 --help | sed -n '/^options:/,/^$/p' |
		{ grep -oE '^  -[-a-z0-9]+(, -[-a-z0-9]+)?' || true; } |
		tr ',' '\n' | sed 's/^ *//'
}
# Those of them that take a value ("--qmp PATH").
help_valued() {
	# shellcheck disable=SC2086
	"$q" $1 --help | sed -n '/^options:/,/^$/p' |
		{ grep -oE '^  --[a-z0-9-]+ [^ ]' || true; } | awk '{ print $1 }'
}

# The .TP tags of the man page's section whose .SS title starts with the
# command's name ("" for the OPTIONS section of the global options).
man_options() {
	awk -v c="$1" '
		{ gsub(/\\-/, "-") }
		/^\.S[HS] / {
			t = $0; sub(/^\.S[HS] +"?/, "", t); sub(/"$/, "", t)
			if (c == "")
				on = ($1 == ".SH" && t == "OPTIONS")
			else
				on = ($1 == ".SS" && (t == c || index(t, c " ") == 1))
			next
		}
		on && tag { while (match($0, /(^|[^-a-z0-9])-(-[a-z0-9][-a-z0-9]*|[a-z])/)) {
				w = substr($0, RSTART, RLENGTH); sub(/^[^-]/, "", w); print w
				$0 = substr($0, RSTART + RLENGTH) } }
		{ tag = ($0 ~ /^\.TP/) }' "$man"
}

# The options of the completion's opts="..." for the command's first
# word (a command with subcommands has one list for all of them).
comp_options() {
	awk -v c="$1" '
		$0 ~ "^\t" c "\\) opts=\"" { on = 1 }
		on { s = $0; while (match(s, /--[a-z0-9][-a-z0-9]*/)) {
				print substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH) } }
		on && /" ;;/ { on = 0 }' "$comp" | grep -vx -- '--help' || true
}

# The options of the completion's `case $prev in ... esac`.
comp_prev() {
	sed -n '/case \$prev in/,/esac/p' "$comp" | grep -oE -- '--[a-z0-9][-a-z0-9]*' || true
}

all_options=
valued=
while read -r c; do
	h=$(help_options "$c")
	all_options+="$h"$'\n'
	valued+="$(help_valued "$c")"$'\n'
	compare "$c" "qmigrate $c --help" "$h" "qmigrate(1)" "$(man_options "$c")"
done <<<"$commands"

# The completion: one list per first word.
for w in $(echo "$commands" | awk '{ print $1 }' | sort -u); do
	h=$(echo "$commands" | awk -v w="$w" '$1 == w' |
		while read -r c; do help_options "$c"; done)
	compare "$w" "qmigrate $w ... --help" "$h" "the bash completion" "$(comp_options "$w")"
done
compare "commands" "qmigrate --help" "$(echo "$commands" | awk '{ print $1 }')" \
	"the bash completion" \
	"$(awk '/local commands="/ { on = 1; sub(/.*commands="/, "") }
		on { s = $0; sub(/".*/, "", s); print s } on && /"/ { exit }' "$comp" |
		tr ' \t' '\n' | grep .)"

# The global options.
g=$(help_options "")
compare "global options" "qmigrate --help" "$g" "qmigrate(1) OPTIONS" "$(man_options "")"
compare "global options" "qmigrate --help" "$g" "the bash completion" \
	"$(grep -oE 'compgen -W "\$commands [^"]*"' "$comp" | grep -oE -- ' -[-a-z0-9]+' | sed 's/^ //')"

# Values are completed as values, not as options.
compare "options taking a value" "the commands' --help" "$valued" \
	"the completion's case \$prev" "$(comp_prev)"
# Nothing in the completion names an option no command has.
for w in $(grep -oE -- '--[a-z0-9][-a-z0-9]*' "$comp" | sort -u); do
	grep -qx -- "$w" <<<"$all_options$g" ||
		{ echo "FAIL: the bash completion names $w, which no command has"; fail=1; }
done

[ "$fail" = 0 ] && echo "ok: $(echo "$commands" | grep -c .) commands, $(echo "$all_options" | sort -u | grep -c .) options: --help, qmigrate(1) and the completion agree"
exit "$fail"
