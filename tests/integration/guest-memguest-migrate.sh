#!/usr/bin/env bash
# guest-memguest-migrate.sh: the memory guest survives a plain QEMU
# pre-copy migration (QMP commands only, no qmigrate driver): the target
# keeps counting from where the source stopped and finds no corrupt page.
# This guards the guest itself (e.g. its TCG TLB flush) and the lib's rule
# that source and target get identical machine options.
. "$top_srcdir/tests/lib.sh"
need_cmd "$QEMU"
[ -x "$QMIGRATE" ] || fail "qmigrate not built: $QMIGRATE"
setup_tmp

start_memguest src 64 200
start_memguest_incoming dst 64
wait_progress "$TMP/src.serial"
qemu_migrate src dst 268435456 120
status=$(qmp dst query-status)
[[ $status =~ \"status\":\ *\"running\" ]] || fail "target not running: $status"

src_last=$(last_progress "$TMP/src.serial")
wait_progress "$TMP/dst.serial"
dst_last=$(last_progress "$TMP/dst.serial")
re='pages_checked=([0-9]+)'
[[ $src_last =~ $re ]] || fail "no progress on the source: $src_last"
src_pages=${BASH_REMATCH[1]}
[[ $dst_last =~ $re ]] || fail "no progress on the target: $dst_last"
dst_pages=${BASH_REMATCH[1]}
# The counter lives in guest memory: it continues, it does not restart.
[ "$dst_pages" -gt "$src_pages" ] ||
	fail "target counter did not continue: source \"$src_last\", target \"$dst_last\""
if grep -aq 'memguest: ready' "$TMP/dst.serial"; then
	fail "memguest booted again on the target"
fi
assert_no_corrupt "$TMP/src.serial"
assert_memory_intact "$TMP/dst.serial"
echo "PASS: memguest migrates and keeps checking on the target"
