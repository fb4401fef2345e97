/*
 * proxy-peer.c: the test peers of the proxy tests (a test program, never
 * installed).  Each mode is one small, blocking client or server:
 *
 *   sink PATH OUTDIR N        unix listener; for the i-th accepted
 *                             connection writes OUTDIR/i: "TAG BYTES SHA256
 *                             STATUS" once it ends, and answers
 *                             "ok BYTES SHA256" after the sender's EOF
 *   send PATH TAG BYTES       sends "TAG\n" and BYTES pseudo-random bytes,
 *                             half-closes, checks the sink's answer
 *   multi PATH N BYTES        N connections opened one after the other,
 *                             then fed at once ("conn 0" ... "conn N-1")
 *   stall PATH BYTES          sends BYTES, then neither sends nor closes;
 *                             prints "closed after S s" when the peer does
 *   tls-order HOST PORT DIR NAME N BYTES [TARGET-LOG]
 *                             a raw source side: control connection, then
 *                             N data connections with sequence numbers in
 *                             reverse order, each fully set up (and, given
 *                             the target's -v log, seen held there) before
 *                             the next is opened
 *   deaf PATH                 unix listener that accepts once, never reads
 *   flood HOST PORT N         opens N TCP connections at once that send one byte
 *                             and then nothing; prints "open N", waits
 *   corrupt PORT K OFFSET     a TCP relay on 127.0.0.1 (prints "port P"
 *                             once listening) to 127.0.0.1:PORT, a child
 *                             process per connection; in the K-th
 *                             connection it accepts (0: the first) it
 *                             flips a bit of the byte at OFFSET of what
 *                             the client sends, and says so on stdout
 *                             ("corrupted conn K"): a TLS record that
 *                             fails authentication at the server
 *
 * Exit status: 0 success, 1 wrong data or usage, 3 connection failed.
 */
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <arpa/inet.h>
#include <err.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>

#include "common.h"
#include "proxy.h"

#define CHUNK	(64 * 1024)

static void
hexdigest(EVP_MD_CTX *md, char *out)
{
	unsigned char	d[32];
	unsigned int	n, i;

	EVP_DigestFinal_ex(md, d, &n);
	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

/* Pseudo-random bytes: cheap, different per block, same for all runs. */
static void
fill(uint8_t *buf, size_t len, uint64_t *state)
{
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		*state ^= *state << 13;
		*state ^= *state >> 7;
		*state ^= *state << 17;
		memcpy(buf + i, state, 8);
	}
}

/* A blocking connect to the "QEMU" socket path; exits 3 when it fails. */
static int
peer_connect(const char *path)
{
	char	*cause;
	int	 fd;

	if ((fd = unix_connect(path, 0, &cause)) == -1)
		errx(3, "%s", cause);
	return fd;
}

/* A blocking listener at path (replacing what was there); exits 1. */
static int
peer_listen(const char *path, int backlog)
{
	char	*cause;
	int	 fd;

	if ((fd = unix_listen(path, 0, backlog, &cause)) == -1)
		errx(1, "%s", cause);
	return fd;
}

static int
tcp_connect(const char *host, const char *port)
{
	struct addrinfo	hints, *res;
	int		fd;

	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(host, port, &hints, &res) != 0)
		errx(1, "%s:%s: cannot resolve", host, port);
	fd = socket(res->ai_family, SOCK_STREAM, 0);
	if (fd == -1 || connect(fd, res->ai_addr, res->ai_addrlen) == -1)
		errx(3, "connect %s:%s: %s", host, port, strerror(errno));
	freeaddrinfo(res);
	return fd;
}

/* One sender's state, for send and multi. */
struct sender {
	int		 fd;
	uint64_t	 left;
	uint64_t	 total;
	uint64_t	 rng;
	EVP_MD_CTX	*md;
	uint8_t		 buf[CHUNK];
	size_t		 off, len;
	char		 reply[256];
	size_t		 rlen;
	int		 shut, done;
	int		 noshut;	/* stall: never half-close */
};

static void
sender_init(struct sender *s, int fd, const char *tag, uint64_t bytes,
    uint64_t seed)
{
	memset(s, 0, sizeof *s);
	s->fd = fd;
	s->left = bytes;
	s->rng = seed * 2654435761u + 88172645463325252ull;
	s->md = EVP_MD_CTX_new();
	EVP_DigestInit_ex(s->md, EVP_sha256(), NULL);
	s->len = (size_t)snprintf((char *)s->buf, sizeof s->buf, "%s\n", tag);
	EVP_DigestUpdate(s->md, s->buf, s->len);
	s->total = s->len;
}

/* Moves what it can; returns -1 when the connection failed. */
static int
sender_step(struct sender *s, short revents)
{
	ssize_t n;

	if ((revents & POLLOUT) && !s->shut) {
		if (s->off == s->len && s->left > 0) {
			s->len = s->left < CHUNK ? (size_t)s->left : CHUNK;
			s->off = 0;
			fill(s->buf, CHUNK, &s->rng);
			EVP_DigestUpdate(s->md, s->buf, s->len);
			s->left -= s->len;
			s->total += s->len;
		}
		if (s->off < s->len) {
			n = write(s->fd, s->buf + s->off, s->len - s->off);
			if (n == -1 && errno != EAGAIN && errno != EINTR)
				return -1;
			if (n > 0)
				s->off += (size_t)n;
		}
		if (s->off == s->len && s->left == 0 && !s->noshut) {
			shutdown(s->fd, SHUT_WR);
			s->shut = 1;
		}
	}
	if (revents & (POLLIN | POLLHUP | POLLERR)) {
		n = read(s->fd, s->reply + s->rlen,
		    sizeof s->reply - 1 - s->rlen);
		if (n == -1 && errno != EAGAIN && errno != EINTR)
			return -1;
		if (n == 0 || (revents & POLLERR))
			s->done = 1;
		if (n > 0)
			s->rlen += (size_t)n;
	}
	return 0;
}

/* Checks the sink's answer against what was sent; prints both. */
static int
sender_check(struct sender *s, const char *tag)
{
	char sha[65], want[128];

	hexdigest(s->md, sha);
	EVP_MD_CTX_free(s->md);
	s->reply[s->rlen] = '\0';
	snprintf(want, sizeof want, "ok %llu %s\n",
	    (unsigned long long)s->total, sha);
	printf("%s: sent %llu %s, answer: %s", tag,
	    (unsigned long long)s->total, sha,
	    s->rlen > 0 ? s->reply : "(none)\n");
	if (!s->shut || s->rlen == 0)
		return 3;
	return strcmp(want, s->reply) == 0 ? 0 : 1;
}

static int
mode_send(int n, const char *path, const char *onetag, uint64_t bytes)
{
	struct sender	*s;
	struct pollfd	*pfd;
	char		 tag[64];
	int		 i, left = n, rc = 0, r;

	s = calloc((size_t)n, sizeof *s);
	pfd = calloc((size_t)n, sizeof *pfd);
	/* Connect in order: the source proxy accepts in this order. */
	for (i = 0; i < n; i++) {
		if (onetag != NULL)
			snprintf(tag, sizeof tag, "%s", onetag);
		else
			snprintf(tag, sizeof tag, "conn %d", i);
		sender_init(&s[i], peer_connect(path), tag, bytes,
		    (uint64_t)i + 1);
	}
	for (i = 0; i < n; i++) {
		pfd[i].fd = s[i].fd;
		pfd[i].events = POLLOUT | POLLIN;
	}
	while (left > 0) {
		if (poll(pfd, (nfds_t)n, -1) == -1 && errno != EINTR)
			errx(1, "poll: %s", strerror(errno));
		for (i = 0; i < n; i++) {
			if (pfd[i].fd == -1 || pfd[i].revents == 0)
				continue;
			if (sender_step(&s[i], pfd[i].revents) == -1) {
				printf("conn %d: closed: %s\n", i,
				    strerror(errno));
				s[i].done = 1;
			}
			if (s[i].shut)
				pfd[i].events = POLLIN;
			if (s[i].done) {
				pfd[i].fd = -1;
				left--;
			}
		}
	}
	for (i = 0; i < n; i++) {
		if (onetag != NULL)
			snprintf(tag, sizeof tag, "%s", onetag);
		else
			snprintf(tag, sizeof tag, "conn %d", i);
		r = sender_check(&s[i], tag);
		if (r > rc)
			rc = r;
		close(s[i].fd);
	}
	free(s);
	free(pfd);
	return rc;
}

struct sinkconn {
	int		 fd;
	int		 index;
	EVP_MD_CTX	*md;
	uint64_t	 bytes;
	char		 tag[64];
	size_t		 taglen;
	int		 tagdone;
};

static void
sink_finish(struct sinkconn *c, const char *outdir, const char *status)
{
	char	 sha[65], path[4096], line[256];
	FILE	*f;
	int	 n;

	hexdigest(c->md, sha);
	EVP_MD_CTX_free(c->md);
	if (strcmp(status, "eof") == 0) {
		n = snprintf(line, sizeof line, "ok %llu %s\n",
		    (unsigned long long)c->bytes, sha);
		if (write(c->fd, line, (size_t)n) != n)
			status = "reply-failed";
	}
	snprintf(path, sizeof path, "%s/%d", outdir, c->index);
	f = fopen(path, "w");
	if (f == NULL)
		errx(1, "%s: %s", path, strerror(errno));
	fprintf(f, "%s %llu %s %s\n", c->tagdone ? c->tag : "(none)",
	    (unsigned long long)c->bytes, sha, status);
	fclose(f);
	close(c->fd);
}

static int
mode_sink(const char *path, const char *outdir, int n)
{
	struct sinkconn		*c;
	struct pollfd		*pfd;
	uint8_t			*buf;
	int			 lfd, accepted = 0, left = n, i;
	ssize_t			 r;

	lfd = peer_listen(path, 64);
	c = calloc((size_t)n, sizeof *c);
	pfd = calloc((size_t)n + 1, sizeof *pfd);
	buf = malloc(256 * 1024);
	for (i = 0; i < n; i++)
		pfd[i].fd = -1;
	pfd[n].fd = lfd;
	pfd[n].events = POLLIN;
	while (left > 0) {
		if (poll(pfd, (nfds_t)n + 1, -1) == -1 && errno != EINTR)
			errx(1, "poll: %s", strerror(errno));
		if ((pfd[n].revents & POLLIN) && accepted < n) {
			i = accepted++;
			c[i].fd = accept(lfd, NULL, NULL);
			if (c[i].fd == -1)
				errx(1, "accept: %s", strerror(errno));
			c[i].index = i;
			c[i].md = EVP_MD_CTX_new();
			EVP_DigestInit_ex(c[i].md, EVP_sha256(), NULL);
			pfd[i].fd = c[i].fd;
			pfd[i].events = POLLIN;
			if (accepted == n)
				pfd[n].fd = -1;
		}
		for (i = 0; i < n; i++) {
			if (pfd[i].fd == -1 || pfd[i].revents == 0)
				continue;
			r = read(c[i].fd, buf, 256 * 1024);
			if (r > 0) {
				ssize_t k;

				EVP_DigestUpdate(c[i].md, buf, (size_t)r);
				c[i].bytes += (uint64_t)r;
				for (k = 0; k < r && !c[i].tagdone; k++) {
					if (buf[k] == '\n' || c[i].taglen ==
					    sizeof c[i].tag - 1)
						c[i].tagdone = 1;
					else
						c[i].tag[c[i].taglen++] =
						    (char)buf[k];
				}
				continue;
			}
			if (r == -1 && errno == EINTR)
				continue;
			sink_finish(&c[i], outdir, r == 0 ? "eof" : "error");
			pfd[i].fd = -1;
			left--;
		}
	}
	free(buf);
	free(c);
	free(pfd);
	close(lfd);
	return 0;
}

static int
mode_stall(const char *path, uint64_t bytes)
{
	struct sender	 s;
	struct pollfd	 pfd;
	double		 start;
	char		 b[4096];
	ssize_t		 n;

	sender_init(&s, peer_connect(path), "stall", bytes, 7);
	s.noshut = 1;
	while (s.left > 0 || s.off < s.len) {
		pfd.fd = s.fd;
		pfd.events = POLLOUT;
		poll(&pfd, 1, -1);
		if (sender_step(&s, POLLOUT) == -1)
			errx(3, "write: %s", strerror(errno));
	}
	EVP_MD_CTX_free(s.md);
	start = now_monotonic();
	for (;;) {
		n = read(s.fd, b, sizeof b);
		if (n <= 0)
			break;
	}
	printf("closed after %.1f s\n", now_monotonic() - start);
	return 0;
}

static SSL_CTX *
client_ctx(const char *dir)
{
	SSL_CTX	*ctx = SSL_CTX_new(TLS_client_method());
	char	 p[4096];

	snprintf(p, sizeof p, "%s/ca.pem", dir);
	if (SSL_CTX_load_verify_locations(ctx, p, NULL) != 1)
		errx(1, "%s: cannot load", p);
	snprintf(p, sizeof p, "%s/cert.pem", dir);
	if (SSL_CTX_use_certificate_chain_file(ctx, p) != 1)
		errx(1, "%s: cannot load", p);
	snprintf(p, sizeof p, "%s/key.pem", dir);
	if (SSL_CTX_use_PrivateKey_file(ctx, p, SSL_FILETYPE_PEM) != 1)
		errx(1, "%s: cannot load", p);
	SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
	return ctx;
}

static SSL *
tls_open(SSL_CTX *ctx, const char *host, const char *port, const char *name)
{
	SSL *ssl = SSL_new(ctx);

	SSL_set_fd(ssl, tcp_connect(host, port));
	SSL_set1_host(ssl, name);
	if (SSL_connect(ssl) != 1) {
		ERR_print_errors_fp(stderr);
		errx(3, "TLS handshake with %s:%s failed", host, port);
	}
	return ssl;
}

static void
tls_write_all(SSL *ssl, const void *buf, size_t len)
{
	if (len > 0 && SSL_write(ssl, buf, (int)len) != (int)len)
		errx(3, "TLS write failed");
}

/*
 * Waits (10 s at most) until file has a line with "conn SEQ from " and
 * "held until": the target has this connection in its hold list.
 */
static void
wait_held(const char *file, int seq)
{
	char	 line[1024], want[64];
	double	 end = now_monotonic() + 10;
	FILE	*f;

	snprintf(want, sizeof want, "conn %d from ", seq);
	while (now_monotonic() < end) {
		if ((f = fopen(file, "r")) != NULL) {
			while (fgets(line, sizeof line, f) != NULL) {
				if (strstr(line, want) != NULL &&
				    strstr(line, "held until") != NULL) {
					fclose(f);
					return;
				}
			}
			fclose(f);
		}
		usleep(20000);	/* poll the log: the proxy emits no event */
	}
	errx(1, "%s: conn %d never held", file, seq);
}

static int
mode_tls_order(const char *host, const char *port, const char *dir,
    const char *name, int n, uint64_t bytes, const char *logfile)
{
	SSL_CTX			*ctx = client_ctx(dir);
	SSL			*control, **data;
	struct proxy_hdr	 h;
	uint8_t			 hdr[PROXY_HDR_SIZE], len[4], ans[256];
	const char		*msg = "{\"type\":\"proxy-session\"}";
	char			 line[64];
	uint8_t			*buf = malloc(CHUNK);
	uint64_t		 rng = 1, left;
	size_t			 chunk;
	int			 i, r, rc = 0;

	memset(&h, 0, sizeof h);
	RAND_bytes(h.session, sizeof h.session);
	h.kind = PROXY_KIND_CONTROL;
	control = tls_open(ctx, host, port, name);
	proxy_hdr_encode(&h, hdr);
	tls_write_all(control, hdr, sizeof hdr);
	len[0] = len[1] = len[2] = 0;
	len[3] = (uint8_t)strlen(msg);
	tls_write_all(control, len, 4);
	tls_write_all(control, msg, strlen(msg));
	if (SSL_read(control, len, 4) != 4 ||
	    (r = SSL_read(control, ans, len[3])) != len[3])
		errx(3, "no control answer");
	ans[r] = '\0';
	printf("control answer: %s\n", ans);

	data = calloc((size_t)n, sizeof *data);
	h.kind = PROXY_KIND_DATA;
	for (i = n - 1; i >= 0; i--) {
		data[i] = tls_open(ctx, host, port, name);
		h.seq = (uint32_t)i;
		proxy_hdr_encode(&h, hdr);
		tls_write_all(data[i], hdr, sizeof hdr);
		snprintf(line, sizeof line, "conn %d\n", i);
		tls_write_all(data[i], line, strlen(line));
		/* Make sure the target got it before opening the next. */
		if (logfile != NULL && i > 0)
			wait_held(logfile, i);
	}
	for (i = 0; i < n; i++) {
		for (left = bytes; left > 0; left -= chunk) {
			chunk = left < CHUNK ? (size_t)left : CHUNK;
			fill(buf, chunk, &rng);
			tls_write_all(data[i], buf, chunk);
		}
		SSL_shutdown(data[i]);
	}
	for (i = 0; i < n; i++) {
		r = SSL_read(data[i], ans, sizeof ans - 1);
		ans[r > 0 ? r : 0] = '\0';
		printf("conn %d answer: %s", i, r > 0 ? (char *)ans :
		    "(none)\n");
		if (r <= 0 || strncmp((char *)ans, "ok ", 3) != 0)
			rc = 3;
		SSL_free(data[i]);
	}
	SSL_free(control);
	SSL_CTX_free(ctx);
	free(data);
	free(buf);
	return rc;
}

/* Accepts one connection and never reads from it. */
static int
mode_deaf(const char *path)
{
	int	lfd, fd;

	lfd = peer_listen(path, 8);
	fd = accept(lfd, NULL, NULL);
	printf("accepted %d\n", fd);
	for (;;)
		pause();
	return 0;
}

/*
 * Opens n TCP connections at once (non-blocking: those beyond the
 * listener's backlog wait in SYN_SENT), sends one byte of a TLS record
 * header on each that connects, then holds them all.
 */
static int
mode_flood(const char *host, const char *port, int n)
{
	struct addrinfo	 hints, *res;
	struct pollfd	*pfd;
	double		 end;
	int		 i, fd, left;

	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(host, port, &hints, &res) != 0)
		errx(1, "%s:%s: cannot resolve", host, port);
	pfd = calloc((size_t)n, sizeof *pfd);
	for (i = 0; i < n; i++) {
		fd = socket(res->ai_family, SOCK_STREAM | SOCK_NONBLOCK, 0);
		if (fd == -1)
			errx(3, "socket %d: %s", i, strerror(errno));
		if (connect(fd, res->ai_addr, res->ai_addrlen) == -1 &&
		    errno != EINPROGRESS)
			errx(3, "connect %d: %s", i, strerror(errno));
		pfd[i].fd = fd;
		pfd[i].events = POLLOUT;
	}
	freeaddrinfo(res);
	printf("open %d\n", n);
	fflush(stdout);
	/* Send the byte for a while, then just hold the sockets. */
	end = now_monotonic() + 5;
	left = n;
	while (left > 0 && now_monotonic() < end) {
		if (poll(pfd, (nfds_t)n, 100) <= 0)
			continue;
		for (i = 0; i < n; i++) {
			if (pfd[i].fd < 0 || !(pfd[i].revents & POLLOUT))
				continue;
			/* A reset by the proxy is fine: it refused us. */
			(void)!write(pfd[i].fd, "\x16", 1);
			pfd[i].events = 0;
			pfd[i].fd = -pfd[i].fd - 1;	/* poll ignores it */
			left--;
		}
	}
	for (;;)
		pause();
	return 0;
}

/* Writes all of buf to fd: 0, or -1 when fd failed. */
static int
write_all(int fd, const uint8_t *buf, size_t len)
{
	ssize_t n;

	while (len > 0) {
		if ((n = write(fd, buf, len)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * One relayed connection: a and b forwarded both ways until either ends
 * (then both close, as a cable cut would); the byte at offset of a's
 * stream (the client's) flipped when offset is not -1.
 */
static void
relay_conn(int a, int b, long long offset, int k)
{
	struct pollfd	 pfd[2];
	uint8_t		 buf[65536];
	long long	 seen = 0;
	ssize_t		 n;
	int		 i;

	pfd[0].fd = a;
	pfd[1].fd = b;
	pfd[0].events = pfd[1].events = POLLIN;
	for (;;) {
		if (poll(pfd, 2, -1) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < 2; i++) {
			if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(pfd[i].fd, buf, sizeof buf);
			if (n <= 0)
				return;
			if (i == 0 && offset >= seen && offset < seen + n) {
				buf[offset - seen] ^= 0x01;
				printf("corrupted conn %d\n", k);
			}
			if (i == 0)
				seen += n;
			if (write_all(pfd[!i].fd, buf, (size_t)n) != 0)
				return;
		}
	}
}

static int
mode_corrupt(const char *port, int k, long long offset)
{
	struct sockaddr_in	sin;
	socklen_t		len = sizeof sin;
	int			lfd, fd, nfd, i, one = 1;

	signal(SIGCHLD, SIG_IGN);	/* no zombies */
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (lfd == -1 || bind(lfd, (struct sockaddr *)&sin, sizeof sin) ==
	    -1 || listen(lfd, 64) == -1 ||
	    getsockname(lfd, (struct sockaddr *)&sin, &len) == -1)
		err(3, "relay listener");
	printf("port %u\n", ntohs(sin.sin_port));
	for (i = 0;; i++) {
		if ((fd = accept(lfd, NULL, NULL)) == -1) {
			if (errno == EINTR)
				continue;
			err(3, "accept");
		}
		nfd = tcp_connect("127.0.0.1", port);
		switch (fork()) {
		case -1:
			err(3, "fork");
		case 0:
			/* Ends with the relay (the test's EXIT trap). */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(lfd);
			relay_conn(fd, nfd, i == k ? offset : -1, i);
			_exit(0);
		}
		close(fd);
		close(nfd);
	}
}

int
main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 5 && strcmp(argv[1], "sink") == 0)
		return mode_sink(argv[2], argv[3], atoi(argv[4]));
	if (argc == 5 && strcmp(argv[1], "send") == 0)
		return mode_send(1, argv[2], argv[3], strtoull(argv[4],
		    NULL, 10));
	if (argc == 5 && strcmp(argv[1], "multi") == 0)
		return mode_send(atoi(argv[3]), argv[2], NULL,
		    strtoull(argv[4], NULL, 10));
	if (argc == 4 && strcmp(argv[1], "stall") == 0)
		return mode_stall(argv[2], strtoull(argv[3], NULL, 10));
	if ((argc == 8 || argc == 9) && strcmp(argv[1], "tls-order") == 0)
		return mode_tls_order(argv[2], argv[3], argv[4], argv[5],
		    atoi(argv[6]), strtoull(argv[7], NULL, 10),
		    argc == 9 ? argv[8] : NULL);
	if (argc == 3 && strcmp(argv[1], "deaf") == 0)
		return mode_deaf(argv[2]);
	if (argc == 5 && strcmp(argv[1], "corrupt") == 0)
		return mode_corrupt(argv[2], atoi(argv[3]),
		    strtoll(argv[4], NULL, 10));
	if (argc == 5 && strcmp(argv[1], "flood") == 0)
		return mode_flood(argv[2], argv[3], atoi(argv[4]));
	errx(1, "usage: see the comment at the top of tests/proxy-peer.c");
	return 1;
}
