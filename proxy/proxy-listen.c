/*
 * proxy-listen.c: both sides of the proxy.  Accepting (unix on the source,
 * TCP on the target), setting up each connection (connect, TLS handshake,
 * header, in-order release) under a deadline, the control connection that
 * carries the session, and handing finished connections to proxy-pair.c.
 *
 * A connection being set up is a struct conn with a small state machine
 * stepped from its io watcher and timers; its one teardown is conn_close().
 * Memory is bounded: at most max_pending connections are being set up at
 * a time (the target stops accepting beyond that, so a flood or a
 * slow-loris waits in the kernel's backlog, not in our memory), a control
 * message is capped at PROXY_MAX_CONTROL, and only authenticated data
 * connections of the live session get forwarding buffers.
 */
#include <sys/queue.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ev.h>
#include <json-c/json.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>

#include "proxy-int.h"

static void
tcp_options(int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
}

/*
 * Options of a data connection.  A link that goes down says nothing:
 * without these, TCP retransmits for many minutes and QEMU, whose socket
 * is ours, waits as long (a post-copy stream never reaches postcopy-paused,
 * so it is never recovered).  Unacknowledged data or unanswered keepalives
 * for PROXY_DEAD_PEER_TIMEOUT seconds end the connection, and the pair with
 * it, so that QEMU sees its stream break.  Not for the control connection:
 * it carries nothing during a migration, and the session it holds must
 * outlive a short outage for a post-copy resume to find it.
 */
static void
tcp_dead_peer(int fd)
{
	int idle = PROXY_DEAD_PEER_TIMEOUT / 2, intvl = 1;
	int cnt = PROXY_DEAD_PEER_TIMEOUT - idle;
	unsigned int user_ms = PROXY_DEAD_PEER_TIMEOUT * 1000;

	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
	setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_ms,
	    sizeof user_ms);
}

#define ACCEPT_BURST		32
#define ACCEPT_PAUSE		1.0	/* seconds after EMFILE */
#define QEMU_RETRY		0.005	/* unix connect() backlog full */
#define MAX_HELD		256	/* data connections ahead of order */

enum conn_state {
	C_WAIT_SESSION,		/* source: QEMU connected, no session yet */
	C_CONNECT,		/* source: TCP connect in progress */
	C_HANDSHAKE,		/* TLS handshake */
	C_SEND_HDR,		/* source: writing the header */
	C_READ_HDR,		/* target: reading the header */
	C_HOLD,			/* target: waiting for lower sequence numbers */
	C_QEMU_CONNECT,		/* target: connecting to QEMU's socket */
	C_CONTROL,		/* the control connection, either side */
};

struct side;

struct conn {
	struct side		*side;
	TAILQ_ENTRY(conn)	 entry;
	enum conn_state		 state;
	enum proxy_kind		 kind;
	unsigned		 chan;		/* data: enum proxy_channel */
	char			*name;
	int			 nfd;		/* network side */
	SSL			*ssl;
	int			 qfd;		/* QEMU side */
	ev_io			 io;
	int			 io_events;
	ev_timer		 deadline;
	ev_timer		 retry;
	int			 counted;	/* in side->npending */
	uint32_t		 seq;
	uint8_t			 hdr[PROXY_HDR_SIZE];
	size_t			 hdr_off;

	/* Control connection. */
	uint8_t			*out;
	size_t			 out_len, out_off;
	uint8_t			 lenbuf[4];
	size_t			 len_got;
	uint8_t			*body;
	size_t			 body_len, body_got;
	int			 awaiting;	/* target: answer owed */
};

struct pair_link {
	struct side		*side;
	struct proxy_pair	*pair;
	TAILQ_ENTRY(pair_link)	 entry;
};

/*
 * Per channel: the source numbers its connections; the target releases
 * them, in order when the channel has an order (migration), as they come
 * otherwise (NBD), one connect() at a time.
 */
struct chan {
	uint32_t		 next_seq;	/* source: next to assign */
	struct proxy_order	*order;		/* target, ordered channels */
	struct conn		*releasing;	/* target: connecting to QEMU */
};

struct session {
	int			 live;
	uint8_t			 id[PROXY_SESSION_ID_SIZE];
	char			 hex[2 * PROXY_SESSION_ID_SIZE + 1];
	struct chan		 chan[PROXY_CHANNELS];
	struct conn		*ctl;
};

/* A listening socket: TCP on the target, one unix socket per channel on
 * the source. */
struct listener {
	struct side		*side;
	unsigned		 chan;
	int			 fd;
	char			*name;
	char			*unlink_path;
	ev_io			 io;
};

struct side {
	struct ev_loop		*loop;
	int			 is_source;
	struct proxy_tls	*tls;
	struct listener		 lst[PROXY_CHANNELS];
	char			*listen_name;	/* the first listener's */
	ev_timer		 accept_pause;
	int			 accept_paused;
	size_t			 npending;
	size_t			 max_pending;
	double			 idle;
	double			 handshake;
	struct proxy_stats	 stats;
	TAILQ_HEAD(, conn)	 conns;
	TAILQ_HEAD(, pair_link)	 pairs;
	struct session		 sess;
	char			*ctl_error;	/* why the last control conn closed */
	uint32_t		 serial;	/* names before the header */

	/* Source. */
	struct addrinfo		*ai;
	char			*peer_name;	/* host:port */
	char			*tls_name;
	int			 auto_session;
	proxy_answer_cb		 answer_cb;
	void			*answer_arg;
	double			 answer_timeout;

	/* Target. */
	char			*path[PROXY_CHANNELS];	/* QEMU's sockets */
	int			 port;
	proxy_control_cb	 on_control;
	void			*on_control_arg;
	struct proxy_target	*target;
};

struct proxy_source {
	struct side	side;
};

struct proxy_target {
	struct side	side;
};

static void	conn_step(struct conn *);
static void	conn_close(struct conn *, const char *reason, int refused);
static void	session_end(struct side *, const char *reason);
static void	target_release(struct side *);
static void	source_start_waiting(struct side *);
static void	accept_update(struct side *);
static void	session_clear(struct side *);

/* Common helpers. */

static void
conn_want(struct conn *c, int ev)
{
	struct ev_loop *loop = c->side->loop;

	if (ev == c->io_events)
		return;
	ev_io_stop(loop, &c->io);
	c->io_events = ev;
	if (ev != 0) {
		ev_io_set(&c->io, c->nfd, ev);
		ev_io_start(loop, &c->io);
	}
}

/*
 * An SSL call on c returned ret <= 0.  Returns 0 when it only waits for the
 * socket (the watcher is re-armed for what OpenSSL wants), or -1 with
 * *cause set.
 */
static int
conn_ssl_failed(struct conn *c, int ret, char **cause)
{
	int err = SSL_get_error(c->ssl, ret);

	if (err == SSL_ERROR_WANT_WRITE || err == SSL_ERROR_WANT_READ) {
		conn_want(c, err == SSL_ERROR_WANT_WRITE ? EV_WRITE : EV_READ);
		return 0;
	}
	*cause = proxy_tls_strerror(c->ssl, ret, err);
	return -1;
}

/* SSL_do_handshake once: 1 done, 0 waiting (watcher armed), -1 failed. */
static int
conn_handshake(struct conn *c, char **cause)
{
	int ret;

	ERR_clear_error();
	ret = SSL_do_handshake(c->ssl);
	if (ret == 1)
		return 1;
	return conn_ssl_failed(c, ret, cause);
}

/* Writes buf[*off..len): 1 all written, 0 waiting, -1 failed. */
static int
conn_write(struct conn *c, const uint8_t *buf, size_t len, size_t *off,
    char **cause)
{
	size_t	done;
	ssize_t	n;
	int	ret;

	while (*off < len) {
		if (c->ssl == NULL) {
			n = write(c->nfd, buf + *off, len - *off);
			if (n == -1 && errno == EINTR)
				continue;
			if (n == -1 && errno == EAGAIN) {
				conn_want(c, EV_WRITE);
				return 0;
			}
			if (n == -1) {
				*cause = proxy_xstrdup(strerror(errno));
				return -1;
			}
			done = (size_t)n;
		} else {
			ERR_clear_error();
			ret = SSL_write_ex(c->ssl, buf + *off, len - *off,
			    &done);
			if (ret <= 0)
				return conn_ssl_failed(c, ret, cause);
		}
		*off += done;
	}
	return 1;
}

/* Reads until buf[0..len) is full: 1 full, 0 waiting, -1 failed/closed. */
static int
conn_read(struct conn *c, uint8_t *buf, size_t len, size_t *got,
    char **cause)
{
	size_t	done;
	ssize_t	n;
	int	ret;

	while (*got < len) {
		if (c->ssl == NULL) {
			n = read(c->nfd, buf + *got, len - *got);
			if (n == -1 && errno == EINTR)
				continue;
			if (n == -1 && errno == EAGAIN) {
				conn_want(c, EV_READ);
				return 0;
			}
			if (n <= 0) {
				*cause = proxy_xstrdup(n == 0 ?
				    "closed by peer" : strerror(errno));
				return -1;
			}
			done = (size_t)n;
		} else {
			ERR_clear_error();
			ret = SSL_read_ex(c->ssl, buf + *got, len - *got,
			    &done);
			if (ret <= 0)
				return conn_ssl_failed(c, ret, cause);
		}
		*got += done;
	}
	return 1;
}

static void
conn_io_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	conn_step(w->data);
}

static void
conn_deadline_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct conn	*c = w->data;
	char		*reason;
	int		 pre_auth;

	pre_auth = c->state == C_HANDSHAKE || c->state == C_READ_HDR ||
	    c->state == C_CONNECT || c->state == C_SEND_HDR;
	proxy_asprintf(&reason, "%s timeout (%.0f s)",
	    c->state == C_HOLD ? "waiting for earlier connections" :
	    c->state == C_CONTROL ? "control answer" : "handshake",
	    c->deadline.repeat);
	conn_close(c, reason, !c->side->is_source && pre_auth);
	free(reason);
}

static void
conn_retry_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	conn_step(w->data);
}

static struct conn *
conn_new(struct side *s, int nfd, int qfd, const char *name)
{
	struct conn *c;

	c = proxy_xcalloc(1, sizeof *c);
	c->side = s;
	c->nfd = nfd;
	c->qfd = qfd;
	c->name = proxy_xstrdup(name);
	ev_io_init(&c->io, conn_io_cb, nfd, 0);
	c->io.data = c;
	ev_timer_init(&c->deadline, conn_deadline_cb, 0., s->handshake);
	c->deadline.data = c;
	ev_timer_init(&c->retry, conn_retry_cb, QEMU_RETRY, 0);
	c->retry.data = c;
	TAILQ_INSERT_TAIL(&s->conns, c, entry);
	c->counted = 1;
	s->npending++;
	return c;
}

static void
conn_uncount(struct conn *c)
{
	if (!c->counted)
		return;
	c->counted = 0;
	c->side->npending--;
	accept_update(c->side);
}

/* Forgets c without closing its fds or SSL (they moved to a pair). */
static void
conn_free(struct conn *c)
{
	struct side *s = c->side;

	ev_io_stop(s->loop, &c->io);
	ev_timer_stop(s->loop, &c->deadline);
	ev_timer_stop(s->loop, &c->retry);
	TAILQ_REMOVE(&s->conns, c, entry);
	conn_uncount(c);
	if (s->sess.ctl == c)
		s->sess.ctl = NULL;
	if (c->kind == PROXY_KIND_DATA && c->chan < PROXY_CHANNELS) {
		struct chan *ch = &s->sess.chan[c->chan];

		if (ch->releasing == c)
			ch->releasing = NULL;
		if (ch->order != NULL)
			proxy_order_remove(ch->order, c);
	}
	free(c->out);
	free(c->body);
	free(c->name);
	free(c);
}

/*
 * The one teardown of a connection being set up: logs the reason (as a
 * refusal when the peer failed authentication or the session check),
 * frees the TLS state and closes both fds.  A control connection takes
 * its session with it.
 */
static void
conn_close(struct conn *c, const char *reason, int refused)
{
	struct side	*s = c->side;
	int		 was_ctl = s->sess.ctl == c;

	if (was_ctl) {
		free(s->ctl_error);
		s->ctl_error = proxy_xstrdup(reason);
	}
	if (refused) {
		s->stats.refused++;
		proxy_log(PROXY_LOG_WARN, "%s: refused: %s", c->name, reason);
	} else
		proxy_log(c->state == C_CONTROL ? PROXY_LOG_INFO :
		    PROXY_LOG_WARN, "%s: closed: %s", c->name, reason);
	if (c->ssl != NULL)
		SSL_free(c->ssl);
	if (c->nfd != -1)
		close(c->nfd);
	if (c->qfd != -1)
		close(c->qfd);
	conn_free(c);
	if (was_ctl)
		session_end(s, reason);
	else if (!s->is_source)
		target_release(s);
}

static void
pair_done(struct proxy_pair *p, void *arg)
{
	struct pair_link *l = arg;

	TAILQ_REMOVE(&l->side->pairs, l, entry);
	l->side->stats.active--;
	free(l);
}

/* Hands a finished connection to proxy-pair.c. */
static void
conn_forward(struct conn *c)
{
	struct side		*s = c->side;
	struct pair_link	*l;
	uint64_t		*q2n, *n2q;

	l = proxy_xcalloc(1, sizeof *l);
	l->side = s;
	TAILQ_INSERT_TAIL(&s->pairs, l, entry);
	s->stats.connections++;
	s->stats.active++;
	if (s->is_source) {
		q2n = &s->stats.bytes_to_target;
		n2q = &s->stats.bytes_from_target;
	} else {
		q2n = &s->stats.bytes_from_target;
		n2q = &s->stats.bytes_to_target;
	}
	l->pair = proxy_pair_new(s->loop, c->name, c->qfd, c->nfd, c->ssl,
	    PROXY_BUFFER_SIZE, s->idle, q2n, n2q, pair_done, l);
	c->qfd = c->nfd = -1;
	c->ssl = NULL;
	conn_free(c);
}

static void
conn_name_session(struct conn *c, const char *peer)
{
	struct side *s = c->side;

	free(c->name);
	if (c->kind == PROXY_KIND_CONTROL)
		proxy_asprintf(&c->name, "session %.8s control %s %s",
		    s->sess.hex, s->is_source ? "to" : "from", peer);
	else
		proxy_asprintf(&c->name, "session %.8s %sconn %u %s %s",
		    s->sess.hex, c->chan == PROXY_CHAN_NBD ? "nbd " : "",
		    c->seq, s->is_source ? "to" : "from", peer);
}

/* Control messages: 4-byte big-endian length, then JSON text. */

static void
ctl_queue(struct conn *c, struct json_object *msg)
{
	const char	*text;
	size_t		 len;

	text = json_object_to_json_string_ext(msg, JSON_C_TO_STRING_PLAIN);
	len = strlen(text);
	if (c->out_off == c->out_len) {
		free(c->out);
		c->out = NULL;
		c->out_off = c->out_len = 0;
	}
	c->out = realloc(c->out, c->out_len + 4 + len);
	if (c->out == NULL)
		abort();
	c->out[c->out_len] = (uint8_t)(len >> 24);
	c->out[c->out_len + 1] = (uint8_t)(len >> 16);
	c->out[c->out_len + 2] = (uint8_t)(len >> 8);
	c->out[c->out_len + 3] = (uint8_t)len;
	memcpy(c->out + c->out_len + 4, text, len);
	c->out_len += 4 + len;
}

/*
 * Reads one message when complete: 1 with *msg set (a JSON object, owned
 * by the caller), 0 waiting, -1 failed with *cause.
 */
static int
ctl_read(struct conn *c, struct json_object **msg, char **cause)
{
	struct json_tokener	*tok;
	struct json_object	*o;
	int			 r;

	if (c->len_got < 4) {
		r = conn_read(c, c->lenbuf, 4, &c->len_got, cause);
		if (r <= 0)
			return r;
		c->body_len = (size_t)c->lenbuf[0] << 24 |
		    (size_t)c->lenbuf[1] << 16 | (size_t)c->lenbuf[2] << 8 |
		    (size_t)c->lenbuf[3];
		if (c->body_len == 0 || c->body_len > PROXY_MAX_CONTROL) {
			proxy_asprintf(cause, "control message of %zu bytes "
			    "(limit %u)", c->body_len, PROXY_MAX_CONTROL);
			return -1;
		}
		c->body = proxy_xmalloc(c->body_len);
		c->body_got = 0;
	}
	r = conn_read(c, c->body, c->body_len, &c->body_got, cause);
	if (r <= 0)
		return r;
	tok = json_tokener_new();
	o = json_tokener_parse_ex(tok, (const char *)c->body,
	    (int)c->body_len);
	if (o == NULL || !json_object_is_type(o, json_type_object) ||
	    json_tokener_get_parse_end(tok) != c->body_len) {
		json_object_put(o);
		json_tokener_free(tok);
		proxy_asprintf(cause, "control message is not one JSON object");
		return -1;
	}
	json_tokener_free(tok);
	free(c->body);
	c->body = NULL;
	c->len_got = 0;
	*msg = o;
	return 1;
}

static int
msg_is_ready(struct json_object *o)
{
	struct json_object *st;

	return json_object_object_get_ex(o, "status", &st) &&
	    json_object_is_type(st, json_type_string) &&
	    strcmp(json_object_get_string(st), "ready") == 0;
}

/* Source side. */

static void
source_answer(struct side *s, struct json_object *answer, const char *error)
{
	proxy_answer_cb	 cb = s->answer_cb;
	void		*arg = s->answer_arg;

	s->answer_cb = NULL;
	s->answer_arg = NULL;
	if (cb != NULL)
		cb(answer, error, arg);
}

static void
source_auto_cb(struct json_object *answer, const char *error, void *arg)
{
	struct side *s = arg;

	if (error != NULL)
		proxy_log(PROXY_LOG_WARN, "session with %s failed: %s",
		    s->peer_name, error);
	else if (!msg_is_ready(answer)) {
		proxy_log(PROXY_LOG_WARN, "session with %s refused: %s",
		    s->peer_name, json_object_to_json_string_ext(answer,
		    JSON_C_TO_STRING_PLAIN));
		if (s->sess.ctl != NULL)
			conn_close(s->sess.ctl, "session refused", 0);
	}
}

/* Starts the TCP connection of c (control or data) to the target. */
static void
source_connect(struct conn *c)
{
	struct side	*s = c->side;
	struct addrinfo	*ai;
	char		*cause = NULL;
	int		 fd = -1;

	for (ai = s->ai; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, ai->ai_protocol);
		if (fd == -1)
			continue;
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 ||
		    errno == EINPROGRESS)
			break;
		close(fd);
		fd = -1;
	}
	if (fd == -1) {
		proxy_asprintf(&cause, "connect to %s: %s", s->peer_name,
		    strerror(errno));
		conn_close(c, cause, 0);
		free(cause);
		return;
	}
	tcp_options(fd);
	if (c->kind == PROXY_KIND_DATA)
		tcp_dead_peer(fd);
	c->nfd = fd;
	c->state = C_CONNECT;
	ev_timer_again(s->loop, &c->deadline);
	ev_io_set(&c->io, fd, 0);
	c->io_events = 0;
	conn_want(c, EV_WRITE);
}

/* Data connections waiting for the session, in accept order. */
static void
source_start_waiting(struct side *s)
{
	struct conn *c, *next;

	for (c = TAILQ_FIRST(&s->conns); c != NULL; c = next) {
		next = TAILQ_NEXT(c, entry);
		if (c->state != C_WAIT_SESSION)
			continue;
		c->seq = s->sess.chan[c->chan].next_seq++;
		conn_name_session(c, s->peer_name);
		source_connect(c);
	}
}

static void
source_step(struct conn *c)
{
	struct side		*s = c->side;
	struct proxy_hdr	 h;
	struct json_object	*msg;
	char			*cause = NULL;
	socklen_t		 len = sizeof(int);
	int			 r, soerr = 0, first;

	switch (c->state) {
	case C_WAIT_SESSION:
	case C_READ_HDR:
	case C_HOLD:
	case C_QEMU_CONNECT:
		return;
	case C_CONNECT:
		if (getsockopt(c->nfd, SOL_SOCKET, SO_ERROR, &soerr,
		    &len) == -1)
			soerr = errno;
		if (soerr == EINPROGRESS)
			return;
		if (soerr != 0) {
			proxy_asprintf(&cause, "connect to %s: %s",
			    s->peer_name, strerror(soerr));
			goto fail;
		}
		if (s->tls != NULL) {
			c->ssl = proxy_tls_ssl(s->tls, c->nfd, s->tls_name,
			    &cause);
			if (c->ssl == NULL)
				goto fail;
		}
		c->state = C_HANDSHAKE;
		/* FALLTHROUGH */
	case C_HANDSHAKE:
		if (c->ssl != NULL) {
			r = conn_handshake(c, &cause);
			if (r == 0)
				return;
			if (r < 0) {
				char *why = cause;

				proxy_asprintf(&cause, "TLS with %s: %s",
				    s->peer_name, why);
				free(why);
				goto refuse;
			}
			if (proxy_tls_check_peer(s->tls, c->ssl,
			    &cause) != 0)
				goto refuse;
		}
		memset(&h, 0, sizeof h);
		h.kind = c->kind;
		h.channel = c->kind == PROXY_KIND_DATA ? (uint8_t)c->chan : 0;
		memcpy(h.session, s->sess.id, sizeof h.session);
		h.seq = c->seq;
		proxy_hdr_encode(&h, c->hdr);
		c->hdr_off = 0;
		c->state = C_SEND_HDR;
		/* FALLTHROUGH */
	case C_SEND_HDR:
		r = conn_write(c, c->hdr, sizeof c->hdr, &c->hdr_off, &cause);
		if (r == 0)
			return;
		if (r < 0)
			goto fail;
		if (c->kind == PROXY_KIND_DATA) {
			conn_uncount(c);
			ev_timer_stop(s->loop, &c->deadline);
			conn_forward(c);
			return;
		}
		c->state = C_CONTROL;
		conn_uncount(c);
		proxy_log(PROXY_LOG_INFO, "%s: open", c->name);
		/* FALLTHROUGH */
	case C_CONTROL:
		if (c->out_off < c->out_len) {
			r = conn_write(c, c->out, c->out_len, &c->out_off,
			    &cause);
			if (r < 0)
				goto fail;
		}
		for (;;) {
			r = ctl_read(c, &msg, &cause);
			if (r < 0)
				goto fail;
			if (r == 0)
				break;
			if (s->answer_cb == NULL) {
				json_object_put(msg);
				cause = proxy_xstrdup("unexpected control "
				    "message");
				goto fail;
			}
			ev_timer_stop(s->loop, &c->deadline);
			first = !s->sess.live;
			if (first && msg_is_ready(msg)) {
				s->sess.live = 1;
				proxy_log(PROXY_LOG_INFO, "session %s with %s "
				    "is live", s->sess.hex, s->peer_name);
			}
			source_answer(s, msg, NULL);
			json_object_put(msg);
			if (s->sess.ctl != c)
				return;	/* closed by the callback */
			if (first && s->sess.live)
				source_start_waiting(s);
		}
		conn_want(c, EV_READ | (c->out_off < c->out_len ?
		    EV_WRITE : 0));
		return;
	}
	return;
refuse:
	conn_close(c, cause, 1);
	free(cause);
	return;
fail:
	conn_close(c, cause, 0);
	free(cause);
}

static void
source_accept_one(struct listener *lst, int fd)
{
	struct side	*s = lst->side;
	struct conn	*c;
	char		 name[64];

	snprintf(name, sizeof name, "qemu %sconnection %u", lst->chan ==
	    PROXY_CHAN_NBD ? "nbd " : "", ++s->serial);
	c = conn_new(s, -1, fd, name);
	c->kind = PROXY_KIND_DATA;
	c->chan = lst->chan;
	c->state = C_WAIT_SESSION;
	proxy_log(PROXY_LOG_DEBUG, "%s: accepted on %s", c->name, lst->name);
	if (s->sess.live) {
		source_start_waiting(s);
		return;
	}
	if (s->auto_session && s->sess.ctl == NULL) {
		struct json_object	*m = json_object_new_object();
		char			*cause = NULL;

		json_object_object_add(m, "type",
		    json_object_new_string("proxy-session"));
		if (proxy_source_control((struct proxy_source *)s, m,
		    s->handshake, source_auto_cb, s, &cause) != 0) {
			proxy_log(PROXY_LOG_WARN, "session with %s: %s",
			    s->peer_name, cause);
			free(cause);
		}
	}
}

int
proxy_source_control(struct proxy_source *src, struct json_object *msg,
    double timeout, proxy_answer_cb cb, void *arg, char **cause)
{
	struct side	*s = &src->side;
	struct conn	*c = s->sess.ctl;

	if (s->answer_cb != NULL) {
		proxy_asprintf(cause, "a control message is already waiting "
		    "for its answer");
		json_object_put(msg);
		return -1;
	}
	if (c == NULL) {
		memset(&s->sess, 0, sizeof s->sess);
		if (RAND_bytes(s->sess.id, sizeof s->sess.id) != 1) {
			proxy_asprintf(cause, "no random bytes for a session");
			json_object_put(msg);
			return -1;
		}
		proxy_session_hex(s->sess.id, s->sess.hex);
		c = conn_new(s, -1, -1, "control");
		c->kind = PROXY_KIND_CONTROL;
		conn_name_session(c, s->peer_name);
		s->sess.ctl = c;
		source_connect(c);
		if (s->sess.ctl != c) {
			proxy_asprintf(cause, "control connection to %s: %s",
			    s->peer_name, s->ctl_error);
			json_object_put(msg);
			return -1;
		}
	}
	s->answer_cb = cb;
	s->answer_arg = arg;
	ctl_queue(c, msg);
	json_object_put(msg);
	ev_timer_stop(s->loop, &c->deadline);
	if (timeout > 0) {
		ev_timer_set(&c->deadline, timeout, 0);
		c->deadline.repeat = timeout;
		ev_timer_start(s->loop, &c->deadline);
	}
	if (c->state == C_CONTROL)
		conn_want(c, EV_READ | EV_WRITE);
	return 0;
}

void
proxy_source_auto_session(struct proxy_source *src, int enable)
{
	src->side.auto_session = enable;
}

int
proxy_source_session_live(struct proxy_source *src)
{
	return src->side.sess.live && src->side.sess.ctl != NULL;
}

/* Target side. */

static void
target_control_msg(struct side *s, struct json_object *msg)
{
	struct json_object *ans;

	s->sess.ctl->awaiting = 1;
	if (s->on_control != NULL) {
		s->on_control(s->target, msg, NULL, s->on_control_arg);
		return;
	}
	ans = json_object_new_object();
	json_object_object_add(ans, "status",
	    json_object_new_string("ready"));
	proxy_target_answer(s->target, ans, NULL);
}

/*
 * The next held connection of channel ch that may go to QEMU: the lowest
 * sequence number on an ordered channel, the first held on the others.
 */
static struct conn *
target_next_held(struct side *s, unsigned ch)
{
	struct conn *c;

	if (s->sess.chan[ch].order != NULL)
		return proxy_order_next(s->sess.chan[ch].order);
	TAILQ_FOREACH(c, &s->conns, entry) {
		if (c->state == C_HOLD && c->kind == PROXY_KIND_DATA &&
		    c->chan == ch)
			return c;
	}
	return NULL;
}

/*
 * Connects held data connections to QEMU, channel by channel, one at a
 * time per channel: on the migration channel N+1 waits until N's
 * connect() has returned, so QEMU's accept queue holds them in the
 * source's order.  Returns after a failure (conn_close() calls it again).
 */
static void
target_release(struct side *s)
{
	struct sockaddr_un	 sun;
	struct chan		*ch;
	struct conn		*c;
	char			*cause = NULL;
	unsigned		 i;

	if (!s->sess.live || s->sess.ctl == NULL)
		return;
	for (i = 0; i < PROXY_CHANNELS; i++) {
		ch = &s->sess.chan[i];
		for (;;) {
			if ((c = ch->releasing) == NULL) {
				if ((c = target_next_held(s, i)) == NULL)
					break;
				ch->releasing = c;
				c->state = C_QEMU_CONNECT;
			}
			if (c->qfd == -1) {
				c->qfd = socket(AF_UNIX, SOCK_STREAM |
				    SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
				if (c->qfd == -1) {
					proxy_asprintf(&cause, "socket: %s",
					    strerror(errno));
					goto fail;
				}
			}
			memset(&sun, 0, sizeof sun);
			sun.sun_family = AF_UNIX;
			snprintf(sun.sun_path, sizeof sun.sun_path, "%s",
			    s->path[i]);
			if (connect(c->qfd, (struct sockaddr *)&sun,
			    sizeof sun) == -1) {
				if (errno == EAGAIN || errno == EINTR) {
					/* QEMU's backlog is full: retry. */
					ev_timer_start(s->loop, &c->retry);
					break;
				}
				proxy_asprintf(&cause, "connect to %s: %s",
				    s->path[i], strerror(errno));
				goto fail;
			}
			ch->releasing = NULL;
			ev_timer_stop(s->loop, &c->deadline);
			conn_forward(c);
		}
	}
	return;
fail:
	ch->releasing = NULL;
	conn_close(c, cause, 0);
	free(cause);
}

static void
target_step(struct conn *c)
{
	struct side		*s = c->side;
	struct proxy_order	*order;
	struct proxy_hdr	 h;
	struct json_object	*msg;
	char			*cause = NULL, *peer;
	int			 r;

	switch (c->state) {
	case C_WAIT_SESSION:
	case C_CONNECT:
	case C_SEND_HDR:
	case C_HOLD:
		return;
	case C_QEMU_CONNECT:
		target_release(s);
		return;
	case C_HANDSHAKE:
		if (c->ssl != NULL) {
			r = conn_handshake(c, &cause);
			if (r == 0)
				return;
			if (r < 0)
				goto refuse;
			if (proxy_tls_check_peer(s->tls, c->ssl, &cause) != 0)
				goto refuse;
			peer = proxy_tls_peer_subject(c->ssl);
			proxy_log(PROXY_LOG_DEBUG, "%s: TLS %s %s, peer %s",
			    c->name, SSL_get_version(c->ssl),
			    SSL_get_cipher_name(c->ssl), peer);
			free(peer);
		}
		c->state = C_READ_HDR;
		c->hdr_off = 0;
		/* FALLTHROUGH */
	case C_READ_HDR:
		r = conn_read(c, c->hdr, sizeof c->hdr, &c->hdr_off, &cause);
		if (r == 0)
			return;
		if (r < 0)
			goto refuse;
		if (proxy_hdr_decode(c->hdr, sizeof c->hdr, &h, &cause) != 0)
			goto refuse;
		c->kind = h.kind;
		c->chan = h.channel;
		c->seq = h.seq;
		conn_uncount(c);
		if (h.kind == PROXY_KIND_CONTROL) {
			if (s->sess.ctl != NULL) {
				cause = proxy_xstrdup("a session is already "
				    "open");
				goto refuse;
			}
			session_clear(s);
			memcpy(s->sess.id, h.session, sizeof s->sess.id);
			proxy_session_hex(s->sess.id, s->sess.hex);
			s->sess.chan[PROXY_CHAN_MIGRATION].order =
			    proxy_order_new(MAX_HELD);
			s->sess.ctl = c;
			peer = c->name;
			c->name = NULL;
			conn_name_session(c, peer + 5);	/* skip "peer " */
			free(peer);
			ev_timer_stop(s->loop, &c->deadline);
			c->state = C_CONTROL;
			proxy_log(PROXY_LOG_INFO, "%s: open", c->name);
			goto control;
		}
		if (!s->sess.live || s->sess.ctl == NULL ||
		    memcmp(h.session, s->sess.id, sizeof h.session) != 0) {
			char hex[2 * PROXY_SESSION_ID_SIZE + 1];

			proxy_session_hex(h.session, hex);
			proxy_asprintf(&cause, "unknown session %.8s", hex);
			goto refuse;
		}
		if (s->path[c->chan] == NULL) {
			proxy_asprintf(&cause, "no %s channel here (the "
			    "target was given no socket for it)",
			    proxy_channel_name(c->chan));
			goto refuse;
		}
		peer = c->name;
		c->name = NULL;
		conn_name_session(c, peer + 5);
		free(peer);
		tcp_dead_peer(c->nfd);
		order = s->sess.chan[c->chan].order;
		if (order != NULL &&
		    proxy_order_offer(order, h.seq, c, &cause) != 0)
			goto refuse;
		c->state = C_HOLD;
		conn_want(c, 0);
		/* The deadline keeps running: N may never come. */
		if (order != NULL && proxy_order_expected(order) != h.seq)
			proxy_log(PROXY_LOG_DEBUG, "%s: held until conn %u",
			    c->name, proxy_order_expected(order));
		target_release(s);
		return;
	case C_CONTROL:
	control:
		if (c->out_off < c->out_len) {
			r = conn_write(c, c->out, c->out_len, &c->out_off,
			    &cause);
			if (r < 0)
				goto fail;
		}
		while (!c->awaiting) {
			r = ctl_read(c, &msg, &cause);
			if (r < 0)
				goto fail;
			if (r == 0)
				break;
			target_control_msg(s, msg);
			json_object_put(msg);
			if (s->sess.ctl != c)
				return;
		}
		conn_want(c, (c->awaiting ? 0 : EV_READ) |
		    (c->out_off < c->out_len ? EV_WRITE : 0));
		return;
	}
	return;
refuse:
	conn_close(c, cause, 1);
	free(cause);
	return;
fail:
	conn_close(c, cause, 0);
	free(cause);
}

int
proxy_target_answer(struct proxy_target *t, struct json_object *answer,
    char **cause)
{
	struct side	*s = &t->side;
	struct conn	*c = s->sess.ctl;

	if (c == NULL || !c->awaiting) {
		proxy_asprintf(cause, "no control message is waiting for an "
		    "answer");
		json_object_put(answer);
		return -1;
	}
	c->awaiting = 0;
	if (!s->sess.live && msg_is_ready(answer)) {
		s->sess.live = 1;
		proxy_log(PROXY_LOG_INFO, "session %s is live", s->sess.hex);
	}
	ctl_queue(c, answer);
	json_object_put(answer);
	/* Write from the loop: the caller may be inside on_control. */
	ev_feed_event(s->loop, &c->io, EV_WRITE);
	return 0;
}

/* Both sides. */

/* Frees the per-channel state and zeroes the session. */
static void
session_clear(struct side *s)
{
	unsigned i;

	for (i = 0; i < PROXY_CHANNELS; i++)
		proxy_order_free(s->sess.chan[i].order);
	memset(&s->sess, 0, sizeof s->sess);
}

static void
conn_step(struct conn *c)
{
	if (c->side->is_source)
		source_step(c);
	else
		target_step(c);
}

/*
 * The session ended with its control connection: connections still being
 * set up for it are closed; pairs already forwarding go on to their end.
 */
static void
session_end(struct side *s, const char *reason)
{
	struct conn	*c, *next;
	char		*why;

	if (s->is_source && s->answer_cb != NULL) {
		proxy_asprintf(&why, "control connection to %s: %s",
		    s->peer_name, reason);
		source_answer(s, NULL, why);
		free(why);
	}
	if (!s->is_source && s->on_control != NULL)
		s->on_control(s->target, NULL, reason, s->on_control_arg);
	s->sess.live = 0;
	for (c = TAILQ_FIRST(&s->conns); c != NULL; c = next) {
		next = TAILQ_NEXT(c, entry);
		if (c->state == C_WAIT_SESSION || c->state == C_HOLD ||
		    c->state == C_QEMU_CONNECT) {
			conn_close(c, "session ended", 0);
			next = TAILQ_FIRST(&s->conns);
		}
	}
	session_clear(s);
}

static void
accept_update(struct side *s)
{
	int		want = !s->accept_paused && s->npending < s->max_pending;
	unsigned	i;

	for (i = 0; i < PROXY_CHANNELS; i++) {
		ev_io *io = &s->lst[i].io;

		if (s->lst[i].fd == -1)
			continue;
		if (want && !ev_is_active(io))
			ev_io_start(s->loop, io);
		else if (!want && ev_is_active(io))
			ev_io_stop(s->loop, io);
	}
}

static void
accept_pause_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct side *s = w->data;

	s->accept_paused = 0;
	accept_update(s);
}

static void
accept_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct listener		*lst = w->data;
	struct side		*s = lst->side;
	struct sockaddr_storage	 ss;
	socklen_t		 len;
	struct conn		*c;
	char			 host[NI_MAXHOST], serv[NI_MAXSERV], name[NI_MAXHOST + 64];
	char			*cause = NULL;
	int			 fd, i;

	for (i = 0; i < ACCEPT_BURST && s->npending < s->max_pending; i++) {
		len = sizeof ss;
		fd = accept4(lst->fd, (struct sockaddr *)&ss, &len,
		    SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd == -1) {
			if (errno == EMFILE || errno == ENFILE) {
				proxy_log(PROXY_LOG_WARN, "accept on %s: %s: "
				    "pausing for %.0f s", lst->name,
				    strerror(errno), ACCEPT_PAUSE);
				s->accept_paused = 1;
				ev_timer_set(&s->accept_pause, ACCEPT_PAUSE,
				    0);
				ev_timer_start(loop, &s->accept_pause);
				accept_update(s);
			} else if (errno != EAGAIN && errno != EINTR &&
			    errno != ECONNABORTED)
				proxy_log(PROXY_LOG_WARN, "accept on %s: %s",
				    lst->name, strerror(errno));
			return;
		}
		if (s->is_source) {
			source_accept_one(lst, fd);
			continue;
		}
		if (getnameinfo((struct sockaddr *)&ss, len, host,
		    sizeof host, serv, sizeof serv,
		    NI_NUMERICHOST | NI_NUMERICSERV) != 0)
			snprintf(name, sizeof name, "peer ?");
		else if (ss.ss_family == AF_INET6)
			snprintf(name, sizeof name, "peer [%s]:%s", host, serv);
		else
			snprintf(name, sizeof name, "peer %s:%s", host, serv);
		tcp_options(fd);
		c = conn_new(s, fd, -1, name);
		c->state = C_HANDSHAKE;
		if (s->tls != NULL) {
			c->ssl = proxy_tls_ssl(s->tls, fd, NULL, &cause);
			if (c->ssl == NULL) {
				conn_close(c, cause, 0);
				free(cause);
				continue;
			}
		}
		ev_timer_again(loop, &c->deadline);
		conn_want(c, EV_READ);
	}
	accept_update(s);
}

static void
side_init(struct side *s, struct ev_loop *loop, struct proxy_tls *tls,
    int is_source)
{
	unsigned i;

	s->loop = loop;
	s->tls = tls;
	s->is_source = is_source;
	for (i = 0; i < PROXY_CHANNELS; i++)
		s->lst[i].fd = -1;
	s->max_pending = PROXY_MAX_PENDING;
	s->idle = PROXY_IDLE_TIMEOUT;
	s->handshake = PROXY_HANDSHAKE_TIMEOUT;
	TAILQ_INIT(&s->conns);
	TAILQ_INIT(&s->pairs);
	ev_init(&s->accept_pause, accept_pause_cb);
	s->accept_pause.data = s;
	if (tls == NULL)
		proxy_log(PROXY_LOG_WARN, "TLS IS DISABLED: migration data "
		    "crosses the network in PLAINTEXT, unauthenticated");
}

/* Starts accepting on fd for channel chan (the source's listeners). */
static void
side_listen(struct side *s, unsigned chan, int fd, const char *name,
    const char *unlink_path)
{
	struct listener *l = &s->lst[chan];

	l->side = s;
	l->chan = chan;
	l->fd = fd;
	l->name = proxy_xstrdup(name);
	if (unlink_path != NULL)
		l->unlink_path = proxy_xstrdup(unlink_path);
	ev_io_init(&l->io, accept_cb, fd, EV_READ);
	l->io.data = l;
	accept_update(s);
}

static void
side_free(struct side *s)
{
	struct pair_link	*l;
	unsigned		 i;

	s->sess.live = 0;
	ev_timer_stop(s->loop, &s->accept_pause);
	for (i = 0; i < PROXY_CHANNELS; i++) {
		if (s->lst[i].fd == -1)
			continue;
		ev_io_stop(s->loop, &s->lst[i].io);
		close(s->lst[i].fd);
		if (s->lst[i].unlink_path != NULL)
			unlink(s->lst[i].unlink_path);
		free(s->lst[i].unlink_path);
		free(s->lst[i].name);
	}
	/* Stop telling the owner: it is the one freeing us. */
	s->on_control = NULL;
	s->answer_cb = NULL;
	while (!TAILQ_EMPTY(&s->conns))
		conn_close(TAILQ_FIRST(&s->conns), "proxy stopping", 0);
	while ((l = TAILQ_FIRST(&s->pairs)) != NULL)
		proxy_pair_close(l->pair, "proxy stopping");
	session_clear(s);
	if (s->ai != NULL)
		freeaddrinfo(s->ai);
	free(s->ctl_error);
	free(s->listen_name);
	free(s->peer_name);
	free(s->tls_name);
	for (i = 0; i < PROXY_CHANNELS; i++)
		free(s->path[i]);
}

/*
 * Listens on the unix socket path: a socket left by a dead proxy is
 * replaced, a live one is not.  The socket is created mode 0600 (umask
 * around bind: fchmod on a socket does not reach its path), so only its
 * owner's QEMU can hand it a guest's memory.  Returns the fd, or -1 with
 * *cause set.
 */
static int
unix_listen(const char *path, char **cause)
{
	struct sockaddr_un	sun;
	struct stat		st;
	mode_t			mask;
	int			fd, probe, r;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun.sun_path) {
		proxy_asprintf(cause, "%s: socket path too long", path);
		return -1;
	}
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd == -1) {
		proxy_asprintf(cause, "socket: %s", strerror(errno));
		return -1;
	}
	if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode)) {
		probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (probe != -1 && connect(probe, (struct sockaddr *)&sun,
		    sizeof sun) == -1 && errno == ECONNREFUSED)
			unlink(path);
		if (probe != -1)
			close(probe);
	}
	mask = umask(0177);
	r = bind(fd, (struct sockaddr *)&sun, sizeof sun);
	umask(mask);
	if (r == -1 || listen(fd, 128) == -1) {
		proxy_asprintf(cause, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

struct proxy_source *
proxy_source_start(struct ev_loop *loop, struct proxy_tls *tls,
    const char *listen_path, const char *host, const char *port,
    const char *tls_name, char **cause)
{
	struct proxy_source	*src;
	struct side		*s;
	struct addrinfo		 hints;
	int			 fd, r;

	src = proxy_xcalloc(1, sizeof *src);
	s = &src->side;
	side_init(s, loop, tls, 1);
	proxy_asprintf(&s->peer_name, "%s:%s", host, port);
	s->tls_name = proxy_xstrdup(tls_name != NULL ? tls_name : host);
	s->listen_name = proxy_xstrdup(listen_path);

	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_family = AF_UNSPEC;
	r = getaddrinfo(host, port, &hints, &s->ai);
	if (r != 0) {
		proxy_asprintf(cause, "%s: %s", s->peer_name, gai_strerror(r));
		s->ai = NULL;
		goto fail;
	}
	if ((fd = unix_listen(listen_path, cause)) == -1)
		goto fail;
	side_listen(s, PROXY_CHAN_MIGRATION, fd, listen_path, listen_path);
	proxy_log(PROXY_LOG_INFO, "source: listening on unix:%s, forwarding "
	    "to %s%s (name %s)", listen_path, tls != NULL ? "tls:" : "tcp:",
	    s->peer_name, s->tls_name);
	return src;
fail:
	side_free(s);
	free(src);
	return NULL;
}

int
proxy_source_add_listener(struct proxy_source *src, unsigned channel,
    const char *path, char **cause)
{
	struct side	*s = &src->side;
	int		 fd;

	if (channel >= PROXY_CHANNELS) {
		proxy_asprintf(cause, "unknown channel %u", channel);
		return -1;
	}
	if (s->lst[channel].fd != -1) {
		proxy_asprintf(cause, "already listening for the %s channel "
		    "on %s", proxy_channel_name(channel), s->lst[channel].name);
		return -1;
	}
	if ((fd = unix_listen(path, cause)) == -1)
		return -1;
	side_listen(s, channel, fd, path, path);
	proxy_log(PROXY_LOG_INFO, "source: listening on unix:%s for the %s "
	    "channel", path, proxy_channel_name(channel));
	return 0;
}

void
proxy_source_stats(struct proxy_source *src, struct proxy_stats *st)
{
	*st = src->side.stats;
}

void
proxy_source_set_timeouts(struct proxy_source *src, double idle,
    double handshake)
{
	if (idle > 0)
		src->side.idle = idle;
	if (handshake > 0)
		src->side.handshake = handshake;
}

void
proxy_source_free(struct proxy_source *src)
{
	if (src == NULL)
		return;
	side_free(&src->side);
	free(src);
}

struct proxy_target *
proxy_target_start(struct ev_loop *loop, struct proxy_tls *tls,
    const char *addr, const char *port, const char *qemu_path,
    proxy_control_cb on_control, void *arg, char **cause)
{
	struct proxy_target	*t;
	struct side		*s;
	struct addrinfo		 hints, *res, *ai;
	struct sockaddr_storage	 ss;
	socklen_t		 len = sizeof ss;
	int			 fd = -1, r, one = 1, err = 0;

	t = proxy_xcalloc(1, sizeof *t);
	s = &t->side;
	side_init(s, loop, tls, 0);
	s->target = t;
	s->on_control = on_control;
	s->on_control_arg = arg;
	s->path[PROXY_CHAN_MIGRATION] = proxy_xstrdup(qemu_path != NULL ?
	    qemu_path : "");
	proxy_asprintf(&s->listen_name, "%s:%s",
	    addr != NULL && *addr != '\0' ? addr : "*", port);

	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_family = AF_UNSPEC;
	hints.ai_flags = AI_PASSIVE;
	r = getaddrinfo(addr != NULL && *addr != '\0' ? addr : NULL, port,
	    &hints, &res);
	if (r != 0) {
		proxy_asprintf(cause, "%s: %s", s->listen_name,
		    gai_strerror(r));
		goto fail;
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, ai->ai_protocol);
		if (fd == -1) {
			err = errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
		    listen(fd, 128) == 0)
			break;
		err = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd == -1) {
		proxy_asprintf(cause, "%s: %s", s->listen_name, strerror(err));
		goto fail;
	}
	if (getsockname(fd, (struct sockaddr *)&ss, &len) == 0)
		s->port = ntohs(ss.ss_family == AF_INET6 ?
		    ((struct sockaddr_in6 *)&ss)->sin6_port :
		    ((struct sockaddr_in *)&ss)->sin_port);
	side_listen(s, 0, fd, s->listen_name, NULL);
	proxy_log(PROXY_LOG_INFO, "target: listening on %s%s (port %d), "
	    "forwarding to unix:%s", tls != NULL ? "tls:" : "tcp:",
	    s->listen_name, s->port, s->path[PROXY_CHAN_MIGRATION]);
	return t;
fail:
	side_free(s);
	free(t);
	return NULL;
}

void
proxy_target_set_path(struct proxy_target *t, unsigned channel,
    const char *path)
{
	if (channel >= PROXY_CHANNELS)
		return;
	free(t->side.path[channel]);
	t->side.path[channel] = path != NULL ? proxy_xstrdup(path) : NULL;
	if (path != NULL)
		proxy_log(PROXY_LOG_DEBUG, "target: %s channel to unix:%s",
		    proxy_channel_name(channel), path);
}

void
proxy_target_set_qemu_path(struct proxy_target *t, const char *path)
{
	proxy_target_set_path(t, PROXY_CHAN_MIGRATION, path);
}

int
proxy_target_port(struct proxy_target *t)
{
	return t->side.port;
}

void
proxy_target_stats(struct proxy_target *t, struct proxy_stats *st)
{
	*st = t->side.stats;
}

void
proxy_target_set_timeouts(struct proxy_target *t, double idle,
    double handshake)
{
	if (idle > 0)
		t->side.idle = idle;
	if (handshake > 0)
		t->side.handshake = handshake;
}

void
proxy_target_free(struct proxy_target *t)
{
	if (t == NULL)
		return;
	side_free(&t->side);
	free(t);
}
