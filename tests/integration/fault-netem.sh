#!/usr/bin/env bash
# A bad network between two hosts (tests/netns-lib.sh): 5% of the packets
# lost and 50 ms of delay each way.  A pre-copy migration of a lightly busy
# guest through the TLS proxy still completes, and the guest's memory
# arrives intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/netns-lib.sh"
setup_tmp
netns_setup
netem loss 5% delay 50ms

ns_start_pair 8 1
ns_incoming
ns_migrate
expect_exit migrate 0 120
expect_exit incoming 0 30
assert_moved
[ "$(status_get "$TMP/src.status" .mode)" = PreCopy ] ||
	fail "mode $(status_get "$TMP/src.status" .mode), expected PreCopy"
echo "ok: 5% loss and 50 ms delay: migrated in $(status_get "$TMP/src.status" .progress.totalTimeMs) ms"
