#!/usr/bin/env bash
# qmigrate check --update says whether a running guest can be updated in
# place by cpr-transfer, and why not, in QEMU's words where QEMU gives
# them: QEMU 7.2 has no cpr-transfer; RAM not in a shared backend (QEMU
# names each region); post-copy asked for by the policy.  A guest that can
# be is True.  qmigrate update refuses those (exit 2, the same reasons),
# before anything moves: the guest runs on, intact; and channels that are
# not unix sockets (exit 1).
. "$top_srcdir/tests/cpr-lib.sh"
matrix_want 10.0
setup_tmp

# The host's 7.2.
QEMU_SRC_VERSION='' start_memguest old72 16 0
run_qmigrate 2 check --qmp "$TMP/old72.qmp" --update
expect_out "InPlaceUpdatable: False"
expect_out "QEMUTooOld: QEMU 7.2"
# update refuses it too, before anything moves; and a channel that is not
# a unix socket is a usage error (QEMU passes the RAM's fds over one only).
run_qmigrate 2 update --qmp "$TMP/old72.qmp" --new-qmp "$TMP/none.qmp" \
	--to "unix:$TMP/none.main" --cpr "unix:$TMP/none.cpr" --status-file "$TMP/old72.status"
status_get "$TMP/old72.status" .failureReason | grep -q "QEMUTooOld: QEMU 7.2" ||
	fail "failureReason: $(status_get "$TMP/old72.status" .failureReason)"
qmp old72 query-status | grep -q '"status": "running"' || fail "the 7.2 guest does not run"
run_qmigrate 1 update --qmp "$TMP/old72.qmp" --new-qmp "$TMP/none.qmp" \
	--to "tcp:127.0.0.1:4444" --cpr "unix:$TMP/none.cpr"
one_line_err "--to: expected unix:PATH"
run_qmigrate 1 update --qmp "$TMP/old72.qmp" --new-qmp "$TMP/none.qmp" \
	--to "unix:$TMP/none.main" --cpr "tcp:127.0.0.1:4445"
one_line_err "--cpr: expected unix:PATH"

# 10.0 with its RAM in plain -m: QEMU's own words, and its mode put back.
export QEMU_SRC_VERSION=10.0 QEMU_DST_VERSION=10.0
start_memguest plain 16 0
run_qmigrate 2 check --qmp "$TMP/plain.qmp" --update
expect_out "RAMNotShared: Memory region pc.ram is not compatible with CPR"
expect_out "LiveMigratable: True"
qmp plain query-migrate-parameters | grep -q '"mode": "normal"' ||
	fail "check left QEMU's migration mode changed: $(qmp plain query-migrate-parameters | grep mode)"

# Shared RAM and aux-ram-share: updatable; unless the policy wants post-copy.
cpr_start_old shared 16 0
run_qmigrate 0 check --qmp "$TMP/shared.qmp" --update
expect_out "InPlaceUpdatable: True"
mig_policy postcopy '{ "allowPostCopy": true }'
run_qmigrate 2 check --qmp "$TMP/shared.qmp" --update --policy "$TMP/postcopy.json" --json
jq -e '.inPlaceUpdatable == false' "$TMP/out" >/dev/null || fail "not refused: $(cat "$TMP/out")"
jq -e '.conditions[] | select(.type == "InPlaceUpdatable") | .reasons[] | select(.reason == "PostCopyRequested")' \
	"$TMP/out" >/dev/null || fail "no PostCopyRequested: $(cat "$TMP/out")"

# update refuses the plain one before anything moves (no new QEMU needed).
run_qmigrate 2 update --qmp "$TMP/plain.qmp" --new-qmp "$TMP/none.qmp" \
	--to "unix:$TMP/none.main" --cpr "unix:$TMP/none.cpr" --status-file "$TMP/plain.status"
expect_status "$TMP/plain.status" .phase Failed
expect_status "$TMP/plain.status" .exitCode 2
expect_status "$TMP/plain.status" .mode CprTransfer
status_get "$TMP/plain.status" .failureReason | grep -q "Memory region pc.ram is not compatible with CPR" ||
	fail "failureReason: $(status_get "$TMP/plain.status" .failureReason)"
cpr_running plain || fail "the guest does not run: $(qmp plain query-status)"
assert_memory_intact "$TMP/plain.serial"
echo "ok: check --update and update's refusals name QEMU's reasons"
