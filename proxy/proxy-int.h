/*
 * proxy-int.h: what the proxy's files share among themselves and nothing
 * outside proxy/ may use, but the record layer's own unit test and fuzz
 * target (tests/unit/test-proxy-record.c, fuzz/fuzz-proxy-record.c), which
 * reach proxy-record.c below the public API.
 */
#ifndef PROXY_INT_H
#define PROXY_INT_H

#include <sys/queue.h>
#include <sys/socket.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <ev.h>
#include <openssl/ssl.h>

#include "common.h"
#include "proxy.h"
#include "proxy-control-rules.h"

struct json_object;
struct proxy_rec;

/*
 * The one control message of a standalone source (no engine), the only
 * one a standalone target answers with ready.
 */
#define PROXY_STANDALONE_SESSION	"proxy-session"

/* proxy-util.c */
void	 proxy_log(enum proxy_log_level, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Session id as 32 hex digits into out[33]. */
void	 proxy_session_hex(const uint8_t *id, char *out);

/* proxy-tls-files.c */
/*
 * The three files of a --tls-dir, read from kubelet's current version of
 * the Secret where the directory is one (..data), the key's mode checked.
 * where is the directory they came from, for messages.  The key's bytes
 * are wiped by proxy_tls_files_clear().
 */
struct proxy_tls_files {
	char	*where;
	char	*ca, *cert, *key;
	size_t	 ca_len, cert_len, key_len;
};
int	 proxy_tls_files_read(const char *dir, struct proxy_tls_files *,
	    char **cause);
void	 proxy_tls_files_clear(struct proxy_tls_files *);

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

/*
 * After the handshake: the record layer of proxy-record.c for ssl's
 * connection, if it can carry it (TLS 1.3, AES-GCM, the traffic secrets
 * captured, nothing left in OpenSSL's buffers): *rd opens the peer's
 * records from sequence number rd_seq, *wr seals ours from wr_seq.
 * Returns 0, or -1 with *why set (OpenSSL must go on carrying them).
 */
int	 proxy_tls_records(SSL *ssl, uint64_t rd_seq, uint64_t wr_seq,
	    struct proxy_rec **rd, struct proxy_rec **wr, char **why);

/* proxy-record.c: TLS 1.3 record protection, in place */
#define PROXY_REC_HDR		5
#define PROXY_REC_PLAIN_MAX	16384
#define PROXY_REC_TAG		16
#define PROXY_REC_CIPHER_MAX	(PROXY_REC_PLAIN_MAX + 256)
#define PROXY_REC_ALERT		21
#define PROXY_REC_HANDSHAKE	22
#define PROXY_REC_DATA		23
/* Records sealed under one key before a KeyUpdate (AES-GCM: < 2^24.5). */
#define PROXY_REC_KEY_LIMIT	(1ull << 23)

/*
 * One direction's protection for cipher suite (OpenSSL's name, e.g.
 * "TLS_AES_128_GCM_SHA256") from its traffic secret, sealing (encrypt) or
 * opening, the next record being number seq.  NULL with *cause if the
 * suite is not AES-GCM.
 */
struct proxy_rec *proxy_rec_new(const char *suite, const uint8_t *secret,
	    size_t secret_len, int encrypt, uint64_t seq, char **cause);
void	 proxy_rec_free(struct proxy_rec *);
/*
 * Seals in place the record at rec: its content, len bytes (at most
 * PROXY_REC_PLAIN_MAX) of type, is at rec + PROXY_REC_HDR; the header,
 * the inner type and the tag are written around it.  Returns the
 * record's length (len + 22), or 0 if encryption failed.
 */
size_t	 proxy_rec_seal(struct proxy_rec *, uint8_t *rec, size_t len,
	    uint8_t type);
/*
 * Seals at rec a KeyUpdate (update_not_requested) and moves to the next
 * key, or a close_notify alert.  Return the record's length, 0 on
 * failure.
 */
size_t	 proxy_rec_seal_key_update(struct proxy_rec *, uint8_t *rec);
size_t	 proxy_rec_seal_close_notify(struct proxy_rec *, uint8_t *rec);
/*
 * Opens in place the record at buf[0..avail): 1 with *reclen bytes used,
 * the content at buf + PROXY_REC_HDR (*len bytes of *type); 0 if the
 * record is not all there yet; -1 with *cause (bad length or type,
 * failed authentication).
 */
int	 proxy_rec_open(struct proxy_rec *, uint8_t *buf, size_t avail,
	    size_t *reclen, size_t *len, uint8_t *type, char **cause);
/*
 * The post-handshake messages of an opened handshake record: KeyUpdate
 * re-keys this (opening) direction and sets *update_requested if the
 * peer wants ours updated too; NewSessionTicket is ignored.  Returns 0,
 * or -1 with *cause.
 */
int	 proxy_rec_handshake(struct proxy_rec *, const uint8_t *msg,
	    size_t len, int *update_requested, char **cause);
/* Next traffic secret and keys (KeyUpdate); returns 0 or -1. */
int	 proxy_rec_update(struct proxy_rec *);
/* Sealing: non-zero once the key has sealed its share of records. */
int	 proxy_rec_due_update(struct proxy_rec *);
/* Sets that share (tests). */
void	 proxy_rec_set_key_limit(struct proxy_rec *, uint64_t records);

/* proxy-pair.c */
struct proxy_pair;
/* Called once when the pair is torn down, just before it is freed. */
typedef void (*proxy_pair_done_cb)(struct proxy_pair *, void *arg);

/*
 * Forwards between qfd (QEMU's side, plain) and nfd (the network side,
 * TLS when nssl is not NULL).  Takes ownership of both fds and the SSL.
 * Before the pair, the TLS connection carried exactly one application
 * record: the header, which this side sent (sent_header, the source) or
 * read (the target).  bufsize bounds each direction's buffer.  stat_q2n
 * and stat_n2q, when not NULL, are counters added to (atomically: other
 * loops' pairs add to the same) as bytes move.  Logs "NAME: forwarding
 * on worker W" (W >= 0; "NAME: forwarding" on the main loop) and
 * "NAME: closed: REASON (...)" when it ends.  Everything the pair does
 * runs on loop, and on that loop's thread only.
 */
struct proxy_pair *proxy_pair_new(struct ev_loop *loop, const char *name,
	    int worker, int qfd, int nfd, SSL *nssl, int sent_header,
	    size_t bufsize, double idle, uint64_t *stat_q2n,
	    uint64_t *stat_n2q, proxy_pair_done_cb done, void *arg);
/* Tears the pair down now, logging reason; calls done. */
void	 proxy_pair_close(struct proxy_pair *, const char *reason);

/* proxy-worker.c: the data plane's worker loops (threads) */
struct proxy_workers;
/* Called on the main loop once a pair handed over has ended. */
typedef void (*proxy_worker_done_cb)(void *arg);
/*
 * The default number of workers: QMIGRATE_PROXY_WORKERS when it is a
 * number (0: the main loop), else the online CPUs (at least 1).
 */
unsigned proxy_workers_default(void);
/*
 * A pool of up to max worker loops for the pairs of the main loop loop
 * (max 0: the pairs run on loop itself).  Threads start when pairs need
 * them.
 */
struct proxy_workers *proxy_workers_new(struct ev_loop *loop, unsigned max);
void	 proxy_workers_set_max(struct proxy_workers *, unsigned max);
/*
 * Hands a finished connection (proxy_pair_new()'s arguments) to the
 * worker with the fewest pairs, starting one if all have pairs and fewer
 * than max run; done(arg) is called on the main loop when the pair has
 * ended.  Returns the worker's number + 1, 0 for the main loop.
 */
unsigned proxy_workers_pair(struct proxy_workers *, const char *name,
	    int qfd, int nfd, SSL *nssl, int sent_header, size_t bufsize,
	    double idle, uint64_t *stat_q2n, uint64_t *stat_n2q,
	    proxy_worker_done_cb done, void *arg);
/*
 * Closes every pair ("proxy stopping"), joins the threads and calls the
 * done callbacks of all pairs on this thread before it returns.
 */
void	 proxy_workers_free(struct proxy_workers *);

/*
 * proxy-conn.c: the connection engine both sides share.  A side (struct
 * proxy_side, embedded in struct proxy_source and struct proxy_target)
 * owns its listeners, the connections being set up (struct conn, each a
 * small state machine stepped by the side's ops) and the pairs already
 * forwarding.  Memory is bounded: at most max_pending connections are set
 * up at a time (accepting stops beyond that, so a flood waits in the
 * kernel's backlog), and only connections that finished their setup get
 * forwarding buffers.
 */

struct proxy_side;
struct conn;
struct listener;

/* proxy-control.c: a control connection's buffers. */
struct control_buf {
	uint8_t		*out;		/* framed messages to write */
	size_t		 out_len, out_off;
	uint8_t		 lenbuf[4];	/* the message being read */
	size_t		 len_got;
	uint8_t		*body;
	size_t		 body_len, body_got;
	int		 awaiting;	/* target: an answer is owed */
};

/* A connection being set up (data or control), until it forwards. */
struct conn {
	struct proxy_side	*side;
	TAILQ_ENTRY(conn)	 entry;
	enum conn_state		 state;
	enum proxy_kind		 kind;
	unsigned		 chan;		/* data: enum proxy_channel */
	char			*name;
	int			 nfd;		/* network side */
	SSL			*ssl;
	int			 qfd;		/* QEMU side */
	ev_io			 io;
	int			 io_events;
	ev_timer		 deadline;
	ev_timer		 retry;		/* target: QEMU backlog full */
	int			 counted;	/* in side->npending */
	uint32_t		 seq;
	uint8_t			 hdr[PROXY_HDR_SIZE];
	size_t			 hdr_off;
	struct control_buf	 control;	/* control connection */
};

/*
 * Per channel: the source numbers its connections; the target releases
 * them, in order when the channel has an order (migration), as they come
 * otherwise (NBD), one connect() at a time.
 */
struct chan {
	uint32_t		 next_seq;	/* source: next to assign */
	struct proxy_order	*order;		/* target, ordered channels */
	struct conn		*releasing;	/* target: connecting to QEMU */
};

/* The session: its id, its control connection, its channels. */
struct proxy_session {
	int			 live;
	uint8_t			 id[PROXY_SESSION_ID_SIZE];
	char			 hex[2 * PROXY_SESSION_ID_SIZE + 1];
	struct chan		 chan[PROXY_CHANNELS];
	struct conn		*control;	/* the control connection */
};

/* A listening socket: TCP on the target, one unix socket per channel on
 * the source. */
struct listener {
	struct proxy_side	*side;
	unsigned		 chan;
	int			 fd;
	char			*name;
	char			*unlink_path;
	ev_io			 io;
};

/* What a side does differently; the engine calls these. */
struct side_ops {
	const char	*dir;	/* "to" or "from" the peer, in names */
	/* This side sends the header (source), the other reads it. */
	int		 sends_header;
	/* A timeout before authentication is a refusal (target). */
	int		 refuse_unauthenticated;
	/* c (being set up) is ready for I/O, or its retry timer fired. */
	void	(*step)(struct conn *c);
	/* A connection arrived on l (fd non-blocking, close-on-exec). */
	void	(*accept)(struct listener *l, int fd,
		    const struct sockaddr *sa, socklen_t salen);
	/* A data connection being set up was closed (NULL: nothing). */
	void	(*conn_closed)(struct proxy_side *);
	/*
	 * A control message arrived (msg borrowed).  Returns 0, or -1 with
	 * *cause set to close the control connection (and the session).
	 */
	int	(*control_msg)(struct conn *c, struct json_object *msg,
		    char **cause);
	/* The session ended with its control connection: tell the owner. */
	void	(*session_ended)(struct proxy_side *, const char *reason);
};

struct pair_link;

struct proxy_side {
	struct ev_loop		*loop;
	const struct side_ops	*ops;
	struct proxy_tls	*tls;
	struct listener		 lst[PROXY_CHANNELS];
	char			*listen_name;	/* the first listener's */
	ev_timer		 accept_pause;
	int			 accept_paused;
	size_t			 npending;
	size_t			 max_pending;
	double			 idle;
	double			 handshake;
	struct proxy_stats	 stats;		/* bytes: atomic */
	struct proxy_workers	*workers;	/* the pairs' loops */
	unsigned		 nworkers;	/* at most */
	uint64_t		*stat_q2n;	/* counts QEMU -> peer bytes */
	uint64_t		*stat_n2q;
	TAILQ_HEAD(, conn)	 conns;
	TAILQ_HEAD(, pair_link)	 pairs;
	struct proxy_session	 sess;
	char			*control_error;	/* why control conn closed */
	int			 freeing;	/* the owner frees us: quiet */
};

void	 proxy_side_init(struct proxy_side *, struct ev_loop *,
	    struct proxy_tls *, const struct side_ops *);
/* Starts accepting on fd for channel chan; unlink_path removed at free. */
void	 proxy_side_listen(struct proxy_side *, unsigned chan, int fd,
	    const char *name, const char *unlink_path);
/* Closes listeners, connections and pairs; frees what the side owns. */
void	 proxy_side_free(struct proxy_side *);
void	 proxy_side_set_timeouts(struct proxy_side *, double idle,
	    double handshake);
/* The side's counters, read safely while workers add to them. */
void	 proxy_side_stats(struct proxy_side *, struct proxy_stats *);
/* At most n worker loops for the pairs (0: on the side's loop). */
void	 proxy_side_set_workers(struct proxy_side *, unsigned n);

/* A connection being set up, counted against max_pending. */
struct conn *proxy_conn_new(struct proxy_side *, int nfd, int qfd,
	    const char *name);
/* Watch the network fd for ev (0: not at all). */
void	 proxy_conn_want(struct conn *, int ev);
/* Stop counting c against max_pending (its setup is authenticated). */
void	 proxy_conn_uncount(struct conn *);
/*
 * The one teardown of a connection being set up: logs reason (as a
 * refusal when refused), frees TLS, closes both fds.  A control
 * connection takes its session with it.
 */
void	 proxy_conn_close(struct conn *, const char *reason, int refused);
/* Hands c's fds and TLS to a forwarding pair; frees c. */
void	 proxy_conn_forward(struct conn *);
/* SSL_do_handshake once: 1 done, 0 waiting (watcher armed), -1 + cause. */
int	 proxy_conn_handshake(struct conn *, char **cause);
#define CONN_READ	0
#define CONN_WRITE	1
/*
 * Moves buf[*done..len) from (CONN_READ) or to (CONN_WRITE) the network
 * side, through TLS if c has it: 1 all moved, 0 waiting (watcher armed),
 * -1 failed or closed with *cause.
 */
int	 proxy_conn_io(struct conn *, int dir, void *buf, size_t len,
	    size_t *done, char **cause);
/* Names c "session XXXXXXXX [nbd ]conn N to|from PEER" (or "control"). */
void	 proxy_conn_name_session(struct conn *, const char *peer);
/* Frees the per-channel state and zeroes the session. */
void	 proxy_session_clear(struct proxy_side *);

/* Socket options. */
void	 proxy_tcp_options(int fd);
void	 proxy_tcp_dead_peer(int fd);
/* A mode 0600 unix listener at path (a stale socket is replaced). */
int	 proxy_unix_listen(const char *path, char **cause);

/* proxy-control.c: the control connection's messages */
/* Queues msg (borrowed) on the control connection c. */
void	 proxy_control_queue(struct conn *, struct json_object *msg);
/* Writes what is queued and reads messages while no answer is owed. */
void	 proxy_control_step(struct conn *);

#endif
