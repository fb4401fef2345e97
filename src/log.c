/*
 * log.c: messages to stderr, plain or as JSON lines (for node agents that
 * collect structured logs).  Bytes that came from a peer must be escaped by
 * the caller before they reach a format string's argument.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"

static const char	*log_progname = "qmigrate";
static enum log_level	 log_level = LOG_LEVEL_INFO;
static int		 log_json;

void
log_init(const char *progname, enum log_level level, int json)
{
	log_progname = progname;
	log_level = level;
	log_json = json;
}

static void
log_vwrite(const char *severity, const char *fmt, va_list ap, int with_errno)
{
	char	*msg, *full;
	int	 saved = errno;

	xvasprintf(&msg, fmt, ap);
	if (with_errno)
		xasprintf(&full, "%s: %s", msg, strerror(saved));
	else
		full = xstrdup(msg);
	free(msg);

	if (log_json) {
		json_object *o = json_object_new_object();
		char	    *ts = format_rfc3339(now_realtime());

		json_object_object_add(o, "time", json_object_new_string(ts));
		json_object_object_add(o, "level",
		    json_object_new_string(severity));
		json_object_object_add(o, "msg", json_object_new_string(full));
		fprintf(stderr, "%s\n", json_object_to_json_string_ext(o,
		    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
		free(ts);
	} else
		fprintf(stderr, "%s: %s\n", log_progname, full);
	fflush(stderr);
	free(full);
	errno = saved;
}

/* Writes the caller's fmt and arguments (the function's "..."). */
#define LOG_WRITE(sev, err) do {				\
	va_list ap;						\
	va_start(ap, fmt);					\
	log_vwrite((sev), fmt, ap, (err));			\
	va_end(ap);						\
} while (0)
#define LOG_BODY(sev, min, err) do {				\
	if (log_level >= (min))					\
		LOG_WRITE((sev), (err));			\
} while (0)

void log_warn(const char *fmt, ...)  { LOG_BODY("warning", LOG_LEVEL_WARN, 1); }
void log_warnx(const char *fmt, ...) { LOG_BODY("warning", LOG_LEVEL_WARN, 0); }
void log_info(const char *fmt, ...)  { LOG_BODY("info", LOG_LEVEL_INFO, 0); }
void log_debug(const char *fmt, ...) { LOG_BODY("debug", LOG_LEVEL_DEBUG, 0); }

/* Fatal errors show at every level, then end the program. */
void
fatal(const char *fmt, ...)
{
	LOG_WRITE("fatal", 1);
	exit(QM_EXIT_USAGE);
}

void
fatalx(const char *fmt, ...)
{
	LOG_WRITE("fatal", 0);
	exit(QM_EXIT_USAGE);
}
