/*
 * mig-session-cpr-exec.c: the source table's state SS_CPR_EXEC
 * (mig-session.h), `update --mode exec`: one QEMU process, which QEMU's
 * cpr-exec (10.2) makes exec the new command line once its migration to
 * a file completed.  Until then the update is pre-copy's, with the
 * switchover's point of no return (mig-session-source.c).  Then the guest
 * is the new QEMU's, in the same process, behind the same monitor path,
 * and there is no old copy to resume: a new QEMU that does not come up
 * is not known (8).  An exec that failed (QEMU's "execvp ... failed")
 * leaves the old QEMU running the guest again, its migration failed, its
 * mode still cpr-exec: that is QEMU's refusal (3), and the end puts the
 * mode back to normal (cpr_reset), or a later migrate would exec again.
 * Kept apart from cpr-transfer's states (mig-session-cpr.c): one process
 * instead of two, no attach, no quit.
 */
#include <stdio.h>
#include <string.h>

#include "mig-session.h"
#include "mig-session-source.h"

/* How long the new QEMU may take to say it runs the guest once the old
 * one completed (the exec, the reconnect, the load of the device state),
 * and how soon its run state is asked again meanwhile. */
#define EXEC_TIMEOUT		30.0
#define EXEC_REASK		0.05
/* The new QEMU binds the monitor's path again 20-50 ms after the exec
 * (reference/qemu-cpr-exec.md): connects are retried after 10 ms, then
 * twice as long each time up to 200 ms, within EXEC_TIMEOUT. */
#define EXEC_RECONNECT_FIRST	0.01
#define EXEC_RECONNECT_MAX	0.2

/* After the exec the new QEMU did not say that it runs the guest. */
static void
cpr_exec_unknown(struct session *s, const char *why)
{
	source_not_known(s);
	s->state = SS_CPR_EXEC;
	sess_fail(s, FAIL_UNKNOWN, "QEMU %s completed the update and exec'd "
	    "the new command line, but the new QEMU did not say that it runs "
	    "the guest (%s): no old copy is left to resume; where the guest "
	    "runs is not known: see the new QEMU's log and query-status, or "
	    "run update again with the same --status-file", s->cfg.qmp_path,
	    why);
}

/*
 * After the exec the QEMU process exited: the guest's RAM (its memfd) and
 * its device state went with it, and nothing runs the guest.  Not known
 * all the same (the process is the only judge of what it ran), with what
 * the operator can still do: its disks were flushed at the switchover.
 */
static void
cpr_exec_gone(struct session *s, const char *reason)
{
	source_not_known(s);
	s->state = SS_CPR_EXEC;
	sess_fail(s, FAIL_UNKNOWN, "QEMU %s completed the update and exec'd "
	    "the new command line, but the new QEMU's process has exited "
	    "(its monitor: %s): no old copy is left to resume and the guest's "
	    "memory went with the process; its disks hold what the guest "
	    "wrote before the pause (flushed at the switchover): see the new "
	    "QEMU's log for why it exited, then start the guest again from its "
	    "disks", s->cfg.qmp_path, reason);
}

/* QEMU said "execvp ... failed": the old QEMU runs the guest again. */
static void
cpr_exec_failed(struct session *s, const char *desc)
{
	if (s->failure != FAIL_NONE)
		sess_clear_failure(s);
	sess_fail(s, FAIL_CONTROL, "QEMU %s could not exec the new command "
	    "line (%s): the guest runs on the old QEMU", s->cfg.qmp_path,
	    desc);
}

/*
 * A failed migration's words, seen before SS_CPR_EXEC (the completed
 * status lasts a few ms): 1 when they are cpr-exec's failed execvp, which
 * ends the update as QEMU's refusal; 0 for any other failure.
 */
int
cpr_exec_refused(struct session *s, const char *desc)
{
	if (!s->cfg.cpr_exec || strncmp(desc, "execvp ", 7) != 0)
		return 0;
	cpr_exec_failed(s, desc);
	return 1;
}

/*
 * The guest's pause, which QEMU cannot say here: the old QEMU's figure
 * (its stop to its completion) leaves out the exec, the new binary's
 * start and its load, and its completed answer goes with the exec; the
 * new QEMU's query-migrate has none.  From the old QEMU's STOP to the new
 * QEMU's RESUME, as qmigrate received them; or, where the RESUME came
 * before its monitor was back, to its first "running" answer: at most.
 */
void
cpr_exec_pause_event(struct session *s, const struct sess_event *ev)
{
	if (!s->exec_closed) {
		/* The old QEMU: stopped for the switchover, or running again
		 * (a failed switchover, a failed exec). */
		s->exec_stop_t = ev->kind == SEV_STOPPED ? ev->t : 0;
		s->exec_resume_t = 0;
		s->exec_resume_seen = 0;
	} else if (ev->kind == SEV_RESUMED && s->exec_stop_t > 0 &&
	    !s->exec_resume_seen) {
		s->exec_resume_t = ev->t;
		s->exec_resume_seen = 1;
	}
}

/* The new QEMU said "running" (ev->t): the end of the pause, at most. */
static void
cpr_exec_running_seen(struct session *s, const struct sess_event *ev)
{
	if (s->exec_closed && s->exec_stop_t > 0 && s->exec_resume_t == 0)
		s->exec_resume_t = ev->t;
}

/* The update succeeded: its pause into the document, or why not known. */
static void
cpr_exec_pause_report(struct session *s)
{
	double ms = (s->exec_resume_t - s->exec_stop_t) * 1000;

	if (s->exec_stop_t == 0 || s->exec_resume_t < s->exec_stop_t) {
		sess_note(s, "the guest's pause in the update is not known "
		    "(the document has no downtimeMs): %s",
		    s->was_paused ? "the guest was paused before it" :
		    "the old QEMU's STOP was not seen (a re-run)");
		return;
	}
	sess_act(s, SA_ST_DOWNTIME)->value = (uint64_t)(ms + 0.5);
	if (s->exec_resume_seen)
		sess_log(s, 1, "the guest's pause: %.0f ms (the old QEMU's "
		    "STOP to the new QEMU's RESUME)", ms);
	else
		sess_note(s, "the guest's pause: at most %.0f ms (downtimeMs): "
		    "the old QEMU's STOP to the new QEMU's first \"running\" "
		    "answer; its RESUME came before its monitor was back", ms);
}

/* SS_CPR_EXEC, bounded by STIMER_NEW_QEMU from now. */
static void
cpr_exec_enter(struct session *s)
{
	sess_enter(s, SS_CPR_EXEC);
	sess_timer(s, STIMER_NEW_QEMU, EXEC_TIMEOUT);
	s->exec_ran = 0;
	s->exec_closed = 0;
	s->exec_backoff = 0;
	s->exec_cont = 0;
}

/* The old QEMU completed: the exec is awaited on the same monitor. */
void
cpr_exec_handoff(struct session *s)
{
	sess_log(s, 1, "QEMU %s completed the update: it execs the new "
	    "command line; waiting for the new QEMU's monitor",
	    s->cfg.qmp_path);
	cpr_exec_enter(s);
	sess_act(s, SA_QUERY_STATUS);
}

/*
 * A re-run (SETUP_ALREADY_DONE) of an update QEMU had completed, or whose
 * monitor it found gone (qemu_gone: the exec's ms, or a process gone): the
 * QEMU behind the monitor is asked, again after a reconnect, whether it
 * is the new one and runs the guest, as after a watched completion.
 */
void
cpr_exec_rerun(struct session *s, const struct sess_event *ev)
{
	sess_note(s, "re-attached to update %s after QEMU had %s: asking the "
	    "QEMU behind %s whether it is the new one and runs the guest",
	    ev->uid != NULL ? ev->uid : "?", ev->qemu_gone ? "closed its "
	    "monitor (the exec, or its process gone)" : "completed it",
	    s->cfg.qmp_path);
	s->t0 = ev->t;
	s->saw_active = 1;
	/* A pause from before the update stays (audit N14). */
	s->was_paused = ev->rec_paused;
	sess_phase(s, PHASE_RUNNING);
	if (!ev->qemu_gone) {
		cpr_exec_handoff(s);
		return;
	}
	cpr_exec_enter(s);
	s->exec_closed = 1;
	source_reconnect(s, ev);
}

/*
 * The monitor closed in the switchover (SS_SWITCHOVER): with cpr-exec that
 * is the exec, whose completed status (a few ms) went unseen, and what
 * answers on the path next is the new QEMU, or no one.  Returns 1 when
 * the update took the event (the reconnect is SS_CPR_EXEC's).
 */
int
cpr_exec_switchover_closed(struct session *s, const struct sess_event *ev)
{
	if (!s->cfg.cpr_exec)
		return 0;
	sess_log(s, 1, "QEMU %s: the monitor closed in the switchover: QEMU "
	    "exec'd the new command line; waiting for the new QEMU's monitor",
	    s->cfg.qmp_path);
	cpr_exec_enter(s);
	s->exec_closed = 1;
	source_reconnect(s, ev);
	return 1;
}

/*
 * SS_RECONNECT's events when it came from SS_CPR_EXEC (the monitor closed
 * at the exec): a connect refused is tried again soon, a QEMU whose
 * process exited is not known at once, and STIMER_NEW_QEMU bounds it all.
 * Returns 1 when the event was the update's, 0 for SS_RECONNECT's own.
 */
int
cpr_exec_reconnect_event(struct session *s, const struct sess_event *ev)
{
	char why[SESS_REASON_MAX];

	if (s->back_to != SS_CPR_EXEC)
		return 0;
	switch (ev->kind) {
	case SEV_QMP_CLOSED:
		if (ev->qemu_gone) {
			cpr_exec_gone(s, ev->reason != NULL ? ev->reason :
			    "closed");
			break;
		}
		s->exec_backoff = s->exec_backoff == 0 ? EXEC_RECONNECT_FIRST :
		    s->exec_backoff * 2 > EXEC_RECONNECT_MAX ?
		    EXEC_RECONNECT_MAX : s->exec_backoff * 2;
		sess_timer(s, STIMER_RECONNECT, s->exec_backoff);
		return 1;
	case SEV_TIMER:
		if (ev->timer != STIMER_NEW_QEMU)
			return 0;
		snprintf(why, sizeof why, "its monitor %s could not be reached "
		    "within %.0f s", s->cfg.qmp_path, EXEC_TIMEOUT);
		cpr_exec_unknown(s, why);
		break;
	default:
		return 0;
	}
	return 1;
}

void
state_cpr_exec(struct session *s, const struct sess_event *ev)
{
	char reason[SESS_REASON_MAX];

	switch (ev->kind) {
	case SEV_SAMPLE:
		s->silent_since = 0;
		if (ev->mi->status == QMS_FAILED && s->exec_closed) {
			/* The new QEMU's load, or an old QEMU seen again
			 * after a lost connection: which is not known. */
			snprintf(reason, sizeof reason, "its migration failed: "
			    "%s", ev->mi->error_desc[0] != '\0' ?
			    ev->mi->error_desc : "no reason given");
			cpr_exec_unknown(s, reason);
		} else if (ev->mi->status == QMS_FAILED) {
			cpr_exec_failed(s, ev->mi->error_desc[0] != '\0' ?
			    ev->mi->error_desc : "no reason given");
		} else if (ev->mi->status == QMS_COMPLETED && s->exec_ran) {
			/* Running, and asked after that: the new QEMU's. */
			sess_log(s, 1, "the guest runs on the new QEMU (the "
			    "same process, %s)", s->cfg.qmp_path);
			cpr_exec_pause_report(s);
			source_succeed(s);
		} else if (ev->mi->status == QMS_COMPLETED &&
		    s->exec_cont == 1) {
			/* Its load completed, asked after the pause: cont. */
			sess_log(s, 1, "the new QEMU %s loaded the guest and "
			    "waits (-S): cont, as the guest ran before the "
			    "update", s->cfg.qmp_path);
			s->exec_cont = 2;
			s->new_conts++;
			sess_qmp(s, SC_CONT, 0, 0);
		} else if (ev->mi->status == QMS_COMPLETED) {
			/* Completed, the run state asked before: again. */
			if (s->exec_cont == 1)
				s->exec_cont = 0;
			s->exec_ran = 0;
			sess_act(s, SA_QUERY_STATUS);
		} else {
			/*
			 * Neither completed nor failed: its load under way, or
			 * a guest booted afresh (a new QEMU without -incoming:
			 * running, no migration) that never will.  Asked again
			 * in a while, as while loading, within STIMER_NEW_QEMU:
			 * at once, this was a loop of queries for 30 s
			 * (sim-real --update-exec).
			 */
			if (s->exec_cont == 1)
				s->exec_cont = 0;
			s->exec_ran = 0;
			sess_timer(s, STIMER_HANDOFF, EXEC_REASK);
		}
		break;
	case SEV_RUN_STATE:
		if (ev->ri->state == RUN_RUNNING || (ev->ri->state ==
		    RUN_PAUSED && s->was_paused)) {
			/*
			 * The new QEMU, or the old one running the guest again
			 * after a failed exec: the migration's status, asked
			 * after this, tells which.
			 */
			s->exec_ran = 1;
			if (ev->ri->state == RUN_RUNNING)
				cpr_exec_running_seen(s, ev);
			sess_act(s, SA_POLL);
		} else if ((ev->ri->state == RUN_PAUSED ||
		    ev->ri->state == RUN_PRELAUNCH) && !s->was_paused) {
			/*
			 * Never the old QEMU (postmigrate once completed): the
			 * new one, started with -S, waits to be told; cont only
			 * once its migration says its load completed (a failed
			 * load's guest must not run).  A guest paused before
			 * the update stays paused (above, audit N14).
			 */
			s->exec_ran = 0;
			s->exec_cont = 1;
			sess_act(s, SA_POLL);
		} else if (ev->ri->state == RUN_POSTMIGRATE ||
		    ev->ri->state == RUN_PRELAUNCH ||
		    ev->ri->state == RUN_INMIGRATE ||
		    ev->ri->state == RUN_FINISH_MIGRATE ||
		    ev->ri->state == RUN_RESTORE_VM) {
			/* Before the exec, or the new QEMU loading. */
			sess_timer(s, STIMER_HANDOFF, EXEC_REASK);
		} else {
			snprintf(reason, sizeof reason, "its run state is %s",
			    ev->ri->state_name);
			cpr_exec_unknown(s, reason);
		}
		break;
	case SEV_QMP_DONE:
		if (ev->cmd != SC_CONT || s->exec_cont != 2)
			break;
		s->exec_cont = 0;
		if (ev->outcome == SO_ANSWERED) {
			/* Running now: its migration's status confirms. */
			s->exec_ran = 1;
			cpr_exec_running_seen(s, ev);
			sess_act(s, SA_POLL);
			break;
		}
		/* Refused, or no answer: its run state says, again. */
		sess_log(s, 2, "the new QEMU %s: cont: %s", s->cfg.qmp_path,
		    ev->reason != NULL ? ev->reason : "no reason given");
		sess_timer(s, STIMER_HANDOFF, EXEC_REASK);
		break;
	case SEV_QMP_CLOSED:
		/* The exec: the new QEMU binds the same path again. */
		s->exec_ran = 0;
		s->exec_cont = 0;
		s->exec_closed = 1;
		s->exec_backoff = 0;
		source_reconnect(s, ev);
		break;
	case SEV_QMP_SILENT:
		if (sess_monitor_silent(s, ev))
			cpr_exec_unknown(s, "its monitor stopped answering");
		break;
	case SEV_TIMER:
		if (ev->timer == STIMER_HANDOFF)
			sess_act(s, SA_QUERY_STATUS);
		else if (ev->timer == STIMER_NEW_QEMU) {
			snprintf(reason, sizeof reason, "no word within %.0f s",
			    EXEC_TIMEOUT);
			cpr_exec_unknown(s, reason);
		}
		break;
	case SEV_SIGNAL:
	case SEV_DEADLINE:
		source_abort_event(s, ev);
		break;
	default:
		break;
	}
}
