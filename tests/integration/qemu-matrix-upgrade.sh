#!/usr/bin/env bash
# Upgrade migrations, as a cluster upgrade makes them: 7.2 -> 10.0 and
# 10.0 -> 11.1, both sides on the source's machine type (pc-i440fx-7.2,
# pc-i440fx-10.0): pre-copy, post-copy and multifd over tls:, and the
# capabilities the two QEMUs negotiate (migrate-negotiate.sh).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/qemu-matrix-lib.sh"
pairs=()
for p in 7.2:10.0 10.0:11.1; do
	if matrix_has "${p%:*}" && matrix_has "${p#*:}"; then
		pairs+=("$p")
	else
		echo "left out by QEMU_VERSIONS=\"${QEMU_VERSIONS:-}\": ${p%:*} -> ${p#*:}"
	fi
done
[ ${#pairs[@]} -gt 0 ] || exit 77
for p in "${pairs[@]}"; do
	matrix_want "${p%:*}" "${p#*:}"
	export QEMU_SRC_VERSION=${p%:*} QEMU_DST_VERSION=${p#*:}
	export QEMU_MACHINE=pc-i440fx-${p%:*}
	matrix_run "QEMU ${p%:*} -> ${p#*:}" migrate-precopy.sh migrate-tls.sh \
		migrate-negotiate.sh
done
