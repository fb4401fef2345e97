/*
 * fuzz-proxy-hdr.c: the connection header the target side reads from
 * every peer right after the TLS handshake (proxy_hdr_decode()), then the
 * in-order release that decoded sequence numbers feed (proxy_order_*),
 * checked against a model.
 *
 * Input: PROXY_HDR_SIZE bytes of header; then one byte for the order's
 * max_held and two-byte operations: offer (seq = expected + signed second
 * byte, a fresh item), next, or remove (item chosen by the second byte).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proxy.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define MAX_ITEMS	256

struct item {
	uint32_t	seq;
	int		held;
};

/* A decoded header encodes back to the same bytes. */
static void
check_header(const uint8_t *data, size_t size)
{
	struct proxy_hdr	 h;
	uint8_t			 out[PROXY_HDR_SIZE];
	char			*cause = NULL;

	if (proxy_hdr_decode(data, size, &h, &cause) != 0) {
		if (cause == NULL || *cause == '\0')
			abort();
		free(cause);
		return;
	}
	if (cause != NULL || size < PROXY_HDR_SIZE)
		abort();
	if (h.kind != PROXY_KIND_CONTROL && h.kind != PROXY_KIND_DATA)
		abort();
	if (h.channel >= PROXY_CHANNELS ||
	    (h.kind == PROXY_KIND_CONTROL && h.channel != 0))
		abort();
	proxy_hdr_encode(&h, out);
	if (memcmp(out, data, PROXY_HDR_SIZE) != 0)
		abort();
}

static int
model_offer_ok(struct item *items, size_t n, uint32_t expected,
    size_t max_held, uint32_t seq)
{
	size_t	 i;

	if (seq < expected || seq - expected >= max_held)
		return 0;
	for (i = 0; i < n; i++)
		if (items[i].held && items[i].seq == seq)
			return 0;
	return 1;
}

static void
check_order(const uint8_t *data, size_t size)
{
	struct item		 items[MAX_ITEMS];
	struct proxy_order	*o;
	struct item		*got;
	size_t			 max_held, n = 0, i, k;
	uint32_t		 expected = 0, seq;
	char			*cause = NULL;
	int			 ok;

	if (size < 1)
		return;
	max_held = data[0] % 70;	/* 0 means 1, and past MAX_HELD (64) */
	o = proxy_order_new(max_held);
	if (max_held == 0)
		max_held = 1;
	memset(items, 0, sizeof items);
	for (i = 1; i + 1 < size; i += 2) {
		switch (data[i] % 3) {
		case 0:
			if (n == MAX_ITEMS)
				break;
			seq = expected + (uint32_t)(int32_t)(int8_t)data[i + 1];
			ok = model_offer_ok(items, n, expected, max_held, seq);
			if ((proxy_order_offer(o, seq, &items[n], &cause) ==
			    0) != ok)
				abort();
			if (!ok) {
				if (cause == NULL)
					abort();
				free(cause);
				cause = NULL;
			}
			items[n].seq = seq;
			items[n++].held = ok;
			break;
		case 1:
			got = proxy_order_next(o);
			for (k = 0; k < n; k++)
				if (items[k].held && items[k].seq == expected)
					break;
			if ((k == n) != (got == NULL))
				abort();
			if (got != NULL) {
				if (got != &items[k])
					abort();
				got->held = 0;
				expected++;
			}
			if (proxy_order_expected(o) != expected)
				abort();
			break;
		case 2:
			if (n == 0)
				break;
			k = data[i + 1] % n;
			if (proxy_order_remove(o, &items[k]) != items[k].held)
				abort();
			items[k].held = 0;
			break;
		}
	}
	proxy_order_free(o);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_header(data, size);
	if (size > PROXY_HDR_SIZE)
		check_order(data + PROXY_HDR_SIZE, size - PROXY_HDR_SIZE);
	return 0;
}
