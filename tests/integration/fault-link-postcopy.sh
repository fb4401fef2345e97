#!/usr/bin/env bash
# The network between two hosts goes down during post-copy (TLS migration
# between network namespaces, tests/netns-lib.sh).  The proxy declares its
# data connection dead after PROXY_DEAD_PEER_TIMEOUT (10 s) and both QEMUs
# stop in postcopy-paused.
#  1. The link comes back: the target says it listens (migrate-recover),
#     the source resumes through a new TLS connection of the same session,
#     and the guest arrives intact.
#  2. The link does not come back in time: after --recover-timeout both
#     qmigrates exit 6 saying the guest is irrecoverable, and both QEMUs
#     are left alive and paused for the operator, who can still recover
#     the guest by hand once the link is back: it arrives intact.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/netns-lib.sh"
setup_tmp
netns_setup

# 10 MiB/s, a guest dirtying 200 MB/s: post-copy, and it lasts.
mig_policy pc '{ "bandwidthPerMigration": "10Mi", "allowPostCopy": true }'

in_postcopy() {
	local st=$TMP/${PAIR}src.status
	status_is "$st" .progress.qemuStatus postcopy-active &&
		[ "$(status_get "$st" .progress.postCopyRequests)" -gt 0 ]
}

both_paused() {
	[ "$(qemu_mig_status "${PAIR}src")" = postcopy-paused ] &&
		[ "$(qemu_mig_status "${PAIR}dst")" = postcopy-paused ]
}

# 1. Down, then back.
ns_start_pair 64 200
ns_incoming --recover-timeout 40
ns_migrate --policy "$TMP/pc.json" --recover-timeout 40
wait_for 60 "source in post-copy" in_postcopy
link_down
wait_for 30 "both QEMUs in postcopy-paused" both_paused
link_up
expect_exit migrate 0 60
expect_exit incoming 0 30
assert_moved
for f in src dst; do
	status_get "$TMP/$f.status" '.notes[]' | grep -q 'post-copy recovered' ||
		fail "$f notes do not say post-copy recovered: $(status_get "$TMP/$f.status" .notes)"
done
echo "ok: link down in post-copy, back: recovered ($(last_progress "$TMP/dst.serial"))"

# 2. Down for good.
PAIR=b- NS_PORT=4445
ns_start_pair 64 200
ns_incoming --recover-timeout 10
ns_migrate --policy "$TMP/pc.json" --recover-timeout 10
wait_for 60 "b-src in post-copy" in_postcopy
link_down
wait_for 30 "both QEMUs in postcopy-paused" both_paused
expect_exit b-migrate 6 30
expect_exit b-incoming 6 30
for f in src dst; do
	st=$TMP/b-$f.status
	[ "$(status_get "$st" .failurePlane)" = data ] || fail "b-$f failurePlane $(status_get "$st" .failurePlane)"
	status_get "$st" .failureReason | grep -q irrecoverable ||
		fail "b-$f failureReason: $(status_get "$st" .failureReason)"
	_lib_guest_up "b-$f"
	[ "$(qemu_mig_status "b-$f")" = postcopy-paused ] ||
		fail "b-$f migration is $(qemu_mig_status "b-$f")"
done
[ "$(run_state b-src)" != running ] || fail "b-src runs the guest again: its memory is on the target"
echo "ok: link down for good: exit 6, irrecoverable, both QEMUs left in postcopy-paused"

# The operator recovers by hand once the link is back (the README's way:
# migrate-recover on the target, migrate resume on the source), straight
# between the two QEMUs over tcp since the qmigrate proxies are gone; the
# guest arrives intact.
link_up
rport=$((NS_PORT + 10))
mon b-dst migrate-recover "{\"uri\": \"tcp:$NS_DST_ADDR:$rport\"}" >/dev/null
wait_for 10 "b-dst listening again" eval '[ -n "$(on_dst ss -tlnH "sport = :$rport")" ]'
mon b-src migrate "{\"uri\": \"tcp:$NS_DST_ADDR:$rport\", \"resume\": true}" >/dev/null
wait_for 120 "the recovered migration to complete" eval '[ "$(qemu_mig_status b-src)" = completed ]'
wait_for 10 "the guest running on b-dst" eval '[ "$(run_state b-dst)" = running ]'
assert_memory_intact "$TMP/b-dst.serial"
echo "ok: recovered by hand, the guest runs on the target"
