/*
 * fuzz-qmp.c: QEMU's side of a monitor connection is the fuzz input
 * (segments as fake-peer.h describes).  libqmp has three commands pending
 * (ids qm-1, qm-2, qm-3), a subscriber to every event and one to STOP that
 * makes a synchronous call from inside its callback (a nested loop that
 * consumes input), one to RESUME that unsubscribes, one to SHUTDOWN that
 * subscribes again.  The run ends when the connection does.
 */
#include <sys/socket.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ev.h>
#include <json-c/json.h>

#include "fake-peer.h"
#include "qmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

struct run {
	struct qmp_conn	*conn;
	int		 never;
	int		 replies;
	int		 events;
	int		 nested;	/* synchronous calls made from events */
	int		 all_handle;
	int		 resume_handle;
};

/* Touches what a callback is given, as a real caller would. */
static void
use(struct json_object *o)
{
	if (o != NULL)
		(void)strlen(json_object_to_json_string(o));
}

static void
on_reply(struct qmp_conn *conn, struct json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	struct run	*r = arg;

	r->replies++;
	use(reply);
	if (reply == NULL)
		(void)(strlen(error_class) + strlen(error));
}

static void
on_event(struct qmp_conn *conn, const char *name, struct json_object *data,
    double timestamp, void *arg)
{
	struct run	*r = arg;

	r->events++;
	(void)strlen(name);
	use(data);
}

static void
on_stop(struct qmp_conn *conn, const char *name, struct json_object *data,
    double timestamp, void *arg)
{
	struct run		*r = arg;
	struct json_object	*reply = NULL;
	char			*cause = NULL;

	if (r->nested >= 3)
		return;
	r->nested++;
	if (qmp_call(conn, "cont", NULL, &reply, 30, &cause) == 0)
		use(reply);
	json_object_put(reply);
	free(cause);
}

static void
on_resume(struct qmp_conn *conn, const char *name, struct json_object *data,
    double timestamp, void *arg)
{
	struct run	*r = arg;

	qmp_unsubscribe(conn, r->resume_handle);
	r->resume_handle = 0;
}

static void
on_shutdown(struct qmp_conn *conn, const char *name,
    struct json_object *data, double timestamp, void *arg)
{
	struct run	*r = arg;

	if (r->events < 16)
		(void)qmp_subscribe(conn, NULL, on_event, r);
}

static void
on_close(struct qmp_conn *conn, const char *reason, void *arg)
{
	(void)strlen(reason);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ev_loop		*loop;
	struct fake_peer	*peer;
	struct run		 r;
	char			*cause = NULL;
	int			 sv[2], major, minor, micro;

	memset(&r, 0, sizeof r);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		abort();
	loop = ev_loop_new(EVFLAG_AUTO);
	r.conn = qmp_attach_fd(loop, sv[0], QMP_PROTO_MONITOR, "fuzz");
	/* Small, so that inputs reach the limit. */
	qmp_set_max_message(r.conn, 4096);
	qmp_set_close_cb(r.conn, on_close, &r);
	r.all_handle = qmp_subscribe(r.conn, NULL, on_event, &r);
	(void)qmp_subscribe(r.conn, "STOP", on_stop, &r);
	r.resume_handle = qmp_subscribe(r.conn, "RESUME", on_resume, &r);
	(void)qmp_subscribe(r.conn, "SHUTDOWN", on_shutdown, &r);
	peer = fake_peer_play(loop, sv[1], data, size);

	if (qmp_send(r.conn, "qmp_capabilities", NULL, 0, on_reply, &r,
	    &cause) != 0 ||
	    qmp_send(r.conn, "query-status", NULL, 30, on_reply, &r,
	    &cause) != 0 ||
	    qmp_send(r.conn, "query-migrate", NULL, 0, on_reply, &r,
	    &cause) != 0)
		abort();
	/* Ends when the peer's input runs out and it hangs up, or before. */
	if (qmp_run_until(r.conn, &r.never, 60, &cause) == 0 ||
	    !qmp_is_closed(r.conn))
		abort();
	free(cause);
	qmp_qemu_version(r.conn, &major, &minor, &micro);
	(void)strlen(qmp_close_reason(r.conn));

	qmp_close(r.conn);
	fake_peer_free(peer);
	ev_loop_destroy(loop);
	return 0;
}
