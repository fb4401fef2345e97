#!/usr/bin/env bash
# tests/skip-qemu.sh TEST: the log compiler of the shell tests in a build
# configured with --disable-qemu-tests, the switch for package build
# chroots, which have no QEMU, no root and no network (debian/rules uses
# it).  A test named in $qemu_tests (the Makefile's integration_tests:
# real QEMU, root, the network, or a heavy tool such as promtool) is
# reported as SKIP with the reason (77 is the harness's skip status); every
# other test runs as usual.  ./run.sh test and a plain configure never use
# this script: there every test runs.
set -eu
test=$1
for t in ${qemu_tests:?qemu_tests not set: run the test through make check}; do
	case $test in
	"$t" | */"$t")
		echo "SKIP: $t needs real QEMU, root, the network or a heavy tool (configured with --disable-qemu-tests)"
		exit 77
		;;
	esac
done
exec "${BASH:-bash}" "$test"
