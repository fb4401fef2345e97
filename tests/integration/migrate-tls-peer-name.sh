#!/usr/bin/env bash
# migrate-tls-peer-name.sh: `incoming --listen tls: --tls-name NAME` pins
# its source.  A node that holds another valid certificate of the same
# cluster CA (here "other") cannot push a guest state into the waiting
# target: the handshake is refused, not a byte reaches the target QEMU
# (it never starts migrate-incoming), the intruder's own guest keeps
# running; then the source the target waits for (certificate "src")
# migrates the guest with every page intact.  (Before, the target took any
# certificate of its CA and ignored --tls-name.)
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp
mig_tls
make_pki other

PAIR=i-
mig_start_pair 32 10
mig_tls_incoming i-incoming i-dst --tls-name src

# The intruder: a guest of its own, a certificate of the same CA.
start_memguest intruder 32 10 -qmp "unix:$TMP/intruder.mon,server=on,wait=off"
rc=0
"$QMIGRATE" migrate --qmp "$TMP/intruder.qmp" --to "tls:127.0.0.1:$TLS_PORT" \
	--tls-dir "$TMP/pki/other" --tls-name dst --status-file "$TMP/intruder.status" \
	>/dev/null 2>"$TMP/intruder-migrate.err" || rc=$?
[ "$rc" -eq 3 ] || fail "another node's certificate: migrate exit $rc, expected 3: $(cat "$TMP/intruder-migrate.err")"
expect_status "$TMP/intruder.status" .failurePlane control "the intruder"
wait_for 10 "the target to log the refusal" \
	grep -q "refused: certificate verify failed: hostname mismatch" "$TMP/i-incoming.err"
grep -m1 "refused" "$TMP/i-incoming.err"
expect_qemu_mig i-dst "after the intruder" none
[ "$(run_state intruder)" = running ] || fail "the intruder's guest is $(run_state intruder)"
assert_memory_intact "$TMP/intruder.serial"
_lib_pid_of i-incoming
kill -0 "$_lib_pid" 2>/dev/null ||
	fail "incoming ended after refusing a stranger: $(tail -n 3 "$TMP/i-incoming.err")"

# The source it waits for.
mig_tls_migrate i-migrate "$TMP/i-src.qmp"
expect_moved 120 60
echo "ok: a certificate of the same CA naming another node is refused before QEMU sees a byte; the pinned source migrates, every page intact"
