/*
 * fuzz-qga.c: the guest agent's side of a connection is the fuzz input
 * (segments as fake-peer.h describes; "@ID" is the id of the resync the
 * agent was sent).  libqmp queues guest-info and guest-ping, then resyncs
 * (0xFF, guest-sync-delimited; everything before the answer's 0xFF is
 * stale), then sends guest-shutdown, which expects no answer.  The run
 * ends when the connection does.
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

static void
on_reply(struct qmp_conn *conn, struct json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	int	*replies = arg;

	(*replies)++;
	if (reply != NULL)
		(void)strlen(json_object_to_json_string(reply));
	else
		(void)(strlen(error_class) + strlen(error));
}

static void
on_event(struct qmp_conn *conn, const char *name, struct json_object *data,
    double timestamp, void *arg)
{
	(void)strlen(name);
	if (data != NULL)
		(void)strlen(json_object_to_json_string(data));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ev_loop		*loop;
	struct qmp_conn		*conn;
	struct fake_peer	*peer;
	char			*cause = NULL;
	int			 sv[2], replies = 0, never = 0;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		abort();
	loop = ev_loop_new(EVFLAG_AUTO);
	conn = qmp_attach_fd(loop, sv[0], QMP_PROTO_AGENT, "fuzz-agent");
	qmp_set_max_message(conn, 4096);
	(void)qmp_subscribe(conn, NULL, on_event, NULL);
	peer = fake_peer_play(loop, sv[1], data, size);

	if (qmp_send(conn, "guest-info", NULL, 0, on_reply, &replies,
	    &cause) != 0 ||
	    qmp_send(conn, "guest-ping", NULL, 30, on_reply, &replies,
	    &cause) != 0)
		abort();
	if (qga_sync(conn, 30, &cause) != 0) {
		free(cause);
		cause = NULL;
	}
	if (qga_shutdown(conn, "powerdown", 30, &cause) != 0) {
		free(cause);
		cause = NULL;
	}
	if (qmp_run_until(conn, &never, 60, &cause) == 0 ||
	    !qmp_is_closed(conn))
		abort();
	free(cause);

	qmp_close(conn);
	fake_peer_free(peer);
	ev_loop_destroy(loop);
	return 0;
}
