#!/usr/bin/env bash
# The network between two hosts goes down during pre-copy (TLS migration
# between network namespaces, tests/netns-lib.sh).  Nothing moves any more,
# and nothing tells QEMU: its socket is the proxy's, which just stops
# draining.  qmigrate must call it a data-plane failure (exit 4) within the
# policy's progressTimeout (10 s here, the proxy's own idle timeout is 60 s),
# under both controllers, and the guest must go on running on the source
# with its memory intact.  When the link comes back the target learns that
# the stream ended and fails as well (data plane, exit 4).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/netns-lib.sh"
setup_tmp
netns_setup

# 10 MiB/s for 128 MiB of machine: pre-copy would last over 12 s.
for c in kubevirt adaptive; do
	mig_policy "$c" '{ "bandwidthPerMigration": "10Mi", "progressTimeout": 10,
		"convergence": "'$c'" }'
done

# sent_mb PAIR MB: the source of PAIR has sent MB megabytes.
sent_mb() {
	local n
	n=$(status_get "$TMP/${1}src.status" .progress.dataProcessed)
	[ "${n:-0}" != null ] && [ "${n:-0}" -gt $(($2 * 1000000)) ]
}

# Two migrations on the same link at once, one per controller.
PAIR=a- NS_PORT=4444
ns_start_pair 64 50
ns_incoming
ns_migrate --policy "$TMP/kubevirt.json"
PAIR=b- NS_PORT=4445
ns_start_pair 64 50
ns_incoming
ns_migrate --policy "$TMP/adaptive.json"
wait_for 60 "a- under way" sent_mb a- 10
wait_for 60 "b- under way" sent_mb b- 10

link_down
t0=$SECONDS
expect_exit a-migrate 4 30
expect_exit b-migrate 4 30
elapsed=$((SECONDS - t0))
# progressTimeout 10 s, a sample every 0.5 s, a few seconds of slack for a
# loaded machine.
[ "$elapsed" -le 16 ] || fail "the failure took $elapsed s, progressTimeout is 10 s"

for p in a- b-; do
	st=$TMP/${p}src.status
	[ "$(status_get "$st" .failurePlane)" = data ] ||
		fail "${p}: failurePlane $(status_get "$st" .failurePlane), expected data"
	# Whichever notices first: qmigrate (no byte moved for the progress
	# timeout) or QEMU (the proxy gave up on the dead peer and reset it).
	status_get "$st" .failureReason | grep -Eq 'stalled|stream failed' ||
		fail "${p}: failureReason: $(status_get "$st" .failureReason)"
	[ "$(status_get "$st" .abortRequested)" = false ] ||
		fail "${p}: a stalled stream is not an abort somebody asked for"
	PAIR=$p assert_stayed
done

# The cable is back: the target hears the stream end and fails too.
link_up
expect_exit a-incoming 4 60
expect_exit b-incoming 4 60
for p in a- b-; do
	[ "$(status_get "$TMP/${p}dst.status" .failurePlane)" = data ] ||
		fail "${p}: target failurePlane $(status_get "$TMP/${p}dst.status" .failurePlane)"
	PAIR=$p assert_stayed
done
echo "ok: link down in pre-copy: both controllers failed on the data plane after $elapsed s, the guests run on the source"
