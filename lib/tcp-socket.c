/*
 * tcp-socket.c: a TCP listener on an address and port, written once for
 * the proxy's target and the exporter's HTTP server.
 */
#include <sys/socket.h>

#include <errno.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

int
tcp_listen(const char *host, const char *port, int ai_flags, char **cause)
{
	struct addrinfo	 hints, *res, *ai;
	int		 fd = -1, one = 1, r, err = EADDRNOTAVAIL;

	/* glibc takes "99999" for port 34463: a number must fit in 16 bits. */
	if (port != NULL && port[0] >= '0' && port[0] <= '9' &&
	    (strspn(port, "0123456789") != strlen(port) ||
	    strtoul(port, NULL, 10) > 65535 || strlen(port) > 5)) {
		set_cause(cause, "port \"%.16s\": expected 0 to 65535", port);
		return -1;
	}
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | ai_flags;
	r = getaddrinfo(host != NULL && *host != '\0' ? host : NULL, port,
	    &hints, &res);
	if (r != 0) {
		set_cause(cause, "%s", gai_strerror(r));
		return -1;
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, ai->ai_protocol);
		if (fd == -1) {
			err = errno;
			continue;
		}
		(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one,
		    sizeof one);
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
		    listen(fd, 128) == 0)
			break;
		err = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd == -1)
		set_cause(cause, "%s", strerror(err));
	return fd;
}
