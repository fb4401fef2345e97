/*
 * log.c: messages to stderr, plain or as JSON lines (for node agents that
 * collect structured logs).  Every line a command writes on stderr comes
 * here, its usage errors and its final failure included, so that each
 * carries the command's one prefix ("qmigrate migrate: ...") or, with
 * --log-json, is one JSON object.  Lines go out through output.c's
 * bounded queue: a reader that stops reading loses lines, counted and
 * said, never the loop.  Bytes that came from a peer must be escaped by
 * the caller before they reach a format string's argument.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"

static char		 log_prefix[64] = "qmigrate";
static const char	*log_command;	/* NULL before the command is known */
static enum log_level	 log_level = LOG_LEVEL_INFO;
static int		 log_json;

static char	*log_format(const char *severity, const char *msg);

/* output.c's own lines on stderr (what it lost), as warnings. */
static char *
log_format_warning(const char *msg)
{
	return log_format("warning", msg);
}

void
log_init(const char *progname, enum log_level level, int json)
{
	snprintf(log_prefix, sizeof log_prefix, "%s", progname);
	log_level = level;
	log_json = json;
	out_set_log_format(log_format_warning);
}

/*
 * The command whose lines follow (cmd->name: "migrate", "policy
 * explain"): the prefix becomes "qmigrate NAME", and a JSON line says
 * "command": NAME.  name is borrowed (a command table's).
 */
void
log_set_command(const char *name)
{
	log_command = name;
	snprintf(log_prefix, sizeof log_prefix, "qmigrate %s", name);
}

/* The prefix of each plain line ("qmigrate migrate"), borrowed. */
const char *
log_get_prefix(void)
{
	return log_prefix;
}

/* Whether lines of level are written (-q shows warnings only). */
int
log_shows(enum log_level level)
{
	return log_level >= level;
}

/* Whether --log-json is on: a command's other stderr text follows it. */
int
log_is_json(void)
{
	return log_json;
}

/*
 * msg in the log's format, without the last newline (caller frees): one
 * JSON object, or each of msg's lines after the prefix, so that a grep
 * for the prefix finds every line of a message of several.
 */
static char *
log_format(const char *severity, const char *msg)
{
	json_object	*o;
	char		*ts, *line, *next;
	const char	*nl;

	if (!log_json) {
		xasprintf(&line, "%s: %.*s", log_prefix,
		    (int)strcspn(msg, "\n"), msg);
		for (nl = strchr(msg, '\n'); nl != NULL && nl[1] != '\0';
		    nl = strchr(nl + 1, '\n')) {
			xasprintf(&next, "%s\n%s: %.*s", line, log_prefix,
			    (int)strcspn(nl + 1, "\n"), nl + 1);
			free(line);
			line = next;
		}
		return line;
	}
	o = json_object_new_object();
	ts = format_rfc3339(now_realtime());
	json_object_object_add(o, "time", json_object_new_string(ts));
	json_object_object_add(o, "level", json_object_new_string(severity));
	if (log_command != NULL)
		json_object_object_add(o, "command",
		    json_object_new_string(log_command));
	json_object_object_add(o, "msg", json_object_new_string(msg));
	line = xstrdup(json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	free(ts);
	return line;
}

static void
log_vwrite(const char *severity, const char *fmt, va_list ap, int with_errno)
{
	char	*msg, *full, *line;
	int	 saved = errno;

	xvasprintf(&msg, fmt, ap);
	if (with_errno)
		xasprintf(&full, "%s: %s", msg, strerror(saved));
	else
		full = xstrdup(msg);
	free(msg);
	line = log_format(severity, full);
	free(full);
	out_line(OUT_STDERR, line);
	free(line);
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

/*
 * A command's error: its usage error, its final failure.  Shown at every
 * level (-q too): it is the one line a user must see.
 */
void
log_error(const char *fmt, ...)
{
	LOG_WRITE("error", 0);
}

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
