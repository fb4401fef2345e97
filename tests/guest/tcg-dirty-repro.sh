#!/usr/bin/env bash
# tests/guest/tcg-dirty-repro.sh BUILDDIR [VERSION [RUNS [MODE]]]: the
# TCG dirty-tracking defect of README's trap section, reproduced with bare
# QMP (qmigrate only as a QMP client, no engine): the memory guest without
# its TLB flush (tlbflush=0) migrated RUNS times (default 3) by QEMU
# VERSION (default the host's; tests/qemu-roots.sh makes the others), MODE
# precopy (default: stop the source mid-way, let the migration finish, cont
# the target) or postcopy (switch to post-copy mid-way).  Prints, per run,
# the CORRUPT pages the guest found on the target in a full sweep, and ends
# with "VERSION MODE: N of RUNS runs corrupt".
set -eu -o pipefail
export top_builddir=$(cd "${1:?usage: tcg-dirty-repro.sh BUILDDIR [VERSION [RUNS [MODE]]]}" && pwd)
export top_srcdir=$(cd "$(dirname "$0")/../.." && pwd)
export QEMU_VERSION=${2:-}
runs=${3:-3}
mode=${4:-precopy}
. "$top_srcdir/tests/lib.sh"
test_accel_tcg "TCG's dirty tracking is what it reproduces"

# One run in its own directory: the number of CORRUPT pages on stdout.
one_run() {
	(
		setup_tmp
		start_memguest src 64 50 -append "mib=64 rate=50 tlbflush=0"
		start_memguest_incoming dst 64 50 -append "mib=64 rate=50 tlbflush=0"
		caps='{"capabilities":[{"capability":"events","state":true}'
		[ "$mode" = precopy ] ||
			caps+=',{"capability":"postcopy-ram","state":true}'
		caps+=']}'
		qmp src migrate-set-capabilities "$caps" >/dev/null
		qmp dst migrate-set-capabilities "$caps" >/dev/null
		# 16 MiB/s: a few seconds of pre-copy while the guest writes.
		qmp src migrate-set-parameters '{"max-bandwidth":16777216}' >/dev/null
		qmp dst migrate-incoming '{"uri":"unix:'"$TMP"'/mig.sock"}' >/dev/null
		qmp src migrate '{"uri":"unix:'"$TMP"'/mig.sock"}' >/dev/null
		# Writes between dirty-bitmap syncs are what goes untracked.
		wait_for 120 "4 dirty-bitmap syncs" eval \
			'[ "$(qmp src query-migrate | jq ".ram[\"dirty-sync-count\"] // 0")" -ge 4 ]'
		if [ "$mode" = precopy ]; then
			qmp src stop >/dev/null
			qmp src migrate-set-parameters '{"max-bandwidth":1073741824}' >/dev/null
		else
			qmp src migrate-start-postcopy >/dev/null
		fi
		wait_for 120 "the target's migration completed" eval \
			'[ "$(qmp dst query-migrate | jq -r .status)" = completed ]'
		[ "$(qmp dst query-status | jq -r .status)" = running ] ||
			qmp dst cont >/dev/null
		# A full sweep on the target after the migration: the second
		# verified line from now (assert_memory_intact would stop at
		# the first CORRUPT).
		wait_for 120 "a full sweep on the target" eval \
			'[ "$(grep -ac "^memguest: verified" "$TMP/dst.serial")" -ge 2 ]'
		# Reported pages, and those over the guest's 16 lines a second.
		complete_lines "$TMP/dst.serial" | awk '
			/^memguest: CORRUPT page=/ { n++ }
			/^memguest: CORRUPT suppressed=/ { sub(/.*=/, ""); n += $0 }
			END { print n + 0 }'
	)
}

need_cmd jq
bad=0
for ((i = 1; i <= runs; i++)); do
	n=$(one_run)
	echo "${QEMU_VERSION:-host} $mode run $i: $n CORRUPT pages on the target"
	[ "$n" -eq 0 ] || bad=$((bad + 1))
done
echo "${QEMU_VERSION:-host} $mode: $bad of $runs runs corrupt"
