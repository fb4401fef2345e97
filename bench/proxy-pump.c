/*
 * proxy-pump.c: the two ends of bench/proxy-throughput.sh (a benchmark
 * instrument, never installed).  It must not be the limit of what it
 * measures: one thread per connection, blocking 1 MiB reads and writes
 * (tests/proxy-peer.c, a poll() loop writing 64 KiB per round, topped out
 * below 1 GB/s with no proxy at all), a payload generated once.
 *
 *   sink PATH N          listens on the unix socket PATH, serves N
 *                        connections: reads each to its end, answers the
 *                        byte count (8 bytes, big-endian), closes; after
 *                        the N-th prints the CPU seconds it used and exits
 *   send PATH N BYTES    opens N connections to PATH one after the other
 *                        (the proxy numbers them in that order), then
 *                        sends BYTES on each at once, half-closes, and
 *                        checks the sink's count; prints "SECONDS BYTES
 *                        CPU": from the first connect to the last count,
 *                        and the CPU seconds it used
 *
 * Exit status: 0, 1 usage or a wrong count, 3 a connection failed.
 */
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <err.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BLOCK	(1024 * 1024)

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* User and system CPU seconds of this process (all its threads). */
static double
cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
	    ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6;
}

static struct sockaddr_un
unix_addr(const char *path)
{
	struct sockaddr_un sun;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun.sun_path)
		errx(1, "%s: path too long", path);
	strcpy(sun.sun_path, path);
	return sun;
}

/*
 * Moves exactly len bytes between fd and buf: reads them into buf when rd,
 * else writes buf.  Returns 0, or -1 on an error (errno set) or an early
 * end of the stream.
 */
static int
move_all(int fd, void *buf, size_t len, int rd)
{
	uint8_t	*p = buf;
	ssize_t	 n;

	while (len > 0) {
		n = rd ? read(fd, p, len) : write(fd, p, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void
put_be64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint64_t
get_be64(const uint8_t *p)
{
	uint64_t	v = 0;
	int		i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* sink: one thread per accepted connection. */
static void *
sink_conn(void *arg)
{
	int		 fd = (int)(intptr_t)arg;
	uint8_t		*buf = malloc(BLOCK), count[8];
	uint64_t	 total = 0;
	ssize_t		 n;

	if (buf == NULL)
		errx(1, "out of memory");
	for (;;) {
		n = read(fd, buf, BLOCK);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			errx(3, "sink read: %s", strerror(errno));
		if (n == 0)
			break;
		total += (uint64_t)n;
	}
	put_be64(count, total);
	if (move_all(fd, count, sizeof count, 0) != 0)
		errx(3, "sink answer: %s", strerror(errno));
	close(fd);
	free(buf);
	return NULL;
}

static int
mode_sink(const char *path, int n)
{
	struct sockaddr_un	 sun = unix_addr(path);
	pthread_t		*t;
	int			 lfd, fd, i;

	t = calloc((size_t)n, sizeof *t);
	lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	unlink(path);
	if (t == NULL || lfd == -1 ||
	    bind(lfd, (struct sockaddr *)&sun, sizeof sun) == -1 ||
	    listen(lfd, 64) == -1)
		errx(1, "%s: %s", path, strerror(errno));
	for (i = 0; i < n; i++) {
		if ((fd = accept(lfd, NULL, NULL)) == -1)
			errx(3, "accept: %s", strerror(errno));
		if (pthread_create(&t[i], NULL, sink_conn,
		    (void *)(intptr_t)fd) != 0)
			errx(1, "pthread_create failed");
	}
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	close(lfd);
	unlink(path);
	free(t);
	printf("%.3f\n", cpu_seconds());
	return 0;
}

/* send: one thread per connection. */
struct sender {
	pthread_t	 thread;
	int		 fd;
	uint64_t	 bytes;
	uint8_t		*payload;	/* shared, never written */
	uint64_t	 counted;	/* the sink's answer */
	int		 failed;
};

static void *
send_conn(void *arg)
{
	struct sender	*s = arg;
	uint64_t	 left = s->bytes;
	uint8_t		 count[8];
	size_t		 len;

	while (left > 0) {
		len = left < BLOCK ? (size_t)left : BLOCK;
		if (move_all(s->fd, s->payload, len, 0) != 0) {
			s->failed = errno;
			return NULL;
		}
		left -= len;
	}
	shutdown(s->fd, SHUT_WR);
	if (move_all(s->fd, count, sizeof count, 1) != 0) {
		s->failed = errno != 0 ? errno : EPIPE;
		return NULL;
	}
	s->counted = get_be64(count);
	close(s->fd);
	return NULL;
}

static int
mode_send(const char *path, int n, uint64_t bytes)
{
	struct sockaddr_un	 sun = unix_addr(path);
	struct sender		*s;
	uint8_t			*payload;
	uint64_t		 x = 88172645463325252ull;
	double			 t0;
	size_t			 i;
	int			 k, rc = 0;

	s = calloc((size_t)n, sizeof *s);
	payload = malloc(BLOCK);
	if (s == NULL || payload == NULL)
		errx(1, "out of memory");
	/* Random-looking bytes, made once: the generator is not measured. */
	for (i = 0; i + 8 <= BLOCK; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(payload + i, &x, 8);
	}
	t0 = now();
	for (k = 0; k < n; k++) {
		s[k].fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (s[k].fd == -1 || connect(s[k].fd, (struct sockaddr *)&sun,
		    sizeof sun) == -1)
			errx(3, "connect %s: %s", path, strerror(errno));
		s[k].bytes = bytes;
		s[k].payload = payload;
	}
	for (k = 0; k < n; k++)
		if (pthread_create(&s[k].thread, NULL, send_conn, &s[k]) != 0)
			errx(1, "pthread_create failed");
	for (k = 0; k < n; k++)
		pthread_join(s[k].thread, NULL);
	for (k = 0; k < n; k++) {
		if (s[k].failed != 0) {
			fprintf(stderr, "proxy-pump: conn %d: %s\n", k,
			    strerror(s[k].failed));
			rc = 3;
		} else if (s[k].counted != bytes) {
			fprintf(stderr, "proxy-pump: conn %d: sent %llu, the "
			    "sink counted %llu\n", k, (unsigned long long)bytes,
			    (unsigned long long)s[k].counted);
			if (rc == 0)
				rc = 1;
		}
	}
	if (rc == 0)
		printf("%.6f %llu %.3f\n", now() - t0,
		    (unsigned long long)bytes * (unsigned long long)n,
		    cpu_seconds());
	free(payload);
	free(s);
	return rc;
}

int
main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	if (argc == 4 && strcmp(argv[1], "sink") == 0 && atoi(argv[3]) > 0)
		return mode_sink(argv[2], atoi(argv[3]));
	if (argc == 5 && strcmp(argv[1], "send") == 0 && atoi(argv[3]) > 0)
		return mode_send(argv[2], atoi(argv[3]),
		    strtoull(argv[4], NULL, 10));
	errx(1, "usage: proxy-pump sink PATH N | send PATH N BYTES");
	return 1;
}
