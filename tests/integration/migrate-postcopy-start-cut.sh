#!/usr/bin/env bash
# Post-copy over tls:, its main data connection cut the moment post-copy
# starts: after the source QEMU sent the device state, before the target
# QEMU got it.  A tests/qmp-relay in front of the source's monitor holds
# migrate-start-postcopy 1 s; meanwhile a second relay, on the tls: port,
# is armed to hold every byte of the main data connection (its second
# connection; the control connection and the preempt channel pass): the
# device state the source QEMU then sends stays in that relay, and the
# source QEMU waits for the target's word (11.1: postcopy-device).  Then
# the relay cuts that connection, its held bytes with it.
#
# 11.1's source QEMU fails the migration there and runs the guest again
# by itself (migration_detect_error: postcopy-device is not postcopy_pause's;
# migration_iteration_finish: vm_start).  The target QEMU's load fails,
# incoming stops it for good and exits 4; migrate asks it "completed?",
# hears "fenced" and exits 4: the guest runs on the source, every page
# intact, the target QEMU gone.  Before the fix migrate exited 6, "post-copy
# failed: ...": both QEMUs paused, recover by hand, while the guest ran on
# the source.
#
# 10.0 has no postcopy-device: its source says postcopy-active once the
# device state is written, pauses at the cut (postcopy-paused) and cannot
# go back; nothing here is for it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/qemu-matrix-lib.sh"
matrix_want 11.1
setup_tmp
mig_tls
RELAY=$top_builddir/tests/qmp-relay
need_file "$RELAY" "tests/qmp-relay"

# 10 MiB/s, a guest of 64 MiB dirtying 200 MB/s: the controller asks for
# post-copy.
mig_policy busy '{ "bandwidthPerMigration": "10Mi", "allowPostCopy": true }'

# _src_waits_target: the source QEMU sent the device state and waits for
# the target to run the guest.
_src_waits_target() {
	[ "$(qemu_mig_status "${PAIR}src")" = postcopy-device ]
}

v=11.1
export QEMU_SRC_VERSION=$v QEMU_DST_VERSION=$v
PAIR=v${v//./}-
mig_start_pair 64 200
bg_start "${PAIR}relay" "$RELAY" --hold '"migrate-start-postcopy"' \
	--hold-for 1 "$TMP/${PAIR}relay.sock" "$TMP/${PAIR}src.qmp"
wait_log "$TMP/${PAIR}relay.out" '^ready' 10
mig_tls_incoming "" "" --recover-timeout 20
wire=$((TLS_PORT + 500))
bg_start "${PAIR}wire" "$RELAY" --armed-by-usr2 --hold '' --hold-for 60 \
	--only-conn 2 "tcp:127.0.0.1:$wire" "tcp:127.0.0.1:$TLS_PORT"
wait_log "$TMP/${PAIR}wire.out" '^ready' 10
bg_start "${PAIR}migrate" "$QMIGRATE" migrate --qmp "$TMP/${PAIR}relay.sock" \
	--to "tls:127.0.0.1:$wire" --tls-dir "$TMP/pki/src" --tls-name dst \
	--status-file "$TMP/${PAIR}src.status" --events \
	--policy "$TMP/busy.json" --recover-timeout 20
wait_log "$TMP/${PAIR}relay.out" 'holding a command' 120
_lib_pid_of "${PAIR}wire"
wirepid=$_lib_pid
kill -USR2 "$wirepid"
wait_for 30 "the source QEMU in postcopy-device" _src_waits_target
grep -q '^conn 2: holding' "$TMP/${PAIR}wire.out" ||
	fail "$v: the main data connection is not held: $(cat "$TMP/${PAIR}wire.out")"
kill -USR1 "$wirepid"
wait_log "$TMP/${PAIR}wire.out" '^conn 2: cut on SIGUSR1' 10
expect_exit "${PAIR}migrate" 4 90
expect_exit "${PAIR}incoming" 4 60
expect_qemu_mig "${PAIR}src" "$v: after the cut" failed
st=$TMP/${PAIR}src.status
expect_failed "$st" 4 data "$v: source"
status_get "$st" .failureReason | grep -q 'stopped its QEMU for good' ||
	fail "$v: the source's reason does not say the target never ran it: $(status_get "$st" .failureReason)"
expect_failed "$TMP/${PAIR}dst.status" 4 data "$v: target"
d=$(mon "${PAIR}dst" query-status 2>/dev/null | jq -r .status || echo gone)
[ "$d" != running ] || fail "$v: the target QEMU runs the guest too"
assert_stayed
echo "ok: QEMU $v: cut in postcopy-device: the source QEMU runs the guest again, migrate 4, incoming 4 (target QEMU $d)"
