/*
 * net.c: what every command that talks to the network shares: addresses
 * and the proxy library's log hook.
 */
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
