#!/usr/bin/env bash
# Lint: docs/failures.md's failure table names its proof, and the proof
# exists.  Each row's "proved by" column is "rows; tests": unit rows
# (test_NAME in tests/unit/test-session.c, or "test-X's NAME" in
# tests/unit/test-X.c, registered with cmocka_unit_test) and real-QEMU
# tests (tests/integration/NAME.sh, in a local.mk's integration_tests so
# make check runs it).  A row that names a renamed or deleted test, or a
# test that make check never runs, is no proof: the table would stop
# being true row by row without anyone noticing.  Parenthesised words are
# commentary ("(signals.c; test-signals)", "(3)"), left out.
#
# Its "sim-real" column names at least one property of the simulator
# (P1, S2, E4, D1, ...) that judges the row's path, or says "sim: n/a
# (why)" with the reason.  A property is one tests/sim defines and
# judges: a comment line " * ID ..." of tests/sim/*.c and a violation
# r_violation("ID: ...") there, so a property renamed or dropped from
# the simulator fails the rows that name it.  The checker of that column
# is tried on cells it must refuse before the table is read.
#
# The exit statuses: README.md's "## Exit status" table and the table's
# file's "## Exit statuses" list each status of src/qmigrate.h's enum
# qm_exit, in order, and nothing else; qmigrate(1)'s EXIT STATUS begins
# with them (then a command's own: watch's 130).
set -eu -o pipefail
export LC_ALL=C
: "${top_srcdir:?top_srcdir not set: run the test through make check}"

cd "$top_srcdir"
table=docs/failures.md
[ -f "$table" ] || { echo "FAIL: $table missing" >&2; exit 1; }
mk_files=$(find . -name local.mk -not -path './build*' | sort)
# shellcheck disable=SC2086 # one word per file name (no spaces in the tree)
listed=$(cat Makefile.am $mk_files)

trim() {
	local s=$1
	s=${s#"${s%%[![:space:]]*}"}
	echo "${s%"${s##*[![:space:]]}"}"
}

# The simulator's properties: defined (a comment line " * ID ...") and
# judged (a violation whose text begins "ID: ") in tests/sim/*.c.
defined=$(sed -nE 's/^ \* ([A-Z][0-9]+)[: ].*/\1/p' tests/sim/*.c | sort -u)
judged=$(grep -ohE 'r_violation\("[A-Z][0-9]+:' tests/sim/*.c |
	sed -E 's/.*"([A-Z][0-9]+):/\1/' | sort -u)
props=$(comm -12 <(echo "$defined") <(echo "$judged"))
props_words=$(tr '\n' ' ' <<<"$props")
props_words=${props_words% }
[ "$(echo "$props" | grep -c .)" -ge 10 ] ||
	{ echo "FAIL: tests/sim/*.c: fewer than 10 properties both defined and judged: $props_words" >&2; exit 1; }

# What is wrong with a sim-real cell, or nothing.
sim_cell_problem() {
	local cell=$1 ids id n=0
	cell=${cell//\`/}
	cell=$(trim "$cell")
	case $cell in
	"sim: n/a"*)
		# the reason: "(...)" right after, not empty
		if ! [[ $cell =~ ^sim:\ n/a\ \(.*[[:alnum:]].*\) ]]; then
			echo "\"sim: n/a\" without its reason in parentheses: $cell"
		fi
		return
		;;
	esac
	ids=$(echo "$cell" | sed -e 's/([^()]*)//g' -e 's/[,;]/ /g')
	for id in $ids; do
		if ! grep -qx "$id" <<<"$props"; then
			echo "\"$id\" is no property tests/sim defines and judges (they are: $props_words)"
			return
		fi
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || echo "names no sim-real property and no \"sim: n/a (why)\": \"$cell\""
}

# The checker refuses what it must (a lint that cannot fail proves nothing).
# (No pipe into a reader that may stop early, such as head or grep -q:
# under pipefail its writer's SIGPIPE fails the lint, 141, as once in a
# loaded full run.)
one_prop=${props%%$'\n'*}
for bad_cell in "" "   " "(a comment only)" "sim: n/a" "sim: n/a ()" \
	"sim: n/a because" "$one_prop Q999" "Q999" "$one_prop, P1x"; do
	[ -n "$(sim_cell_problem "$bad_cell")" ] ||
		{ echo "FAIL: the sim-real column's check takes \"$bad_cell\"" >&2; exit 1; }
done
for good_cell in "$one_prop" "$one_prop (found it)" "sim: n/a (not in the world)"; do
	[ -z "$(sim_cell_problem "$good_cell")" ] ||
		{ echo "FAIL: the sim-real column's check refuses \"$good_cell\"" >&2; exit 1; }
done

# Every row of the table after its header line, as
# "LINE<TAB>PROVED-BY<TAB>SIM-REAL".  The columns are found by their
# header, counted from the row's end (a cell may hold an escaped "\|").
rows=$(awk -F'|' '
	function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
	/^## The failure table/ { in_table = 1; next }
	/^## / { in_table = 0 }
	in_table && /^\| what breaks/ {
		header = 1
		for (i = 2; i < NF; i++) {
			if (trim($i) ~ /^proved by/) proof = NF - i
			if (trim($i) ~ /^sim-real/) sim = NF - i
		}
		if (!proof || !sim) { print "NOHEADER"; exit }
		next
	}
	in_table && header && /^\| ---/ { next }
	in_table && header && /^\| / { print NR "\t" $(NF - proof) "\t" $(NF - sim) }
	in_table && header && !/^\|/ { header = 0 }' "$table")
[ "$rows" != NOHEADER ] ||
	{ echo "FAIL: $table: the failure table's header has no \"proved by\" or no \"sim-real\" column" >&2; exit 1; }
[ "$(echo "$rows" | grep -c .)" -ge 20 ] ||
	{ echo "FAIL: $table: fewer than 20 rows found under \"## The failure table\"" >&2; exit 1; }

fails=0
checked_rows=0
checked_tests=0
checked_props=0
rows_na=0
bad() {
	echo "FAIL: $table:$1: $2" >&2
	fails=$((fails + 1))
}
unit_row_exists() { # FILE NAME
	grep -q "^test_$2(void \*\*state)" "$1" &&
		grep -q "cmocka_unit_test[a-z_]*(test_$2[,)]" "$1"
}

while IFS=$'\t' read -r line proof sim; do
	problem=$(sim_cell_problem "$sim")
	if [ -n "$problem" ]; then
		bad "$line" "sim-real column: $problem"
	else
		case $sim in
		*"sim: n/a"*) rows_na=$((rows_na + 1)) ;;
		*) checked_props=$((checked_props + 1)) ;;
		esac
	fi
	# Commentary in parentheses out (no nesting in the table), backquotes
	# out, then "rows; tests".
	proof=$(echo "$proof" | sed -e 's/([^()]*)//g' -e 's/`//g')
	case $proof in
	*";"*) ;;
	*) bad "$line" "the last column has no \"unit rows; real-QEMU tests\": $proof"; continue ;;
	esac
	units=${proof%%;*}
	tests=${proof#*;}
	IFS=, read -ra names <<<"$units"
	for n in "${names[@]}"; do
		n=$(trim "$n")
		[ -n "$n" ] || continue
		file=tests/unit/test-session.c
		case $n in
		*"'s "*) file=tests/unit/${n%%\'s *}.c; n=${n#*\'s } ;;
		esac
		if [ ! -f "$file" ]; then
			bad "$line" "unit row $n: $file does not exist"
		elif ! unit_row_exists "$file" "$n"; then
			bad "$line" "unit row $n: no registered test_$n in $file"
		fi
		checked_rows=$((checked_rows + 1))
	done
	IFS=, read -ra names <<<"$tests"
	[ "${#names[@]}" -gt 0 ] || bad "$line" "no real-QEMU test named"
	for n in "${names[@]}"; do
		n=$(trim "$n")
		[ -n "$n" ] || continue
		t=tests/integration/$n.sh
		if [ ! -f "$t" ]; then
			bad "$line" "real-QEMU test $n: $t does not exist"
		elif ! grep -qE "(^|[[:space:]=\\\\])$t([[:space:]\\\\]|$)" <<<"$listed"; then
			bad "$line" "real-QEMU test $n: $t is in no local.mk, so make check never runs it"
		fi
		checked_tests=$((checked_tests + 1))
	done
done <<<"$rows"

# The exit statuses, each document's list against src/qmigrate.h's enum.
enum_exits=$(awk '/^enum qm_exit \{/ { on = 1; next }
	on && /^\};/ { exit }
	on && match($0, /QM_EXIT_[A-Z_]+ = [0-9]+/) {
		v = substr($0, RSTART, RLENGTH); sub(/.*= /, "", v); printf "%s ", v }' src/qmigrate.h)
[ -n "$enum_exits" ] || { echo "FAIL: src/qmigrate.h: no enum qm_exit values found" >&2; exit 1; }
md_exits() { # FILE HEADING
	awk -v h="$2" '$0 == h { on = 1; next } on && /^## / { exit }
		on && /^\| [0-9]+ \|/ { split($0, f, "|"); gsub(/ /, "", f[2]); printf "%s ", f[2] }' "$1"
}
man_exits=$(awk '/^\.SH EXIT STATUS/ { on = 1; next } on && /^\.SH / { exit }
	on && prev ~ /^\.TP/ && /^\.B [0-9]+$/ { printf "%s ", $2 } { prev = $0 }' contrib/qmigrate.1)
# (qmigrate(1) goes on with a command's own: watch's 130, cmd-watch.c)
man_exits=${man_exits:0:${#enum_exits}}
for doc in "README.md:## Exit status:$(md_exits README.md '## Exit status')" \
	"$table:## Exit statuses:$(md_exits "$table" '## Exit statuses')" \
	"contrib/qmigrate.1:.SH EXIT STATUS:$man_exits"; do
	file=${doc%%:*}; rest=${doc#*:}; heading=${rest%%:*}; got=${rest#*:}
	[ "$got" = "$enum_exits" ] || {
		echo "FAIL: $file: \"$heading\" lists the statuses ${got:-none}, src/qmigrate.h's enum qm_exit ${enum_exits}" >&2
		fails=$((fails + 1))
	}
done

[ "$fails" -eq 0 ] || exit 1
echo "ok: $(echo "$rows" | grep -c .) rows of $table name $checked_rows unit rows and $checked_tests real-QEMU tests, all present and run by make check; $checked_props name sim-real properties ($props_words), $rows_na say why the simulator cannot reach them; the exit statuses ${enum_exits}as src/qmigrate.h in README.md, $table and qmigrate(1)"
