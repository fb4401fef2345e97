#!/usr/bin/env bash
# tests/qemu-wrap.sh VERSION ARGS...: runs qemu-system-x86_64 ARGS of QEMU
# VERSION: the host's for 7.2, else the one in VERSION's root made by
# tests/qemu-roots.sh, through chroot.
#
# Paths stay valid inside the root: /tmp, /dev (with /dev/shm, and /dev/kvm:
# -accel kvm works in the root as on the host), /proc and /sys are bound
# in, and so are TMPDIR, top_srcdir and top_builddir (the test guests'
# files) and every directory of QEMU_WRAP_BIND (colon-separated).  The mounts live in a private mount namespace: they
# vanish with QEMU and never show on the host, so nothing has to unmount
# them and a removal of the root cannot reach the host's /tmp through them.
# Every step execs the next: the pid the caller started is QEMU's own (the
# tests signal it, -pidfile says the same).  The working directory is kept.
set -eu

die() {
	echo "qemu-wrap.sh: $*" >&2
	exit 1
}

[ $# -ge 1 ] || die "usage: qemu-wrap.sh VERSION [QEMU-ARGS...]"
v=$1
shift
case $v in
7.2) exec "${QEMU_HOST:-qemu-system-x86_64}" "$@" ;;
esac
root=${QEMU_ROOTS:-/var/cache/qmigrate-qemu}/$v
[ -f "$root/.qmigrate-root" ] ||
	die "QEMU $v: no complete root in $root (make it with tests/qemu-roots.sh $v, as root)"

if [ -z "${QEMU_WRAP_NS:-}" ]; then
	QEMU_WRAP_NS=1 exec unshare --mount --propagation private "$BASH" "$0" "$v" "$@"
fi

# bind DIR: DIR of the host at the same path inside the root, unless a
# directory bound already holds it.
bound=()
bind() {
	local d=$1 b
	[ -n "$d" ] && [ -d "$d" ] || return 0
	d=$(cd "$d" && pwd -P)
	for b in "${bound[@]}"; do
		case $d/ in "$b"/*) return 0 ;; esac
	done
	mkdir -p "$root$d"
	mount --rbind "$d" "$root$d"
	bound+=("$d")
}
for d in /dev /proc /sys /tmp "${TMPDIR:-}" "$PWD" "${top_srcdir:-}" \
	"${top_builddir:-}"; do
	bind "$d"
done
IFS=: read -r -a extra <<<"${QEMU_WRAP_BIND:-}"
for d in "${extra[@]}"; do
	bind "$d"
done
exec chroot "$root" /bin/sh -c 'cd "$1" 2>/dev/null || cd /; shift;
	exec /usr/bin/qemu-system-x86_64 "$@"' sh "$PWD" "$@"
