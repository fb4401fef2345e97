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
 *
 * The network side is carried one of three ways:
 * - records (TLS 1.3 with AES-GCM, the normal case): proxy-record.c seals
 *   and opens records in place.  QEMU's bytes are read straight into a
 *   ring of record slots, sealed there and leave in one writev() per
 *   batch; the peer's records are read in large gulps, opened in place and
 *   their contents written to QEMU with one writev() per batch.  No byte
 *   is copied in user space.
 * - OpenSSL's own record layer on the socket (TLS 1.2, another cipher, or
 *   bytes OpenSSL still held after the header): correct, slower.
 * - plain TCP (--to tcp:, tls == NULL).
 *
 * Each end remembers whether it may still have bytes to read and room to
 * write (until a call says EAGAIN or moves less than asked), so that a
 * pump round makes no system call bound to fail, and the watcher asks the
 * loop only for what would let more move.
 */
#include <sys/socket.h>
#include <sys/uio.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ev.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "proxy-int.h"

enum { END_QEMU = 0, END_NET = 1 };
enum net_mode { NET_PLAIN, NET_SSL, NET_RECORDS };
enum io_result { IO_BLOCKED, IO_PROGRESS, IO_EOF, IO_ERROR };

#define SLOT_SIZE	\
	(PROXY_REC_HDR + PROXY_REC_PLAIN_MAX + 1 + PROXY_REC_TAG)
#define RECORD_MAX	(PROXY_REC_HDR + PROXY_REC_CIPHER_MAX)
#define MAX_SPANS	128		/* opened records waiting for QEMU */
#define ALERT_CLOSE_NOTIFY	0

struct pair_end {
	struct proxy_pair	*pair;
	const char		*what;	/* "qemu" or "peer", for reasons */
	int			 fd;
	SSL			*ssl;	/* NET_SSL only */
	ev_io			 io;
	int			 io_events;
	int			 readable;	/* a read may move bytes */
	int			 writable;	/* a write may move bytes */
	int			 rd_ev;		/* what a blocked read awaits */
	int			 wr_ev;
	int			 rd_eof;	/* no more bytes will come */
	int			 wr_shut;	/* our EOF sent (or queued) */
	int			 shut_pending;	/* SSL_shutdown to retry */
};

/* A linear buffer: plain TCP and OpenSSL's records. */
struct plain_buf {
	uint8_t		*data;
	size_t		 off, len;
};

/* QEMU -> peer over records: a ring of record slots. */
struct seal_ring {
	uint8_t		*mem;		/* nslots * SLOT_SIZE */
	size_t		*reclen;	/* sealed record length per slot */
	size_t		*content;	/* its content bytes (stats) */
	unsigned	 nslots;
	unsigned	 head;		/* next slot to fill */
	unsigned	 tail;		/* next slot to send */
	unsigned	 count;		/* sealed, not yet all sent */
	size_t		 sent;		/* bytes of the tail record sent */
	int		 update_due;	/* the peer asked for a KeyUpdate */
	struct proxy_rec *rec;
};

/* Peer -> QEMU over records: raw records in, opened contents out. */
struct open_buf {
	uint8_t		*mem;
	size_t		 cap;
	size_t		 rd;		/* end of the bytes read */
	size_t		 op;		/* start of the bytes not opened */
	struct iovec	 span[MAX_SPANS];	/* contents for QEMU */
	unsigned	 first, nspan;
	struct proxy_rec *rec;
};

/* One direction: bytes read from end[i] wait to be written to end[!i]. */
struct pair_dir {
	uint64_t	 total;		/* content bytes read */
	struct plain_buf plain;
	struct seal_ring seal;		/* i == END_QEMU over records */
	struct open_buf	 open;		/* i == END_NET over records */
};

struct proxy_pair {
	struct ev_loop		*loop;
	char			*name;
	enum net_mode		 mode;
	struct pair_end		 end[2];
	struct pair_dir		 dir[2];	/* dir[i]: read from end[i] */
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

static void	pair_finish(struct proxy_pair *);

static void
pair_fail(struct proxy_pair *p, struct pair_end *e, const char *op,
    const char *why)
{
	char *reason;

	set_cause(&reason, "%s %s: %s", op, e->what, why);
	proxy_pair_close(p, reason);
	free(reason);
}

static void
pair_fail_errno(struct proxy_pair *p, struct pair_end *e, const char *op,
    int err)
{
	pair_fail(p, e, op, err == 0 ? "connection closed" : strerror(err));
}

static void
pair_fail_ssl(struct proxy_pair *p, struct pair_end *e, const char *op,
    int ret, int err)
{
	char *why = proxy_tls_strerror(e->ssl, ret, err);

	pair_fail(p, e, op, why);
	free(why);
}

/*
 * readv() from e: the bytes read, 0 at its end, -1 when it has nothing
 * (e->readable cleared), -2 after pair_fail.  Fewer bytes than asked mean
 * the socket is drained: the next read waits for the loop.
 */
static ssize_t
end_readv(struct proxy_pair *p, struct pair_end *e, struct iovec *iov,
    int cnt, size_t want)
{
	ssize_t n;

	for (;;) {
		n = readv(e->fd, iov, cnt);
		if (n >= 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			e->readable = 0;
			return -1;
		}
		pair_fail_errno(p, e, "read from", errno);
		return -2;
	}
	if (n > 0 && (size_t)n < want)
		e->readable = 0;
	return n;
}

/* writev() to e, as end_readv(); never raises SIGPIPE. */
static ssize_t
end_writev(struct proxy_pair *p, struct pair_end *e, struct iovec *iov,
    int cnt, size_t want)
{
	struct msghdr	msg;
	ssize_t		n;

	memset(&msg, 0, sizeof msg);
	msg.msg_iov = iov;
	msg.msg_iovlen = (size_t)cnt;
	for (;;) {
		n = sendmsg(e->fd, &msg, MSG_NOSIGNAL);
		if (n > 0)
			break;
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			e->writable = 0;
			return -1;
		}
		pair_fail_errno(p, e, "write to", n == 0 ? EIO : errno);
		return -2;
	}
	if ((size_t)n < want)
		e->writable = 0;
	return n;
}

/*
 * Reads what e has into b (plain TCP, QEMU, or OpenSSL's records) until
 * b is full or e would block.
 */
static enum io_result
plain_fill(struct proxy_pair *p, struct pair_end *e, struct pair_dir *d)
{
	struct plain_buf	*b = &d->plain;
	enum io_result		 res = IO_BLOCKED;
	struct iovec		 iov;
	size_t			 space, got;
	ssize_t			 n;
	int			 ret, err;

	while (e->readable) {
		if (b->len == 0)
			b->off = 0;
		else if (b->off + b->len == p->cap && b->off > 0) {
			memmove(b->data, b->data + b->off, b->len);
			b->off = 0;
		}
		space = p->cap - b->off - b->len;
		if (space == 0)
			break;
		if (e->ssl == NULL) {
			iov.iov_base = b->data + b->off + b->len;
			iov.iov_len = space;
			n = end_readv(p, e, &iov, 1, space);
			if (n == -2)
				return IO_ERROR;
			if (n == -1)
				break;
			if (n == 0)
				return IO_EOF;
			got = (size_t)n;
		} else {
			ERR_clear_error();
			ret = SSL_read_ex(e->ssl, b->data + b->off + b->len,
			    space, &got);
			if (ret <= 0) {
				err = SSL_get_error(e->ssl, ret);
				if (err == SSL_ERROR_ZERO_RETURN)
					return IO_EOF;
				if (err != SSL_ERROR_WANT_READ &&
				    err != SSL_ERROR_WANT_WRITE) {
					pair_fail_ssl(p, e, "read from", ret,
					    err);
					return IO_ERROR;
				}
				e->readable = 0;
				e->rd_ev = err == SSL_ERROR_WANT_READ ?
				    EV_READ : EV_WRITE;
				break;
			}
		}
		b->len += got;
		d->total += got;
		res = IO_PROGRESS;
	}
	return res;
}

/* Writes what d's plain buffer holds to e until empty or e would block. */
static enum io_result
plain_drain(struct proxy_pair *p, struct pair_end *e, struct pair_dir *d,
    uint64_t *stat)
{
	struct plain_buf	*b = &d->plain;
	enum io_result		 res = IO_BLOCKED;
	struct iovec		 iov;
	size_t			 done;
	ssize_t			 n;
	int			 ret, err;

	while (b->len > 0 && e->writable) {
		if (e->ssl == NULL) {
			iov.iov_base = b->data + b->off;
			iov.iov_len = b->len;
			n = end_writev(p, e, &iov, 1, b->len);
			if (n == -2)
				return IO_ERROR;
			if (n == -1)
				break;
			done = (size_t)n;
		} else {
			ERR_clear_error();
			ret = SSL_write_ex(e->ssl, b->data + b->off, b->len,
			    &done);
			if (ret <= 0) {
				err = SSL_get_error(e->ssl, ret);
				if (err != SSL_ERROR_WANT_READ &&
				    err != SSL_ERROR_WANT_WRITE) {
					pair_fail_ssl(p, e, "write to", ret,
					    err);
					return IO_ERROR;
				}
				e->writable = 0;
				e->wr_ev = err == SSL_ERROR_WANT_WRITE ?
				    EV_WRITE : EV_READ;
				break;
			}
		}
		b->off += done;
		b->len -= done;
		if (stat != NULL)
			*stat += done;
		res = IO_PROGRESS;
	}
	return res;
}

/*
 * Seals the next slot of the ring: kind is PROXY_REC_DATA (len bytes of
 * content already in place), PROXY_REC_HANDSHAKE (a KeyUpdate, then the
 * next key) or PROXY_REC_ALERT (close_notify).  Returns 0, or -1 after
 * pair_fail.
 */
static int
seal_slot(struct proxy_pair *p, struct seal_ring *r, size_t len, int kind)
{
	uint8_t	*slot = r->mem + (size_t)r->head * SLOT_SIZE;
	size_t	 n;

	if (kind == PROXY_REC_DATA)
		n = proxy_rec_seal(r->rec, slot, len, PROXY_REC_DATA);
	else if (kind == PROXY_REC_HANDSHAKE)
		n = proxy_rec_seal_key_update(r->rec, slot);
	else
		n = proxy_rec_seal_close_notify(r->rec, slot);
	if (n == 0) {
		pair_fail(p, &p->end[END_NET], "write to", "TLS record "
		    "encryption failed");
		return -1;
	}
	r->reclen[r->head] = n;
	r->content[r->head] = kind == PROXY_REC_DATA ? len : 0;
	r->head = (r->head + 1) % r->nslots;
	r->count++;
	if (kind == PROXY_REC_HANDSHAKE)
		r->update_due = 0;
	return 0;
}

/*
 * Reads QEMU's bytes straight into the free slots of the ring and seals
 * each slot as a record (the last one of a read may be short: QEMU may be
 * waiting for an answer to what it sent).
 */
static enum io_result
seal_fill(struct proxy_pair *p, struct pair_end *e, struct pair_dir *d)
{
	struct seal_ring	*r = &d->seal;
	struct iovec		 iov[64];
	enum io_result		 res = IO_BLOCKED;
	unsigned		 i, k, s;
	size_t			 take;
	ssize_t			 n;

	while (e->readable && r->count < r->nslots) {
		if (r->update_due || proxy_rec_due_update(r->rec)) {
			if (seal_slot(p, r, 0, PROXY_REC_HANDSHAKE) != 0)
				return IO_ERROR;
			res = IO_PROGRESS;
			continue;
		}
		k = r->nslots - r->count;
		if (k > 64)
			k = 64;
		for (i = 0; i < k; i++) {
			s = (r->head + i) % r->nslots;
			iov[i].iov_base = r->mem + (size_t)s * SLOT_SIZE +
			    PROXY_REC_HDR;
			iov[i].iov_len = PROXY_REC_PLAIN_MAX;
		}
		n = end_readv(p, e, iov, (int)k,
		    (size_t)k * PROXY_REC_PLAIN_MAX);
		if (n == -2)
			return IO_ERROR;
		if (n == -1)
			break;
		if (n == 0)
			return IO_EOF;
		d->total += (uint64_t)n;
		for (; n > 0; n -= (ssize_t)take) {
			take = (size_t)n < PROXY_REC_PLAIN_MAX ? (size_t)n :
			    PROXY_REC_PLAIN_MAX;
			if (seal_slot(p, r, take, PROXY_REC_DATA) != 0)
				return IO_ERROR;
		}
		res = IO_PROGRESS;
	}
	return res;
}

/* Writes the sealed records to the peer, as many as one writev() takes. */
static enum io_result
seal_drain(struct proxy_pair *p, struct pair_end *e, struct pair_dir *d,
    uint64_t *stat)
{
	struct seal_ring	*r = &d->seal;
	struct iovec		 iov[64];
	enum io_result		 res = IO_BLOCKED;
	unsigned		 i, k, s;
	size_t			 want, rem;
	ssize_t			 n;

	while (r->count > 0 && e->writable) {
		k = r->count < 64 ? r->count : 64;
		want = 0;
		for (i = 0; i < k; i++) {
			s = (r->tail + i) % r->nslots;
			iov[i].iov_base = r->mem + (size_t)s * SLOT_SIZE;
			iov[i].iov_len = r->reclen[s];
			if (i == 0) {
				iov[i].iov_base = (uint8_t *)iov[i].iov_base +
				    r->sent;
				iov[i].iov_len -= r->sent;
			}
			want += iov[i].iov_len;
		}
		n = end_writev(p, e, iov, (int)k, want);
		if (n == -2)
			return IO_ERROR;
		if (n == -1)
			break;
		for (; n > 0; n -= (ssize_t)rem) {
			rem = r->reclen[r->tail] - r->sent;
			if ((size_t)n < rem) {
				r->sent += (size_t)n;
				break;
			}
			if (stat != NULL)
				*stat += r->content[r->tail];
			r->sent = 0;
			r->tail = (r->tail + 1) % r->nslots;
			r->count--;
		}
		res = IO_PROGRESS;
	}
	return res;
}

/*
 * Handles one opened record that is not application data: an alert
 * (close_notify is the end of stream: returns 1) or a post-handshake
 * message.  Returns 0, 1 at the end, -1 after pair_fail.
 */
static int
open_control(struct proxy_pair *p, struct pair_end *e, uint8_t type,
    const uint8_t *msg, size_t len)
{
	char	*cause = NULL, *why;
	int	 asked;

	if (type == PROXY_REC_ALERT) {
		if (len != 2) {
			pair_fail(p, e, "read from", "malformed TLS alert");
			return -1;
		}
		if (msg[1] == ALERT_CLOSE_NOTIFY)
			return 1;
		set_cause(&why, "TLS alert \"%s\" from the peer",
		    SSL_alert_desc_string_long(msg[1]));
		pair_fail(p, e, "read from", why);
		free(why);
		return -1;
	}
	if (type != PROXY_REC_HANDSHAKE) {
		set_cause(&why, "TLS record of content type %u", type);
		pair_fail(p, e, "read from", why);
		free(why);
		return -1;
	}
	if (proxy_rec_handshake(p->dir[END_NET].open.rec, msg, len, &asked,
	    &cause) != 0) {
		pair_fail(p, e, "read from", cause);
		free(cause);
		return -1;
	}
	if (asked)
		p->dir[END_QEMU].seal.update_due = 1;
	return 0;
}

/*
 * Reads the peer's records in large gulps and opens them in place; their
 * contents wait as spans for QEMU.  The buffer starts over when all is
 * written; only a record cut by the end of a read is ever moved.
 */
static enum io_result
open_fill(struct proxy_pair *p, struct pair_end *e, struct pair_dir *d)
{
	struct open_buf	*b = &d->open;
	enum io_result	 res = IO_BLOCKED;
	struct iovec	 iov;
	size_t		 reclen, len, at;
	uint8_t		 type;
	ssize_t		 n;
	char		*cause = NULL;
	int		 r;

	for (;;) {
		if (b->first == b->nspan) {
			/* All written: start over, keep a cut record. */
			b->first = b->nspan = 0;
			if (b->op == b->rd)
				b->op = b->rd = 0;
			else if (b->cap - b->rd < RECORD_MAX && b->op > 0) {
				memmove(b->mem, b->mem + b->op,
				    b->rd - b->op);
				b->rd -= b->op;
				b->op = 0;
			}
		}
		/* Whole records first: some may wait from the last read. */
		while (b->nspan < MAX_SPANS) {
			at = b->op;
			r = proxy_rec_open(b->rec, b->mem + at, b->rd - at,
			    &reclen, &len, &type, &cause);
			if (r == 0)
				break;
			if (r < 0) {
				pair_fail(p, e, "read from", cause);
				free(cause);
				return IO_ERROR;
			}
			b->op += reclen;
			res = IO_PROGRESS;
			if (type == PROXY_REC_DATA) {
				if (len == 0)
					continue;
				b->span[b->nspan].iov_base = b->mem + at +
				    PROXY_REC_HDR;
				b->span[b->nspan].iov_len = len;
				b->nspan++;
				d->total += len;
				continue;
			}
			r = open_control(p, e, type, b->mem + at +
			    PROXY_REC_HDR, len);
			if (r < 0)
				return IO_ERROR;
			if (r > 0)
				return IO_EOF;	/* after the spans */
		}
		if (b->nspan == MAX_SPANS || !e->readable)
			break;
		if (b->rd == b->cap)
			break;	/* the rest waits for QEMU to take the spans */
		iov.iov_base = b->mem + b->rd;
		iov.iov_len = b->cap - b->rd;
		n = end_readv(p, e, &iov, 1, iov.iov_len);
		if (n == -2)
			return IO_ERROR;
		if (n == -1)
			break;
		if (n == 0) {
			pair_fail(p, e, "read from", "connection closed "
			    "without TLS close_notify");
			return IO_ERROR;
		}
		b->rd += (size_t)n;
		res = IO_PROGRESS;
	}
	return res;
}

/* Writes the opened contents to QEMU, as many as one writev() takes. */
static enum io_result
open_drain(struct proxy_pair *p, struct pair_end *e, struct pair_dir *d,
    uint64_t *stat)
{
	struct open_buf	*b = &d->open;
	enum io_result	 res = IO_BLOCKED;
	struct iovec	*iov;
	unsigned	 k, i;
	size_t		 want;
	ssize_t		 n;

	while (b->first < b->nspan && e->writable) {
		iov = &b->span[b->first];
		k = b->nspan - b->first;
		want = 0;
		for (i = 0; i < k; i++)
			want += iov[i].iov_len;
		n = end_writev(p, e, iov, (int)k, want);
		if (n == -2)
			return IO_ERROR;
		if (n == -1)
			break;
		if (stat != NULL)
			*stat += (uint64_t)n;
		while (n > 0) {
			if ((size_t)n < iov->iov_len) {
				iov->iov_base = (uint8_t *)iov->iov_base + n;
				iov->iov_len -= (size_t)n;
				break;
			}
			n -= (ssize_t)iov->iov_len;
			iov++;
			b->first++;
		}
		res = IO_PROGRESS;
	}
	return res;
}

/* Non-zero while direction i has bytes for end[!i] (or a close_notify). */
static int
dir_pending(struct proxy_pair *p, int i)
{
	struct pair_dir *d = &p->dir[i];

	if (p->mode != NET_RECORDS)
		return d->plain.len > 0;
	if (i == END_QEMU)
		return d->seal.count > 0;
	return d->open.first < d->open.nspan;
}

/* Bytes read from end[i] that may still hold whole records to open. */
static int
dir_buffered(struct proxy_pair *p, int i)
{
	struct open_buf *b = &p->dir[i].open;

	return p->mode == NET_RECORDS && i == END_NET && b->op < b->rd;
}

/* Room to read more from end[i]. */
static int
dir_room(struct proxy_pair *p, int i)
{
	struct pair_dir *d = &p->dir[i];

	if (p->mode != NET_RECORDS)
		return d->plain.len < p->cap;
	if (i == END_QEMU)
		return d->seal.count < d->seal.nslots;
	return d->open.first == d->open.nspan ||
	    (d->open.nspan < MAX_SPANS && d->open.rd < d->open.cap);
}

static enum io_result
dir_fill(struct proxy_pair *p, int i)
{
	if (p->mode != NET_RECORDS)
		return plain_fill(p, &p->end[i], &p->dir[i]);
	if (i == END_QEMU)
		return seal_fill(p, &p->end[i], &p->dir[i]);
	return open_fill(p, &p->end[i], &p->dir[i]);
}

static enum io_result
dir_drain(struct proxy_pair *p, int i)
{
	if (p->mode != NET_RECORDS)
		return plain_drain(p, &p->end[!i], &p->dir[i], p->stat[i]);
	if (i == END_QEMU)
		return seal_drain(p, &p->end[!i], &p->dir[i], p->stat[i]);
	return open_drain(p, &p->end[!i], &p->dir[i], p->stat[i]);
}

/*
 * Forwards end of stream to e (the direction towards it is empty).
 * Returns IO_PROGRESS, IO_BLOCKED, IO_ERROR.
 */
static enum io_result
end_shutdown(struct proxy_pair *p, struct pair_end *e)
{
	struct seal_ring	*r = &p->dir[END_QEMU].seal;
	int			 ret, err;

	if (e == &p->end[END_NET] && p->mode == NET_RECORDS) {
		/* close_notify, sealed like data; sent by seal_drain. */
		if (r->count == r->nslots)
			return IO_BLOCKED;
		if (seal_slot(p, r, 0, PROXY_REC_ALERT) != 0)
			return IO_ERROR;
		e->wr_shut = 1;
		return IO_PROGRESS;
	}
	if (e->ssl == NULL) {
		if (shutdown(e->fd, SHUT_WR) == -1 && errno != ENOTCONN) {
			pair_fail_errno(p, e, "shutdown", errno);
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
		return IO_PROGRESS;
	}
	err = SSL_get_error(e->ssl, ret);
	if (err == SSL_ERROR_WANT_WRITE || err == SSL_ERROR_WANT_READ) {
		e->shut_pending = 1;
		e->writable = 0;
		e->wr_ev = err == SSL_ERROR_WANT_WRITE ? EV_WRITE : EV_READ;
		return IO_BLOCKED;
	}
	pair_fail_ssl(p, e, "shutdown", ret, err);
	return IO_ERROR;
}

/* Asks the loop for the events that would let more move through e. */
static void
end_update(struct proxy_pair *p, int i)
{
	struct pair_end	*e = &p->end[i];
	int		 ev = 0;

	if (!e->rd_eof && !e->readable && dir_room(p, i))
		ev |= e->rd_ev;
	if ((dir_pending(p, !i) || e->shut_pending) && !e->writable)
		ev |= e->wr_ev;
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
		for (i = 0; i < 2; i++) {
			struct pair_end	*src = &p->end[i], *dst = &p->end[!i];

			if (!src->rd_eof && (src->readable ||
			    dir_buffered(p, i)) && dir_room(p, i)) {
				r = dir_fill(p, i);
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
			if (dir_pending(p, i) && dst->writable) {
				r = dir_drain(p, i);
				if (r == IO_ERROR)
					goto out;
				if (r == IO_PROGRESS)
					progress = 1;
			}
			if (src->rd_eof && !dir_pending(p, i) &&
			    !dst->wr_shut &&
			    (dst->writable || !dst->shut_pending)) {
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
	    !dir_pending(p, END_QEMU) && !dir_pending(p, END_NET))
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

	if (revents & e->rd_ev)
		e->readable = 1;
	if (revents & e->wr_ev)
		e->writable = 1;
	pair_pump(e->pair);
}

static void
pair_idle_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct proxy_pair	*p = w->data;
	char			*reason;

	set_cause(&reason, "no data for %.0f s (idle timeout)",
	    p->idle_timeout);
	proxy_pair_close(p, reason);
	free(reason);
}

/*
 * The record layer takes over nssl's connection if it can (TLS 1.3,
 * AES-GCM, nothing left in OpenSSL's buffers); otherwise OpenSSL keeps
 * carrying the records.
 */
static void
pair_tls_mode(struct proxy_pair *p, SSL *nssl, int sent_header)
{
	struct proxy_rec	*rd = NULL, *wr = NULL;
	struct seal_ring	*r = &p->dir[END_QEMU].seal;
	struct open_buf		*b = &p->dir[END_NET].open;
	char			*why = NULL;

	if (proxy_tls_records(nssl, !sent_header, sent_header, &rd, &wr,
	    &why) != 0) {
		proxy_log(PROXY_LOG_DEBUG, "%s: OpenSSL carries the records: "
		    "%s", p->name, why);
		free(why);
		p->mode = NET_SSL;
		p->end[END_NET].ssl = nssl;
		p->dir[END_QEMU].plain.data = xmalloc(p->cap);
		p->dir[END_NET].plain.data = xmalloc(p->cap);
		return;
	}
	p->mode = NET_RECORDS;
	/* OpenSSL is done with the socket; its SSL only holds the keys. */
	SSL_free(nssl);
	r->rec = wr;
	r->nslots = (unsigned)(p->cap / PROXY_REC_PLAIN_MAX);
	if (r->nslots < 2)
		r->nslots = 2;
	r->mem = xmalloc((size_t)r->nslots * SLOT_SIZE);
	r->reclen = xcalloc(r->nslots, sizeof *r->reclen);
	r->content = xcalloc(r->nslots, sizeof *r->content);
	b->rec = rd;
	b->cap = p->cap + RECORD_MAX;
	b->mem = xmalloc(b->cap);
}

struct proxy_pair *
proxy_pair_new(struct ev_loop *loop, const char *name, int qfd, int nfd,
    SSL *nssl, int sent_header, size_t bufsize, double idle,
    uint64_t *stat_q2n, uint64_t *stat_n2q, proxy_pair_done_cb done,
    void *arg)
{
	struct proxy_pair	*p;
	int			 i;

	p = xcalloc(1, sizeof *p);
	p->loop = loop;
	p->name = xstrdup(name);
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
	p->end[END_NET].what = "peer";
	for (i = 0; i < 2; i++) {
		p->end[i].pair = p;
		p->end[i].readable = p->end[i].writable = 1;
		p->end[i].rd_ev = EV_READ;
		p->end[i].wr_ev = EV_WRITE;
		ev_io_init(&p->end[i].io, pair_io_cb, p->end[i].fd, 0);
		p->end[i].io.data = &p->end[i];
	}
	if (nssl != NULL)
		pair_tls_mode(p, nssl, sent_header);
	else {
		p->mode = NET_PLAIN;
		p->dir[END_QEMU].plain.data = xmalloc(bufsize);
		p->dir[END_NET].plain.data = xmalloc(bufsize);
	}
	ev_init(&p->idle, pair_idle_cb);
	p->idle.data = p;
	p->idle.repeat = idle;
	if (idle > 0)
		ev_timer_again(loop, &p->idle);
	proxy_log(PROXY_LOG_INFO, "%s: forwarding", p->name);
	/* The first pump runs from the loop: the caller gets a live pair. */
	ev_feed_event(loop, &p->end[END_NET].io, EV_READ);
	return p;
}

void
proxy_pair_close(struct proxy_pair *p, const char *reason)
{
	if (p->closing)
		return;
	p->closing = 1;
	p->close_reason = xstrdup(reason);
	if (!p->in_pump)
		pair_finish(p);
}

/* The one teardown: log, stop watchers, free TLS, close fds, tell owner. */
static void
pair_finish(struct proxy_pair *p)
{
	struct seal_ring	*r = &p->dir[END_QEMU].seal;
	struct open_buf		*b = &p->dir[END_NET].open;
	int			 i;

	proxy_log(PROXY_LOG_INFO, "%s: closed: %s (%llu bytes from qemu, "
	    "%llu bytes from peer, %.1f s)", p->name, p->close_reason,
	    (unsigned long long)p->dir[END_QEMU].total,
	    (unsigned long long)p->dir[END_NET].total,
	    proxy_now() - p->started);
	ev_timer_stop(p->loop, &p->idle);
	for (i = 0; i < 2; i++) {
		ev_io_stop(p->loop, &p->end[i].io);
		/* Unclean end: no close_notify; the peer sees EOF. */
		if (p->end[i].ssl != NULL)
			SSL_free(p->end[i].ssl);
		close(p->end[i].fd);
		free(p->dir[i].plain.data);
	}
	proxy_rec_free(r->rec);
	free(r->mem);
	free(r->reclen);
	free(r->content);
	proxy_rec_free(b->rec);
	free(b->mem);
	if (p->done != NULL)
		p->done(p, p->done_arg);
	free(p->close_reason);
	free(p->name);
	free(p);
}
