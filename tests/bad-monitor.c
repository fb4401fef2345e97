/*
 * bad-monitor.c: a unix-socket peer that misbehaves as a QEMU monitor
 * never does, for tests/integration/bad-input.sh (a test program, never
 * installed).  Real QEMU always greets, answers in JSON and keeps its
 * monitor open while it lives; a socket path an operator got wrong, a
 * QEMU wedged in a synchronous operation, or another program listening on
 * that path behaves like one of these modes, and qmigrate must say so in
 * bounded time:
 *
 *	bad-monitor MODE PATH
 *
 *	garbage		writes bytes that are not JSON, then waits
 *	silent		accepts and never writes
 *	greet-silent	greets as QEMU does, then never answers
 *	caps-silent	greets, answers the first command (qmp_capabilities)
 *			with success, then never answers: a QEMU that
 *			stopped (SIGSTOP) right after the handshake
 *	greet-close	greets, then closes each connection at the first command
 *	close		accepts and closes at once
 *	huge		writes one JSON string that never ends
 *	not-qmp		writes a JSON object that is not a QMP greeting
 *	stale		binds PATH and exits: a socket nobody listens on
 *
 * Prints "ready" on stdout once listening (stale: once bound); serves
 * clients one at a time until killed.
 */
#include <sys/socket.h>
#include <sys/un.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GREETING "{\"QMP\": {\"version\": {\"qemu\": {\"micro\": 0, " \
	"\"minor\": 2, \"major\": 7}, \"package\": \"\"}, \"capabilities\": " \
	"[\"oob\"]}}\r\n"

static void
put(int fd, const char *s)
{
	size_t off = 0, len = strlen(s);

	while (off < len) {
		ssize_t n = write(fd, s + off, len - off);

		if (n <= 0)
			return;
		off += (size_t)n;
	}
}

/*
 * Answers the command in buf with success, its id echoed as QEMU does
 * (an id that is a string, as qmigrate's are; none: no id).
 */
static void
answer_ok(int fd, const char *buf)
{
	char		 reply[256];
	const char	*id = strstr(buf, "\"id\"");
	const char	*q, *end;

	q = id != NULL ? strchr(id + 4, '"') : NULL;
	end = q != NULL ? strchr(q + 1, '"') : NULL;
	if (end != NULL && end - q < 128)
		snprintf(reply, sizeof reply, "{\"return\": {}, \"id\": %.*s}"
		    "\r\n", (int)(end - q + 1), q);
	else
		snprintf(reply, sizeof reply, "{\"return\": {}}\r\n");
	put(fd, reply);
}

/* Reads until the client closes or sends something (one read). */
static int
wait_input(int fd)
{
	char buf[4096];

	return read(fd, buf, sizeof buf) > 0;
}

static void
serve(const char *mode, int fd)
{
	char chunk[65536];

	if (strcmp(mode, "garbage") == 0)
		put(fd, "\xff\xfe not json at all {{{{\r\n");
	else if (strcmp(mode, "greet-silent") == 0 ||
	    strcmp(mode, "greet-close") == 0)
		put(fd, GREETING);
	else if (strcmp(mode, "caps-silent") == 0) {
		ssize_t n;

		put(fd, GREETING);
		if ((n = read(fd, chunk, sizeof chunk - 1)) <= 0)
			return;
		chunk[n] = '\0';
		answer_ok(fd, chunk);
	}
	else if (strcmp(mode, "not-qmp") == 0)
		put(fd, "{\"hello\": \"world\"}\r\n");
	else if (strcmp(mode, "close") == 0)
		return;
	else if (strcmp(mode, "huge") == 0) {
		memset(chunk, 'a', sizeof chunk);
		chunk[sizeof chunk - 1] = '\0';
		put(fd, "\"");
		for (;;) {
			ssize_t n = write(fd, chunk, sizeof chunk - 1);

			if (n <= 0)
				return;
		}
	}
	if (strcmp(mode, "greet-close") == 0) {
		(void)wait_input(fd);
		return;
	}
	while (wait_input(fd))
		;
}

int
main(int argc, char **argv)
{
	struct sockaddr_un	 sun;
	int			 lfd, fd;

	if (argc != 3 || strlen(argv[2]) >= sizeof sun.sun_path) {
		fprintf(stderr, "usage: bad-monitor MODE PATH\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	strcpy(sun.sun_path, argv[2]);
	unlink(argv[2]);
	if ((lfd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    bind(lfd, (struct sockaddr *)&sun, sizeof sun) == -1) {
		perror(argv[2]);
		return 1;
	}
	if (strcmp(argv[1], "stale") == 0) {
		printf("ready\n");
		return 0;
	}
	if (listen(lfd, 8) == -1) {
		perror("listen");
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		if ((fd = accept(lfd, NULL, NULL)) == -1)
			continue;
		serve(argv[1], fd);
		close(fd);
	}
}
