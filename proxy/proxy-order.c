/*
 * proxy-order.c: the header the source side sends right after the TLS
 * handshake, and the bookkeeping that lets the target side hand
 * connections to QEMU in the order the source QEMU opened them.
 *
 * Header, PROXY_HDR_SIZE bytes, integers big-endian:
 *	0  magic "QMPX"
 *	4  version (2; 1 had no channel)
 *	5  kind (1 control, 2 data)
 *	6  channel (0 migration, 1 NBD; 0 for control)
 *	7  reserved, zero
 *	8  session id, 16 bytes
 *	24 sequence number, 32 bits
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proxy.h"
#include "proxy-int.h"

void
proxy_hdr_encode(const struct proxy_hdr *h, uint8_t *out)
{
	memcpy(out, PROXY_HDR_MAGIC, 4);
	out[4] = PROXY_HDR_VERSION;
	out[5] = (uint8_t)h->kind;
	out[6] = h->channel;
	out[7] = 0;
	memcpy(out + 8, h->session, PROXY_SESSION_ID_SIZE);
	out[24] = (uint8_t)(h->seq >> 24);
	out[25] = (uint8_t)(h->seq >> 16);
	out[26] = (uint8_t)(h->seq >> 8);
	out[27] = (uint8_t)h->seq;
}

int
proxy_hdr_decode(const uint8_t *in, size_t len, struct proxy_hdr *h,
    char **cause)
{
	if (len < PROXY_HDR_SIZE) {
		set_cause(cause, "short header (%zu bytes)", len);
		return -1;
	}
	if (memcmp(in, PROXY_HDR_MAGIC, 4) != 0) {
		set_cause(cause, "bad header magic %02x%02x%02x%02x "
		    "(not a qmigrate proxy?)", in[0], in[1], in[2], in[3]);
		return -1;
	}
	if (in[4] == 1) {
		set_cause(cause, "header version 1: the peer runs an "
		    "older qmigrate (version %u needed: upgrade both sides)",
		    PROXY_HDR_VERSION);
		return -1;
	}
	if (in[4] != PROXY_HDR_VERSION) {
		set_cause(cause, "unsupported header version %u",
		    (unsigned)in[4]);
		return -1;
	}
	if (in[5] != PROXY_KIND_CONTROL && in[5] != PROXY_KIND_DATA) {
		set_cause(cause, "unknown connection kind %u",
		    (unsigned)in[5]);
		return -1;
	}
	if (in[6] >= PROXY_CHANNELS ||
	    (in[5] == PROXY_KIND_CONTROL && in[6] != 0)) {
		set_cause(cause, "unknown channel %u for a %s connection",
		    (unsigned)in[6], in[5] == PROXY_KIND_CONTROL ? "control" :
		    "data");
		return -1;
	}
	if (in[7] != 0) {
		set_cause(cause, "reserved header byte not zero");
		return -1;
	}
	h->kind = (enum proxy_kind)in[5];
	h->channel = in[6];
	memcpy(h->session, in + 8, PROXY_SESSION_ID_SIZE);
	h->seq = (uint32_t)in[24] << 24 | (uint32_t)in[25] << 16 |
	    (uint32_t)in[26] << 8 | (uint32_t)in[27];
	return 0;
}

const char *
proxy_channel_name(unsigned channel)
{
	switch (channel) {
	case PROXY_CHAN_MIGRATION:
		return "migration";
	case PROXY_CHAN_NBD:
		return "nbd";
	}
	return "?";
}

/*
 * Held items sit in a small array indexed by seq - expected; max_held is
 * also how far ahead of the expected number a connection may be, so a peer
 * cannot make us allocate by sending a huge sequence number.
 */
struct proxy_order {
	uint32_t	  expected;
	size_t		  max_held;
	void		**slots;	/* slots[i]: seq expected + i */
};

struct proxy_order *
proxy_order_new(size_t max_held)
{
	struct proxy_order *o;

	o = xcalloc(1, sizeof *o);
	o->max_held = max_held == 0 ? 1 : max_held;
	o->slots = xcalloc(o->max_held, sizeof *o->slots);
	return o;
}

void
proxy_order_free(struct proxy_order *o)
{
	if (o == NULL)
		return;
	free(o->slots);
	free(o);
}

int
proxy_order_offer(struct proxy_order *o, uint32_t seq, void *item,
    char **cause)
{
	uint32_t d = seq - o->expected;

	/* Unsigned distance: a past number wraps to a huge one. */
	if (seq < o->expected) {
		set_cause(cause, "connection %u already delivered "
		    "(expected %u)", seq, o->expected);
		return -1;
	}
	if (d >= o->max_held) {
		set_cause(cause, "connection %u too far ahead of %u",
		    seq, o->expected);
		return -1;
	}
	if (o->slots[d] != NULL) {
		set_cause(cause, "connection %u offered twice", seq);
		return -1;
	}
	o->slots[d] = item;
	return 0;
}

void *
proxy_order_next(struct proxy_order *o)
{
	void *item = o->slots[0];

	if (item == NULL)
		return NULL;
	memmove(o->slots, o->slots + 1, (o->max_held - 1) * sizeof *o->slots);
	o->slots[o->max_held - 1] = NULL;
	o->expected++;
	return item;
}

int
proxy_order_remove(struct proxy_order *o, void *item)
{
	size_t i;

	for (i = 0; i < o->max_held; i++) {
		if (o->slots[i] == item) {
			o->slots[i] = NULL;
			return 1;
		}
	}
	return 0;
}

uint32_t
proxy_order_expected(struct proxy_order *o)
{
	return o->expected;
}
