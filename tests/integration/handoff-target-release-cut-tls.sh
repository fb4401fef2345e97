#!/usr/bin/env bash
# Issue 37 (sim-real seed 3805): over tls: with a local disk, the target's
# monitor connection closes while its exports wait for the source's mirror
# to end (QEMU completed; the target releases the exports only once the
# source's NBD client is gone, trying again every 0.5 s).  Before the fix
# the release job went on between two tries with the connection the
# reconnect had freed (a heap use after free: ASan stops incoming), and a
# release ended by the close was never run again: no run state was asked,
# the source's "completed?" went unanswered (migrate 8 after 30 s) and
# incoming never ended.
# The fakes: an NBD client of the test's own (qemu-io, read-only) on the
# target's export keeps it in use for as long as the test says, as the
# source's mirror connection does until the source ends its mirror (a
# relay in front of the source's monitor would hold that instead, but the
# conformance checker's search does not end on a relayed source with a
# disk); tests/qmp-relay in front of the TARGET's monitor hangs up once,
# right after QEMU's first "still in use"; its reconnection is relayed
# normally.  The client leaves once the target's qmigrate has connected
# again.  Both QEMUs, both qmigrates, the disk and the guest are real.
# What a user must see: migrate and incoming exit 0, both documents
# Succeeded, the guest on the target with every page intact, no disk job
# left on the source, no export left on the target, the images identical.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/disk-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp
mig_tls

disk_pair 32 2 32M 32M
mig_policy disks '{ "blockMigration": "auto", "bandwidthPerMigration": "6Mi" }'
relay_before dst-relay dst --cut-after 'still in use'
hand_tls_incoming "$TMP/dst-relay.sock"
mig_tls_migrate migrate "$TMP/src.qmp" --policy "$TMP/disks.json"
wait_for 30 "the source's mirror job" mirroring
# The target's export socket, in its proxy's private directory (one run's
# CI saw none at the first look, right after the mirror job: looked for
# until it is there, and named if it never is).
nbd_sock_one() {
	local socks=("$TMP"/priv/qmigrate.*/nbd.sock)
	[ "${#socks[@]}" = 1 ] && [ -S "${socks[0]}" ] && nbd=${socks[0]}
}
nbd=
for _ in $(seq 300); do
	nbd_sock_one && break
	sleep 0.1	# polling, as wait_for does (30 s in all)
done
[ -n "$nbd" ] || fail "no single NBD socket of the target's within 30 s of the mirror job: $(ls -R "$TMP/priv" 2>&1 | tr '\n' ' ')"
mkfifo "$TMP/nbd-leave"
bg_start nbd-client bash -c '{ read -r _ <"$1"; echo quit; } |
	qemu-io -r -f raw "nbd+unix:///data?socket=$2"' nbd-client \
	"$TMP/nbd-leave" "$nbd"
wait_log "$TMP/dst-relay.out" 'cut after' 180
# The target's qmigrate connects again; then the client leaves.
wait_log "$TMP/dst-relay.out" 'conn 2: accepted' 60
timeout 10 bash -c 'echo >"$1"' leave "$TMP/nbd-leave" ||
	fail "the test's NBD client was gone before its time: $(cat "$TMP/nbd-client.err")"
exit_of migrate 180
m=$RC
exit_of incoming 60
i=$RC
echo "migrate exited $m ($(doc_says "$TMP/src.status")); incoming exited $i ($(doc_says "$TMP/dst.status"))"
[ "$m/$i" = 0/0 ] || fail "migrate exited $m, incoming $i: expected 0 on both"
expect_doc "$TMP/src.status" source Succeeded 0
expect_doc "$TMP/dst.status" target Succeeded 0
assert_on_target "target monitor cut while its exports wait"
assert_no_disk_jobs src
[ "$(mon dst query-block-exports | jq length)" = 0 ] ||
	fail "target still exports disks: $(mon dst query-block-exports)"
quit_guest src
quit_guest dst
qemu-img compare -q "$TMP/src.qcow2" "$TMP/dst.qcow2" || fail "source and target images differ"
echo "ok: the target's monitor cut while its exports waited: released after the reconnect, exits 0/0"
