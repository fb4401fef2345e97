/*
 * qemu-model-table.c: QEMU's migration state machine as one table, read
 * from QEMU's sources at v7.2.0, v10.0.0 and v11.1.0 (qapi/migration.json,
 * migration/migration.c, savevm.c, postcopy-ram.c, cpr.c, runstate.c,
 * job.c, block/mirror.c) and held to recorded traces of real QEMU 7.2.22,
 * 10.0.13 and 11.1.3 (tests/traces/qmp, tests/sim/conform.c).  Each row
 * names the QEMU function that makes the transition.  The simulator takes
 * these rows and the conformance checker asks whether a trace is a path
 * through them: a row that is wrong here is wrong for both.
 */
#include <stddef.h>

#include "qemu-model.h"

#define V72	QM_VBIT(QM_V7_2)
#define V100	QM_VBIT(QM_V10_0)
#define V111	QM_VBIT(QM_V11_1)
#define VALL	QM_VALL
#define V10UP	QM_V10UP

/* migration_is_running(): the statuses a new migrate is refused in. */
#define ST_RUNNING (QM_SB(SETUP) | QM_SB(ACTIVE) | QM_SB(POSTCOPY_ACTIVE) | \
	QM_SB(POSTCOPY_PAUSED) | QM_SB(POSTCOPY_RECOVER_SETUP) | \
	QM_SB(POSTCOPY_RECOVER) | QM_SB(POSTCOPY_DEVICE) | QM_SB(COLO) | \
	QM_SB(PRE_SWITCHOVER) | QM_SB(DEVICE) | QM_SB(WAIT_UNPLUG) | \
	QM_SB(CANCELLING) | QM_SB(FAILING))
/* Where a migrate may start (migrate_init resets the state). */
#define ST_IDLE (QM_SB(NONE) | QM_SB(COMPLETED) | QM_SB(FAILED) | \
	QM_SB(CANCELLED))
/* The pre-copy statuses before and at the switchover. */
#define ST_PRECOPY (QM_SB(ACTIVE) | QM_SB(PRE_SWITCHOVER) | QM_SB(DEVICE))
/* vm_stop_force_state() from a stopped guest: runstate_set() only. */
#define RS_STOPPED (QM_RB(PAUSED) | QM_RB(PRELAUNCH) | QM_RB(SUSPENDED) | \
	QM_RB(IO_ERROR) | QM_RB(POSTMIGRATE))
/* qmp_cont's vm_start(): the run states runstate_transitions_def lets
   go to running. */
#define RS_CONT (QM_RB(PAUSED) | QM_RB(POSTMIGRATE) | QM_RB(PRELAUNCH) | \
	QM_RB(FINISH_MIGRATE) | QM_RB(IO_ERROR) | QM_RB(DEBUG) | \
	QM_RB(RESTORE_VM) | QM_RB(SAVE_VM) | QM_RB(WATCHDOG) | \
	QM_RB(COLO))
/* Every state of a live process: a kill or a quit can come in any. */
#define SIG	0

const struct qm_row qm_rows[] = {
	/* ---- the source: pre-copy ---- */
	{ QM_ROW_STATUS, ST_IDLE, QM_ST_SETUP, 0, QM_SAME, QM_T_CMD,
	  "migrate", VALL, 0, QM_IF_INCOMING | QM_IF_RESUME,
	  QM_IF_MIGRATING, QM_IF_START_POSTCOPY | QM_IF_SWITCHED |
	  QM_IF_TOTAL_TIME | QM_IF_WAS_RUNNING | QM_IF_CONTINUE,
	  QM_EMIT_MIGRATION, "qmp_migrate: migrate_prepare, migrate_init" },
	/* A target whose incoming migration completed migrates on as a
	   source: the source's MigrationState is apart from the incoming
	   one, and query-migrate shows it over the destination's once it
	   leaves NONE (qmp_query_migrate: fill_source_migration_info after
	   fill_destination_migration_info).  Seen: observe-prometheus. */
	{ QM_ROW_STATUS, QM_SB(COMPLETED), QM_ST_SETUP, 0, QM_SAME, QM_T_CMD,
	  "migrate", VALL, QM_IF_INCOMING | QM_IF_GUEST, QM_IF_RESUME,
	  QM_IF_MIGRATING, QM_IF_INCOMING | QM_IF_LISTENING | QM_IF_GUEST |
	  QM_IF_START_POSTCOPY | QM_IF_SWITCHED | QM_IF_TOTAL_TIME |
	  QM_IF_WAS_RUNNING | QM_IF_CONTINUE, QM_EMIT_MIGRATION,
	  "qmp_migrate: migrate_init, the incoming migration done" },
	{ QM_ROW_STATUS, QM_SB(SETUP), QM_ST_FAILED, 0, QM_SAME, QM_T_STREAM,
	  "connect-failed", V72 | V100, QM_IF_MIGRATING, 0, 0, 0,
	  QM_EMIT_MIGRATION, "migrate_fd_error (migration_channel_connect)" },
	{ QM_ROW_STATUS, QM_SB(SETUP), QM_ST_FAILING, 0, QM_SAME, QM_T_STREAM,
	  "connect-failed", V111, QM_IF_MIGRATING, 0, 0, 0,
	  QM_EMIT_MIGRATION, "migrate_fd_error: FAILING first (11.0)" },
	{ QM_ROW_STATUS, QM_SB(FAILING), QM_ST_FAILED, 0, QM_SAME, QM_T_QEMU,
	  "failed", V111, 0, 0, 0, 0, QM_EMIT_MIGRATION,
	  "migration_cleanup: FAILING -> FAILED (11.0)" },
	/* cpr-transfer stops the guest in setup, before it copies anything:
	   the RAM is shared, only device state moves. */
	{ QM_ROW_STATUS, QM_SB(SETUP), QM_SAME, QM_RB(RUNNING),
	  QM_RS_FINISH_MIGRATE, QM_T_QEMU, "cpr-stop", V10UP,
	  QM_IF_MIGRATING | QM_IF_CPR, QM_IF_SWITCHED,
	  QM_IF_SWITCHED | QM_IF_WAS_RUNNING, 0, QM_EMIT_STOP,
	  "migration_thread (cpr-transfer): migration_stop_vm before "
	  "setup ends" },
	{ QM_ROW_STATUS, QM_SB(SETUP), QM_SAME, RS_STOPPED,
	  QM_RS_FINISH_MIGRATE, QM_T_QEMU, "cpr-stop-stopped", V10UP,
	  QM_IF_MIGRATING | QM_IF_CPR, QM_IF_SWITCHED, QM_IF_SWITCHED,
	  QM_IF_WAS_RUNNING, 0,
	  "migration_thread (cpr-transfer): migration_stop_vm" },
	{ QM_ROW_STATUS, QM_SB(SETUP), QM_ST_ACTIVE, 0, QM_SAME, QM_T_QEMU,
	  "setup-done", VALL, QM_IF_MIGRATING, 0, 0, 0, QM_EMIT_MIGRATION,
	  "migration_thread: qemu_savevm_state_setup done" },
	{ QM_ROW_STATUS, QM_SB(ACTIVE), QM_SAME, QM_RB(RUNNING),
	  QM_RS_FINISH_MIGRATE, QM_T_QEMU, "switchover", VALL,
	  QM_IF_MIGRATING, QM_IF_SWITCHED, QM_IF_SWITCHED | QM_IF_WAS_RUNNING,
	  0, QM_EMIT_STOP,
	  "migration_completion: vm_stop_force_state(FINISH_MIGRATE)" },
	{ QM_ROW_STATUS, QM_SB(ACTIVE), QM_SAME, RS_STOPPED,
	  QM_RS_FINISH_MIGRATE, QM_T_QEMU, "switchover-stopped", VALL,
	  QM_IF_MIGRATING, QM_IF_SWITCHED, QM_IF_SWITCHED, QM_IF_WAS_RUNNING,
	  0, "migration_completion: vm_stop_force_state -> runstate_set" },
	{ QM_ROW_STATUS, QM_SB(ACTIVE), QM_ST_PRE_SWITCHOVER,
	  QM_RB(FINISH_MIGRATE), QM_SAME, QM_T_QEMU, "pause-before", VALL,
	  QM_IF_SWITCHED | QM_IF_PAUSE_BEFORE, 0, 0, 0, QM_EMIT_MIGRATION,
	  "migration_maybe_pause" },
	{ QM_ROW_STATUS, QM_SB(PRE_SWITCHOVER), QM_SAME, 0, QM_SAME, QM_T_CMD,
	  "migrate-continue", VALL, 0, 0, QM_IF_CONTINUE, 0, 0,
	  "qmp_migrate_continue: qemu_sem_post(pause_sem)" },
	{ QM_ROW_STATUS, QM_SB(PRE_SWITCHOVER), QM_ST_DEVICE, 0, QM_SAME,
	  QM_T_QEMU, "continued", VALL, QM_IF_CONTINUE, 0, 0, 0,
	  QM_EMIT_MIGRATION, "migration_maybe_pause: after pause_sem" },
	{ QM_ROW_STATUS, QM_SB(ACTIVE), QM_ST_DEVICE, QM_RB(FINISH_MIGRATE),
	  QM_SAME, QM_T_QEMU, "device", V10UP, QM_IF_SWITCHED,
	  QM_IF_PAUSE_BEFORE, 0, 0, QM_EMIT_MIGRATION,
	  "migration_maybe_pause: no pause-before-switchover" },
	/* 7.2 goes straight from active to completed without a pause. */
	{ QM_ROW_STATUS, QM_SB(ACTIVE) | QM_SB(DEVICE), QM_ST_COMPLETED,
	  QM_RB(FINISH_MIGRATE), QM_SAME, QM_T_QEMU, "stream-written", V72,
	  QM_IF_SWITCHED, QM_IF_RETURN_PATH | QM_IF_CANCEL_KICK, 0, 0, QM_EMIT_MIGRATION,
	  "migration_completion: migrate_set_state(COMPLETED)" },
	{ QM_ROW_STATUS, QM_SB(DEVICE), QM_ST_COMPLETED,
	  QM_RB(FINISH_MIGRATE), QM_SAME, QM_T_QEMU, "stream-written", V10UP,
	  QM_IF_SWITCHED, QM_IF_RETURN_PATH | QM_IF_CANCEL_KICK,
	  QM_IF_TOTAL_TIME, 0,
	  QM_EMIT_MIGRATION, "migration_completion: "
	  "migration_calculate_complete, then COMPLETED" },
	{ QM_ROW_STATUS, QM_SB(ACTIVE) | QM_SB(DEVICE), QM_ST_COMPLETED,
	  QM_RB(FINISH_MIGRATE), QM_SAME, QM_T_STREAM, "target-loaded", V72,
	  QM_IF_SWITCHED | QM_IF_RETURN_PATH, QM_IF_CANCEL_KICK, 0, 0, QM_EMIT_MIGRATION,
	  "migration_completion: await_return_path_close_on_source ok" },
	{ QM_ROW_STATUS, QM_SB(DEVICE), QM_ST_COMPLETED,
	  QM_RB(FINISH_MIGRATE), QM_SAME, QM_T_STREAM, "target-loaded", V10UP,
	  QM_IF_SWITCHED | QM_IF_RETURN_PATH, QM_IF_CANCEL_KICK,
	  QM_IF_TOTAL_TIME, 0,
	  QM_EMIT_MIGRATION,
	  "migration_completion: await_return_path_close_on_source ok" },
	{ QM_ROW_STATUS, QM_SB(ACTIVE) | QM_SB(DEVICE), QM_ST_FAILING,
	  QM_RB(FINISH_MIGRATE), QM_SAME, QM_T_STREAM, "target-failed", V111,
	  QM_IF_SWITCHED | QM_IF_RETURN_PATH, 0, 0, 0, QM_EMIT_MIGRATION,
	  "migration_completion: the return path's error, FAILING (11.0)" },
	{ QM_ROW_STATUS, QM_SB(ACTIVE) | QM_SB(DEVICE), QM_ST_FAILED,
	  QM_RB(FINISH_MIGRATE), QM_SAME, QM_T_STREAM, "target-failed",
	  V72 | V100,
	  QM_IF_SWITCHED | QM_IF_RETURN_PATH, 0, 0, 0, QM_EMIT_MIGRATION,
	  "migration_completion: the return path's error (fail_invalidate)" },
	{ QM_ROW_STATUS, QM_SB(SETUP) | ST_PRECOPY, QM_ST_FAILED, 0, QM_SAME,
	  QM_T_STREAM, "stream-broke", V72 | V100, QM_IF_MIGRATING, 0, 0, 0,
	  QM_EMIT_MIGRATION, "migration_detect_error / qemu_file error" },
	{ QM_ROW_STATUS, QM_SB(SETUP) | ST_PRECOPY, QM_ST_FAILING, 0, QM_SAME,
	  QM_T_STREAM, "stream-broke", V111, QM_IF_MIGRATING, 0, 0, 0,
	  QM_EMIT_MIGRATION, "migration_detect_error: FAILING (11.0)" },
	{ QM_ROW_STATUS, QM_SB(COMPLETED), QM_SAME, QM_RB(FINISH_MIGRATE),
	  QM_RS_POSTMIGRATE, QM_T_QEMU, "finished", VALL, 0, 0,
	  QM_IF_TOTAL_TIME, 0, 0,
	  "migration_iteration_finish: migration_calculate_complete, "
	  "runstate_set(POSTMIGRATE)" },
	{ QM_ROW_STATUS, QM_SB(FAILED) | QM_SB(CANCELLED) | QM_SB(CANCELLING) |
	  QM_SB(FAILING), QM_SAME, QM_RB(FINISH_MIGRATE), QM_RS_RUNNING,
	  QM_T_QEMU,
	  "resumed", VALL, QM_IF_WAS_RUNNING, 0, 0, 0, QM_EMIT_RESUME,
	  "migration_iteration_finish: vm_start()" },
	{ QM_ROW_STATUS, QM_SB(FAILED) | QM_SB(CANCELLED) | QM_SB(CANCELLING),
	  QM_SAME, QM_RB(FINISH_MIGRATE), QM_RS_POSTMIGRATE, QM_T_QEMU,
	  "left-stopped", V72, 0, QM_IF_WAS_RUNNING, 0, 0, 0,
	  "migration_iteration_finish: runstate_set(POSTMIGRATE)" },
	{ QM_ROW_STATUS, QM_SB(FAILED) | QM_SB(CANCELLED) | QM_SB(CANCELLING) |
	  QM_SB(FAILING), QM_SAME, QM_RB(FINISH_MIGRATE), QM_RS_OLD,
	  QM_T_QEMU,
	  "left-stopped", V10UP, 0, QM_IF_WAS_RUNNING, 0, 0, 0,
	  "migration_iteration_finish: runstate_set(s->vm_old_state)" },
	/* cpr-exec (11.1): migration_cleanup's PRECOPY_DONE notifier
	   schedules cpr_exec_cb, which execs cpr-exec-command.  When the
	   execvp fails the same process goes on: COMPLETED -> FAILED (the
	   one way back from COMPLETED), then vm_start() if the guest ran
	   (runstate_is_live(vm_old_state)), in the same bottom half.  Seen:
	   cpr-exec-update.sh, a missing binary.  The exec that succeeds
	   ends this QEMU (exec); the new one behind the same monitor is a
	   fresh model (conform.c: a later greeting after the exec). */
	{ QM_ROW_STATUS, QM_SB(COMPLETED), QM_SAME, QM_RB(POSTMIGRATE),
	  QM_GONE, QM_T_PROCESS, "exec", V111,
	  QM_IF_CPR_EXEC | QM_IF_MIGRATING, 0, QM_IF_EXECED, 0, 0,
	  "cpr_exec_cb: execvp: this QEMU ends, its monitors close without "
	  "an event; the new one greets on the same sockets, same pid" },
	{ QM_ROW_STATUS, QM_SB(COMPLETED), QM_ST_FAILED, QM_RB(POSTMIGRATE),
	  QM_RS_RUNNING, QM_T_PROCESS, "exec-failed", V111,
	  QM_IF_CPR_EXEC | QM_IF_MIGRATING | QM_IF_WAS_RUNNING, 0, 0, 0,
	  QM_EMIT_MIGRATION | QM_EMIT_RESUME,
	  "cpr_exec_cb: execvp failed, FAILED, vm_start" },
	{ QM_ROW_STATUS, QM_SB(COMPLETED), QM_ST_FAILED, QM_RB(POSTMIGRATE),
	  QM_SAME, QM_T_PROCESS, "exec-failed", V111,
	  QM_IF_CPR_EXEC | QM_IF_MIGRATING, QM_IF_WAS_RUNNING, 0, 0,
	  QM_EMIT_MIGRATION, "cpr_exec_cb: execvp failed, FAILED" },
	/* In pre-switchover the cancel first posts the pause's semaphore:
	   the migration thread may set DEVICE before the cancel sets
	   CANCELLING (its loop tries again); migration_maybe_pause then
	   finds CANCELLING and fails, no device state sent.  Seen:
	   handoff-target-term-success-tls.sh on 7.2, "device" between
	   "pre-switchover" and "cancelling".  (First: the table's first
	   row that fits a command is the one taken.) */
	{ QM_ROW_STATUS, QM_SB(PRE_SWITCHOVER), QM_SAME, 0, QM_SAME,
	  QM_T_CMD, "migrate_cancel", VALL, QM_IF_MIGRATING, 0,
	  QM_IF_CANCEL_KICK, 0, 0,
	  "migrate_fd_cancel: qemu_sem_post(pause_sem)" },
	{ QM_ROW_STATUS, QM_SB(PRE_SWITCHOVER), QM_ST_DEVICE, 0, QM_SAME,
	  QM_T_QEMU, "kicked-device", VALL, QM_IF_CANCEL_KICK, 0, 0, 0,
	  QM_EMIT_MIGRATION, "migration_maybe_pause: PRE_SWITCHOVER -> "
	  "DEVICE after pause_sem, before the cancel's set" },
	{ QM_ROW_STATUS, QM_SB(PRE_SWITCHOVER) | QM_SB(DEVICE),
	  QM_ST_CANCELLING, 0, QM_SAME, QM_T_QEMU, "kicked-cancelling", VALL,
	  QM_IF_CANCEL_KICK, 0, 0, QM_IF_CANCEL_KICK, QM_EMIT_MIGRATION,
	  "migrate_fd_cancel: -> CANCELLING" },
	{ QM_ROW_STATUS, ST_RUNNING & ~(QM_SB(CANCELLING) | QM_SB(FAILING)),
	  QM_ST_CANCELLING, 0, QM_SAME, QM_T_CMD, "migrate_cancel", VALL,
	  QM_IF_MIGRATING, 0, 0, 0, QM_EMIT_MIGRATION,
	  "qmp_migrate_cancel: migrate_fd_cancel" },

	/* 11.0's FAILING is still a running migration to migration_cancel
	   (migration_is_running): a cancel between the error and
	   migration_cleanup moves it to CANCELLING (seen: migrate-abort.sh
	   on 11.1, the stream's break and the abort at once). */
	{ QM_ROW_STATUS, QM_SB(FAILING), QM_ST_CANCELLING, 0, QM_SAME,
	  QM_T_CMD, "migrate_cancel", V111, QM_IF_MIGRATING, 0, 0, 0,
	  QM_EMIT_MIGRATION, "migration_cancel: FAILING -> CANCELLING" },
	{ QM_ROW_STATUS, QM_SB(CANCELLING), QM_ST_CANCELLED, 0, QM_SAME,
	  QM_T_QEMU, "cleanup", VALL, 0, 0, 0, 0, QM_EMIT_MIGRATION,
	  "migrate_fd_cleanup: CANCELLING -> CANCELLED" },
	{ QM_ROW_STATUS, 0, QM_SAME, 0, QM_SAME, QM_T_CMD,
	  "migrate-start-postcopy", VALL, QM_IF_POSTCOPY, 0,
	  QM_IF_START_POSTCOPY, 0, 0,
	  "qmp_migrate_start_postcopy: start_postcopy = true" },

	/* ---- the source: post-copy ---- */
	/* postcopy_start: the same vm_stop_force_state as the switchover
	   ("switchover" above), then DEVICE while the device state goes
	   out, then POSTCOPY_ACTIVE (7.2 included: seen in its traces). */
	{ QM_ROW_STATUS, QM_SB(ACTIVE), QM_ST_POSTCOPY_ACTIVE,
	  QM_RB(RUNNING) | RS_STOPPED,
	  QM_SAME, QM_T_QEMU, "postcopy-start", V72, QM_IF_START_POSTCOPY,
	  QM_IF_SWITCHED | QM_IF_PAUSE_BEFORE, 0, 0, QM_EMIT_MIGRATION,
	  "postcopy_start (7.2): ACTIVE -> POSTCOPY_ACTIVE before the stop "
	  "(migration_iteration_run: whatever the run state)" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_ACTIVE), QM_SAME, QM_RB(RUNNING),
	  QM_RS_FINISH_MIGRATE, QM_T_QEMU, "postcopy-stop", V72,
	  QM_IF_START_POSTCOPY, QM_IF_SWITCHED | QM_IF_INCOMING,
	  QM_IF_SWITCHED | QM_IF_WAS_RUNNING, 0, QM_EMIT_STOP,
	  "postcopy_start (7.2): vm_stop_force_state(FINISH_MIGRATE)" },
	/* A guest already stopped: vm_stop_force_state only sets the run
	   state, no STOP (as "switchover-stopped"). */
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_ACTIVE), QM_SAME, RS_STOPPED,
	  QM_RS_FINISH_MIGRATE, QM_T_QEMU, "postcopy-stop-stopped", V72,
	  QM_IF_START_POSTCOPY, QM_IF_SWITCHED | QM_IF_INCOMING,
	  QM_IF_SWITCHED, QM_IF_WAS_RUNNING, 0,
	  "postcopy_start (7.2): vm_stop_force_state -> runstate_set" },
	/* With pause-before-switchover, 7.2 stays ACTIVE through the stop
	   ("switchover", "pause-before") and leaves PRE_SWITCHOVER for
	   POSTCOPY_ACTIVE itself; 10.0 on go through DEVICE ("continued"). */
	{ QM_ROW_STATUS, QM_SB(PRE_SWITCHOVER), QM_ST_POSTCOPY_ACTIVE,
	  QM_RB(FINISH_MIGRATE), QM_SAME, QM_T_QEMU, "postcopy-continued",
	  V72, QM_IF_CONTINUE | QM_IF_START_POSTCOPY, 0, 0, 0,
	  QM_EMIT_MIGRATION, "postcopy_start (7.2): migration_maybe_pause"
	  "(POSTCOPY_ACTIVE) after pause_sem" },
	{ QM_ROW_STATUS, QM_SB(DEVICE), QM_ST_POSTCOPY_ACTIVE,
	  QM_RB(FINISH_MIGRATE), QM_SAME, QM_T_QEMU, "postcopy-start",
	  V100, QM_IF_SWITCHED | QM_IF_START_POSTCOPY, 0, 0, 0,
	  QM_EMIT_MIGRATION, "postcopy_start: vm stopped, DEVICE (the "
	  "\"device\" row), then DEVICE -> POSTCOPY_ACTIVE" },
	{ QM_ROW_STATUS, QM_SB(DEVICE), QM_ST_POSTCOPY_DEVICE,
	  QM_RB(FINISH_MIGRATE), QM_SAME, QM_T_QEMU, "postcopy-start", V111,
	  QM_IF_SWITCHED | QM_IF_START_POSTCOPY, QM_IF_INCOMING, 0, 0,
	  QM_EMIT_MIGRATION, "postcopy_start: DEVICE -> POSTCOPY_DEVICE "
	  "(10.2)" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_DEVICE), QM_ST_POSTCOPY_ACTIVE,
	  QM_RB(FINISH_MIGRATE), QM_SAME, QM_T_QEMU, "postcopy-running",
	  V111, QM_IF_SWITCHED | QM_IF_START_POSTCOPY, QM_IF_INCOMING, 0, 0,
	  QM_EMIT_MIGRATION, "postcopy_start: POSTCOPY_DEVICE -> "
	  "POSTCOPY_ACTIVE once the target runs (10.2)" },
	/* Before the target's word that it runs the guest, a broken stream
	   fails the migration instead of pausing it (only postcopy-active
	   pauses), and the guest runs here again ("resumed" below).  Seen:
	   migrate-postcopy-start-cut.sh. */
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_DEVICE), QM_ST_FAILING,
	  QM_RB(FINISH_MIGRATE), QM_SAME, QM_T_STREAM, "postcopy-device-broke",
	  V111, QM_IF_SWITCHED | QM_IF_START_POSTCOPY, QM_IF_INCOMING, 0, 0,
	  QM_EMIT_MIGRATION, "migration_detect_error: postcopy-device is not "
	  "postcopy_pause's, FAILING (10.2)" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_ACTIVE), QM_ST_COMPLETED,
	  QM_RB(FINISH_MIGRATE), QM_SAME, QM_T_QEMU, "postcopy-done", V72,
	  QM_IF_MIGRATING, 0, 0, 0, QM_EMIT_MIGRATION,
	  "migration_completion: COMPLETED before the figures (total-time "
	  "0 until migration_iteration_finish, seen in 7.2's traces)" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_ACTIVE), QM_ST_COMPLETED,
	  QM_RB(FINISH_MIGRATE), QM_SAME, QM_T_QEMU, "postcopy-done", V10UP,
	  QM_IF_MIGRATING, 0, QM_IF_TOTAL_TIME, 0, QM_EMIT_MIGRATION,
	  "migration_completion: migration_calculate_complete, COMPLETED" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_ACTIVE) | QM_SB(POSTCOPY_RECOVER),
	  QM_ST_POSTCOPY_PAUSED, 0, QM_SAME, QM_T_STREAM, "postcopy-broke",
	  VALL, QM_IF_MIGRATING, 0, 0, 0, QM_EMIT_MIGRATION,
	  "postcopy_pause" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_ACTIVE) | QM_SB(POSTCOPY_RECOVER),
	  QM_SAME, 0, QM_SAME, QM_T_CMD, "migrate-pause", VALL, 0, 0, 0, 0, 0,
	  "qmp_migrate_pause: shuts the stream down (postcopy-broke "
	  "follows)" },
	/* 7.2: resume's status changes only once its connection is up; a
	   target not listening leaves it paused, without an event (seen). */
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_PAUSED), QM_SAME, 0, QM_SAME,
	  QM_T_CMD, "migrate", V72, QM_IF_RESUME | QM_IF_MIGRATING, 0,
	  QM_IF_RESUMING, 0, 0, "qmp_migrate (resume): connects" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_PAUSED), QM_ST_POSTCOPY_RECOVER, 0,
	  QM_SAME, QM_T_STREAM, "recover-connected", V72, QM_IF_RESUMING, 0,
	  0, QM_IF_RESUMING, QM_EMIT_MIGRATION,
	  "migrate_fd_connect (resume): POSTCOPY_PAUSED -> RECOVER" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_PAUSED), QM_SAME, 0, QM_SAME,
	  QM_T_STREAM, "recover-failed", V72, QM_IF_RESUMING, 0, 0,
	  QM_IF_RESUMING, 0, "migrate_fd_error (resume): stays paused" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_PAUSED), QM_ST_POSTCOPY_RECOVER_SETUP,
	  0, QM_SAME, QM_T_CMD, "migrate", V10UP,
	  QM_IF_RESUME | QM_IF_MIGRATING, 0, 0, 0, QM_EMIT_MIGRATION,
	  "qmp_migrate (resume): POSTCOPY_PAUSED -> RECOVER_SETUP" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_RECOVER_SETUP), QM_ST_POSTCOPY_RECOVER,
	  0, QM_SAME, QM_T_STREAM, "recover-connected", V10UP, 0, 0, 0, 0,
	  QM_EMIT_MIGRATION, "migrate_fd_connect: postcopy_do_resume" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_RECOVER_SETUP), QM_ST_POSTCOPY_PAUSED,
	  0, QM_SAME, QM_T_STREAM, "recover-failed", V10UP, 0, 0, 0, 0,
	  QM_EMIT_MIGRATION, "migrate_fd_error: back to POSTCOPY_PAUSED" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_RECOVER), QM_ST_POSTCOPY_ACTIVE, 0,
	  QM_SAME, QM_T_STREAM, "recovered", VALL, QM_IF_MIGRATING, 0, 0, 0,
	  QM_EMIT_MIGRATION, "postcopy_do_resume: handshake done" },

	/* ---- the target ---- */
	{ QM_ROW_STATUS, QM_SB(NONE), QM_SAME, QM_RB(INMIGRATE), QM_SAME,
	  QM_T_CMD, "migrate-incoming", V72, QM_IF_INCOMING, QM_IF_LISTENING,
	  QM_IF_LISTENING, 0, QM_EMIT_SETUP_ALWAYS,
	  "qemu_start_incoming_migration: qapi_event_send_migration(SETUP); "
	  "mis->state stays NONE until a connection" },
	{ QM_ROW_STATUS, QM_SB(NONE), QM_ST_SETUP, QM_RB(INMIGRATE), QM_SAME,
	  QM_T_CMD, "migrate-incoming", V10UP, QM_IF_INCOMING,
	  QM_IF_LISTENING, QM_IF_LISTENING, 0, QM_EMIT_MIGRATION,
	  "qemu_start_incoming_migration: mis->state NONE -> SETUP, "
	  "with events only (a new cpr QEMU without events sends none)" },
	{ QM_ROW_STATUS, QM_SB(NONE), QM_ST_ACTIVE, QM_RB(INMIGRATE), QM_SAME,
	  QM_T_STREAM, "accepted", V72, QM_IF_LISTENING, 0, 0, 0,
	  QM_EMIT_MIGRATION, "process_incoming_migration_co: NONE -> ACTIVE" },
	{ QM_ROW_STATUS, QM_SB(SETUP), QM_ST_ACTIVE, QM_RB(INMIGRATE), QM_SAME,
	  QM_T_STREAM, "accepted", V10UP, QM_IF_LISTENING, 0, 0, 0,
	  QM_EMIT_MIGRATION, "process_incoming_migration_co: SETUP -> ACTIVE" },
	{ QM_ROW_STATUS, QM_SB(ACTIVE), QM_SAME, QM_RB(INMIGRATE),
	  QM_RS_RUNNING, QM_T_LOAD, "loaded-run", VALL,
	  QM_IF_LISTENING | QM_IF_AUTOSTART, QM_IF_GUEST, QM_IF_GUEST, 0,
	  QM_EMIT_RESUME, "process_incoming_migration_bh: vm_start() "
	  "(global state running, autostart)" },
	{ QM_ROW_STATUS, QM_SB(ACTIVE), QM_SAME, QM_RB(INMIGRATE),
	  QM_RS_PAUSED, QM_T_LOAD, "loaded-paused", VALL, QM_IF_LISTENING,
	  QM_IF_GUEST, QM_IF_GUEST, 0, 0,
	  "process_incoming_migration_bh: runstate_set(PAUSED) (no "
	  "autostart, or the source was paused)" },
	{ QM_ROW_STATUS, QM_SB(ACTIVE), QM_SAME, QM_RB(INMIGRATE),
	  QM_RS_PRELAUNCH, QM_T_LOAD, "loaded-prelaunch", VALL,
	  QM_IF_LISTENING, QM_IF_GUEST, QM_IF_GUEST, 0, 0,
	  "process_incoming_migration_bh: runstate_set(global state "
	  "prelaunch)" },
	{ QM_ROW_STATUS, QM_SB(ACTIVE), QM_ST_COMPLETED, 0, QM_SAME, QM_T_QEMU,
	  "load-complete", VALL, QM_IF_GUEST, 0, 0, 0, QM_EMIT_MIGRATION,
	  "process_incoming_migration_bh: ACTIVE -> COMPLETED" },
	{ QM_ROW_STATUS, QM_SB(ACTIVE) | QM_SB(SETUP), QM_ST_FAILED,
	  QM_RB(INMIGRATE), QM_SAME, QM_T_LOAD, "load-failed", VALL,
	  QM_IF_LISTENING, QM_IF_GUEST, 0, 0, QM_EMIT_MIGRATION,
	  "process_incoming_migration_co: fail" },
	{ QM_ROW_STATUS, QM_SB(FAILED), QM_SAME, QM_RB(INMIGRATE), QM_GONE,
	  QM_T_PROCESS, "exit-on-error", VALL,
	  QM_IF_LISTENING | QM_IF_EXIT_ON_ERROR, 0, 0, 0, 0,
	  "process_incoming_migration_co: exit(EXIT_FAILURE)" },
	/* post-copy on the target */
	{ QM_ROW_STATUS, QM_SB(ACTIVE), QM_ST_POSTCOPY_ACTIVE,
	  QM_RB(INMIGRATE), QM_SAME, QM_T_STREAM, "postcopy-listen",
	  V72 | V100, QM_IF_LISTENING, QM_IF_GUEST, 0, 0, QM_EMIT_MIGRATION,
	  "loadvm_postcopy_handle_listen: ACTIVE -> POSTCOPY_ACTIVE" },
	{ QM_ROW_STATUS, QM_SB(ACTIVE), QM_ST_POSTCOPY_DEVICE,
	  QM_RB(INMIGRATE), QM_SAME, QM_T_STREAM, "postcopy-listen", V111,
	  QM_IF_LISTENING, QM_IF_GUEST, 0, 0, QM_EMIT_MIGRATION,
	  "loadvm_postcopy_handle_listen: ACTIVE -> POSTCOPY_DEVICE (10.2)" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_DEVICE), QM_ST_POSTCOPY_ACTIVE,
	  QM_RB(INMIGRATE), QM_SAME, QM_T_STREAM, "postcopy-device-loaded",
	  V111, QM_IF_LISTENING, QM_IF_GUEST, 0, 0, QM_EMIT_MIGRATION,
	  "loadvm_postcopy_handle_run: POSTCOPY_DEVICE -> POSTCOPY_ACTIVE "
	  "(10.2)" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_ACTIVE), QM_SAME, QM_RB(INMIGRATE),
	  QM_RS_RUNNING, QM_T_STREAM, "postcopy-run", VALL,
	  QM_IF_LISTENING | QM_IF_AUTOSTART, QM_IF_GUEST, QM_IF_GUEST, 0,
	  QM_EMIT_RESUME, "loadvm_postcopy_handle_run_bh: vm_start()" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_ACTIVE), QM_SAME, QM_RB(INMIGRATE),
	  QM_RS_PAUSED, QM_T_STREAM, "postcopy-run-paused", VALL,
	  QM_IF_LISTENING, QM_IF_GUEST | QM_IF_AUTOSTART, QM_IF_GUEST, 0, 0,
	  "loadvm_postcopy_handle_run_bh: runstate_set(PAUSED)" },
	/* 9.0 on ("preserve suspended runstate"): vm_resume of the run
	   state the stream's global state carries: a guest stopped on the
	   source stays paused, autostart or not. */
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_ACTIVE), QM_SAME, QM_RB(INMIGRATE),
	  QM_RS_PAUSED, QM_T_STREAM, "postcopy-run-stopped", V10UP,
	  QM_IF_LISTENING, QM_IF_GUEST, QM_IF_GUEST, 0, 0,
	  "loadvm_postcopy_handle_run_bh: vm_resume(migrate_new_runstate())" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_ACTIVE), QM_ST_COMPLETED, 0, QM_SAME,
	  QM_T_LOAD, "postcopy-loaded", VALL, QM_IF_LISTENING | QM_IF_GUEST,
	  0, 0, 0, QM_EMIT_MIGRATION,
	  "postcopy_ram_listen_thread: POSTCOPY_ACTIVE -> COMPLETED" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_ACTIVE) | QM_SB(POSTCOPY_RECOVER),
	  QM_ST_POSTCOPY_PAUSED, 0, QM_SAME, QM_T_STREAM,
	  "postcopy-broke-incoming", VALL, QM_IF_LISTENING | QM_IF_GUEST, 0,
	  0, QM_IF_RECOVERING, QM_EMIT_MIGRATION, "postcopy_pause_incoming" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_PAUSED), QM_SAME, 0, QM_SAME,
	  QM_T_CMD, "migrate-recover", V72, QM_IF_LISTENING, 0,
	  QM_IF_RECOVERING, 0, QM_EMIT_SETUP_ALWAYS,
	  "qmp_migrate_recover: qemu_start_incoming_migration (its SETUP "
	  "event, status unchanged)" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_PAUSED), QM_SAME, 0, QM_SAME,
	  QM_T_CMD, "migrate-recover", V10UP, QM_IF_LISTENING, 0,
	  QM_IF_RECOVERING, 0, 0,
	  "qmp_migrate_recover: qemu_start_incoming_migration" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_PAUSED), QM_ST_POSTCOPY_RECOVER, 0,
	  QM_SAME, QM_T_STREAM, "recover-accepted", VALL,
	  QM_IF_LISTENING | QM_IF_RECOVERING, 0, 0, 0, QM_EMIT_MIGRATION,
	  "migration_incoming_process (postcopy_pause_sem_dst posted)" },
	/* The first listener still takes the source's resume (socket.c's
	   accept: migration_has_all_channels() is false once the main
	   channel broke), so the target recovers before any migrate-recover
	   (which is then refused): seen in migrate-postcopy-recover on 10.0,
	   and on 7.2 in a loaded clean-clone run, the source's resume
	   arriving first. */
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_PAUSED), QM_ST_POSTCOPY_RECOVER, 0,
	  QM_SAME, QM_T_STREAM, "recover-accepted", VALL, QM_IF_LISTENING |
	  QM_IF_GUEST, QM_IF_RECOVERING, QM_IF_RECOVERING, 0,
	  QM_EMIT_MIGRATION, "migration_ioc_process_incoming: a new main "
	  "channel on the listener kept open, while postcopy-paused" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_RECOVER), QM_ST_POSTCOPY_ACTIVE, 0,
	  QM_SAME, QM_T_STREAM, "recovered-incoming", VALL,
	  QM_IF_LISTENING | QM_IF_RECOVERING, 0, 0, QM_IF_RECOVERING,
	  QM_EMIT_MIGRATION, "loadvm_postcopy_handle_resume" },
	{ QM_ROW_STATUS, QM_SB(POSTCOPY_ACTIVE), QM_ST_FAILED, 0, QM_SAME,
	  QM_T_LOAD, "postcopy-load-failed", VALL, QM_IF_LISTENING, 0, 0, 0,
	  QM_EMIT_MIGRATION, "postcopy_ram_listen_thread: load failed" },

	/* ---- either side: the run state by command, the process ---- */
	{ QM_ROW_RUNSTATE, 0, QM_SAME, QM_RB(RUNNING), QM_RS_PAUSED, QM_T_CMD,
	  "stop", VALL, 0, 0, 0, 0, QM_EMIT_STOP, "qmp_stop: vm_stop(PAUSED)" },
	{ QM_ROW_RUNSTATE, 0, QM_SAME, QM_RB(INMIGRATE), QM_SAME, QM_T_CMD,
	  "stop", VALL, 0, 0, 0, QM_IF_AUTOSTART, 0,
	  "qmp_stop: autostart = 0 while inmigrate" },
	{ QM_ROW_RUNSTATE, 0, QM_SAME, RS_CONT, QM_RS_RUNNING, QM_T_CMD,
	  "cont", VALL, 0, 0, 0, 0, QM_EMIT_RESUME, "qmp_cont: vm_start()" },
	{ QM_ROW_RUNSTATE, 0, QM_SAME, QM_RB(INMIGRATE), QM_SAME, QM_T_CMD,
	  "cont", VALL, 0, 0, QM_IF_AUTOSTART, 0, 0,
	  "qmp_cont: autostart = 1 while inmigrate" },
	/* A quit or a SIGTERM: SHUTDOWN, then the main loop's end cancels a
	   migration under way (post-copy included, seen on 11.1), then the
	   process exits. */
	{ QM_ROW_RUNSTATE, 0, QM_SAME, 0, QM_SAME, QM_T_CMD, "quit", VALL,
	  0, QM_IF_SHUTDOWN, QM_IF_SHUTDOWN, 0, QM_EMIT_SHUTDOWN,
	  "qmp_quit: qemu_system_shutdown_request(host-qmp-quit)" },
	{ QM_ROW_RUNSTATE, SIG, QM_SAME, 0, QM_SAME, QM_T_PROCESS,
	  "signalled", VALL, 0, QM_IF_SHUTDOWN, QM_IF_SHUTDOWN, 0,
	  QM_EMIT_SHUTDOWN,
	  "termsig_handler: qemu_system_killed (SHUTDOWN host-signal)" },
	{ QM_ROW_STATUS, ST_RUNNING & ~(QM_SB(CANCELLING) | QM_SB(FAILING)),
	  QM_ST_CANCELLING, 0, QM_GONE, QM_T_PROCESS, "shutdown-cancel",
	  VALL, QM_IF_SHUTDOWN | QM_IF_MIGRATING, 0, 0, 0, QM_EMIT_MIGRATION,
	  "qemu_cleanup: migration_shutdown -> migration_cancel, exit" },
	{ QM_ROW_RUNSTATE, SIG, QM_SAME, 0, QM_GONE, QM_T_PROCESS, "exit",
	  VALL, QM_IF_SHUTDOWN, 0, 0, 0, 0, "qemu_cleanup: exit" },
	{ QM_ROW_RUNSTATE, SIG, QM_SAME, 0, QM_GONE, QM_T_PROCESS, "killed",
	  VALL, 0, 0, 0, 0, 0, "(SIGKILL)" },

	/* ---- mirror jobs (job.c's job_state_transition, block/mirror.c) --- */
	{ QM_ROW_JOB, QM_JB(CREATED), QM_JOB_RUNNING, 0, QM_SAME, QM_T_QEMU,
	  "job-start", VALL, 0, 0, 0, 0, QM_EMIT_JOB, "job_start" },
	{ QM_ROW_JOB, QM_JB(RUNNING), QM_JOB_READY, 0, QM_SAME, QM_T_QEMU,
	  "mirror-ready", VALL, 0, QM_IF_CANCEL | QM_IF_JOB_ERROR, 0, 0,
	  QM_EMIT_JOB | QM_EMIT_JOB_READY,
	  "mirror_run: job_transition_to_ready" },
	{ QM_ROW_JOB, QM_JB(READY), QM_JOB_STANDBY, 0, QM_SAME, QM_T_QEMU,
	  "job-drained", VALL, 0, 0, 0, 0, QM_EMIT_JOB,
	  "job_pause_point (a drained section)" },
	{ QM_ROW_JOB, QM_JB(STANDBY), QM_JOB_READY, 0, QM_SAME, QM_T_QEMU,
	  "job-undrained", VALL, 0, 0, 0, 0, QM_EMIT_JOB, "job_resume" },
	{ QM_ROW_JOB, QM_JB(RUNNING), QM_JOB_PAUSED, 0, QM_SAME, QM_T_QEMU,
	  "job-drained", VALL, 0, 0, 0, 0, QM_EMIT_JOB,
	  "job_pause_point (a drained section)" },
	{ QM_ROW_JOB, QM_JB(PAUSED), QM_JOB_RUNNING, 0, QM_SAME, QM_T_QEMU,
	  "job-undrained", VALL, 0, 0, 0, 0, QM_EMIT_JOB, "job_resume" },
	{ QM_ROW_JOB, QM_JB(RUNNING) | QM_JB(READY), QM_SAME, 0, QM_SAME,
	  QM_T_CMD, "block-job-cancel", VALL, QM_IF_FORCE, 0,
	  QM_IF_CANCEL | QM_IF_FORCE, 0, 0,
	  "qmp_block_job_cancel (force): job_user_cancel, "
	  "job->force_cancel" },
	{ QM_ROW_JOB, QM_JB(RUNNING) | QM_JB(READY), QM_SAME, 0, QM_SAME,
	  QM_T_CMD, "block-job-cancel", VALL, 0, 0, QM_IF_CANCEL, 0, 0,
	  "qmp_block_job_cancel: job_user_cancel" },
	{ QM_ROW_JOB, QM_JB(READY), QM_SAME, 0, QM_SAME, QM_T_CMD,
	  "block-job-complete", VALL, 0, 0, QM_IF_COMPLETE, 0, 0,
	  "qmp_block_job_complete: job_complete" },
	{ QM_ROW_JOB, QM_JB(RUNNING) | QM_JB(READY), QM_SAME, 0, QM_SAME,
	  QM_T_STREAM, "mirror-io-error", VALL, 0, 0, 0, 0, QM_EMIT_JOB_ERROR,
	  "mirror_error_action: on-target-error report, the job goes on "
	  "(the NBD peer gone, or yanked)" },
	{ QM_ROW_JOB, QM_JB(RUNNING) | QM_JB(READY), QM_SAME, 0, QM_SAME,
	  QM_T_STREAM, "mirror-failed", VALL, 0, 0, QM_IF_JOB_ERROR, 0, 0,
	  "mirror_run: an error that ends the job" },
	{ QM_ROW_JOB, QM_JB(READY), QM_JOB_WAITING, 0, QM_SAME, QM_T_QEMU,
	  "job-waiting", VALL, QM_IF_CANCEL, QM_IF_JOB_ERROR | QM_IF_FORCE,
	  0, 0,
	  QM_EMIT_JOB, "job_completed_txn_success (soft cancel of a ready "
	  "mirror completes without pivot)" },
	{ QM_ROW_JOB, QM_JB(READY), QM_JOB_WAITING, 0, QM_SAME, QM_T_QEMU,
	  "job-waiting", VALL, QM_IF_COMPLETE, QM_IF_JOB_ERROR, 0, 0,
	  QM_EMIT_JOB, "job_completed_txn_success" },
	{ QM_ROW_JOB, QM_JB(WAITING), QM_JOB_PENDING, 0, QM_SAME, QM_T_QEMU,
	  "job-pending", VALL, 0, 0, 0, 0, QM_EMIT_JOB, "job_do_finalize" },
	{ QM_ROW_JOB, QM_JB(PENDING), QM_JOB_CONCLUDED, 0, QM_SAME, QM_T_QEMU,
	  "job-concluded", VALL, 0, QM_IF_JOB_ERROR, 0, 0,
	  QM_EMIT_JOB_DONE | QM_EMIT_JOB, "job_completed: job_event_completed" },
	{ QM_ROW_JOB, QM_JB(RUNNING), QM_JOB_ABORTING, 0, QM_SAME, QM_T_QEMU,
	  "job-aborting", VALL, QM_IF_CANCEL, 0, 0, 0, QM_EMIT_JOB,
	  "job_cancel_async: a mirror not yet ready" },
	{ QM_ROW_JOB, QM_JB(READY), QM_JOB_ABORTING, 0, QM_SAME, QM_T_QEMU,
	  "job-aborting", VALL, QM_IF_CANCEL | QM_IF_FORCE, 0, 0, 0,
	  QM_EMIT_JOB, "job_cancel_async: mirror_cancel (force): a ready "
	  "mirror aborts" },
	{ QM_ROW_JOB, QM_JB(RUNNING) | QM_JB(READY), QM_JOB_ABORTING, 0,
	  QM_SAME, QM_T_QEMU, "job-aborting", VALL, QM_IF_JOB_ERROR, 0, 0, 0,
	  QM_EMIT_JOB, "job_completed_txn_abort" },
	{ QM_ROW_JOB, QM_JB(ABORTING), QM_JOB_CONCLUDED, 0, QM_SAME, QM_T_QEMU,
	  "job-concluded", VALL, QM_IF_CANCEL, QM_IF_JOB_ERROR, 0, 0,
	  QM_EMIT_JOB_CANCELLED | QM_EMIT_JOB,
	  "job_completed: job_event_cancelled" },
	{ QM_ROW_JOB, QM_JB(ABORTING), QM_JOB_CONCLUDED, 0, QM_SAME, QM_T_QEMU,
	  "job-concluded", VALL, QM_IF_JOB_ERROR, 0, 0, 0,
	  QM_EMIT_JOB_DONE | QM_EMIT_JOB,
	  "job_completed: job_event_completed (with an error)" },
	{ QM_ROW_JOB, QM_JB(CONCLUDED), QM_JOB_NULL, 0, QM_SAME, QM_T_QEMU,
	  "job-dismissed", VALL, 0, 0, 0, 0, QM_EMIT_JOB,
	  "job_do_dismiss (auto-dismiss)" },
};
const size_t qm_nrows = sizeof qm_rows / sizeof qm_rows[0];
int qm_disabled_row = -1;

const struct qm_refusal qm_refusals[] = {
	{ "migrate", ST_RUNNING, 0, 0, QM_IF_RESUME, VALL, 0,
	  "There's a migration process in progress", "migrate_prepare" },
	{ "migrate", 0, QM_RB(INMIGRATE), 0, QM_IF_RESUME, VALL, 0,
	  "Guest is waiting for an incoming migration", "migrate_prepare" },
	{ "migrate", 0, QM_RB(POSTMIGRATE), 0, QM_IF_RESUME, VALL, 0,
	  "Can't migrate the vm that was paused due to previous migration",
	  "migrate_prepare" },
	{ "migrate", ~QM_SB(POSTCOPY_PAUSED), 0, QM_IF_RESUME, 0, VALL, 0,
	  "Cannot resume if there is no paused migration",
	  "migrate_prepare (resume)" },
	/* 10.0/11.1 connect the cpr channel inside qmp_migrate, after
	   migrate_init set SETUP: a refused connect is migrate_fd_error's
	   FAILED (11.1: FAILING, then FAILED), then the error answer.
	   Before the row below, whose "" fits any text. */
	{ "migrate", 0, 0, QM_IF_CPR, QM_IF_RESUME, V10UP,
	  QM_MAY_AFTER_SETUP, "Failed to connect to",
	  "qmp_migrate: cpr_state_save (the cpr channel), migrate_fd_error" },
	{ "migrate", 0, 0, 0, 0, VALL, 1, "", "migrate_prepare: a blocker, "
	  "the channels, the capabilities (the model holds none of them)" },
	{ "migrate-incoming", 0, 0, 0, QM_IF_INCOMING, VALL, 0,
	  "-incoming", "qmp_migrate_incoming: not started with -incoming "
	  "defer" },
	{ "migrate-incoming", 0, 0, QM_IF_LISTENING, 0, VALL, 0,
	  "already been started", "qmp_migrate_incoming: once" },
	{ "migrate-incoming", 0, 0, 0, 0, VALL, 1, "",
	  "qemu_start_incoming_migration: the address (the model holds "
	  "none)" },
	{ "migrate-set-capabilities", ST_RUNNING, 0, 0, 0, VALL, 0,
	  "There's a migration process in progress",
	  "qmp_migrate_set_capabilities: migration_is_running" },
	{ "migrate-set-capabilities", 0, 0, 0, 0, VALL, 1, "",
	  "migrate_caps_check: combinations, userfaultfd" },
	{ "migrate-set-parameters", 0, 0, 0, 0, VALL, 1, "",
	  "migrate_params_check: values" },
	{ "migrate-continue", ~QM_SB(PRE_SWITCHOVER), 0, 0, 0, VALL, 0,
	  "Migration not in expected state", "qmp_migrate_continue" },
	{ "migrate-start-postcopy", 0, 0, 0, QM_IF_POSTCOPY, VALL, 0,
	  "Enable postcopy with migrate_set_capability before the start of "
	  "migration", "qmp_migrate_start_postcopy" },
	{ "migrate-start-postcopy", QM_SB(NONE), 0, QM_IF_POSTCOPY, 0, VALL, 0,
	  "Postcopy must be started after migration has been started",
	  "qmp_migrate_start_postcopy" },
	{ "migrate-pause", ~(QM_SB(POSTCOPY_ACTIVE) |
	  QM_SB(POSTCOPY_RECOVER)), 0, 0, 0, VALL, 0,
	  "migrate-pause is currently only supported during postcopy-active",
	  "qmp_migrate_pause" },
	{ "migrate-recover", ~QM_SB(POSTCOPY_PAUSED), 0, 0, 0, VALL, 0,
	  "Migrate recover can only be run when postcopy is paused",
	  "qmp_migrate_recover" },
	{ "migrate-recover", QM_SB(POSTCOPY_PAUSED), 0, QM_IF_RECOVERING, 0,
	  VALL, 0, "Migrate recovery is triggered already",
	  "qmp_migrate_recover" },
	{ "cont", 0, QM_RB(INTERNAL_ERROR) | QM_RB(SHUTDOWN) |
	  QM_RB(GUEST_PANICKED), 0, 0, VALL, 0,
	  "Resetting the Virtual Machine is required",
	  "qmp_cont: runstate_needs_reset" },
	{ "cont", 0, QM_RB(POSTMIGRATE) | QM_RB(FINISH_MIGRATE) |
	  QM_RB(PAUSED), 0, 0, VALL, 1, "lock",
	  "qmp_cont: bdrv_activate_all (an image another QEMU holds)" },
	{ "blockdev-mirror", 0, 0, 0, 0, VALL, 1, "",
	  "qmp_blockdev_mirror: the nodes, the job id" },
	{ "drive-mirror", 0, 0, 0, 0, VALL, 1, "", "qmp_drive_mirror" },
	{ "block-job-cancel", 0, 0, 0, 0, VALL, 1, "",
	  "find_block_job_locked: no such job" },
	{ "block-job-complete", 0, 0, 0, 0, VALL, 1, "",
	  "job_complete_locked: not ready, or no such job" },
	{ "job-dismiss", 0, 0, 0, 0, VALL, 1, "", "job_dismiss_locked" },
	{ "nbd-server-start", 0, 0, 0, 0, VALL, 1, "",
	  "nbd_server_start: already running, the address" },
	{ "nbd-server-add", 0, 0, 0, 0, VALL, 1, "", "qmp_nbd_server_add" },
	{ "block-export-add", 0, 0, 0, 0, VALL, 1, "",
	  "qmp_block_export_add: no server, the node" },
	{ "block-export-del", 0, 0, 0, 0, VALL, 1, "", "qmp_block_export_del" },
	{ "nbd-server-stop", 0, 0, 0, 0, VALL, 1, "",
	  "qmp_nbd_server_stop: not running" },
	{ "blockdev-add", 0, 0, 0, 0, VALL, 1, "", "qmp_blockdev_add" },
	{ "blockdev-del", 0, 0, 0, 0, VALL, 1, "", "qmp_blockdev_del" },
	{ "calc-dirty-rate", 0, 0, 0, 0, VALL, 1, "", "qmp_calc_dirty_rate" },
	{ "set-vcpu-dirty-limit", 0, 0, 0, 0, VALL, 1, "",
	  "qmp_set_vcpu_dirty_limit: needs KVM's dirty ring" },
	{ "qom-get", 0, 0, 0, 0, VALL, 1, "", "qmp_qom_get: no such path" },
	{ "qom-list", 0, 0, 0, 0, VALL, 1, "", "qmp_qom_list: no such path" },
	{ "query-sev", 0, 0, 0, 0, VALL, 1, "", "qmp_query_sev: no SEV" },
	{ "query-rx-filter", 0, 0, 0, 0, VALL, 1, "", "qmp_query_rx_filter" },
	{ "human-monitor-command", 0, 0, 0, 0, VALL, 1, "", "hmp" },
	{ "query-balloon", 0, 0, 0, 0, VALL, 1, "No balloon device",
	  "qmp_query_balloon" },
	{ "query-dirty-rate", 0, 0, 0, 0, VALL, 1, "", "qmp_query_dirty_rate" },
	{ "cancel-vcpu-dirty-limit", 0, 0, 0, 0, VALL, 1, "",
	  "qmp_cancel_vcpu_dirty_limit" },
	{ "device_del", 0, 0, 0, 0, VALL, 1, "", "qmp_device_del" },
	{ "yank", 0, 0, 0, 0, VALL, 1, "", "qmp_yank: no such instance" },
	{ "device_add", 0, 0, 0, 0, VALL, 1, "", "qmp_device_add" },
	{ "drive-backup", 0, 0, 0, 0, VALL, 1, "", "qmp_drive_backup" },
	{ "blockdev-backup", 0, 0, 0, 0, VALL, 1, "", "qmp_blockdev_backup" },
	/* Any command: an argument its schema lacks, before it runs. */
	{ "*", 0, 0, 0, 0, VALL, 1, "is unexpected",
	  "qmp_dispatch: qobject_input_check_struct (\"Parameter '%s' is "
	  "unexpected\")" },
};
const size_t qm_nrefusals = sizeof qm_refusals / sizeof qm_refusals[0];
