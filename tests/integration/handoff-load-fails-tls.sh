#!/usr/bin/env bash
# Issue 37: over tls:, the source QEMU fails the switchover without the
# target's word.  qmigrate leaves QEMU's return path off over tls: (the
# target's answer to "completed?" confirms the guest), but post-copy
# opens it all the same (migrate_fd_connect), and then the source QEMU
# completes only on the target's SHUT.  The two proxies stand between
# the QEMUs, and the
# target's QEMU runs the guest before it sends its "loaded" (SHUT) on the
# return path: a proxy that ends then takes that word with it, the source
# QEMU fails and resumes its copy while the target's runs.  So a failure
# without the target's own word in QEMU's error ("Sibling indicated
# error", which 10.0 and later send) is settled by asking the target over
# the control connection; before, migrate said 4 "it runs on the source
# again" on QEMU's failure alone.
# Here the failure is a real one: the source has a vCPU the target lacks
# (-smp 2 on the source only: the offer compares RAM, machine, CPU model
# and devices, not the vCPUs' count), so the target's load fails on the
# second vCPU's section, after the source sent everything.  Both QEMUs, both qmigrates, both
# proxies and the guest are real; nothing is faked.
# What a user must see: migrate exits 4 only on the target's word that its
# QEMU did not load the guest and cannot run it (7.2, whose target exits
# without a word: the source asks; 10.0 and 11.1: QEMU's own Sibling
# word, passed on 2026-12-06); the guest never runs on both
# QEMUs, runs on the source, every page intact there.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp
mig_tls
mig_policy pc '{ "allowPostCopy": true }'
st=$TMP/src.status

start_memguest src 32 1 -smp 2 \
	-qmp "unix:$TMP/src.mon,server=on,wait=off" \
	-qmp "unix:$TMP/src.watch,server=on,wait=off"
start_memguest_incoming dst 32 \
	-qmp "unix:$TMP/dst.mon,server=on,wait=off" \
	-qmp "unix:$TMP/dst.watch,server=on,wait=off"
mig_tls_incoming
hand_sample
mig_tls_migrate migrate "$TMP/src.qmp" --policy "$TMP/pc.json"
exit_of migrate 120
m=$RC
exit_of incoming 90
i=$RC
echo "migrate exited $m ($(doc_says "$st")); incoming exited $i ($(doc_says "$TMP/dst.status")); source QEMU $(run_state src), its migration $(qemu_mig_status src)"
assert_never_both "the target fails its load over tls:"
[ "$m" -eq 4 ] || fail "migrate exited $m, expected 4 (the guest runs on the source): $(doc_says "$st")"
expect_failed "$st" 4 data "the target fails its load"
if ! grep -q 'Sibling indicated error' "$st"; then
	# No word of the target's in QEMU's error: it must have been asked.
	grep -q 'asking the target' "$TMP/migrate.err" ||
		fail "migrate said 4 on QEMU's failure alone, without the target's word: $(doc_says "$st")"
	grep -q 'stopped its QEMU for good' "$st" ||
		fail "migrate's 4 does not rest on the target's answer: $(doc_says "$st")"
fi
[ "$i" -ne 0 ] || fail "incoming exited 0 while its QEMU failed the load"
[ "$SRC_STATE" = running ] || fail "the source QEMU is $SRC_STATE: the guest runs nowhere"
assert_memory_intact "$TMP/src.serial"
echo "ok: the target failed its load over tls: migrate exits 4 on the target's word, the guest runs on the source, every page intact"
