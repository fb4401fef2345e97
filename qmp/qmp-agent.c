/*
 * qmp-agent.c: the guest agent's side of the framing.  qemu-ga sends no
 * greeting and its replies carry no id, so commands go out one at a time in
 * FIFO order and a reply belongs to the oldest command sent.  After a
 * timeout the stream may hold a stale reply, so the next command is
 * preceded by a resync: 0xFF (flushes the agent's parser) and
 * guest-sync-delimited with a random id, whose answer starts with 0xFF;
 * everything before that byte is discarded.
 */
#include <sys/random.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "qmp-private.h"

/* A default for the resync a timed-out command without its own timeout. */
#define QGA_RESYNC_TIMEOUT	5.0

/*
 * A fresh id for guest-sync-delimited, random when the kernel has entropy
 * to give (a stale answer must not match), a fallback sequence otherwise.
 */
long long
qga_new_sync_id(void)
{
	static unsigned int	 fallback;
	unsigned int		 r;

	if (getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
		if (fallback == 0)
			fallback = (unsigned int)time(NULL) ^
			    (unsigned int)getpid();
		r = fallback = fallback * 1103515245u + 12345u;
	}
	/* qemu-ga takes an int: keep it positive and within 31 bits. */
	return (long long)(r & 0x7fffffffu);
}

/* A resync qga_kick() inserted failed: the stream cannot be trusted. */
static void
qga_resync_cb(struct qmp_conn *conn, struct json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	if (reply == NULL)
		qmp_end(conn, "guest agent did not resynchronise after a "
		    "timeout: %s", error);
}

/*
 * Sends the oldest queued command if none is in flight, preceded by a
 * resync when an earlier command timed out after it was sent.
 */
void
qga_kick(struct qmp_conn *conn)
{
	struct qmp_cmd	*cmd = conn->head;
	char		*cause = NULL;
	double		 timeout;

	if (conn->reason != NULL || cmd == NULL || cmd->sent)
		return;
	if (conn->need_sync && !(cmd->flags & QMP_CMD_SYNC)) {
		timeout = cmd->timeout > 0 ? cmd->timeout : QGA_RESYNC_TIMEOUT;
		if (qmp_send_flags(conn, "guest-sync-delimited", NULL, timeout,
		    QMP_CMD_SYNC | QMP_CMD_FRONT, qga_resync_cb, NULL,
		    &cause) != 0) {
			qmp_end(conn, "%s", cause);
			free(cause);
		}
		return;	/* qmp_send_flags() kicked again */
	}
	if (cmd->flags & QMP_CMD_SYNC) {
		if (qmp_output(conn, "\xff", 1, &cause) != 0)
			goto fail;
		conn->discard = 1;
		json_tokener_reset(conn->tok);
		conn->msg_bytes = 0;
	}
	if (qmp_output(conn, cmd->json, strlen(cmd->json), &cause) != 0)
		goto fail;
	conn->queued -= strlen(cmd->json);
	free(cmd->json);
	cmd->json = NULL;
	cmd->sent = 1;
	return;

fail:
	qmp_end(conn, "%s", cause);
	free(cause);
}

/* One message from the agent: the answer to the command in flight. */
void
qga_message(struct qmp_conn *conn, struct json_object *obj)
{
	struct qmp_cmd		*cmd = conn->head;
	struct json_object	*ret = NULL;
	char			*esc;

	if (!json_object_object_get_ex(obj, "return", &ret) &&
	    !json_object_object_get_ex(obj, "error", NULL)) {
		esc = qmp_escape_json(obj, 200);
		qmp_end(conn, "unexpected message: %s", esc);
		free(esc);
		return;
	}
	if (cmd == NULL || !cmd->sent) {
		if (conn->need_sync)
			return;	/* the late answer to a command that timed out */
		esc = qmp_escape_json(obj, 200);
		qmp_end(conn, "reply with no command pending: %s", esc);
		free(esc);
		return;
	}
	if ((cmd->flags & QMP_CMD_SYNC) && ret != NULL) {
		if (!json_object_is_type(ret, json_type_int) ||
		    json_object_get_int64(ret) != cmd->sync_id) {
			/* An earlier sync's answer: wait for ours. */
			conn->discard = 1;
			return;
		}
		conn->need_sync = 0;
	}
	qmp_cmd_reply(cmd, obj);
	qga_kick(conn);
}

/* cmd's timer fired. */
void
qga_expired(struct qmp_cmd *cmd)
{
	struct qmp_conn		*conn = cmd->conn;
	struct json_object	*empty;
	char			*msg;

	if (cmd->sent)
		conn->need_sync = 1;
	if ((cmd->flags & QMP_CMD_NOREPLY) && cmd->sent) {
		empty = json_object_new_object();
		qmp_cmd_finish(cmd, empty, NULL, NULL);
		json_object_put(empty);
	} else {
		xasprintf(&msg, "no reply within %g s", cmd->timeout);
		qmp_cmd_finish(cmd, NULL, "Timeout", msg);
		free(msg);
	}
	qga_kick(conn);
}

int
qga_sync(struct qmp_conn *conn, double timeout, char **cause)
{
	return qmp_call_class(conn, "guest-sync-delimited", NULL,
	    QMP_CMD_SYNC, NULL, timeout, NULL, cause);
}

int
qga_shutdown(struct qmp_conn *conn, const char *mode, double timeout,
    char **cause)
{
	struct json_object	*args = NULL;

	if (mode != NULL) {
		args = json_object_new_object();
		json_object_object_add(args, "mode",
		    json_object_new_string(mode));
	}
	return qmp_call_class(conn, "guest-shutdown", args, QMP_CMD_NOREPLY,
	    NULL, timeout, NULL, cause);
}
