/*
 * mig-watch.h: what the source and target sessions share: one libev loop,
 * the QMP connection, the status document, polling query-migrate on a
 * timer and on MIGRATION / MIGRATION_PASS events, signals, the deadline and
 * the final report.  A session embeds struct mig_watch first and sets the
 * callbacks.
 */
#ifndef MIG_WATCH_H
#define MIG_WATCH_H

#include <ev.h>

#include "qmigrate.h"

struct json_object;

struct mig_watch {
	struct ev_loop	*loop;
	struct qmp_conn	*qmp;
	struct status	 st;
	ev_timer	 poll;
	ev_timer	 deadline;
	ev_signal	 sigint;
	ev_signal	 sigterm;
	int		 query_inflight;
	int		 done;

	/* A query-migrate answer (borrowed). */
	void		(*on_sample)(struct mig_watch *, struct json_object *);
	/* Any event the session wants (borrowed data); may be NULL. */
	void		(*on_event)(struct mig_watch *, const char *name,
			    struct json_object *data);
	void		(*on_closed)(struct mig_watch *, const char *reason);
	void		(*on_signal)(struct mig_watch *, int signum);
	void		(*on_deadline)(struct mig_watch *);
};

const char *mig_status_of(struct json_object *reply);
void	mig_watch_init(struct mig_watch *, const char *role,
	    const char *status_file, int events);
int	mig_watch_connect(struct mig_watch *, const char *qmp_path);
void	mig_watch_run(struct mig_watch *, double deadline);
void	mig_watch_poll_now(struct mig_watch *);
void	mig_watch_finish(struct mig_watch *, enum mig_phase);
int	mig_watch_report(struct mig_watch *);
void	mig_watch_free(struct mig_watch *);

#endif
