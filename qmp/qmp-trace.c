/*
 * qmp-trace.c: QMIGRATE_QMP_TRACE=DIR records every monitor connection's
 * messages, each way, one JSON line per message, in a file of its own
 * (DIR/qmp-PID-N.jsonl): a debugging aid like libvirt's monitor I/O log,
 * and what tests/sim/conform replays against the QEMU model (issue 37).
 * A line is {"t":<unix time, s>,"d":">"|"<"|"x","m":<message>}: ">" a
 * command qmigrate queued, "<" a message from the peer, "x" the end of
 * the connection ("m" its reason).  The first line from the peer is
 * preceded by {"t":..,"d":"peer","m":{"pid":P,"comm":..,"cmdline":..,
 * "path":..}} so a reader can tell QEMU from a relay (whose command line
 * names the monitor behind it) and join the files of one QEMU process.  Errors
 * only stop the trace: it never changes what the connection does.
 */
#include <sys/socket.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "qmp-private.h"

void
qmp_trace_open(struct qmp_conn *conn)
{
	static unsigned	 seq;
	const char	*dir;
	char		*path;

	conn->trace_fd = -1;
	if (conn->proto != QMP_PROTO_MONITOR ||
	    (dir = getenv("QMIGRATE_QMP_TRACE")) == NULL || *dir == '\0')
		return;
	xasprintf(&path, "%s/qmp-%ld-%u.jsonl", dir, (long)getpid(), ++seq);
	conn->trace_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
	    0600);
	free(path);
}

static void
qmp_trace_line(struct qmp_conn *conn, const char *dir,
    struct json_object *m)
{
	struct json_object	*line;
	struct timespec		 ts;
	const char		*s;
	size_t			 len;

	clock_gettime(CLOCK_REALTIME, &ts);
	line = json_object_new_object();
	json_object_object_add(line, "t", json_object_new_double(
	    (double)ts.tv_sec + ts.tv_nsec / 1e9));
	json_object_object_add(line, "d", json_object_new_string(dir));
	json_object_object_add(line, "m", json_object_get(m));
	s = json_object_to_json_string_ext(line,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	len = strlen(s);
	/* One write per line: O_APPEND keeps lines whole. */
	if (write(conn->trace_fd, s, len) != (ssize_t)len ||
	    write(conn->trace_fd, "\n", 1) != 1) {
		close(conn->trace_fd);
		conn->trace_fd = -1;
	}
	json_object_put(line);
}

/* The peer's pid and command name, once, before its first message. */
static void
qmp_trace_peer(struct qmp_conn *conn)
{
	struct json_object	*who;
	char			 path[64], comm[64] = "", cmdline[1024];
	FILE			*f;
	pid_t			 pid;
	size_t			 n = 0, i;

	conn->trace_peer = 1;
	pid = qmp_peer_pid(conn);
	snprintf(path, sizeof path, "/proc/%ld/comm", (long)pid);
	if (pid > 0 && (f = fopen(path, "r")) != NULL) {
		if (fgets(comm, sizeof comm, f) != NULL)
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	/* Its command line: a relay's names the monitor behind it. */
	snprintf(path, sizeof path, "/proc/%ld/cmdline", (long)pid);
	if (pid > 0 && (f = fopen(path, "r")) != NULL) {
		n = fread(cmdline, 1, sizeof cmdline - 1, f);
		fclose(f);
	}
	for (i = 0; i < n; i++)
		if (cmdline[i] == '\0')
			cmdline[i] = ' ';
	while (n > 0 && cmdline[n - 1] == ' ')
		n--;
	cmdline[n] = '\0';
	who = json_object_new_object();
	json_object_object_add(who, "pid", json_object_new_int64(pid));
	json_object_object_add(who, "cmdline", json_object_new_string(
	    cmdline));
	json_object_object_add(who, "comm", json_object_new_string(comm));
	json_object_object_add(who, "path", json_object_new_string(
	    conn->peer));
	qmp_trace_line(conn, "peer", who);
	json_object_put(who);
}

/* dir is ">" (sent) or "<" (received). */
void
qmp_trace(struct qmp_conn *conn, const char *dir, struct json_object *m)
{
	if (conn->trace_fd == -1)
		return;
	if (!conn->trace_peer && *dir == '<')
		qmp_trace_peer(conn);
	if (conn->trace_fd != -1)
		qmp_trace_line(conn, dir, m);
}

void
qmp_trace_close(struct qmp_conn *conn, const char *reason)
{
	struct json_object	*r;

	if (conn->trace_fd == -1)
		return;
	r = json_object_new_string(reason);
	qmp_trace_line(conn, "x", r);
	json_object_put(r);
	if (conn->trace_fd != -1)
		close(conn->trace_fd);
	conn->trace_fd = -1;
}
