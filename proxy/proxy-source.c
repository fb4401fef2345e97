/*
 * proxy-source.c: the source side.  QEMU connects to our unix sockets
 * (one per channel); each connection waits for the session, gets the next
 * sequence number of its channel, and goes to the target over TCP and TLS
 * with the header in front.  The control connection is opened on the
 * first proxy_source_control() (or by the first QEMU connection in
 * standalone mode) and carries the owner's messages and their answers.
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>
#include <openssl/rand.h>

#include "proxy-int.h"

struct proxy_source {
	struct proxy_side	 side;
	struct addrinfo		*ai;		/* the target, resolved once */
	char			*peer_name;	/* host:port */
	char			*tls_name;
	int			 auto_session;
	/* The session's id, kept across control connections or not
	   (proxy_rule_ask). */
	uint8_t			 id[PROXY_SESSION_ID_SIZE];
	int			 have_id;
	uint32_t		 serial;	/* names before the header */
	proxy_answer_cb		 answer_cb;	/* the message in flight */
	void			*answer_arg;
};

static struct proxy_source *
side_source(struct proxy_side *s)
{
	return container_of(s, struct proxy_source, side);
}

/* Hands the answer (or error) of the message in flight to its owner. */
static void
source_answer(struct proxy_source *src, struct json_object *answer,
    const char *error)
{
	proxy_answer_cb	 cb = src->answer_cb;
	void		*arg = src->answer_arg;

	src->answer_cb = NULL;
	src->answer_arg = NULL;
	if (cb != NULL)
		cb(answer, error, arg);
}

static void
source_auto_cb(struct json_object *answer, const char *error, void *arg)
{
	struct proxy_source *src = arg;

	if (error != NULL)
		proxy_log(PROXY_LOG_WARN, "session with %s failed: %s",
		    src->peer_name, error);
	else if (!proxy_msg_is_ready(answer)) {
		proxy_log(PROXY_LOG_WARN, "session with %s refused: %s",
		    src->peer_name, json_object_to_json_string_ext(answer,
		    JSON_C_TO_STRING_PLAIN));
		if (src->side.sess.control != NULL)
			proxy_conn_close(src->side.sess.control,
			    "session refused", 0);
	}
}

/* Starts the TCP connection of c (control or data) to the target. */
static void
source_connect(struct conn *c)
{
	struct proxy_source	*src = side_source(c->side);
	struct addrinfo		*ai;
	char			*cause = NULL;
	int			 fd = -1;

	for (ai = src->ai; ai != NULL; ai = ai->ai_next) {
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
		cause = proxy_rule_connect_failed(src->peer_name,
		    strerror(errno));
		proxy_conn_close(c, cause, 0);
		free(cause);
		return;
	}
	proxy_tcp_options(fd);
	if (c->kind == PROXY_KIND_DATA)
		proxy_tcp_dead_peer(fd);
	c->nfd = fd;
	c->state = C_CONNECT;
	ev_timer_again(c->side->loop, &c->deadline);
	ev_io_set(&c->io, fd, 0);
	c->io_events = 0;
	proxy_conn_want(c, EV_WRITE);
}

/* Data connections waiting for the session, in accept order. */
static void
source_start_waiting(struct proxy_source *src)
{
	struct proxy_side	*s = &src->side;
	struct conn		*c, *next;

	for (c = TAILQ_FIRST(&s->conns); c != NULL; c = next) {
		next = TAILQ_NEXT(c, entry);
		if (c->state != C_WAIT_SESSION)
			continue;
		c->seq = s->sess.chan[c->chan].next_seq++;
		proxy_conn_name_session(c, src->peer_name);
		source_connect(c);
	}
}

/* C_CONNECT: 1 connected (TLS set up), 0 waiting, -1 failed + cause. */
static int
source_connected(struct conn *c, char **cause)
{
	struct proxy_source	*src = side_source(c->side);
	socklen_t		 len = sizeof(int);
	int			 soerr = 0;

	if (getsockopt(c->nfd, SOL_SOCKET, SO_ERROR, &soerr, &len) == -1)
		soerr = errno;
	if (soerr == EINPROGRESS)
		return 0;
	if (soerr != 0) {
		*cause = proxy_rule_connect_failed(src->peer_name,
		    strerror(soerr));
		return -1;
	}
	if (c->side->tls != NULL) {
		c->ssl = proxy_tls_ssl(c->side->tls, c->nfd, src->tls_name,
		    cause);
		if (c->ssl == NULL)
			return -1;
	}
	return 1;
}

/*
 * C_HANDSHAKE: 1 done (the header is ready to send), 0 waiting, -1
 * refused with *cause (the target failed authentication).
 */
static int
source_handshake(struct conn *c, char **cause)
{
	struct proxy_source	*src = side_source(c->side);
	struct proxy_hdr	 h;
	char			*why;
	int			 r;

	if (c->ssl != NULL) {
		r = proxy_conn_handshake(c, &why);
		if (r == 0)
			return 0;
		if (r < 0) {
			set_cause(cause, "TLS with %s: %s",
			    src->peer_name, why);
			free(why);
			return -1;
		}
		if (proxy_tls_check_peer(c->side->tls, c->ssl, cause) != 0)
			return -1;
	}
	memset(&h, 0, sizeof h);
	h.kind = c->kind;
	h.channel = c->kind == PROXY_KIND_DATA ? (uint8_t)c->chan : 0;
	memcpy(h.session, c->side->sess.id, sizeof h.session);
	h.seq = c->seq;
	proxy_hdr_encode(&h, c->hdr);
	c->hdr_off = 0;
	return 1;
}

/* The header is out: a data connection forwards, the control one opens. */
static void
source_hdr_sent(struct conn *c)
{
	proxy_conn_uncount(c);
	if (c->kind == PROXY_KIND_DATA) {
		ev_timer_stop(c->side->loop, &c->deadline);
		proxy_conn_forward(c);
		return;
	}
	c->state = C_CONTROL;
	proxy_log(PROXY_LOG_INFO, "%s: open", c->name);
	proxy_control_step(c);
}

/*
 * The source side's connection set-up, one state at a time: connect,
 * TLS handshake, header out; then the control exchange.  Returns when it
 * must wait for I/O; a failure closes c (a failed handshake as refused).
 */
static void
source_step(struct conn *c)
{
	char	*cause = NULL;
	int	 r;

	switch (c->state) {
	case C_CONNECT:
		if ((r = source_connected(c, &cause)) == 0)
			return;
		if (r < 0)
			break;
		c->state = C_HANDSHAKE;
		/* FALLTHROUGH */
	case C_HANDSHAKE:
		if ((r = source_handshake(c, &cause)) == 0)
			return;
		if (r < 0) {
			proxy_conn_close(c, cause, 1);
			free(cause);
			return;
		}
		c->state = C_SEND_HDR;
		/* FALLTHROUGH */
	case C_SEND_HDR:
		r = proxy_conn_io(c, CONN_WRITE, c->hdr, sizeof c->hdr,
		    &c->hdr_off, &cause);
		if (r == 0)
			return;
		if (r > 0) {
			source_hdr_sent(c);
			return;
		}
		break;
	case C_CONTROL:
		proxy_control_step(c);
		return;
	default:
		return;	/* no I/O of ours in the other states */
	}
	proxy_conn_close(c, cause, 0);
	free(cause);
}

/* An answer came on the control connection. */
static int
source_control_msg(struct conn *c, struct json_object *msg, char **cause)
{
	struct proxy_side	*s = c->side;
	struct proxy_source	*src = side_source(s);
	enum proxy_answer	 a;

	a = proxy_rule_answer(src->answer_cb != NULL, s->sess.live,
	    proxy_msg_is_ready(msg));
	if (a == PROXY_ANSWER_NOT_OWED) {
		*cause = xstrdup(PROXY_RULE_UNEXPECTED);
		return -1;
	}
	ev_timer_stop(s->loop, &c->deadline);
	if (a == PROXY_ANSWER_LIVE) {
		s->sess.live = 1;
		proxy_log(PROXY_LOG_INFO, "session %s with %s is live",
		    s->sess.hex, src->peer_name);
	}
	source_answer(src, msg, NULL);
	if (s->sess.control != c)
		return 0;	/* closed by the callback */
	if (a == PROXY_ANSWER_LIVE)
		source_start_waiting(src);
	return 0;
}

static void
source_session_ended(struct proxy_side *s, const char *reason)
{
	struct proxy_source	*src = side_source(s);
	char			*why;

	if (src->answer_cb == NULL)
		return;
	why = proxy_rule_lost(src->peer_name, reason);
	source_answer(src, NULL, why);
	free(why);
}

/* A standalone source's session, opened by QEMU's first connection. */
static void
source_auto_open(struct proxy_source *src)
{
	struct proxy_side	*s = &src->side;
	struct json_object	*m = json_object_new_object();
	char			*cause = NULL;

	json_object_object_add(m, "type",
	    json_object_new_string(PROXY_STANDALONE_SESSION));
	if (proxy_source_control(src, m, s->handshake, source_auto_cb, src,
	    &cause) != 0) {
		proxy_log(PROXY_LOG_WARN, "session with %s: %s",
		    src->peer_name, cause);
		free(cause);
	}
}

/*
 * QEMU connected to the listener of a channel: forwarded, held for the
 * session, or closed (proxy_rule_data_arrives).
 */
static void
source_accept(struct listener *lst, int fd, const struct sockaddr *sa,
    socklen_t salen)
{
	struct proxy_side	*s = lst->side;
	struct proxy_source	*src = side_source(s);
	struct conn		*c;
	char			 name[64];

	snprintf(name, sizeof name, "qemu %sconnection %u", lst->chan ==
	    PROXY_CHAN_NBD ? "nbd " : "", ++src->serial);
	c = proxy_conn_new(s, -1, fd, name);
	c->kind = PROXY_KIND_DATA;
	c->chan = lst->chan;
	c->state = C_WAIT_SESSION;
	proxy_log(PROXY_LOG_DEBUG, "%s: accepted on %s", c->name, lst->name);
	switch (proxy_rule_data_arrives(s->sess.live, s->sess.control != NULL,
	    src->auto_session)) {
	case PROXY_DATA_FORWARD:
		source_start_waiting(src);
		return;
	case PROXY_DATA_HOLD:
		return;
	case PROXY_DATA_REFUSE:
		proxy_conn_close(c, PROXY_RULE_NO_SESSION, 0);
		return;
	case PROXY_DATA_OPEN:
		source_auto_open(src);
		return;
	}
}

static const struct side_ops source_ops = {
	.dir = "to",
	.sends_header = 1,
	.refuse_unauthenticated = 0,
	.step = source_step,
	.accept = source_accept,
	.conn_closed = NULL,
	.control_msg = source_control_msg,
	.session_ended = source_session_ended,
};

/*
 * A new control connection for the session's id (s->sess cleared: the
 * last one's session ended with it).  Returns it, or NULL with *cause if
 * it failed at once.
 */
static struct conn *
source_open_control(struct proxy_source *src, char **cause)
{
	struct proxy_side	*s = &src->side;
	struct conn		*c;
	char			*why;

	memset(&s->sess, 0, sizeof s->sess);
	memcpy(s->sess.id, src->id, sizeof s->sess.id);
	proxy_session_hex(s->sess.id, s->sess.hex);
	c = proxy_conn_new(s, -1, -1, "control");
	c->kind = PROXY_KIND_CONTROL;
	proxy_conn_name_session(c, src->peer_name);
	s->sess.control = c;
	source_connect(c);
	if (s->sess.control == c)
		return c;
	why = proxy_rule_lost(src->peer_name, s->control_error);
	set_cause(cause, "%s", why);
	free(why);
	return NULL;
}

int
proxy_source_control(struct proxy_source *src, struct json_object *msg,
    double timeout, proxy_answer_cb cb, void *arg, char **cause)
{
	struct proxy_side	*s = &src->side;
	struct conn		*c = s->sess.control;
	double			 deadline;

	switch (proxy_rule_ask(src->answer_cb != NULL, c != NULL,
	    src->auto_session, src->have_id)) {
	case PROXY_ASK_BUSY:
		set_cause(cause, "%s", PROXY_RULE_BUSY);
		json_object_put(msg);
		return -1;
	case PROXY_ASK_OPEN_NEW:
		if (RAND_bytes(src->id, sizeof src->id) != 1) {
			set_cause(cause, "no random bytes for a session");
			json_object_put(msg);
			return -1;
		}
		src->have_id = 1;
		/* FALLTHROUGH */
	case PROXY_ASK_OPEN:
		if ((c = source_open_control(src, cause)) == NULL) {
			json_object_put(msg);
			return -1;
		}
		break;
	case PROXY_ASK_SEND:
		break;
	}
	src->answer_cb = cb;
	src->answer_arg = arg;
	proxy_control_queue(c, msg);
	json_object_put(msg);
	ev_timer_stop(s->loop, &c->deadline);
	if ((deadline = proxy_rule_ask_deadline(timeout)) > 0) {
		ev_timer_set(&c->deadline, deadline, 0);
		c->deadline.repeat = deadline;
		ev_timer_start(s->loop, &c->deadline);
	}
	if (c->state == C_CONTROL)
		proxy_conn_want(c, EV_READ | EV_WRITE);
	return 0;
}

void
proxy_source_auto_session(struct proxy_source *src, int enable)
{
	src->auto_session = enable;
}

int
proxy_source_session_live(struct proxy_source *src)
{
	return src->side.sess.live && src->side.sess.control != NULL;
}

struct proxy_source *
proxy_source_start(struct ev_loop *loop, struct proxy_tls *tls,
    const char *listen_path, const char *host, const char *port,
    const char *tls_name, char **cause)
{
	struct proxy_source	*src;
	struct proxy_side	*s;
	struct addrinfo		 hints;
	int			 fd, r;

	src = xcalloc(1, sizeof *src);
	s = &src->side;
	proxy_side_init(s, loop, tls, &source_ops);
	s->stat_q2n = &s->stats.bytes_to_target;
	s->stat_n2q = &s->stats.bytes_from_target;
	set_cause(&src->peer_name, "%s:%s", host, port);
	src->tls_name = xstrdup(tls_name != NULL ? tls_name : host);
	s->listen_name = xstrdup(listen_path);

	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_family = AF_UNSPEC;
	r = getaddrinfo(host, port, &hints, &src->ai);
	if (r != 0) {
		set_cause(cause, "%s: %s", src->peer_name,
		    gai_strerror(r));
		src->ai = NULL;
		goto fail;
	}
	if ((fd = proxy_unix_listen(listen_path, cause)) == -1)
		goto fail;
	proxy_side_listen(s, PROXY_CHAN_MIGRATION, fd, listen_path,
	    listen_path);
	proxy_log(PROXY_LOG_INFO, "source: listening on unix:%s, forwarding "
	    "to %s%s (name %s)", listen_path, tls != NULL ? "tls:" : "tcp:",
	    src->peer_name, src->tls_name);
	return src;
fail:
	proxy_source_free(src);
	return NULL;
}

int
proxy_source_add_listener(struct proxy_source *src, unsigned channel,
    const char *path, char **cause)
{
	struct proxy_side	*s = &src->side;
	int			 fd;

	if (channel >= PROXY_CHANNELS) {
		set_cause(cause, "unknown channel %u", channel);
		return -1;
	}
	if (s->lst[channel].fd != -1) {
		set_cause(cause, "already listening for the %s channel "
		    "on %s", proxy_channel_name(channel), s->lst[channel].name);
		return -1;
	}
	if ((fd = proxy_unix_listen(path, cause)) == -1)
		return -1;
	proxy_side_listen(s, channel, fd, path, path);
	proxy_log(PROXY_LOG_INFO, "source: listening on unix:%s for the %s "
	    "channel", path, proxy_channel_name(channel));
	return 0;
}

void
proxy_source_stats(struct proxy_source *src, struct proxy_stats *st)
{
	proxy_side_stats(&src->side, st);
}

void
proxy_source_set_timeouts(struct proxy_source *src, double idle,
    double handshake)
{
	proxy_side_set_timeouts(&src->side, idle, handshake);
}

void
proxy_source_set_workers(struct proxy_source *src, unsigned n)
{
	proxy_side_set_workers(&src->side, n);
}

void
proxy_source_free(struct proxy_source *src)
{
	if (src == NULL)
		return;
	proxy_side_free(&src->side);
	if (src->ai != NULL)
		freeaddrinfo(src->ai);
	free(src->peer_name);
	free(src->tls_name);
	free(src);
}
