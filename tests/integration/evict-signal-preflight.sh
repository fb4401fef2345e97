#!/usr/bin/env bash
# evict-signal-preflight.sh: SIGTERM to `qmigrate evict` under
# evictionStrategy LiveMigrateIfPossible during its pre-flight (audit D13:
# evict died by the signal, exit 143, and left no status document at all).
# tests/qmp-relay stands between evict and the guest's monitor and holds
# the pre-flight's qom-list of /machine/unattached for 600 s: a real QEMU
# cannot be made to sit on one command while it goes on running the guest.
# evict must exit within 2 s, 5 (aborted, nothing touched), never by the
# signal, with a last document that says so; the guest runs where it was,
# neither migrated nor shut down.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp
relay=$top_builddir/tests/qmp-relay
need_file "$relay" "tests/qmp-relay"

cat >"$TMP/maybe.json" <<JSON
{ "name": "maybe", "evictionStrategy": "LiveMigrateIfPossible",
  "terminationGracePeriodSeconds": 3 }
JSON
start_memguest vm 16 10 -qmp "unix:$TMP/vm.mon,server=on,wait=off"
bg_start relay "$relay" --hold '"path":"/machine/unattached"' --hold-for 600 \
	"$TMP/relay.sock" "$TMP/vm.qmp"
wait_log "$TMP/relay.out" '^ready' 10

st=$TMP/evict.status
bg_start evict "$QMIGRATE" evict --qmp "$TMP/relay.sock" \
	--to "unix:$TMP/unused.sock" --policy "$TMP/maybe.json" --status-file "$st"
wait_log "$TMP/relay.out" 'holding a command' 30
t0=$(date +%s%3N)
kill -TERM "$(guest_pid evict)"
rc=0
bg_wait evict 30 || rc=$?
took=$(($(date +%s%3N) - t0))
[ "$rc" -lt 128 ] || fail "evict killed by signal $((rc - 128)) (exit $rc)"
[ "$rc" -eq 5 ] || fail "evict: exit $rc, expected 5: $(tail -n 3 "$TMP/evict.err")"
[ "$took" -le 2000 ] || fail "evict exited $took ms after SIGTERM"
jq -e . "$st" >/dev/null 2>&1 || fail "the status file is not a whole document: $(head -c 200 "$st")"
expect_status "$st" .phase Failed
expect_status "$st" .exitCode 5
expect_status "$st" .abortRequested true
expect_status "$st" .abortStatus Succeeded
expect_status "$st" .eviction.strategy LiveMigrateIfPossible
status_get "$st" .failureReason | grep -q "abort requested (SIGTERM) during the pre-flight: nothing was touched" ||
	fail "failureReason $(status_get "$st" .failureReason)"
[ "$(jq -s 'last | .exitCode' "$TMP/evict.out")" = 5 ] || fail "no last document on stdout"
[ "$(run_state vm)" = running ] || fail "the guest is $(run_state vm)"
[ "$(qemu_mig_status vm)" = none ] || fail "the guest's QEMU migrated"
echo "ok: evict: exit $rc $took ms after SIGTERM: $(status_get "$st" .failureReason)"
assert_memory_intact "$TMP/vm.serial"
