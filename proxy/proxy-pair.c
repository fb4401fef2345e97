/*
 * proxy-pair.c: forwarding one connection pair, QEMU's plain unix socket on
 * one side and the network (TLS or plain TCP) on the other.
 *
 * Each direction has one bounded buffer: a side is read only while the
 * buffer it fills has room, so a slow reader stops a fast writer instead of
 * growing memory (relayd's relay.c).  End of stream is forwarded as a half
 * close (TLS close_notify or shutdown(SHUT_WR)); an error or an unclean TLS
 * end tears down both sides at once so both QEMUs see the close.  All
 * teardown goes through pair_close() with a reason that is logged.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <ev.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "proxy-int.h"

enum { END_QEMU = 0, END_NET = 1 };

#define PAIR_TLS_OUT	(256 * 1024)	/* TLS records waiting for write() */
#define PAIR_TLS_IN	(256 * 1024)	/* TLS records read, not decrypted */

struct pair_end {
	struct proxy_pair	*pair;
	const char		*what;	/* "qemu" or "peer", for reasons */
	int			 fd;
	SSL			*ssl;
	ev_io			 io;
	int			 io_events;
	int			 rd_eof;	/* no more bytes will come */
	int			 wr_shut;	/* our EOF has been sent */
	int			 shut_pending;	/* SSL_shutdown to retry */
	int			 rd_want;	/* EV_READ/EV_WRITE a read waits on */
	int			 wr_want;
	BIO			*bio;	/* our half of the TLS write pair */
	BIO			*rbio;	/* our half of the TLS read pair */
	int			 net_eof; /* read() on the socket saw EOF */
};

struct pair_buf {
	uint8_t	*data;
	size_t	 off;
	size_t	 len;
	uint64_t total;
};

struct proxy_pair {
	struct ev_loop		*loop;
	char			*name;
	struct pair_end		 end[2];
	struct pair_buf		 buf[2];	/* buf[i]: read from end[i] */
	size_t			 cap;
	ev_timer		 idle;
	double			 idle_timeout;
	double			 started;
	uint64_t		*stat[2];	/* q2n, n2q */
	proxy_pair_done_cb	 done;
	void			*done_arg;
	int			 in_pump;
	int			 closing;
	char			*close_reason;
};

enum io_result { IO_BLOCKED, IO_PROGRESS, IO_EOF, IO_ERROR };

static void	pair_pump(struct proxy_pair *);
static void	pair_finish(struct proxy_pair *);

static void
pair_fail(struct proxy_pair *p, struct pair_end *e, const char *op, SSL *ssl,
    int ret, int err)
{
	char *why, *reason;

	if (ssl != NULL)
		why = proxy_tls_strerror(ssl, ret, err);
	else
		why = proxy_xstrdup(err == 0 ? "connection closed" :
		    strerror(err));
	proxy_asprintf(&reason, "%s %s: %s", op, e->what, why);
	free(why);
	proxy_pair_close(p, reason);
	free(reason);
}

/*
 * TLS records come in through a BIO pair filled by large read()s: with
 * OpenSSL reading the socket itself, read-ahead makes it memmove what is
 * left of its buffer before every record (to align the payload), which
 * cost more than the decryption; without read-ahead it makes two read()s
 * per record.  Returns IO_PROGRESS when bytes (or the end) reached the
 * pair, IO_BLOCKED when the socket has nothing, IO_ERROR after pair_fail.
 */
static enum io_result
end_fill(struct proxy_pair *p, struct pair_end *e)
{
	enum io_result	 res = IO_BLOCKED;
	char		*ptr;
	ssize_t		 n;
	int		 avail;

	if (e->rbio == NULL || e->net_eof)
		return IO_BLOCKED;
	while ((avail = BIO_nwrite0(e->rbio, &ptr)) > 0) {
		n = read(e->fd, ptr, (size_t)avail);
		if (n > 0) {
			BIO_nwrite(e->rbio, &ptr, (int)n);
			res = IO_PROGRESS;
			if (n < avail)
				return res;	/* the socket is drained */
			continue;
		}
		if (n == 0) {
			/* SSL sees the end once the pair is empty. */
			e->net_eof = 1;
			BIO_shutdown_wr(e->rbio);
			return IO_PROGRESS;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return res;
		pair_fail(p, e, "read from", NULL, -1, errno);
		return IO_ERROR;
	}
	return res;
}

/* Reads from e into b until b is full or e would block. */
static enum io_result
end_read(struct proxy_pair *p, struct pair_end *e, struct pair_buf *b)
{
	enum io_result	res = IO_BLOCKED;
	size_t		space, got;
	ssize_t		n;
	int		ret, err;

	for (;;) {
		if (b->len == 0)
			b->off = 0;
		else if (b->off + b->len == p->cap && b->off > 0) {
			memmove(b->data, b->data + b->off, b->len);
			b->off = 0;
		}
		space = p->cap - b->off - b->len;
		if (space == 0)
			return res;
		if (e->ssl == NULL) {
			n = read(e->fd, b->data + b->off + b->len, space);
			if (n > 0) {
				got = (size_t)n;
			} else if (n == 0) {
				return IO_EOF;
			} else if (errno == EINTR) {
				continue;
			} else if (errno == EAGAIN || errno == EWOULDBLOCK) {
				return res;
			} else {
				pair_fail(p, e, "read from", NULL, -1, errno);
				return IO_ERROR;
			}
		} else {
			ERR_clear_error();
			ret = SSL_read_ex(e->ssl, b->data + b->off + b->len,
			    space, &got);
			if (ret <= 0) {
				err = SSL_get_error(e->ssl, ret);
				if (err == SSL_ERROR_WANT_READ) {
					switch (end_fill(p, e)) {
					case IO_ERROR:
						return IO_ERROR;
					case IO_BLOCKED:
						e->rd_want = EV_READ;
						return res;
					default:
						continue;	/* more records */
					}
				}
				if (err == SSL_ERROR_WANT_WRITE) {
					e->rd_want = EV_WRITE;
					return res;
				}
				if (err == SSL_ERROR_ZERO_RETURN)
					return IO_EOF;
				pair_fail(p, e, "read from", e->ssl, ret, err);
				return IO_ERROR;
			}
			e->rd_want = EV_READ;
		}
		b->len += got;
		b->total += got;
		res = IO_PROGRESS;
	}
}

/*
 * TLS records are written into a BIO pair and leave in large write()s from
 * here: OpenSSL would otherwise make one write() per 16 KiB record.
 */
static enum io_result
end_flush(struct proxy_pair *p, struct pair_end *e)
{
	enum io_result	 res = IO_BLOCKED;
	char		*ptr;
	ssize_t		 n;
	int		 avail;

	if (e->bio == NULL)
		return IO_BLOCKED;
	while ((avail = BIO_nread0(e->bio, &ptr)) > 0) {
		n = write(e->fd, ptr, (size_t)avail);
		if (n > 0) {
			BIO_nread(e->bio, &ptr, (int)n);
			res = IO_PROGRESS;
			continue;
		}
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return res;
		pair_fail(p, e, "write to", NULL, -1, n == 0 ? EIO : errno);
		return IO_ERROR;
	}
	return res;
}

static int
end_flush_pending(struct pair_end *e)
{
	return e->bio != NULL && BIO_ctrl_pending(e->bio) > 0;
}

/* Writes what b holds to e until b is empty or e would block. */
static enum io_result
end_write(struct proxy_pair *p, struct pair_end *e, struct pair_buf *b,
    uint64_t *stat)
{
	enum io_result	res = IO_BLOCKED, r;
	size_t		done;
	ssize_t		n;
	int		ret, err;

	while (b->len > 0) {
		if (e->ssl == NULL) {
			n = write(e->fd, b->data + b->off, b->len);
			if (n >= 0) {
				done = (size_t)n;
			} else if (errno == EINTR) {
				continue;
			} else if (errno == EAGAIN || errno == EWOULDBLOCK) {
				return res;
			} else {
				pair_fail(p, e, "write to", NULL, -1, errno);
				return IO_ERROR;
			}
		} else {
			ERR_clear_error();
			ret = SSL_write_ex(e->ssl, b->data + b->off, b->len,
			    &done);
			if (ret <= 0) {
				err = SSL_get_error(e->ssl, ret);
				if (err == SSL_ERROR_WANT_WRITE) {
					/* The pair is full: drain, retry. */
					e->wr_want = EV_WRITE;
					r = end_flush(p, e);
					if (r == IO_ERROR)
						return IO_ERROR;
					if (r == IO_PROGRESS)
						continue;
					return res;
				}
				if (err == SSL_ERROR_WANT_READ) {
					e->wr_want = EV_READ;
					return res;
				}
				pair_fail(p, e, "write to", e->ssl, ret, err);
				return IO_ERROR;
			}
			e->wr_want = EV_WRITE;
		}
		b->off += done;
		b->len -= done;
		if (stat != NULL)
			*stat += done;
		res = IO_PROGRESS;
	}
	if (end_flush(p, e) == IO_ERROR)
		return IO_ERROR;
	return res;
}

/* Forwards end of stream to e.  Returns IO_PROGRESS, IO_BLOCKED, IO_ERROR. */
static enum io_result
end_shutdown(struct proxy_pair *p, struct pair_end *e)
{
	int ret, err;

	if (e->ssl == NULL) {
		if (shutdown(e->fd, SHUT_WR) == -1 && errno != ENOTCONN) {
			pair_fail(p, e, "shutdown", NULL, -1, errno);
			return IO_ERROR;
		}
		e->wr_shut = 1;
		return IO_PROGRESS;
	}
	ERR_clear_error();
	ret = SSL_shutdown(e->ssl);
	if (ret >= 0) {
		/* 0: close_notify sent, theirs not yet seen; we read on. */
		e->wr_shut = 1;
		e->shut_pending = 0;
		if (end_flush(p, e) == IO_ERROR)
			return IO_ERROR;
		return IO_PROGRESS;
	}
	err = SSL_get_error(e->ssl, ret);
	if (err == SSL_ERROR_WANT_WRITE || err == SSL_ERROR_WANT_READ) {
		e->shut_pending = 1;
		e->wr_want = err == SSL_ERROR_WANT_WRITE ? EV_WRITE : EV_READ;
		return IO_BLOCKED;
	}
	pair_fail(p, e, "shutdown", e->ssl, ret, err);
	return IO_ERROR;
}

static void
end_update(struct proxy_pair *p, int i)
{
	struct pair_end	*e = &p->end[i];
	struct pair_buf	*in = &p->buf[i], *out = &p->buf[!i];
	int		 ev = 0;

	if (!e->rd_eof && in->len < p->cap)
		ev |= e->rd_want;
	if (out->len > 0 || e->shut_pending)
		ev |= e->wr_want;
	if (end_flush_pending(e))
		ev |= EV_WRITE;
	if (ev == e->io_events)
		return;
	ev_io_stop(p->loop, &e->io);
	e->io_events = ev;
	if (ev != 0) {
		ev_io_set(&e->io, e->fd, ev);
		ev_io_start(p->loop, &e->io);
	}
}

/*
 * Moves bytes until nothing more can move without waiting, then asks the
 * loop for exactly the readiness that would let more move.
 */
static void
pair_pump(struct proxy_pair *p)
{
	enum io_result	r;
	int		i, progress;

	p->in_pump = 1;
	do {
		progress = 0;
		if (end_flush_pending(&p->end[END_NET])) {
			r = end_flush(p, &p->end[END_NET]);
			if (r == IO_ERROR)
				goto out;
			if (r == IO_PROGRESS)
				progress = 1;
		}
		for (i = 0; i < 2; i++) {
			struct pair_end	*src = &p->end[i], *dst = &p->end[!i];
			struct pair_buf	*b = &p->buf[i];

			if (!src->rd_eof) {
				r = end_read(p, src, b);
				if (r == IO_ERROR)
					goto out;
				if (r == IO_EOF) {
					proxy_log(PROXY_LOG_DEBUG,
					    "%s: %s sent end of stream",
					    p->name, src->what);
					src->rd_eof = 1;
				}
				if (r != IO_BLOCKED)
					progress = 1;
			}
			if (b->len > 0) {
				r = end_write(p, dst, b, p->stat[i]);
				if (r == IO_ERROR)
					goto out;
				if (r == IO_PROGRESS)
					progress = 1;
			}
			if (src->rd_eof && b->len == 0 && !dst->wr_shut) {
				r = end_shutdown(p, dst);
				if (r == IO_ERROR)
					goto out;
				if (r == IO_PROGRESS)
					progress = 1;
			}
		}
		if (progress && p->idle_timeout > 0)
			ev_timer_again(p->loop, &p->idle);
	} while (progress && !p->closing);
	if (!p->closing && p->end[0].rd_eof && p->end[1].rd_eof &&
	    p->end[0].wr_shut && p->end[1].wr_shut &&
	    !end_flush_pending(&p->end[END_NET]))
		proxy_pair_close(p, "both sides closed");
	if (!p->closing) {
		end_update(p, 0);
		end_update(p, 1);
	}
out:
	p->in_pump = 0;
	if (p->closing)
		pair_finish(p);
}

static void
pair_io_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct pair_end *e = w->data;

	pair_pump(e->pair);
}

static void
pair_idle_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct proxy_pair	*p = w->data;
	char			*reason;

	proxy_asprintf(&reason, "no data for %.0f s (idle timeout)",
	    p->idle_timeout);
	proxy_pair_close(p, reason);
	free(reason);
}

struct proxy_pair *
proxy_pair_new(struct ev_loop *loop, const char *name, int qfd, int nfd,
    SSL *nssl, size_t bufsize, double idle, uint64_t *stat_q2n,
    uint64_t *stat_n2q, proxy_pair_done_cb done, void *arg)
{
	struct proxy_pair	*p;
	int			 i;

	p = proxy_xcalloc(1, sizeof *p);
	p->loop = loop;
	p->name = proxy_xstrdup(name);
	p->cap = bufsize;
	p->idle_timeout = idle;
	p->started = proxy_now();
	p->stat[END_QEMU] = stat_q2n;
	p->stat[END_NET] = stat_n2q;
	p->done = done;
	p->done_arg = arg;
	p->end[END_QEMU].fd = qfd;
	p->end[END_QEMU].what = "qemu";
	p->end[END_NET].fd = nfd;
	p->end[END_NET].ssl = nssl;
	p->end[END_NET].what = "peer";
	for (i = 0; i < 2; i++) {
		p->end[i].pair = p;
		p->end[i].rd_want = EV_READ;
		p->end[i].wr_want = EV_WRITE;
		p->buf[i].data = proxy_xmalloc(bufsize);
		ev_io_init(&p->end[i].io, pair_io_cb, p->end[i].fd, 0);
		p->end[i].io.data = &p->end[i];
	}
	if (nssl != NULL) {
		BIO *theirs;

		/*
		 * SSL writes into one pair and reads from another; we move
		 * the bytes between them and the socket.  What SSL read
		 * ahead during the handshake stays in its own buffer.
		 */
		if (BIO_new_bio_pair(&theirs, PAIR_TLS_OUT, &p->end[END_NET].bio,
		    PAIR_TLS_OUT) != 1)
			abort();
		SSL_set0_wbio(nssl, theirs);
		if (BIO_new_bio_pair(&theirs, PAIR_TLS_IN,
		    &p->end[END_NET].rbio, PAIR_TLS_IN) != 1)
			abort();
		SSL_set0_rbio(nssl, theirs);
		SSL_set_read_ahead(nssl, 0);
	}
	ev_init(&p->idle, pair_idle_cb);
	p->idle.data = p;
	p->idle.repeat = idle;
	if (idle > 0)
		ev_timer_again(loop, &p->idle);
	proxy_log(PROXY_LOG_INFO, "%s: forwarding", p->name);
	/*
	 * TLS may already hold bytes that arrived with the header: pump from
	 * the loop, so the caller gets a pair that is still alive.
	 */
	ev_feed_event(loop, &p->end[END_NET].io, EV_READ);
	return p;
}

void
proxy_pair_close(struct proxy_pair *p, const char *reason)
{
	if (p->closing)
		return;
	p->closing = 1;
	p->close_reason = proxy_xstrdup(reason);
	if (!p->in_pump)
		pair_finish(p);
}

/* The one teardown: log, stop watchers, free TLS, close fds, tell owner. */
static void
pair_finish(struct proxy_pair *p)
{
	int i;

	proxy_log(PROXY_LOG_INFO, "%s: closed: %s (%llu bytes from qemu, "
	    "%llu bytes from peer, %.1f s)", p->name, p->close_reason,
	    (unsigned long long)p->buf[END_QEMU].total,
	    (unsigned long long)p->buf[END_NET].total,
	    proxy_now() - p->started);
	ev_timer_stop(p->loop, &p->idle);
	for (i = 0; i < 2; i++) {
		ev_io_stop(p->loop, &p->end[i].io);
		if (p->end[i].ssl != NULL) {
			/* Unclean end: no close_notify; the peer sees EOF. */
			SSL_free(p->end[i].ssl);
		}
		if (p->end[i].bio != NULL)
			BIO_free(p->end[i].bio);
		if (p->end[i].rbio != NULL)
			BIO_free(p->end[i].rbio);
		close(p->end[i].fd);
		free(p->buf[i].data);
	}
	if (p->done != NULL)
		p->done(p, p->done_arg);
	free(p->close_reason);
	free(p->name);
	free(p);
}
