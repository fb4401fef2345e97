/*
 * fake-peer.h: the one fake peer of the tests and fuzz targets: a scripted
 * QMP / guest-agent peer on one end of a socketpair, served by the same
 * libev loop as the client under test.
 *
 * It is fake on purpose: real QEMU and qemu-ga cannot be made to split a
 * reply byte by byte, send garbage, oversize messages, unknown ids, stale
 * replies before a resync, or to hang.  Everything real QEMU can do is
 * tested against real QEMU in tests/integration/qmp-qemu.sh.
 *
 * The script is a list of (command, reply) pairs consumed in order of
 * arrival; a command with no entry fails the test.  In a reply, @ID@ is
 * replaced by the command's "id" (monitor) and @SYNC@ by the id argument of
 * guest-sync-delimited.  A NULL reply means stay silent; FAKE_CLOSE closes
 * the socket.  Anything else (an unknown command, a message that is not
 * JSON) ends the process with a message: the test fails.
 *
 * The fuzz targets play it instead (fake_peer_play): the input is cut into
 * segments at every FAKE_PEER_SEP, written one each time the loop goes idle
 * (so the client sees them as separate reads, and its own commands go out
 * in between), then the peer shuts its side down, so every run ends with
 * the connection closing.  "@ID" in a segment becomes the id of the last
 * guest-sync-delimited received; everything else the client sends is
 * read and dropped.
 */
#ifndef FAKE_PEER_H
#define FAKE_PEER_H

#include <stddef.h>
#include <stdint.h>

struct ev_loop;
struct fake_peer;
struct json_object;
struct qmp_conn;

#define FAKE_CLOSE "@CLOSE@"
#define FAKE_PEER_SEP	"\n--\n"

struct fake_peer *fake_peer_new(struct ev_loop *, int fd);
/* Plays data (borrowed until fake_peer_free()) as segments, above. */
struct fake_peer *fake_peer_play(struct ev_loop *, int fd,
	    const uint8_t *data, size_t size);
/* Closes the fd and frees the peer. */
void	 fake_peer_free(struct fake_peer *);
void	 fake_peer_on(struct fake_peer *, const char *command,
	    const char *reply);
/*
 * Instead of the script: each command gets what cb returns for it (a new
 * reference, NULL for silence), the command's id added, as one line
 * (tests/unit/test-preflight.c answers from a recorded QEMU).
 */
typedef struct json_object *(*fake_peer_answer_cb)(struct json_object *msg,
	    void *arg);
void	 fake_peer_answer_with(struct fake_peer *, fake_peer_answer_cb,
	    void *arg);
/* Writes msg as one line. */
void	 fake_peer_send(struct fake_peer *, struct json_object *msg);
void	 fake_peer_write(struct fake_peer *, const char *data, size_t len);
void	 fake_peer_puts(struct fake_peer *, const char *s);
/* Commands received so far, and 0xFF bytes seen. */
int	 fake_peer_ncommands(struct fake_peer *);
int	 fake_peer_nff(struct fake_peer *);
/* The n-th command's name (0-based) and its id as JSON ("null" if none). */
const char *fake_peer_command(struct fake_peer *, int n);
const char *fake_peer_id(struct fake_peer *, int n);
void	 fake_peer_close(struct fake_peer *);

/*
 * A client under test and its fake peer: makes *loop, a socketpair, the
 * QMP connection *conn (proto, a QMP_PROTO_*; name for its logs) on one end
 * and the fake peer *peer on the other.  fake_peer_pair_free() closes both
 * and destroys the loop.
 */
void	 fake_peer_pair(struct ev_loop **loop, struct qmp_conn **conn,
	    struct fake_peer **peer, int proto, const char *name);
void	 fake_peer_pair_free(struct ev_loop *, struct qmp_conn *,
	    struct fake_peer *);

/*
 * What one command's reply callback saw: fake_result_cb (a qmp_reply_cb
 * whose arg is a struct fake_result) counts the calls and keeps copies of
 * the reply serialised, or of the error; fake_result_free() frees them and
 * zeroes the result.
 */
struct fake_result {
	int	 calls;
	char	*reply;
	char	*error_class;
	char	*error;
};
void	 fake_result_cb(struct qmp_conn *, struct json_object *reply,
	    const char *error_class, const char *error, void *arg);
void	 fake_result_free(struct fake_result *);
/* qmp_send() of command (no arguments), its reply to r; must be queued. */
void	 fake_send_ok(struct qmp_conn *, const char *command, double timeout,
	    struct fake_result *r);

/* Runs loop until *flag is non-zero or seconds pass; returns *flag. */
int	 run_until(struct ev_loop *, const int *flag, double seconds);
/* Runs loop until *counter >= n or seconds pass; returns whether it is. */
int	 run_until_n(struct ev_loop *, const int *counter, int n,
	    double seconds);
/* Runs loop without blocking a few times: lets pending I/O through. */
void	 run_briefly(struct ev_loop *);

#endif
