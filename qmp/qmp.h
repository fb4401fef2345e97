/*
 * qmp.h: asynchronous QMP and guest-agent client on libev and json-c.
 *
 * One connection speaks either QEMU's monitor protocol (greeting, then
 * qmp_capabilities) or the guest agent's (no greeting, 0xFF resync with
 * guest-sync-delimited).  Everything runs on the caller's libev loop; the
 * synchronous helpers run that same loop until their answer or deadline.
 *
 * Ownership: json objects handed to callbacks are borrowed for the duration
 * of the callback (take a json_object_get() to keep one).  Arguments passed
 * to qmp_send()/qmp_call() are stolen.  Every char **cause is set to a
 * malloc'd one-line message on failure and must be freed by the caller.
 */
#ifndef QMP_H
#define QMP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct ev_loop;
struct json_object;
struct qmp_conn;

enum qmp_proto {
	QMP_PROTO_MONITOR,	/* QEMU's QMP monitor socket */
	QMP_PROTO_AGENT,	/* qemu-ga on a virtio/isa serial socket */
};

/* Default cap on one incoming message (libvirt uses 10 MiB). */
#define QMP_DEFAULT_MAX_MESSAGE (16u * 1024 * 1024)

/*
 * Called once per command: with the "return" value (borrowed, may be an
 * empty object) and error == NULL on success; with reply == NULL and a
 * message on failure.  error_class is QEMU's class ("GenericError",
 * "CommandNotFound", ...) or "Timeout", "Closed" for local failures.
 */
typedef void (*qmp_reply_cb)(struct qmp_conn *, struct json_object *reply,
    const char *error_class, const char *error, void *arg);

/*
 * Whether a failure's error_class says QEMU gave no answer ("Timeout",
 * "Closed"): QEMU may still carry the command out, late, so it is no
 * refusal.  0 for NULL and QEMU's own classes.
 */
int qmp_error_unanswered(const char *error_class);

/* An event: its name, data (borrowed, may be NULL) and QEMU's timestamp. */
typedef void (*qmp_event_cb)(struct qmp_conn *, const char *name,
    struct json_object *data, double timestamp, void *arg);

/*
 * The connection ended (peer closed, protocol violation, oversize message).
 * Every pending command has already been failed with error_class "Closed".
 * The connection stays allocated until qmp_close().
 */
typedef void (*qmp_close_cb)(struct qmp_conn *, const char *reason, void *arg);

/*
 * Connects to the unix socket at path and completes the handshake (greeting
 * and qmp_capabilities for the monitor; guest-sync-delimited for the agent),
 * running loop until done or timeout seconds pass.  Returns NULL and sets
 * *cause on failure.
 */
struct qmp_conn *qmp_connect(struct ev_loop *loop, const char *path,
    enum qmp_proto proto, double timeout, char **cause);

/*
 * Connects to a QEMU monitor without running the loop: ready is called
 * (from the loop) with qmp_capabilities' answer, or its error.  NULL with
 * *cause when the socket cannot be connected.
 */
struct qmp_conn *qmp_connect_start(struct ev_loop *loop, const char *path,
    double timeout, qmp_reply_cb ready, void *arg, char **cause);

/*
 * Wraps an already connected fd, without any handshake (tests, fuzzing).
 * A monitor greeting is still recorded whenever it arrives.
 */
struct qmp_conn *qmp_attach_fd(struct ev_loop *loop, int fd,
    enum qmp_proto proto, const char *peer_name);

/* Closes the socket, fails pending commands, frees everything. NULL is ok. */
void qmp_close(struct qmp_conn *conn);
/*
 * A hold keeps the memory of a connection qmp_close() was called on until
 * its release, for a user that outlives its owner's close (mig-job.c): it
 * then sees it closed.
 */
void qmp_hold(struct qmp_conn *conn);
void qmp_release(struct qmp_conn *conn);

/* Limits and hooks. */
void qmp_set_max_message(struct qmp_conn *conn, size_t bytes);
void qmp_set_close_cb(struct qmp_conn *conn, qmp_close_cb cb, void *arg);

/*
 * Subscribes cb to the event called name, or to every event when name is
 * NULL.  Returns a handle for qmp_unsubscribe().
 */
int qmp_subscribe(struct qmp_conn *conn, const char *name, qmp_event_cb cb,
    void *arg);
void qmp_unsubscribe(struct qmp_conn *conn, int handle);

/*
 * Sends command with args (stolen, may be NULL) and a fresh id.  cb runs
 * exactly once: on the reply, on timeout seconds passing (timeout <= 0: no
 * timer), or on close.  Returns 0, or -1 with *cause set when the
 * connection is already closed or its output queue (16 MiB) is full; cb
 * does not run then.  On the agent, commands queue and go out one at a
 * time, and a timeout makes the next command resynchronise first.
 */
int qmp_send(struct qmp_conn *conn, const char *command,
    struct json_object *args, double timeout, qmp_reply_cb cb, void *arg,
    char **cause);

/*
 * Synchronous: sends command and runs the loop until its answer.  Returns 0
 * with *reply set to the "return" value (owned by the caller; pass NULL to
 * drop it), or -1 with *cause set to "COMMAND: DESC" (QEMU's desc).
 */
int qmp_call(struct qmp_conn *conn, const char *command,
    struct json_object *args, struct json_object **reply, double timeout,
    char **cause);

/*
 * qmp_call(), and on -1 whether QEMU said nothing (*unanswered: no reply
 * in time, or the connection ended): then QEMU may still carry the
 * command out, late; else it refused it.
 */
int qmp_call_unanswered(struct qmp_conn *conn, const char *command,
    struct json_object *args, struct json_object **reply, double timeout,
    int *unanswered, char **cause);

/*
 * Runs loop until *done becomes non-zero (returns 0), or the connection
 * ends or timeout seconds pass (returns -1 with *cause set).  For waiting
 * on an event a qmp_event_cb flags.  timeout <= 0: no deadline.
 */
int qmp_run_until(struct qmp_conn *conn, const int *done, double timeout,
    char **cause);

/* Monitor only: what the greeting said. */
void qmp_qemu_version(struct qmp_conn *conn, int *major, int *minor,
    int *micro);
/* A name for logs: the socket path or the name given to qmp_attach_fd(). */
const char *qmp_peer(struct qmp_conn *conn);
/* The peer process of a unix socket, or 0 when not known. */
pid_t qmp_peer_pid(struct qmp_conn *conn);
/* Non-zero once the connection has ended. */
int qmp_is_closed(struct qmp_conn *conn);
/* Why it ended, or NULL while open. */
const char *qmp_close_reason(struct qmp_conn *conn);

/*
 * Where the library's debug lines go (one line, no newline, the peer's
 * bytes escaped): each error reply in full, with the command and the peer,
 * while callers show users the command and QEMU's desc only (libvirt's
 * way).  Without a hook nothing is written.  Process-wide.
 */
void qmp_set_debug_log(void (*fn)(const char *line, void *arg), void *arg);

/* Guest agent only. */

/*
 * Resynchronises: sends 0xFF and guest-sync-delimited with a random id,
 * discards everything up to the 0xFF in the answer and checks the id.
 * qmp_connect() does this for QMP_PROTO_AGENT.
 */
int qga_sync(struct qmp_conn *conn, double timeout, char **cause);

/*
 * guest-shutdown with mode ("powerdown", "halt", "reboot" or NULL): the
 * agent sends no reply on success, so success is no error within timeout
 * seconds (or the agent closing the channel).
 */
int qga_shutdown(struct qmp_conn *conn, const char *mode, double timeout,
    char **cause);

#endif
