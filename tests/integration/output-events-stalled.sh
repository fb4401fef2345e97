#!/usr/bin/env bash
# --events into a reader that stops reading (the audit's N8): qmigrate's
# one loop must not wait on it.  migrate's stdout is a FIFO that this shell
# holds open and never reads; once its 64 KiB are full, the lines wait in
# qmigrate's bounded queue while the migration goes on (the document keeps
# changing), and a SIGTERM still aborts it within its bound: exit 5, the
# guest running on the source with every page intact, the document saying
# so.  (The guest dirties 20 MB/s: under KubeVirt's rules it cannot
# converge at 4 MiB/s within the test.)  On b475dc5
# the loop sat in write(2): the document stopped changing, SIGTERM did
# nothing until the reader went away.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

src=$TMP/src.status
# 4 MiB/s, a busy guest and KubeVirt's patience (150 s): pre-copy lasts
# as long as the test needs.
mig_policy slow '{ "bandwidthPerMigration": "4Mi", "convergence": "kubevirt" }'
mig_start_pair 64 20
mig_incoming --policy "$TMP/slow.json"
# migrate's stdout (bg_start's migrate.out) is the FIFO: this shell is its
# one reader, and it never reads.  64 KiB of filler make it full before
# migrate's first line: each of its writes would block.
mkfifo "$TMP/migrate.out"
exec {reader}<>"$TMP/migrate.out"
timeout 10 python3 -c 'import os, sys; os.write(int(sys.argv[1]), b"x" * 65536)' "$reader" ||
	fail "cannot fill the FIFO"
mig_migrate --policy "$TMP/slow.json"

wait_for 60 "the migration to run" status_is "$src" .phase Running
# The loop still runs: QEMU's figures keep coming into the document.
before=$(status_get "$src" .progress.dataProcessed)
more() {
	[ "$(status_get "$src" .progress.dataProcessed)" -ge $((before + 4 * 1024 * 1024)) ] 2>/dev/null
}
wait_for 30 "4 MiB more in the document while nobody reads stdout" more

t0=${EPOCHREALTIME//[!0-9]/}
kill -TERM "$(guest_pid migrate)"
expect_resumed 5 20
t1=${EPOCHREALTIME//[!0-9]/}
expect_status "$src" .abortStatus Succeeded
expect_status "$src" .exitCode 5
expect_status "$src" .phase Failed
# What stdout's reader never took is said where someone may still read.
grep -Eq '^qmigrate migrate: [0-9]+ lines of stdout never written: its reader did not read$' "$TMP/migrate.err" ||
	fail "stderr does not say what stdout lost: $(tail -n 2 "$TMP/migrate.err")"
assert_memory_intact "$TMP/src.serial"
exec {reader}<&-
echo "ok: SIGTERM ended migrate (5) in $(((t1 - t0) / 1000)) ms with stdout stalled ($(status_get "$src" '.outputLinesLost.stdout // 0') event lines lost)"
