#!/usr/bin/env bash
# A guest with a local qcow2 disk moves live through the built-in TLS proxy
# (`migrate --to tls:`, `incoming --listen tls:`): the disk's NBD
# connection goes over the proxy's NBD channel (the target QEMU's NBD
# server listens on a private unix socket the target proxy forwards to),
# 16 writes made while the mirror runs reach the target, memory follows,
# the images end identical, and both private directories are removed.
# --nbd has no place beside tls: and is refused before anything moves.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/disk-lib.sh"
setup_tmp
# Also the private directories of both qmigrates (their QEMU-side sockets).
mig_tls

disk_pair 64 2 64M 64M
# 6 MiB/s: the disk and the memory take ~20 s, so the 16 writes below end
# before the switchover even on a loaded machine; a write after it would
# hit QEMU 7.2's assertion on an inactivated disk and kill the source QEMU.
mig_policy disks '{ "blockMigration": "auto", "bandwidthPerMigration": "6Mi" }'

# --nbd beside tls: is a usage mistake, refused before the target is asked.
rc=0
"$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "tls:127.0.0.1:$TLS_PORT" \
	--tls-dir "$TMP/pki/src" --tls-name dst --policy "$TMP/disks.json" \
	--nbd "unix:$TMP/x.nbd" >"$TMP/nbd.out" 2>"$TMP/nbd.err" || rc=$?
[ "$rc" -eq 3 ] || fail "--nbd with tls: exit $rc, expected 3: $(cat "$TMP/nbd.err")"
grep -q -- "--nbd unix:$TMP/x.nbd: not used with tls:" "$TMP/nbd.err" ||
	fail "--nbd refusal unclear: $(cat "$TMP/nbd.err")"
[ "$(run_state src)" = running ] || fail "src not running after the refusal"
[ "$(mon src query-block-jobs | jq length)" = 0 ] || fail "a mirror started"

# The target is given no policy: its configuration comes with the offer.
mig_tls_incoming
mig_tls_migrate migrate "$TMP/src.qmp" --policy "$TMP/disks.json"
wait_for 30 "the source's mirror job" mirroring
# The mirror's NBD connection came through the proxy's NBD channel.
wait_for 30 "the NBD connection through the target proxy" \
	grep -q 'nbd conn 0 from .*: forwarding' "$TMP/incoming.err"
[ "$(mon dst query-block-exports | jq -r '.[0].id')" = data ] ||
	fail "target does not export the disk: $(mon dst query-block-exports)"
# While the mirror copies, the disk keeps being written through the guest's
# device: 16 blocks of 1 MiB at 32..47 MiB, each with its own pattern.
for i in $(seq 0 15); do
	hmp_write $((32 + i)) 1 "$(printf '0x%02x' $((0x60 + i)))"
done
# All written before the switchover: the checks below mean something.
[ "$(status_get "$TMP/src.status" .phase)" != Succeeded ] ||
	fail "the migration ended before the writer did: make the disk bigger"

expect_moved 180 60
[ "$(status_get "$TMP/src.status" '.progress.disks["qm-mirror-data"].ready')" = true ] ||
	fail "mirror not ready in the final status: $(status_get "$TMP/src.status" .progress.disks)"
assert_no_disk_jobs src
[ "$(mon dst query-block-exports | jq length)" = 0 ] || fail "target still exports disks"
# The migration stream went as connection 0 of the migration channel.
grep -q 'session [0-9a-f]* conn 0 from .*: forwarding' "$TMP/incoming.err" ||
	fail "no migration connection through the proxy"
[ -z "$(ls -A "$TMP/priv")" ] ||
	fail "private directories left behind: $(ls -R "$TMP/priv")"

# Every block written before and during the migration is on the target.
quit_guest src
quit_guest dst
qemu-img compare -q "$TMP/src.qcow2" "$TMP/dst.qcow2" ||
	fail "source and target images differ"
reads=(0x5a 0 16M)
for i in $(seq 0 15); do
	reads+=("$(printf '0x%02x' $((0x60 + i)))" $((32 + i))M 1M)
done
assert_image_holds "$TMP/dst.qcow2" "target image lacks the data" "${reads[@]}"
echo "ok: the local disk moved with the guest through the TLS proxy, images identical"
