/*
 * proxy-util.c: the proxy's own small helpers (it must not depend on the
 * engine in src/; allocation is lib/'s): messages, the log hook.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "proxy-int.h"

static void	(*log_fn)(enum proxy_log_level, const char *, void *);
static void	 *log_arg;

void
proxy_set_log(void (*fn)(enum proxy_log_level, const char *, void *),
    void *arg)
{
	log_fn = fn;
	log_arg = arg;
}

void
proxy_log(enum proxy_log_level level, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	if (log_fn != NULL)
		log_fn(level, msg, log_arg);
	else if (level != PROXY_LOG_DEBUG)
		fprintf(stderr, "proxy: %s\n", msg);
	free(msg);
}

void
proxy_session_hex(const uint8_t *id, char *out)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < PROXY_SESSION_ID_SIZE; i++) {
		out[2 * i] = hex[id[i] >> 4];
		out[2 * i + 1] = hex[id[i] & 15];
	}
	out[2 * PROXY_SESSION_ID_SIZE] = '\0';
}
