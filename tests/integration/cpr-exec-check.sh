#!/usr/bin/env bash
# qmigrate check --update names the update modes a running guest can take
# (transfer: cpr-transfer to a second QEMU; exec: cpr-exec, the QEMU
# process execs the new binary) and why not, on QEMU 7.2, 10.0 and 11.1:
# 7.2 has neither, 10.0 has no cpr-exec (10.2 added it), 11.1 has both
# for a guest whose RAM is in a shared memfd with aux-ram-share.  A plain
# -m guest on 11.1 is refused for exec too, although QEMU 11.1 lists no
# blocker for it in mode cpr-exec (it would exec, and the new QEMU would
# fail to load the guest: reference/qemu-cpr-exec.md, trap 1); QEMU's
# migration mode is left normal after the probe.
. "$top_srcdir/tests/cpr-lib.sh"
matrix_want 10.0 11.1
setup_tmp

# mode_normal NAME: the check put QEMU NAME's migration mode back.
mode_normal() {
	qmp "$1" query-migrate-parameters | grep -q '"mode": "normal"' ||
		fail "check left $1's migration mode changed: $(qmp "$1" query-migrate-parameters | grep mode)"
}

# The host's 7.2: no mode at all.
QEMU_SRC_VERSION='' start_memguest old72 16 0
run_qmigrate 2 check --qmp "$TMP/old72.qmp" --update
expect_out "InPlaceUpdatableByExec: False"
expect_out "QEMUTooOld: QEMU 7.2"
expect_out "has no cpr-exec (QEMU 10.2 added it)"
expect_out "Update modes: none"

# 10.0, shared RAM: transfer only.
export QEMU_SRC_VERSION=10.0 QEMU_DST_VERSION=10.0
cpr_start_old shared10 16 0
run_qmigrate 0 check --qmp "$TMP/shared10.qmp" --update
expect_out "InPlaceUpdatable: True"
expect_out "InPlaceUpdatableByExec: False"
expect_out "QEMUTooOld: QEMU 10.0"
expect_out "Update modes: transfer"
mode_normal shared10

# 11.1, shared RAM: both, in text and in JSON.
export QEMU_SRC_VERSION=11.1 QEMU_DST_VERSION=11.1
cpr_start_old shared11 16 0
run_qmigrate 0 check --qmp "$TMP/shared11.qmp" --update
expect_out "InPlaceUpdatable: True"
expect_out "InPlaceUpdatableByExec: True"
expect_out "Update modes: transfer exec"
mode_normal shared11
run_qmigrate 0 check --qmp "$TMP/shared11.qmp" --update --json
jq -e '.inPlaceUpdatableByExec == true and .updateModes == ["transfer", "exec"]' "$TMP/out" >/dev/null ||
	fail "not both modes: $(cat "$TMP/out")"

# 11.1, plain -m: QEMU blocks cpr-transfer for its RAM, not cpr-exec; the
# check refuses both, naming the region in QEMU's words.
start_memguest plain11 16 0
run_qmigrate 2 check --qmp "$TMP/plain11.qmp" --update --json
jq -e '.inPlaceUpdatableByExec == false and .updateModes == []' "$TMP/out" >/dev/null ||
	fail "exec not refused: $(cat "$TMP/out")"
jq -e '.conditions[] | select(.type == "InPlaceUpdatableByExec") | .reasons[] |
	select(.reason == "RAMNotShared" and (.message | test("Memory region pc.ram .*QEMU does not block cpr-exec")))' \
	"$TMP/out" >/dev/null || fail "no RAMNotShared for exec: $(cat "$TMP/out")"
mode_normal plain11
for g in old72 shared10 shared11 plain11; do
	cpr_running "$g" || fail "guest $g does not run: $(qmp "$g" query-status)"
done
echo "ok: check --update names transfer and exec, and exec's reasons, on 7.2, 10.0 and 11.1"
