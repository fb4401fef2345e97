#!/usr/bin/env bash
# policy-cli.sh: qmigrate policy check and explain as an operator runs them
# on the shipped examples and on broken files.  No QEMU needed.
set -euo pipefail

: "${QMIGRATE:?QMIGRATE must name the qmigrate binary}"
: "${top_srcdir:?top_srcdir must name the source tree}"
[ -x "$QMIGRATE" ] || { echo "FAIL: $QMIGRATE is not executable" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# run EXPECTED-STATUS ARGS...: runs qmigrate, output in $tmp/out, $tmp/err.
run() {
	local want=$1 rc=0; shift
	"$QMIGRATE" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -ne "$want" ]; then
		cat "$tmp/out" "$tmp/err" >&2
		fail "qmigrate $*: exit $rc, expected $want"
	fi
}

expect_out() { grep -qF -- "$1" "$tmp/out" || { cat "$tmp/out" >&2; fail "stdout lacks: $1"; }; }
expect_err() { grep -qF -- "$1" "$tmp/err" || { cat "$tmp/err" >&2; fail "stderr lacks: $1"; }; }

# The shipped examples are valid, as a directory and one by one.
run 0 policy check "$top_srcdir/policies"
[ "$(cat "$tmp/out")" = "ok: 5 policies" ] || fail "check said: $(cat "$tmp/out")"
for f in "$top_srcdir"/policies/*.json; do
	run 0 policy check "$f"
	[ "$(cat "$tmp/out")" = "ok: 1 policy" ] || fail "$f: $(cat "$tmp/out")"
done

# A bad file: exit 1, one line naming the file, the field, the expectation.
mkdir "$tmp/bad"
cp "$top_srcdir/policies/default.json" "$tmp/bad/"
cat >"$tmp/bad/db.json" <<'EOF'
// progressTimeout takes seconds, not words
{ "name": "db", "migration": { "progressTimeout": "fast" } }
EOF
run 1 policy check "$tmp/bad"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "expected one line: $(cat "$tmp/err")"
expect_err "policy $tmp/bad/db.json: migration.progressTimeout: expected an integer from 0 to 86400, got \"fast\""
[ ! -s "$tmp/out" ] || fail "a refused directory printed: $(cat "$tmp/out")"

# explain refuses the same directory whole.
run 1 policy explain --policy "$tmp/bad" --label app=db
expect_err "policy $tmp/bad/db.json: migration.progressTimeout"

# Duplicate names across files name both files.
cat >"$tmp/bad/db.json" <<'EOF'
{ "name": "default" }
EOF
run 1 policy check "$tmp/bad"
expect_err "policy $tmp/bad/default.json: name: duplicate name \"default\", also defined in $tmp/bad/db.json"

# Usage errors.
run 1 policy check
expect_err "PATH is required"
run 1 policy frobnicate
expect_err "unknown subcommand"
run 1 policy explain --policy "$top_srcdir/policies" --label app
expect_err "label \"app\": expected KEY=VALUE"
# The same --label parsing serves migrate, check and evict.
for c in "migrate --to unix:$tmp/none" check "evict --to unix:$tmp/none"; do
	# shellcheck disable=SC2086 # c is a command and its flags
	run 1 $c --qmp "$tmp/none.qmp" --label app
	expect_err "label \"app\": expected KEY=VALUE"
	# shellcheck disable=SC2086
	run 1 $c --qmp "$tmp/none.qmp" --label a=b --labels-file "$tmp/none.json"
	expect_err "labels $tmp/none.json: No such file or directory"
done

# explain: the most specific policy wins, and the losers are explained.
run 0 policy explain --policy "$top_srcdir/policies" \
	--label app=database --label migration=postcopy --label team=x
expect_out "policy \"database-postcopy\" ($top_srcdir/policies/database-postcopy.json) applies: 2 labels matched (app=database, migration=postcopy)"
expect_out "policy \"default\" ($top_srcdir/policies/default.json) matches 0 labels, fewer than \"database-postcopy\""
expect_out "policy \"stateless\" ($top_srcdir/policies/stateless.json) does not match: label tier is not set, the policy wants \"stateless\""
expect_out '"allowPostCopy": true'
expect_out '"bandwidthPerMigration": 1073741824'

# A partial match does not count: the catch-all default applies.
run 0 policy explain --policy "$top_srcdir/policies" --label app=database
expect_out "policy \"default\" ($top_srcdir/policies/default.json) applies: 0 labels matched (empty selector, matches every VM)"
expect_out "label migration is not set, the policy wants \"postcopy\""

# Labels from a file, machine-readable output.
cat >"$tmp/labels.json" <<'EOF'
{ "tier": "stateless" }
EOF
run 0 policy explain --policy "$top_srcdir/policies" --labels-file "$tmp/labels.json" --json
expect_out '"name": "stateless"'
expect_out '"evictionStrategy": "None"'
expect_out '"bandwidthPerMigration": 134217728'
# --json prints one JSON document and nothing else.
first=$(head -c 1 "$tmp/out")
[ "$first" = "{" ] || fail "--json output does not start with a JSON object"

# A label given twice (file and flag, in either order) is refused.
run 1 policy explain --policy "$top_srcdir/policies" --labels-file "$tmp/labels.json" --label tier=web
expect_err "label tier: given twice"
run 1 policy explain --policy "$top_srcdir/policies" --label tier=web --labels-file "$tmp/labels.json"
expect_err "label tier: given twice"

# No policy matches: KubeVirt's defaults.
mkdir "$tmp/only-db"
cp "$top_srcdir/policies/database-postcopy.json" "$tmp/only-db/"
run 0 policy explain --policy "$tmp/only-db" --label app=web
expect_out "no policy matches: the defaults apply"
expect_out '"evictionStrategy": "None"'
expect_out '"completionTimeoutPerGiB": 150'
expect_out '"name": null'

echo "policy-cli: ok"
