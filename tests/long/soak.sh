#!/usr/bin/env bash
# Soak (make check-long, not make check): the busy memory guest (64 MiB,
# dirtying 50 MB/s) migrates back and forth SOAK_N times (default 50)
# between two slots, A and B, over unix sockets.  After each migration
# the guest runs on the receiving QEMU with every page intact (a full
# sweep of its verifier, no CORRUPT), the postmigrate QEMU it left is
# stopped and a fresh -incoming defer QEMU takes its slot.  Then:
# - qmigrate's memory is flat: the peak RSS of each `qmigrate migrate`
#   (GNU time %M) averaged over the last 10 runs is within 20% of the
#   first 10 (halves when SOAK_N < 20);
# - no descriptor leaks into QEMU: every receiving QEMU has the same
#   number of open fds once it runs (within 2);
# - nothing is left: no qmigrate process, and no socket in the test's
#   directory but the QMP sockets of the two live QEMUs.
# Then SOAK_VALGRIND_N (default 3) more migrations with both `qmigrate
# migrate` and `qmigrate incoming` under valgrind (--leak-check=full,
# definite and indirect leaks are errors), which needs a qmigrate built
# without sanitizers: QMIGRATE_VALGRIND=PATH.  `make check-long` sets it to
# the build's own qmigrate when the build has no sanitizers; in a
# --enable-sanitizers build, pass QMIGRATE_VALGRIND=/path/to/plain/qmigrate
# (run.sh test makes one in build-valgrind/), or the test fails saying so.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
N=${SOAK_N:-50}
VG_N=${SOAK_VALGRIND_N:-3}
MIB=64
RATE=50
need_cmd /usr/bin/time valgrind
[ -n "${QMIGRATE_VALGRIND:-}" ] ||
	fail "QMIGRATE_VALGRIND is not set: the valgrind part needs a qmigrate built without sanitizers (make check-long in a plain build sets it)"
[ -x "$QMIGRATE_VALGRIND" ] || fail "QMIGRATE_VALGRIND=$QMIGRATE_VALGRIND is not an executable"
if nm -D "$QMIGRATE_VALGRIND" 2>/dev/null | grep -q __asan_init; then
	fail "QMIGRATE_VALGRIND=$QMIGRATE_VALGRIND is built with ASan: valgrind cannot run it"
fi
setup_tmp

cat >"$TMP/qmigrate-vg" <<EOF
#!/bin/sh
exec valgrind -q --error-exitcode=99 --leak-check=full \\
	--errors-for-leak-kinds=definite,indirect \\
	--show-leak-kinds=definite,indirect \\
	--log-file="$TMP/vg.%p" "$QMIGRATE_VALGRIND" "\$@"
EOF
chmod +x "$TMP/qmigrate-vg"

# Guest g0 runs in slot A, g1 waits in slot B; migration i goes from g$i
# to g$((i + 1)) over $TMP/mig-SLOT.sock.
start_memguest g0 "$MIB" "$RATE"
start_memguest_incoming g1 "$MIB"

rss=()
fds=()

# fd_count NAME: open descriptors of QEMU NAME.
fd_count() {
	ls "/proc/$(guest_pid "$1")/fd" | wc -l
}

# leftovers: fails if a qmigrate of this test still runs, or a socket other
# than the live QEMUs' QMP sockets is in $TMP.
leftovers() {
	local live=("$@") p cmd s n ok
	for p in /proc/[0-9]*; do
		cmd=$(tr '\0' ' ' <"$p/cmdline" 2>/dev/null) || continue
		case $cmd in
		*"$TMP/"*) ;;
		*) continue ;;
		esac
		case $cmd in
		*" migrate --qmp "* | *" incoming --qmp "*)
			fail "a qmigrate is left after its migration: pid ${p#/proc/}: $cmd" ;;
		esac
	done
	while IFS= read -r s; do
		ok=
		for n in "${live[@]}"; do
			[ "$s" = "$TMP/$n.qmp" ] && ok=1
		done
		[ -n "$ok" ] || fail "stray socket $s after migration $i"
	done < <(find "$TMP" -type s)
}

# migrate_once I QMIGRATE-FOR-BOTH: migration I, g$I -> g$((I + 1)).
migrate_once() {
	local i=$1 qm=$2 src=g$1 dst=g$(($1 + 1)) slot sock
	slot=$([ $((i % 2)) -eq 0 ] && echo B || echo A)
	sock=$TMP/mig-$slot.sock
	bg_start "in$i" "$qm" incoming --qmp "$TMP/$dst.qmp" \
		--listen "unix:$sock" --status-file "$TMP/$dst.status"
	wait_for 60 "$dst prepared" status_is "$TMP/$dst.status" .phase TargetReady
	bg_start "mig$i" /usr/bin/time -f %M -o "$TMP/rss.$i" \
		"$qm" migrate --qmp "$TMP/$src.qmp" --to "unix:$sock" \
		--status-file "$TMP/$src.status"
	expect_exit "mig$i" 0 300
	expect_exit "in$i" 0 60
	status_is "$TMP/$src.status" .phase Succeeded ||
		fail "migration $i: source status $(status_get "$TMP/$src.status" .phase)"
	[ "$(qmp "$dst" query-status | jq -r .status)" = running ] ||
		fail "migration $i: $dst is not running"
	assert_memory_intact "$TMP/$dst.serial"
	rss+=("$(tail -n 1 "$TMP/rss.$i")")
	fds+=("$(fd_count "$dst")")
	# The slot the guest left gets a fresh target.
	kill_guest "$src" TERM
	start_memguest_incoming "g$((i + 2))" "$MIB"
	leftovers "$dst" "g$((i + 2))"
	echo "migration $i: $src -> $dst ($(status_get "$TMP/$src.status" .mode)," \
		"$(status_get "$TMP/$src.status" .progress.totalTimeMs) ms)," \
		"qmigrate peak RSS ${rss[-1]} KiB, $dst fds ${fds[-1]}"
}

for ((i = 0; i < N; i++)); do
	migrate_once "$i" "$QMIGRATE"
done

# Memory flat: mean of the last k peaks within 20% of the first k.
k=$((N >= 20 ? 10 : N / 2))
[ "$k" -ge 1 ] || fail "SOAK_N=$N: need at least 2 migrations"
first=0 last=0
for ((j = 0; j < k; j++)); do
	first=$((first + rss[j]))
	last=$((last + rss[N - k + j]))
done
[ $((last * 100)) -le $((first * 120)) ] && [ $((last * 100)) -ge $((first * 80)) ] ||
	fail "qmigrate peak RSS not flat: last $k average $((last / k)) KiB, first $k $((first / k)) KiB"
min=${fds[0]} max=${fds[0]}
for f in "${fds[@]}"; do
	((f < min)) && min=$f
	((f > max)) && max=$f
done
[ $((max - min)) -le 2 ] || fail "receiving QEMUs' fd counts vary: ${fds[*]}"
echo "ok: $N migrations, memory intact each time; qmigrate peak RSS first $k average $((first / k)) KiB, last $k $((last / k)) KiB; QEMU fds $min..$max"

for ((i = N; i < N + VG_N; i++)); do
	migrate_once "$i" "$TMP/qmigrate-vg"
done
for f in "$TMP"/vg.*; do
	[ -s "$f" ] && { cat "$f" >&2; fail "valgrind reported errors ($f)"; }
done
echo "ok: $VG_N migrations with migrate and incoming under valgrind: no error, no leak"
