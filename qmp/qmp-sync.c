/*
 * qmp-sync.c: waiting on the caller's own loop.  These run the loop with
 * ev_run(EVRUN_ONCE) until their answer or deadline, so they work from
 * main() and from inside a libev callback alike (libev allows nested
 * ev_run); every other watcher keeps being served meanwhile.
 */
#include <stdlib.h>
#include <string.h>

#include "qmp-private.h"
#include "world.h"

struct qmp_call_state {
	int			 done;
	struct json_object	*reply;
	char			*error_class;
	char			*error;
};

static void
qmp_call_cb(struct qmp_conn *conn, struct json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	struct qmp_call_state	*st = arg;

	st->done = 1;
	if (reply != NULL)
		st->reply = json_object_get(reply);
	else {
		st->error_class = xstrdup(error_class);
		st->error = xstrdup(error);
	}
}

/*
 * qmp_call() with flags, also handing back QEMU's error class (or
 * "Timeout"/"Closed") in *error_class when that is not NULL.
 */
int
qmp_call_class(struct qmp_conn *conn, const char *command,
    struct json_object *args, int flags, struct json_object **reply,
    double timeout, char **error_class, char **cause)
{
	struct qmp_call_state	 st;
	struct ev_loop		*loop = conn->loop;
	char			*c;

	memset(&st, 0, sizeof st);
	if (error_class != NULL)
		*error_class = NULL;
	if (reply != NULL)
		*reply = NULL;
	if (qmp_send_flags(conn, command, args, timeout, flags, qmp_call_cb,
	    &st, &c) != 0) {
		set_cause(cause, "%s: %s", command, c);
		free(c);
		if (error_class != NULL)
			*error_class = xstrdup("Closed");
		return -1;
	}
	/*
	 * The command ends on its reply, its timer or the connection's end
	 * (qmp_close() included), so this loop ends too.  The hold keeps conn
	 * allocated if a callback closes it meanwhile.
	 */
	qmp_hold(conn);
	while (!st.done)
		world->loop_turn(loop);
	qmp_release(conn);

	if (st.error != NULL) {
		set_cause(cause, "%s: %s", command, st.error);
		free(st.error);
		if (error_class != NULL)
			*error_class = st.error_class;
		else
			free(st.error_class);
		return -1;
	}
	if (reply != NULL)
		*reply = st.reply;
	else
		json_object_put(st.reply);
	return 0;
}

int
qmp_call(struct qmp_conn *conn, const char *command,
    struct json_object *args, struct json_object **reply, double timeout,
    char **cause)
{
	return qmp_call_class(conn, command, args, 0, reply, timeout, NULL,
	    cause);
}

int
qmp_call_unanswered(struct qmp_conn *conn, const char *command,
    struct json_object *args, struct json_object **reply, double timeout,
    int *unanswered, char **cause)
{
	char	*class = NULL;
	int	 rc;

	rc = qmp_call_class(conn, command, args, 0, reply, timeout, &class,
	    cause);
	*unanswered = rc != 0 && qmp_error_unanswered(class);
	free(class);
	return rc;
}

static void
qmp_wait_timer_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	*(int *)w->data = 1;
}

/*
 * Runs the loop until *done is non-zero (returns 0), the connection ends
 * or timeout seconds pass (returns -1).  timeout <= 0 means no deadline.
 */
int
qmp_wait_flag(struct qmp_conn *conn, const int *done, double timeout)
{
	struct ev_loop	*loop = conn->loop;
	ev_timer	 timer;
	int		 expired = 0, rc;

	if (*done)
		return 0;
	if (timeout > 0) {
		ev_timer_init(&timer, qmp_wait_timer_cb, timeout, 0);
		timer.data = &expired;
		world->timer_start(loop, &timer);
	}
	qmp_hold(conn);
	while (!*done && !expired && conn->reason == NULL)
		world->loop_turn(loop);
	rc = *done ? 0 : -1;
	if (timeout > 0)
		world->timer_stop(loop, &timer);
	qmp_release(conn);
	return rc;
}

int
qmp_run_until(struct qmp_conn *conn, const int *done, double timeout,
    char **cause)
{
	int	 rc;

	qmp_hold(conn);
	if ((rc = qmp_wait_flag(conn, done, timeout)) != 0) {
		if (conn->reason != NULL)
			set_cause(cause, "connection closed: %s",
			    conn->reason);
		else
			set_cause(cause, "nothing within %g s",
			    timeout);
	}
	qmp_release(conn);
	return rc;
}
