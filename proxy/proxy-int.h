/*
 * proxy-int.h: what the proxy's files share among themselves and nothing
 * outside proxy/ may use.
 */
#ifndef PROXY_INT_H
#define PROXY_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/ssl.h>

#include "proxy.h"

struct ev_loop;

/* proxy-util.c */
void	 proxy_log(enum proxy_log_level, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
void	 proxy_asprintf(char **ret, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
void	*proxy_xcalloc(size_t nmemb, size_t size);
void	*proxy_xmalloc(size_t size);
char	*proxy_xstrdup(const char *s);
double	 proxy_now(void);
/* Session id as 32 hex digits into out[33]. */
void	 proxy_session_hex(const uint8_t *id, char *out);
int	 proxy_set_nonblock(int fd);

/* proxy-tls.c */
/*
 * A new SSL on fd for this context; for a client, name is what the
 * server's certificate must match (host name or IP address).
 */
SSL	*proxy_tls_ssl(struct proxy_tls *, int fd, const char *name,
	    char **cause);
/*
 * Describes why an SSL call that returned ret failed: verification result,
 * OpenSSL's queue or errno.  Returns a malloc'd string and clears the queue.
 */
char	*proxy_tls_strerror(SSL *ssl, int ret, int err);
/* After the handshake: checks the subject pin.  Returns 0 or -1 + cause. */
int	 proxy_tls_check_peer(struct proxy_tls *, SSL *ssl, char **cause);
/* The peer certificate's subject, malloc'd ("(none)" if absent). */
char	*proxy_tls_peer_subject(SSL *ssl);

/* proxy-pair.c */
struct proxy_pair;
/* Called once when the pair is torn down, just before it is freed. */
typedef void (*proxy_pair_done_cb)(struct proxy_pair *, void *arg);

/*
 * Forwards between qfd (QEMU's side, plain) and nfd (the network side,
 * TLS when nssl is not NULL).  Takes ownership of both fds and the SSL.
 * stat_q2n and stat_n2q, when not NULL, are counters added to as bytes
 * move.  Logs "NAME: closed: REASON (...)" when it ends.
 */
struct proxy_pair *proxy_pair_new(struct ev_loop *loop, const char *name,
	    int qfd, int nfd, SSL *nssl, size_t bufsize, double idle,
	    uint64_t *stat_q2n, uint64_t *stat_n2q, proxy_pair_done_cb done,
	    void *arg);
/* Tears the pair down now, logging reason; calls done. */
void	 proxy_pair_close(struct proxy_pair *, const char *reason);

#endif
