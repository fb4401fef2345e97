#!/usr/bin/env bash
# Issue 37, audit N1 over tcp: between two hosts (network namespaces, a
# userspace wire delaying each packet 100 ms: the stream's last bytes
# reach the target late, as a long link's do).  The source has a device the
# target lacks (-device i6300esb on the source only), so the target fails
# its load after the source wrote everything.  Before the fix migrate
# exited 0 "Succeeded" while the guest sat paused in postmigrate on the
# source (b475dc5).  No fake: two real QEMUs, two qmigrates, a real TCP
# connection through the wire.
# What a user must see: no 0 from migrate; the guest runs on the source
# again with every page intact (QEMU's return path carried the target's
# end, and the source QEMU resumed it); the exit is the table's: 4 where
# the target said its load failed (QEMU 10.0 and later), 8 where it gave
# no word (7.2's target exits without one, which over tcp: cannot be told
# from a connection lost after the target started the guest).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/netns-lib.sh"
setup_tmp
netns_setup
link_slow 100 0
st=$TMP/src.status

for w in src dst; do
	printf '#!/bin/sh\nexec ip netns exec %s %s "$@"\n' \
		"$([ $w = src ] && echo "$NS_SRC" || echo "$NS_DST")" "$QEMU" >"$TMP/qemu-on-$w"
	chmod +x "$TMP/qemu-on-$w"
done
QEMU=$TMP/qemu-on-src start_memguest src 32 1 -device i6300esb \
	-qmp "unix:$TMP/src.mon,server=on,wait=off"
QEMU=$TMP/qemu-on-dst start_memguest_incoming dst 32 \
	-qmp "unix:$TMP/dst.mon,server=on,wait=off"
mig_policy plain '{ "disableTLS": true }'
bg_start incoming ip netns exec "$NS_DST" "$QMIGRATE" incoming --qmp "$TMP/dst.qmp" \
	--listen "tcp:$NS_DST_ADDR:$NS_PORT" --status-file "$TMP/dst.status" \
	--policy "$TMP/plain.json"
wait_for 30 "dst prepared" status_is "$TMP/dst.status" .phase TargetReady
bg_start migrate ip netns exec "$NS_SRC" "$QMIGRATE" migrate --qmp "$TMP/src.qmp" \
	--to "tcp:$NS_DST_ADDR:$NS_PORT" --status-file "$st" --policy "$TMP/plain.json" --events
bg_wait migrate 120 || true
m=$(status_get "$st" .exitCode)
bg_wait incoming 60 || true
s=$(run_state src)
echo "migrate: $(jq -c '{phase, exitCode, failurePlane, failureReason}' "$st"); incoming: $(jq -c '{phase, exitCode, failureReason}' "$TMP/dst.status"); source QEMU $s"
[ "$m" != 0 ] || fail "migrate exited 0 while the target failed to load the guest (source QEMU $s)"
case $(status_get "$st" .failureReason) in
*"Sibling indicated error"*) want=4 ;;
*) want=8 ;;
esac
expect_failed "$st" "$want" "$([ "$want" = 4 ] && echo data || echo unknown)" "the target fails its load over tcp:"
[ "$s" = running ] || fail "the source QEMU is $s: the guest runs nowhere"
assert_memory_intact "$TMP/src.serial"
echo "ok: over tcp: the target failed its load of a late stream: migrate exits $want, the guest runs on the source, every page intact"
