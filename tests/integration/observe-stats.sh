#!/usr/bin/env bash
# observe-stats.sh: qmigrate stats joins QEMU, the node and the guest
# agent per value, each value with its source: the Linux guest with a
# null drive and a NIC on a tap device.  Then, with qemu-ga killed inside
# the guest (through its own guest-exec), QEMU's and the node's values
# stay and the agent is marked unavailable within the timeout.
. "$top_srcdir/tests/lib.sh"
need_cmd "$QEMU" jq ip
[ -x "$QMIGRATE" ] || fail "qmigrate not built: $QMIGRATE"
setup_tmp

# A tap QEMU creates (and deletes when it exits); unique per test run.
TAP=qms$$
MAC=52:54:00:5a:70:01
start_linux_guest lg -drive if=none,id=disk0,driver=null-co \
	-device virtio-blk-pci,drive=disk0 \
	-netdev "tap,id=hn0,ifname=$TAP,script=no,downscript=no" \
	-device "rtl8139,netdev=hn0,id=nic0,mac=$MAC"
[ -e "/sys/class/net/$TAP" ] || fail "QEMU did not create tap $TAP"

"$QMIGRATE" stats --qmp "$TMP/lg.qmp" --qga "$TMP/lg.qga" \
	>"$TMP/stats.json" || fail "stats failed"
pid=$(guest_pid lg)
# check JQ-EXPRESSION: true of stats.json, else the test fails with it.
check() {
	jq -e "$1" "$TMP/stats.json" >/dev/null ||
		fail "stats: not ($1) in: $(head -c 3000 "$TMP/stats.json")"
}
check '.sources.qemu.available and .sources."guest-agent".available'
check ".sources.node.available and .sources.node.pid == $pid"
check '.runState == {"value": "running", "source": "qemu"}'
check '.cpu.vcpus == {"value": 1, "source": "qemu"}'
check '.cpu.usageSeconds.source == "node" and .cpu.usageSeconds.value > 0'
check '.cpu.vcpu[0].threadId.source == "qemu"'
check '.cpu.vcpu[0].seconds.source == "node" and .cpu.vcpu[0].seconds.value > 0'
check '.memory.domainBytes == {"value": 268435456, "source": "qemu"}'
check '.memory.balloonBytes.available == false and (.memory.balloonBytes.reason | length > 0)'
check '.memory.residentBytes.source == "node" and .memory.residentBytes.value > 1048576'
check '.memory.guestOnlineBytes == {"value": 268435456, "source": "guest-agent"}'
check '.block[] | select(.drive == "disk0") | .source == "qemu"'
check '.guest.os == {"value": {"id": "qmguest", "name": "qmigrate test guest",
	"prettyName": "qmigrate test guest 1", "version": "1 (busybox initramfs)",
	"versionId": "1", "kernelRelease": .guest.os.value.kernelRelease,
	"machine": "x86_64"}, "source": "guest-agent"}'
check '.guest.hostname == {"value": "qmguest", "source": "guest-agent"}'
check '.guest.filesystems.source == "guest-agent"'
# The NIC: QEMU's (name, MAC, tap) with the node's counters of its tap;
# the guest has no driver for it, so its agent reports only lo.
check ".interfaces[] | select(.mac.value == \"$MAC\") |
	.name.value == \"nic0\" and .tap.value == \"$TAP\" and
	.infoSource == [\"qemu\", \"node\"] and .rxBytes.source == \"node\""
check '.interfaces[] | select(.guestName.value == "lo") |
	.infoSource == ["guest-agent"] and
	(.ipAddresses.value | index("127.0.0.1/8") != null)'

# Kill the agent for real: qemu-ga runs the kill itself (guest-exec), and
# nothing respawns it in the test guest.  The kill may reach qemu-ga
# before its answer leaves (seen under load: no reply within 10 s): what
# counts is that it is gone, which agent_gone checks.
qga lg guest-exec '{"path": "/bin/sh", "arg": ["-c", "kill -9 -1"]}' \
	>/dev/null 2>&1 || echo "guest-exec: no answer (the agent died first)"
agent_gone() {
	! "$QMIGRATE" guest --qga "$TMP/lg.qga" --timeout 1 ping \
		>/dev/null 2>&1
}
wait_for 30 "qemu-ga to be gone" agent_gone

start=$EPOCHREALTIME
"$QMIGRATE" stats --qmp "$TMP/lg.qmp" --qga "$TMP/lg.qga" --timeout 2 \
	>"$TMP/stats.json" || fail "stats without the agent failed (exit $?)"
took=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%d", b - a }')
[ "$took" -le 6 ] || fail "stats took $took s with a dead agent (timeout 2)"
check '.sources.qemu.available and .sources.node.available'
check '.sources."guest-agent".available == false and
	(.sources."guest-agent".reason | test("guest-sync"))'
check '.runState.value == "running" and .memory.domainBytes.source == "qemu"'
check '.guest == {} and .memory.guestOnlineBytes == null'
echo "PASS: stats joins QEMU, the node and the agent per value, and survives a dead agent"
