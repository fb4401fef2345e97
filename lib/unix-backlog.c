/*
 * unix-backlog.c: how many connections wait in the accept queue of the
 * listening unix sockets bound to a path, asked of the kernel (sock_diag,
 * as ss -xl does).  A target that removed its QEMU's socket path knows no
 * new source can connect; one already queued can still be accepted, and
 * only the queue says so (audit D27).
 */
#include <sys/socket.h>
#include <sys/time.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

#define TCP_LISTEN_STATE	10	/* the kernel's TCP_LISTEN, unix too */
#define BACKLOG_BUF		32768
#define BACKLOG_MAX_READS	4096	/* a dump of ~100k sockets at most */

static int
backlog_ask(int fd)
{
	struct {
		struct nlmsghdr		nlh;
		struct unix_diag_req	req;
	} msg;
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };

	memset(&msg, 0, sizeof msg);
	msg.nlh.nlmsg_len = sizeof msg;
	msg.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	msg.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	msg.req.sdiag_family = AF_UNIX;
	msg.req.udiag_states = 1u << TCP_LISTEN_STATE;
	msg.req.udiag_show = UDIAG_SHOW_NAME | UDIAG_SHOW_RQLEN;
	return sendto(fd, &msg, sizeof msg, 0, (struct sockaddr *)&nl,
	    sizeof nl) == (ssize_t)sizeof msg ? 0 : -1;
}

/* One socket's answer: adds its queue to *queued if its name is path. */
static void
backlog_one(const struct nlmsghdr *h, const char *path, int *found,
    long *queued)
{
	const struct unix_diag_msg	*m = NLMSG_DATA(h);
	const struct rtattr		*a;
	int				 len, named = 0;
	long				 rq = -1;

	if (h->nlmsg_len < NLMSG_LENGTH(sizeof *m))
		return;
	len = h->nlmsg_len - NLMSG_LENGTH(sizeof *m);
	for (a = (const struct rtattr *)(m + 1); RTA_OK(a, len);
	    a = RTA_NEXT(a, len)) {
		if (a->rta_type == UNIX_DIAG_NAME) {
			/* A path's name may end with its NUL. */
			size_t n = strnlen(RTA_DATA(a), RTA_PAYLOAD(a));

			named = n == strlen(path) &&
			    memcmp(RTA_DATA(a), path, n) == 0;
		} else if (a->rta_type == UNIX_DIAG_RQLEN &&
		    RTA_PAYLOAD(a) >= sizeof(struct unix_diag_rqlen))
			rq = ((const struct unix_diag_rqlen *)
			    RTA_DATA(a))->udiag_rqueue;
	}
	if (!named || rq < 0)
		return;
	(*found)++;
	*queued += rq;
}

long
unix_listen_backlog(const char *path, char **cause)
{
	struct timeval	 tv = { .tv_sec = 1 };
	char		*buf = NULL;
	const struct nlmsghdr *h;
	long		 queued = 0;
	int		 fd, found = 0, reads, done = 0;
	ssize_t		 n;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd == -1) {
		xasprintf(cause, "sock_diag: %s", strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	if (backlog_ask(fd) != 0) {
		xasprintf(cause, "sock_diag: send: %s", strerror(errno));
		goto fail;
	}
	buf = xmalloc(BACKLOG_BUF);
	for (reads = 0; !done && reads < BACKLOG_MAX_READS; reads++) {
		if ((n = recv(fd, buf, BACKLOG_BUF, 0)) <= 0) {
			xasprintf(cause, "sock_diag: %s", n == 0 ? "closed" :
			    errno == EAGAIN ? "no answer within 1 s" :
			    strerror(errno));
			goto fail;
		}
		for (h = (const struct nlmsghdr *)buf; NLMSG_OK(h, n);
		    h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE) {
				done = 1;
				break;
			}
			if (h->nlmsg_type == NLMSG_ERROR) {
				xasprintf(cause, "sock_diag: refused");
				goto fail;
			}
			backlog_one(h, path, &found, &queued);
		}
	}
	if (!done) {
		xasprintf(cause, "sock_diag: no end of the dump");
		goto fail;
	}
	free(buf);
	close(fd);
	if (found == 0) {
		xasprintf(cause, "%s: no listening socket has that name", path);
		return -1;
	}
	return queued;
fail:
	free(buf);
	close(fd);
	return -1;
}
