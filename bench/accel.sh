#!/usr/bin/env bash
# bench/accel.sh [--write] [BUILD-DIR]: the test guests and one qmigrate
# migration under KVM and under TCG, side by side (issue 33), on the
# host's QEMU: how long the memory guest takes to be ready, how fast it
# writes when told 50 MB/s, and a pre-copy migration of it over unix:
# (total time, downtime, the controller's decisions, every page checked
# on the target); and whether the Linux guest is ready within
# ACCEL_LINUX_SECONDS (60).  An ACCEL_MIB (4) MiB guest: under an
# emulating KVM a 16 MiB one takes minutes per sweep.  KVM's row needs a
# /dev/kvm that opens; it is measured even where tests/lib.sh's probe finds
# that KVM does not serve (that is what the row shows).  With --write it replaces its section of
# bench/RESULTS.md.
set -eu -o pipefail
. "$(dirname "$0")/bench-lib.sh"
bench_init "$@"
. "$top_srcdir/tests/migrate-lib.sh"
linux_s=${ACCEL_LINUX_SECONDS:-60}
mib=${ACCEL_MIB:-4}
MEMGUEST_BOOT_TIMEOUT=300
MEMGUEST_VERIFY_TIMEOUT=600
{ : <>/dev/kvm; } 2>/dev/null || fail "/dev/kvm does not open here: nothing to compare"
start_load=$(cut -d' ' -f1-3 /proc/loadavg)

# rate_of NAME SECONDS: the guest's mean rate_mbs over its progress lines
# in the next SECONDS s.
rate_of() {
	local off
	off=$(stat -c %s "$TMP/$1.serial")
	sleep "$2"	# the window measured, by definition a time
	tail -c +"$((off + 1))" "$TMP/$1.serial" |
		sed -n 's/^memguest: progress .*rate_mbs=\([0-9]*\)$/\1/p' |
		awk '{ s += $1; n++ } END { if (n) printf "%.0f", s / n; else print "none" }'
}

rows=()
for accel in tcg kvm; do
	TEST_ACCEL=$accel TEST_ACCEL_WHY="bench/accel.sh" _lib_accel_said=
	# The memory guest: ready, then its write rate when told 50 MB/s.
	t0=$(now_ms)
	start_memguest "w$accel" "$mib" 50
	ready=$(( $(now_ms) - t0 ))
	rate=$(rate_of "w$accel" 10)
	kill_guest "w$accel"
	echo "$accel: memguest ready in $ready ms, writes $rate MB/s (told 50)"
	# A pre-copy migration of an idle guest (adaptive controller).
	PAIR=$accel-
	t0=$(now_ms)
	mig_start_pair "$mib" 0
	mig_ready=$(( $(now_ms) - t0 ))
	mig_incoming
	t0=$(now_ms)
	mig_migrate
	expect_exit "${PAIR}migrate" 0 600
	expect_exit "${PAIR}incoming" 0 120
	wall=$(( $(now_ms) - t0 ))
	st=$TMP/${PAIR}src.status
	total=$(status_get "$st" .progress.totalTimeMs)
	down=$(status_get "$st" '.progress.downtimeMs // "-"')
	dec=$(decisions "$st")
	echo "$accel: pair ready in $mig_ready ms; migrated in $wall ms (QEMU: total $total ms, downtime $down ms), decisions: ${dec:-none}"
	t0=$(now_ms)
	assert_moved >/dev/null
	verify=$(( $(now_ms) - t0 ))
	echo "$accel: two sweeps verified on the target in $verify ms"
	# The Linux guest, within linux_s.
	t0=$(now_ms)
	linux_guest_args "l$accel"
	_lib_qemu "l$accel" "${LINUX_ARGS[@]}"
	lready="not ready within $linux_s s"
	for ((i = 0; i < linux_s * 10; i++)); do
		if grep -aq '^qmguest: ready' "$TMP/l$accel.serial"; then
			lready="$(( ($(now_ms) - t0) / 100 ))"
			lready="${lready%?}.${lready: -1} s"
			break
		fi
		sleep 0.1	# polling its console, bounded by linux_s
	done
	kill_guest "l$accel"
	echo "$accel: Linux guest: $lready"
	rows+=("| $accel | $((ready / 1000)).$(( (ready % 1000) / 100 )) s | ${rate} MB/s | $((mig_ready / 1000)) s | $total ms | $down ms | ${dec:-none} | $((verify / 1000)) s | $lready |")
	printf '%s\n' "${rows[-1]}"
done

out=$TMP/section.md
{
	echo "## KVM against TCG (the test guests, one migration)"
	echo
	echo "bench/accel.sh, $(date -u '+%Y-%m-%d %H:%M') UTC, commit $(bench_rev)."
	echo
	echo "Machine: $(bench_machine) at the end (load average $start_load at the start);"
	echo "KVM: $(cd /sys/module 2>/dev/null && ls -d kvm* 2>/dev/null | paste -sd, -)$([ -d /sys/module/kvm_pvm ] && echo " (kvm_pvm: KVM without hardware virtualisation, nested)")."
	echo "A $mib MiB memory guest (tests/guest/memguest.elf), QEMU 7.2 on the host, -smp 1;"
	echo "\"writes\": its own rate_mbs (whole MB/s) over 10 s when told 50 MB/s; the"
	echo "migration: an idle guest, qmigrate migrate over unix: (adaptive controller),"
	echo "then two full sweeps of its pages on the target (\"verify\"); the Linux guest:"
	echo "/init's \"qmguest: ready\"."
	echo
	echo "| accel | memguest ready | writes | pair ready | migration total | downtime | decisions | verify on target | Linux guest ready |"
	echo "|------|------:|------:|------:|------:|------:|------|------:|------|"
	printf '%s\n' "${rows[@]}"
} >"$out"
cat "$out"
[ "$bench_write" -eq 0 ] || bench_section accel "$out"
