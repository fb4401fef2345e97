#!/usr/bin/env bash
# run.sh: the two entry points of README.md, for a fresh Debian 12 machine.
#   ./run.sh demo   install, build, and run the live demo
#   ./run.sh test   install, build, and run the whole test suite
# Run as root (it installs Debian packages with apt-get).
set -euo pipefail
top=$(cd "$(dirname "$0")" && pwd)
jobs=$(nproc 2>/dev/null || echo 2)

packages=(
	build-essential autoconf automake pkg-config
	libjson-c-dev libev-dev libcap-ng-dev libssl-dev libcmocka-dev libyaml-dev
	qemu-system-x86 qemu-utils qemu-guest-agent busybox-static gcc-multilib
	cpio gzip iproute2 openssl valgrind clang jq curl nftables time
	prometheus tmux stunnel4 python3 python3-jsonschema
	dpkg-dev debhelper lintian mmdebstrap
	podman runc catatonit systemd-container chromium
)

install_packages() {
	local missing=()
	for p in "${packages[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "run.sh: missing Debian packages: ${missing[*]} (run as root to install them)" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# build DIR [CONFIGURE-FLAGS...]: an out-of-tree build.
build() {
	local dir=$1; shift
	(cd "$top" && autoreconf -fi >/dev/null)
	mkdir -p "$dir"
	(cd "$dir" && "$top/configure" --enable-werror "$@" >/dev/null &&
		make -j"$jobs")
}

case "${1:-}" in
demo)
	install_packages
	build "$top/build"
	exec bash "$top/tests/demo.sh" "$top/build"
	;;
test)
	install_packages
	# The newer QEMUs of QEMU_VERSIONS (default 7.2 10.0 11.1), each in its
	# Debian 13 root under /var/cache/qmigrate-qemu (kept between runs).
	bash "$top/tests/qemu-roots.sh"
	# The whole suite, real-QEMU tests included, under ASan and UBSan.
	build "$top/build-asan" --enable-sanitizers
	(cd "$top/build-asan" && make -j"$jobs" check \
		${QEMU_VERSIONS:+QEMU_VERSIONS="$QEMU_VERSIONS"}) || {
		# The failed tests' own logs (their .trs says so), not every
		# log that mentions FAIL: CI shows only the output's tail.
		find "$top/build-asan" -name '*.trs' -path '*tests*' \
			-newer "$top/build-asan/config.status" \
			-exec grep -l '^:test-result: \(FAIL\|ERROR\)' {} + |
			while read -r f; do f=${f%.trs}.log; echo "=== $f"; tail -n 40 "$f"; done
		exit 1
	}
	# The unit tests once more under valgrind, on a plain build.
	build "$top/build-valgrind"
	(cd "$top/build-valgrind" && make -j"$jobs" check-valgrind)
	# The Debian package from a clean clone of HEAD: built in a chroot,
	# lintian, installed into a throwaway root, a migration with it.
	(cd "$top/build-valgrind" && make check-deb)
	;;
*)
	echo "usage: $0 demo|test" >&2
	exit 1
	;;
esac
