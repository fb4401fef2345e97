/*
 * test-proxy-order.c: the proxy's connection header and in-order release.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "proxy.h"

static void
test_hdr_roundtrip(void **state)
{
	struct proxy_hdr	h, d;
	uint8_t			buf[PROXY_HDR_SIZE];
	char			*cause = NULL;
	int			i;

	memset(&h, 0, sizeof h);
	h.kind = PROXY_KIND_DATA;
	for (i = 0; i < PROXY_SESSION_ID_SIZE; i++)
		h.session[i] = (uint8_t)(0xa0 + i);
	h.seq = 0x01020304;
	proxy_hdr_encode(&h, buf);
	assert_memory_equal(buf, "QMPX", 4);
	assert_int_equal(buf[24], 1);
	assert_int_equal(buf[27], 4);
	assert_int_equal(proxy_hdr_decode(buf, sizeof buf, &d, &cause), 0);
	assert_null(cause);
	assert_int_equal(d.kind, PROXY_KIND_DATA);
	assert_int_equal(d.seq, 0x01020304);
	assert_memory_equal(d.session, h.session, PROXY_SESSION_ID_SIZE);

	assert_int_equal(buf[4], PROXY_HDR_VERSION);
	assert_int_equal(d.channel, PROXY_CHAN_MIGRATION);

	/* An NBD connection: the channel is byte 6 and survives. */
	h.channel = PROXY_CHAN_NBD;
	h.seq = 7;
	proxy_hdr_encode(&h, buf);
	assert_int_equal(buf[6], PROXY_CHAN_NBD);
	assert_int_equal(proxy_hdr_decode(buf, sizeof buf, &d, &cause), 0);
	assert_int_equal(d.kind, PROXY_KIND_DATA);
	assert_int_equal(d.channel, PROXY_CHAN_NBD);
	assert_int_equal(d.seq, 7);

	h.kind = PROXY_KIND_CONTROL;
	h.channel = 0;
	h.seq = UINT32_MAX;
	proxy_hdr_encode(&h, buf);
	assert_int_equal(proxy_hdr_decode(buf, sizeof buf, &d, &cause), 0);
	assert_int_equal(d.kind, PROXY_KIND_CONTROL);
	assert_int_equal(d.seq, UINT32_MAX);
	assert_string_equal(proxy_channel_name(PROXY_CHAN_NBD), "nbd");
	assert_string_equal(proxy_channel_name(PROXY_CHAN_MIGRATION),
	    "migration");
}

static void
expect_bad(const uint8_t *buf, size_t len, const char *needle)
{
	struct proxy_hdr	 d;
	char			*cause = NULL;

	assert_int_equal(proxy_hdr_decode(buf, len, &d, &cause), -1);
	assert_non_null(cause);
	if (strstr(cause, needle) == NULL)
		fail_msg("cause \"%s\" lacks \"%s\"", cause, needle);
	free(cause);
}

static void
test_hdr_garbage(void **state)
{
	/* A good header with up to two bytes changed (at -1: none). */
	static const struct {
		int		 at[2];
		uint8_t		 to[2];
		const char	*want;
	} cases[] = {
		{ { 4, -1 }, { 3, 0 }, "unsupported header version 3" },
		/* A qmigrate from before the channels: told plainly. */
		{ { 4, -1 }, { 1, 0 }, "peer runs an older qmigrate" },
		{ { 6, -1 }, { PROXY_CHANNELS, 0 },
		  "unknown channel 2 for a data" },
		{ { 5, 6 }, { PROXY_KIND_CONTROL, PROXY_CHAN_NBD },
		  "unknown channel 1 for a control" },
		{ { 5, -1 }, { 0, 0 }, "unknown connection kind 0" },
		{ { 5, -1 }, { 3, 0 }, "unknown connection kind 3" },
		{ { 7, -1 }, { 1, 0 }, "reserved" },
	};
	struct proxy_hdr	h;
	uint8_t			buf[PROXY_HDR_SIZE], bad[PROXY_HDR_SIZE];
	size_t			i, k;

	(void)state;
	memset(&h, 0, sizeof h);
	h.kind = PROXY_KIND_DATA;
	proxy_hdr_encode(&h, buf);

	expect_bad(buf, PROXY_HDR_SIZE - 1, "short header");
	memcpy(bad, buf, sizeof bad);
	memcpy(bad, "GET ", 4);		/* an HTTP client */
	expect_bad(bad, sizeof bad, "bad header magic");
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memcpy(bad, buf, sizeof bad);
		for (k = 0; k < 2 && cases[i].at[k] >= 0; k++)
			bad[cases[i].at[k]] = cases[i].to[k];
		expect_bad(bad, sizeof bad, cases[i].want);
	}
	memset(bad, 0xff, sizeof bad);
	expect_bad(bad, sizeof bad, "bad header magic");
}

static void
test_order_in_sequence(void **state)
{
	struct proxy_order	*o = proxy_order_new(8);
	int			 items[3];
	char			*cause = NULL;

	assert_null(proxy_order_next(o));
	assert_int_equal(proxy_order_offer(o, 0, &items[0], &cause), 0);
	assert_ptr_equal(proxy_order_next(o), &items[0]);
	assert_null(proxy_order_next(o));
	assert_int_equal(proxy_order_expected(o), 1);
	assert_int_equal(proxy_order_offer(o, 1, &items[1], &cause), 0);
	assert_ptr_equal(proxy_order_next(o), &items[1]);
	proxy_order_free(o);
}

/* Handshakes finishing 3, 1, 2, 0: nothing moves until 0 is there. */
static void
test_order_out_of_sequence(void **state)
{
	struct proxy_order	*o = proxy_order_new(8);
	int			 items[4];
	char			*cause = NULL;

	assert_int_equal(proxy_order_offer(o, 3, &items[3], &cause), 0);
	assert_null(proxy_order_next(o));
	assert_int_equal(proxy_order_offer(o, 1, &items[1], &cause), 0);
	assert_null(proxy_order_next(o));
	assert_int_equal(proxy_order_offer(o, 2, &items[2], &cause), 0);
	assert_null(proxy_order_next(o));
	assert_int_equal(proxy_order_offer(o, 0, &items[0], &cause), 0);
	assert_ptr_equal(proxy_order_next(o), &items[0]);
	assert_ptr_equal(proxy_order_next(o), &items[1]);
	assert_ptr_equal(proxy_order_next(o), &items[2]);
	assert_ptr_equal(proxy_order_next(o), &items[3]);
	assert_null(proxy_order_next(o));
	assert_int_equal(proxy_order_expected(o), 4);
	assert_null(cause);
	proxy_order_free(o);
}

static void
test_order_refusals(void **state)
{
	struct proxy_order	*o = proxy_order_new(4);
	int			 a, b;
	char			*cause = NULL;

	assert_int_equal(proxy_order_offer(o, 0, &a, &cause), 0);
	assert_ptr_equal(proxy_order_next(o), &a);
	/* A replayed number. */
	assert_int_equal(proxy_order_offer(o, 0, &b, &cause), -1);
	assert_non_null(strstr(cause, "already delivered"));
	free(cause);
	/* Twice the same number while held. */
	assert_int_equal(proxy_order_offer(o, 2, &a, &cause), 0);
	assert_int_equal(proxy_order_offer(o, 2, &b, &cause), -1);
	assert_non_null(strstr(cause, "offered twice"));
	free(cause);
	/* Beyond the window: no allocation for a huge number. */
	assert_int_equal(proxy_order_offer(o, 5, &b, &cause), -1);
	assert_non_null(strstr(cause, "too far ahead"));
	free(cause);
	assert_int_equal(proxy_order_offer(o, UINT32_MAX, &b, &cause), -1);
	free(cause);
	/* A held item that goes away no longer blocks nor is returned. */
	assert_int_equal(proxy_order_remove(o, &a), 1);
	assert_int_equal(proxy_order_remove(o, &a), 0);
	assert_int_equal(proxy_order_offer(o, 1, &b, &cause), 0);
	assert_ptr_equal(proxy_order_next(o), &b);
	assert_null(proxy_order_next(o));
	assert_int_equal(proxy_order_expected(o), 2);
	proxy_order_free(o);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hdr_roundtrip),
		cmocka_unit_test(test_hdr_garbage),
		cmocka_unit_test(test_order_in_sequence),
		cmocka_unit_test(test_order_out_of_sequence),
		cmocka_unit_test(test_order_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
