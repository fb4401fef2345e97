/*
 * proxy-record.c: TLS 1.3 record protection (RFC 8446 section 5) for the
 * data connections, after OpenSSL has done the handshake: the bytes the
 * proxy carries are sealed and opened in place in the pair's own buffers.
 *
 * Why not SSL_write/SSL_read: OpenSSL 3.0 copies each record's plaintext
 * into its write buffer before encrypting it, and each record it reads
 * out of its read buffer after decrypting it; with the BIO pairs that
 * batch the system calls that is two copies per byte on each side, as
 * many instructions as the AES-GCM itself.  Here the pair reads QEMU's
 * bytes straight into record slots and writes decrypted bytes straight
 * from where they were decrypted: no copy in user space.
 *
 * Only what the proxy's peers send is accepted: application data, alerts
 * (close_notify is the end of stream, anything else an error),
 * KeyUpdate, and NewSessionTicket (ignored).  Keys come from the traffic
 * secrets OpenSSL reports through its key log callback (proxy-tls.c);
 * they are wiped when freed.  A direction re-keys itself (KeyUpdate)
 * every PROXY_REC_KEY_LIMIT records, well inside AES-GCM's limit of
 * 2^24.5 records per key.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>

#include "proxy-int.h"

#define IV_LEN		12
#define SECRET_MAX	48	/* SHA-384 */

struct proxy_rec {
	EVP_CIPHER_CTX	*ctx;
	const EVP_CIPHER *cipher;
	const char	*digest;	/* the suite's hash, for HKDF */
	int		 encrypt;
	uint8_t		 secret[SECRET_MAX];
	size_t		 secret_len;
	uint8_t		 iv[IV_LEN];
	uint64_t	 seq;		/* records under this key */
	uint64_t	 limit;		/* seal: re-key after this many */
};

/*
 * HKDF-Expand-Label(secret, label, "", out_len) with the suite's hash
 * (RFC 8446 section 7.1).  Returns 0 or -1.
 */
static int
expand_label(const char *digest, const uint8_t *secret, size_t secret_len,
    const char *label, uint8_t *out, size_t out_len)
{
	EVP_KDF		*kdf;
	EVP_KDF_CTX	*kctx;
	OSSL_PARAM	 params[5];
	uint8_t		 info[2 + 1 + 255 + 1];
	size_t		 llen = 6 + strlen(label), ilen;
	int		 mode = EVP_KDF_HKDF_MODE_EXPAND_ONLY, r;

	if (llen > 255)
		return -1;
	info[0] = (uint8_t)(out_len >> 8);
	info[1] = (uint8_t)out_len;
	info[2] = (uint8_t)llen;
	memcpy(info + 3, "tls13 ", 6);
	memcpy(info + 9, label, llen - 6);
	info[3 + llen] = 0;	/* empty context */
	ilen = 4 + llen;
	if ((kdf = EVP_KDF_fetch(NULL, "HKDF", NULL)) == NULL)
		return -1;
	kctx = EVP_KDF_CTX_new(kdf);
	EVP_KDF_free(kdf);
	if (kctx == NULL)
		return -1;
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST,
	    (char *)digest, 0);
	params[1] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
	params[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY,
	    (void *)secret, secret_len);
	params[3] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO,
	    info, ilen);
	params[4] = OSSL_PARAM_construct_end();
	r = EVP_KDF_derive(kctx, out, out_len, params) == 1 ? 0 : -1;
	EVP_KDF_CTX_free(kctx);
	return r;
}

/* Derives key and IV from the current secret; seq restarts at 0. */
static int
rec_rekey(struct proxy_rec *r)
{
	uint8_t	key[32];
	int	klen = EVP_CIPHER_get_key_length(r->cipher), ok;

	if (klen <= 0 || (size_t)klen > sizeof key ||
	    expand_label(r->digest, r->secret, r->secret_len, "key", key,
	    (size_t)klen) != 0 ||
	    expand_label(r->digest, r->secret, r->secret_len, "iv", r->iv,
	    IV_LEN) != 0)
		return -1;
	ok = EVP_CipherInit_ex(r->ctx, r->cipher, NULL, key, NULL,
	    r->encrypt) == 1;
	OPENSSL_cleanse(key, sizeof key);
	r->seq = 0;
	return ok ? 0 : -1;
}

struct proxy_rec *
proxy_rec_new(const char *suite, const uint8_t *secret, size_t secret_len,
    int encrypt, uint64_t seq, char **cause)
{
	struct proxy_rec *r;

	r = xcalloc(1, sizeof *r);
	if (strcmp(suite, "TLS_AES_128_GCM_SHA256") == 0) {
		r->cipher = EVP_aes_128_gcm();
		r->digest = "SHA256";
	} else if (strcmp(suite, "TLS_AES_256_GCM_SHA384") == 0) {
		r->cipher = EVP_aes_256_gcm();
		r->digest = "SHA384";
	} else {
		set_cause(cause, "cipher suite %s is not AES-GCM", suite);
		free(r);
		return NULL;
	}
	if (secret_len > sizeof r->secret) {
		set_cause(cause, "traffic secret of %zu bytes",
		    secret_len);
		free(r);
		return NULL;
	}
	memcpy(r->secret, secret, secret_len);
	r->secret_len = secret_len;
	r->encrypt = encrypt;
	r->limit = PROXY_REC_KEY_LIMIT;
	if ((r->ctx = EVP_CIPHER_CTX_new()) == NULL || rec_rekey(r) != 0) {
		set_cause(cause, "cannot derive the record keys");
		proxy_rec_free(r);
		return NULL;
	}
	r->seq = seq;
	return r;
}

void
proxy_rec_free(struct proxy_rec *r)
{
	if (r == NULL)
		return;
	EVP_CIPHER_CTX_free(r->ctx);	/* cleanses the key schedule */
	OPENSSL_cleanse(r, sizeof *r);
	free(r);
}

void
proxy_rec_set_key_limit(struct proxy_rec *r, uint64_t records)
{
	r->limit = records;
}

int
proxy_rec_due_update(struct proxy_rec *r)
{
	return r->seq >= r->limit;
}

int
proxy_rec_update(struct proxy_rec *r)
{
	uint8_t next[SECRET_MAX];

	if (expand_label(r->digest, r->secret, r->secret_len, "traffic upd",
	    next, r->secret_len) != 0)
		return -1;
	memcpy(r->secret, next, r->secret_len);
	OPENSSL_cleanse(next, sizeof next);
	return rec_rekey(r);
}

/* The per-record nonce: the IV XOR the 64-bit sequence number. */
static void
rec_nonce(const struct proxy_rec *r, uint8_t *nonce)
{
	int i;

	memcpy(nonce, r->iv, IV_LEN);
	for (i = 0; i < 8; i++)
		nonce[IV_LEN - 1 - i] ^= (uint8_t)(r->seq >> (8 * i));
}

size_t
proxy_rec_seal(struct proxy_rec *r, uint8_t *rec, size_t len, uint8_t type)
{
	uint8_t	 nonce[IV_LEN], *body = rec + PROXY_REC_HDR;
	size_t	 clen = len + 1 + PROXY_REC_TAG;
	int	 n;

	if (len > PROXY_REC_PLAIN_MAX || r->seq == UINT64_MAX)
		return 0;
	rec[0] = PROXY_REC_DATA;	/* the outer type is always data */
	rec[1] = 0x03;
	rec[2] = 0x03;
	rec[3] = (uint8_t)(clen >> 8);
	rec[4] = (uint8_t)clen;
	body[len] = type;
	rec_nonce(r, nonce);
	if (EVP_EncryptInit_ex(r->ctx, NULL, NULL, NULL, nonce) != 1 ||
	    EVP_EncryptUpdate(r->ctx, NULL, &n, rec, PROXY_REC_HDR) != 1 ||
	    EVP_EncryptUpdate(r->ctx, body, &n, body, (int)len + 1) != 1 ||
	    EVP_EncryptFinal_ex(r->ctx, body + len + 1, &n) != 1 ||
	    EVP_CIPHER_CTX_ctrl(r->ctx, EVP_CTRL_AEAD_GET_TAG,
	    PROXY_REC_TAG, body + len + 1) != 1)
		return 0;
	r->seq++;
	return PROXY_REC_HDR + clen;
}

size_t
proxy_rec_seal_key_update(struct proxy_rec *r, uint8_t *rec)
{
	uint8_t	*msg = rec + PROXY_REC_HDR;
	size_t	 n;

	msg[0] = 24;		/* KeyUpdate */
	msg[1] = 0;
	msg[2] = 0;
	msg[3] = 1;
	msg[4] = 0;		/* update_not_requested */
	if ((n = proxy_rec_seal(r, rec, 5, PROXY_REC_HANDSHAKE)) == 0 ||
	    proxy_rec_update(r) != 0)
		return 0;
	return n;
}

size_t
proxy_rec_seal_close_notify(struct proxy_rec *r, uint8_t *rec)
{
	rec[PROXY_REC_HDR] = 1;		/* warning */
	rec[PROXY_REC_HDR + 1] = 0;	/* close_notify */
	return proxy_rec_seal(r, rec, 2, PROXY_REC_ALERT);
}

int
proxy_rec_open(struct proxy_rec *r, uint8_t *buf, size_t avail,
    size_t *reclen, size_t *len, uint8_t *type, char **cause)
{
	uint8_t	 nonce[IV_LEN], *body = buf + PROXY_REC_HDR;
	size_t	 clen, plen;
	int	 n;

	if (avail < PROXY_REC_HDR)
		return 0;
	clen = (size_t)buf[3] << 8 | buf[4];
	if (buf[0] != PROXY_REC_DATA) {
		set_cause(cause, "unexpected TLS record of type %u after "
		    "the handshake", buf[0]);
		return -1;
	}
	if (clen > PROXY_REC_CIPHER_MAX || clen < 1 + PROXY_REC_TAG) {
		set_cause(cause, "TLS record of %zu bytes (record "
		    "overflow)", clen);
		return -1;
	}
	if (avail < PROXY_REC_HDR + clen)
		return 0;
	plen = clen - PROXY_REC_TAG;
	rec_nonce(r, nonce);
	if (EVP_DecryptInit_ex(r->ctx, NULL, NULL, NULL, nonce) != 1 ||
	    EVP_CIPHER_CTX_ctrl(r->ctx, EVP_CTRL_AEAD_SET_TAG, PROXY_REC_TAG,
	    body + plen) != 1 ||
	    EVP_DecryptUpdate(r->ctx, NULL, &n, buf, PROXY_REC_HDR) != 1 ||
	    EVP_DecryptUpdate(r->ctx, body, &n, body, (int)plen) != 1 ||
	    EVP_DecryptFinal_ex(r->ctx, body + plen, &n) != 1) {
		*cause = xstrdup("TLS record failed authentication "
		    "(bad record MAC)");
		return -1;
	}
	r->seq++;
	/* The inner type is the last non-zero byte; zeros are padding. */
	while (plen > 0 && body[plen - 1] == 0)
		plen--;
	if (plen == 0) {
		*cause = xstrdup("TLS record without a content type");
		return -1;
	}
	if (plen - 1 > PROXY_REC_PLAIN_MAX) {
		set_cause(cause, "TLS record of %zu bytes of content "
		    "(record overflow)", plen - 1);
		return -1;
	}
	*type = body[plen - 1];
	*len = plen - 1;
	*reclen = PROXY_REC_HDR + clen;
	return 1;
}

int
proxy_rec_handshake(struct proxy_rec *r, const uint8_t *msg, size_t len,
    int *update_requested, char **cause)
{
	size_t mlen;

	*update_requested = 0;
	while (len > 0) {
		if (len < 4 || len - 4 < (mlen = (size_t)msg[1] << 16 |
		    (size_t)msg[2] << 8 | msg[3])) {
			*cause = xstrdup("post-handshake message split "
			    "across TLS records (not supported)");
			return -1;
		}
		switch (msg[0]) {
		case 4:		/* NewSessionTicket: no resumption here */
			break;
		case 24:	/* KeyUpdate */
			if (mlen != 1 || msg[4] > 1 || len != 5) {
				*cause = xstrdup("malformed TLS "
				    "KeyUpdate");
				return -1;
			}
			if (proxy_rec_update(r) != 0) {
				*cause = xstrdup("cannot derive the "
				    "next record keys");
				return -1;
			}
			*update_requested = msg[4];
			break;
		default:
			set_cause(cause, "unexpected TLS handshake "
			    "message %u after the handshake", msg[0]);
			return -1;
		}
		msg += 4 + mlen;
		len -= 4 + mlen;
	}
	return 0;
}
