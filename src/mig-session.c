/*
 * mig-session.c: the session's entry points (mig-session.h): its start,
 * its controller, and the step, dispatched to the side's transition
 * table (mig-session-source.c or mig-session-target.c), which build their
 * actions with mig-session-act.c.  Nothing here does I/O.
 */
#include <string.h>

#include "mig-session.h"

void
session_init(struct session *s, const struct sess_config *cfg)
{
	memset(s, 0, sizeof *s);
	s->cfg = *cfg;
	s->end = cfg->role == SESS_SOURCE ? source_end : target_end;
	s->state = SS_SETUP;
	s->phase = PHASE_PENDING;
	s->moved_t = -1;
	s->postcopy_said = -1;
	ctl_init(&s->ctl, CTL_ADAPTIVE, &(struct ctl_config){ 0 });
}

void
session_set_controller(struct session *s, enum ctl_kind kind,
    const struct ctl_config *cfg)
{
	ctl_init(&s->ctl, kind, cfg);
}

int
session_done(const struct session *s)
{
	return s->state == SS_DONE;
}

int
session_setup_abandoned(const struct session *s)
{
	return s->state == SS_SETUP && s->pending.asked;
}

/* The table of README's "Exit statuses", from the session's own record. */
int
session_exit_code(const struct session *s)
{
	return mig_exit_code(s->failure, s->phase);
}

/*
 * One event in, s->acts out (s->nacts of them, to be carried out in
 * order).
 */
void
session_step(struct session *s, const struct sess_event *ev)
{
	s->nacts = 0;
	if (s->state == SS_DONE)
		return;
	if (s->cfg.role == SESS_SOURCE)
		source_step(s, ev);
	else
		target_step(s, ev);
}
