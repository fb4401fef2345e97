/*
 * proxy-conn.c: the connection engine both sides of the proxy share
 * (relayd's relay.c): listeners and accepting under a cap, the life of a
 * connection being set up (its watcher, deadline, TLS handshake and
 * header I/O, its one teardown), and the hand-over of a finished
 * connection to proxy-pair.c, and the session's end when its control
 * connection closes.  What a side does with a connection (the
 * protocol) is in proxy-source.c and proxy-target.c, through side_ops.
 */
#include <sys/stat.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/err.h>

#include "proxy-int.h"

#define ACCEPT_BURST		32
#define ACCEPT_PAUSE		1.0	/* seconds after EMFILE */
#define QEMU_RETRY		0.005	/* unix connect() backlog full */

/*
 * A forwarding pair, linked to its side for stats; the pair itself lives
 * on a worker's loop (proxy-worker.c), which tells pair_done() its end.
 */
struct pair_link {
	struct proxy_side	*side;
	TAILQ_ENTRY(pair_link)	 entry;
};

void
proxy_tcp_options(int fd)
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
void
proxy_tcp_dead_peer(int fd)
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

void
proxy_conn_want(struct conn *c, int ev)
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
		proxy_conn_want(c, err == SSL_ERROR_WANT_WRITE ? EV_WRITE :
		    EV_READ);
		return 0;
	}
	*cause = proxy_tls_strerror(c->ssl, ret, err);
	return -1;
}

int
proxy_conn_handshake(struct conn *c, char **cause)
{
	int ret;

	ERR_clear_error();
	ret = SSL_do_handshake(c->ssl);
	if (ret == 1)
		return 1;
	return conn_ssl_failed(c, ret, cause);
}

int
proxy_conn_io(struct conn *c, int dir, void *buf, size_t len, size_t *done,
    char **cause)
{
	uint8_t	*p = buf;
	size_t	 n;
	ssize_t	 r;
	int	 ret;

	while (*done < len) {
		if (c->ssl != NULL) {
			ERR_clear_error();
			ret = dir == CONN_READ ?
			    SSL_read_ex(c->ssl, p + *done, len - *done, &n) :
			    SSL_write_ex(c->ssl, p + *done, len - *done, &n);
			if (ret <= 0)
				return conn_ssl_failed(c, ret, cause);
		} else {
			r = dir == CONN_READ ?
			    read(c->nfd, p + *done, len - *done) :
			    write(c->nfd, p + *done, len - *done);
			if (r == -1 && errno == EINTR)
				continue;
			if (r == -1 && errno == EAGAIN) {
				proxy_conn_want(c, dir == CONN_READ ? EV_READ :
				    EV_WRITE);
				return 0;
			}
			if (r <= 0) {
				*cause = xstrdup(r == 0 ?
				    "closed by peer" : strerror(errno));
				return -1;
			}
			n = (size_t)r;
		}
		*done += n;
	}
	return 1;
}

static void
conn_io_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct conn *c = container_of(w, struct conn, io);

	c->side->ops->step(c);
}

static void
conn_deadline_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct conn	*c = container_of(w, struct conn, deadline);
	char		*reason;
	int		 refused;

	refused = proxy_rule_deadline(c->state, c->deadline.repeat,
	    c->side->ops->refuse_unauthenticated, &reason);
	proxy_conn_close(c, reason, refused);
	free(reason);
}

static void
conn_retry_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct conn *c = container_of(w, struct conn, retry);

	c->side->ops->step(c);
}

struct conn *
proxy_conn_new(struct proxy_side *s, int nfd, int qfd, const char *name)
{
	struct conn *c;

	c = xcalloc(1, sizeof *c);
	c->side = s;
	c->nfd = nfd;
	c->qfd = qfd;
	c->name = xstrdup(name);
	ev_io_init(&c->io, conn_io_cb, nfd, 0);
	ev_timer_init(&c->deadline, conn_deadline_cb, 0., s->handshake);
	ev_timer_init(&c->retry, conn_retry_cb, QEMU_RETRY, 0);
	TAILQ_INSERT_TAIL(&s->conns, c, entry);
	c->counted = 1;
	s->npending++;
	return c;
}

static void	accept_update(struct proxy_side *);
static void	proxy_session_end(struct proxy_side *, const char *reason);

void
proxy_conn_uncount(struct conn *c)
{
	if (!c->counted)
		return;
	c->counted = 0;
	c->side->npending--;
	accept_update(c->side);
}

/* Forgets c without closing its fds or SSL (they moved elsewhere). */
static void
proxy_conn_free(struct conn *c)
{
	struct proxy_side *s = c->side;

	ev_io_stop(s->loop, &c->io);
	ev_timer_stop(s->loop, &c->deadline);
	ev_timer_stop(s->loop, &c->retry);
	TAILQ_REMOVE(&s->conns, c, entry);
	proxy_conn_uncount(c);
	if (s->sess.control == c)
		s->sess.control = NULL;
	if (c->kind == PROXY_KIND_DATA && c->chan < PROXY_CHANNELS) {
		struct chan *ch = &s->sess.chan[c->chan];

		if (ch->releasing == c)
			ch->releasing = NULL;
		if (ch->order != NULL)
			proxy_order_remove(ch->order, c);
	}
	free(c->control.out);
	free(c->control.body);
	free(c->name);
	free(c);
}

void
proxy_conn_close(struct conn *c, const char *reason, int refused)
{
	struct proxy_side	*s = c->side;
	int			 was_control = s->sess.control == c;

	if (was_control) {
		free(s->control_error);
		s->control_error = xstrdup(reason);
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
	proxy_conn_free(c);
	if (was_control)
		proxy_session_end(s, reason);
	else if (s->ops->conn_closed != NULL)
		s->ops->conn_closed(s);
}

/* Frees the per-channel state and zeroes the session. */
void
proxy_session_clear(struct proxy_side *s)
{
	unsigned i;

	for (i = 0; i < PROXY_CHANNELS; i++)
		proxy_order_free(s->sess.chan[i].order);
	memset(&s->sess, 0, sizeof s->sess);
}

/*
 * The session ended with its control connection: connections still being
 * set up for it are closed, pairs already forwarding go on to their end,
 * and the owner is told last, of a side with no session: its callback may
 * open the next session at once (an unanswered question asked again on a
 * new connection) or free the side, so nothing here touches s after it.
 */
static void
proxy_session_end(struct proxy_side *s, const char *reason)
{
	struct conn *c, *next;

	s->sess.live = 0;
	for (c = TAILQ_FIRST(&s->conns); c != NULL; c = next) {
		next = TAILQ_NEXT(c, entry);
		if (proxy_rule_ends_with_session(c->state)) {
			proxy_conn_close(c, "session ended", 0);
			next = TAILQ_FIRST(&s->conns);
		}
	}
	proxy_session_clear(s);
	if (!s->freeing)
		s->ops->session_ended(s, reason);
}

/* On the side's loop, once the pair has ended on its worker. */
static void
pair_done(void *arg)
{
	struct pair_link *l = arg;

	TAILQ_REMOVE(&l->side->pairs, l, entry);
	l->side->stats.active--;
	free(l);
}

void
proxy_conn_forward(struct conn *c)
{
	struct proxy_side	*s = c->side;
	struct pair_link	*l;

	l = xcalloc(1, sizeof *l);
	l->side = s;
	TAILQ_INSERT_TAIL(&s->pairs, l, entry);
	s->stats.connections++;
	s->stats.active++;
	if (s->workers == NULL)
		s->workers = proxy_workers_new(s->loop, s->nworkers);
	proxy_workers_pair(s->workers, c->name, c->qfd, c->nfd, c->ssl,
	    s->ops->sends_header, PROXY_BUFFER_SIZE, s->idle, s->stat_q2n,
	    s->stat_n2q, pair_done, l);
	c->qfd = c->nfd = -1;
	c->ssl = NULL;
	proxy_conn_free(c);
}

void
proxy_conn_name_session(struct conn *c, const char *peer)
{
	struct proxy_side *s = c->side;

	free(c->name);
	if (c->kind == PROXY_KIND_CONTROL)
		set_cause(&c->name, "session %.8s control %s %s",
		    s->sess.hex, s->ops->dir, peer);
	else
		set_cause(&c->name, "session %.8s %sconn %u %s %s",
		    s->sess.hex, c->chan == PROXY_CHAN_NBD ? "nbd " : "",
		    c->seq, s->ops->dir, peer);
}

/* Accepting: on while fewer than max_pending are set up and not paused. */
static void
accept_update(struct proxy_side *s)
{
	int		want;
	unsigned	i;

	want = !s->accept_paused && s->npending < s->max_pending;
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
	struct proxy_side *s;

	s = container_of(w, struct proxy_side, accept_pause);
	s->accept_paused = 0;
	accept_update(s);
}

static void
accept_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct listener		*lst;
	struct proxy_side	*s;
	struct sockaddr_storage	 ss;
	socklen_t		 len;
	int			 fd, i;

	lst = container_of(w, struct listener, io);
	s = lst->side;
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
		s->ops->accept(lst, fd, (struct sockaddr *)&ss, len);
	}
	accept_update(s);
}

/*
 * Fills s, owned by the caller, for ops on loop with tls (NULL: plaintext,
 * logged loudly), the limits at their defaults and no listener yet
 * (proxy_side_listen()); proxy_side_free() undoes it.
 */
void
proxy_side_init(struct proxy_side *s, struct ev_loop *loop,
    struct proxy_tls *tls, const struct side_ops *ops)
{
	unsigned i;

	s->loop = loop;
	s->tls = tls;
	s->ops = ops;
	for (i = 0; i < PROXY_CHANNELS; i++)
		s->lst[i].fd = -1;
	s->max_pending = PROXY_MAX_PENDING;
	s->idle = PROXY_IDLE_TIMEOUT;
	s->handshake = PROXY_HANDSHAKE_TIMEOUT;
	s->nworkers = proxy_workers_default();
	TAILQ_INIT(&s->conns);
	TAILQ_INIT(&s->pairs);
	ev_init(&s->accept_pause, accept_pause_cb);
	if (tls == NULL)
		proxy_log(PROXY_LOG_WARN, "TLS IS DISABLED: migration data "
		    "crosses the network in PLAINTEXT, unauthenticated");
}

void
proxy_side_listen(struct proxy_side *s, unsigned chan, int fd, const char *name,
    const char *unlink_path)
{
	struct listener *l = &s->lst[chan];

	l->side = s;
	l->chan = chan;
	l->fd = fd;
	l->name = xstrdup(name);
	if (unlink_path != NULL)
		l->unlink_path = xstrdup(unlink_path);
	ev_io_init(&l->io, accept_cb, fd, EV_READ);
	accept_update(s);
}

void
proxy_side_set_timeouts(struct proxy_side *s, double idle, double handshake)
{
	if (idle > 0)
		s->idle = idle;
	if (handshake > 0)
		s->handshake = handshake;
}

void
proxy_side_stats(struct proxy_side *s, struct proxy_stats *st)
{
	st->connections = s->stats.connections;
	st->active = s->stats.active;
	st->refused = s->stats.refused;
	st->bytes_to_target = __atomic_load_n(&s->stats.bytes_to_target,
	    __ATOMIC_RELAXED);
	st->bytes_from_target = __atomic_load_n(&s->stats.bytes_from_target,
	    __ATOMIC_RELAXED);
}

void
proxy_side_set_workers(struct proxy_side *s, unsigned n)
{
	s->nworkers = n;
	if (s->workers != NULL)
		proxy_workers_set_max(s->workers, n);
}

void
proxy_side_free(struct proxy_side *s)
{
	unsigned		 i;

	s->sess.live = 0;
	s->freeing = 1;
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
	while (!TAILQ_EMPTY(&s->conns)) {
		struct conn *c = TAILQ_FIRST(&s->conns);

		/*
		 * A control connection ends cleanly when we stop: one
		 * close_notify attempt (non-blocking, never waited for), so
		 * that the peer logs "closed by peer", not a cut it would
		 * read as a failure.
		 */
		if (c->state == C_CONTROL && c->ssl != NULL) {
			(void)SSL_shutdown(c->ssl);
			ERR_clear_error();
		}
		proxy_conn_close(c, "proxy stopping", 0);
	}
	/* Every pair closes and calls pair_done() before this returns. */
	proxy_workers_free(s->workers);
	s->workers = NULL;
	proxy_session_clear(s);
	free(s->control_error);
	free(s->listen_name);
}

/*
 * Listens on the unix socket path: a socket left by a dead proxy is
 * replaced, a live one is not.  The socket is created mode 0600 (umask
 * around bind: fchmod on a socket does not reach its path), so only its
 * owner's QEMU can hand it a guest's memory.  Returns the fd, or -1 with
 * *cause set.
 */
int
proxy_unix_listen(const char *path, char **cause)
{
	struct sockaddr_un	sun;
	struct stat		st;
	mode_t			mask;
	int			fd, probe, r;

	if (unix_addr(&sun, path, cause) != 0)
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd == -1) {
		set_cause(cause, "socket: %s", strerror(errno));
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
		set_cause(cause, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}
