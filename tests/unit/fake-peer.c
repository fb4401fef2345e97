/*
 * fake-peer.c: see fake-peer.h (why it is fake, and the script format).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <ev.h>
#include <json-c/json.h>

#include "fake-peer.h"

#define FAKE_MAX_SCRIPT		32
#define FAKE_MAX_SEEN		64

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
	struct fake_step	 script[FAKE_MAX_SCRIPT];
	int			 nscript;
	char			*seen[FAKE_MAX_SEEN];
	char			*seen_id[FAKE_MAX_SEEN];
	int			 nseen;
	int			 nff;
};

static char *
fake_replace(const char *s, const char *token, const char *with)
{
	const char	*p;
	char		*out;
	size_t		 n;

	if ((p = strstr(s, token)) == NULL)
		return strdup(s);
	n = strlen(s) - strlen(token) + strlen(with) + 1;
	out = malloc(n);
	assert_non_null(out);
	snprintf(out, n, "%.*s%s%s", (int)(p - s), s, with, p + strlen(token));
	return out;
}

static void
fake_answer(struct fake_peer *fp, struct json_object *msg)
{
	struct json_object	*v, *args, *id;
	const char		*name, *idstr = "null";
	char			 syncbuf[32] = "null";
	char			*a, *b;
	int			 i;

	assert_true(json_object_object_get_ex(msg, "execute", &v));
	name = json_object_get_string(v);
	if (json_object_object_get_ex(msg, "id", &id))
		idstr = json_object_to_json_string_ext(id,
		    JSON_C_TO_STRING_PLAIN);
	if (json_object_object_get_ex(msg, "arguments", &args) &&
	    json_object_object_get_ex(args, "id", &v))
		snprintf(syncbuf, sizeof syncbuf, "%lld",
		    (long long)json_object_get_int64(v));
	assert_true(fp->nseen < FAKE_MAX_SEEN);
	fp->seen[fp->nseen] = strdup(name);
	fp->seen_id[fp->nseen++] = strdup(idstr);

	for (i = 0; i < fp->nscript; i++) {
		if (!fp->script[i].used &&
		    strcmp(fp->script[i].command, name) == 0)
			break;
	}
	if (i == fp->nscript)
		fail_msg("fake peer: unexpected command %s", name);
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
	if (n <= 0) {
		/* The client closed: stop serving. */
		ev_io_stop(loop, &fp->io);
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
		assert_int_equal(json_tokener_get_error(fp->tok),
		    json_tokener_success);
		off = json_tokener_get_parse_end(fp->tok);
		p += off;
		len -= off;
		fake_answer(fp, msg);
		json_object_put(msg);
	}
}

struct fake_peer *
fake_peer_new(struct ev_loop *loop, int fd)
{
	struct fake_peer	*fp;

	fp = calloc(1, sizeof *fp);
	assert_non_null(fp);
	fp->loop = loop;
	fp->fd = fd;
	fp->tok = json_tokener_new();
	json_tokener_set_flags(fp->tok,
	    JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS);
	ev_io_init(&fp->io, fake_read_cb, fd, EV_READ);
	fp->io.data = fp;
	ev_io_start(loop, &fp->io);
	return fp;
}

void
fake_peer_close(struct fake_peer *fp)
{
	if (fp->fd == -1)
		return;
	ev_io_stop(fp->loop, &fp->io);
	close(fp->fd);
	fp->fd = -1;
}

void
fake_peer_free(struct fake_peer *fp)
{
	int	 i;

	fake_peer_close(fp);
	for (i = 0; i < fp->nscript; i++) {
		free(fp->script[i].command);
		free(fp->script[i].reply);
	}
	for (i = 0; i < fp->nseen; i++) {
		free(fp->seen[i]);
		free(fp->seen_id[i]);
	}
	json_tokener_free(fp->tok);
	free(fp);
}

void
fake_peer_on(struct fake_peer *fp, const char *command, const char *reply)
{
	assert_true(fp->nscript < FAKE_MAX_SCRIPT);
	fp->script[fp->nscript].command = strdup(command);
	fp->script[fp->nscript].reply = reply != NULL ? strdup(reply) : NULL;
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
		assert_true(n > 0);
		data += n;
		len -= (size_t)n;
	}
}

void
fake_peer_puts(struct fake_peer *fp, const char *s)
{
	fake_peer_write(fp, s, strlen(s));
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
	assert_true(n < fp->nseen);
	return fp->seen[n];
}

const char *
fake_peer_id(struct fake_peer *fp, int n)
{
	assert_true(n < fp->nseen);
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
