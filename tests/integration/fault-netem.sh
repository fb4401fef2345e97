#!/usr/bin/env bash
# A lossy network between two hosts (tests/netns-lib.sh): the source's end
# of the link drops 5% of the packets it sends and 5% of those it receives,
# at random.  A pre-copy migration of a lightly busy guest through the TLS
# proxy still completes, and the guest's memory arrives intact.
#
# Loss comes from nftables (link_loss), not netem: the kernels this runs on
# (CI's included) have no sch_netem.  Loss with 50 ms delay is
# fault-delay.sh, over a userspace wire (no qdisc here holds packets back).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/netns-lib.sh"
setup_tmp
netns_setup
link_loss 5

ns_precopy_migrates 180
dropped=$(link_loss_dropped)
# 8 MiB cross the link: thousands of segments, so 5% is hundreds.
[ "$dropped" -ge 50 ] || fail "only $dropped packets dropped: the loss rule did not act"
echo "ok: 5% loss each way ($dropped packets dropped): migrated in $(status_get "$TMP/src.status" .progress.totalTimeMs) ms"
