/*
 * status-writer.c: the qmigrate that writes a status file, found from the
 * document (`qmigrate abort`, `qmigrate switchover`).  The pid the document
 * names is only a hint: after a crash it may belong to any process, so the
 * process is checked (its start time, recorded next to the pid, and its
 * command line) and handed back as a pidfd, which cannot reach a process
 * that took the pid since.
 */
#include <sys/pidfd.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "qmigrate.h"

#define WRITER_CMDLINE_MAX	(256 * 1024)	/* /proc/PID/cmdline read */

/* path with its directory resolved (the name kept), or NULL. */
static char *
resolve_dir(const char *path)
{
	char	*dir = xstrdup(path), *name = xstrdup(path), *out = NULL;
	char	 real[PATH_MAX];

	if (realpath(dirname(dir), real) != NULL)
		xasprintf(&out, "%s/%s", real, basename(name));
	free(dir);
	free(name);
	return out;
}

/*
 * Whether the status file a process was given (arg, relative to its own
 * working directory cwd) is file.  Compared by name, not by inode: the
 * writer replaces the file by rename at every change.
 */
static int
same_status_file(const char *cwd, const char *arg, const char *file)
{
	char	*theirs, *a, *b;
	int	 same;

	if (*arg == '/')
		theirs = xstrdup(arg);
	else
		xasprintf(&theirs, "%s/%s", cwd, arg);
	a = resolve_dir(theirs);
	b = resolve_dir(file);
	same = a != NULL && b != NULL && strcmp(a, b) == 0;
	free(theirs);
	free(a);
	free(b);
	return same;
}

/*
 * Whether pid's command line is a qmigrate that writes file: the first word
 * named qmigrate, global options, then migrate, incoming or evict given
 * --status-file naming file (the spellings args_parse() takes: --status-file F,
 * --status-file=F, or an unambiguous prefix such as --status).
 */
static int
cmdline_writes(pid_t pid, const char *file)
{
	static const char *writers[] = { "migrate", "incoming", "evict", NULL };
	char	 path[64], cwd[64], *buf, *arg, *end, *value, *slash;
	size_t	 len = 0, n;
	ssize_t	 got;
	int	 fd, i, found = 0, state = 0;

	snprintf(path, sizeof path, "/proc/%ld/cmdline", (long)pid);
	snprintf(cwd, sizeof cwd, "/proc/%ld/cwd", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return 0;
	buf = xmalloc(WRITER_CMDLINE_MAX + 1);
	while (len < WRITER_CMDLINE_MAX && (got = read(fd, buf + len,
	    WRITER_CMDLINE_MAX - len)) > 0)
		len += (size_t)got;
	close(fd);
	buf[len] = '\0';
	end = buf + len;
	/* state 0: before qmigrate; 1: its global options; 2: the command's. */
	for (arg = buf; arg < end && !found; arg += n + 1) {
		n = strlen(arg);
		if (state == 0) {
			slash = strrchr(arg, '/');
			if (strcmp(slash != NULL ? slash + 1 : arg,
			    "qmigrate") == 0)
				state = 1;
		} else if (state == 1 && *arg != '-') {
			for (i = 0; writers[i] != NULL; i++)
				if (strcmp(arg, writers[i]) == 0)
					break;
			if (writers[i] == NULL)
				break;
			state = 2;
		} else if (state == 2 && strncmp(arg, "--st", 4) == 0) {
			value = strchr(arg, '=');
			if (strncmp(arg, "--status-file",
			    (size_t)((value != NULL ? value : arg + n) -
			    arg)) != 0)
				continue;
			if (value == NULL && arg + n + 1 < end)
				value = arg + n;	/* the next word */
			if (value != NULL)
				found = same_status_file(cwd, value + 1, file);
		}
	}
	free(buf);
	return found;
}

/*
 * Whether pid started when doc's "pidStartTime" says its writer did.  A
 * document without one (written before qmigrate recorded it) leaves the
 * command line to decide.
 */
static int
start_time_matches(json_object *doc, pid_t pid)
{
	unsigned long long	 now;
	json_object		*v;

	if (!json_object_object_get_ex(doc, "pidStartTime", &v))
		return 1;
	return json_object_is_type(v, json_type_int) &&
	    proc_start_time(pid, &now) == 0 &&
	    now == (unsigned long long)json_object_get_uint64(v);
}

/*
 * Opens a pidfd on the qmigrate that writes file, whose status document is
 * doc.  Returns the descriptor, or -1 with *cause saying that nothing
 * drives the migration and why.
 */
int
status_writer_open(json_object *doc, const char *file, char **cause)
{
	json_object	*v;
	const char	*why = NULL;
	int64_t		 pid;
	int		 fd = -1;

	pid = json_object_object_get_ex(doc, "pid", &v) &&
	    json_object_is_type(v, json_type_int) ? json_object_get_int64(v) :
	    0;
	if (pid <= 1 || pid > INT_MAX)
		why = "it names no pid";
	else if ((fd = pidfd_open((pid_t)pid, 0)) == -1)
		why = "that process is gone";
	else if (!start_time_matches(doc, (pid_t)pid))
		why = "that pid now belongs to a process started later";
	else if (!cmdline_writes((pid_t)pid, file))
		why = "that process is not a qmigrate migrate, incoming or "
		    "evict given this status file";
	if (why == NULL)
		return fd;
	if (fd != -1)
		close(fd);
	xasprintf(cause, "status file %s: no qmigrate is driving this "
	    "migration (pid %lld: %s)", file, (long long)pid, why);
	return -1;
}

/*
 * Sends sig to the qmigrate behind pidfd (status_writer_open's, closed
 * here): 0, or -1 with *cause when it has ended since.
 */
int
status_writer_signal(int pidfd, const char *file, int sig, char **cause)
{
	int	rc = pidfd_send_signal(pidfd, sig, NULL, 0);

	close(pidfd);
	if (rc == 0)
		return 0;
	xasprintf(cause, "status file %s: no qmigrate is driving this "
	    "migration (its process ended)", file);
	return -1;
}

/*
 * Reads file every 100 ms, for timeout s at most, until answer(doc, arg,
 * exit_code) says the writer answered: 1 (with *exit_code), or 0 at the
 * deadline.  A poll: the answer is a rewrite of the file, which nothing
 * else announces; a read that fails (the file mid-rename) is read again.
 */
int
status_writer_wait(const char *file, double timeout,
    int (*answer)(json_object *, void *, int *), void *arg, int *exit_code)
{
	struct timespec	 tick = { 0, 100 * 1000 * 1000 };
	double		 deadline = now_monotonic() + timeout;
	json_object	*doc;
	char		*cause = NULL;
	int		 done;

	while (now_monotonic() < deadline) {
		nanosleep(&tick, NULL);
		doc = status_read_file(file, &cause);
		if (doc == NULL) {
			free(cause);
			cause = NULL;
			continue;
		}
		done = answer(doc, arg, exit_code);
		json_object_put(doc);
		if (done)
			return 1;
	}
	return 0;
}
