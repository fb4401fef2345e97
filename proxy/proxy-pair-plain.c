/*
 * proxy-pair-plain.c: the plain transport of a forwarding pair: one
 * linear buffer of p->cap bytes per direction.  The network end's bytes
 * go straight through the socket (tcp:, no TLS) or through OpenSSL's own
 * record layer (SSL_read/SSL_write: TLS 1.2, a cipher other than AES-GCM,
 * or bytes OpenSSL still held after the header): correct, slower than
 * proxy-pair-record.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "proxy-pair.h"

/* Bytes read from end[i], waiting to be written to end[!i]. */
struct plain_buf {
	uint8_t		*data;
	size_t		 off, len;
};

struct plain_state {
	struct plain_buf buf[2];
};

static struct plain_buf *
plain_buf(struct proxy_pair *p, int i)
{
	struct plain_state *st = p->tp_state;

	return &st->buf[i];
}

/* Reads what end[i] has into its buffer until full or it would block. */
static enum io_result
plain_fill(struct proxy_pair *p, int i)
{
	struct pair_end		*e = &p->end[i];
	struct plain_buf	*b = plain_buf(p, i);
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
			n = pair_end_readv(p, e, &iov, 1, space);
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
		p->total[i] += got;
		res = IO_PROGRESS;
	}
	return res;
}

/* Writes direction i's buffer to end[!i] until empty or it would block. */
static enum io_result
plain_drain(struct proxy_pair *p, int i)
{
	struct pair_end		*e = &p->end[!i];
	struct plain_buf	*b = plain_buf(p, i);
	enum io_result		 res = IO_BLOCKED;
	struct iovec		 iov;
	size_t			 done;
	ssize_t			 n;
	int			 ret, err;

	while (b->len > 0 && e->writable) {
		if (e->ssl == NULL) {
			iov.iov_base = b->data + b->off;
			iov.iov_len = b->len;
			n = pair_end_writev(p, e, &iov, 1, b->len);
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
		if (p->stat[i] != NULL)
			*p->stat[i] += done;
		res = IO_PROGRESS;
	}
	return res;
}

static int
plain_pending(struct proxy_pair *p, int i)
{
	return plain_buf(p, i)->len > 0;
}

static int
plain_room(struct proxy_pair *p, int i)
{
	return plain_buf(p, i)->len < p->cap;
}

/* shutdown(SHUT_WR), or OpenSSL's close_notify on a TLS end. */
static enum io_result
plain_shutdown(struct proxy_pair *p, int i)
{
	struct pair_end	*e = &p->end[i];
	int		 ret, err;

	if (e->ssl == NULL)
		return pair_end_shutdown(p, e);
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

/* Unclean end: an SSL freed without close_notify; the peer sees EOF. */
static void
plain_free(struct proxy_pair *p)
{
	struct plain_state	*st = p->tp_state;
	int			 i;

	for (i = 0; i < 2; i++) {
		if (p->end[i].ssl != NULL)
			SSL_free(p->end[i].ssl);
		p->end[i].ssl = NULL;
		free(st->buf[i].data);
	}
	free(st);
}

static const struct pair_transport pair_plain_transport = {
	.name = "plain",
	.fill = plain_fill,
	.drain = plain_drain,
	.pending = plain_pending,
	.room = plain_room,
	.buffered = NULL,	/* what is read is ready to write */
	.shutdown = plain_shutdown,
	.free = plain_free,
};

void
pair_plain_start(struct proxy_pair *p, SSL *nssl)
{
	struct plain_state *st = xcalloc(1, sizeof *st);

	st->buf[END_QEMU].data = xmalloc(p->cap);
	st->buf[END_NET].data = xmalloc(p->cap);
	p->end[END_NET].ssl = nssl;
	p->tp = &pair_plain_transport;
	p->tp_state = st;
}
