/*
 * net.c: what every command that talks to the network shares: addresses
 * and the proxy library's log hook.
 */
#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "qmigrate.h"
#include "mig-tls.h"

/*
 * Splits "HOST:PORT" ("[v6]:PORT" allowed) into malloc'd host and port.
 * Returns 0, or -1 when the form is wrong.
 */
int
split_hostport(const char *s, char **host, char **port)
{
	const char *colon;

	if (*s == '[') {
		const char *end = strchr(s, ']');

		if (end == NULL || end[1] != ':' || end[2] == '\0')
			return -1;
		*host = xstrndup(s + 1, (size_t)(end - s - 1));
		*port = xstrdup(end + 2);
		return 0;
	}
	colon = strrchr(s, ':');
	if (colon == NULL || colon == s || colon[1] == '\0')
		return -1;
	*host = xstrndup(s, (size_t)(colon - s));
	*port = xstrdup(colon + 1);
	return 0;
}

/*
 * Checks a migration URI before QEMU sees it: unix:PATH with a path that
 * fits a socket address, or tcp:/tls:HOST:PORT with a port 1-65535 (0 too
 * for a listener: the kernel picks one).  A bad one is the user's error
 * (exit 1), not QEMU's refusal (3).  Returns 0, or -1 with *cause
 * ("OPTION: ...").
 */
int
uri_check(const char *option, const char *uri, int listener, char **cause)
{
	struct sockaddr_un	 sun;
	char			*host = NULL, *port = NULL, *end;
	unsigned long		 n;
	int			 rc = -1;

	if (strncmp(uri, "unix:", 5) == 0) {
		if (uri[5] == '\0')
			xasprintf(cause, "%s: unix: needs a socket path", option);
		else if (strlen(uri + 5) >= sizeof sun.sun_path)
			xasprintf(cause, "%s: socket path longer than %zu bytes",
			    option, sizeof sun.sun_path - 1);
		else
			rc = 0;
		return rc;
	}
	if (strncmp(uri, "tcp:", 4) != 0 && strncmp(uri, "tls:", 4) != 0) {
		xasprintf(cause, "%s: expected unix:PATH, tcp:HOST:PORT or "
		    "tls:HOST:PORT, got \"%.64s\"", option, uri);
		return -1;
	}
	if (split_hostport(uri + 4, &host, &port) != 0 || *host == '\0') {
		xasprintf(cause, "%s: expected %.4sHOST:PORT, got \"%.64s\"",
		    option, uri, uri);
		goto out;
	}
	errno = 0;
	n = strtoul(port, &end, 10);
	if (*port < '0' || *port > '9' || *end != '\0' || errno != 0 ||
	    (n == 0 && !listener) || n > 65535)
		xasprintf(cause, "%s: port \"%.16s\" is not a number from %d "
		    "to 65535", option, port, !listener);
	else
		rc = 0;
out:
	free(host);
	free(port);
	return rc;
}

/* Sends the proxy library's lines to qmigrate's log (proxy_set_log()). */
void
net_proxy_log(enum proxy_log_level level, const char *msg, void *arg)
{
	switch (level) {
	case PROXY_LOG_WARN:
		log_warnx("%s", msg);
		break;
	case PROXY_LOG_INFO:
		log_info("%s", msg);
		break;
	case PROXY_LOG_DEBUG:
		log_debug("%s", msg);
		break;
	}
}
