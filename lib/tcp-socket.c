/*
 * tcp-socket.c: a TCP listener on an address and port, written once for
 * the proxy's target and the exporter's HTTP server.
 */
#include <sys/socket.h>

#include <errno.h>
#include <netdb.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

int
tcp_listen(const char *host, const char *port, int ai_flags, char **cause)
{
	struct addrinfo	 hints, *res, *ai;
	int		 fd = -1, one = 1, r, err = EADDRNOTAVAIL;

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
