#!/usr/bin/env bash
# tests/lib.sh's KVM probe and its cache, against a stand-in QEMU whose
# memory guest reads its pages after a set delay: a pass well within the
# bound is the boot's answer (one probe for every test after it); a pass
# near the bound is not: the accelerator line says so, the tests within
# KVM_PROBE_NEAR_KEEP take it, and a test after that probes again (a build's
# guests once all ran under a KVM that had passed just under 8 s); a guest
# not through within the bound is TCG, cached.  No QEMU needed.
. "$top_srcdir/tests/lib.sh"
setup_tmp

# The stand-in: writes the probe's "verified sweep" line to its -serial
# file after $FAKE_DELAY seconds, counting its runs in $TMP/runs.
cat >"$TMP/fake-qemu" <<'EOS'
#!/usr/bin/env bash
serial=
while [ $# -gt 0 ]; do
	[ "$1" = -serial ] && { serial=${2#file:}; shift; }
	shift
done
echo run >>"$FAKE_RUNS"
# The delay is the stimulus under test (a guest that takes this long to
# read its pages, against the probe's wall-clock bound), not a wait for
# anything: no event could stand for it.
sleep "$FAKE_DELAY"
echo "memguest: verified sweep=1 pages=4096 corrupt=0" >>"$serial"
# A QEMU that runs until the probe kills it (bounded if it never does).
exec sleep 30
EOS
chmod +x "$TMP/fake-qemu"
: >"$TMP/memguest.elf"
QEMU=$TMP/fake-qemu MEMGUEST_ELF=$TMP/memguest.elf
KVM_PROBE_SECONDS=4 KVM_PROBE_NEAR_SECONDS=2 KVM_PROBE_NEAR_KEEP=60
export FAKE_RUNS=$TMP/runs
cache=$TMP/build/tests/accel-probe	# probe()'s $top_builddir/tests/accel-probe
boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown)

runs() { [ -f "$FAKE_RUNS" ] && wc -l <"$FAKE_RUNS" || echo 0; }

# probe DELAY WANT-ACCEL WANT-RUNS: one test's pick; the stand-in's runs
# so far must be WANT-RUNS.
probe() {
	local top_builddir=$TMP/build
	export FAKE_DELAY=$1
	TEST_ACCEL= TEST_ACCEL_WHY=
	_lib_kvm_probe
	echo "delay $1 s: $TEST_ACCEL ($TEST_ACCEL_WHY); cache: $(cat "$cache")"
	[ "$TEST_ACCEL" = "$2" ] || fail "delay $1 s: $TEST_ACCEL, expected $2 ($TEST_ACCEL_WHY)"
	[ "$(runs)" -eq "$3" ] || fail "delay $1 s: $(runs) probes, expected $3"
}

# Well within the bound: KVM, for the boot.
probe 0 kvm 1
[[ $TEST_ACCEL_WHY = "/dev/kvm serves: "* ]] || fail "the fast pass says: $TEST_ACCEL_WHY"
[ "$(cut -d' ' -f1 "$cache")" = "$boot" ] || fail "the fast pass is not the boot's answer: $(cat "$cache")"
probe 0 kvm 1

# Near the bound (2.6 s of 4): KVM for this test, said; not the boot's.
rm -f "$cache"
probe 2.6 kvm 2
[[ $TEST_ACCEL_WHY = *"near the 4 s bound: not cached for the boot, probed again after 60 s"* ]] ||
	fail "the near pass does not say it is not cached: $TEST_ACCEL_WHY"
[[ $(cut -d' ' -f1 "$cache") =~ ^$boot@[0-9]+$ ]] || fail "the near pass was cached for the boot: $(cat "$cache")"
# A test within the keep takes it; once it has passed, the next probes.
probe 0 kvm 2
sed -i "s/^$boot@[0-9]*/$boot@$(($(date +%s) - 1))/" "$cache"
probe 0 kvm 3
[ "$(cut -d' ' -f1 "$cache")" = "$boot" ] || fail "the fast re-probe is not the boot's answer: $(cat "$cache")"

# Not through within the bound: TCG, for the boot.
rm -f "$cache"
probe 10 tcg 4
[[ $TEST_ACCEL_WHY = *"does not serve"* ]] || fail "the slow probe says: $TEST_ACCEL_WHY"
probe 0 tcg 4
echo "ok: the KVM probe caches a clear answer for the boot, and a pass near its bound for $KVM_PROBE_NEAR_KEEP s only, saying so"
