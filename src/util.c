/*
 * util.c: small parsers, clocks and the atomic file write that the status
 * document relies on.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "qmigrate.h"
#include "world.h"

/* Parses a non-negative decimal number of seconds. Returns 0 or -1. */
int
parse_seconds(const char *s, double *out)
{
	char	*end;
	double	 v;

	if (s == NULL || *s == '\0')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || *end != '\0' || !isfinite(v) || v < 0)
		return -1;
	*out = v;
	return 0;
}

/* Parses an unsigned decimal integer, refusing signs and junk. */
int
parse_u64(const char *s, uint64_t *out)
{
	char			*end;
	unsigned long long	 v;

	if (s == NULL || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	*out = v;
	return 0;
}

/*
 * Replaces path with data so that a reader sees either the old or the new
 * document, never half of one: the world's write_file (a temporary beside
 * it, fsync, rename).
 */
int
write_file_atomic(const char *path, const char *data, size_t len, char **cause)
{
	return world->write_file(path, data, len, WORLD_WRITE_INSTALL,
	    cause);
}

/*
 * Whether write_file_atomic() can write path now: a file of size bytes is
 * written, synced and removed beside it (so a missing or read-only
 * directory, or a full disk, is found), and path is not a directory.  The
 * file itself is not touched: it may be a record a re-run needs.  Returns
 * 0, or -1 with *cause ("PATH: ...").
 */
int
write_file_probe(const char *path, size_t size, char **cause)
{
	struct stat	 st;
	char		*data;
	int		 rc;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		xasprintf(cause, "%s: not a regular file", path);
		return -1;
	}
	data = xmalloc(size);
	memset(data, ' ', size);
	rc = world->write_file(path, data, size, WORLD_WRITE_PROBE, cause);
	free(data);
	return rc;
}

/* Returns a malloc'd UTC timestamp such as 2026-11-23T03:40:13.123Z. */
char *
format_rfc3339(double when)
{
	struct tm	 tm;
	time_t		 secs = (time_t)when;
	int		 ms = (int)((when - (double)secs) * 1000);
	char		 buf[64];
	char		*out;

	gmtime_r(&secs, &tm);
	strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
	xasprintf(&out, "%s.%03dZ", buf, ms < 0 ? 0 : ms > 999 ? 999 : ms);
	return out;
}

/*
 * The start time of process pid in clock ticks after boot (field 22 of
 * /proc/PID/stat).  A pid is reused once its process is gone; the pid and
 * its start time together name one process.  Returns 0, or -1 when the
 * process is gone or /proc does not say.
 */
int
proc_start_time(pid_t pid, unsigned long long *ticks)
{
	char	 path[64], buf[4096], *p, *end;
	ssize_t	 n;
	int	 fd, field;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd == -1)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* Field 2, the name, is in parentheses and may hold ") ". */
	p = strrchr(buf, ')');
	if (p == NULL)
		return -1;
	for (field = 3; field < 22; field++) {
		p += strspn(p + 1, " ") + 1;
		p += strcspn(p, " ");
		if (*p == '\0')
			return -1;
	}
	errno = 0;
	*ticks = strtoull(p + 1, &end, 10);
	if (errno != 0 || end == p + 1 || (*end != ' ' && *end != '\n'))
		return -1;
	return 0;
}

/*
 * The name of this node, as KubeVirt's status names nodes: given (a
 * --node option), else $NODE_NAME (what Kubernetes' downward API gives a
 * node agent), else the host name.  Malloc'd.
 */
char *
node_name(const char *given)
{
	const char	*env = getenv("NODE_NAME");
	char		 host[256];

	if (given != NULL && *given != '\0')
		return xstrdup(given);
	if (env != NULL && *env != '\0')
		return xstrndup(env, 253);
	if (gethostname(host, sizeof host) != 0)
		return xstrdup("unknown");
	host[sizeof host - 1] = '\0';
	return xstrdup(host);
}
