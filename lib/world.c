/*
 * world.c: the production world of world.h, libev and the kernel.  Each op
 * is what the executor did before the seam existed, moved here unchanged;
 * the simulator's world (tests/sim/) replaces the whole table.
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "world.h"

static double
kernel_clock(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double
kernel_now(void)
{
	return kernel_clock(CLOCK_MONOTONIC);
}

static double
kernel_now_real(void)
{
	return kernel_clock(CLOCK_REALTIME);
}

static void
kernel_loop_turn(struct ev_loop *loop)
{
	ev_run(loop, EVRUN_ONCE);
}

static void
kernel_loop_break(struct ev_loop *loop)
{
	ev_break(loop, EVBREAK_ALL);
}

static void
kernel_timer_start(struct ev_loop *loop, ev_timer *t)
{
	ev_timer_start(loop, t);
}

static void
kernel_timer_stop(struct ev_loop *loop, ev_timer *t)
{
	ev_timer_stop(loop, t);
}

static void
kernel_signal_start(struct ev_loop *loop, ev_signal *s)
{
	ev_signal_start(loop, s);
}

/*
 * libev puts the default action back when a signal's watcher stops, so the
 * signal is blocked meanwhile and ignored after (a pending one is then
 * discarded): none can kill the process between the two.
 */
static void
kernel_signal_stop(struct ev_loop *loop, ev_signal *s)
{
	sigset_t one, old;
	int	 signum = s->signum;

	sigemptyset(&one);
	sigaddset(&one, signum);
	sigprocmask(SIG_BLOCK, &one, &old);
	ev_signal_stop(loop, s);
	signal(signum, SIG_IGN);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static pid_t
kernel_peer_pid(int fd)
{
	struct ucred	cred;
	socklen_t	len = sizeof cred;

	if (fd == -1 || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred,
	    &len) != 0 || len != sizeof cred)
		return 0;
	return cred.pid;
}

/* /proc/PID/stat's 22nd field; a zombie counts as gone: it runs nothing. */
static unsigned long long
kernel_process_start(pid_t pid)
{
	char			 path[64], buf[1024], *p;
	unsigned long long	 start = 0;
	FILE			*f;
	size_t			 n;
	int			 field;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* The command name may hold spaces: fields count from its ')'. */
	if ((p = strrchr(buf, ')')) == NULL || p[1] != ' ' || p[2] == 'Z' ||
	    p[2] == 'X')
		return 0;
	for (field = 2, p++; *p != '\0' && field < 22; p++)
		if (*p == ' ')
			field++;
	if (field == 22)
		start = strtoull(p, NULL, 10);
	return start;
}

static int
kernel_process_exists(pid_t pid)
{
	return !(kill(pid, 0) != 0 && errno == ESRCH);
}

static int
kernel_file_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

static char *
kernel_read_file(const char *path, size_t limit, size_t *len)
{
	char	*buf;
	ssize_t	 n;
	int	 fd, saved;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return NULL;
	buf = xmalloc(limit + 2);
	n = read_full(fd, buf, limit + 1);
	saved = errno;
	close(fd);
	if (n < 0 || (size_t)n > limit) {
		free(buf);
		errno = n < 0 ? saved : EFBIG;
		return NULL;
	}
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

/*
 * fsync(2) of path's directory, so that a rename or link into it lasts a
 * crash of the host (the update marker's promise, mig-marker.c): 0, or
 * -1 with errno.  A file system that cannot sync a directory (EINVAL)
 * has nothing more to make durable.
 */
static int
sync_dir_of(const char *path)
{
	const char	*slash = strrchr(path, '/');
	char		*dir;
	int		 fd, rc, saved;

	if (slash == NULL)
		dir = xstrdup(".");
	else if (slash == path)
		dir = xstrdup("/");
	else
		xasprintf(&dir, "%.*s", (int)(slash - path), path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd == -1)
		return -1;
	rc = fsync(fd);
	saved = errno;
	close(fd);
	if (rc == -1 && saved == EINVAL)
		rc = 0;
	errno = saved;
	return rc;
}

static int
kernel_write_file(const char *path, const char *data, size_t len,
    enum world_write how, char **cause)
{
	char	*tmp;
	int	 fd, saved;
	size_t	 off = 0;

	xasprintf(&tmp, "%s.tmp.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd == -1) {
		saved = errno;
		xasprintf(cause, "%s: %s", tmp, strerror(saved));
		free(tmp);
		errno = saved;
		return -1;
	}
	while (off < len) {
		ssize_t n = write(fd, data + off, len - off);

		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			xasprintf(cause, "%s: %s", tmp,
			    n == 0 ? "short write" : strerror(errno));
			goto fail;
		}
		off += (size_t)n;
	}
	if (fsync(fd) == -1) {
		xasprintf(cause, "%s: fsync: %s", tmp, strerror(errno));
		goto fail;
	}
	if (close(fd) == -1) {
		fd = -1;
		xasprintf(cause, "%s: close: %s", tmp, strerror(errno));
		goto fail;
	}
	fd = -1;
	if (how == WORLD_WRITE_INSTALL && rename(tmp, path) == -1) {
		xasprintf(cause, "%s: rename: %s", path, strerror(errno));
		goto fail;
	}
	if (how == WORLD_WRITE_CREATE && link(tmp, path) == -1) {
		xasprintf(cause, "%s: %s", path, errno == EEXIST ?
		    "exists" : strerror(errno));
		goto fail;
	}
	if (how != WORLD_WRITE_INSTALL)
		unlink(tmp);	/* probed, or linked: path holds it now */
	if (how != WORLD_WRITE_PROBE && sync_dir_of(path) == -1) {
		/* path holds the data; that it lasts a crash is not known. */
		saved = errno;
		xasprintf(cause, "%s: fsync of its directory: %s", path,
		    strerror(saved));
		free(tmp);
		errno = saved;
		return -1;
	}
	free(tmp);
	return 0;
fail:
	saved = errno;
	if (fd != -1)
		close(fd);
	unlink(tmp);
	free(tmp);
	errno = saved;
	return -1;
}

/*
 * write(2) that never blocks (output.c's queues depend on it): a socket
 * is sent to with MSG_DONTWAIT; a pipe or a terminal, whose file
 * description qmigrate shares with its parent and so must not make
 * O_NONBLOCK, takes what poll(2) says it takes at once: PIPE_BUF bytes
 * on a pipe (POLLOUT promises a free page), 512 on a terminal; a file
 * takes everything.  EAGAIN: the reader did not read.
 */
static ssize_t
kernel_write(int fd, const void *buf, size_t len)
{
	struct pollfd	pfd = { .fd = fd, .events = POLLOUT };
	struct stat	sb;
	size_t		chunk;
	ssize_t		n;

	if (fstat(fd, &sb) == -1)
		return -1;
	if (S_ISSOCK(sb.st_mode))
		return send(fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
	if (!S_ISFIFO(sb.st_mode) && !S_ISCHR(sb.st_mode))
		return write(fd, buf, len);
	if ((n = poll(&pfd, 1, 0)) == -1)
		return -1;
	if (n == 0 || !(pfd.revents & POLLOUT)) {
		errno = pfd.revents & (POLLERR | POLLHUP) ? EPIPE : EAGAIN;
		return -1;
	}
	chunk = S_ISFIFO(sb.st_mode) ? PIPE_BUF : 512;
	return write(fd, buf, len < chunk ? len : chunk);
}

static int
kernel_random_bytes(void *buf, size_t len)
{
	ssize_t	n = -1;
	int	fd;

	if ((fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) != -1) {
		n = read_full(fd, buf, len);
		close(fd);
	}
	return n == (ssize_t)len ? 0 : -1;
}

const struct world_ops world_kernel = {
	.now = kernel_now,
	.now_real = kernel_now_real,
	.loop_turn = kernel_loop_turn,
	.loop_break = kernel_loop_break,
	.timer_start = kernel_timer_start,
	.timer_stop = kernel_timer_stop,
	.signal_start = kernel_signal_start,
	.signal_stop = kernel_signal_stop,
	.connect_unix = unix_connect,
	.peer_pid = kernel_peer_pid,
	.process_start = kernel_process_start,
	.process_exists = kernel_process_exists,
	.listen_backlog = unix_listen_backlog,
	.unlink = unlink,
	.file_exists = kernel_file_exists,
	.read_file = kernel_read_file,
	.write_file = kernel_write_file,
	.write = kernel_write,
	.random_bytes = kernel_random_bytes,
};

const struct world_ops *world = &world_kernel;

void
world_set(const struct world_ops *ops)
{
	world = ops;
}
