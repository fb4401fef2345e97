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

/*
 * SSL_read_ex (write 0) or SSL_write_ex on e, answering as
 * proxy_pair_end_readv() and proxy_pair_end_writev() do: the bytes moved,
 * 0 at the peer's close_notify (a read), -1 when TLS would block (e then
 * waits for what TLS asks for), -2 after failing the pair.
 */
static ssize_t
plain_ssl_io(struct proxy_pair *p, struct pair_end *e, void *buf, size_t len,
    int write)
{
	size_t	n;
	int	ret, err;

	ERR_clear_error();
	ret = write ? SSL_write_ex(e->ssl, buf, len, &n) :
	    SSL_read_ex(e->ssl, buf, len, &n);
	if (ret > 0)
		return (ssize_t)n;
	err = SSL_get_error(e->ssl, ret);
	if (!write && err == SSL_ERROR_ZERO_RETURN)
		return 0;
	if (err != SSL_ERROR_WANT_READ && err != SSL_ERROR_WANT_WRITE) {
		proxy_pair_fail_ssl(p, e, write ? "write to" : "read from",
		    ret, err);
		return -2;
	}
	if (write) {
		e->writable = 0;
		e->wr_ev = err == SSL_ERROR_WANT_WRITE ? EV_WRITE : EV_READ;
	} else {
		e->readable = 0;
		e->rd_ev = err == SSL_ERROR_WANT_READ ? EV_READ : EV_WRITE;
	}
	return -1;
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
			n = proxy_pair_end_readv(p, e, &iov, 1, space);
		} else
			n = plain_ssl_io(p, e, b->data + b->off + b->len,
			    space, 0);
		if (n == -2)
			return IO_ERROR;
		if (n == -1)
			break;
		if (n == 0)
			return IO_EOF;
		got = (size_t)n;
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

	while (b->len > 0 && e->writable) {
		if (e->ssl == NULL) {
			iov.iov_base = b->data + b->off;
			iov.iov_len = b->len;
			n = proxy_pair_end_writev(p, e, &iov, 1, b->len);
		} else
			n = plain_ssl_io(p, e, b->data + b->off, b->len, 1);
		if (n == -2)
			return IO_ERROR;
		if (n == -1)
			break;
		done = (size_t)n;
		b->off += done;
		b->len -= done;
		proxy_pair_count(p->stat[i], done);
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
		return proxy_pair_end_shutdown(p, e);
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
	proxy_pair_fail_ssl(p, e, "shutdown", ret, err);
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
	.fill = plain_fill,
	.drain = plain_drain,
	.pending = plain_pending,
	.room = plain_room,
	.buffered = NULL,	/* what is read is ready to write */
	.shutdown = plain_shutdown,
	.free = plain_free,
};

void
proxy_pair_plain_start(struct proxy_pair *p, SSL *nssl)
{
	struct plain_state *st = xcalloc(1, sizeof *st);

	st->buf[END_QEMU].data = xmalloc(p->cap);
	st->buf[END_NET].data = xmalloc(p->cap);
	p->end[END_NET].ssl = nssl;
	p->tp = &pair_plain_transport;
	p->tp_state = st;
}
