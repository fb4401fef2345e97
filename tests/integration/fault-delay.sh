#!/usr/bin/env bash
# A long, lossy network between two hosts (tests/netns-lib.sh link_slow):
# every packet waits 50 ms each way (100 ms round trip) and 5% of the
# packets are lost each way, at random.  A pre-copy migration of a lightly
# busy guest through the TLS proxy still completes (the configuration
# handshake, the stream and the confirm phase all cross the slow wire),
# and the guest's memory arrives intact.
#
# The wire is tests/slow-wire (a userspace link between two tun devices),
# not netem: the kernels this runs on, CI's included, have no sch_netem.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/netns-lib.sh"
setup_tmp
netns_setup
link_slow 50 5

# The delay is really there: the fastest of three round trips (a lost SYN
# makes one slower, never faster) takes at least 2 x 50 ms.
rtt=
for i in 1 2 3; do
	r=$(link_rtt_ms)
	[ -z "$rtt" ] || [ "$r" -lt "$rtt" ] && rtt=$r
done
[ "$rtt" -ge 100 ] || fail "round trip $rtt ms over the slow wire, expected >= 100"

ns_precopy_migrates 300
link_slow_stop
counts=$LINK_SLOW_COUNTS
read -r _ _ _ dropped _ _ <<<"$counts"
# 8 MiB cross the wire: thousands of packets, so 5% is well over 50.
[ "$dropped" -ge 50 ] || fail "the wire dropped only $dropped packets ($counts)"
echo "ok: 50 ms each way (round trip $rtt ms), 5% loss each way ($counts):" \
	"migrated in $(status_get "$TMP/src.status" .progress.totalTimeMs) ms"
