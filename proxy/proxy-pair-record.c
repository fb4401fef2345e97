/*
 * proxy-pair-record.c: the TLS-record transport of a forwarding pair (TLS
 * 1.3 with AES-GCM, the normal case): proxy-record.c seals and opens the
 * records in place.  QEMU's bytes are read straight into a ring of record
 * slots, sealed there and leave in one writev() per batch; the peer's
 * records are read in large gulps, opened in place and their contents
 * written to QEMU with one writev() per batch.  No byte is copied in user
 * space.  The peer's KeyUpdate re-keys the opening side (and, when asked,
 * ours); our end of stream is a sealed close_notify.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/ssl.h>

#include "proxy-pair.h"

#define SLOT_SIZE	\
	(PROXY_REC_HDR + PROXY_REC_PLAIN_MAX + 1 + PROXY_REC_TAG)
#define RECORD_MAX	(PROXY_REC_HDR + PROXY_REC_CIPHER_MAX)
#define MAX_SPANS	128		/* opened records waiting for QEMU */
#define ALERT_CLOSE_NOTIFY	0

/* QEMU -> peer: a ring of record slots. */
struct seal_ring {
	uint8_t		*mem;		/* nslots * SLOT_SIZE */
	size_t		*reclen;	/* sealed record length per slot */
	size_t		*content;	/* its content bytes (stats) */
	unsigned	 nslots;
	unsigned	 head;		/* next slot to fill */
	unsigned	 tail;		/* next slot to send */
	unsigned	 count;		/* sealed, not yet all sent */
	size_t		 sent;		/* bytes of the tail record sent */
	int		 update_due;	/* the peer asked for a KeyUpdate */
	struct proxy_rec *rec;
};

/* Peer -> QEMU: raw records in, opened contents out. */
struct open_buf {
	uint8_t		*mem;
	size_t		 cap;
	size_t		 rd;		/* end of the bytes read */
	size_t		 op;		/* start of the bytes not opened */
	struct iovec	 span[MAX_SPANS];	/* contents for QEMU */
	unsigned	 first, nspan;
	struct proxy_rec *rec;
};

struct record_state {
	struct seal_ring seal;		/* direction END_QEMU */
	struct open_buf	 open;		/* direction END_NET */
};

static struct seal_ring *
seal_ring(struct proxy_pair *p)
{
	struct record_state *st = p->tp_state;

	return &st->seal;
}

static struct open_buf *
open_buf(struct proxy_pair *p)
{
	struct record_state *st = p->tp_state;

	return &st->open;
}

/*
 * Seals the next slot of the ring: kind is PROXY_REC_DATA (len bytes of
 * content already in place), PROXY_REC_HANDSHAKE (a KeyUpdate, then the
 * next key) or PROXY_REC_ALERT (close_notify).  Returns 0, or -1 after
 * proxy_pair_fail.
 */
static int
seal_slot(struct proxy_pair *p, struct seal_ring *r, size_t len, int kind)
{
	uint8_t	*slot = r->mem + (size_t)r->head * SLOT_SIZE;
	size_t	 n;

	if (kind == PROXY_REC_DATA)
		n = proxy_rec_seal(r->rec, slot, len, PROXY_REC_DATA);
	else if (kind == PROXY_REC_HANDSHAKE)
		n = proxy_rec_seal_key_update(r->rec, slot);
	else
		n = proxy_rec_seal_close_notify(r->rec, slot);
	if (n == 0) {
		proxy_pair_fail(p, &p->end[END_NET], "write to", "TLS record "
		    "encryption failed");
		return -1;
	}
	r->reclen[r->head] = n;
	r->content[r->head] = kind == PROXY_REC_DATA ? len : 0;
	r->head = (r->head + 1) % r->nslots;
	r->count++;
	if (kind == PROXY_REC_HANDSHAKE)
		r->update_due = 0;
	return 0;
}

/*
 * Reads QEMU's bytes straight into the free slots of the ring and seals
 * each slot as a record (the last one of a read may be short: QEMU may be
 * waiting for an answer to what it sent).
 */
static enum io_result
seal_fill(struct proxy_pair *p)
{
	struct pair_end		*e = &p->end[END_QEMU];
	struct seal_ring	*r = seal_ring(p);
	struct iovec		 iov[64];
	enum io_result		 res = IO_BLOCKED;
	unsigned		 i, k, s;
	size_t			 take;
	ssize_t			 n;

	while (e->readable && r->count < r->nslots) {
		if (r->update_due || proxy_rec_due_update(r->rec)) {
			if (seal_slot(p, r, 0, PROXY_REC_HANDSHAKE) != 0)
				return IO_ERROR;
			res = IO_PROGRESS;
			continue;
		}
		k = r->nslots - r->count;
		if (k > 64)
			k = 64;
		for (i = 0; i < k; i++) {
			s = (r->head + i) % r->nslots;
			iov[i].iov_base = r->mem + (size_t)s * SLOT_SIZE +
			    PROXY_REC_HDR;
			iov[i].iov_len = PROXY_REC_PLAIN_MAX;
		}
		n = proxy_pair_end_readv(p, e, iov, (int)k,
		    (size_t)k * PROXY_REC_PLAIN_MAX);
		if (n == -2)
			return IO_ERROR;
		if (n == -1)
			break;
		if (n == 0)
			return IO_EOF;
		p->total[END_QEMU] += (uint64_t)n;
		for (; n > 0; n -= (ssize_t)take) {
			take = (size_t)n < PROXY_REC_PLAIN_MAX ? (size_t)n :
			    PROXY_REC_PLAIN_MAX;
			if (seal_slot(p, r, take, PROXY_REC_DATA) != 0)
				return IO_ERROR;
		}
		res = IO_PROGRESS;
	}
	return res;
}

/* Writes the sealed records to the peer, as many as one writev() takes. */
static enum io_result
seal_drain(struct proxy_pair *p)
{
	struct pair_end		*e = &p->end[END_NET];
	struct seal_ring	*r = seal_ring(p);
	uint64_t		*stat = p->stat[END_QEMU];
	struct iovec		 iov[64];
	enum io_result		 res = IO_BLOCKED;
	unsigned		 i, k, s;
	size_t			 want, rem;
	uint64_t		 moved = 0;
	ssize_t			 n;

	while (r->count > 0 && e->writable) {
		k = r->count < 64 ? r->count : 64;
		want = 0;
		for (i = 0; i < k; i++) {
			s = (r->tail + i) % r->nslots;
			iov[i].iov_base = r->mem + (size_t)s * SLOT_SIZE;
			iov[i].iov_len = r->reclen[s];
			if (i == 0) {
				iov[i].iov_base = (uint8_t *)iov[i].iov_base +
				    r->sent;
				iov[i].iov_len -= r->sent;
			}
			want += iov[i].iov_len;
		}
		n = proxy_pair_end_writev(p, e, iov, (int)k, want);
		if (n == -2)
			return IO_ERROR;
		if (n == -1)
			break;
		for (; n > 0; n -= (ssize_t)rem) {
			rem = r->reclen[r->tail] - r->sent;
			if ((size_t)n < rem) {
				r->sent += (size_t)n;
				break;
			}
			moved += r->content[r->tail];
			r->sent = 0;
			r->tail = (r->tail + 1) % r->nslots;
			r->count--;
		}
		res = IO_PROGRESS;
	}
	proxy_pair_count(stat, moved);
	return res;
}

/*
 * Handles one opened record that is not application data: an alert
 * (close_notify is the end of stream: returns 1) or a post-handshake
 * message.  Returns 0, 1 at the end, -1 after proxy_pair_fail.
 */
static int
open_control(struct proxy_pair *p, struct pair_end *e, uint8_t type,
    const uint8_t *msg, size_t len)
{
	char	*cause = NULL, *why;
	int	 asked;

	if (type == PROXY_REC_ALERT) {
		if (len != 2) {
			proxy_pair_fail(p, e, "read from",
			    "malformed TLS alert");
			return -1;
		}
		if (msg[1] == ALERT_CLOSE_NOTIFY)
			return 1;
		set_cause(&why, "TLS alert \"%s\" from the peer",
		    SSL_alert_desc_string_long(msg[1]));
		proxy_pair_fail(p, e, "read from", why);
		free(why);
		return -1;
	}
	if (type != PROXY_REC_HANDSHAKE) {
		set_cause(&why, "TLS record of content type %u", type);
		proxy_pair_fail(p, e, "read from", why);
		free(why);
		return -1;
	}
	if (proxy_rec_handshake(open_buf(p)->rec, msg, len, &asked,
	    &cause) != 0) {
		proxy_pair_fail(p, e, "read from", cause);
		free(cause);
		return -1;
	}
	if (asked)
		seal_ring(p)->update_due = 1;
	return 0;
}

/*
 * Reads the peer's records in large gulps and opens them in place; their
 * contents wait as spans for QEMU.  The buffer starts over when all is
 * written; only a record cut by the end of a read is ever moved.
 */
static enum io_result
open_fill(struct proxy_pair *p)
{
	struct pair_end	*e = &p->end[END_NET];
	struct open_buf	*b = open_buf(p);
	enum io_result	 res = IO_BLOCKED;
	struct iovec	 iov;
	size_t		 reclen, len, at;
	uint8_t		 type;
	ssize_t		 n;
	char		*cause = NULL;
	int		 r;

	for (;;) {
		if (b->first == b->nspan) {
			/* All written: start over, keep a cut record. */
			b->first = b->nspan = 0;
			if (b->op == b->rd)
				b->op = b->rd = 0;
			else if (b->cap - b->rd < RECORD_MAX && b->op > 0) {
				memmove(b->mem, b->mem + b->op,
				    b->rd - b->op);
				b->rd -= b->op;
				b->op = 0;
			}
		}
		/* Whole records first: some may wait from the last read. */
		while (b->nspan < MAX_SPANS) {
			at = b->op;
			r = proxy_rec_open(b->rec, b->mem + at, b->rd - at,
			    &reclen, &len, &type, &cause);
			if (r == 0)
				break;
			if (r < 0) {
				proxy_pair_fail(p, e, "read from", cause);
				free(cause);
				return IO_ERROR;
			}
			b->op += reclen;
			res = IO_PROGRESS;
			if (type == PROXY_REC_DATA) {
				if (len == 0)
					continue;
				b->span[b->nspan].iov_base = b->mem + at +
				    PROXY_REC_HDR;
				b->span[b->nspan].iov_len = len;
				b->nspan++;
				p->total[END_NET] += len;
				continue;
			}
			r = open_control(p, e, type, b->mem + at +
			    PROXY_REC_HDR, len);
			if (r < 0)
				return IO_ERROR;
			if (r > 0)
				return IO_EOF;	/* after the spans */
		}
		if (b->nspan == MAX_SPANS || !e->readable)
			break;
		if (b->rd == b->cap)
			break;	/* the rest waits for QEMU to take the spans */
		iov.iov_base = b->mem + b->rd;
		iov.iov_len = b->cap - b->rd;
		n = proxy_pair_end_readv(p, e, &iov, 1, iov.iov_len);
		if (n == -2)
			return IO_ERROR;
		if (n == -1)
			break;
		if (n == 0) {
			proxy_pair_fail(p, e, "read from", "connection closed "
			    "without TLS close_notify");
			return IO_ERROR;
		}
		b->rd += (size_t)n;
		res = IO_PROGRESS;
	}
	return res;
}

/* Writes the opened contents to QEMU, as many as one writev() takes. */
static enum io_result
open_drain(struct proxy_pair *p)
{
	struct pair_end	*e = &p->end[END_QEMU];
	struct open_buf	*b = open_buf(p);
	uint64_t	*stat = p->stat[END_NET];
	enum io_result	 res = IO_BLOCKED;
	struct iovec	*iov;
	unsigned	 k, i;
	size_t		 want;
	ssize_t		 n;

	while (b->first < b->nspan && e->writable) {
		iov = &b->span[b->first];
		k = b->nspan - b->first;
		want = 0;
		for (i = 0; i < k; i++)
			want += iov[i].iov_len;
		n = proxy_pair_end_writev(p, e, iov, (int)k, want);
		if (n == -2)
			return IO_ERROR;
		if (n == -1)
			break;
		proxy_pair_count(stat, (uint64_t)n);
		while (n > 0) {
			if ((size_t)n < iov->iov_len) {
				iov->iov_base = (uint8_t *)iov->iov_base + n;
				iov->iov_len -= (size_t)n;
				break;
			}
			n -= (ssize_t)iov->iov_len;
			iov++;
			b->first++;
		}
		res = IO_PROGRESS;
	}
	return res;
}

/* Direction END_QEMU is sealed into the ring, END_NET opened in place. */
static enum io_result
record_fill(struct proxy_pair *p, int i)
{
	return i == END_QEMU ? seal_fill(p) : open_fill(p);
}

static enum io_result
record_drain(struct proxy_pair *p, int i)
{
	return i == END_QEMU ? seal_drain(p) : open_drain(p);
}

static int
record_pending(struct proxy_pair *p, int i)
{
	struct open_buf *b = open_buf(p);

	if (i == END_QEMU)
		return seal_ring(p)->count > 0;
	return b->first < b->nspan;
}

static int
record_room(struct proxy_pair *p, int i)
{
	struct seal_ring	*r = seal_ring(p);
	struct open_buf		*b = open_buf(p);

	if (i == END_QEMU)
		return r->count < r->nslots;
	return b->first == b->nspan ||
	    (b->nspan < MAX_SPANS && b->rd < b->cap);
}

/* Bytes read from the peer that may still hold whole records to open. */
static int
record_buffered(struct proxy_pair *p, int i)
{
	struct open_buf *b = open_buf(p);

	return i == END_NET && b->op < b->rd;
}

/*
 * Towards the peer: a close_notify, sealed like data and sent by
 * seal_drain(); towards QEMU: shutdown(SHUT_WR).
 */
static enum io_result
record_shutdown(struct proxy_pair *p, int i)
{
	struct pair_end		*e = &p->end[i];
	struct seal_ring	*r = seal_ring(p);

	if (i == END_QEMU)
		return proxy_pair_end_shutdown(p, e);
	if (r->count == r->nslots)
		return IO_BLOCKED;
	if (seal_slot(p, r, 0, PROXY_REC_ALERT) != 0)
		return IO_ERROR;
	e->wr_shut = 1;
	return IO_PROGRESS;
}

static void
record_free(struct proxy_pair *p)
{
	struct record_state *st = p->tp_state;

	proxy_rec_free(st->seal.rec);
	free(st->seal.mem);
	free(st->seal.reclen);
	free(st->seal.content);
	proxy_rec_free(st->open.rec);
	free(st->open.mem);
	free(st);
}

static const struct pair_transport pair_record_transport = {
	.fill = record_fill,
	.drain = record_drain,
	.pending = record_pending,
	.room = record_room,
	.buffered = record_buffered,
	.shutdown = record_shutdown,
	.free = record_free,
};

int
proxy_pair_record_start(struct proxy_pair *p, SSL *nssl, int sent_header,
    char **why)
{
	struct proxy_rec	*rd = NULL, *wr = NULL;
	struct record_state	*st;
	struct seal_ring	*r;
	struct open_buf		*b;

	if (proxy_tls_records(nssl, !sent_header, sent_header, &rd, &wr,
	    why) != 0)
		return -1;
	/* OpenSSL is done with the socket; its SSL only held the keys. */
	SSL_free(nssl);
	st = xcalloc(1, sizeof *st);
	r = &st->seal;
	r->rec = wr;
	r->nslots = (unsigned)(p->cap / PROXY_REC_PLAIN_MAX);
	if (r->nslots < 2)
		r->nslots = 2;
	r->mem = xmalloc((size_t)r->nslots * SLOT_SIZE);
	r->reclen = xcalloc(r->nslots, sizeof *r->reclen);
	r->content = xcalloc(r->nslots, sizeof *r->content);
	b = &st->open;
	b->rec = rd;
	b->cap = p->cap + RECORD_MAX;
	b->mem = xmalloc(b->cap);
	p->tp = &pair_record_transport;
	p->tp_state = st;
	return 0;
}
