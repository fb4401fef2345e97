#!/usr/bin/env bash
# A damaged status file given to a re-run `qmigrate migrate` (issue 14,
# defect 4: JSON nulls, "phase": null, "mode": null, crashed it with
# SIGSEGV).  Nothing read from a file can crash qmigrate: for each damaged
# file the re-run ends with exit status 1 (the README's row: a usage or
# configuration error, nothing touched; never 3, which would claim a
# control-plane failure, nor 2; issue 22, defect 8), one line on
# stderr naming the file (and the field, for a null), no crash and no
# sanitizer report; the file is left as it was (the re-attach failed, so
# nothing is written); and the migration is untouched.
# 1. While QEMU is migrating (a first qmigrate SIGKILLed mid-migration):
#    the migration goes on; with its real status file back, a re-run
#    re-attaches and aborts it, and the guest runs on the source, intact.
# 2. Once QEMU has completed: the guest stays on the target; with its
#    real status file back, a re-run reports the earlier success (exit 0).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd cmp head
setup_tmp

# damaged_files REAL: writes the damaged versions of the status document
# REAL as $TMP/bad.NAME, and sets DAMAGED to their names.  A null field
# is named after the field.
damaged_files() {
	local f
	DAMAGED=()
	jq 'with_entries(.value = null)' "$1" >"$TMP/bad.all-null"
	DAMAGED+=(all-null)
	for f in phase migrationUid mode; do
		jq ".$f = null" "$1" >"$TMP/bad.$f"
		DAMAGED+=("$f")
	done
	{ printf 'this is not JSON {{{ '; head -c 2048 /dev/urandom; } >"$TMP/bad.garbage"
	head -c 4096 /dev/zero >"$TMP/bad.zeros"
	# A torn write: the first half of the document, then NUL bytes.
	{ head -c $(($(stat -c %s "$1") / 2)) "$1"; head -c 2048 /dev/zero; } >"$TMP/bad.torn"
	DAMAGED+=(garbage zeros torn)
	# Damaged on purpose: not documents qmigrate wrote.
	status_schema_exempt "${DAMAGED[@]/#/$TMP/bad.}"
}

# rerun_damaged NAME STATUS-FILE CODES ARGS...: puts each damaged file in
# place of STATUS-FILE and runs migrate ARGS again (background name
# NAME-DAMAGE); it must end within 30 s (not re-attach) with one of the
# exit statuses CODES ("1").
rerun_damaged() {
	local name=$1 st=$2 codes=$3 d rc field
	shift 3
	for d in "${DAMAGED[@]}"; do
		cp "$TMP/bad.$d" "$st"
		rc=0
		bg_start "$name-$d" "$QMIGRATE" migrate --status-file "$st" "$@"
		bg_wait "$name-$d" 30 || rc=$?
		if [ "$rc" -ge 128 ] || grep -Eq 'Sanitizer|SEGV|runtime error' "$TMP/$name-$d.err"; then
			fail "$name, status file $d: crashed (exit $rc): $(grep -E -m 3 'Sanitizer|SEGV|runtime error' "$TMP/$name-$d.err")"
		fi
		[[ " $codes " == *" $rc "* ]] ||
			fail "$name, status file $d: exit $rc, expected one of $codes: $(tail -n 2 "$TMP/$name-$d.err")"
		grep -qF -- "$st" "$TMP/$name-$d.err" ||
			fail "$name, status file $d: no error line names the file: $(cat "$TMP/$name-$d.err")"
		case $d in
		phase | migrationUid | mode)
			grep -F -- "$st" "$TMP/$name-$d.err" | grep -q -- "$d" ||
				fail "$name, status file $d: the error does not name the field: $(grep -F -- "$st" "$TMP/$name-$d.err")"
			;;
		all-null)
			grep -F -- "$st" "$TMP/$name-$d.err" | grep -Eq 'phase|migrationUid|mode|role' ||
				fail "$name, status file $d: the error names no field: $(grep -F -- "$st" "$TMP/$name-$d.err")"
			;;
		esac
		cmp -s "$TMP/bad.$d" "$st" ||
			fail "$name, status file $d: rewritten by a re-attach that failed: $(head -c 300 "$st")"
		echo "ok: $name, status file $d: exit $rc, $(grep -F -- "$st" "$TMP/$name-$d.err" | head -n 1)"
	done
}

# 1. QEMU migrating.
mig_orphan
st=$TMP/src.status
cp "$st" "$TMP/real.status"
uid=$(status_get "$st" .migrationUid)
damaged_files "$TMP/real.status"
moved=$(mon src query-migrate | jq -r .ram.transferred)
rerun_damaged migrating "$st" "1" --qmp "$TMP/src.qmp" \
	--to "unix:$TMP/mig.sock" --policy "$TMP/stuck.json"
# Untouched: the same migration, still moving.
[ "$(qemu_mig_status src)" = active ] ||
	fail "the source QEMU's migration is $(qemu_mig_status src) after the re-runs"
wait_for 30 "the migration moving on" \
	eval '[ "$(mon src query-migrate | jq -r .ram.transferred)" -gt "$moved" ]'

# The real file back: re-attach, abort; the guest stays.
cp "$TMP/real.status" "$st"
bg_start again "$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/mig.sock" \
	--status-file "$st" --policy "$TMP/stuck.json" --events
wait_for 30 "the re-attach" eval \
	'status_get "$st" ".notes[]" 2>/dev/null | grep -q re-attached && status_is "$st" .phase Running'
[ "$(status_get "$st" .migrationUid)" = "$uid" ] || fail "migrationUid changed"
"$QMIGRATE" abort --status-file "$st" >/dev/null 2>"$TMP/abort.err" ||
	fail "qmigrate abort exited $?: $(cat "$TMP/abort.err")"
expect_exit again 5 30
assert_stayed
expect_exit incoming 4 30

# 2. QEMU completed.
PAIR=b-
mig_policy slow '{ "bandwidthPerMigration": "32Mi" }'
mig_start_pair 64 2
mig_incoming --policy "$TMP/slow.json"
mig_migrate --policy "$TMP/slow.json"
expect_exit b-migrate 0 120
expect_exit b-incoming 0 60
st=$TMP/b-src.status
cp "$st" "$TMP/b-real.status"
uid=$(status_get "$st" .migrationUid)
damaged_files "$TMP/b-real.status"
rerun_damaged completed "$st" "1" --qmp "$TMP/b-src.qmp" \
	--to "unix:$TMP/b-mig.sock" --policy "$TMP/slow.json"
cp "$TMP/b-real.status" "$st"
rc=0
"$QMIGRATE" migrate --qmp "$TMP/b-src.qmp" --to "unix:$TMP/b-mig.sock" \
	--status-file "$st" --policy "$TMP/slow.json" >/dev/null 2>"$TMP/b-again.err" || rc=$?
[ "$rc" -eq 0 ] || fail "re-run with the real file after completion: exit $rc: $(cat "$TMP/b-again.err")"
[ "$(status_get "$st" .migrationUid)" = "$uid" ] || fail "migrationUid changed"
assert_moved
echo "ok: no damaged status file crashed migrate or touched the migration"
