#!/usr/bin/env bash
# The status file's disk fills up during a migration: the file is a report,
# not a control, so the migration goes on and completes; the error is logged
# once on stderr (not once a second), no temporary file is left behind, and
# once space is back the file is written again and ends up saying Succeeded.
# The disk is a 16 KiB tmpfs: this test needs root (CI runs as root).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd mount umount dd
setup_tmp

disk=$TMP/disk
mkdir "$disk"
mount -t tmpfs -o size=16k,mode=0755 qmigrate-test "$disk" ||
	fail "cannot mount a tmpfs on $disk (this test needs root)"
# Unmount before lib.sh's cleanup removes $TMP (lazily: qmigrate may still
# hold a file there), keeping the test's exit status.
trap 'rc=$?; umount -l "$disk" 2>/dev/null; (exit $rc); _lib_cleanup' EXIT
st=$disk/src.status

mig_policy slow '{ "bandwidthPerMigration": "32Mi" }'
mig_start_pair 128 20
mig_incoming --policy "$TMP/slow.json"
bg_start migrate "$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "unix:$TMP/mig.sock" \
	--status-file "$st" --policy "$TMP/slow.json" --events
wait_for 30 "source status Running" status_is "$st" .phase Running

# Fill the disk: the next write of the status file fails.
dd if=/dev/zero of="$disk/fill" bs=1k 2>/dev/null && fail "16 KiB tmpfs never filled up"
wait_log "$TMP/migrate.err" "status file $st: .*No space left on device.*the migration goes on" 10
[ "$(mon src query-migrate | jq -r .status)" = active ] ||
	fail "the migration ended before the disk was freed: test proves nothing"
rm "$disk/fill"

expect_exit migrate 0 60
expect_exit incoming 0 30
assert_moved
n=$(grep -c "status file $st: .*the migration goes on" "$TMP/migrate.err") || true
[ "$n" -eq 1 ] || fail "the full disk was logged $n times, expected once: $(grep "status file" "$TMP/migrate.err")"
grep -q "status file $st: writable again" "$TMP/migrate.err" ||
	fail "no line says the status file is writable again"
[ "$(status_get "$st" .phase)" = Succeeded ] || fail "status file says $(status_get "$st" .phase)"
leftover=$(find "$disk" -name 'src.status.tmp.*')
[ -z "$leftover" ] || fail "temporary files left on the full disk: $leftover"
# The final document on stdout (after the --events lines) says the same.
[ "$(jq -rs 'last | .phase' "$TMP/migrate.out")" = Succeeded ] ||
	fail "the final document on stdout says $(jq -rs 'last | .phase' "$TMP/migrate.out")"
echo "ok: disk full logged once, the migration completed"
