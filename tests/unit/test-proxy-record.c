/*
 * test-proxy-record.c: proxy-record.c against OpenSSL's own TLS 1.3
 * record layer.  A real handshake between the proxy's two TLS contexts
 * (proxy_tls_load, a throwaway self-signed certificate) over a socketpair;
 * then records sealed here are read by SSL_read and records OpenSSL wrote
 * (padded, after a KeyUpdate, a close_notify) are opened here, both ways
 * with the sequence numbers the pair uses after the header.  Then the
 * refusals: a tampered, cut, oversized or foreign record.
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "proxy-int.h"

#define SLOT	(PROXY_REC_HDR + PROXY_REC_PLAIN_MAX + 1 + PROXY_REC_TAG)

struct tls_pair {
	char			 dir[64];
	struct proxy_tls	*ctls, *stls;
	SSL			*client, *server;
	int			 cfd, sfd;
};

/* Writes a self-signed P-256 certificate as ca.pem and cert.pem. */
static void
write_pki(const char *dir)
{
	EVP_PKEY	*key = EVP_EC_gen("P-256");
	X509		*x = X509_new();
	X509_NAME	*name;
	char		 path[128];
	FILE		*f;
	int		 fd;

	assert_non_null(key);
	X509_set_version(x, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
	X509_gmtime_adj(X509_getm_notBefore(x), -60);
	X509_gmtime_adj(X509_getm_notAfter(x), 3600);
	X509_set_pubkey(x, key);
	name = X509_get_subject_name(x);
	X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
	    (const unsigned char *)"test", -1, -1, 0);
	X509_set_issuer_name(x, name);
	assert_true(X509_sign(x, key, EVP_sha256()) > 0);
	snprintf(path, sizeof path, "%s/ca.pem", dir);
	assert_non_null(f = fopen(path, "w"));
	PEM_write_X509(f, x);
	fclose(f);
	snprintf(path, sizeof path, "%s/cert.pem", dir);
	assert_non_null(f = fopen(path, "w"));
	PEM_write_X509(f, x);
	fclose(f);
	snprintf(path, sizeof path, "%s/key.pem", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_non_null(f = fdopen(fd, "w"));
	PEM_write_PrivateKey(f, key, NULL, NULL, 0, NULL, NULL);
	fclose(f);
	X509_free(x);
	EVP_PKEY_free(key);
}

/* Both sides' handshake over a non-blocking socketpair, then the header. */
static void
tls_pair_open(struct tls_pair *t)
{
	uint8_t	 hdr[PROXY_HDR_SIZE] = "QMPX header of 28 bytes....", in[64];
	char	*cause = NULL;
	int	 sv[2], cdone = 0, sdone = 0, i, r;
	size_t	 n;

	memset(t, 0, sizeof *t);
	strcpy(t->dir, "/tmp/test-proxy-record.XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	write_pki(t->dir);
	t->ctls = proxy_tls_load(t->dir, 0, 0, NULL, &cause);
	assert_non_null(t->ctls);
	t->stls = proxy_tls_load(t->dir, 1, 0, NULL, &cause);
	assert_non_null(t->stls);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0,
	    sv), 0);
	t->cfd = sv[0];
	t->sfd = sv[1];
	t->client = proxy_tls_ssl(t->ctls, t->cfd, NULL, &cause);
	t->server = proxy_tls_ssl(t->stls, t->sfd, NULL, &cause);
	assert_non_null(t->client);
	assert_non_null(t->server);
	for (i = 0; i < 100 && (!cdone || !sdone); i++) {
		if (!cdone)
			cdone = SSL_do_handshake(t->client) == 1;
		if (!sdone)
			sdone = SSL_do_handshake(t->server) == 1;
	}
	assert_true(cdone && sdone);
	assert_string_equal(SSL_get_version(t->client), "TLSv1.3");
	/* The one application record before the pair: the header. */
	assert_int_equal(SSL_write_ex(t->client, hdr, sizeof hdr, &n), 1);
	for (i = 0; i < 100; i++) {
		r = SSL_read_ex(t->server, in, sizeof hdr, &n);
		if (r == 1)
			break;
	}
	assert_int_equal(n, sizeof hdr);
	assert_memory_equal(in, hdr, sizeof hdr);
}

static void
tls_pair_close(struct tls_pair *t)
{
	char path[128];

	SSL_free(t->client);
	SSL_free(t->server);
	close(t->cfd);
	close(t->sfd);
	proxy_tls_free(t->ctls);
	proxy_tls_free(t->stls);
	snprintf(path, sizeof path, "%s/ca.pem", t->dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/cert.pem", t->dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/key.pem", t->dir);
	unlink(path);
	rmdir(t->dir);
}

/* Reads what the socket has (a few records at most) into buf. */
static size_t
read_raw(int fd, uint8_t *buf, size_t cap)
{
	size_t	got = 0;
	ssize_t	n;

	while ((n = read(fd, buf + got, cap - got)) > 0)
		got += (size_t)n;
	assert_true(n == -1 && errno == EAGAIN);
	return got;
}

static void
write_raw(int fd, const uint8_t *buf, size_t len)
{
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
}

/* SSL_read of exactly len bytes equal to want. */
static void
ssl_expect(SSL *ssl, const char *want)
{
	char	buf[256];
	size_t	n, got = 0, len = strlen(want);

	while (got < len) {
		assert_int_equal(SSL_read_ex(ssl, buf + got, len - got, &n),
		    1);
		got += n;
	}
	assert_memory_equal(buf, want, len);
}

/* Opens the next record of buf at *off; returns its type. */
static uint8_t
open_next(struct proxy_rec *rd, uint8_t *buf, size_t len, size_t *off,
    uint8_t **content, size_t *clen)
{
	size_t	 reclen;
	uint8_t	 type;
	char	*cause = NULL;

	assert_int_equal(proxy_rec_open(rd, buf + *off, len - *off, &reclen,
	    clen, &type, &cause), 1);
	*content = buf + *off + PROXY_REC_HDR;
	*off += reclen;
	return type;
}

static void
test_openssl_interop(void **state)
{
	struct tls_pair		 t;
	struct proxy_rec	*crd, *cwr, *srd, *swr;
	uint8_t			 rec[SLOT], buf[4 * SLOT], *content;
	size_t			 n, off, clen;
	char			*why = NULL;
	int			 asked;

	tls_pair_open(&t);
	/* The source's side: it sent the header (records out from 1). */
	assert_int_equal(proxy_tls_records(t.client, 0, 1, &crd, &cwr, &why),
	    0);
	/* The target's side can take over too; here OpenSSL keeps it. */
	assert_int_equal(proxy_tls_records(t.server, 1, 0, &srd, &swr, &why),
	    0);
	proxy_rec_free(srd);
	proxy_rec_free(swr);

	/* Sealed here, read by OpenSSL. */
	memcpy(rec + PROXY_REC_HDR, "ping", 4);
	n = proxy_rec_seal(cwr, rec, 4, PROXY_REC_DATA);
	assert_int_equal(n, 4 + 22);
	write_raw(t.cfd, rec, n);
	ssl_expect(t.server, "ping");

	/* Written by OpenSSL, padded to 64 bytes, opened here. */
	SSL_set_block_padding(t.server, 64);
	assert_int_equal(SSL_write(t.server, "pong", 4), 4);
	n = read_raw(t.cfd, buf, sizeof buf);
	off = 0;
	assert_int_equal(open_next(crd, buf, n, &off, &content, &clen),
	    PROXY_REC_DATA);
	assert_int_equal(clen, 4);
	assert_memory_equal(content, "pong", 4);
	assert_int_equal(off, n);

	/* OpenSSL updates its key and asks for ours: both followed. */
	assert_int_equal(SSL_key_update(t.server, SSL_KEY_UPDATE_REQUESTED),
	    1);
	assert_int_equal(SSL_write(t.server, "after", 5), 5);
	n = read_raw(t.cfd, buf, sizeof buf);
	off = 0;
	assert_int_equal(open_next(crd, buf, n, &off, &content, &clen),
	    PROXY_REC_HANDSHAKE);
	assert_int_equal(proxy_rec_handshake(crd, content, clen, &asked,
	    &why), 0);
	assert_int_equal(asked, 1);
	assert_int_equal(open_next(crd, buf, n, &off, &content, &clen),
	    PROXY_REC_DATA);
	assert_memory_equal(content, "after", 5);
	n = proxy_rec_seal_key_update(cwr, rec);
	assert_true(n > 0);
	write_raw(t.cfd, rec, n);
	memcpy(rec + PROXY_REC_HDR, "new key", 7);
	n = proxy_rec_seal(cwr, rec, 7, PROXY_REC_DATA);
	write_raw(t.cfd, rec, n);
	ssl_expect(t.server, "new key");

	/* Our own share of records per key: a KeyUpdate when due. */
	proxy_rec_set_key_limit(cwr, 1);
	memcpy(rec + PROXY_REC_HDR, "x", 1);
	write_raw(t.cfd, rec, proxy_rec_seal(cwr, rec, 1, PROXY_REC_DATA));
	assert_true(proxy_rec_due_update(cwr));
	write_raw(t.cfd, rec, proxy_rec_seal_key_update(cwr, rec));
	assert_false(proxy_rec_due_update(cwr));
	memcpy(rec + PROXY_REC_HDR, "y", 1);
	write_raw(t.cfd, rec, proxy_rec_seal(cwr, rec, 1, PROXY_REC_DATA));
	ssl_expect(t.server, "xy");

	/* close_notify both ways. */
	write_raw(t.cfd, rec, proxy_rec_seal_close_notify(cwr, rec));
	assert_int_equal(SSL_read(t.server, buf, sizeof buf), 0);
	assert_int_equal(SSL_get_error(t.server, 0), SSL_ERROR_ZERO_RETURN);
	assert_true(SSL_shutdown(t.server) >= 0);
	n = read_raw(t.cfd, buf, sizeof buf);
	off = 0;
	assert_int_equal(open_next(crd, buf, n, &off, &content, &clen),
	    PROXY_REC_ALERT);
	assert_int_equal(clen, 2);
	assert_int_equal(content[1], 0);	/* close_notify */

	proxy_rec_free(crd);
	proxy_rec_free(cwr);
	tls_pair_close(&t);
}

/* Bytes OpenSSL still holds: the record layer must not take over. */
static void
test_pending_refused(void **state)
{
	struct tls_pair		 t;
	struct proxy_rec	*rd, *wr;
	char			*why = NULL, c;

	tls_pair_open(&t);
	assert_int_equal(SSL_write(t.client, "ab", 2), 2);
	assert_int_equal(SSL_read(t.server, &c, 1), 1);	/* "b" stays */
	assert_int_equal(proxy_tls_records(t.server, 1, 0, &rd, &wr, &why),
	    -1);
	assert_non_null(strstr(why, "OpenSSL holds"));
	assert_null(rd);
	assert_null(wr);
	free(why);
	tls_pair_close(&t);
}

/*
 * A call that refused (rc -1) with a *cause containing want (any cause
 * when want is NULL); frees the cause.
 */
static void
refused(int rc, char **cause, const char *want)
{
	assert_int_equal(rc, -1);
	assert_non_null(*cause);
	if (want != NULL)
		assert_non_null(strstr(*cause, want));
	free(*cause);
	*cause = NULL;
}

static void
test_refusals(void **state)
{
	static const struct {
		const char	*msg;
		size_t		 len;
		const char	*want;	/* in the cause, if not NULL */
	} bad[] = {
		{ "\x18\x00\x00\x01\x00", 4, "split" },
		{ "\x18\x00\x00\x01\x02", 5, NULL },
		{ "\x14\x00\x00\x00", 4, "message 20" },
	};
	uint8_t			 secret[48], rec[SLOT], copy[SLOT], type;
	struct proxy_rec	*wr, *rd;
	size_t			 n, reclen, len, i;
	char			*cause = NULL;
	int			 asked;

	memset(secret, 7, sizeof secret);
	assert_null(proxy_rec_new("TLS_CHACHA20_POLY1305_SHA256", secret, 32,
	    1, 0, &cause));
	refused(-1, &cause, "not AES-GCM");

	wr = proxy_rec_new("TLS_AES_256_GCM_SHA384", secret, 48, 1, 5, &cause);
	rd = proxy_rec_new("TLS_AES_256_GCM_SHA384", secret, 48, 0, 5, &cause);
	assert_non_null(wr);
	assert_non_null(rd);
	memset(rec + PROXY_REC_HDR, 'z', PROXY_REC_PLAIN_MAX);
	n = proxy_rec_seal(wr, rec, PROXY_REC_PLAIN_MAX, PROXY_REC_DATA);
	assert_int_equal(n, SLOT);
	assert_int_equal(proxy_rec_seal(wr, rec, PROXY_REC_PLAIN_MAX + 1,
	    PROXY_REC_DATA), 0);
	memcpy(copy, rec, n);

	/* Cut: not yet a record. */
	assert_int_equal(proxy_rec_open(rd, rec, 4, &reclen, &len, &type,
	    &cause), 0);
	assert_int_equal(proxy_rec_open(rd, rec, n - 1, &reclen, &len, &type,
	    &cause), 0);
	/* One bit flipped: refused, and nothing is taken as content. */
	rec[100] ^= 1;
	refused(proxy_rec_open(rd, rec, n, &reclen, &len, &type,
	    &cause), &cause, "bad record MAC");
	proxy_rec_free(rd);
	rd = proxy_rec_new("TLS_AES_256_GCM_SHA384", secret, 48, 0, 5, &cause);
	assert_int_equal(proxy_rec_open(rd, copy, n, &reclen, &len, &type,
	    &cause), 1);
	assert_int_equal(reclen, n);
	assert_int_equal(len, PROXY_REC_PLAIN_MAX);
	assert_int_equal(type, PROXY_REC_DATA);
	/* Replayed: the sequence number moved on. */
	memcpy(copy, rec, n);
	copy[100] ^= 1;
	refused(proxy_rec_open(rd, copy, n, &reclen, &len, &type,
	    &cause), &cause, NULL);

	/* Not an encrypted record, or longer than TLS allows. */
	memcpy(copy, "\x16\x03\x03\x00\x20", 5);
	refused(proxy_rec_open(rd, copy, n, &reclen, &len, &type,
	    &cause), &cause, "type 22");
	memcpy(copy, "\x17\x03\x03\x41\x01", 5);
	refused(proxy_rec_open(rd, copy, n, &reclen, &len, &type,
	    &cause), &cause, "record overflow");

	/* Post-handshake messages a peer must not send. */
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		refused(proxy_rec_handshake(rd, (const uint8_t *)bad[i].msg,
		    bad[i].len, &asked, &cause), &cause, bad[i].want);
	assert_int_equal(proxy_rec_handshake(rd, (const uint8_t *)
	    "\x04\x00\x00\x01\x00", 5, &asked, &cause), 0);
	assert_int_equal(asked, 0);
	proxy_rec_free(wr);
	proxy_rec_free(rd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_openssl_interop),
		cmocka_unit_test(test_pending_refused),
		cmocka_unit_test(test_refusals),
	};

	proxy_set_log(NULL, NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
