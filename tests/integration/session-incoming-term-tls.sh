#!/usr/bin/env bash
# SIGTERM to `qmigrate incoming` over tls: before pre-copy samples (issue
# 22, defect 2: the source asked the target's `watch` only in pre-copy, and
# the target, having cut the stream, stayed listening forever, ignoring
# later signals; the source exited 4 "copy of disk ... failed").  The
# README promises: the target tells the source, which cancels; exit 5 and
# abortStatus Succeeded on both sides.
# 1. While the source mirrors a local disk (1 MiB/s: the copy lasts).
# 2. Right after the offer was accepted, before any sample: the source's
#    `migrate` command is held 6 s by tests/qmp-relay on its way to QEMU.
# Each time: incoming exits 5 within 15 s of its SIGTERM, migrate exits 5,
# both say Failed, exitCode 5, abortStatus Succeeded; the guest runs on
# the source, intact, with no mirror job left.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/disk-lib.sh"
setup_tmp
mig_tls

# both_aborted HOW: what each side says after the target's SIGTERM.
both_aborted() {
	local f
	expect_exit "${PAIR}incoming" 5 15
	expect_exit "${PAIR}migrate" 5 60
	for f in "$TMP/${PAIR}src.status" "$TMP/${PAIR}dst.status"; do
		jq -e . "$f" >/dev/null || fail "$1: $f does not parse"
		expect_failed "$f" 5 - "$1: $f"
		expect_status "$f" .abortStatus Succeeded "$1: $f"
	done
	expect_qemu_mig "${PAIR}src" "$1" none cancelled failed
	[ "$(mon "${PAIR}src" query-block-jobs | jq length)" = 0 ] ||
		fail "$1: the source still runs block jobs: $(mon "${PAIR}src" query-block-jobs)"
	assert_stayed
	echo "ok: $1: both sides aborted: $(status_get "$TMP/${PAIR}src.status" .failureReason)"
}

# 1. While the source mirrors its disk.
disk_pair 32 2 32M 32M
mig_policy disks '{ "blockMigration": "auto", "bandwidthPerMigration": "1Mi" }'
mig_tls_incoming
mig_tls_migrate migrate "$TMP/src.qmp" --policy "$TMP/disks.json"
wait_for 30 "the source's mirror job" mirroring
kill -TERM "$(guest_pid incoming)"
both_aborted "during the mirror"

# 2. The offer accepted, the source's `migrate` not yet in QEMU.
PAIR=b-
mig_start_pair 32 2
mig_tls_incoming
mig_relay --hold '"execute":"migrate",' --hold-for 6
mig_tls_migrate b-migrate "$TMP/b-relay.sock"
wait_log "$TMP/b-relay.out" 'holding' 30
status_is "$TMP/b-dst.status" .phase Failed && fail "the target had failed before the SIGTERM"
kill -TERM "$(guest_pid b-incoming)"
both_aborted "before pre-copy"
echo "ok: a SIGTERM to incoming over tls: aborts on both sides"
