#!/usr/bin/env bash
# guest-linux.sh: the Linux test guest boots, and Debian's qemu-ga in it
# answers on the agent socket through qmigrate qmp --qga.
. "$top_srcdir/tests/lib.sh"
need_cmd "$QEMU"
[ -x "$QMIGRATE" ] || fail "qmigrate not built: $QMIGRATE"
setup_tmp

start_linux_guest lg

# guest-info: the agent's version is Debian's qemu-ga 7.2.
info=$(qga lg guest-info) || fail "guest-info failed"
[[ $info =~ \"version\":\ *\"7\.2(\.[0-9]+)?\" ]] ||
	fail "guest-info: no 7.2 version in: ${info:0:300}"
[[ $info =~ \"guest-get-osinfo\" ]] ||
	fail "guest-info: guest-get-osinfo not listed"

# guest-get-osinfo: the initramfs' /etc/os-release and the cloud kernel.
os=$(qga lg guest-get-osinfo) || fail "guest-get-osinfo failed"
for want in '"id": *"qmguest"' '"version-id": *"1"' \
	'"name": *"qmigrate test guest"' '"kernel-release": *"[^"]*-cloud-amd64"' \
	'"machine": *"x86_64"'; do
	[[ $os =~ $want ]] || fail "guest-get-osinfo: no $want in: $os"
done

host=$(qga lg guest-get-host-name) || fail "guest-get-host-name failed"
[[ $host =~ \"host-name\":\ *\"qmguest\" ]] ||
	fail "guest-get-host-name: $host"

# guest-shutdown powers the guest off (/sbin/shutdown in the initramfs);
# it has no reply, so only the exit of QEMU (-no-reboot) tells.
qga lg guest-shutdown >/dev/null 2>&1 || true
wait_guest_exit lg 60
echo "PASS: Linux guest boots and its qemu-ga answers"
