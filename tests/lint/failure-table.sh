#!/usr/bin/env bash
# Lint: docs/failures.md's failure table names its proof, and the proof
# exists.  Each row's last column is "rows; tests": unit rows (test_NAME
# in tests/unit/test-session.c, or "test-X's NAME" in tests/unit/test-X.c,
# registered with cmocka_unit_test) and real-QEMU tests
# (tests/integration/NAME.sh, in a local.mk's integration_tests so make
# check runs it).  A row that names a renamed or deleted test, or a test
# that make check never runs, is no proof: the table would stop being
# true row by row without anyone noticing.  Parenthesised words are
# commentary ("(signals.c; test-signals)", "(3)"), left out.
set -eu -o pipefail
: "${top_srcdir:?top_srcdir not set: run the test through make check}"

cd "$top_srcdir"
table=docs/failures.md
[ -f "$table" ] || { echo "FAIL: $table missing" >&2; exit 1; }
mk_files=$(find . -name local.mk -not -path './build*' | sort)
# shellcheck disable=SC2086 # one word per file name (no spaces in the tree)
listed=$(cat Makefile.am $mk_files)

# Every row of the table after its header line, as "LINE<TAB>LAST-COLUMN".
rows=$(awk -F'|' '
	/^## The failure table/ { in_table = 1; next }
	/^## / { in_table = 0 }
	in_table && /^\| what breaks/ { header = 1; next }
	in_table && header && /^\| ---/ { next }
	in_table && header && /^\| / { print NR "\t" $(NF - 1) }
	in_table && header && !/^\|/ { header = 0 }' "$table")
[ "$(echo "$rows" | grep -c .)" -ge 20 ] ||
	{ echo "FAIL: $table: fewer than 20 rows found under \"## The failure table\"" >&2; exit 1; }

fails=0
checked_rows=0
checked_tests=0
bad() {
	echo "FAIL: $table:$1: $2" >&2
	fails=$((fails + 1))
}
trim() {
	local s=$1
	s=${s#"${s%%[![:space:]]*}"}
	echo "${s%"${s##*[![:space:]]}"}"
}
unit_row_exists() { # FILE NAME
	grep -q "^test_$2(void \*\*state)" "$1" &&
		grep -q "cmocka_unit_test[a-z_]*(test_$2[,)]" "$1"
}

while IFS=$'\t' read -r line proof; do
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

[ "$fails" -eq 0 ] || exit 1
echo "ok: $(echo "$rows" | grep -c .) rows of $table name $checked_rows unit rows and $checked_tests real-QEMU tests, all present and run by make check"
