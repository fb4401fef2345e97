/*
 * mig-watch.c: the event loop both sides of a migration run (see
 * mig-watch.h).  One loop, no threads: QMP, the poll timer, the deadline
 * and SIGINT/SIGTERM all arrive here.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmp.h"
#include "mig-watch.h"

#define POLL_SECONDS	0.5

#define WATCH_OF(ptr, field) \
	((struct mig_watch *)((char *)(ptr) - offsetof(struct mig_watch, field)))

/* QEMU's migration status in a query-migrate reply ("none" if absent). */
const char *
mig_status_of(json_object *reply)
{
	const char *status = json_str_at(reply, "status");

	return status != NULL ? status : "none";
}

void
mig_watch_init(struct mig_watch *w, const char *role, const char *status_file,
    int events)
{
	memset(w, 0, sizeof *w);
	w->loop = ev_loop_new(EVFLAG_AUTO);
	if (w->loop == NULL)
		fatalx("cannot create an event loop");
	status_init(&w->st, role, status_file, events);
}

static void
on_query(struct qmp_conn *conn, json_object *reply, const char *error_class,
    const char *error, void *arg)
{
	struct mig_watch *w = arg;

	w->query_inflight = 0;
	if (w->done)
		return;
	if (error != NULL) {
		if (!qmp_is_closed(conn))
			log_warnx("query-migrate: %s", error);
		return;
	}
	w->on_sample(w, reply);
}

/* Sends query-migrate unless one is already on its way. */
void
mig_watch_poll_now(struct mig_watch *w)
{
	char *cause = NULL;

	if (w->query_inflight || w->done || qmp_is_closed(w->qmp))
		return;
	if (qmp_send(w->qmp, "query-migrate", NULL, 10, on_query, w,
	    &cause) != 0) {
		log_warnx("query-migrate: %s", cause);
		free(cause);
		return;
	}
	w->query_inflight = 1;
}

static void
on_poll_timer(struct ev_loop *loop, ev_timer *t, int revents)
{
	mig_watch_poll_now(WATCH_OF(t, poll));
}

static void
on_deadline_timer(struct ev_loop *loop, ev_timer *t, int revents)
{
	struct mig_watch *w = WATCH_OF(t, deadline);

	if (w->on_deadline != NULL)
		w->on_deadline(w);
	else {
		status_fail(&w->st, FAIL_CONTROL, "no result within the "
		    "--timeout deadline");
		mig_watch_finish(w, PHASE_FAILED);
	}
}

static void
on_sigint(struct ev_loop *loop, ev_signal *s, int revents)
{
	struct mig_watch *w = WATCH_OF(s, sigint);

	w->on_signal(w, SIGINT);
}

static void
on_sigterm(struct ev_loop *loop, ev_signal *s, int revents)
{
	struct mig_watch *w = WATCH_OF(s, sigterm);

	w->on_signal(w, SIGTERM);
}

/* Every state change and pass is worth a sample at once. */
static void
on_event(struct qmp_conn *conn, const char *name, json_object *data,
    double timestamp, void *arg)
{
	struct mig_watch *w = arg;

	log_debug("event %s %s", name, data != NULL ?
	    json_object_to_json_string(data) : "");
	if (w->on_event != NULL)
		w->on_event(w, name, data);
	if (strcmp(name, "MIGRATION") == 0 ||
	    strcmp(name, "MIGRATION_PASS") == 0)
		mig_watch_poll_now(w);
}

static void
on_close(struct qmp_conn *conn, const char *reason, void *arg)
{
	struct mig_watch *w = arg;

	if (!w->done)
		w->on_closed(w, reason);
}

/* Connects to QEMU's monitor; a failure is a control-plane failure. */
int
mig_watch_connect(struct mig_watch *w, const char *qmp_path)
{
	char *cause = NULL;

	w->qmp = qmp_connect(w->loop, qmp_path, QMP_PROTO_MONITOR, 10,
	    &cause);
	if (w->qmp == NULL) {
		status_fail(&w->st, FAIL_CONTROL, "%s", cause);
		free(cause);
		return -1;
	}
	qmp_set_close_cb(w->qmp, on_close, w);
	qmp_subscribe(w->qmp, NULL, on_event, w);
	return 0;
}

/* Runs until mig_watch_finish(); deadline 0 means none. */
void
mig_watch_run(struct mig_watch *w, double deadline)
{
	ev_timer_init(&w->poll, on_poll_timer, 0, POLL_SECONDS);
	ev_timer_start(w->loop, &w->poll);
	if (deadline > 0) {
		ev_timer_init(&w->deadline, on_deadline_timer, deadline, 0);
		ev_timer_start(w->loop, &w->deadline);
	}
	ev_signal_init(&w->sigint, on_sigint, SIGINT);
	ev_signal_start(w->loop, &w->sigint);
	ev_signal_init(&w->sigterm, on_sigterm, SIGTERM);
	ev_signal_start(w->loop, &w->sigterm);
	if (!w->done)
		ev_run(w->loop, 0);
	ev_timer_stop(w->loop, &w->poll);
	ev_timer_stop(w->loop, &w->deadline);
	ev_signal_stop(w->loop, &w->sigint);
	ev_signal_stop(w->loop, &w->sigterm);
}

void
mig_watch_finish(struct mig_watch *w, enum mig_phase phase)
{
	w->done = 1;
	status_set_phase(&w->st, phase);
	ev_break(w->loop, EVBREAK_ALL);
}

/* Writes the final status, prints it on stdout, returns the exit status. */
int
mig_watch_report(struct mig_watch *w)
{
	json_object *doc;

	status_changed(&w->st, "end");
	doc = status_to_json(&w->st);
	printf("%s\n", json_object_to_json_string_ext(doc,
	    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	fflush(stdout);
	json_object_put(doc);
	if (w->st.failure_reason != NULL)
		fprintf(stderr, "qmigrate %s: %s\n", w->st.role,
		    w->st.failure_reason);
	return status_exit_code(&w->st);
}

void
mig_watch_free(struct mig_watch *w)
{
	qmp_close(w->qmp);
	w->qmp = NULL;
	status_free(&w->st);
	ev_loop_destroy(w->loop);
}
