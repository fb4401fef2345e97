/*
 * proxy.h: the TLS migration proxy on libev, OpenSSL and json-c.
 *
 * Source side: listens on a unix socket that the source QEMU migrates to;
 * for each connection QEMU opens, opens a mutually authenticated TLS
 * connection to the target side, sends a header (session id, sequence
 * number) and forwards bytes both ways.  Target side: accepts TLS on TCP,
 * refuses peers without a valid certificate or without a known session,
 * and connects to the target QEMU's unix socket in the order the source
 * QEMU opened its connections (QEMU 7.2 tells the main stream from the
 * multifd channels only by accept order).
 *
 * Data connections belong to a channel: the migration stream (QEMU's main
 * and multifd connections, delivered in order) or NBD (the disks' mirrors,
 * delivered as they come).  The source side listens on one unix socket per
 * channel; the target side connects each channel to its own unix socket.
 *
 * Before any data connection, the source opens one "control" connection
 * carrying the session: length-prefixed JSON messages, one answer each.
 * The migration driver uses it for its configuration handshake; the
 * standalone proxy sends a minimal one by itself, and a standalone target
 * answers only that one (it never answers for an engine it does not have).
 *
 * Everything runs on the caller's libev loop, but the forwarding of data
 * connections, which runs on worker threads of the proxy's own (one libev
 * loop each, proxy_*_set_workers()); no callback is ever called from
 * them.  Callbacks may
 * call proxy_source_control()/proxy_target_answer() but must not free the
 * proxy that called them (break the loop or use a timer instead).  Every
 * char **cause is set to a malloc'd one-line message on failure and must be
 * freed by the caller.  json objects passed to callbacks are borrowed for
 * the duration of the callback; messages passed in are stolen.
 */
#ifndef PROXY_H
#define PROXY_H

#include <stddef.h>
#include <stdint.h>

struct ev_loop;
struct json_object;
struct proxy_tls;
struct proxy_source;
struct proxy_target;

/* Defaults; see proxy_*_set_limits(). */
/*
 * Per direction and pair.  Not more: what waits in the proxy when the
 * source QEMU stops must still reach the target before the guest runs
 * again, and QEMU's downtime figure does not see it (bench/RESULTS.md).
 */
#define PROXY_BUFFER_SIZE	(256u * 1024)
#define PROXY_IDLE_TIMEOUT	60.0		/* seconds without a byte */
#define PROXY_HANDSHAKE_TIMEOUT	10.0		/* TLS + header, seconds */
/* A TCP peer silent this long (unacked data, keepalives) is dead. */
#define PROXY_DEAD_PEER_TIMEOUT	10		/* seconds */
#define PROXY_MAX_PENDING	64		/* handshakes in progress */
#define PROXY_MAX_CONTROL	(1024u * 1024)	/* one control message */

/* Log levels handed to the log hook. */
enum proxy_log_level {
	PROXY_LOG_WARN,
	PROXY_LOG_INFO,
	PROXY_LOG_DEBUG,
};

/*
 * Where the library's messages go (one line, no newline, peer bytes already
 * escaped).  Without a hook they go to stderr.  Process-wide.
 */
void proxy_set_log(void (*fn)(enum proxy_log_level, const char *msg,
    void *arg), void *arg);

/* proxy-tls.c */

/*
 * Loads ca.pem, cert.pem and key.pem from dir (kubelet's Secret layout
 * too: proxy-tls-files.c) and builds a context for the
 * server (target, is_server != 0) or client (source) side: TLS 1.3 minimum
 * unless allow_tls12, peer certificate required and verified against
 * ca.pem.  pin_subject, when not NULL, must equal the peer certificate's
 * subject in OpenSSL's one-line RFC 2253 form (e.g. "CN=node-b").
 * key.pem readable by others, or by a group not this process's, is
 * refused.  Returns NULL and sets *cause on failure.
 */
struct proxy_tls *proxy_tls_load(const char *dir, int is_server,
    int allow_tls12, const char *pin_subject, char **cause);
void proxy_tls_free(struct proxy_tls *);
/*
 * When dir's cert.pem (read as proxy_tls_load reads it: kubelet's layout
 * too) stops being valid, in seconds since the epoch.  0, or -1 + cause.
 */
int proxy_tls_cert_not_after(const char *dir, double *not_after,
    char **cause);
/*
 * Server side: the name (host name or IP address, as in the certificate's
 * subjectAltName or CN) every client's certificate must carry, besides
 * its chain to ca.pem; NULL accepts any certificate of the CA.  A client
 * without it fails the handshake, before a byte of it is forwarded.
 */
void proxy_tls_set_peer_name(struct proxy_tls *, const char *name);

/* Counters of one side, for status documents and logs. */
struct proxy_stats {
	uint64_t	bytes_to_target;	/* source QEMU -> target QEMU */
	uint64_t	bytes_from_target;	/* target QEMU -> source QEMU */
	uint64_t	connections;		/* data connections forwarded */
	uint64_t	active;			/* data connections open now */
	uint64_t	refused;		/* peers refused */
};

/*
 * Answer to one control message: answer (borrowed) and error == NULL, or
 * answer == NULL and a one-line error (timeout, connection closed, bad
 * answer).
 */
typedef void (*proxy_answer_cb)(struct json_object *answer,
    const char *error, void *arg);

/*
 * Data channels.  Migration connections reach the target in the order the
 * source QEMU opened them (QEMU 7.2 tells its main stream from the multifd
 * channels by accept order); NBD connections have no order.
 */
enum proxy_channel {
	PROXY_CHAN_MIGRATION = 0,
	PROXY_CHAN_NBD = 1,
};
#define PROXY_CHANNELS	2

/* "migration", "nbd", or "?" */
const char *proxy_channel_name(unsigned channel);

/* proxy-source.c: source side */

/*
 * Listens on the unix socket listen_path (replaced if it is a stale
 * socket) for the migration channel and forwards every connection to
 * host:port over TLS (tls == NULL:
 * plaintext, logged loudly).  tls_name is the name the target's
 * certificate must carry; NULL means host.  host is resolved here, once.
 * Data connections wait until a session exists (proxy_source_control()
 * answered, or the automatic session: see proxy_source_auto_session()).
 */
struct proxy_source *proxy_source_start(struct ev_loop *loop,
    struct proxy_tls *tls, const char *listen_path, const char *host,
    const char *port, const char *tls_name, char **cause);

/*
 * Also listens on the unix socket path for channel (PROXY_CHAN_NBD: the
 * connections go to the target side's path for that channel).  Returns 0,
 * or -1 with *cause set (bad channel, one already listening, bind).
 */
int proxy_source_add_listener(struct proxy_source *, unsigned channel,
    const char *path, char **cause);

/*
 * Sends msg (stolen) on the control connection, opening it (and with it a
 * new session) if there is none, and calls cb once with the answer or an
 * error after timeout seconds.  The first answer makes the session live:
 * waiting and later QEMU connections are forwarded.  One message at a time:
 * returns -1 with *cause set if one is outstanding or the control
 * connection has failed.
 */
int proxy_source_control(struct proxy_source *, struct json_object *msg,
    double timeout, proxy_answer_cb cb, void *arg, char **cause);

/*
 * Standalone mode: when a QEMU connection arrives and there is no session,
 * open one with the message {"type":"proxy-session"} and no driver (a
 * standalone target answers it ready; a migration engine does not).  A
 * session that fails or whose control connection closes is replaced by
 * the next connection.
 */
void proxy_source_auto_session(struct proxy_source *, int enable);

/* Non-zero while the control connection is up and answered. */
int proxy_source_session_live(struct proxy_source *);
void proxy_source_stats(struct proxy_source *, struct proxy_stats *);
/* Closes the listener (unlinks its path), every connection, frees. */
void proxy_source_free(struct proxy_source *);

/* proxy-target.c: target side */

/*
 * A control message from the source (msg borrowed), to be answered once
 * with proxy_target_answer(), now or later; or msg == NULL and error set
 * when the control connection (and the session) ended.
 */
typedef void (*proxy_control_cb)(struct proxy_target *,
    struct json_object *msg, const char *error, void *arg);

/*
 * Listens on TCP addr:port (addr NULL or "" for any; port "0" picks one,
 * see proxy_target_port()) with TLS (tls == NULL: plaintext, logged
 * loudly) and forwards each migration connection of the live session to
 * the unix socket qemu_path, in the source's order (other channels: see
 * proxy_target_set_path(); without a path their connections are refused).
 * on_control NULL is standalone mode: {"type":"proxy-session"} (a
 * standalone source's session) is answered {"status":"ready"}, anything
 * else (an engine's offer, a post-copy resume, a completed migration) is
 * refused with a reason, since no engine is behind the proxy to check it.
 * One session at a time: a second control connection is refused while one
 * is open.
 */
struct proxy_target *proxy_target_start(struct ev_loop *loop,
    struct proxy_tls *tls, const char *addr, const char *port,
    const char *qemu_path, proxy_control_cb on_control, void *arg,
    char **cause);

/*
 * Answers the current control message (answer stolen; cause may be NULL).
 * Returns -1 with *cause set if none is waiting for an answer or the
 * session ended.  The session goes live (its data connections are
 * accepted) at the first answer whose "status" is "ready"; answer anything
 * else (e.g. {"status":"refused","reason":...}) to keep strangers out.
 */
int proxy_target_answer(struct proxy_target *, struct json_object *answer,
    char **cause);

/* Changes where channel's connections go (path NULL: refused). */
void proxy_target_set_path(struct proxy_target *, unsigned channel,
    const char *path);
/* proxy_target_set_path(PROXY_CHAN_MIGRATION, path). */
void proxy_target_set_qemu_path(struct proxy_target *, const char *path);
/* The TCP port actually bound. */
int proxy_target_port(struct proxy_target *);
void proxy_target_stats(struct proxy_target *, struct proxy_stats *);
void proxy_target_free(struct proxy_target *);

/* Both sides: idle timeout per data pair, handshake timeout (0: keep). */
void proxy_source_set_timeouts(struct proxy_source *, double idle,
    double handshake);
void proxy_target_set_timeouts(struct proxy_target *, double idle,
    double handshake);
/*
 * Both sides: the data connections' pairs run on up to n worker threads,
 * each with its own event loop (default: the online CPUs, or the
 * environment's QMIGRATE_PROXY_WORKERS); 0 runs them on the side's own
 * loop.  The side's loop keeps the listeners, the
 * connections being set up and the session.
 */
void proxy_source_set_workers(struct proxy_source *, unsigned n);
void proxy_target_set_workers(struct proxy_target *, unsigned n);

/* proxy-order.c: the header after the TLS handshake (exposed for tests) */

#define PROXY_HDR_MAGIC		"QMPX"
#define PROXY_HDR_VERSION	2	/* 1: before channels (no NBD) */
#define PROXY_HDR_SIZE		28
#define PROXY_SESSION_ID_SIZE	16

enum proxy_kind {
	PROXY_KIND_CONTROL = 1,
	PROXY_KIND_DATA = 2,
};

struct proxy_hdr {
	enum proxy_kind	kind;
	uint8_t		channel;	/* enum proxy_channel; 0 for control */
	uint8_t		session[PROXY_SESSION_ID_SIZE];
	uint32_t	seq;
};

/* Writes PROXY_HDR_SIZE bytes. */
void proxy_hdr_encode(const struct proxy_hdr *, uint8_t *out);
/*
 * Returns 0, or -1 with *cause set (bad magic, version, kind or channel;
 * version 1 is named as an older qmigrate).
 */
int proxy_hdr_decode(const uint8_t *in, size_t len, struct proxy_hdr *,
    char **cause);

/*
 * In-order release: connections carry sequence numbers 0, 1, 2... (per
 * channel); a connection may be delivered only when all lower ones have
 * been.
 */
struct proxy_order;
struct proxy_order *proxy_order_new(size_t max_held);
void proxy_order_free(struct proxy_order *);
/*
 * Offers connection seq with an opaque item.  Returns 0 (held or ready),
 * -1 with *cause set for a duplicate or past sequence number, a number too
 * far ahead, or too many held.
 */
int proxy_order_offer(struct proxy_order *, uint32_t seq, void *item,
    char **cause);
/*
 * The next item that may be delivered now, or NULL.  Marks it delivered:
 * the following sequence number becomes next.
 */
void *proxy_order_next(struct proxy_order *);
/* Forgets a held item (e.g. it timed out); returns 1 if it was held. */
int proxy_order_remove(struct proxy_order *, void *item);
/* The sequence number that will be delivered next. */
uint32_t proxy_order_expected(struct proxy_order *);

#endif
