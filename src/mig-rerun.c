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
 * `incoming` over tls: (no re-attach: the killed run's proxy session died
 * with it), its QEMU not waiting for a migration (run state not
 * inmigrate).  Over the killed run's open record: not known (8, sim-real
 * tls: seeds 2413, 515).  With no record (every write failed: a full
 * disk), QEMU's word as over unix: (mig_target_found()): an incoming
 * migration that ended with a guest here, or one that runs (post-copy's
 * half here), may be this migration's guest, and this run can watch
 * neither: not known (8), never 3 (sim-real seed 3085721: the guest
 * arrived, ran, and the re-run said "not on the target").  The rest (a
 * running guest with no incoming migration, a source's own): 3.
 */
enum target_found
mig_target_found_tls(int record, enum run_state rs,
    const struct mig_info *mi, int listening)
{
	if (record)
		return TF_NOT_KNOWN;
	switch (mig_target_found(0, rs, mi, listening)) {
	case TF_REATTACH:
	case TF_NOT_KNOWN:
		return TF_NOT_KNOWN;
	case TF_FRESH:
		return TF_FRESH;
	default:
		return TF_NOT_WAITING;
	}
}

/*
 * `incoming`'s re-run asked query-migrate and got no answer (held past
 * 10 s, dropped, the monitor closed).  Over an open record: not known
 * (8), as a QEMU it could not ask at all.  With none, a QEMU that no
 * longer waits for a migration (not inmigrate) may hold a guest that
 * arrived (seed 3085721's shape with that answer lost): not known too,
 * never 3.  One still inmigrate is a first run's QEMU as often as not:
 * the setup's "no reply", 3 (TF_NOT_WAITING).
 */
enum target_found
mig_target_unanswered(int record, enum run_state rs)
{
	return record || rs != RUN_INMIGRATE ? TF_NOT_KNOWN : TF_NOT_WAITING;
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

/*
 * An update's start over a QEMU with no migration and no open record of
 * one, whose migration mode is qemu_mode: 1 where that mode is one an
 * update sets (cpr-exec, cpr-transfer) and nobody put back: an earlier
 * update killed after its plan, every write of its record failed (a full
 * disk), or one whose put-back never reached QEMU.  This update then
 * owns it: a failure that leaves the guest on this QEMU puts it back to
 * normal, as for the mode it set itself (sim-real --update-exec seeds
 * 6023505 6001461: exit 2 and 3 with cpr-exec left, the re-run's
 * pre-flight probe having put back what it found).
 */
int
mig_update_mode_left(const char *qemu_mode)
{
	return qemu_mode != NULL && (strcmp(qemu_mode, "cpr-exec") == 0 ||
	    strcmp(qemu_mode, "cpr-transfer") == 0);
}

/*
 * An update marker found by `update --mode exec` (mig-marker.c): written
 * before the migrate that makes QEMU exec, removed once the update's end
 * is recorded.  Its update's record decides where there is one (closed:
 * the marker is a removal that failed; open: the re-run's record logic).
 * Without one (every write of the status file failed, or it holds an
 * older update's), the marker is the only word that an update was under
 * way, and QEMU's answers cannot tell it from a first run (sim-real
 * --update-exec seeds 2821 3684 6016968 6020198 6026378): a monitor that
 * refuses may be the exec's new QEMU that never came back, and a QEMU
 * with mode normal and no migration may be the new one.  Not known, and
 * never a second update over it, unless the QEMU that answers is another
 * process than the marker's (another pid, or the same pid started at
 * another time: a QEMU started again): then the marker is stale.  A
 * refused monitor never makes it stale: the marker's QEMU, gone or not,
 * may have taken the guest with it.
 */
enum marker_verdict
mig_marker_verdict(const struct marker_seen *m)
{
	int same;

	if (m->record)
		return m->record_open ? MV_RECORD : MV_ENDED;
	if (!m->connected)
		return MV_NOT_KNOWN;
	if (m->peer > 0 && m->peer_start != 0 && m->pid > 0 && m->start != 0)
		same = m->peer == m->pid && m->peer_start == m->start;
	else
		/* Who answers is not known (a relay): the marker's process
		 * still running is the one that may have exec'd. */
		same = m->pid <= 0 || m->start == 0 || m->start_now == m->start;
	if (!same)
		return MV_STALE;
	return m->not_execd ? MV_NOT_EXECD : MV_NOT_KNOWN;
}

/*
 * Whether QEMU's answers say that an update's exec never happened: mode
 * cpr-exec, which the update's plan sets on the old QEMU and the exec's
 * new QEMU does not have (it starts normal, as mig_exec_rerun_lost reads
 * it), with no migration (killed between the marker and the migrate) or
 * one that failed or was cancelled (execvp failed: QEMU runs the guest
 * on; an abort).  A migration that runs or completed, or a mode not
 * known, says nothing of the kind.
 */
int
mig_exec_not_done(const char *qemu_mode, enum qemu_mig_status status)
{
	if (qemu_mode == NULL || strcmp(qemu_mode, "cpr-exec") != 0)
		return 0;
	return status == QMS_NONE || status == QMS_FAILED ||
	    status == QMS_CANCELLED;
}
