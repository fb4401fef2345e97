#!/usr/bin/env bash
# tests/qemu-roots.sh: the newer QEMUs the test suite runs beside the
# host's (Debian 12's 7.2), each in its own Debian 13 root made with
# mmdebstrap and entered through chroot by tests/qemu-wrap.sh.
#
#	tests/qemu-roots.sh [VERSION...]	make the missing roots
#	tests/qemu-roots.sh --remove VERSION...	remove roots
#
# VERSION is a QEMU major.minor this script knows where to find:
#	7.2	the host's qemu-system-x86_64 (Debian 12): nothing to make
#	10.0	Debian 13 (trixie)
#	11.1	Debian 13's backports (trixie-backports)
# Without VERSION: those of QEMU_VERSIONS (default "7.2 10.0 11.1").
#
# Roots live in QEMU_ROOTS (default /var/cache/qmigrate-qemu), one
# directory per VERSION.  A root is complete once its .qmigrate-root file
# names the QEMU it holds, written last after that QEMU ran: a complete
# root is kept (about 40 s and 150 MB of downloads saved per root), an
# incomplete one (an interrupted run) is removed and made again.  The
# mirror is QEMU_ROOTS_MIRROR, else the one this host's apt uses for Debian.
# Needs root (mmdebstrap, chroot).
set -eu -o pipefail

QEMU_ROOTS=${QEMU_ROOTS:-/var/cache/qmigrate-qemu}

die() {
	echo "qemu-roots.sh: $*" >&2
	exit 1
}

# suite_of VERSION: the Debian suites that carry it, or nothing for the
# host's QEMU.
suite_of() {
	case $1 in
	7.2) suite= ;;
	10.0) suite=trixie ;;
	11.1) suite=trixie-backports ;;
	*) die "QEMU $1: no Debian suite known for it (known: 7.2 10.0 11.1)" ;;
	esac
}

# The Debian mirror of this host's apt (its sources name it once).
mirror() {
	local m=${QEMU_ROOTS_MIRROR:-}
	if [ -z "$m" ]; then
		m=$(apt-get indextargets --format '$(SITE) $(RELEASE)' 2>/dev/null |
			awk -v s="$(. /etc/os-release && echo "$VERSION_CODENAME")" \
				'$2 == s { print $1; exit }')
	fi
	[ -n "$m" ] || die "no Debian mirror: set QEMU_ROOTS_MIRROR (e.g. http://deb.debian.org/debian)"
	echo "${m%/}"
}

# remove_root DIR: unmounts whatever is mounted under DIR (a bind-mounted
# /tmp would otherwise take the host's /tmp with it), then removes DIR
# without crossing into another file system.
remove_root() {
	local dir=$1
	[ -e "$dir" ] || return 0
	if findmnt -rn -o TARGET | grep -q "^$dir\(/\|$\)"; then
		umount -R "$dir" 2>/dev/null ||
			findmnt -rn -o TARGET | grep "^$dir/" | sort -r |
			xargs -r -n1 umount -l
	fi
	findmnt -rn -o TARGET | grep -q "^$dir/" &&
		die "$dir: a mount under it remains, not removing it"
	rm -rf --one-file-system "$dir"
}

# make_root VERSION: the root of VERSION, unless it is complete already.
make_root() {
	local v=$1 dir=$QEMU_ROOTS/$1 new have m t0 sources
	suite_of "$v"
	[ -n "$suite" ] || return 0
	if [ -f "$dir/.qmigrate-root" ]; then
		echo "qemu-roots.sh: QEMU $v: $(cat "$dir/.qmigrate-root") in $dir (kept)"
		return 0
	fi
	[ "$(id -u)" -eq 0 ] || die "making the QEMU $v root needs root (mmdebstrap, chroot)"
	command -v mmdebstrap >/dev/null || die "mmdebstrap not found (apt-get install mmdebstrap)"
	m=$(mirror)
	remove_root "$dir"
	new=$dir.new
	remove_root "$new"
	mkdir -p "$QEMU_ROOTS"
	sources="deb $m trixie main"
	local aptopt=()
	if [ "$suite" = trixie-backports ]; then
		sources="$sources"$'\n'"deb $m trixie-backports main"
		aptopt=(--aptopt='APT::Default-Release "trixie-backports"')
	fi
	echo "qemu-roots.sh: making the QEMU $v root ($suite) in $dir"
	t0=$SECONDS
	mmdebstrap --quiet --variant=apt "${aptopt[@]}" \
		--include=qemu-system-x86,qemu-utils \
		trixie "$new" "$sources" >"$QEMU_ROOTS/$v.log" 2>&1 || {
		tail -n 20 "$QEMU_ROOTS/$v.log" >&2
		remove_root "$new"
		die "mmdebstrap of the QEMU $v root failed (log: $QEMU_ROOTS/$v.log)"
	}
	have=$(chroot "$new" qemu-system-x86_64 --version | head -n 1)
	case $have in
	"QEMU emulator version $v".*) ;;
	*)
		remove_root "$new"
		die "the $suite root holds \"$have\", not QEMU $v"
		;;
	esac
	echo "$have" >"$new/.qmigrate-root"
	mv "$new" "$dir"
	echo "qemu-roots.sh: QEMU $v: $have in $dir ($((SECONDS - t0)) s)"
}

if [ "${1:-}" = --remove ]; then
	shift
	for v in "$@"; do
		suite_of "$v"
		[ -z "$suite" ] || remove_root "$QEMU_ROOTS/$v"
	done
	exit 0
fi
[ $# -gt 0 ] || set -- ${QEMU_VERSIONS:-7.2 10.0 11.1}
for v in "$@"; do
	make_root "$v"
done
