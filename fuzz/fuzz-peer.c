/*
 * fuzz-peer.c: see fuzz-peer.h.
 */
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ev.h>

#include "fuzz-peer.h"

#define PEER_CONTAINER_OF(p, type, member) \
	((type *)(void *)((char *)(p) - offsetof(type, member)))

struct fuzz_peer {
	struct ev_loop	*loop;
	int		 fd;
	ev_io		 rio;
	ev_io		 wio;
	ev_idle		 idle;

	const uint8_t	*data;
	size_t		 size;
	size_t		 pos;		/* start of the next segment */

	char		*out;		/* the segment being written */
	size_t		 out_len;
	size_t		 out_off;

	long long	 sync_id;
};

static void *
peer_alloc(size_t size)
{
	void	*p;

	if ((p = malloc(size == 0 ? 1 : size)) == NULL)
		abort();
	return p;
}

/* Notes the id of a guest-sync-delimited in what libqmp wrote. */
static void
peer_scan(struct fuzz_peer *p, const char *buf, size_t len)
{
	static const char	 cmd[] = "\"guest-sync-delimited\"";
	static const char	 key[] = "\"id\":";
	const char		*at, *end = buf + len;
	char			 num[32];
	size_t			 n;

	at = memmem(buf, len, cmd, sizeof cmd - 1);
	if (at == NULL)
		return;
	at = memmem(at, (size_t)(end - at), key, sizeof key - 1);
	if (at == NULL)
		return;
	at += sizeof key - 1;
	for (n = 0; at + n < end && n < sizeof num - 1 &&
	    at[n] >= '0' && at[n] <= '9'; n++)
		num[n] = at[n];
	num[n] = '\0';
	if (n > 0)
		p->sync_id = strtoll(num, NULL, 10);
}

static void
peer_read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct fuzz_peer	*p = PEER_CONTAINER_OF(w, struct fuzz_peer,
				    rio);
	char			 buf[4096];
	ssize_t			 n;

	n = read(p->fd, buf, sizeof buf);
	if (n > 0)
		peer_scan(p, buf, (size_t)n);
	else if (n == 0 || (errno != EAGAIN && errno != EINTR))
		ev_io_stop(loop, w);
}

/* The next segment, with @ID replaced, into p->out. */
static void
peer_next_segment(struct fuzz_peer *p)
{
	const uint8_t	*seg = p->data + p->pos, *sep;
	size_t		 left = p->size - p->pos, len, i, o = 0;
	char		 id[32];
	int		 idlen;

	sep = memmem(seg, left, FUZZ_PEER_SEP, sizeof FUZZ_PEER_SEP - 1);
	if (sep != NULL) {
		len = (size_t)(sep - seg);
		p->pos += len + sizeof FUZZ_PEER_SEP - 1;
	} else {
		len = left;
		p->pos = p->size;
	}
	idlen = snprintf(id, sizeof id, "%lld", p->sync_id);
	/* "@ID" is 3 bytes and an id at most 20: 7 times is enough. */
	free(p->out);
	p->out = peer_alloc(len * 7 + 1);
	for (i = 0; i < len; i++) {
		if (i + 3 <= len && memcmp(seg + i, "@ID", 3) == 0) {
			memcpy(p->out + o, id, (size_t)idlen);
			o += (size_t)idlen;
			i += 2;
		} else
			p->out[o++] = (char)seg[i];
	}
	p->out_len = o;
	p->out_off = 0;
}

/* Writes what is left of the current segment; returns 1 once it is out. */
static int
peer_flush(struct fuzz_peer *p)
{
	ssize_t	 n;

	while (p->out_off < p->out_len) {
		n = send(p->fd, p->out + p->out_off, p->out_len - p->out_off,
		    MSG_NOSIGNAL);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n == -1) {
			/* libqmp hung up: nothing more to say. */
			p->out_off = p->out_len;
			p->pos = p->size;
			break;
		}
		p->out_off += (size_t)n;
	}
	return 1;
}

static void
peer_write_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct fuzz_peer	*p = PEER_CONTAINER_OF(w, struct fuzz_peer,
				    wio);

	if (peer_flush(p)) {
		ev_io_stop(loop, w);
		ev_idle_start(loop, &p->idle);
	}
}

/* The loop has nothing else to do: the next segment, or the end. */
static void
peer_idle_cb(struct ev_loop *loop, ev_idle *w, int revents)
{
	struct fuzz_peer	*p = PEER_CONTAINER_OF(w, struct fuzz_peer,
				    idle);

	if (p->pos >= p->size) {
		ev_idle_stop(loop, w);
		(void)shutdown(p->fd, SHUT_WR);
		return;
	}
	peer_next_segment(p);
	if (!peer_flush(p)) {
		ev_idle_stop(loop, w);
		ev_io_start(loop, &p->wio);
	}
}

struct fuzz_peer *
fuzz_peer_new(struct ev_loop *loop, int fd, const uint8_t *data,
    size_t size)
{
	struct fuzz_peer	*p;
	int			 flags;

	p = peer_alloc(sizeof *p);
	memset(p, 0, sizeof *p);
	p->loop = loop;
	p->fd = fd;
	p->data = data;
	p->size = size;
	if ((flags = fcntl(fd, F_GETFL)) != -1)
		(void)fcntl(fd, F_SETFL, flags | O_NONBLOCK);
	ev_io_init(&p->rio, peer_read_cb, fd, EV_READ);
	ev_io_init(&p->wio, peer_write_cb, fd, EV_WRITE);
	ev_idle_init(&p->idle, peer_idle_cb);
	ev_io_start(loop, &p->rio);
	ev_idle_start(loop, &p->idle);
	return p;
}

void
fuzz_peer_free(struct fuzz_peer *p)
{
	if (p == NULL)
		return;
	ev_io_stop(p->loop, &p->rio);
	ev_io_stop(p->loop, &p->wio);
	ev_idle_stop(p->loop, &p->idle);
	close(p->fd);
	free(p->out);
	free(p);
}
