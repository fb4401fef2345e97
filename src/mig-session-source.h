/*
 * mig-session-source.h: what the source table's two files share.  The
 * table is one (source_step in mig-session-source.c dispatches every
 * state); the update's states live in mig-session-cpr.c so that each
 * file holds one concern.  Private to those two files.
 */
#ifndef MIG_SESSION_SOURCE_H
#define MIG_SESSION_SOURCE_H

#include "mig-session.h"

/* cpr: the new QEMU's monitor appears 34-75 ms after migrate (TCG, an
 * idle host); how long it may take on a loaded one. */
#define NEW_QEMU_APPEARS	20.0

/* mig-session-source.c */
void	source_succeed(struct session *);
void	source_not_known(struct session *);
void	source_abort(struct session *, double, enum mig_failure, int,
	    const char *);
void	source_abort_event(struct session *, const struct sess_event *);
void	source_reconnect(struct session *, const struct sess_event *);

/* mig-session-cpr.c */
void	cpr_handoff(struct session *);
void	cpr_reattach(struct session *);
void	cpr_new_event(struct session *, const struct sess_event *);
void	state_cpr_handoff(struct session *, const struct sess_event *);
void	state_cpr_quit(struct session *, const struct sess_event *);

/* mig-session-cpr-exec.c */
void	cpr_exec_handoff(struct session *);
int	cpr_exec_refused(struct session *, const char *);
void	cpr_exec_rerun(struct session *, const struct sess_event *);
void	cpr_exec_pause_event(struct session *, const struct sess_event *);
int	cpr_exec_switchover_closed(struct session *,
	    const struct sess_event *);
int	cpr_exec_reconnect_event(struct session *, const struct sess_event *);
void	state_cpr_exec(struct session *, const struct sess_event *);

#endif
