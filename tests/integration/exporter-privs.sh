#!/usr/bin/env bash
# exporter-privs.sh: a running exporter keeps no capability but
# CAP_SYS_PTRACE (bit 19, reading /proc of another user's QEMU) once its
# listening socket is bound: its CapEff, CapPrm and CapInh in
# /proc/PID/status, and its bounding set when it may drop from that
# (CAP_SETPCAP).  Started with CAP_SYS_PTRACE (root), it keeps it.  The VM it serves
# need not exist: the exporter listens and reports it down.
. "$top_srcdir/tests/lib.sh"
[ -x "$QMIGRATE" ] || fail "qmigrate not built: $QMIGRATE"
setup_tmp

bg_start exp "$QMIGRATE" exporter --listen 127.0.0.1:0 --interval 0.5 \
	--vm "gone=$TMP/gone.qmp"
pid=$!
wait_log "$TMP/exp.err" 'listening on 127\.0\.0\.1:[0-9]+$' 10

# A scrape answered: the loop runs, so the capabilities are dropped (the
# line above is logged while binding, before that).  The VM that is not
# there is down.
port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$TMP/exp.err")
curl -sS -f --max-time 4 -o "$TMP/m" "http://127.0.0.1:$port/metrics" ||
	fail "scrape failed"
grep -q '^qmigrate_vm_up{name="gone"} 0$' "$TMP/m" ||
	fail "the missing VM is not reported down: $(grep vm_up "$TMP/m")"

# cap NAME: the hexadecimal set NAME (CapEff, ...) of the exporter.
cap() {
	sed -n "s/^$1:[[:space:]]*\([0-9a-f]*\)$/\1/p" "/proc/$pid/status"
}
ptrace=$((1 << 19))
# What the exporter started with: this shell's effective set.
before=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)
for set in CapEff CapPrm CapInh CapBnd; do
	v=$(cap "$set")
	[ -n "$v" ] || fail "no $set in /proc/$pid/status"
	echo "exporter $set: $v"
	if [ "$set" = CapBnd ] && (( (0x$before & (1 << 8)) == 0 )); then
		continue	# no CAP_SETPCAP: the bounding set stays
	fi
	(( (0x$v & ~ptrace) == 0 )) ||
		fail "exporter $set $v holds more than CAP_SYS_PTRACE"
	if [ "$set" != CapInh ] && (( (0x$before & ptrace) != 0 )); then
		(( 0x$v == ptrace )) ||
			fail "exporter $set $v: CAP_SYS_PTRACE not kept"
	fi
done
echo "PASS: the serving exporter keeps only CAP_SYS_PTRACE"
