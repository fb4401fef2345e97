/*
 * proxy-target.c: the target side.  Accepts TCP, completes the TLS
 * handshake and reads the header under a deadline; a control header opens
 * the (one) session, whose messages go to the owner; a data header of the
 * live session is held until its turn and then connected to QEMU's unix
 * socket for its channel.  Everything else is refused.
 */
#include <sys/un.h>

#include <netinet/in.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "proxy-int.h"

#define MAX_HELD		256	/* data connections ahead of order */

struct proxy_target {
	struct proxy_side	 side;
	char			*path[PROXY_CHANNELS];	/* QEMU's sockets */
	int			 port;
	proxy_control_cb	 on_control;
	void			*on_control_arg;
};

static struct proxy_target *
side_target(struct proxy_side *s)
{
	return container_of(s, struct proxy_target, side);
}

/*
 * The answer of a standalone target (no owner): ready to the standalone
 * source's session message, refused to anything else.  Nothing behind a
 * standalone target checks an engine's offer, listens for a post-copy
 * resume or confirms a completed migration, so it must not say ready to
 * those: the engine would start QEMU's migration on its word.
 */
static struct json_object *
target_standalone_answer(struct conn *c, struct json_object *msg)
{
	struct json_object *ans = json_object_new_object(), *type;

	if (json_object_object_get_ex(msg, "type", &type) &&
	    json_object_is_type(type, json_type_string) &&
	    strcmp(json_object_get_string(type),
	    PROXY_STANDALONE_SESSION) == 0) {
		json_object_object_add(ans, "status",
		    json_object_new_string("ready"));
		return ans;
	}
	json_object_object_add(ans, "status",
	    json_object_new_string("refused"));
	json_object_object_add(ans, "reason", json_object_new_string(
	    "this is a standalone qmigrate proxy target: no migration engine "
	    "is behind it to answer for the target (run qmigrate incoming "
	    "--listen tls:ADDR:PORT there instead)"));
	proxy_log(PROXY_LOG_WARN, "%s: refused a message for a migration "
	    "engine: this standalone proxy target has none", c->name);
	return ans;
}

/* A control message from the source: the owner answers it. */
static int
target_control_msg(struct conn *c, struct json_object *msg, char **cause)
{
	struct proxy_target *t = side_target(c->side);

	c->control.awaiting = 1;
	if (t->on_control != NULL) {
		t->on_control(t, msg, NULL, t->on_control_arg);
		return 0;
	}
	proxy_target_answer(t, target_standalone_answer(c, msg), NULL);
	return 0;
}

static void
target_session_ended(struct proxy_side *s, const char *reason)
{
	struct proxy_target *t = side_target(s);

	if (t->on_control != NULL)
		t->on_control(t, NULL, reason, t->on_control_arg);
}

/*
 * The next held connection of channel ch that may go to QEMU: the lowest
 * sequence number on an ordered channel, the first held on the others.
 */
static struct conn *
target_next_held(struct proxy_side *s, unsigned ch)
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
 * One connect() of c to QEMU's socket for its channel: 1 connected, 0
 * QEMU's backlog is full (retry timer armed), -1 failed with *cause.
 */
static int
target_connect_qemu(struct conn *c, const char *path, char **cause)
{
	struct sockaddr_un sun;

	if (unix_addr(&sun, path, cause) != 0)
		return -1;
	if (c->qfd == -1) {
		c->qfd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, 0);
		if (c->qfd == -1) {
			set_cause(cause, "socket: %s", strerror(errno));
			return -1;
		}
	}
	if (connect(c->qfd, (struct sockaddr *)&sun, sizeof sun) == 0)
		return 1;
	if (errno == EAGAIN || errno == EINTR) {
		ev_timer_start(c->side->loop, &c->retry);
		return 0;
	}
	set_cause(cause, "connect to %s: %s", path, strerror(errno));
	return -1;
}

/*
 * Connects held data connections to QEMU, channel by channel, one at a
 * time per channel: on the migration channel N+1 waits until N's
 * connect() has returned, so QEMU's accept queue holds them in the
 * source's order.  Returns after a failure (proxy_conn_close() calls it again).
 */
static void
target_release(struct proxy_side *s)
{
	struct proxy_target	*t = side_target(s);
	struct chan		*ch;
	struct conn		*c;
	char			*cause = NULL;
	unsigned		 i;
	int			 r;

	if (!s->sess.live || s->sess.control == NULL)
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
			r = target_connect_qemu(c, t->path[i], &cause);
			if (r == 0)
				break;
			ch->releasing = NULL;
			if (r < 0) {
				proxy_conn_close(c, cause, 0);
				free(cause);
				return;
			}
			ev_timer_stop(s->loop, &c->deadline);
			proxy_conn_forward(c);
		}
	}
}

/* A data header: refuses it (-1 + cause) or holds c until its turn. */
static int
target_hold(struct conn *c, const struct proxy_hdr *h, char **cause)
{
	struct proxy_side	*s = c->side;
	struct proxy_target	*t = side_target(s);
	struct proxy_order	*order;
	char			 hex[2 * PROXY_SESSION_ID_SIZE + 1], *peer;

	if (!proxy_rule_data_admitted(s->sess.live, s->sess.control != NULL,
	    memcmp(h->session, s->sess.id, sizeof h->session) == 0)) {
		proxy_session_hex(h->session, hex);
		set_cause(cause, "unknown session %.8s", hex);
		return -1;
	}
	if (t->path[c->chan] == NULL) {
		set_cause(cause, "no %s channel here (the target was "
		    "given no socket for it)", proxy_channel_name(c->chan));
		return -1;
	}
	peer = c->name;
	c->name = NULL;
	proxy_conn_name_session(c, peer + 5);	/* skip "peer " */
	free(peer);
	proxy_tcp_dead_peer(c->nfd);
	order = s->sess.chan[c->chan].order;
	if (order != NULL && proxy_order_offer(order, h->seq, c, cause) != 0)
		return -1;
	c->state = C_HOLD;
	proxy_conn_want(c, 0);
	/* The deadline keeps running: N may never come. */
	if (order != NULL && proxy_order_expected(order) != h->seq)
		proxy_log(PROXY_LOG_DEBUG, "%s: held until conn %u", c->name,
		    proxy_order_expected(order));
	target_release(s);
	return 0;
}

/*
 * A control header: c opens the session, replaces the same session's old
 * connection, or is refused (-1 + cause), as proxy_rule_open says.
 */
static int
target_open_session(struct conn *c, const struct proxy_hdr *h, char **cause)
{
	struct proxy_side	*s = c->side;
	char			*peer;

	switch (proxy_rule_open(s->sess.control != NULL,
	    memcmp(h->session, s->sess.id, sizeof s->sess.id) == 0)) {
	case PROXY_OPEN_REFUSE:
		*cause = xstrdup(PROXY_RULE_ONE_SESSION);
		return -1;
	case PROXY_OPEN_REPLACE:
		proxy_conn_close(s->sess.control, PROXY_RULE_REPLACED, 0);
		break;
	case PROXY_OPEN_NEW:
		break;
	}
	proxy_session_clear(s);
	memcpy(s->sess.id, h->session, sizeof s->sess.id);
	proxy_session_hex(s->sess.id, s->sess.hex);
	s->sess.chan[PROXY_CHAN_MIGRATION].order = proxy_order_new(MAX_HELD);
	s->sess.control = c;
	peer = c->name;
	c->name = NULL;
	proxy_conn_name_session(c, peer + 5);	/* skip "peer " */
	free(peer);
	ev_timer_stop(s->loop, &c->deadline);
	c->state = C_CONTROL;
	proxy_log(PROXY_LOG_INFO, "%s: open", c->name);
	return 0;
}

/* C_HANDSHAKE: 1 done, 0 waiting, -1 refused with *cause. */
static int
target_handshake(struct conn *c, char **cause)
{
	char	*peer;
	int	 r;

	if (c->ssl == NULL)
		return 1;
	if ((r = proxy_conn_handshake(c, cause)) <= 0)
		return r;
	if (proxy_tls_check_peer(c->side->tls, c->ssl, cause) != 0)
		return -1;
	peer = proxy_tls_peer_subject(c->ssl);
	proxy_log(PROXY_LOG_DEBUG, "%s: TLS %s %s, peer %s", c->name,
	    SSL_get_version(c->ssl), SSL_get_cipher_name(c->ssl), peer);
	free(peer);
	return 1;
}

/*
 * The target side's connection set-up, one state at a time: TLS
 * handshake, header in, then a data connection held for its turn or the
 * control connection's session opened.  Returns when it must wait for
 * I/O; a failure closes c as refused.
 */
static void
target_step(struct conn *c)
{
	struct proxy_hdr	 h;
	char			*cause = NULL;
	int			 r;

	switch (c->state) {
	case C_QEMU_CONNECT:
		target_release(c->side);
		return;
	case C_HANDSHAKE:
		if ((r = target_handshake(c, &cause)) == 0)
			return;
		if (r < 0)
			break;
		c->state = C_READ_HDR;
		c->hdr_off = 0;
		/* FALLTHROUGH */
	case C_READ_HDR:
		r = proxy_conn_io(c, CONN_READ, c->hdr, sizeof c->hdr,
		    &c->hdr_off, &cause);
		if (r == 0)
			return;
		if (r < 0 || proxy_hdr_decode(c->hdr, sizeof c->hdr, &h,
		    &cause) != 0)
			break;
		c->kind = h.kind;
		c->chan = h.channel;
		c->seq = h.seq;
		proxy_conn_uncount(c);
		if (h.kind == PROXY_KIND_DATA) {
			if (target_hold(c, &h, &cause) != 0)
				break;
			return;
		}
		if (target_open_session(c, &h, &cause) != 0)
			break;
		proxy_control_step(c);
		return;
	case C_CONTROL:
		proxy_control_step(c);
		return;
	default:
		return;	/* no I/O of ours in the other states */
	}
	proxy_conn_close(c, cause, 1);
	free(cause);
}

/* A TCP connection from a would-be source: TLS first. */
static void
target_accept(struct listener *lst, int fd, const struct sockaddr *sa,
    socklen_t salen)
{
	struct proxy_side	*s = lst->side;
	struct conn		*c;
	char			 host[NI_MAXHOST], serv[NI_MAXSERV];
	char			 name[NI_MAXHOST + 64], *cause = NULL;

	if (getnameinfo(sa, salen, host, sizeof host, serv, sizeof serv,
	    NI_NUMERICHOST | NI_NUMERICSERV) != 0)
		snprintf(name, sizeof name, "peer ?");
	else if (sa->sa_family == AF_INET6)
		snprintf(name, sizeof name, "peer [%s]:%s", host, serv);
	else
		snprintf(name, sizeof name, "peer %s:%s", host, serv);
	proxy_tcp_options(fd);
	c = proxy_conn_new(s, fd, -1, name);
	c->state = C_HANDSHAKE;
	if (s->tls != NULL) {
		c->ssl = proxy_tls_ssl(s->tls, fd, NULL, &cause);
		if (c->ssl == NULL) {
			proxy_conn_close(c, cause, 0);
			free(cause);
			return;
		}
	}
	ev_timer_again(s->loop, &c->deadline);
	proxy_conn_want(c, EV_READ);
}

static const struct side_ops target_ops = {
	.dir = "from",
	.sends_header = 0,
	.refuse_unauthenticated = 1,
	.step = target_step,
	.accept = target_accept,
	.conn_closed = target_release,
	.control_msg = target_control_msg,
	.session_ended = target_session_ended,
};

int
proxy_target_answer(struct proxy_target *t, struct json_object *answer,
    char **cause)
{
	struct proxy_side	*s = &t->side;
	struct conn		*c = s->sess.control;
	enum proxy_answer	 a;

	a = proxy_rule_answer(c != NULL && c->control.awaiting, s->sess.live,
	    proxy_msg_is_ready(answer));
	if (a == PROXY_ANSWER_NOT_OWED) {
		set_cause(cause, "%s", PROXY_RULE_NOT_OWED);
		json_object_put(answer);
		return -1;
	}
	c->control.awaiting = 0;
	if (a == PROXY_ANSWER_LIVE) {
		s->sess.live = 1;
		proxy_log(PROXY_LOG_INFO, "session %s is live", s->sess.hex);
	}
	proxy_control_queue(c, answer);
	json_object_put(answer);
	/* Write from the loop: the caller may be inside on_control. */
	ev_feed_event(s->loop, &c->io, EV_WRITE);
	return 0;
}

struct proxy_target *
proxy_target_start(struct ev_loop *loop, struct proxy_tls *tls,
    const char *addr, const char *port, const char *qemu_path,
    proxy_control_cb on_control, void *arg, char **cause)
{
	struct proxy_target	*t;
	struct proxy_side	*s;
	struct sockaddr_storage	 ss;
	socklen_t		 len = sizeof ss;
	char			*why;
	int			 fd;

	t = xcalloc(1, sizeof *t);
	s = &t->side;
	proxy_side_init(s, loop, tls, &target_ops);
	s->stat_q2n = &s->stats.bytes_from_target;
	s->stat_n2q = &s->stats.bytes_to_target;
	t->on_control = on_control;
	t->on_control_arg = arg;
	t->path[PROXY_CHAN_MIGRATION] = xstrdup(qemu_path != NULL ?
	    qemu_path : "");
	set_cause(&s->listen_name, "%s:%s",
	    addr != NULL && *addr != '\0' ? addr : "*", port);

	if ((fd = tcp_listen(addr, port, 0, &why)) == -1) {
		set_cause(cause, "%s: %s", s->listen_name, why);
		free(why);
		goto fail;
	}
	if (getsockname(fd, (struct sockaddr *)&ss, &len) == 0)
		t->port = ntohs(ss.ss_family == AF_INET6 ?
		    ((struct sockaddr_in6 *)&ss)->sin6_port :
		    ((struct sockaddr_in *)&ss)->sin_port);
	proxy_side_listen(s, 0, fd, s->listen_name, NULL);
	proxy_log(PROXY_LOG_INFO, "target: listening on %s%s (port %d), "
	    "forwarding to unix:%s", tls != NULL ? "tls:" : "tcp:",
	    s->listen_name, t->port, t->path[PROXY_CHAN_MIGRATION]);
	return t;
fail:
	proxy_target_free(t);
	return NULL;
}

void
proxy_target_set_path(struct proxy_target *t, unsigned channel,
    const char *path)
{
	if (channel >= PROXY_CHANNELS)
		return;
	free(t->path[channel]);
	t->path[channel] = path != NULL ? xstrdup(path) : NULL;
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
	return t->port;
}

void
proxy_target_stats(struct proxy_target *t, struct proxy_stats *st)
{
	proxy_side_stats(&t->side, st);
}

void
proxy_target_set_timeouts(struct proxy_target *t, double idle,
    double handshake)
{
	proxy_side_set_timeouts(&t->side, idle, handshake);
}

void
proxy_target_set_workers(struct proxy_target *t, unsigned n)
{
	proxy_side_set_workers(&t->side, n);
}

/* Closes the listener, every connection and pair, frees.  NULL is ok. */
void
proxy_target_free(struct proxy_target *t)
{
	unsigned i;

	if (t == NULL)
		return;
	proxy_side_free(&t->side);
	for (i = 0; i < PROXY_CHANNELS; i++)
		free(t->path[i]);
	free(t);
}
