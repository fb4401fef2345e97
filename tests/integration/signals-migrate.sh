#!/usr/bin/env bash
# Every default-fatal signal a user or a terminal can send to a running
# migrate (the audit's N9): none kills it.  SIGHUP (a dropped SSH session),
# SIGUSR1 and SIGUSR2 leave the migration going: it completes, exit 0, the
# document right, every page on the target; SIGUSR1 logs where it is.
# incoming takes SIGHUP the same way.
# SIGQUIT (Ctrl-\) stops it as SIGTERM does: exit 5, the guest running on
# the source.  On b475dc5 SIGHUP killed migrate (status 129) with the
# document left "Running" while QEMU migrated on.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

# About 8 s of pre-copy for a quiet guest, time for three signals.
mig_policy slow '{ "bandwidthPerMigration": "8Mi", "convergence": "kubevirt" }'
mig_start_pair 64 1
mig_incoming --policy "$TMP/slow.json"
mig_migrate --policy "$TMP/slow.json"
wait_for 30 "the migration to run" status_is "$TMP/src.status" .phase Running
pid=$(guest_pid migrate)
kill -HUP "$pid"
wait_log "$TMP/migrate.err" '^qmigrate migrate: SIGHUP .*the migration goes on' 10
kill -USR1 "$pid"
wait_log "$TMP/migrate.err" '^qmigrate migrate: SIGUSR1: phase Running, QEMU [a-z-]+, [0-9.]+% of [0-9]+ MiB' 10
kill -USR2 "$pid"
wait_log "$TMP/migrate.err" '^qmigrate migrate: SIGUSR2: ignored' 10
# The target's side: its session dropped too.
kill -HUP "$(guest_pid incoming)"
wait_log "$TMP/incoming.err" '^qmigrate incoming: SIGHUP .*the migration goes on' 10
expect_exit migrate 0 120
expect_status "$TMP/src.status" .phase Succeeded
expect_status "$TMP/src.status" .exitCode 0
expect_exit incoming 0 30
assert_memory_intact "$TMP/dst.serial"

# SIGQUIT: an abort, as SIGTERM's.
PAIR=b-
mig_policy stuck '{ "bandwidthPerMigration": "4Mi", "convergence": "kubevirt" }'
mig_start_pair 64 20
mig_incoming --policy "$TMP/stuck.json"
mig_migrate --policy "$TMP/stuck.json"
wait_for 30 "b's migration to run" status_is "$TMP/b-src.status" .phase Running
kill -QUIT "$(guest_pid b-migrate)"
expect_resumed 5 30
expect_status "$TMP/b-src.status" .abortStatus Succeeded
grep -q 'SIGQUIT' "$TMP/b-src.status" || fail "the document does not name SIGQUIT: $(status_get "$TMP/b-src.status" .failureReason)"
assert_memory_intact "$TMP/b-src.serial"
echo "ok: SIGHUP, SIGUSR1, SIGUSR2 left the migration going (exit 0); SIGQUIT aborted it (exit 5)"
