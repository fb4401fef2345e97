#!/usr/bin/env bash
# Capabilities negotiated over tls: (issue 23).  The offer carries the
# source's QEMU and what its policy wants; the target answers with what
# both QEMUs can do, and both apply it before memory moves:
# 1. a busy guest finished by post-copy, both QEMUs with the VM's UUID:
#    while it migrates, QEMU's own query-migrate-capabilities shows
#    postcopy-preempt on both sides (its extra channel through the proxy:
#    one connection more), validate-uuid on the source, postcopy-blocktime
#    on the target (which then reports the vCPU's blocked time), and
#    multifd beside post-copy only where both QEMUs run it (11.1 here; on
#    7.2 and 10.0 it is dropped with a note); both status documents say
#    what was chosen and why (migrationConfiguration.capabilities); the
#    guest arrives intact;
# 2. a target QEMU with more RAM than the guest, one of another machine
#    type (saying that the target QEMU knows the guest's), and one with a
#    device (-device) the guest lacks, which would carry state: refused
#    in the control plane (exit 3) with the difference as failureReason,
#    nothing moved.
# The version matrix runs it on 10.0 and 11.1 (tests/qemu-matrix-lib.sh).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd openssl
setup_tmp

bash "$top_srcdir/contrib/make-certs.sh" "$TMP/pki" src dst >/dev/null
port=$((20000 + RANDOM % 20000))
uuid=7b0c4e2a-1d3f-4a5b-8c6d-9e0f1a2b3c4d

# neg_pair NAME SRC-MIB DST-MIB RATE [DST-QEMU-ARGS...]: a source/target
# pair, the target's qmigrate listening with TLS on the next port.
neg_pair() {
	local name=$1 smib=$2 dmib=$3 rate=$4
	shift 4
	start_memguest "$name-src" "$smib" "$rate" -uuid "$uuid" \
		-qmp "unix:$TMP/$name-src.mon,server=on,wait=off"
	start_memguest_incoming "$name-dst" "$dmib" "$rate" -uuid "$uuid" \
		-qmp "unix:$TMP/$name-dst.mon,server=on,wait=off" "$@"
	port=$((port + 1))
	bg_start "$name-in" "$QMIGRATE" incoming --qmp "$TMP/$name-dst.qmp" \
		--listen "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/dst" \
		--status-file "$TMP/$name-dst.status"
	wait_for 30 "$name target listening" grep -q "listening for the source" "$TMP/$name-in.err"
}

# neg_migrate NAME POLICY: qmigrate migrate of NAME-src to its target.
neg_migrate() {
	bg_start "$1-mig" "$QMIGRATE" migrate --qmp "$TMP/$1-src.qmp" \
		--to "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/src" --tls-name dst \
		--policy "$TMP/$2.json" --status-file "$TMP/$1-src.status"
}

# cap NAME CAPABILITY: true or false, as QEMU NAME says now.
cap() {
	mon "$1" query-migrate-capabilities |
		jq -r --arg c "$2" '.[] | select(.capability == $c) | .state'
}

# 1. post-copy with everything both QEMUs can do.
mig_policy pc '{ "bandwidthPerMigration": "20Mi", "allowPostCopy": true, "parallelMigrationThreads": 2 }'
neg_pair p 64 64 200
src_ver=$(mon p-src query-version | jq -r '.qemu | "\(.major).\(.minor)"')
dst_ver=$(mon p-dst query-version | jq -r '.qemu | "\(.major).\(.minor)"')
neg_migrate p pc
# (post-copy may start at once: its capabilities are as set then.)
wait_for 60 "the source QEMU migrating" eval \
	'case $(qemu_mig_status p-src) in active | postcopy-active) true ;; *) false ;; esac'
mfd=false
case "$src_ver $dst_ver" in
7.* | 10.0\ * | *\ 10.0) ;;
*) mfd=true ;;
esac
for c in postcopy-ram postcopy-preempt validate-uuid; do
	[ "$(cap p-src $c)" = true ] || fail "source QEMU $src_ver: $c is $(cap p-src $c) during the migration"
done
for c in postcopy-ram postcopy-preempt postcopy-blocktime; do
	[ "$(cap p-dst $c)" = true ] || fail "target QEMU $dst_ver: $c is $(cap p-dst $c) during the migration"
done
[ "$(cap p-src multifd)" = $mfd ] && [ "$(cap p-dst multifd)" = $mfd ] ||
	fail "multifd with post-copy on $src_ver -> $dst_ver: source $(cap p-src multifd), target $(cap p-dst multifd), expected $mfd"
expect_exit p-mig 0 120
expect_exit p-in 0 60
[ "$(status_get "$TMP/p-src.status" .mode)" = PostCopy ] || fail "not finished by post-copy"
for side in src dst; do
	st=$TMP/p-$side.status
	status_get "$st" '.migrationConfiguration.capabilities["postcopy-preempt"]' |
		grep -q '^on: post-copy is allowed and both QEMUs list it' ||
		fail "$side status: postcopy-preempt: $(status_get "$st" .migrationConfiguration.capabilities)"
	[ "$(status_get "$st" .migrationConfiguration.qemu.postCopyPreempt)" = true ] ||
		fail "$side status: the plan lacks postCopyPreempt"
	[ "$(status_get "$st" .migrationConfiguration.qemus.source.uuid)" = "$uuid" ] ||
		fail "$side status: the source QEMU's UUID: $(status_get "$st" .migrationConfiguration.qemus)"
	if [ $mfd = false ]; then
		status_get "$st" '.notes[]' | grep -q '^multifd dropped: the policy allows post-copy and QEMU' ||
			fail "$side status: no note of multifd dropped: $(status_get "$st" .notes)"
	fi
done
# The main stream, the multifd channels and the preempt channel.
want=2
[ $mfd = false ] || want=4
[ "$(grep -c 'conn [0-9]* from .*: forwarding' "$TMP/p-in.err")" -eq $want ] ||
	fail "expected $want connections through the proxy: $(grep 'forwarding' "$TMP/p-in.err")"
[ "$(mon p-dst query-migrate | jq '."postcopy-blocktime" // -1')" -ge 0 ] ||
	fail "the target reports no postcopy-blocktime: $(mon p-dst query-migrate)"
[ "$(run_state p-dst)" = running ] || fail "p-dst is $(run_state p-dst)"
assert_memory_intact "$TMP/p-dst.serial"

# 2. A target that cannot hold the guest: refused before memory moves.
# refused NAME WANT: the source exited 3 in the control plane with WANT in
# its failureReason; the guest runs on, nothing was sent.
refused() {
	expect_exit "$1-mig" 3 60
	[ "$(status_get "$TMP/$1-src.status" .failurePlane)" = control ] ||
		fail "$1: plane $(status_get "$TMP/$1-src.status" .failurePlane)"
	status_get "$TMP/$1-src.status" .failureReason | grep -qF "$2" ||
		fail "$1: failureReason: $(status_get "$TMP/$1-src.status" .failureReason)"
	[ "$(qemu_mig_status "$1-src")" = none ] || fail "$1: the source QEMU migrated: $(qemu_mig_status "$1-src")"
	[ "$(run_state "$1-src")" = running ] || fail "$1-src is $(run_state "$1-src")"
}
mig_policy plain '{}'
neg_pair r 16 32 10
neg_migrate r plain
refused r "target QEMU has 96 MiB of RAM, the guest 80 MiB"
other=q35
neg_pair m 16 16 10 -machine "$other"
neg_migrate m plain
mt=$(mon m-src qom-get '{"path":"/machine","property":"type"}' | jq -r 'sub("-machine$"; "")')
dt=$(mon m-dst qom-get '{"path":"/machine","property":"type"}' | jq -r 'sub("-machine$"; "")')
refused m "target QEMU runs machine type $dt, the guest $mt: start the target with -machine $mt (it knows it)"
neg_pair d 16 16 10 -device virtio-rng-pci
neg_migrate d plain
refused d "target QEMU has devices the guest lacks: virtio-rng-pci"
echo "ok: $src_ver -> $dst_ver: post-copy with postcopy-preempt, validate-uuid, postcopy-blocktime, multifd $mfd; RAM, machine type and device mismatches refused"
