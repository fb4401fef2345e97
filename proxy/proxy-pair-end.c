/*
 * proxy-pair-end.c: one end of a forwarding pair: its readv() and
 * writev() that tell "nothing now" from "closed" and "failed", its
 * half close, and the pair's failures, which name the operation and the
 * end ("read from peer: ...").  Below the engine (proxy-pair.c) and both
 * transports.
 */
#include <sys/socket.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "proxy-pair.h"

void
proxy_pair_fail(struct proxy_pair *p, struct pair_end *e, const char *op,
    const char *why)
{
	if (p->closing)
		return;
	p->closing = 1;
	set_cause(&p->close_reason, "%s %s: %s", op, e->what, why);
}

void
proxy_pair_fail_errno(struct proxy_pair *p, struct pair_end *e,
    const char *op, int err)
{
	proxy_pair_fail(p, e, op, err == 0 ? "connection closed" :
	    strerror(err));
}

void
proxy_pair_fail_ssl(struct proxy_pair *p, struct pair_end *e, const char *op,
    int ret, int err)
{
	char *why = proxy_tls_strerror(e->ssl, ret, err);

	proxy_pair_fail(p, e, op, why);
	free(why);
}

ssize_t
proxy_pair_end_readv(struct proxy_pair *p, struct pair_end *e,
    struct iovec *iov, int cnt, size_t want)
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
		proxy_pair_fail_errno(p, e, "read from", errno);
		return -2;
	}
	if (n > 0 && (size_t)n < want)
		e->readable = 0;
	return n;
}

ssize_t
proxy_pair_end_writev(struct proxy_pair *p, struct pair_end *e,
    struct iovec *iov, int cnt, size_t want)
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
		proxy_pair_fail_errno(p, e, "write to", n == 0 ? EIO : errno);
		return -2;
	}
	if ((size_t)n < want)
		e->writable = 0;
	return n;
}

enum io_result
proxy_pair_end_shutdown(struct proxy_pair *p, struct pair_end *e)
{
	if (shutdown(e->fd, SHUT_WR) == -1 && errno != ENOTCONN) {
		proxy_pair_fail_errno(p, e, "shutdown", errno);
		return IO_ERROR;
	}
	e->wr_shut = 1;
	return IO_PROGRESS;
}
