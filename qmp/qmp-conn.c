/*
 * qmp-conn.c: one QMP monitor or guest-agent connection on a libev loop:
 * the socket, framing with json-c's incremental tokener, the greeting, ids
 * matched to pending commands, per-command timeouts, events, and the one
 * teardown path (qmp_end) every failure goes through.
 */
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qmp-private.h"
#include "world.h"

/* How deep a message may nest; QEMU's replies stay far below this. */
#define QMP_MAX_DEPTH	64

static void	qmp_read_cb(struct ev_loop *, ev_io *, int);
static void	qmp_write_cb(struct ev_loop *, ev_io *, int);
static void	qmp_cmd_timeout_cb(struct ev_loop *, ev_timer *, int);
static void	qmp_input(struct qmp_conn *);
static void	qmp_message(struct qmp_conn *, struct json_object *);
static void	qmp_dispatch_event(struct qmp_conn *, struct json_object *);
static void	qmp_free(struct qmp_conn *);

static void	(*debug_fn)(const char *, void *);
static void	 *debug_arg;

void
qmp_set_debug_log(void (*fn)(const char *, void *), void *arg)
{
	debug_fn = fn;
	debug_arg = arg;
}

/* Like escape_bytes() for a JSON value received from the peer. */
char *
qmp_escape_json(struct json_object *obj, size_t max)
{
	const char	*s;

	s = json_object_to_json_string_ext(obj,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	return escape_bytes(s, strlen(s), max);
}

/*
 * A connection on fd (now the connection's) reading at once, with the
 * default message cap; peer names it in messages.
 */
static struct qmp_conn *
qmp_new(struct ev_loop *loop, int fd, enum qmp_proto proto,
    const char *peer)
{
	struct qmp_conn	*conn;

	conn = xcalloc(1, sizeof *conn);
	conn->loop = loop;
	conn->proto = proto;
	conn->peer = xstrdup(peer);
	conn->fd = fd;
	conn->rbuf = xmalloc(QMP_READ_SIZE);
	if ((conn->tok = json_tokener_new_ex(QMP_MAX_DEPTH)) == NULL)
		abort();
	/* Strict JSON, but several messages may sit in one buffer. */
	json_tokener_set_flags(conn->tok,
	    JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS);
	conn->max_message = QMP_DEFAULT_MAX_MESSAGE;
	conn->next_id = 1;
	conn->next_handle = 1;
	ev_io_init(&conn->rio, qmp_read_cb, fd, EV_READ);
	ev_io_init(&conn->wio, qmp_write_cb, fd, EV_WRITE);
	ev_io_start(loop, &conn->rio);
	qmp_trace_open(conn);
	return conn;
}

struct qmp_conn *
qmp_attach_fd(struct ev_loop *loop, int fd, enum qmp_proto proto,
    const char *peer_name)
{
	int	 flags;

	if ((flags = fcntl(fd, F_GETFL)) != -1)
		(void)fcntl(fd, F_SETFL, flags | O_NONBLOCK);
	return qmp_new(loop, fd, proto, peer_name != NULL ? peer_name : "fd");
}

/*
 * Connects to path and completes the handshake within timeout seconds.
 * Every message names the path.
 */
struct qmp_conn *
qmp_connect(struct ev_loop *loop, const char *path, enum qmp_proto proto,
    double timeout, char **cause)
{
	struct qmp_conn		*conn;
	double			 deadline, left;
	char			*c = NULL, *class = NULL;
	int			 fd;

	if ((fd = world->connect_unix(path, SOCK_NONBLOCK, cause)) == -1)
		return NULL;
	conn = qmp_new(loop, fd, proto, path);
	deadline = now_monotonic() + timeout;

	if (proto == QMP_PROTO_AGENT) {
		if (qmp_call_class(conn, "guest-sync-delimited", NULL,
		    QMP_CMD_SYNC, NULL, timeout, &class, &c) != 0) {
			if (class != NULL && strcmp(class, "Timeout") == 0)
				xasprintf(cause, "%s: no answer from the "
				    "guest agent within %g s (not running, or "
				    "another client is connected)", path,
				    timeout);
			else
				xasprintf(cause, "%s: %s", path, c);
			goto fail;
		}
		return conn;
	}

	if (qmp_wait_flag(conn, &conn->greeted, timeout) != 0) {
		if (conn->reason != NULL)
			xasprintf(cause, "%s: %s before the QMP greeting",
			    path, conn->reason);
		else
			xasprintf(cause, "%s: no QMP greeting within "
			    "%g s (is another client connected?)", path,
			    timeout);
		goto fail;
	}
	left = deadline - now_monotonic();
	if (left < 0.001)
		left = 0.001;
	if (qmp_call(conn, "qmp_capabilities", NULL, NULL, left, &c) != 0) {
		xasprintf(cause, "%s: %s", path, c);
		goto fail;
	}
	return conn;

fail:
	free(c);
	free(class);
	qmp_close(conn);
	return NULL;
}

/*
 * Connects to a monitor at path without waiting: qmp_capabilities is sent
 * at once (QEMU greets every client before it reads a command, so its
 * answer comes after the greeting), and ready is called with its answer,
 * or with the error (no answer within timeout, the connection closed).
 * Returns the connection, or NULL with *cause when connect() fails.
 */
struct qmp_conn *
qmp_connect_start(struct ev_loop *loop, const char *path, double timeout,
    qmp_reply_cb ready, void *arg, char **cause)
{
	struct qmp_conn	*conn;
	int		 fd;

	if ((fd = world->connect_unix(path, SOCK_NONBLOCK, cause)) == -1)
		return NULL;
	conn = qmp_new(loop, fd, QMP_PROTO_MONITOR, path);
	if (qmp_send(conn, "qmp_capabilities", NULL, timeout, ready, arg,
	    cause) != 0) {
		qmp_close(conn);
		return NULL;
	}
	return conn;
}

void
qmp_hold(struct qmp_conn *conn)
{
	conn->refs++;
}

/* Drops a hold; frees a connection qmp_close() was called on meanwhile. */
void
qmp_release(struct qmp_conn *conn)
{
	if (--conn->refs == 0 && conn->want_free)
		qmp_free(conn);
}

/*
 * The one teardown path: records why, stops the watchers, closes the
 * socket, fails every pending command, then tells the close callback
 * (unless the owner itself is closing).  Later calls do nothing.
 */
void
qmp_end(struct qmp_conn *conn, const char *fmt, ...)
{
	struct qmp_cmd		*cmd;
	struct json_object	*empty;
	va_list			 ap;

	if (conn->reason != NULL)
		return;
	va_start(ap, fmt);
	xvasprintf(&conn->reason, fmt, ap);
	va_end(ap);

	qmp_trace_close(conn, conn->reason);
	qmp_hold(conn);
	ev_io_stop(conn->loop, &conn->rio);
	ev_io_stop(conn->loop, &conn->wio);
	if (conn->fd != -1)
		close(conn->fd);
	conn->fd = -1;
	while ((cmd = conn->head) != NULL) {
		if ((cmd->flags & QMP_CMD_NOREPLY) && cmd->sent) {
			/* guest-shutdown: the agent going away is success. */
			empty = json_object_new_object();
			qmp_cmd_finish(cmd, empty, NULL, NULL);
			json_object_put(empty);
		} else
			qmp_cmd_finish(cmd, NULL, "Closed", conn->reason);
	}
	if (conn->close_cb != NULL && !conn->want_free)
		conn->close_cb(conn, conn->reason, conn->close_arg);
	qmp_release(conn);
}

static void
qmp_free(struct qmp_conn *conn)
{
	size_t	 i;

	for (i = 0; i < conn->nsubs; i++)
		free(conn->subs[i].name);
	free(conn->subs);
	json_tokener_free(conn->tok);
	free(conn->rbuf);
	free(conn->obuf);
	free(conn->peer);
	free(conn->reason);
	free(conn);
}

void
qmp_close(struct qmp_conn *conn)
{
	if (conn == NULL)
		return;
	conn->want_free = 1;	/* also keeps close_cb quiet */
	qmp_hold(conn);
	qmp_end(conn, "closed by qmigrate");
	qmp_release(conn);
}

void
qmp_set_max_message(struct qmp_conn *conn, size_t bytes)
{
	conn->max_message = bytes;
}

void
qmp_set_close_cb(struct qmp_conn *conn, qmp_close_cb cb, void *arg)
{
	conn->close_cb = cb;
	conn->close_arg = arg;
}

void
qmp_qemu_version(struct qmp_conn *conn, int *major, int *minor, int *micro)
{
	*major = conn->ver_major;
	*minor = conn->ver_minor;
	*micro = conn->ver_micro;
}

const char *
qmp_peer(struct qmp_conn *conn)
{
	return conn->peer;
}

/*
 * The process at the other end of a unix socket (SO_PEERCRED, as it was
 * when it connected), or 0 when not known or the connection has ended.
 */
pid_t
qmp_peer_pid(struct qmp_conn *conn)
{
	if (conn == NULL || conn->fd == -1)
		return 0;
	return world->peer_pid(conn->fd);
}

int
qmp_is_closed(struct qmp_conn *conn)
{
	return conn->reason != NULL;
}

const char *
qmp_close_reason(struct qmp_conn *conn)
{
	return conn->reason;
}

int
qmp_subscribe(struct qmp_conn *conn, const char *name, qmp_event_cb cb,
    void *arg)
{
	struct qmp_sub	*sub = NULL;
	size_t		 i;

	for (i = 0; i < conn->nsubs; i++) {
		if (conn->subs[i].handle == 0) {
			sub = &conn->subs[i];
			break;
		}
	}
	if (sub == NULL) {
		conn->subs = xrealloc(conn->subs,
		    (conn->nsubs + 1) * sizeof *conn->subs);
		sub = &conn->subs[conn->nsubs++];
	}
	sub->handle = conn->next_handle++;
	sub->name = name != NULL ? xstrdup(name) : NULL;
	sub->cb = cb;
	sub->arg = arg;
	return sub->handle;
}

void
qmp_unsubscribe(struct qmp_conn *conn, int handle)
{
	size_t	 i;

	if (handle <= 0)
		return;
	for (i = 0; i < conn->nsubs; i++) {
		if (conn->subs[i].handle == handle) {
			conn->subs[i].handle = 0;
			free(conn->subs[i].name);
			conn->subs[i].name = NULL;
			return;
		}
	}
}

/*
 * Queues bytes for the peer and asks for write readiness.  Fails rather
 * than grow past QMP_MAX_OUTPUT (a peer that stopped reading).
 */
int
qmp_output(struct qmp_conn *conn, const char *data, size_t len, char **cause)
{
	size_t	 used = conn->olen - conn->ooff;

	if (used + len > QMP_MAX_OUTPUT) {
		xasprintf(cause, "output queue to %s over %u bytes "
		    "(peer not reading)", conn->peer, QMP_MAX_OUTPUT);
		return -1;
	}
	if (conn->ooff > 0) {
		memmove(conn->obuf, conn->obuf + conn->ooff, used);
		conn->ooff = 0;
		conn->olen = used;
	}
	if (conn->olen + len > conn->osize) {
		conn->osize = conn->olen + len + 4096;
		conn->obuf = xrealloc(conn->obuf, conn->osize);
	}
	memcpy(conn->obuf + conn->olen, data, len);
	conn->olen += len;
	ev_io_start(conn->loop, &conn->wio);
	return 0;
}

static void
qmp_write_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct qmp_conn	*conn = container_of(w, struct qmp_conn, wio);
	ssize_t		 n;

	n = send(conn->fd, conn->obuf + conn->ooff, conn->olen - conn->ooff,
	    MSG_NOSIGNAL);
	if (n == -1 && errno == ENOTSOCK)
		n = write(conn->fd, conn->obuf + conn->ooff,
		    conn->olen - conn->ooff);
	if (n == -1) {
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
			return;
		qmp_hold(conn);
		qmp_end(conn, "write: %s", strerror(errno));
		qmp_release(conn);
		return;
	}
	conn->ooff += (size_t)n;
	if (conn->ooff == conn->olen) {
		conn->ooff = conn->olen = 0;
		ev_io_stop(loop, &conn->wio);
	}
}

static void
qmp_read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct qmp_conn	*conn = container_of(w, struct qmp_conn, rio);
	ssize_t		 n;

	qmp_hold(conn);
	/* Bytes a callback's nested loop left unparsed come first. */
	qmp_input(conn);
	if (conn->reason == NULL && conn->rpos == conn->rlen) {
		n = read(conn->fd, conn->rbuf, QMP_READ_SIZE);
		if (n == -1) {
			if (errno != EAGAIN && errno != EWOULDBLOCK &&
			    errno != EINTR)
				qmp_end(conn, "read: %s", strerror(errno));
		} else if (n == 0) {
			if (conn->msg_bytes > 0 && !conn->discard)
				qmp_end(conn, "connection closed by the peer "
				    "in the middle of a message");
			else
				qmp_end(conn, "connection closed by the peer");
		} else {
			conn->rpos = 0;
			conn->rlen = (size_t)n;
			qmp_input(conn);
		}
	}
	qmp_release(conn);
}

static int
qmp_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/*
 * Feeds the unparsed part of the read buffer to the tokener and handles
 * each complete message.  The position lives in conn, not here, because a
 * message's callback may run the loop again (qmp_call) and consume input.
 * msg_bytes counts what was fed since the last complete message, so a peer
 * cannot make the tokener buffer more than max_message (+ one read).
 */
static void
qmp_input(struct qmp_conn *conn)
{
	struct json_object	*obj;
	enum json_tokener_error	 jerr;
	const char		*p, *ff;
	size_t			 avail, used, from;
	char			*near;

	while (conn->reason == NULL && conn->rpos < conn->rlen) {
		p = conn->rbuf + conn->rpos;
		avail = conn->rlen - conn->rpos;
		if (conn->discard) {
			/* Agent resync: everything before 0xFF is stale. */
			if ((ff = memchr(p, 0xff, avail)) == NULL) {
				conn->rpos = conn->rlen;
				break;
			}
			conn->rpos += (size_t)(ff - p) + 1;
			conn->discard = 0;
			json_tokener_reset(conn->tok);
			conn->msg_bytes = 0;
			continue;
		}
		if (conn->msg_bytes == 0 && qmp_is_space(*p)) {
			conn->rpos++;
			continue;
		}
		obj = json_tokener_parse_ex(conn->tok, p, (int)avail);
		jerr = json_tokener_get_error(conn->tok);
		if (jerr == json_tokener_continue) {
			conn->msg_bytes += avail;
			conn->rpos = conn->rlen;
			if (conn->msg_bytes > conn->max_message)
				qmp_end(conn, "message over the limit of %zu "
				    "bytes", conn->max_message);
			break;
		}
		used = json_tokener_get_parse_end(conn->tok);
		if (jerr != json_tokener_success) {
			from = used > 24 ? used - 24 : 0;
			near = escape_bytes(p + from, avail - from, 48);
			qmp_end(conn, "malformed JSON: %s near \"%s\"",
			    json_tokener_error_desc(jerr), near);
			free(near);
			break;
		}
		conn->msg_bytes += used;
		conn->rpos += used;
		if (conn->msg_bytes > conn->max_message) {
			json_object_put(obj);
			qmp_end(conn, "message over the limit of %zu bytes",
			    conn->max_message);
			break;
		}
		conn->msg_bytes = 0;
		qmp_trace(conn, "<", obj);
		qmp_message(conn, obj);
		json_object_put(obj);
	}
}

static int
qmp_expired(struct qmp_conn *conn, uint64_t id)
{
	size_t	 i, n;

	n = conn->nexpired < QMP_EXPIRED_IDS ? conn->nexpired : QMP_EXPIRED_IDS;
	for (i = 0; i < n; i++)
		if (conn->expired[i] == id)
			return 1;
	return 0;
}

/*
 * Records the greeting's QEMU version; a second greeting ends the
 * connection.
 */
static void
qmp_greeting(struct qmp_conn *conn, struct json_object *qmp)
{
	struct json_object	*version, *qemu, *v;

	if (conn->greeted) {
		qmp_end(conn, "unexpected second QMP greeting");
		return;
	}
	if (json_object_object_get_ex(qmp, "version", &version) &&
	    json_object_object_get_ex(version, "qemu", &qemu)) {
		if (json_object_object_get_ex(qemu, "major", &v))
			conn->ver_major = json_object_get_int(v);
		if (json_object_object_get_ex(qemu, "minor", &v))
			conn->ver_minor = json_object_get_int(v);
		if (json_object_object_get_ex(qemu, "micro", &v))
			conn->ver_micro = json_object_get_int(v);
	}
	conn->greeted = 1;
}

/* Hands one monitor reply to the command whose id it carries. */
static void
qmp_monitor_reply(struct qmp_conn *conn, struct json_object *obj)
{
	struct json_object	*idobj = NULL;
	struct qmp_cmd		*cmd;
	const char		*s;
	char			*end, *esc;
	uint64_t		 id = 0;
	int			 ok = 0;

	if (json_object_object_get_ex(obj, "id", &idobj) &&
	    json_object_is_type(idobj, json_type_string)) {
		s = json_object_get_string(idobj);
		if (strncmp(s, "qm-", 3) == 0 && s[3] >= '0' && s[3] <= '9') {
			errno = 0;
			id = strtoull(s + 3, &end, 10);
			ok = *end == '\0' && errno == 0;
		}
	}
	if (ok) {
		for (cmd = conn->head; cmd != NULL; cmd = cmd->next) {
			if (cmd->id == id) {
				qmp_cmd_reply(cmd, obj);
				return;
			}
		}
		if (qmp_expired(conn, id))
			return;	/* the answer to a command that timed out */
	}
	esc = qmp_escape_json(obj, 200);
	if (idobj == NULL)
		qmp_end(conn, "reply without an id: %s", esc);
	else
		qmp_end(conn, "reply with an unknown id: %s", esc);
	free(esc);
}

/*
 * Routes one parsed message: an event to its subscribers, the agent's
 * messages to qmp-agent.c, the greeting, a reply to its command; anything
 * else (or not an object) ends the connection, quoting it escaped.
 */
static void
qmp_message(struct qmp_conn *conn, struct json_object *obj)
{
	struct json_object	*v;
	char			*esc;

	if (!json_object_is_type(obj, json_type_object)) {
		esc = qmp_escape_json(obj, 200);
		qmp_end(conn, "expected a JSON object, got %s", esc);
		free(esc);
		return;
	}
	if (json_object_object_get_ex(obj, "event", &v)) {
		qmp_dispatch_event(conn, obj);
		return;
	}
	if (conn->proto == QMP_PROTO_AGENT) {
		qga_message(conn, obj);
		return;
	}
	if (json_object_object_get_ex(obj, "QMP", &v)) {
		qmp_greeting(conn, v);
		return;
	}
	if (json_object_object_get_ex(obj, "return", &v) ||
	    json_object_object_get_ex(obj, "error", &v)) {
		qmp_monitor_reply(conn, obj);
		return;
	}
	esc = qmp_escape_json(obj, 200);
	qmp_end(conn, "unexpected message: %s", esc);
	free(esc);
}

/*
 * Calls every subscriber of the event in obj.  Subscribers may subscribe,
 * unsubscribe or close the connection from their callback.
 */
static void
qmp_dispatch_event(struct qmp_conn *conn, struct json_object *obj)
{
	struct json_object	*name, *data = NULL, *ts, *v;
	const char		*s;
	double			 when = 0;
	qmp_event_cb		 cb;
	void			*arg;
	size_t			 i;
	char			*esc;

	if (!json_object_object_get_ex(obj, "event", &name) ||
	    !json_object_is_type(name, json_type_string)) {
		esc = qmp_escape_json(obj, 200);
		qmp_end(conn, "event without a name: %s", esc);
		free(esc);
		return;
	}
	s = json_object_get_string(name);
	(void)json_object_object_get_ex(obj, "data", &data);
	if (json_object_object_get_ex(obj, "timestamp", &ts)) {
		if (json_object_object_get_ex(ts, "seconds", &v))
			when = (double)json_object_get_int64(v);
		if (json_object_object_get_ex(ts, "microseconds", &v))
			when += (double)json_object_get_int64(v) / 1e6;
	}
	for (i = 0; i < conn->nsubs && conn->reason == NULL; i++) {
		if (conn->subs[i].handle == 0)
			continue;
		if (conn->subs[i].name != NULL &&
		    strcmp(conn->subs[i].name, s) != 0)
			continue;
		/* The array may move if the callback subscribes. */
		cb = conn->subs[i].cb;
		arg = conn->subs[i].arg;
		cb(conn, s, data, when, arg);
	}
}

/*
 * Queues command.  The monitor's commands go out at once with an id; the
 * agent's wait in FIFO order (qga_kick) since its replies carry none.
 */
int
qmp_send_flags(struct qmp_conn *conn, const char *command,
    struct json_object *args, double timeout, int flags, qmp_reply_cb cb,
    void *arg, char **cause)
{
	struct qmp_cmd		*cmd;
	struct json_object	*msg;
	const char		*s;
	char			 idbuf[32];
	size_t			 len;

	if (conn->reason != NULL) {
		json_object_put(args);
		xasprintf(cause, "connection closed: %s", conn->reason);
		return -1;
	}
	cmd = xcalloc(1, sizeof *cmd);
	cmd->conn = conn;
	cmd->name = xstrdup(command);
	cmd->flags = flags;
	cmd->timeout = timeout;
	cmd->cb = cb;
	cmd->arg = arg;

	msg = json_object_new_object();
	json_object_object_add(msg, "execute",
	    json_object_new_string(command));
	if (flags & QMP_CMD_SYNC) {
		json_object_put(args);
		cmd->sync_id = qga_new_sync_id();
		args = json_object_new_object();
		json_object_object_add(args, "id",
		    json_object_new_int64(cmd->sync_id));
	}
	if (args != NULL)
		json_object_object_add(msg, "arguments", args);
	if (conn->proto == QMP_PROTO_MONITOR) {
		cmd->id = conn->next_id++;
		snprintf(idbuf, sizeof idbuf, "qm-%" PRIu64, cmd->id);
		json_object_object_add(msg, "id",
		    json_object_new_string(idbuf));
	}
	s = json_object_to_json_string_ext(msg,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	len = strlen(s);
	if (conn->proto == QMP_PROTO_MONITOR) {
		if (qmp_output(conn, s, len, cause) != 0)
			goto fail;
		qmp_trace(conn, ">", msg);
		cmd->sent = 1;
	} else {
		if (conn->queued + len > QMP_MAX_OUTPUT) {
			xasprintf(cause, "output queue to %s over %u "
			    "bytes", conn->peer, QMP_MAX_OUTPUT);
			goto fail;
		}
		cmd->json = xstrdup(s);
		conn->queued += len;
	}
	json_object_put(msg);

	if (flags & QMP_CMD_FRONT) {
		cmd->next = conn->head;
		conn->head = cmd;
		if (conn->tail == NULL)
			conn->tail = cmd;
	} else {
		if (conn->tail != NULL)
			conn->tail->next = cmd;
		else
			conn->head = cmd;
		conn->tail = cmd;
	}
	if (timeout > 0) {
		ev_timer_init(&cmd->timer, qmp_cmd_timeout_cb, timeout, 0);
		world->timer_start(conn->loop, &cmd->timer);
	}
	if (conn->proto == QMP_PROTO_AGENT) {
		/* Keeps conn if a failure there makes a callback close it. */
		qmp_hold(conn);
		qga_kick(conn);
		qmp_release(conn);
	}
	return 0;

fail:
	json_object_put(msg);
	free(cmd->name);
	free(cmd);
	return -1;
}

int
qmp_send(struct qmp_conn *conn, const char *command,
    struct json_object *args, double timeout, qmp_reply_cb cb, void *arg,
    char **cause)
{
	return qmp_send_flags(conn, command, args, timeout, 0, cb, arg,
	    cause);
}

/* Takes cmd off its connection's queue (the queue's tail included). */
static void
qmp_cmd_unlink(struct qmp_cmd *cmd)
{
	struct qmp_conn	*conn = cmd->conn;
	struct qmp_cmd	**pp, *prev = NULL;

	for (pp = &conn->head; *pp != NULL; prev = *pp, pp = &(*pp)->next) {
		if (*pp == cmd) {
			*pp = cmd->next;
			if (conn->tail == cmd)
				conn->tail = prev;
			break;
		}
	}
	cmd->next = NULL;
}

/*
 * Completes cmd: takes it off the queue, stops its timer, runs its callback
 * once and frees it.
 */
void
qmp_cmd_finish(struct qmp_cmd *cmd, struct json_object *reply,
    const char *error_class, const char *error)
{
	struct qmp_conn	*conn = cmd->conn;

	qmp_cmd_unlink(cmd);
	world->timer_stop(conn->loop, &cmd->timer);
	if (cmd->json != NULL)
		conn->queued -= strlen(cmd->json);
	if (cmd->cb != NULL)
		cmd->cb(conn, reply, error_class, error, cmd->arg);
	free(cmd->json);
	free(cmd->name);
	free(cmd);
}

/*
 * The member key of o as escaped text (at most max bytes), or NULL when it
 * is absent or JSON null (json-c hands null back as a NULL object).
 */
static char *
qmp_member_escaped(struct json_object *o, const char *key, size_t max)
{
	struct json_object	*v;
	const char		*s;

	if (!json_object_object_get_ex(o, key, &v) ||
	    (s = json_object_get_string(v)) == NULL)
		return NULL;
	return escape_bytes(s, strlen(s), max);
}

/*
 * Completes cmd with the "return" or "error" of reply.  A null "return"
 * is an error: callbacks are promised a value or an error message.
 */
void
qmp_cmd_reply(struct qmp_cmd *cmd, struct json_object *reply)
{
	struct json_object	*ret, *err = NULL;
	char			*class, *desc;

	if (json_object_object_get_ex(reply, "return", &ret)) {
		if (ret != NULL) {
			qmp_cmd_finish(cmd, ret, NULL, NULL);
			return;
		}
		qmp_cmd_finish(cmd, NULL, "GenericError",
		    "reply with a null \"return\"");
		return;
	}
	(void)json_object_object_get_ex(reply, "error", &err);
	if (debug_fn != NULL) {
		char *all = qmp_escape_json(reply, 4096), *line;

		xasprintf(&line, "%s: %s: %s", qmp_peer(cmd->conn),
		    cmd->name != NULL ? cmd->name : "command", all);
		debug_fn(line, debug_arg);
		free(line);
		free(all);
	}
	if ((class = qmp_member_escaped(err, "class", 64)) == NULL)
		class = xstrdup("GenericError");
	if ((desc = qmp_member_escaped(err, "desc", 512)) == NULL)
		desc = qmp_escape_json(reply, 200);
	qmp_cmd_finish(cmd, NULL, class, desc);
	free(class);
	free(desc);
}

static void
qmp_cmd_timeout_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct qmp_cmd	*cmd = container_of(w, struct qmp_cmd, timer);
	struct qmp_conn	*conn = cmd->conn;
	char		*msg;

	qmp_hold(conn);
	if (conn->proto == QMP_PROTO_AGENT)
		qga_expired(cmd);
	else {
		/* Remember the id: its late reply is not a protocol error. */
		conn->expired[conn->nexpired++ % QMP_EXPIRED_IDS] = cmd->id;
		xasprintf(&msg, "no reply within %g s", cmd->timeout);
		qmp_cmd_finish(cmd, NULL, "Timeout", msg);
		free(msg);
	}
	qmp_release(conn);
}

int
qmp_error_unanswered(const char *error_class)
{
	return error_class != NULL && (strcmp(error_class, "Timeout") == 0 ||
	    strcmp(error_class, "Closed") == 0);
}
