#!/usr/bin/env bash
# guest-linux-migrate.sh: the Linux guest survives a plain QEMU pre-copy
# migration (QMP commands only): its kernel does not oops on the target and
# qemu-ga answers there.  A guest oops here is a bug to investigate (see
# the TCG timer trap in the QEMU reference), never noise.
. "$top_srcdir/tests/lib.sh"
need_cmd "$QEMU"
[ -x "$QMIGRATE" ] || fail "qmigrate not built: $QMIGRATE"
setup_tmp

start_linux_guest src
start_linux_guest_incoming dst
qemu_migrate src dst 1073741824 120

host=$(qga dst guest-get-host-name) || fail "guest-get-host-name on the target failed"
[[ $host =~ \"host-name\":\ *\"qmguest\" ]] || fail "guest-get-host-name: $host"
os=$(qga dst guest-get-osinfo) || fail "guest-get-osinfo on the target failed"
[[ $os =~ \"id\":\ *\"qmguest\" ]] || fail "guest-get-osinfo: $os"
if grep -Eaq 'Oops|BUG:|general protection|Kernel panic|NX-protected' "$TMP/dst.serial"; then
	fail "guest kernel error on the target: $(grep -Ea 'Oops|BUG:|general protection|Kernel panic|NX-protected' "$TMP/dst.serial" | head -n 3)"
fi
echo "PASS: Linux guest migrates and its agent answers on the target"
