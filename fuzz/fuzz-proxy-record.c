/*
 * fuzz-proxy-record.c: the TLS 1.3 records a peer sends a data connection
 * once the proxy's record layer carries it (proxy/proxy-record.c).  Most
 * bytes of a peer never get past the AEAD tag, so besides raw records the
 * input also says what to seal with the peer's key: that reaches the
 * content type, the padding and the post-handshake messages behind it.
 *
 * Input: operations, each one byte then its operands:
 *   0 LEN(2) BYTES       raw bytes opened as they are: refused or
 *                        incomplete, never accepted
 *   1 LEN(2) TYPE BYTES  sealed as a record of TYPE, opened: same content
 *   2 LEN(2) BYTES       sealed as content with inner type 0: the opener
 *                        takes trailing zeros as padding, the last
 *                        non-zero byte as the type
 *   3 LEN(1) BYTES       a post-handshake message: a KeyUpdate moves both
 *                        ends to the next key, anything malformed is
 *                        refused with a reason
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proxy-int.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define SUITE	"TLS_AES_128_GCM_SHA256"
#define BUF	(PROXY_REC_HDR + PROXY_REC_CIPHER_MAX + 64)

static uint8_t rec[BUF];

/* Opening must refuse (with a reason) or wait, never accept. */
static void
open_raw(struct proxy_rec *rd, const uint8_t *data, size_t len)
{
	size_t	 reclen, clen;
	uint8_t	 type;
	char	*cause = NULL;
	int	 r;

	if (len > BUF)
		len = BUF;
	memcpy(rec, data, len);
	r = proxy_rec_open(rd, rec, len, &reclen, &clen, &type, &cause);
	if (r == 1)
		abort();	/* forged a tag */
	if (r == -1 && (cause == NULL || *cause == '\0'))
		abort();
	free(cause);
}

/*
 * Seals len bytes of content as type, opens them; the result must be
 * want_len bytes of want_type, or nothing if no type is left.
 */
static void
round_trip(struct proxy_rec *wr, struct proxy_rec *rd, const uint8_t *data,
    size_t len, uint8_t type)
{
	size_t	 n, reclen, clen, want = len;
	uint8_t	 got, want_type = type;
	char	*cause = NULL;
	int	 r;

	if (len > PROXY_REC_PLAIN_MAX)
		len = want = PROXY_REC_PLAIN_MAX;
	memcpy(rec + PROXY_REC_HDR, data, len);
	if ((n = proxy_rec_seal(wr, rec, len, type)) != len + 22)
		abort();
	if (type == 0) {
		/* The type is the last non-zero byte of the content. */
		while (want > 0 && data[want - 1] == 0)
			want--;
		want_type = want > 0 ? data[want - 1] : 0;
		if (want > 0)
			want--;
	}
	r = proxy_rec_open(rd, rec, n, &reclen, &clen, &got, &cause);
	if (want_type == 0) {
		if (r != -1 || cause == NULL)
			abort();
		free(cause);
		return;
	}
	if (r != 1 || reclen != n || clen != want || got != want_type ||
	    memcmp(rec + PROXY_REC_HDR, data, want) != 0)
		abort();
}

/* Accepted messages (well formed): is one of them a KeyUpdate? */
static int
has_key_update(const uint8_t *msg, size_t len)
{
	size_t mlen;

	while (len >= 4) {
		if (msg[0] == 24)
			return 1;
		mlen = (size_t)msg[1] << 16 | (size_t)msg[2] << 8 | msg[3];
		msg += 4 + mlen;
		len -= 4 + mlen;
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t	 secret[32] = "fuzz-proxy-record traffic key..";
	struct proxy_rec	*wr, *rd;
	size_t			 len;
	char			*cause = NULL;
	int			 asked;

	wr = proxy_rec_new(SUITE, secret, sizeof secret, 1, 1, &cause);
	rd = proxy_rec_new(SUITE, secret, sizeof secret, 0, 1, &cause);
	if (wr == NULL || rd == NULL)
		abort();
	while (size >= 2) {
		switch (data[0] % 4) {
		case 0:
		case 1:
		case 2:
			if (size < 3)
				goto out;
			len = (size_t)data[1] << 8 | data[2];
			if (data[0] % 4 == 1) {
				if (size < 4)
					goto out;
				if (len > size - 4)
					len = size - 4;
				round_trip(wr, rd, data + 4, len, data[3]);
				data += 4 + len;
				size -= 4 + len;
				break;
			}
			if (len > size - 3)
				len = size - 3;
			if (data[0] % 4 == 0)
				open_raw(rd, data + 3, len);
			else
				round_trip(wr, rd, data + 3, len, 0);
			data += 3 + len;
			size -= 3 + len;
			break;
		case 3:
			len = data[1];
			if (len > size - 2)
				len = size - 2;
			if (proxy_rec_handshake(rd, data + 2, len, &asked,
			    &cause) != 0) {
				if (cause == NULL)
					abort();
				free(cause);
				cause = NULL;
			} else if (has_key_update(data + 2, len) &&
			    proxy_rec_update(wr) != 0)
				abort();	/* the opener moved on */
			data += 2 + len;
			size -= 2 + len;
			break;
		}
	}
out:
	proxy_rec_free(wr);
	proxy_rec_free(rd);
	return 0;
}
