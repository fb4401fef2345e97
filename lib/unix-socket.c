/*
 * unix-socket.c: a unix socket's address, a connect to it and a listener
 * on it, written once for the QMP client, the exporter's collectors and
 * the test peers.
 */
#include <sys/stat.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

int
unix_addr(struct sockaddr_un *sun, const char *path, char **cause)
{
	memset(sun, 0, sizeof *sun);
	sun->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun->sun_path) {
		xasprintf(cause, "%s: socket path too long", path);
		return -1;
	}
	strcpy(sun->sun_path, path);
	return 0;
}

/* A close-on-exec stream socket for path (its address in *sun), or -1. */
static int
unix_socket(struct sockaddr_un *sun, const char *path, int flags,
    char **cause)
{
	int fd;

	if (unix_addr(sun, path, cause) != 0)
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | flags, 0);
	if (fd == -1)
		xasprintf(cause, "%s: socket: %s", path, strerror(errno));
	return fd;
}

/* Whether path names a socket (stat(2) follows a link). */
static int
path_is_socket(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISSOCK(sb.st_mode);
}

int
unix_connect(const char *path, int flags, char **cause)
{
	struct sockaddr_un	sun;
	int			fd;

	if ((fd = unix_socket(&sun, path, flags, cause)) == -1)
		return -1;
	while (connect(fd, (struct sockaddr *)&sun, sizeof sun) == -1) {
		int e = errno;

		if (e == EINTR)
			continue;
		/*
		 * Linux refuses a path that is no socket at all (a regular
		 * file) as it refuses a socket nobody serves: only the
		 * latter may be a QEMU that is busy, so say which.
		 */
		if (e == ECONNREFUSED && !path_is_socket(path))
			e = ENOTSOCK;
		xasprintf(cause, "%s: connect: %s", path, strerror(e));
		close(fd);
		errno = e;	/* the caller tells a refusal from no socket */
		return -1;
	}
	return fd;
}

int
unix_listen(const char *path, int flags, int backlog, char **cause)
{
	struct sockaddr_un	sun;
	int			fd;

	if ((fd = unix_socket(&sun, path, flags, cause)) == -1)
		return -1;
	(void)unlink(path);
	if (bind(fd, (struct sockaddr *)&sun, sizeof sun) == -1 ||
	    listen(fd, backlog) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}
