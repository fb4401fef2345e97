#!/usr/bin/env bash
# guest-memguest.sh: the memory guest boots, keeps its pace, checks its
# pages, and reports a page the host corrupts behind its back (proof that
# its checker can fail).  Guest RAM is a shared file here so that the test
# can write into it; migration tests use plain RAM.
. "$top_srcdir/tests/lib.sh"
need_cmd "$QEMU" dd stat
setup_tmp

mib=64
mem=$((mib + 64))
start_memguest mg "$mib" 50 \
	-object "memory-backend-file,id=ram,size=${mem}M,mem-path=$TMP/ram,share=on" \
	-machine memory-backend=ram
serial=$TMP/mg.serial

grep -qx 'memguest: ready mib=64 rate=50 pages=16384' "$serial" ||
	fail "unexpected ready line: $(grep -a 'memguest: ready' "$serial")"
wait_progress "$serial"
wait_progress "$serial"
# One snapshot of the complete progress lines.
mapfile -t progress < <(complete_lines "$serial" | grep -a '^memguest: progress ')
lines=${#progress[@]}
last=${progress[lines - 1]}
[[ $last =~ ^memguest:\ progress\ pass=([0-9]+)\ pages_checked=([0-9]+)\ rate_mbs=([0-9]+)$ ]] ||
	fail "unexpected progress line: $last"
pages=${BASH_REMATCH[2]}
# One progress line per second of guest time; 50 MB/s is 12207 pages per
# second.  The guest catches up after the host starves it, so the
# cumulative count is what keeps the pace: never ahead of it, not far behind.
[ "$pages" -le $((lines * 12207 + 256)) ] ||
	fail "guest ahead of its 50 MB/s pace: $pages pages in $lines s"
[ "$pages" -ge $((lines * 12207 * 8 / 10)) ] ||
	fail "guest far behind its 50 MB/s pace: $pages pages in $lines s"
assert_no_corrupt "$serial"

# Corrupt one word in each 512-byte chunk of page 100 (guest physical
# 2 MiB + 100 pages; the RAM file maps guest physical addresses 1:1 below
# 3.5 GiB).  These words hold the static pattern the guest never rewrites,
# so the next visit of the page must find them.
page=100
for chunk in 0 1 2 3 4 5 6 7; do
	printf 'BAD!' | dd of="$TMP/ram" bs=1 conv=notrunc status=none \
		seek=$((0x200000 + page * 4096 + chunk * 512 + 64))
done
wait_log "$serial" "^memguest: CORRUPT page=$page expected_gen=[0-9]+ found=word:0x21444142 expected=0x[0-9a-f]{8} offset=[0-9]+\$" 30
if (assert_no_corrupt "$serial") 2>/dev/null; then
	fail "assert_no_corrupt passed on a corrupt guest"
fi
# The guest repairs the page and keeps going: one report, new progress.
wait_progress "$serial"
wait_progress "$serial"
n=$(grep -ac 'memguest: CORRUPT' "$serial")
[ "$n" -eq 1 ] || fail "expected one CORRUPT line, got $n"
echo "PASS: memguest boots, paces itself and detects corruption"
