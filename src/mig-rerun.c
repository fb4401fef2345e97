/*
 * mig-rerun.c: what a re-run after a SIGKILL makes of the QEMU it finds,
 * where the status file cannot say it all: from QEMU's own answers.  Pure
 * functions, so that each case is a unit row (test-mig-info.c).
 *
 * `incoming` (over unix:/tcp:): a killed run may leave no record at all: every write of its
 * status file failed (a full disk) before the SIGKILL.  Its QEMU migrates
 * on alone (QEMU needs no qmigrate over unix:/tcp:), and a new setup over
 * it is refused ("There's a migration process in progress", "The incoming
 * migration has already been started"): taken for a control-plane failure
 * (3, "the guest is not here") while the guest then lands here (sim-real,
 * issue 37 finding (b)).  So QEMU's own word decides, not the file.
 */
#include <string.h>

#include "qmigrate.h"
#include "mig-info.h"

/*
 * record: the status file holds an open record (a killed run's, or one
 * that ended in 8 or 6).  rs: QEMU's run state; mi: its query-migrate;
 * listening: that answer names a socket-address (QEMU listens, from
 * migrate-incoming until its load ends: tests/traces/qmp/precopy-*).
 */
/*
 * An incoming migration, as QEMU shows one: a socket-address (a target
 * that listens: from migrate-incoming until its load ends), a load that
 * runs (inmigrate), or post-copy; never with ram figures, which only an
 * outgoing migration reports (a target's query-migrate has none:
 * tests/traces/qmp/precopy-11.1).
 */
static int
incoming(enum run_state rs, const struct mig_info *mi, int listening)
{
	if (mi->has_ram)
		return 0;
	return listening || rs == RUN_INMIGRATE ||
	    qemu_mig_status_postcopy(mi->status);
}

/*
 * record: the status file holds an open record (a killed run's, or one
 * that ended in 8 or 6).  rs: QEMU's run state; mi: its query-migrate;
 * listening: that answer names a socket-address.  With a record, any
 * migration QEMU has is the record's (N4).  Without one, QEMU's word
 * alone: an incoming migration that runs is watched whoever set it up (it
 * may land here; its outcome is told as QEMU gives it); one that ended
 * with a guest here, or maybe here, is not known (8): this run cannot
 * tell whose it is.  Never "not here" (3) while a guest may be or come
 * here.
 */
enum target_found
mig_target_found(int record, enum run_state rs, const struct mig_info *mi,
    int listening)
{
	if (mi->status == QMS_NONE && !listening)
		return rs == RUN_INMIGRATE ? TF_FRESH : TF_NOT_WAITING;
	if (record)
		return TF_REATTACH;
	if (listening || qemu_mig_status_in_progress(mi->status))
		return incoming(rs, mi, listening) ? TF_REATTACH :
		    TF_NOT_WAITING;	/* its own outgoing migration */
	switch (mi->status) {
	case QMS_COMPLETED:
		/* Outgoing (postmigrate, ram figures): the guest went. */
		return rs == RUN_POSTMIGRATE || mi->has_ram ? TF_NOT_WAITING :
		    TF_NOT_KNOWN;
	case QMS_FAILED:
		/* A failed load still inmigrate never ran the guest.  A QEMU
		 * that runs one after a failed migration is a source whose
		 * own migration failed (migrate-control.sh: incoming pointed
		 * at it): a target whose load fails once post-copy ran the
		 * guest exits (savevm.c, postcopy_ram_listen_thread's
		 * exit(EXIT_FAILURE), 7.2 to 11.1).  Paused: either, so not
		 * known. */
		return rs == RUN_INMIGRATE || rs == RUN_RUNNING ?
		    TF_NOT_WAITING : TF_NOT_KNOWN;
	default:
		return TF_NOT_WAITING;	/* cancelled: outgoing only */
	}
}

/*
 * `update --mode exec`: the open record of an update (mode cpr-exec) and a
 * QEMU with no migration now.  Returns 1 where that QEMU may be the
 * exec's new one, which did not load the guest (a command line that
 * boots afresh): no old copy is left, and "the guest runs on the source"
 * (4) would be false.  The record's phase Running says the update began
 * (sim-real --update-exec F2).  Short of that (every write after the
 * first failed: seed 538), QEMU's own migration mode tells: the killed
 * run's plan set cpr-exec on the old QEMU and nobody put it back (a
 * failed exec leaves it too), while the new QEMU starts with normal.  A
 * mode normal is either the new QEMU or an old one killed before its
 * plan: not known either way.  qemu_mode: QEMU's "mode" now, or NULL
 * (not asked, or no answer).
 */
int
mig_exec_rerun_lost(enum mig_phase phase, const char *qemu_mode)
{
	if (phase == PHASE_RUNNING)
		return 1;
	return qemu_mode == NULL || strcmp(qemu_mode, "cpr-exec") != 0;
}
