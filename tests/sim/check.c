/*
 * check.c: the promise, checked after every happening and at the end of
 * each schedule (README, "What qmigrate promises when things break", and
 * its exit status table):
 * - never both QEMUs running the guest;
 * - a side's exit status and its phase agree (Succeeded is 0 and only 0);
 * - a finished side's exit status names where the guest is once the
 *   QEMUs have settled: 0 on the target; 2, 3, 4, 5 running on the source
 *   (post-copy never began); 6 lost (post-copy began and the target never
 *   completed); 8 only when something hid the outcome (a monitor that
 *   did not answer or closed, a stopped or killed QEMU, a killed peer, or
 *   over tls: any of these on the peer or the link);
 * - every side ends within its bound of simulated time;
 * - no step runs out of action room (exec.c counts it).
 */
#include <stdio.h>
#include <string.h>

#include "sim.h"

#define SIDE_BOUND	900.0	/* seconds of simulated time per run */

/*
 * The audit's window (../shared/audits/session-2026-11-27.md) a violation
 * falls in, named from what the schedule saw; "other" when none fits.
 * Only the first violation of a schedule is named.
 */
static void
name_window(struct world *w, enum viol v, int role)
{
	const struct side	*sd = &w->sd[role];
	unsigned		 saw = w->saw;
	const char		*d = "other";

	if (w->window[0] != '\0')
		return;
	if ((saw & SAW_QUEUED_UNLISTEN) && role == TGT && w->q[TGT].got_guest &&
	    (v == V_BOTH_RUN || v == V_EXIT_SOURCE_NOT_RUNNING)) {
		/* "nothing arrived" while a source waited to be accepted */
		snprintf(w->window, sizeof w->window, "D27");
		return;
	}
	switch (v) {
	case V_BOTH_RUN:
		if (saw & SAW_TGT_CONT_LOST)
			d = "D1b";
		else if ((saw & SAW_TGT_EARLY_ABORT) && w->q[TGT].got_guest)
			d = "N1";	/* abort in LISTEN: "nothing moved" */
		else if (saw & SAW_TGT_DEADLINE_EARLY)
			d = "D6";
		else if ((saw & SAW_ANSWER_FAILED) && (saw & SAW_TGT_MON_LOST))
			d = "D1";
		else if (saw & SAW_ANSWER_FAILED)
			d = "D1-other";
		break;
	case V_EXIT_PHASE:
		if (role == TGT && sd->exit_code == 5 && (saw & SAW_TGT_SIGNAL))
			d = "D4";
		break;
	case V_EXIT_0_NOT_TARGET:
		if (role == SRC && (saw & SAW_ALREADY_DONE))
			d = "D19";
		else if (role == SRC && w->k.tls &&
		    !(saw & SAW_RUNNING_ANSWERED))
			d = "C1";	/* no "running": QEMU trusted */
		break;
	case V_EXIT_SOURCE_NOT_RUNNING:
		if (role == SRC && sd->exit_code == 2 &&
		    (saw & SAW_NOT_MIGRATABLE))
			d = "D5";
		else if (role == SRC && (saw & SAW_SRC_MIGRATE_LOST) &&
		    (sd->exit_code == 3 || sd->exit_code == 5))
			d = "D3";
		else if (role == SRC && (saw & SAW_SRC_CONT_LOST))
			d = "D11";
		else if (role == SRC && (saw & SAW_CLOSE_RECORD_PAUSED))
			d = "D12";	/* closed record, guest left paused */
		else if (role == SRC && (saw & SAW_RERUN_FRESH_AFTER_8))
			d = "D5b";	/* re-run after 8: a new migration */
		else if (role == TGT && (saw & SAW_TGT_DEADLINE_EARLY))
			d = "D6";
		else if (role == TGT && (saw & SAW_TGT_CONT_LOST))
			d = "D1b";
		else if (role == TGT && sd->exit_code == 5 &&
		    (saw & SAW_TGT_SIGNAL))
			d = "D4";
		else if (role == TGT && (saw & SAW_TGT_EARLY_ABORT) &&
		    w->q[TGT].got_guest)
			d = "N1";
		else if (role == TGT && (saw & SAW_TGT_MON_LOST))
			d = "D1";
		else if (role == TGT && (saw & SAW_SRC_MIGRATE_LOST))
			d = "D3";
		break;
	case V_EXIT_6_NOT_LOST:
		/* post-copy never began: the mode was set when it was asked */
		d = w->q[SRC].postcopy_started ? "D9" : "D7b";
		break;
	case V_NO_END:
		if (role == SRC && (sd->sess.state == SS_CANCELLING ||
		    sd->sess.state == SS_UNCANCELLED) && (saw & SAW_CANCEL_LOST))
			d = "D8";
		else if (role == SRC && (saw & SAW_POSTCOPY_LOST))
			d = "D7";
		else if (role == TGT && (saw & SAW_SRC_MIGRATE_LOST))
			d = "D3";
		else if (role == TGT && (saw & SAW_POSTCOPY_LOST))
			d = "D7";
		else if (role == TGT && sd->sess.state == SS_ARRIVED)
			d = "T1";	/* its query-status lost, never again */
		break;
	default:
		break;
	}
	snprintf(w->window, sizeof w->window, "%s", d);
}

/*
 * A target with no --timeout to which nothing came: it waits for a source
 * as a server does, and no bound applies.
 */
static int
waiting_target(const struct world *w, int role)
{
	const struct session *s = &w->sd[role].sess;

	if (role != TGT)
		return 0;
	/*
	 * A pre-copy nobody drives (the source's qmigrate ended) that never
	 * converges: incoming's --timeout bounds only the wait for a stream
	 * (README), so it waits as long as QEMU migrates.
	 */
	if ((!w->sd[SRC].alive || w->sd[SRC].finished) &&
	    w->q[SRC].ms == QMS_ACTIVE && w->q[SRC].converge_at < 0)
		return 1;
	return w->k.tgt_timeout == 0 && !s->started && (s->state == SS_SETUP ||
	    s->state == SS_OFFERED_WAIT || s->state == SS_LISTEN);
}

void
check_step(struct world *w)
{
	int r;

	if (!w->both_ran && qemu_runs_guest(w, SRC) &&
	    qemu_runs_guest(w, TGT)) {
		w->both_ran = 1;
		name_window(w, V_BOTH_RUN, TGT);
		violation(w, V_BOTH_RUN, "both QEMUs run the guest (source "
		    "exit %s, target exit %s)",
		    w->sd[SRC].finished ? "given" : "not yet",
		    w->sd[TGT].finished ? "given" : "not yet");
	}
	for (r = 0; r < 2; r++)
		if (w->sd[r].alive && !w->sd[r].finished &&
		    w->now - w->sd[r].started > SIDE_BOUND && !w->sd[r].late &&
		    !waiting_target(w, r)) {
			w->sd[r].late = 1;
			name_window(w, V_NO_END, r);
			violation(w, V_NO_END, "%s has not ended %.0f s after "
			    "it started (state %d)", r == SRC ? "source" :
			    "target", SIDE_BOUND, w->sd[r].sess.state);
		}
}

void
check_finish(struct world *w, int role)
{
	struct side *sd = &w->sd[role];

	if ((sd->sess.phase == PHASE_SUCCEEDED) != (sd->exit_code == 0)) {
		name_window(w, V_EXIT_PHASE, role);
		violation(w, V_EXIT_PHASE, "%s: exit %d with phase %d",
		    role == SRC ? "source" : "target", sd->exit_code,
		    sd->sess.phase);
	}
}

static const char *
where(const struct world *w)
{
	const struct qemu *s = &w->q[SRC], *t = &w->q[TGT];

	if (qemu_runs_guest(w, SRC) && qemu_runs_guest(w, TGT))
		return "runs on both";
	if (t->alive && t->got_guest && t->ms == QMS_COMPLETED)
		return qemu_runs_guest(w, TGT) ? "runs on the target" :
		    "on the target, paused";
	if (s->postcopy_started)
		return "lost (post-copy began, the target did not complete)";
	if (qemu_runs_guest(w, SRC))
		return "runs on the source";
	if (s->alive)
		return "on the source, not running";
	return "nowhere (the source QEMU is gone)";
}

static void
check_exit(struct world *w, int role)
{
	const struct side	*sd = &w->sd[role];
	const struct qemu	*s = &w->q[SRC], *t = &w->q[TGT];
	const char		*name = role == SRC ? "source" : "target";
	int			 on_target, on_source, lost, hidden;

	on_target = t->alive && t->got_guest && t->ms == QMS_COMPLETED;
	on_source = qemu_runs_guest(w, SRC) && !s->postcopy_started;
	lost = s->postcopy_started && !on_target;
	hidden = w->trouble[role] || (w->k.tls && w->trouble[!role]);
	switch (sd->exit_code) {
	case 0:
		/* A killed target QEMU took the guest: not qmigrate's doing. */
		if (!t->alive && w->faults[F_QEMU_KILL] > 0)
			break;
		if (!on_target) {
			name_window(w, V_EXIT_0_NOT_TARGET, role);
			violation(w, V_EXIT_0_NOT_TARGET, "%s exit 0, but the "
			    "guest is %s", name, where(w));
		}
		break;
	case 2:
	case 3:
	case 4:
	case 5:
		/* A killed QEMU took the guest: not qmigrate's doing. */
		if (role == SRC && !s->alive && w->faults[F_QEMU_KILL] > 0)
			break;
		if (role == TGT && !t->alive && w->faults[F_QEMU_KILL] > 0)
			break;
		/* The target vouches only that it does not hold the guest. */
		if ((role == TGT && (on_target || lost)) ||
		    (role == SRC && !on_source)) {
			name_window(w, V_EXIT_SOURCE_NOT_RUNNING, role);
			violation(w, V_EXIT_SOURCE_NOT_RUNNING, "%s exit %d, "
			    "but the guest is %s", name, sd->exit_code,
			    where(w));
		}
		break;
	case 6:
		if (!lost) {
			name_window(w, V_EXIT_6_NOT_LOST, role);
			violation(w, V_EXIT_6_NOT_LOST, "%s exit 6, but the "
			    "guest is %s", name, where(w));
		}
		break;
	case 8:
		if (!hidden) {
			name_window(w, V_EXIT_8_KNOWN, role);
			if ((w->saw & SAW_TGT_EARLY_ABORT) && w->window[0] == 'o')
				snprintf(w->window, sizeof w->window, "N1");
			violation(w, V_EXIT_8_KNOWN, "%s exit 8 with nothing "
			    "that hid the outcome; the guest is %s", name,
			    where(w));
		}
		break;
	default:
		name_window(w, V_EXIT_OTHER, role);
		violation(w, V_EXIT_OTHER, "%s exit %d; the guest is %s", name,
		    sd->exit_code, where(w));
		break;
	}
}

void
check_end(struct world *w)
{
	int r;

	for (r = 0; r < 2; r++) {
		if (w->sd[r].finished && !w->sd[r].unreachable)
			check_exit(w, r);
		else if (w->sd[r].alive && !w->sd[r].finished &&
		    !w->sd[r].late && !waiting_target(w, r)) {
			name_window(w, V_NO_END, r);
			violation(w, V_NO_END, "%s never ended (state %d)",
			    r == SRC ? "source" : "target",
			    w->sd[r].sess.state);
		}
	}
}
