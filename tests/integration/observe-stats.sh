#!/usr/bin/env bash
# observe-stats.sh: qmigrate stats joins QEMU's view and the guest
# agent's, then, with qemu-ga killed inside the guest (through its own
# guest-exec), keeps QEMU's part and marks the guest's unavailable.
. "$top_srcdir/tests/lib.sh"
need_cmd "$QEMU"
[ -x "$QMIGRATE" ] || fail "qmigrate not built: $QMIGRATE"
setup_tmp

# A null block device so block statistics have something to show.
start_linux_guest lg -drive if=none,id=disk0,driver=null-co

"$QMIGRATE" stats --qmp "$TMP/lg.qmp" --qga "$TMP/lg.qga" \
	>"$TMP/stats.json" || fail "stats failed"
s=$(tr -d '\n' <"$TMP/stats.json")
for want in \
	'"qemu": \{ *"source": "qmp", *"available": true' \
	'"status": \{ *"status": "running"' \
	'"cpus": \[ *\{ *"thread-id"' \
	'"memory": \{ *"base-memory": 268435456' \
	'"balloon": \{ *"available": false, *"reason": "query-balloon: [^"]+"' \
	'"blockstats": \[ *\{[^]]*"device": "disk0"' \
	'"migration": \{' \
	'"guest": \{ *"source": "guest-agent", *"available": true' \
	'"osinfo": \{[^}]*"id": "qmguest"' \
	'"hostname": \{ *"host-name": "qmguest" *\}' \
	'"interfaces": \[ *\{ *"name": "lo"' \
	'"filesystems": \['; do
	[[ $s =~ $want ]] || fail "stats: no /$want/ in: ${s:0:3000}"
done

# Kill the agent for real: qemu-ga runs the kill itself (guest-exec), and
# nothing respawns it in the test guest.
qga lg guest-exec '{"path": "/bin/sh", "arg": ["-c", "kill -9 -1"]}' \
	>/dev/null || fail "guest-exec failed"
agent_gone() {
	! "$QMIGRATE" guest --qga "$TMP/lg.qga" --timeout 1 ping \
		>/dev/null 2>&1
}
wait_for 30 "qemu-ga to be gone" agent_gone

start=$EPOCHREALTIME
"$QMIGRATE" stats --qmp "$TMP/lg.qmp" --qga "$TMP/lg.qga" --timeout 2 \
	>"$TMP/stats2.json" || fail "stats without the agent failed (exit $?)"
took=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%d", b - a }')
[ "$took" -le 6 ] || fail "stats took $took s with a dead agent (timeout 2)"
s=$(tr -d '\n' <"$TMP/stats2.json")
re='"qemu": \{ *"source": "qmp", *"available": true'
[[ $s =~ $re ]] ||
	fail "QEMU's part missing without the agent: ${s:0:500}"
[[ $s =~ \"status\":\ \{\ *\"status\":\ \"running\" ]] ||
	fail "QEMU's run state missing without the agent"
[[ $s =~ \"guest\":\ \{\ *\"source\":\ \"guest-agent\",\ *\"available\":\ false,\ *\"reason\":\ \"[^\"]*no\ answer ]] ||
	fail "guest part not marked unavailable: ${s: -400}"
echo "PASS: stats joins QEMU and agent, and survives a dead agent"
