/*
 * proxy-control-rules.h: what the proxy decides about its control
 * connection and the session it holds, as pure functions: one end's facts
 * in, the decision out (no libev, no OpenSSL, no sockets).  proxy-source.c,
 * proxy-target.c, proxy-control.c and proxy-conn.c act on these decisions
 * with their sockets and timers; tests/sim/real-tls.c acts on the same
 * decisions with the simulated network, so that the simulator's proxy is
 * this one and cannot drift from it.
 *
 * The rules:
 * - one question at a time: the source asks only with no answer owed,
 *   the target reads no further message while it owes an answer and
 *   answers only a message that waits for one;
 * - a question with no control connection opens one; an engine's session
 *   keeps its id across them (a standalone source's does not), so the
 *   target lets the new connection replace one it still holds (its owner
 *   hears the old one end first); another session is refused while one
 *   is open;
 * - a question's timeout replaces the handshake's deadline (0: none); a
 *   deadline that fires closes its connection;
 * - the first ready answer makes the session live; data connections go
 *   only through a live session: the source holds QEMU's while one is
 *   being set up (a question on its control connection, or a standalone
 *   source's session opened by that connection) and closes one that
 *   comes with no session at all (an engine's whose control connection
 *   ended: nothing makes a session live until the engine asks again, so
 *   QEMU's migration or resume fails at once instead of waiting on a
 *   connection nothing will carry); the target refuses the others;
 * - the control connection's end ends the session: the connections being
 *   set up for it close, the pairs already forwarding go on to their own
 *   end; the source's unanswered question gets the error, the target's
 *   owner is told.
 */
#ifndef PROXY_CONTROL_RULES_H
#define PROXY_CONTROL_RULES_H

struct json_object;

/* A connection being set up, as proxy-conn.c's engine steps it. */
enum conn_state {
	C_WAIT_SESSION,		/* source: QEMU connected, no session yet */
	C_CONNECT,		/* source: TCP connect in progress */
	C_HANDSHAKE,		/* TLS handshake */
	C_SEND_HDR,		/* source: writing the header */
	C_READ_HDR,		/* target: reading the header */
	C_HOLD,			/* target: waiting for lower sequence numbers */
	C_QEMU_CONNECT,		/* target: connecting to QEMU's socket */
	C_CONTROL,		/* the control connection, either side */
};

/* What the source does with a question (proxy_source_control). */
enum proxy_ask {
	PROXY_ASK_BUSY,		/* an answer is still owed: refused */
	PROXY_ASK_SEND,		/* on the control connection there is */
	PROXY_ASK_OPEN,		/* on a new one, of the same session */
	PROXY_ASK_OPEN_NEW,	/* on a new one, of a new session */
};
#define PROXY_RULE_BUSY	"a control message is already waiting for its answer"

/*
 * owed: a question waits for its answer; open: the control connection is
 * there (set up or being set up); auto_session: a standalone source (a
 * session per connection); have_id: the session has its id already.
 */
enum proxy_ask	 proxy_rule_ask(int owed, int open, int auto_session,
		    int have_id);
/* The deadline a question's timeout sets on its connection (0: none). */
double		 proxy_rule_ask_deadline(double timeout);

/* What an answer does (the source's from the target, the target's own). */
enum proxy_answer {
	PROXY_ANSWER_NOT_OWED,	/* nothing waits for it: refused */
	PROXY_ANSWER_TAKE,	/* it answers the message that waits */
	PROXY_ANSWER_LIVE,	/* that, and the session goes live with it */
};
/* The source closes the connection with this, the target refuses so. */
#define PROXY_RULE_UNEXPECTED	"unexpected control message"
#define PROXY_RULE_NOT_OWED	"no control message is waiting for an answer"

/* owed: an answer is owed on the open control connection; ready: it says
   "ready" (proxy_msg_is_ready). */
enum proxy_answer proxy_rule_answer(int owed, int live, int ready);
/* Non-zero if o's "status" is "ready". */
int		 proxy_msg_is_ready(struct json_object *o);

/* Whether an end reads the next control message: not while it owes an
   answer. */
int		 proxy_rule_reads(int owed);

/* What the target does with a control connection's header. */
enum proxy_open {
	PROXY_OPEN_NEW,		/* no session: this one opens it */
	PROXY_OPEN_REPLACE,	/* the session's old connection closes first */
	PROXY_OPEN_REFUSE,	/* another session is open */
};
#define PROXY_RULE_ONE_SESSION	"a session is already open"
#define PROXY_RULE_REPLACED	"replaced by a new control connection of " \
				"the same session"

/* open: a control connection is there; same: the header names its
   session. */
enum proxy_open	 proxy_rule_open(int open, int same);

/* What the source does with a QEMU connection it accepts. */
enum proxy_data {
	PROXY_DATA_FORWARD,	/* the session is live: to the target now */
	PROXY_DATA_HOLD,	/* a session is being set up: wait for it */
	PROXY_DATA_OPEN,	/* standalone, no session: open one, wait */
	PROXY_DATA_REFUSE,	/* no session, none coming: closed at once */
};
#define PROXY_RULE_NO_SESSION	"no session to carry it: the control " \
				"connection has ended"

/*
 * live: the session is live; open: its control connection is there (set
 * up or being set up); auto_session: a standalone source.
 */
enum proxy_data	 proxy_rule_data_arrives(int live, int open,
		    int auto_session);

/*
 * Whether the target takes a data connection's header (else "unknown
 * session"): the session named is the open, live one.
 */
int		 proxy_rule_data_admitted(int live, int open, int same);

/* Whether a connection in state closes when its session ends. */
int		 proxy_rule_ends_with_session(enum conn_state);

/*
 * A connection's deadline of secs fired in state: *reason (malloc'd) is
 * why it closes; returns non-zero if that is a refusal (the target's,
 * before authentication: refuse_unauthenticated).
 */
int		 proxy_rule_deadline(enum conn_state, double secs,
		    int refuse_unauthenticated, char **reason);

/*
 * What the source's unanswered question gets when its control connection
 * to peer ends with reason (malloc'd), and the reason of a connect that
 * failed with error (strerror's).
 */
char		*proxy_rule_lost(const char *peer, const char *reason);
char		*proxy_rule_connect_failed(const char *peer, const char *error);

#endif
