#!/usr/bin/env bash
# make-linux-guest.sh OUTDIR: builds the Linux test guest.
#
#   OUTDIR/vmlinuz            Debian's cloud kernel (the package that
#                             linux-image-cloud-amd64 depends on), downloaded
#                             with apt-get download and unpacked, never
#                             installed.  Kept when it already exists: it is
#                             the slow part.
#   OUTDIR/kernel-version     the kernel package it came from
#   OUTDIR/initramfs.cpio.gz  busybox-static, the host's /usr/sbin/qemu-ga
#                             with its shared libraries, and an /init that
#                             prints "qmguest: ready" on the console once the
#                             agent listens on /dev/ttyS1.
#
# The guest is kept quiet on purpose: /init ends in one long sleep, not a
# timer loop (QEMU 7.2 TCG crashes timer-heavy guests after migration; see
# the reference's trap section).
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "usage: $0 OUTDIR" >&2
	exit 2
fi
out=$1

die() {
	echo "make-linux-guest.sh: $*" >&2
	exit 1
}

for cmd in apt-cache apt-get dpkg ldd gzip; do
	command -v "$cmd" >/dev/null || die "$cmd not found"
done
busybox=/bin/busybox
qemu_ga=/usr/sbin/qemu-ga
[ -x "$busybox" ] || die "$busybox not found: install the Debian package busybox-static"
file_type=$(LC_ALL=C ldd "$busybox" 2>&1 || true)
case $file_type in
*"not a dynamic executable"* | *"statically linked"*) ;;
*) die "$busybox is not static: install the Debian package busybox-static" ;;
esac
[ -x "$qemu_ga" ] || die "$qemu_ga not found: install the Debian package qemu-guest-agent"
if command -v cpio >/dev/null; then
	cpio=(cpio --quiet -o -H newc -R 0:0)
else
	cpio=("$busybox" cpio -o -H newc -R 0:0)
fi

mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# apt-get download runs as the _apt user where it can.
chmod 755 "$work"

# The kernel: the exact package the cloud metapackage depends on.
if [ ! -s "$out/vmlinuz" ]; then
	pkg=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }')
	if [ -z "$pkg" ]; then
		apt-get update -q >/dev/null || die "apt-get update failed"
		pkg=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null |
			awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }')
	fi
	[ -n "$pkg" ] || die "cannot resolve the package linux-image-cloud-amd64 depends on"
	if ! (cd "$work" && apt-get download -q "$pkg" >/dev/null 2>&1); then
		apt-get update -q >/dev/null || die "apt-get update failed"
		(cd "$work" && apt-get download -q "$pkg") ||
			die "apt-get download $pkg failed"
	fi
	dpkg -x "$work"/"$pkg"_*.deb "$work/kernel"
	set -- "$work"/kernel/boot/vmlinuz-*
	[ -f "$1" ] || die "$pkg has no /boot/vmlinuz-*"
	cp "$1" "$out/vmlinuz.tmp"
	mv "$out/vmlinuz.tmp" "$out/vmlinuz"
	echo "$pkg" >"$out/kernel-version"
	rm -rf "$work/kernel" "$work"/*.deb
fi

# The initramfs.
root=$work/root
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,run,root}
mkdir -p "$root"/var/{lib,log} "$root"/var/lib/qemu-ga
ln -s ../run "$root/var/run"
cp "$busybox" "$root/bin/busybox"
for applet in $("$busybox" --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done

# qemu-ga runs "/sbin/shutdown -h -P +0 ..." for guest-shutdown; busybox
# has no shutdown, and its poweroff would signal init (a plain sleep here).
for name in shutdown poweroff halt; do
	cat >"$root/sbin/$name" <<'EOF'
#!/bin/sh
exec /bin/busybox poweroff -f
EOF
	chmod 755 "$root/sbin/$name"
done
cat >"$root/sbin/reboot" <<'EOF'
#!/bin/sh
exec /bin/busybox reboot -f
EOF
chmod 755 "$root/sbin/reboot"

# Debian's qemu-ga, its libraries and the dynamic loader at their paths.
cp "$qemu_ga" "$root/usr/sbin/qemu-ga"
libs=$(ldd "$qemu_ga" | awk '
	$2 == "=>" && $3 ~ /^\// { print $3 }
	$1 ~ /^\// { print $1 }')
[ -n "$libs" ] || die "ldd $qemu_ga listed no libraries"
for lib in $libs; do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done

cat >"$root/etc/os-release" <<'EOF'
NAME="qmigrate test guest"
ID=qmguest
VERSION_ID=1
VERSION="1 (busybox initramfs)"
PRETTY_NAME="qmigrate test guest 1"
EOF
cat >"$root/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
EOF
cat >"$root/etc/group" <<'EOF'
root:x:0:
EOF
echo qmguest >"$root/etc/hostname"

cat >"$root/init" <<'EOF'
#!/bin/sh
# The test guest's init: mounts, hostname, lo, qemu-ga on ttyS1, then it
# waits for qemu-ga, the guest's one service, to exit, and idles.  No
# periodic timers once "qmguest: ready" is printed.
export PATH=/sbin:/usr/sbin:/bin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
hostname qmguest
ip link set lo up
/usr/sbin/qemu-ga -m isa-serial -p /dev/ttyS1 </dev/null >/dev/console 2>&1 &
ga=$!
# Ready only once the agent holds the port, so that a host that starts
# talking right after the ready line is not lost (at most 10 s, at boot).
i=0
while ! ls -l /proc/$ga/fd 2>/dev/null | grep -q ttyS1; do
	if [ ! -d /proc/$ga ] || [ $i -ge 1000 ]; then
		echo "qmguest: error qemu-ga did not open /dev/ttyS1"
		break
	fi
	usleep 10000	# poll /proc: nothing signals the open (10 s at most)
	i=$((i + 1))
done
echo "qmguest: ready"
# Blocked in wait4() until the agent ends: no timer.
wait "$ga"
echo "qmguest: qemu-ga exited with status $?"
# The guest stays up without its agent (a test kills it on purpose), idle
# in open() of a FIFO that nothing writes: again no timer.
mkfifo /run/init.idle
while :; do
	read -r _ </run/init.idle
done
EOF
chmod 755 "$root/init"

(cd "$root" && find . | LC_ALL=C sort | "${cpio[@]}") | gzip -9 >"$out/initramfs.cpio.gz.tmp"
mv "$out/initramfs.cpio.gz.tmp" "$out/initramfs.cpio.gz"
