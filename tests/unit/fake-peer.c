/*
 * fake-peer.c: see fake-peer.h (why it is fake, the script format and
 * the played segments).  It links no test framework, so that the unit
 * tests and the fuzz targets share it: anything unexpected ends the
 * process (fake_fail), which fails the test that ran it.
 */
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ev.h>
#include <json-c/json.h>

#include "common.h"
#include "fake-peer.h"
#include "qmp.h"

#define FAKE_MAX_SCRIPT		32

struct fake_step {
	char	*command;
	char	*reply;		/* NULL: silence */
	int	 used;
};

struct fake_peer {
	struct ev_loop		*loop;
	int			 fd;
	ev_io			 io;
	struct json_tokener	*tok;

	/* Played segments (fake_peer_play), instead of the script. */
	int			 playing;
	ev_io			 wio;
	ev_idle			 idle;
	const uint8_t		*data;
	size_t			 size;
	size_t			 pos;		/* start of the next segment */
	char			*out;		/* the segment being written */
	size_t			 out_len, out_off;
	long long		 sync_id;	/* last guest-sync-delimited */

	struct fake_step	 script[FAKE_MAX_SCRIPT];
	int			 nscript;
	char			**seen;		/* every command, in order */
	char			**seen_id;
	int			 nseen;
	int			 nff;
	fake_peer_answer_cb	 answer;	/* instead of the script */
	void			*answer_arg;
};

static void play_scan(struct fake_peer *, const char *, size_t);
static void fake_fail(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

/* Something the script did not expect: the test fails, loudly. */
static void
fake_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fake peer: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	abort();
}

static char *
fake_replace(const char *s, const char *token, const char *with)
{
	const char	*p;
	char		*out;
	size_t		 n;

	if ((p = strstr(s, token)) == NULL)
		return xstrdup(s);
	n = strlen(s) - strlen(token) + strlen(with) + 1;
	out = xmalloc(n);
	snprintf(out, n, "%.*s%s%s", (int)(p - s), s, with, p + strlen(token));
	return out;
}

static void
fake_answer(struct fake_peer *fp, struct json_object *msg)
{
	struct json_object	*v, *args, *id, *out;
	const char		*name, *idstr = "null";
	char			 syncbuf[32] = "null";
	char			*a, *b;
	int			 i;

	if (!json_object_object_get_ex(msg, "execute", &v))
		fake_fail("a message without \"execute\": %s",
		    json_object_to_json_string(msg));
	name = json_object_get_string(v);
	if (json_object_object_get_ex(msg, "id", &id))
		idstr = json_object_to_json_string_ext(id,
		    JSON_C_TO_STRING_PLAIN);
	if (json_object_object_get_ex(msg, "arguments", &args) &&
	    json_object_object_get_ex(args, "id", &v))
		snprintf(syncbuf, sizeof syncbuf, "%lld",
		    (long long)json_object_get_int64(v));
	fp->seen = xreallocarray(fp->seen, (size_t)fp->nseen + 1,
	    sizeof *fp->seen);
	fp->seen_id = xreallocarray(fp->seen_id, (size_t)fp->nseen + 1,
	    sizeof *fp->seen_id);
	fp->seen[fp->nseen] = xstrdup(name);
	fp->seen_id[fp->nseen++] = xstrdup(idstr);

	if (fp->answer != NULL) {
		if ((out = fp->answer(msg, fp->answer_arg)) == NULL)
			return;
		if (json_object_object_get_ex(msg, "id", &id))
			json_object_object_add(out, "id", json_object_get(id));
		fake_peer_send(fp, out);
		json_object_put(out);
		return;
	}
	for (i = 0; i < fp->nscript; i++) {
		if (!fp->script[i].used &&
		    strcmp(fp->script[i].command, name) == 0)
			break;
	}
	if (i == fp->nscript)
		fake_fail("unexpected command %s", name);
	fp->script[i].used = 1;
	if (fp->script[i].reply == NULL)
		return;
	if (strcmp(fp->script[i].reply, FAKE_CLOSE) == 0) {
		fake_peer_close(fp);
		return;
	}
	a = fake_replace(fp->script[i].reply, "@ID@", idstr);
	b = fake_replace(a, "@SYNC@", syncbuf);
	fake_peer_puts(fp, b);
	free(a);
	free(b);
}

static void
fake_read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct fake_peer	*fp = w->data;
	struct json_object	*msg;
	char			 buf[4096], *p;
	ssize_t			 n;
	size_t			 off, len;

	n = read(fp->fd, buf, sizeof buf);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		/* The client closed: stop serving. */
		ev_io_stop(loop, &fp->io);
		return;
	}
	if (fp->playing) {
		play_scan(fp, buf, (size_t)n);
		return;
	}
	p = buf;
	len = (size_t)n;
	while (len > 0 && fp->fd != -1) {
		if ((unsigned char)*p == 0xff) {
			/* The agent's parser reset: drop partial input. */
			fp->nff++;
			json_tokener_reset(fp->tok);
			p++;
			len--;
			continue;
		}
		if (*p == ' ' || *p == '\n' || *p == '\r') {
			p++;
			len--;
			continue;
		}
		msg = json_tokener_parse_ex(fp->tok, p, (int)len);
		if (json_tokener_get_error(fp->tok) == json_tokener_continue)
			break;
		if (json_tokener_get_error(fp->tok) != json_tokener_success)
			fake_fail("not JSON: %s", json_tokener_error_desc(
			    json_tokener_get_error(fp->tok)));
		off = json_tokener_get_parse_end(fp->tok);
		p += off;
		len -= off;
		fake_answer(fp, msg);
		json_object_put(msg);
	}
}

/*
 * Played segments: notes the id of a guest-sync-delimited in what the
 * client wrote (the agent's resync answers carry a random id).  A raw
 * scan, not the parser: what the fuzzed client sends after garbage is not
 * the test's business.
 */
static void
play_scan(struct fake_peer *fp, const char *buf, size_t len)
{
	static const char	 cmd[] = "\"guest-sync-delimited\"";
	static const char	 key[] = "\"id\":";
	const char		*at, *end = buf + len;
	char			 num[32];
	size_t			 n;

	at = memmem(buf, len, cmd, sizeof cmd - 1);
	if (at == NULL)
		return;
	at = memmem(at, (size_t)(end - at), key, sizeof key - 1);
	if (at == NULL)
		return;
	at += sizeof key - 1;
	for (n = 0; at + n < end && n < sizeof num - 1 &&
	    at[n] >= '0' && at[n] <= '9'; n++)
		num[n] = at[n];
	num[n] = '\0';
	if (n > 0)
		fp->sync_id = strtoll(num, NULL, 10);
}

/* The next segment, with "@ID" replaced, into fp->out. */
static void
play_next_segment(struct fake_peer *fp)
{
	const uint8_t	*seg = fp->data + fp->pos, *sep;
	size_t		 left = fp->size - fp->pos, len, i, o = 0;
	char		 id[32];
	int		 idlen;

	sep = memmem(seg, left, FAKE_PEER_SEP, sizeof FAKE_PEER_SEP - 1);
	if (sep != NULL) {
		len = (size_t)(sep - seg);
		fp->pos += len + sizeof FAKE_PEER_SEP - 1;
	} else {
		len = left;
		fp->pos = fp->size;
	}
	idlen = snprintf(id, sizeof id, "%lld", fp->sync_id);
	/* "@ID" is 3 bytes and an id at most 20: 7 times is enough. */
	free(fp->out);
	fp->out = xmalloc(len * 7 + 1);
	for (i = 0; i < len; i++) {
		if (i + 3 <= len && memcmp(seg + i, "@ID", 3) == 0) {
			memcpy(fp->out + o, id, (size_t)idlen);
			o += (size_t)idlen;
			i += 2;
		} else
			fp->out[o++] = (char)seg[i];
	}
	fp->out_len = o;
	fp->out_off = 0;
}

/* Writes what is left of the current segment; returns 1 once it is out. */
static int
play_flush(struct fake_peer *fp)
{
	ssize_t n;

	while (fp->out_off < fp->out_len) {
		n = send(fp->fd, fp->out + fp->out_off,
		    fp->out_len - fp->out_off, MSG_NOSIGNAL);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n == -1) {
			/* The client hung up: nothing more to say. */
			fp->out_off = fp->out_len;
			fp->pos = fp->size;
			break;
		}
		fp->out_off += (size_t)n;
	}
	return 1;
}

static void
play_write_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct fake_peer *fp = container_of(w, struct fake_peer, wio);

	if (play_flush(fp)) {
		ev_io_stop(loop, w);
		ev_idle_start(loop, &fp->idle);
	}
}

/* The loop has nothing else to do: the next segment, or the end. */
static void
play_idle_cb(struct ev_loop *loop, ev_idle *w, int revents)
{
	struct fake_peer *fp = container_of(w, struct fake_peer, idle);

	if (fp->pos >= fp->size) {
		ev_idle_stop(loop, w);
		(void)shutdown(fp->fd, SHUT_WR);
		return;
	}
	play_next_segment(fp);
	if (!play_flush(fp)) {
		ev_idle_stop(loop, w);
		ev_io_start(loop, &fp->wio);
	}
}

struct fake_peer *
fake_peer_play(struct ev_loop *loop, int fd, const uint8_t *data,
    size_t size)
{
	struct fake_peer	*fp = fake_peer_new(loop, fd);
	int			 flags;

	fp->playing = 1;
	fp->data = data;
	fp->size = size;
	if ((flags = fcntl(fd, F_GETFL)) != -1)
		(void)fcntl(fd, F_SETFL, flags | O_NONBLOCK);
	ev_idle_start(loop, &fp->idle);
	return fp;
}

struct fake_peer *
fake_peer_new(struct ev_loop *loop, int fd)
{
	struct fake_peer	*fp;

	fp = xcalloc(1, sizeof *fp);
	fp->loop = loop;
	fp->fd = fd;
	fp->tok = json_tokener_new();
	json_tokener_set_flags(fp->tok,
	    JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS);
	ev_io_init(&fp->io, fake_read_cb, fd, EV_READ);
	fp->io.data = fp;
	ev_io_init(&fp->wio, play_write_cb, fd, EV_WRITE);
	ev_idle_init(&fp->idle, play_idle_cb);
	ev_io_start(loop, &fp->io);
	return fp;
}

void
fake_peer_close(struct fake_peer *fp)
{
	if (fp->fd == -1)
		return;
	ev_io_stop(fp->loop, &fp->io);
	ev_io_stop(fp->loop, &fp->wio);
	ev_idle_stop(fp->loop, &fp->idle);
	close(fp->fd);
	fp->fd = -1;
}

void
fake_peer_free(struct fake_peer *fp)
{
	int	 i;

	fake_peer_close(fp);
	free(fp->out);
	for (i = 0; i < fp->nscript; i++) {
		free(fp->script[i].command);
		free(fp->script[i].reply);
	}
	for (i = 0; i < fp->nseen; i++) {
		free(fp->seen[i]);
		free(fp->seen_id[i]);
	}
	free(fp->seen);
	free(fp->seen_id);
	json_tokener_free(fp->tok);
	free(fp);
}

void
fake_peer_on(struct fake_peer *fp, const char *command, const char *reply)
{
	if (fp->nscript >= FAKE_MAX_SCRIPT)
		fake_fail("more than %d script entries", FAKE_MAX_SCRIPT);
	fp->script[fp->nscript].command = xstrdup(command);
	fp->script[fp->nscript].reply = reply != NULL ? xstrdup(reply) : NULL;
	fp->nscript++;
}

void
fake_peer_write(struct fake_peer *fp, const char *data, size_t len)
{
	ssize_t	 n;

	while (len > 0) {
		n = write(fp->fd, data, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			fake_fail("write: %s", n == 0 ? "nothing written" :
			    strerror(errno));
		data += n;
		len -= (size_t)n;
	}
}

void
fake_peer_puts(struct fake_peer *fp, const char *s)
{
	fake_peer_write(fp, s, strlen(s));
}

void
fake_peer_send(struct fake_peer *fp, struct json_object *msg)
{
	fake_peer_puts(fp, json_object_to_json_string_ext(msg,
	    JSON_C_TO_STRING_PLAIN));
	fake_peer_puts(fp, "\r\n");
}

void
fake_peer_answer_with(struct fake_peer *fp, fake_peer_answer_cb cb,
    void *arg)
{
	fp->answer = cb;
	fp->answer_arg = arg;
}

int
fake_peer_ncommands(struct fake_peer *fp)
{
	return fp->nseen;
}

int
fake_peer_nff(struct fake_peer *fp)
{
	return fp->nff;
}

const char *
fake_peer_command(struct fake_peer *fp, int n)
{
	if (n >= fp->nseen)
		fake_fail("no command %d (%d seen)", n, fp->nseen);
	return fp->seen[n];
}

const char *
fake_peer_id(struct fake_peer *fp, int n)
{
	if (n >= fp->nseen)
		fake_fail("no command %d (%d seen)", n, fp->nseen);
	return fp->seen_id[n];
}

static void
run_timer_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	*(int *)w->data = 1;
}

int
run_until_n(struct ev_loop *loop, const int *counter, int n, double seconds)
{
	ev_timer	 t;
	int		 expired = 0;

	ev_timer_init(&t, run_timer_cb, seconds, 0);
	t.data = &expired;
	ev_timer_start(loop, &t);
	while (*counter < n && !expired)
		ev_run(loop, EVRUN_ONCE);
	ev_timer_stop(loop, &t);
	return *counter >= n;
}

int
run_until(struct ev_loop *loop, const int *flag, double seconds)
{
	return run_until_n(loop, flag, 1, seconds);
}

void
run_briefly(struct ev_loop *loop)
{
	int	 i;

	for (i = 0; i < 4; i++)
		ev_run(loop, EVRUN_NOWAIT);
}

void
fake_peer_pair(struct ev_loop **loop, struct qmp_conn **conn,
    struct fake_peer **peer, int proto, const char *name)
{
	int	 sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		fake_fail("socketpair: %s", strerror(errno));
	*loop = ev_loop_new(EVFLAG_AUTO);
	*conn = qmp_attach_fd(*loop, sv[0], proto, name);
	*peer = fake_peer_new(*loop, sv[1]);
}

void
fake_peer_pair_free(struct ev_loop *loop, struct qmp_conn *conn,
    struct fake_peer *peer)
{
	qmp_close(conn);
	fake_peer_free(peer);
	ev_loop_destroy(loop);
}

void
fake_result_cb(struct qmp_conn *conn, struct json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	struct fake_result	*r = arg;

	(void)conn;
	r->calls++;
	if (reply != NULL) {
		if (error_class != NULL || error != NULL)
			fake_fail("a reply with an error: %s", error);
		r->reply = xstrdup(json_object_to_json_string_ext(reply,
		    JSON_C_TO_STRING_PLAIN));
	} else {
		if (error_class == NULL || error == NULL)
			fake_fail("neither a reply nor an error");
		r->error_class = xstrdup(error_class);
		r->error = xstrdup(error);
	}
}

void
fake_result_free(struct fake_result *r)
{
	free(r->reply);
	free(r->error_class);
	free(r->error);
	memset(r, 0, sizeof *r);
}

void
fake_send_ok(struct qmp_conn *conn, const char *command, double timeout,
    struct fake_result *r)
{
	char	*cause = NULL;

	if (qmp_send(conn, command, NULL, timeout, fake_result_cb, r,
	    &cause) != 0 || cause != NULL)
		fake_fail("%s: not sent: %s", command, cause);
}
