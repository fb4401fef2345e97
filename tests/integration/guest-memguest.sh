#!/usr/bin/env bash
# guest-memguest.sh: the memory guest boots, keeps its pace, checks its
# pages, sweeps every word of every page again and again, and reports a
# page the host corrupts behind its back, whether the writer or the
# verifier meets it first (proof that its checkers, and
# assert_memory_intact, can fail).  Guest RAM is a shared file here so
# that the test can write into it; migration tests use plain RAM.
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
[[ $last =~ ^memguest:\ progress\ pass=([0-9]+)\ pages_checked=([0-9]+)\ paced_ms=([0-9]+)\ rate_mbs=([0-9]+)$ ]] ||
	fail "unexpected progress line: $last"
pages=${BASH_REMATCH[2]}
paced_ms=${BASH_REMATCH[3]}
# 50 MB/s is 12207 pages per second of the guest's time since its pace
# began (paced_ms).  The guest catches up after the host starves it, so
# the cumulative count is what keeps the pace: never ahead of it.  Not
# lines * 12207: a line comes once a second has passed, later on a loaded
# host, and the pages written by then are the pace's due (seen: 25484
# pages at the second line, the pace's due at 2.09 s, on a host running
# a full test run beside a simulator sweep).
[ "$paced_ms" -ge $((lines * 1000)) ] ||
	fail "$lines progress lines in $paced_ms ms of the guest's time: a line a second at most"
[ "$pages" -le $((paced_ms * 12207 / 1000 + 256)) ] ||
	fail "guest ahead of its 50 MB/s pace: $pages pages in $paced_ms ms ($lines lines)"
[ "$pages" -ge $((lines * 12207 * 8 / 10)) ] ||
	fail "guest far behind its 50 MB/s pace: $pages pages in $lines s"
assert_no_corrupt "$serial"
# Full sweeps, each over all 16384 pages, none corrupt.
assert_memory_intact "$serial"
grep -Eaq '^memguest: verified sweep=1 pages=16384 corrupt=0 ms=[0-9]+$' "$serial" ||
	fail "unexpected first verified line: $(grep -a -m1 'memguest: verified' "$serial")"

# corrupt_word FILE PAGE CHUNK: writes "BAD!" (one 4-byte write) over a
# static word of PAGE, 64 bytes into its 512-byte chunk CHUNK (guest
# physical 2 MiB + PAGE pages; the RAM file maps guest physical addresses
# 1:1 below 3.5 GiB).  The guest never rewrites these words.
corrupt_word() {
	printf 'BAD!' | dd of="$1" bs=4 count=1 conv=notrunc status=none \
		seek=$(((0x200000 + $2 * 4096 + $3 * 512 + 64) / 4))
}

# One word of page 100: the writer's visit or the verifier's sweep finds it.
page=100
corrupt_word "$TMP/ram" "$page" 3
wait_log "$serial" "^memguest: CORRUPT page=$page expected_gen=[0-9]+ found=word:0x21444142 expected=0x[0-9a-f]{8} offset=$((3 * 512 + 64))\$" 30
if (assert_no_corrupt "$serial") 2>/dev/null; then
	fail "assert_no_corrupt passed on a corrupt guest"
fi
# The guest repairs the page and keeps going: one report, new progress.
wait_progress "$serial"
wait_progress "$serial"
n=$(grep -ac 'memguest: CORRUPT' "$serial")
[ "$n" -eq 1 ] || fail "expected one CORRUPT line, got $n"
if (assert_memory_intact "$serial") 2>/dev/null; then
	fail "assert_memory_intact passed on a guest that reported corruption"
fi

# The verifier alone: an idle guest (rate 0: the writer checks 2048 pages
# a second, a pass over 64 MiB lasts 8 s, and each visit of page I in pass
# P reads only the static words of chunk (I + P) mod 8).  A word of page
# 100 in chunk 4 is read by the writer in pass 8 only, more than 48 s
# from boot; the verifier must report it within a sweep, long before.
start_memguest idle "$mib" 0 \
	-object "memory-backend-file,id=ram,size=${mem}M,mem-path=$TMP/ram2,share=on" \
	-machine memory-backend=ram
serial=$TMP/idle.serial
wait_log "$serial" '^memguest: verified sweep=1 ' 30
corrupt_word "$TMP/ram2" "$page" 4
wait_log "$serial" "^memguest: CORRUPT page=$page expected_gen=0 found=word:0x21444142 expected=0x[0-9a-f]{8} offset=$((4 * 512 + 64))\$" 30
# The writer's pass when the report came: that of the last progress line
# before it (the writer cannot get two passes further in one second).
before=$(complete_lines "$serial" | sed -n '/memguest: CORRUPT/q; /^memguest: progress/p' | tail -n 1)
writer_pass=1
[[ $before =~ pass=([0-9]+) ]] && writer_pass=${BASH_REMATCH[1]}
[ "$writer_pass" -lt 7 ] ||
	fail "the corruption was found in writer pass $writer_pass: the verifier missed it"
wait_log "$serial" "^memguest: verified sweep=[0-9]+ pages=16384 corrupt=1 ms=[0-9]+\$" 30
if (assert_memory_intact "$serial") 2>/dev/null; then
	fail "assert_memory_intact passed on a guest that reported corruption"
fi
echo "PASS: memguest boots, paces itself, sweeps all its pages and detects corruption"
