/*
 * mig-session-cpr.c: the source table's update states (mig-session.h):
 * SS_CPR_ATTACH, SS_CPR_HANDOFF, SS_CPR_QUIT, where `qmigrate update`
 * hands the guest from the old QEMU to a new one on this host.  Kept
 * apart from pre-copy's states (mig-session-source.c), which it shares
 * the abort, the success and the failures with through
 * mig-session-source.h.
 */
#include <stdio.h>

#include "mig-session.h"
#include "mig-session-source.h"

/* cpr: how long the new QEMU may take to run the guest after the old one
 * completed, and to be asked again meanwhile. */
#define HANDOFF_TIMEOUT		30.0
#define HANDOFF_REASK		0.05
/* cpr: how long the old QEMU gets to quit once the new one runs. */
#define QUIT_TIMEOUT		10.0

/* ---- cpr-transfer: SS_CPR_ATTACH, SS_CPR_HANDOFF, SS_CPR_QUIT ------ */

/*
 * `qmigrate update`: the old QEMU migrates to a new QEMU on this host by
 * cpr-transfer.  Until the old QEMU completes, the guest runs there and
 * every failure is pre-copy's (cancelled, or QEMU failed: it runs on).
 * Once it completed, its copy is stopped for good (postmigrate): the
 * guest is the new QEMU's, which runs it (cont if it waits), and only
 * then is the old QEMU told to quit.  No word from the new QEMU then
 * leaves the old one's copy paused and the outcome not known (8): never
 * both running.
 */

/* After completion the new QEMU could not say that it runs the guest. */
static void
cpr_unknown(struct session *s, const char *why)
{
	source_not_known(s);
	sess_fail(s, FAIL_UNKNOWN, "the old QEMU %s %s but the new QEMU %s did "
	    "not say that it runs the guest (%s): %s; where the guest runs is "
	    "not known; see the new QEMU's query-status, or run update again "
	    "with the same --status-file", s->cfg.qmp_path, s->old_gone ?
	    "is gone" : "completed the update", s->cfg.new_qmp_path, why,
	    s->old_gone ? "no old copy is left to resume" : "the old QEMU "
	    "keeps its copy paused (postmigrate)");
}

/* Asks the new QEMU's run state (its monitor is up). */
static void
cpr_ask_new(struct session *s)
{
	s->new_tries++;
	sess_act(s, SA_QUERY_STATUS)->new_qemu = 1;
}

/*
 * The old QEMU completed: the new QEMU's run state decides, within
 * HANDOFF_TIMEOUT.
 */
void
cpr_handoff(struct session *s)
{
	if (!s->old_gone)
		sess_log(s, 1, "the old QEMU completed the update: asking the "
		    "new QEMU %s whether it runs the guest",
		    s->cfg.new_qmp_path);
	sess_enter(s, SS_CPR_HANDOFF);
	sess_timer(s, STIMER_NEW_QEMU, HANDOFF_TIMEOUT);
	if (s->new_up)
		cpr_ask_new(s);
	else
		sess_act(s, SA_NEW_CONNECT)->seconds = HANDOFF_TIMEOUT / 2;
}

/* The guest runs on the new QEMU: the old one is stopped for good. */
static void
cpr_quit_old(struct session *s)
{
	if (s->old_gone) {
		/* The killed run's quit, or the old QEMU's own end. */
		sess_log(s, 1, "the guest runs on the new QEMU %s; the old "
		    "QEMU %s is gone already", s->cfg.new_qmp_path,
		    s->cfg.qmp_path);
		source_succeed(s);
		return;
	}
	sess_log(s, 1, "the guest runs on the new QEMU %s: stopping the old "
	    "QEMU %s", s->cfg.new_qmp_path, s->cfg.qmp_path);
	sess_enter(s, SS_CPR_QUIT);
	sess_qmp(s, SC_QUIT, 0, 0);
	sess_timer(s, STIMER_FENCE, QUIT_TIMEOUT);
}

/*
 * A re-run found the old QEMU still migrating (the killed run's migrate):
 * the new QEMU is attached again, and told migrate-incoming (--defer)
 * unless it already was (its refusal then says so).
 */
void
cpr_reattach(struct session *s)
{
	s->new_rerun = 1;
	sess_enter(s, SS_CPR_ATTACH);
	sess_act(s, SA_NEW_CONNECT)->seconds = NEW_QEMU_APPEARS;
}

/*
 * Whether the new QEMU is being attached: CPR_ATTACH, or the old QEMU's
 * monitor reconnecting from there (the new QEMU's monitor appears 34-75
 * ms after migrate, inside the reconnect's first second: its events are
 * the attach's all the same, audit N6).
 */
static int
cpr_attaching(const struct session *s)
{
	return s->state == SS_CPR_ATTACH || (s->state == SS_RECONNECT &&
	    s->back_to == SS_CPR_ATTACH);
}

/* The new QEMU is attached: pre-copy's states watch the old one. */
static void
cpr_attached(struct session *s)
{
	if (s->state == SS_RECONNECT)
		s->back_to = SS_PRECOPY;	/* once the old monitor is back */
	else
		sess_enter(s, SS_PRECOPY);
}

/* The new QEMU's monitor, while the old QEMU still migrates. */
static void
cpr_attach_new(struct session *s, const struct sess_event *ev)
{
	char reason[SESS_REASON_MAX];
	const char *why = ev->reason != NULL ? ev->reason : "no reason given";

	switch (ev->kind) {
	case SEV_QMP_UP:
		s->new_up = 1;
		sess_log(s, 1, "the new QEMU %s answers", s->cfg.new_qmp_path);
		if (!cpr_attaching(s))
			break;
		if (s->cfg.cpr_defer)
			sess_qmp(s, SC_MIGRATE_INCOMING, 0, 0)->new_qemu = 1;
		else
			cpr_attached(s);
		break;
	case SEV_QMP_DONE:
		if (ev->cmd != SC_MIGRATE_INCOMING || !cpr_attaching(s))
			break;
		if (ev->outcome == SO_ANSWERED) {
			cpr_attached(s);
			break;
		}
		if (ev->outcome == SO_REFUSED && s->new_rerun) {
			sess_note(s, "the new QEMU %s refused migrate-incoming "
			    "(%s): the killed run's had reached it",
			    s->cfg.new_qmp_path, why);
			cpr_attached(s);
			break;
		}
		/* The old QEMU has not completed: cancelling is safe. */
		snprintf(reason, sizeof reason, "the new QEMU %s: "
		    "migrate-incoming: %s", s->cfg.new_qmp_path, why);
		source_abort(s, ev->t, FAIL_DATA, 0, reason);
		break;
	case SEV_QMP_CLOSED:
		s->new_up = 0;
		if (!cpr_attaching(s)) {
			sess_log(s, 2, "the new QEMU %s: %s: the old QEMU's "
			    "migration says what became of it",
			    s->cfg.new_qmp_path, why);
			break;
		}
		snprintf(reason, sizeof reason, "the new QEMU's monitor %s: %s",
		    s->cfg.new_qmp_path, why);
		source_abort(s, ev->t, FAIL_DATA, 0, reason);
		break;
	default:
		break;
	}
}

/* SS_CPR_HANDOFF: what the new QEMU says after the old one completed. */
static void
cpr_handoff_new(struct session *s, const struct sess_event *ev)
{
	const char *why = ev->reason != NULL ? ev->reason : "no reason given";
	char reason[SESS_REASON_MAX];

	switch (ev->kind) {
	case SEV_QMP_UP:
		s->new_up = 1;
		cpr_ask_new(s);
		break;
	case SEV_RUN_STATE:
		if (ev->ri->state == RUN_RUNNING) {
			cpr_quit_old(s);
		} else if (ev->ri->state == RUN_PAUSED && s->was_paused) {
			/* Loaded, paused as it was on the old QEMU. */
			sess_note(s, "the guest was paused on the old QEMU "
			    "before the update: it stays paused on the new QEMU "
			    "%s (cont it there to run it)", s->cfg.new_qmp_path);
			cpr_quit_old(s);
		} else if (ev->ri->state == RUN_PAUSED ||
		    ev->ri->state == RUN_PRELAUNCH) {
			/* Loaded, and waiting to be told (-S). */
			s->new_conts++;
			sess_qmp(s, SC_CONT, 0, 0)->new_qemu = 1;
		} else if (ev->ri->state == RUN_INMIGRATE ||
		    ev->ri->state == RUN_FINISH_MIGRATE ||
		    ev->ri->state == RUN_RESTORE_VM) {
			sess_timer(s, STIMER_HANDOFF, HANDOFF_REASK);
		} else {
			snprintf(reason, sizeof reason, "its run state is %s",
			    ev->ri->state_name);
			cpr_unknown(s, reason);
		}
		break;
	case SEV_QMP_DONE:
		if (ev->cmd != SC_CONT)
			break;
		if (ev->outcome == SO_ANSWERED) {
			cpr_quit_old(s);
			break;
		}
		/* Refused, or no answer: its run state says. */
		sess_log(s, 2, "the new QEMU %s: cont: %s", s->cfg.new_qmp_path,
		    why);
		sess_timer(s, STIMER_HANDOFF, HANDOFF_REASK);
		break;
	case SEV_QMP_SILENT:
		sess_log(s, 2, "the new QEMU %s: %s", s->cfg.new_qmp_path, why);
		sess_timer(s, STIMER_HANDOFF, HANDOFF_REASK);
		break;
	case SEV_QMP_CLOSED:
		/*
		 * Gone or not, it may have run the guest before it went
		 * (QEMU's "completed" on the old side says nothing of the
		 * new side's load), and the RAM is shared: resuming the old
		 * copy could run it on pages the new one changed.
		 */
		s->new_up = 0;
		snprintf(reason, sizeof reason, "its monitor: %s%s", why,
		    ev->qemu_gone ? "; its process has exited: see its log" :
		    "");
		cpr_unknown(s, reason);
		break;
	default:
		break;
	}
}

void
state_cpr_handoff(struct session *s, const struct sess_event *ev)
{
	switch (ev->kind) {
	case SEV_TIMER:
		if (ev->timer == STIMER_HANDOFF && s->new_up)
			cpr_ask_new(s);
		else if (ev->timer == STIMER_NEW_QEMU)
			cpr_unknown(s, "no answer within 30 s");
		break;
	case SEV_SIGNAL:
	case SEV_DEADLINE:
		source_abort_event(s, ev);
		break;
	default:
		/* The old QEMU's monitor is not needed until quit. */
		break;
	}
}

void
state_cpr_quit(struct session *s, const struct sess_event *ev)
{
	const char *why = ev->reason != NULL ? ev->reason : "no reason given";

	switch (ev->kind) {
	case SEV_QMP_DONE:
		if (ev->cmd != SC_QUIT)
			break;
		if (ev->outcome == SO_NO_ANSWER)
			break;	/* its monitor closing, or STIMER_FENCE, says */
		if (ev->outcome == SO_ANSWERED)
			sess_log(s, 1, "the old QEMU %s quits", s->cfg.qmp_path);
		else
			sess_note(s, "the old QEMU %s refused quit (%s): it stays "
			    "paused in postmigrate; stop it", s->cfg.qmp_path,
			    why);
		source_succeed(s);
		break;
	case SEV_QMP_CLOSED:
		/* QEMU exits on quit before its answer, at times. */
		sess_log(s, 1, "the old QEMU %s quit", s->cfg.qmp_path);
		source_succeed(s);
		break;
	case SEV_TIMER:
		if (ev->timer != STIMER_FENCE)
			break;
		sess_note(s, "the old QEMU %s did not answer quit within %.0f "
		    "s: it stays paused in postmigrate; stop it",
		    s->cfg.qmp_path, QUIT_TIMEOUT);
		source_succeed(s);
		break;
	case SEV_SIGNAL:
	case SEV_DEADLINE:
		source_abort_event(s, ev);
		break;
	default:
		break;
	}
}

/* Every event of the new QEMU's monitor, whatever the state. */
void
cpr_new_event(struct session *s, const struct sess_event *ev)
{
	switch (s->state) {
	case SS_CPR_ATTACH:
	case SS_PRECOPY:
		cpr_attach_new(s, ev);
		break;
	case SS_RECONNECT:
		if (s->back_to == SS_CPR_ATTACH || s->back_to == SS_PRECOPY)
			cpr_attach_new(s, ev);
		else if (ev->kind == SEV_QMP_UP || ev->kind == SEV_QMP_CLOSED)
			s->new_up = ev->kind == SEV_QMP_UP;
		break;
	case SS_CPR_HANDOFF:
		cpr_handoff_new(s, ev);
		break;
	default:
		/* Cancelling, finishing: the new QEMU is the agent's now. */
		if (ev->kind == SEV_QMP_UP || ev->kind == SEV_QMP_CLOSED)
			s->new_up = ev->kind == SEV_QMP_UP;
		break;
	}
}
