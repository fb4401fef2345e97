#!/usr/bin/env bash
# policy-cli.sh: qmigrate policy check and explain as an operator runs them
# on the shipped examples and on broken files.  No QEMU needed.
. "$top_srcdir/tests/lib.sh"
setup_tmp

# The shipped examples are valid, as a directory and one by one.
run_qmigrate 0 policy check "$top_srcdir/policies"
[ "$(cat "$TMP/out")" = "ok: 5 policies" ] || fail "check said: $(cat "$TMP/out")"
for f in "$top_srcdir"/policies/*.json; do
	run_qmigrate 0 policy check "$f"
	[ "$(cat "$TMP/out")" = "ok: 1 policy" ] || fail "$f: $(cat "$TMP/out")"
done

# A bad file: exit 1, one line naming the file, the field, the expectation.
mkdir "$TMP/bad"
cp "$top_srcdir/policies/default.json" "$TMP/bad/"
cat >"$TMP/bad/db.json" <<'EOF'
// progressTimeout takes seconds, not words
{ "name": "db", "migration": { "progressTimeout": "fast" } }
EOF
run_qmigrate 1 policy check "$TMP/bad"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "expected one line: $(cat "$TMP/err")"
expect_err "policy $TMP/bad/db.json: migration.progressTimeout: expected an integer from 0 to 86400, got \"fast\""
[ ! -s "$TMP/out" ] || fail "a refused directory printed: $(cat "$TMP/out")"

# explain refuses the same directory whole.
run_qmigrate 1 policy explain --policy "$TMP/bad" --label app=db
expect_err "policy $TMP/bad/db.json: migration.progressTimeout"

# Duplicate names across files name both files.
cat >"$TMP/bad/db.json" <<'EOF'
{ "name": "default" }
EOF
run_qmigrate 1 policy check "$TMP/bad"
expect_err "policy $TMP/bad/default.json: name: duplicate name \"default\", also defined in $TMP/bad/db.json"

# Usage errors.
run_qmigrate 1 policy check
expect_err "PATH is required"
run_qmigrate 1 policy frobnicate
expect_err "unknown subcommand"
run_qmigrate 1 policy explain --policy "$top_srcdir/policies" --label app
expect_err "label \"app\": expected KEY=VALUE"
# The same --label parsing serves migrate, check and evict.
for c in "migrate --to unix:$TMP/none" check "evict --to unix:$TMP/none"; do
	# shellcheck disable=SC2086 # c is a command and its flags
	run_qmigrate 1 $c --qmp "$TMP/none.qmp" --label app
	expect_err "label \"app\": expected KEY=VALUE"
	# shellcheck disable=SC2086
	run_qmigrate 1 $c --qmp "$TMP/none.qmp" --label a=b --labels-file "$TMP/none.json"
	expect_err "labels $TMP/none.json: No such file or directory"
done

# explain: the most specific policy wins, and the losers are explained.
run_qmigrate 0 policy explain --policy "$top_srcdir/policies" \
	--label app=database --label migration=postcopy --label team=x
expect_out "policy \"database-postcopy\" ($top_srcdir/policies/database-postcopy.json) applies: 2 labels matched (app=database, migration=postcopy)"
expect_out "policy \"default\" ($top_srcdir/policies/default.json) matches 0 labels, fewer than \"database-postcopy\""
expect_out "policy \"stateless\" ($top_srcdir/policies/stateless.json) does not match: label tier is not set, the policy wants \"stateless\""
expect_out '"allowPostCopy": true'
expect_out '"bandwidthPerMigration": 1073741824'

# A partial match does not count: the catch-all default applies.
run_qmigrate 0 policy explain --policy "$top_srcdir/policies" --label app=database
expect_out "policy \"default\" ($top_srcdir/policies/default.json) applies: 0 labels matched (empty selector, matches every VM)"
expect_out "label migration is not set, the policy wants \"postcopy\""

# Labels from a file, machine-readable output.
cat >"$TMP/labels.json" <<'EOF'
{ "tier": "stateless" }
EOF
run_qmigrate 0 policy explain --policy "$top_srcdir/policies" --labels-file "$TMP/labels.json" --json
expect_out '"name": "stateless"'
expect_out '"evictionStrategy": "None"'
expect_out '"bandwidthPerMigration": 134217728'
# --json prints one JSON document and nothing else.
first=$(head -c 1 "$TMP/out")
[ "$first" = "{" ] || fail "--json output does not start with a JSON object"

# A label given twice (file and flag, in either order) is refused.
run_qmigrate 1 policy explain --policy "$top_srcdir/policies" --labels-file "$TMP/labels.json" --label tier=web
expect_err "label tier: given twice"
run_qmigrate 1 policy explain --policy "$top_srcdir/policies" --label tier=web --labels-file "$TMP/labels.json"
expect_err "label tier: given twice"

# No policy matches: KubeVirt's defaults.
mkdir "$TMP/only-db"
cp "$top_srcdir/policies/database-postcopy.json" "$TMP/only-db/"
run_qmigrate 0 policy explain --policy "$TMP/only-db" --label app=web
expect_out "no policy matches: the defaults apply"
expect_out '"evictionStrategy": "None"'
expect_out '"completionTimeoutPerGiB": 150'
expect_out '"name": null'

echo "policy-cli: ok"
