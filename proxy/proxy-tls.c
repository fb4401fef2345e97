/*
 * proxy-tls.c: TLS contexts from a directory holding ca.pem, cert.pem and
 * key.pem, and the checks on the peer: chain to our CA on both sides (mutual
 * authentication), the target's name on the source side, an optional pin of
 * the peer's subject.
 */
#include <sys/stat.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "proxy-int.h"

struct proxy_tls {
	SSL_CTX	*ctx;
	int	 is_server;
	char	*pin;
	char	*peer_name;	/* server: the name the client must carry */
};

/*
 * The traffic secrets of one connection, as OpenSSL hands them to its key
 * log callback, for proxy-record.c to carry the records after the
 * handshake.  Hung on the SSL (ex_data), wiped with it.
 */
struct tls_secrets {
	uint8_t	client[EVP_MAX_MD_SIZE];
	uint8_t	server[EVP_MAX_MD_SIZE];
	size_t	client_len, server_len;
};

static int secrets_index = -1;

static void
secrets_free(void *parent, void *ptr, CRYPTO_EX_DATA *ad, int idx,
    long argl, void *argp)
{
	if (ptr == NULL)
		return;
	OPENSSL_cleanse(ptr, sizeof(struct tls_secrets));
	free(ptr);
}

/* Decodes hex (an even number of digits) into out; returns its length. */
static size_t
hex_decode(const char *hex, uint8_t *out, size_t max)
{
	size_t	n = 0;
	int	hi, lo;

	while (hex[0] != '\0' && hex[1] != '\0' && n < max) {
		hi = OPENSSL_hexchar2int((unsigned char)hex[0]);
		lo = OPENSSL_hexchar2int((unsigned char)hex[1]);
		if (hi < 0 || lo < 0)
			return 0;
		out[n++] = (uint8_t)(hi << 4 | lo);
		hex += 2;
	}
	return hex[0] == '\0' ? n : 0;
}

/*
 * OpenSSL's key log, "LABEL CLIENT-RANDOM SECRET" in hex: keeps the two
 * application traffic secrets of the connection.
 */
static void
tls_keylog(const SSL *ssl, const char *line)
{
	struct tls_secrets	*s = SSL_get_ex_data(ssl, secrets_index);
	const char		*p;
	uint8_t			*out;
	size_t			*len;

	if (s == NULL)
		return;
	if (strncmp(line, "CLIENT_TRAFFIC_SECRET_0 ", 24) == 0) {
		out = s->client;
		len = &s->client_len;
	} else if (strncmp(line, "SERVER_TRAFFIC_SECRET_0 ", 24) == 0) {
		out = s->server;
		len = &s->server_len;
	} else
		return;
	if ((p = strchr(line + 24, ' ')) == NULL)
		return;
	*len = hex_decode(p + 1, out, EVP_MAX_MD_SIZE);
}

static char *
tls_queue_error(void)
{
	unsigned long	e = ERR_get_error();
	char		buf[256];

	ERR_clear_error();
	if (e == 0)
		return xstrdup("unknown TLS error");
	ERR_error_string_n(e, buf, sizeof buf);
	return xstrdup(buf);
}

/* WHERE/NAME: OpenSSL's reason, into *cause. */
static void
tls_file_error(const struct proxy_tls_files *f, const char *name,
    char **cause)
{
	char	*why = tls_queue_error();

	set_cause(cause, "%s/%s: %s", f->where, name, why);
	free(why);
}

/* ca.pem's certificates, every one trusted to sign the peer's. */
static int
tls_use_ca(SSL_CTX *ctx, const struct proxy_tls_files *f, char **cause)
{
	STACK_OF(X509_INFO)	*infos;
	X509_STORE		*store = SSL_CTX_get_cert_store(ctx);
	X509_INFO		*xi;
	BIO			*bio;
	int			 i, n = 0;

	if ((bio = BIO_new_mem_buf(f->ca, (int)f->ca_len)) == NULL)
		abort();
	infos = PEM_X509_INFO_read_bio(bio, NULL, NULL, NULL);
	BIO_free(bio);
	if (infos == NULL) {
		tls_file_error(f, "ca.pem", cause);
		return -1;
	}
	for (i = 0; i < sk_X509_INFO_num(infos); i++) {
		xi = sk_X509_INFO_value(infos, i);
		if (xi->x509 != NULL && X509_STORE_add_cert(store,
		    xi->x509) == 1)
			n++;
	}
	sk_X509_INFO_pop_free(infos, X509_INFO_free);
	if (n == 0) {
		ERR_clear_error();
		set_cause(cause, "%s/ca.pem: no certificate", f->where);
		return -1;
	}
	return 0;
}

/* cert.pem: ours first, then the chain up to (not including) the CA. */
static int
tls_use_chain(SSL_CTX *ctx, const struct proxy_tls_files *f, char **cause)
{
	X509	*x;
	BIO	*bio;
	int	 ok;

	if ((bio = BIO_new_mem_buf(f->cert, (int)f->cert_len)) == NULL)
		abort();
	x = PEM_read_bio_X509_AUX(bio, NULL, NULL, NULL);
	ok = x != NULL && SSL_CTX_use_certificate(ctx, x) == 1;
	X509_free(x);
	while (ok && (x = PEM_read_bio_X509(bio, NULL, NULL, NULL)) != NULL)
		if (SSL_CTX_add0_chain_cert(ctx, x) != 1) {
			X509_free(x);
			ok = 0;
		}
	BIO_free(bio);
	if (!ok) {
		tls_file_error(f, "cert.pem", cause);
		return -1;
	}
	ERR_clear_error();	/* the end of the chain: no more PEM */
	return 0;
}

/* key.pem, parsed from the buffer proxy_tls_files_clear() wipes. */
static EVP_PKEY *
tls_read_key(const struct proxy_tls_files *f, char **cause)
{
	EVP_PKEY	*key;
	BIO		*bio;
	char		*why;

	if ((bio = BIO_new_mem_buf(f->key, (int)f->key_len)) == NULL)
		abort();
	key = PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL);
	BIO_free(bio);
	if (key == NULL) {
		why = tls_queue_error();
		set_cause(cause, "%s/key.pem: no private key: %s", f->where,
		    why);
		free(why);
	}
	return key;
}

/*
 * Whether x509 (dir's cert.pem) is valid now.  An expired one would be
 * refused by every peer at the first handshake, after QEMU was set up: it
 * is this side's configuration error, said before anything starts.
 * Returns 0, or -1 with *cause ("DIR/cert.pem: expired on DATE").
 */
static int
tls_cert_current(X509 *x509, const char *dir, char **cause)
{
	const ASN1_TIME	*t;
	BIO		*b;
	char		 when[64] = "?";
	const char	*what = NULL;
	int		 n;

	if (x509 == NULL)
		return 0;
	if (X509_cmp_current_time(t = X509_get0_notAfter(x509)) < 0)
		what = "expired on";
	else if (X509_cmp_current_time(t = X509_get0_notBefore(x509)) > 0)
		what = "not valid before";
	if (what == NULL)
		return 0;
	if ((b = BIO_new(BIO_s_mem())) != NULL) {
		if (ASN1_TIME_print(b, t) == 1 &&
		    (n = BIO_read(b, when, sizeof when - 1)) > 0)
			when[n] = '\0';
		BIO_free(b);
	}
	set_cause(cause, "%s/cert.pem: %s %s", dir, what, when);
	return -1;
}

struct proxy_tls *
proxy_tls_load(const char *dir, int is_server, int allow_tls12,
    const char *pin_subject, char **cause)
{
	struct proxy_tls	*t;
	struct proxy_tls_files	 files;
	char			*why;
	EVP_PKEY		*key = NULL;
	SSL_CTX			*ctx;
	int			 mode;

	ctx = SSL_CTX_new(is_server ? TLS_server_method() : TLS_client_method());
	if (ctx == NULL) {
		why = tls_queue_error();
		set_cause(cause, "TLS context: %s", why);
		free(why);
		return NULL;
	}
	if (proxy_tls_files_read(dir, &files, cause) != 0) {
		SSL_CTX_free(ctx);
		return NULL;
	}

	SSL_CTX_set_min_proto_version(ctx, allow_tls12 ? TLS1_2_VERSION :
	    TLS1_3_VERSION);
	SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION |
	    SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE |
	    SSL_OP_NO_TICKET);
	/* AES-128-GCM first: the fastest with AES-NI, still 128-bit. */
	SSL_CTX_set_ciphersuites(ctx, "TLS_AES_128_GCM_SHA256:"
	    "TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256");
	SSL_CTX_set_cipher_list(ctx, "ECDHE+AESGCM:ECDHE+CHACHA20");
	if (is_server)
		SSL_CTX_set_num_tickets(ctx, 0);
	/*
	 * Big writes go out as many records without copying.  An idle
	 * connection OpenSSL carries (the control connection, all along a
	 * migration) gives its record buffers (about 34 KiB) back.
	 */
	SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE |
	    SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS);
	/*
	 * No read-ahead: OpenSSL reads no further than the record it needs,
	 * so that after the handshake and the header it holds nothing that
	 * proxy-record.c, reading the socket itself, would miss.
	 */
	SSL_CTX_set_read_ahead(ctx, 0);
	if (secrets_index == -1)
		secrets_index = SSL_get_ex_new_index(0, NULL, NULL, NULL,
		    secrets_free);
	SSL_CTX_set_keylog_callback(ctx, tls_keylog);

	if (tls_use_ca(ctx, &files, cause) != 0 ||
	    tls_use_chain(ctx, &files, cause) != 0)
		goto fail;
	if (tls_cert_current(SSL_CTX_get0_certificate(ctx), files.where,
	    cause) != 0)
		goto fail;
	if ((key = tls_read_key(&files, cause)) == NULL)
		goto fail;
	if (SSL_CTX_use_PrivateKey(ctx, key) != 1 ||
	    SSL_CTX_check_private_key(ctx) != 1) {
		why = tls_queue_error();
		set_cause(cause, "%s/key.pem: does not match %s/cert.pem: %s",
		    files.where, files.where, why);
		free(why);
		goto fail;
	}
	EVP_PKEY_free(key);
	key = NULL;

	mode = SSL_VERIFY_PEER;
	if (is_server)
		mode |= SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
	SSL_CTX_set_verify(ctx, mode, NULL);

	t = xcalloc(1, sizeof *t);
	t->ctx = ctx;
	t->is_server = is_server;
	if (pin_subject != NULL)
		t->pin = xstrdup(pin_subject);
	proxy_tls_files_clear(&files);
	return t;

fail:
	EVP_PKEY_free(key);
	SSL_CTX_free(ctx);
	proxy_tls_files_clear(&files);
	return NULL;
}

void
proxy_tls_free(struct proxy_tls *t)
{
	if (t == NULL)
		return;
	SSL_CTX_free(t->ctx);
	free(t->pin);
	free(t->peer_name);
	free(t);
}

void
proxy_tls_set_peer_name(struct proxy_tls *t, const char *name)
{
	free(t->peer_name);
	t->peer_name = name != NULL ? xstrdup(name) : NULL;
}

/* Whether name is an IPv4 or IPv6 address. */
static int
is_ip(const char *name)
{
	struct in6_addr	a6;
	struct in_addr	a4;

	return inet_pton(AF_INET, name, &a4) == 1 ||
	    inet_pton(AF_INET6, name, &a6) == 1;
}

/*
 * The name (host name or IP address) the peer's certificate must carry,
 * checked by OpenSSL's verification of its chain: a client's certificate
 * as well as a server's.
 */
static int
tls_expect_name(SSL *ssl, const char *name)
{
	X509_VERIFY_PARAM	*vp = SSL_get0_param(ssl);

	if (is_ip(name))
		return X509_VERIFY_PARAM_set1_ip_asc(vp, name) == 1 ? 0 : -1;
	X509_VERIFY_PARAM_set_hostflags(vp,
	    X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
	return SSL_set1_host(ssl, name) == 1 ? 0 : -1;
}

SSL *
proxy_tls_ssl(struct proxy_tls *t, int fd, const char *name, char **cause)
{
	SSL		*ssl;
	char		*why;

	ssl = SSL_new(t->ctx);
	if (ssl == NULL || SSL_set_fd(ssl, fd) != 1 ||
	    SSL_set_ex_data(ssl, secrets_index,
	    xcalloc(1, sizeof(struct tls_secrets))) != 1)
		goto fail;
	if (t->is_server) {
		SSL_set_accept_state(ssl);
		if (t->peer_name != NULL &&
		    tls_expect_name(ssl, t->peer_name) != 0)
			goto fail;
		return ssl;
	}
	SSL_set_connect_state(ssl);
	if (name != NULL && (tls_expect_name(ssl, name) != 0 ||
	    (!is_ip(name) && SSL_set_tlsext_host_name(ssl, name) != 1)))
		goto fail;
	return ssl;
fail:
	why = tls_queue_error();
	set_cause(cause, "TLS setup: %s", why);
	free(why);
	SSL_free(ssl);
	return NULL;
}

char *
proxy_tls_strerror(SSL *ssl, int ret, int err)
{
	unsigned long	 e;
	long		 vr;
	char		 buf[256], *s;

	switch (err) {
	case SSL_ERROR_ZERO_RETURN:
		ERR_clear_error();
		return xstrdup("closed by peer");
	case SSL_ERROR_SYSCALL:
		e = ERR_peek_error();
		if (e == 0) {
			ERR_clear_error();
			if (errno != 0)
				return xstrdup(strerror(errno));
			return xstrdup("connection closed without TLS "
			    "close_notify");
		}
		break;
	case SSL_ERROR_SSL:
		break;
	default:
		set_cause(&s, "TLS error %d", err);
		ERR_clear_error();
		return s;
	}
	e = ERR_peek_error();
	vr = SSL_get_verify_result(ssl);
	if (ERR_GET_LIB(e) == ERR_LIB_SSL &&
	    ERR_GET_REASON(e) == SSL_R_CERTIFICATE_VERIFY_FAILED &&
	    vr != X509_V_OK) {
		ERR_clear_error();
		set_cause(&s, "certificate verify failed: %s",
		    X509_verify_cert_error_string(vr));
		return s;
	}
	if (ERR_GET_LIB(e) == ERR_LIB_SSL &&
	    ERR_GET_REASON(e) == SSL_R_PEER_DID_NOT_RETURN_A_CERTIFICATE) {
		ERR_clear_error();
		return xstrdup("peer sent no certificate");
	}
	if (ERR_GET_LIB(e) == ERR_LIB_SSL &&
	    (ERR_GET_REASON(e) == SSL_R_WRONG_VERSION_NUMBER ||
	    ERR_GET_REASON(e) == SSL_R_HTTP_REQUEST ||
	    ERR_GET_REASON(e) == SSL_R_PACKET_LENGTH_TOO_LONG ||
	    ERR_GET_REASON(e) == SSL_R_UNKNOWN_PROTOCOL)) {
		ERR_clear_error();
		return xstrdup("not a TLS handshake (plaintext peer?)");
	}
	if (ERR_GET_LIB(e) == ERR_LIB_SSL &&
	    ERR_GET_REASON(e) == SSL_R_UNEXPECTED_EOF_WHILE_READING) {
		ERR_clear_error();
		return xstrdup("connection closed without TLS "
		    "close_notify");
	}
	if (ERR_GET_LIB(e) == ERR_LIB_SSL &&
	    ERR_GET_REASON(e) > SSL_AD_REASON_OFFSET &&
	    ERR_GET_REASON(e) < SSL_AD_REASON_OFFSET + 256) {
		ERR_clear_error();
		set_cause(&s, "the peer refused the handshake (TLS "
		    "alert \"%s\")", SSL_alert_desc_string_long(
		    ERR_GET_REASON(e) - SSL_AD_REASON_OFFSET));
		return s;
	}
	if (e == 0) {
		ERR_clear_error();
		return xstrdup("TLS failure");
	}
	ERR_error_string_n(e, buf, sizeof buf);
	ERR_clear_error();
	(void)ret;
	return xstrdup(buf);
}

char *
proxy_tls_peer_subject(SSL *ssl)
{
	X509	*x = SSL_get0_peer_certificate(ssl);
	BIO	*bio;
	char	*data, *s;
	long	 len;

	if (x == NULL)
		return xstrdup("(none)");
	bio = BIO_new(BIO_s_mem());
	if (bio == NULL)
		abort();
	X509_NAME_print_ex(bio, X509_get_subject_name(x), 0,
	    XN_FLAG_RFC2253);
	len = BIO_get_mem_data(bio, &data);
	s = xmalloc((size_t)len + 1);
	memcpy(s, data, (size_t)len);
	s[len] = '\0';
	BIO_free(bio);
	return s;
}

int
proxy_tls_check_peer(struct proxy_tls *t, SSL *ssl, char **cause)
{
	char *subject;

	if (t->pin == NULL)
		return 0;
	subject = proxy_tls_peer_subject(ssl);
	if (strcmp(subject, t->pin) != 0) {
		set_cause(cause, "peer subject \"%s\" is not the pinned "
		    "\"%s\"", subject, t->pin);
		free(subject);
		return -1;
	}
	free(subject);
	return 0;
}

int
proxy_tls_records(SSL *ssl, uint64_t rd_seq, uint64_t wr_seq,
    struct proxy_rec **rd, struct proxy_rec **wr, char **why)
{
	struct tls_secrets	*s = SSL_get_ex_data(ssl, secrets_index);
	const char		*suite;
	int			 server = SSL_is_server(ssl);

	*rd = *wr = NULL;
	if (SSL_version(ssl) != TLS1_3_VERSION) {
		set_cause(why, "%s, not TLS 1.3", SSL_get_version(ssl));
		return -1;
	}
	if (SSL_has_pending(ssl)) {
		*why = xstrdup("OpenSSL holds bytes of the peer");
		return -1;
	}
	if (s == NULL || s->client_len == 0 || s->server_len == 0) {
		*why = xstrdup("no traffic secrets from OpenSSL");
		return -1;
	}
	suite = SSL_CIPHER_get_name(SSL_get_current_cipher(ssl));
	*wr = proxy_rec_new(suite, server ? s->server : s->client,
	    server ? s->server_len : s->client_len, 1, wr_seq, why);
	if (*wr == NULL)
		return -1;
	*rd = proxy_rec_new(suite, server ? s->client : s->server,
	    server ? s->client_len : s->server_len, 0, rd_seq, why);
	if (*rd == NULL) {
		proxy_rec_free(*wr);
		*wr = NULL;
		return -1;
	}
	OPENSSL_cleanse(s, sizeof *s);
	return 0;
}
