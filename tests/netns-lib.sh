# tests/netns-lib.sh: two hosts on one machine, for the fault tests;
# sourced after tests/lib.sh and tests/migrate-lib.sh (needs root).
#
#	netns_setup
#	ns_start_pair 64 50           # src QEMU on host src, dst QEMU on host dst
#	ns_incoming --recover-timeout 10
#	ns_migrate --policy "$TMP/p.json"
#	link_down; ...; link_up
#	link_slow 50 5                # or: migrate over a delaying, lossy wire
#
# Two network namespaces (src and dst) joined by a veth pair, addresses
# 10.99.X.1 (src) and 10.99.X.2 (dst), X taken from the test's pid.  These
# addresses exist only inside the test's own namespaces.  The source QEMU
# and `qmigrate migrate` run in src, the target QEMU and `qmigrate incoming`
# in dst; migration goes over TLS between the two addresses (certificates
# from contrib/make-certs.sh in $TMP/pki).  QEMU's unix sockets live in
# $TMP, which both namespaces see.  The namespaces are deleted when the test
# exits, whatever its status.
#
# link_slow adds a second cable, a userspace wire (tests/slow-wire) between
# two tun devices with addresses 10.98.X.1 and 10.98.X.2, that delays and
# loses packets, and moves NS_SRC_ADDR/NS_DST_ADDR onto it.

need_cmd ip openssl

NS_SRC=
NS_DST=
NS_IF_SRC=
NS_IF_DST=
NS_SRC_ADDR=
NS_DST_ADDR=
NS_WIRE_SRC_ADDR=
NS_WIRE_DST_ADDR=
NS_PORT=4444

_netns_cleanup() {
	[ -n "$NS_SRC" ] && ip netns del "$NS_SRC" 2>/dev/null
	[ -n "$NS_DST" ] && ip netns del "$NS_DST" 2>/dev/null
	return 0
}

# netns_setup: creates the two hosts and the link between them, up.
netns_setup() {
	local x=$(($$ % 250 + 1)) err
	[ -n "$TMP" ] || fail "call setup_tmp before netns_setup"
	NS_SRC=qmf-src-$$
	NS_DST=qmf-dst-$$
	NS_IF_SRC=qmf$$s
	NS_IF_DST=qmf$$d
	NS_SRC_ADDR=10.99.$x.1
	NS_DST_ADDR=10.99.$x.2
	NS_WIRE_SRC_ADDR=10.98.$x.1
	NS_WIRE_DST_ADDR=10.98.$x.2
	lib_on_exit _netns_cleanup
	err=$(ip netns add "$NS_SRC" 2>&1) || {
		NS_SRC=
		fail "ip netns add is not permitted (the fault tests need root): $err"
	}
	ip netns add "$NS_DST" || { NS_DST=; fail "ip netns add $NS_DST failed"; }
	ip link add "$NS_IF_SRC" netns "$NS_SRC" type veth \
		peer name "$NS_IF_DST" netns "$NS_DST" ||
		fail "cannot create the veth pair"
	ip -n "$NS_SRC" addr add "$NS_SRC_ADDR/24" dev "$NS_IF_SRC"
	ip -n "$NS_DST" addr add "$NS_DST_ADDR/24" dev "$NS_IF_DST"
	ip -n "$NS_SRC" link set lo up
	ip -n "$NS_DST" link set lo up
	link_up
	bash "$top_srcdir/contrib/make-certs.sh" \
		--ip "$NS_DST_ADDR,$NS_SRC_ADDR,$NS_WIRE_DST_ADDR,$NS_WIRE_SRC_ADDR" \
		"$TMP/pki" src dst >/dev/null || fail "make-certs.sh failed"
}

_netns_link_is() {
	ip -n "$NS_SRC" link show dev "$NS_IF_SRC" | grep -q "state $1" &&
		ip -n "$NS_DST" link show dev "$NS_IF_DST" | grep -q "state $1"
}

# on_src COMMAND... / on_dst COMMAND...: runs COMMAND on that host.
on_src() {
	ip netns exec "$NS_SRC" "$@"
}

on_dst() {
	ip netns exec "$NS_DST" "$@"
}

# link_down / link_up: cuts the cable between the hosts (both veth ends),
# and plugs it back.
link_down() {
	ip -n "$NS_SRC" link set dev "$NS_IF_SRC" down
	ip -n "$NS_DST" link set dev "$NS_IF_DST" down
	wait_for 10 "the link to go down" _netns_link_is DOWN
}

link_up() {
	ip -n "$NS_SRC" link set dev "$NS_IF_SRC" up
	ip -n "$NS_DST" link set dev "$NS_IF_DST" up
	wait_for 10 "the link to come up" _netns_link_is UP
}

# link_loss PCT: the source's end of the link drops PCT% of the packets
# it sends and PCT% of those it receives, at random (nftables on the veth's
# netdev egress and ingress hooks: kernels without sch_netem have these).
# Both the source->target and target->source directions lose about PCT%.
# Both ends send one MTU-sized segment per packet (gso_max_segs 1), so a
# drop loses one segment, as on a real wire, not a 64 KiB TSO burst.
link_loss() {
	local err
	need_cmd nft
	ip -n "$NS_SRC" link set dev "$NS_IF_SRC" gso_max_segs 1
	ip -n "$NS_DST" link set dev "$NS_IF_DST" gso_max_segs 1
	err=$(ip netns exec "$NS_SRC" nft -f - 2>&1 <<-EOF
	table netdev qmloss {
		chain egress {
			type filter hook egress device "$NS_IF_SRC" priority 0; policy accept;
			numgen random mod 100 < $1 counter drop
		}
		chain ingress {
			type filter hook ingress device "$NS_IF_SRC" priority 0; policy accept;
			numgen random mod 100 < $1 counter drop
		}
	}
	EOF
	) || fail "nft: cannot drop $1% on $NS_IF_SRC: $err (the kernel needs nf_tables with netdev egress hooks, Linux >= 5.16)"
}

# link_loss_dropped: prints how many packets link_loss dropped, both ways.
link_loss_dropped() {
	ip netns exec "$NS_SRC" nft list table netdev qmloss |
		awk '/counter packets/ { for (i = 1; i < NF; i++)
			if ($i == "packets") n += $(i + 1) } END { print n + 0 }'
}

# link_slow DELAY-MS LOSS-PCT: from now on the hosts talk over a wire that
# delays every packet by DELAY-MS and loses LOSS-PCT% of them, each way
# (tests/slow-wire between a tun device on each host; background name
# "wire", whose .out ends with its counts once stopped).  The kernels this
# runs on have no sch_netem, which would otherwise delay.
link_slow() {
	local wire=$top_builddir/tests/slow-wire
	need_file "$wire" "tests/slow-wire"
	ip -n "$NS_SRC" tuntap add dev "${NS_IF_SRC}w" mode tun &&
		ip -n "$NS_DST" tuntap add dev "${NS_IF_DST}w" mode tun ||
		fail "cannot create the tun devices of the slow wire (/dev/net/tun)"
	ip -n "$NS_SRC" addr add "$NS_WIRE_SRC_ADDR" peer "$NS_WIRE_DST_ADDR" \
		dev "${NS_IF_SRC}w"
	ip -n "$NS_DST" addr add "$NS_WIRE_DST_ADDR" peer "$NS_WIRE_SRC_ADDR" \
		dev "${NS_IF_DST}w"
	ip -n "$NS_SRC" link set dev "${NS_IF_SRC}w" up
	ip -n "$NS_DST" link set dev "${NS_IF_DST}w" up
	bg_start wire "$wire" "$NS_SRC" "${NS_IF_SRC}w" "$NS_DST" "${NS_IF_DST}w" \
		"$1" "$2" "${SEED:-$$}"
	wait_for 10 "the slow wire" _lib_grep '^ready' "$TMP/wire.out"
	NS_SRC_ADDR=$NS_WIRE_SRC_ADDR
	NS_DST_ADDR=$NS_WIRE_DST_ADDR
}

# link_slow_stop: stops the slow wire and sets LINK_SLOW_COUNTS to its
# counts ("passed N dropped M overflowed K").  Not in a subshell: the
# wire is this shell's child.
link_slow_stop() {
	local rc=0
	_lib_pid_of wire
	kill -TERM "$_lib_pid" 2>/dev/null
	bg_wait wire 10 || rc=$?
	[ "$rc" -eq 0 ] || fail "the slow wire exited $rc: $(cat "$TMP/wire.err")"
	LINK_SLOW_COUNTS=$(tail -n 1 "$TMP/wire.out")
}

# link_rtt_ms: the round trip between the hosts now, in ms (a TCP connect
# to a closed port on the target answers with a reset after one round trip).
link_rtt_ms() {
	local t0 t1
	t0=${EPOCHREALTIME//[!0-9]/}
	on_src timeout 10 bash -c "exec 3<>/dev/tcp/$NS_DST_ADDR/9" 2>/dev/null
	t1=${EPOCHREALTIME//[!0-9]/}
	echo $(((t1 - t0) / 1000))
}


# ns_start_pair MIB RATE: like mig_start_pair, with the source QEMU on host
# src and the target QEMU on host dst (both with a NAME.mon monitor).
ns_start_pair() {
	local w
	for w in src dst; do
		printf '#!/bin/sh\nexec ip netns exec %s %s "$@"\n' \
			"$([ $w = src ] && echo "$NS_SRC" || echo "$NS_DST")" \
			"$QEMU" >"$TMP/qemu-on-$w"
		chmod +x "$TMP/qemu-on-$w"
	done
	QEMU=$TMP/qemu-on-src start_memguest "${PAIR}src" "$1" "$2" \
		-qmp "unix:$TMP/${PAIR}src.mon,server=on,wait=off"
	QEMU=$TMP/qemu-on-dst start_memguest_incoming "${PAIR}dst" "$1" \
		-qmp "unix:$TMP/${PAIR}dst.mon,server=on,wait=off"
}

# ns_incoming [ARGS...]: `qmigrate incoming` on host dst, TLS on
# $NS_DST_ADDR:$NS_PORT (background name PAIR"incoming").
ns_incoming() {
	bg_start "${PAIR}incoming" ip netns exec "$NS_DST" "$QMIGRATE" incoming \
		--qmp "$TMP/${PAIR}dst.qmp" --listen "tls:$NS_DST_ADDR:$NS_PORT" \
		--tls-dir "$TMP/pki/dst" --status-file "$TMP/${PAIR}dst.status" "$@"
	wait_for 30 "${PAIR}incoming listening" \
		_lib_grep "listening for the source" "$TMP/${PAIR}incoming.err"
}

# ns_migrate [ARGS...]: `qmigrate migrate` on host src to the target's TLS
# address (background name PAIR"migrate", status $TMP/PAIR"src.status").
# NS_MIGRATE_NAME overrides the background name (a restarted source).
ns_migrate() {
	bg_start "${NS_MIGRATE_NAME:-${PAIR}migrate}" ip netns exec "$NS_SRC" \
		"$QMIGRATE" migrate --qmp "$TMP/${PAIR}src.qmp" \
		--to "tls:$NS_DST_ADDR:$NS_PORT" --tls-dir "$TMP/pki/src" \
		--tls-name dst --status-file "$TMP/${PAIR}src.status" --events "$@"
}

# ns_precopy_migrates TIMEOUT: a lightly busy guest (8 MiB, 1 MB/s) on
# host src migrates to host dst over TLS within TIMEOUT s, in pre-copy, and
# runs there with its memory intact.  Auto-converge is allowed: on a lossy
# link of a starved machine the stream fell to 0.8 MB/s, below the guest's
# 1 MB/s, and a policy that allows nothing rightly aborts (exit 5); the
# throttle keeps such a migration in pre-copy and lets it finish.
ns_precopy_migrates() {
	mig_policy lossy '{ "allowAutoConverge": true }'
	ns_start_pair 8 1
	ns_incoming --policy "$TMP/lossy.json"
	ns_migrate --policy "$TMP/lossy.json"
	expect_exit migrate 0 "$1"
	expect_exit incoming 0 30
	assert_moved
	[ "$(status_get "$TMP/src.status" .mode)" = PreCopy ] ||
		fail "mode $(status_get "$TMP/src.status" .mode), expected PreCopy"
}
