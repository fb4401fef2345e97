# tests/observe-lib.sh: what the observability tests share; sourced after
# tests/lib.sh.

LINT=$top_builddir/tests/prom-lint
need_file "$LINT" "prom-lint"
need_cmd promtool curl

# prom_check FILE: FILE is a valid exposition: Prometheus' own linter
# (promtool check metrics: format, HELP, TYPE, naming rules) and
# tests/prom-lint (stricter: one family per block, no series twice, every
# name with the qmigrate_ prefix).
prom_check() {
	local out
	out=$(promtool check metrics <"$1" 2>&1) ||
		fail "promtool check metrics $1: $(head -n 5 <<<"$out")"
	"$LINT" qmigrate_ <"$1" 2>"$1.lint" ||
		fail "exposition format of $1: $(head -n 5 "$1.lint")"
}

# metric FILE SERIES: the value of one series (its exact text before the
# value), or nothing.
metric() {
	local line
	line=$(grep -F -- "$2 " "$1" 2>/dev/null | head -n 1) || true
	[ -n "$line" ] && echo "${line##* }"
	return 0
}
