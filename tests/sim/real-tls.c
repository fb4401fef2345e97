/*
 * real-tls.c: the tls: transport in sim-real's world (issue 37), in a
 * share of the seeds, from a draw of its own (the other draws stay as
 * they were).  It is mig-tls.h's seam, struct mig_tls_link: below it, in
 * production, each qmigrate's proxy (proxy/) and the network between
 * them; here the world's network, acting on the proxy's own decisions
 * about its control connection (proxy/proxy-control-rules.c, which
 * proxy-source.c, proxy-target.c and proxy-conn.c decide by).  Above it
 * everything is real: both sides' executors, sessions, mig-control.c's messages (each
 * encoded, carried as text and parsed again, as the proxy carries them).
 *
 * The control connection, as the rules decide: one question at a time
 * (mig-tls-queue.c, proxy_rule_ask); a question's deadline
 * (proxy_rule_ask_deadline) closes the connection (proxy_rule_deadline);
 * the next question opens a new one, of the same session (a new qmigrate
 * makes a new one), which the target lets replace the old or refuses
 * (proxy_rule_open: the owner hears the old one end first); answers go
 * only to a message that waits, the first ready making the session live
 * (proxy_rule_answer); a connection that ends gives the unanswered
 * question its error (proxy_rule_lost) and the target SEV_CONTROL_LOST.
 * Bytes keep their order on a connection (TCP); a process that ends
 * closes its connections after what it wrote.
 *
 * The world's faults on the link: a message late (1-14 s); the network
 * down (connects refused, both ends reset, the stream broken) for
 * 0.5-50 s; the control connection alone reset; a partition (0.5-50 s)
 * through which nothing passes until it heals (TCP retransmits), so that
 * an end that closes leaves the other's connection half-open until then;
 * past PROXY_DEAD_PEER_TIMEOUT the data connections, and the stream,
 * break.  The stream goes through both proxies: a qmigrate that ends or
 * dies breaks a stream still under way.
 *
 * Not run here (what remains of the proxy): its framing, TLS and pairs
 * (proxy-control.c, proxy-conn.c, proxy-pair*.c), its held data
 * connections (the source QEMU's stream reaches the target only while
 * both ends' session is live, else its migration fails at once), and
 * post-copy's resume through it (the model's resume ignores the link).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "mig-options.h"
#include "mig-tls.h"
#include "mig-tls-queue.h"
#include "world.h"
#include "proxy-control-rules.h"
#include "real.h"

#define SRC_SOCK	"/sim/tls-src.sock"	/* the source QEMU's */
#define TGT_SOCK	"/sim/tls-tgt.sock"	/* the target QEMU's */
#define PEER		"sim-target:4444"
#define DEAD_PEER	10.0	/* PROXY_DEAD_PEER_TIMEOUT */

/* A message, an end or a reset on its way to one side. */
enum rt_kind { RT_MSG, RT_CLOSE };
struct rt_delivery {
	ev_timer		 t;		/* first: the callback's */
	enum rt_kind		 kind;
	int			 to;		/* R_SRC or R_TGT */
	unsigned		 gen;		/* the connection */
	unsigned		 session;	/* its header's (to R_TGT) */
	char			*text;		/* RT_MSG */
	char			 reason[96];	/* RT_CLOSE */
	struct rt_delivery	*next;
};

struct mig_tls_source {
	struct ev_loop		*loop;
	struct mig_tls_queue	*questions;	/* mig-tls.c's queue */
	int			 asking;	/* one is out */
	ev_timer		 deadline;
	double			 deadline_s;
	unsigned		 session;	/* its id, once it has one */
	int			 have_id;
};

struct mig_tls_target {
	struct ev_loop		*loop;
	mig_tls_offer_cb	 cb;
	void			*arg;
	int			 awaiting;	/* a message owes its answer */
};

static struct rt_state {
	int			 on;
	struct rng		 rng;
	/* the draw */
	double			 delay;		/* one way, at most */
	double			 p_late;
	double			 down_at, down_len;
	double			 reset_at;
	double			 part_at, part_len;
	int			 down_done, reset_done, part_done, part_dead;
	/* the link */
	struct mig_tls_source	*src;
	struct mig_tls_target	*tgt;
	unsigned		 gens, sessions;
	unsigned		 src_gen, tgt_gen;	/* each end's view */
	unsigned		 tgt_session;	/* the target's open one */
	int			 src_up, tgt_up;
	int			 src_live, tgt_live;	/* answered ready */
	double			 src_setup;	/* its connection set up at */
	double			 last_due[2];
	struct rt_delivery	*pending;
	struct rt_delivery	*held;		/* the target's unseen end */
	const char		*hid;
	/* figures, all seeds */
	unsigned long		 seeds, late, timeouts, resets, downs,
				 partitions, replaced, sessions_refused,
				 held_n, unset, breaks, refused,
				 nbd_breaks;
} T;

static int
in_partition(double t)
{
	return T.part_len > 0 && t >= T.part_at && t < T.part_at + T.part_len;
}

static int
net_down(double t)
{
	return T.down_len > 0 && t >= T.down_at && t < T.down_at + T.down_len;
}

static void	deliver_cb(struct ev_loop *, ev_timer *, int);

/*
 * Sends d to its side: after the link's delay, a late message's seconds,
 * the partition's end, and never before what was sent before it that way
 * (one connection keeps its order).  It runs on that side's loop, as the
 * proxy's callbacks do.
 */
static void
send_to(struct rt_delivery *d, struct ev_loop *loop, int late)
{
	double	 due = R.now + rng_range(&T.rng, 0.3, 1) * T.delay;
	int	 cur = R.cur;

	if (late) {
		due += rng_range(&T.rng, 1, 14);
		T.late++;
		T.hid = "a control message late";
	}
	if (in_partition(R.now) || in_partition(due))
		due = fmax(due, T.part_at + T.part_len + T.delay);
	due = fmax(due, T.last_due[d->to] + 1e-6);
	T.last_due[d->to] = due;
	d->next = T.pending;
	T.pending = d;
	ev_timer_init(&d->t, deliver_cb, due - R.now, 0);
	R.cur = d->to;
	world->timer_start(loop, &d->t);
	R.cur = cur;
}

static void
unpend(struct rt_delivery *d)
{
	struct rt_delivery **p;

	for (p = &T.pending; *p != NULL; p = &(*p)->next)
		if (*p == d) {
			*p = d->next;
			return;
		}
}

static void
free_delivery(struct rt_delivery *d)
{
	free(d->text);
	free(d);
}

/* What is on its way to side `to' goes with its process. */
static void
drop_pending(int to, int stop)
{
	struct rt_delivery **p = &T.pending, *d;

	while ((d = *p) != NULL) {
		if (d->to != to) {
			p = &d->next;
			continue;
		}
		*p = d->next;
		if (stop)
			world->timer_stop(NULL, &d->t);
		if (d == T.held)
			T.held = NULL;
		free_delivery(d);
	}
}

/*
 * The end of the target's connection, held while it owes an answer: the
 * proxy watches no connection it owes an answer on (proxy_rule_reads:
 * proxy_control_step wants no event), so it sees the peer's close or
 * reset once the answer is written, on its next loop turn.
 */
static void
release_held(struct mig_tls_target *tt)
{
	struct rt_delivery	*d = T.held;
	int			 cur = R.cur;

	T.held = NULL;
	ev_timer_init(&d->t, deliver_cb, 0, 0);
	R.cur = R_TGT;
	world->timer_start(tt->loop, &d->t);
	R.cur = cur;
}

/*
 * The source closes its connection: the target hears it, unless the
 * connection was opened in a partition and never set up (its SYN never
 * answered): then nothing of it reaches the target, its question neither.
 */
static void	send_close(int, unsigned, const char *, int);
static void
src_close(const char *why)
{
	struct rt_delivery **p = &T.pending, *d;

	if (R.now >= T.src_setup) {
		send_close(R_TGT, T.src_gen, why, 0);
		return;
	}
	T.unset++;
	r_trace(R_SRC, "tls: control connection closed before it was set up: "
	    "nothing of it reaches the target");
	while ((d = *p) != NULL) {
		if (d->to != R_TGT || d->gen != T.src_gen) {
			p = &d->next;
			continue;
		}
		*p = d->next;
		world->timer_stop(NULL, &d->t);
		free_delivery(d);
	}
}

/* An end of the connection gen, or a reset, on its way to side to. */
static void
send_close(int to, unsigned gen, const char *why, int at_once)
{
	struct rt_delivery	*d;
	struct ev_loop		*loop = to == R_SRC ? (T.src ? T.src->loop :
				    NULL) : (T.tgt ? T.tgt->loop : NULL);

	if (loop == NULL)
		return;
	d = xcalloc(1, sizeof *d);
	d->kind = RT_CLOSE;
	d->to = to;
	d->gen = gen;
	snprintf(d->reason, sizeof d->reason, "%s", why);
	if (at_once)	/* a reset: both ends see it now */
		T.last_due[to] = R.now;
	send_to(d, loop, 0);
}

/* Whether a migration stream runs through the proxies now. */
static int
stream_live(void)
{
	const char *s = wq_status(R.q[R_SRC]);

	if (!wq_alive(R.q[R_SRC]))
		return 0;
	if (strcmp(s, "completed") == 0)
		return wq_alive(R.q[R_TGT]) &&
		    strcmp(wq_runstate(R.q[R_TGT]), "inmigrate") == 0;
	return strcmp(s, "none") != 0 && strcmp(s, "failed") != 0 &&
	    strcmp(s, "cancelled") != 0;
}

static void
break_stream(const char *why)
{
	if (!stream_live())
		return;
	r_trace(-1, "tls: the stream breaks: %s", why);
	T.breaks++;
	T.hid = "the migration stream broken between the proxies";
	wq_break_stream(R.q[R_SRC]);
}

/*
 * A proxy that ends or dies, the network down, or a partition past the
 * dead-peer timeout: the stream breaks, and so do the disks' NBD
 * connections, which go through the same proxies (mig-tls.c's NBD
 * channel): the target's exports are then no longer in use.
 */
static void
break_data(const char *why)
{
	break_stream(why);
	if (wq_nbd_links(R.q[R_SRC]) == 0)
		return;
	r_trace(-1, "tls: the NBD connections break: %s", why);
	T.nbd_breaks++;
	wq_break_nbd(R.q[R_SRC]);
}

/* ---- the source's end ---------------------------------------------- */

/* The source's connection ended: its question gets the error. */
static void
src_lost(struct mig_tls_source *ts, const char *why)
{
	char *err;

	T.src_up = T.src_live = 0;
	world->timer_stop(ts->loop, &ts->deadline);
	ts->asking = 0;
	r_trace(R_SRC, "tls: control connection closed: %s", why);
	err = proxy_rule_lost(PEER, why);
	mig_tls_queue_answered(ts->questions, NULL, err);
	free(err);
}

static void
deadline_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct mig_tls_source	*ts = T.src;
	char			*why;

	(void)loop;
	(void)revents;
	if (ts == NULL || &ts->deadline != w || !T.src_up)
		return;
	T.timeouts++;
	T.hid = "a control question timed out";
	(void)proxy_rule_deadline(R.now < T.src_setup ? C_CONNECT : C_CONTROL,
	    ts->deadline_s, 0, &why);
	src_close("closed by the source");
	src_lost(ts, why);
	free(why);
}

/* Whether a connect to the target's proxy is answered. */
static int
can_connect(void)
{
	return T.tgt != NULL && !net_down(R.now) && !R.sd[R_TGT].done;
}

/*
 * The queue's next question (mig-tls.c send_question) as
 * proxy_source_control sends it: on the connection there is or a new one;
 * a connect refused is its error at once.
 */
static int
send_question(void *arg, json_object *msg, double timeout, char **cause)
{
	struct mig_tls_source	*ts = arg;
	struct rt_delivery	*d;
	char			*why;
	enum proxy_ask		 how;

	how = proxy_rule_ask(ts->asking, T.src_up, 0, ts->have_id);
	if (how == PROXY_ASK_BUSY)
		fatalx("sim: tls: mig-tls-queue.c asked twice at once");
	if (how == PROXY_ASK_OPEN_NEW) {
		ts->session = ++T.sessions;
		ts->have_id = 1;
	}
	if (how != PROXY_ASK_SEND && !can_connect() && !in_partition(R.now)) {
		T.refused++;
		r_trace(R_SRC, "tls: control connect refused");
		why = proxy_rule_connect_failed(PEER, "Connection refused");
		*cause = proxy_rule_lost(PEER, why);
		free(why);
		json_object_put(msg);
		return -1;
	}
	if (how != PROXY_ASK_SEND) {
		T.src_up = 1;
		T.src_live = 0;
		T.src_gen = ++T.gens;
		/* in a partition, set up once it heals (TCP's SYN again) */
		T.src_setup = in_partition(R.now) ? T.part_at + T.part_len +
		    T.delay : R.now;
	}
	ts->asking = 1;
	d = xcalloc(1, sizeof *d);
	d->kind = RT_MSG;
	d->to = R_TGT;
	d->gen = T.src_gen;
	d->session = ts->session;
	d->text = xstrdup(json_object_to_json_string_ext(msg,
	    JSON_C_TO_STRING_PLAIN));
	json_object_put(msg);
	r_trace(R_SRC, "tls: ask %s", d->text);
	if (T.tgt != NULL)
		send_to(d, T.tgt->loop, rng_chance(&T.rng, T.p_late));
	else
		free_delivery(d);	/* lost in the network */
	world->timer_stop(ts->loop, &ts->deadline);
	ts->deadline_s = proxy_rule_ask_deadline(timeout);
	if (ts->deadline_s > 0) {
		ev_timer_init(&ts->deadline, deadline_cb, ts->deadline_s, 0);
		world->timer_start(ts->loop, &ts->deadline);
	}
	return 0;
}

static struct mig_tls_source *
link_source_open(struct ev_loop *loop, const struct mig_options *o,
    const char *uid, char **qemu_uri, char **cause)
{
	struct mig_tls_source *ts = xcalloc(1, sizeof *ts);

	(void)o;
	(void)uid;
	(void)cause;
	ts->loop = loop;
	ts->questions = mig_tls_queue_new(send_question, ts);
	ev_timer_init(&ts->deadline, deadline_cb, 1, 0);
	T.src = ts;
	T.src_up = T.src_live = 0;
	*qemu_uri = xstrdup("unix:" SRC_SOCK);
	return ts;
}

static void
link_source_ask(struct mig_tls_source *ts, json_object *msg,
    double timeout, mig_tls_offer_cb cb, void *arg)
{
	mig_tls_queue_ask(ts->questions, msg, timeout, cb, arg);
}

/* The source's qmigrate ends: its proxy, stream and all, with it. */
static void
link_source_close(struct mig_tls_source *ts)
{
	if (ts == NULL)
		return;
	world->timer_stop(ts->loop, &ts->deadline);
	drop_pending(R_SRC, 1);
	if (T.src_up)
		src_close("the source's qmigrate ended");
	T.src_up = T.src_live = 0;
	T.src = NULL;
	break_data("the source's proxy ended");
	mig_tls_queue_free(ts->questions);
	free(ts);
}

static char *
link_nbd_uri(const struct mig_options *o, char **cause)
{
	(void)o;
	(void)cause;
	/* The proxies' NBD channel, one address for both ends: the world
	   links the source's NBD nodes to the target's server itself
	   (qemu-model-disks.c; its breaks are real-disks.c's). */
	return xstrdup("unix:/sim/tls.nbd");
}

static char *
link_source_nbd_uri(struct mig_tls_source *ts, const struct mig_options *o,
    char **cause)
{
	(void)ts;
	return link_nbd_uri(o, cause);
}

/* ---- the target's end ---------------------------------------------- */

static struct mig_tls_target *
link_target_open(struct ev_loop *loop, const struct mig_options *o,
    mig_tls_offer_cb cb, void *arg, char **qemu_uri, char **cause)
{
	struct mig_tls_target *tt = xcalloc(1, sizeof *tt);

	(void)o;
	(void)cause;
	tt->loop = loop;
	tt->cb = cb;
	tt->arg = arg;
	T.tgt = tt;
	T.tgt_up = T.tgt_live = 0;
	*qemu_uri = xstrdup("unix:" TGT_SOCK);
	return tt;
}

/* proxy_target_answer: only to a message that waits for one. */
static int
link_target_answer(struct mig_tls_target *tt, json_object *answer,
    char **cause)
{
	struct rt_delivery	*d;
	enum proxy_answer	 a;

	a = proxy_rule_answer(tt->awaiting && T.tgt_up, T.tgt_live,
	    proxy_msg_is_ready(answer));
	if (a == PROXY_ANSWER_NOT_OWED) {
		json_object_put(answer);
		*cause = xstrdup(PROXY_RULE_NOT_OWED);
		return -1;
	}
	tt->awaiting = 0;
	if (a == PROXY_ANSWER_LIVE)
		T.tgt_live = 1;
	if (T.held != NULL) {
		/* written after the peer's end: it never arrives */
		r_trace(R_TGT, "tls: answer %s, lost: the connection ended",
		    json_object_to_json_string_ext(answer,
		    JSON_C_TO_STRING_PLAIN));
		json_object_put(answer);
		release_held(tt);
		return 0;
	}
	d = xcalloc(1, sizeof *d);
	d->kind = RT_MSG;
	d->to = R_SRC;
	d->gen = T.tgt_gen;
	d->text = xstrdup(json_object_to_json_string_ext(answer,
	    JSON_C_TO_STRING_PLAIN));
	json_object_put(answer);
	r_trace(R_TGT, "tls: answer %s", d->text);
	if (T.src != NULL)
		send_to(d, T.src->loop, rng_chance(&T.rng, T.p_late));
	else
		free_delivery(d);
	return 0;
}

/* The target's qmigrate ends, or its session cuts the proxy (SA_CUT). */
static void
link_target_close(struct mig_tls_target *tt)
{
	if (tt == NULL)
		return;
	drop_pending(R_TGT, 1);
	if (T.tgt_up)
		send_close(R_SRC, T.tgt_gen, "closed by the target", 0);
	T.tgt_up = T.tgt_live = 0;
	T.tgt = NULL;
	break_data("the target's proxy ended");
	free(tt);
}

static char *
link_target_nbd_uri(struct mig_tls_target *tt, const struct mig_options *o,
    char **cause)
{
	(void)tt;
	return link_nbd_uri(o, cause);
}

/* ---- deliveries ---------------------------------------------------- */

/*
 * A message for the target; the first of a connection comes with its
 * header: the target opens its session, replaces the same session's old
 * connection, or refuses the new one (proxy_rule_open).
 */
static void
tgt_message(struct mig_tls_target *tt, struct rt_delivery *d)
{
	json_object	*msg;
	enum proxy_open	 how;

	if (d->gen < T.tgt_gen || (d->gen == T.tgt_gen && !T.tgt_up))
		return;		/* its connection is gone */
	if (d->gen > T.tgt_gen) {
		how = proxy_rule_open(T.tgt_up, d->session == T.tgt_session);
		if (how == PROXY_OPEN_REFUSE) {
			T.sessions_refused++;
			r_trace(R_TGT, "tls: control connection refused: %s",
			    PROXY_RULE_ONE_SESSION);
			/* closed with the message unread: a reset */
			send_close(R_SRC, d->gen, "Connection reset by peer",
			    0);
			return;
		}
		if (T.held != NULL) {	/* the old connection's end */
			unpend(T.held);
			free_delivery(T.held);
			T.held = NULL;
		}
		T.tgt_gen = d->gen;
		T.tgt_session = d->session;
		T.tgt_up = 1;
		T.tgt_live = tt->awaiting = 0;
		if (how == PROXY_OPEN_REPLACE) {
			/* the new connection is there when the owner hears
			   the old one end (proxy-target.c) */
			T.replaced++;
			r_trace(R_TGT, "tls: control connection replaced");
			tt->cb(NULL, PROXY_RULE_REPLACED, tt->arg);
			if ((tt = T.tgt) == NULL)
				return;
		}
	}
	/* The source asks one at a time: never a second message before the
	   answer on one connection. */
	if (!proxy_rule_reads(tt->awaiting))
		fatalx("sim: tls: a message while an answer is owed");
	if ((msg = json_tokener_parse(d->text)) == NULL)
		fatalx("sim: tls: unparsable message %s", d->text);
	tt->awaiting = 1;
	tt->cb(msg, NULL, tt->arg);
	json_object_put(msg);
}

/* An answer for the source: to its question, else the end. */
static void
src_answer(struct mig_tls_source *ts, struct rt_delivery *d)
{
	json_object		*answer;
	enum proxy_answer	 a;

	if (d->gen != T.src_gen || !T.src_up)
		return;
	if ((answer = json_tokener_parse(d->text)) == NULL)
		fatalx("sim: tls: unparsable answer %s", d->text);
	a = proxy_rule_answer(ts->asking, T.src_live,
	    proxy_msg_is_ready(answer));
	if (a == PROXY_ANSWER_NOT_OWED) {
		json_object_put(answer);
		send_close(R_TGT, T.src_gen, "closed by the source", 0);
		src_lost(ts, PROXY_RULE_UNEXPECTED);
		return;
	}
	if (a == PROXY_ANSWER_LIVE)
		T.src_live = 1;
	world->timer_stop(ts->loop, &ts->deadline);
	ts->asking = 0;
	mig_tls_queue_answered(ts->questions, answer, NULL);
	json_object_put(answer);
}

static void
deliver_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct rt_delivery *d = (struct rt_delivery *)w;

	(void)loop;
	(void)revents;
	unpend(d);
	if (d->kind == RT_CLOSE) {
		if (d->to == R_SRC && T.src != NULL && T.src_up &&
		    d->gen == T.src_gen)
			src_lost(T.src, d->reason);
		else if (d->to == R_TGT && T.tgt != NULL && T.tgt_up &&
		    d->gen == T.tgt_gen) {
			if (!proxy_rule_reads(T.tgt->awaiting)) {
				if (T.held == NULL) {
					T.held = d;
					T.held_n++;
					d->next = T.pending;
					T.pending = d;
					return;
				}
				free_delivery(d);	/* ended already */
				return;
			}
			T.tgt_up = T.tgt_live = T.tgt->awaiting = 0;
			r_trace(R_TGT, "tls: control connection closed: %s",
			    d->reason);
			T.tgt->cb(NULL, d->reason, T.tgt->arg);
		}
	} else if (d->to == R_TGT && T.tgt != NULL)
		tgt_message(T.tgt, d);
	else if (d->to == R_SRC && T.src != NULL)
		src_answer(T.src, d);
	free_delivery(d);
}

/* ---- the world's side ---------------------------------------------- */

static const struct mig_tls_link sim_link = {
	.source_open = link_source_open,
	.source_ask = link_source_ask,
	.source_close = link_source_close,
	.source_nbd_uri = link_source_nbd_uri,
	.target_open = link_target_open,
	.target_answer = link_target_answer,
	.target_close = link_target_close,
	.target_nbd_uri = link_target_nbd_uri,
};

void
rt_install(void)
{
	mig_tls_set(&sim_link);
}

/*
 * tls: in 40% of the seeds whose QEMU is the model (the stub has no
 * broken stream), from a stream of its own; then each of the link's
 * faults in some of them.
 */
void
rt_draw(int allowed)
{
	struct rng *g = &T.rng;

	memset(&T, 0, offsetof(struct rt_state, seeds));
	rng_seed(g, R.seed ^ 0x746c733a6c696e6bULL);
	T.on = allowed && rng_chance(g, 0.4);
	if (!T.on)
		return;
	T.seeds++;
	T.delay = rng_range(g, 0.0005, 0.05);
	if (rng_chance(g, 0.3))
		T.p_late = rng_range(g, 0.05, 0.3);
	if (rng_chance(g, 0.2)) {
		T.down_at = rng_range(g, 0, 60);
		T.down_len = rng_range(g, 0.5, 50);
	}
	if (rng_chance(g, 0.2))
		T.reset_at = rng_range(g, 0.01, 60);
	if (rng_chance(g, 0.2)) {
		T.part_at = rng_range(g, 0, 60);
		T.part_len = rng_range(g, 0.5, 50);
	}
}

int
rt_on(void)
{
	return T.on;
}

const char *
rt_uri(void)
{
	return "tls:" PEER;
}

/* The target QEMU's socket, whose path SA_UNLISTEN removes. */
const char *
rt_target_socket(void)
{
	return TGT_SOCK;
}

/*
 * The source QEMU's migrate to its proxy's socket reaches the target QEMU
 * only through a live session both ends hold, the network up, and the
 * target QEMU listening on the target proxy's socket.  The source proxy's
 * rule (proxy_rule_data_arrives): forwarded through a live session,
 * closed with none (what the world does here); held while one is set up,
 * which the world does not do (a refusal here too): the executor lets
 * QEMU connect only once its question was answered ready.
 */
struct wq *
rt_listener(const char *uri)
{
	if (strcmp(uri, "unix:" SRC_SOCK) != 0 || T.src == NULL ||
	    T.tgt == NULL ||
	    proxy_rule_data_arrives(T.src_live, T.src_up, 0) !=
	    PROXY_DATA_FORWARD ||
	    !proxy_rule_data_admitted(T.tgt_live, T.tgt_up, T.tgt_session ==
	    T.src->session) ||
	    net_down(R.now) || in_partition(R.now) ||
	    !wq_listens(R.q[R_TGT], "unix:" TGT_SOCK))
		return NULL;
	return R.q[R_TGT];
}

/* The next of the link's faults (INFINITY: none). */
double
rt_due(void)
{
	double t = INFINITY;

	if (!T.on)
		return t;
	if (T.down_len > 0 && !T.down_done)
		t = fmin(t, T.down_at);
	if (T.reset_at > 0 && !T.reset_done)
		t = fmin(t, T.reset_at);
	if (T.part_len > 0 && !T.part_done)
		t = fmin(t, T.part_at);
	if (T.part_len > DEAD_PEER && !T.part_dead)
		t = fmin(t, T.part_at + DEAD_PEER);
	return t;
}

/* Both ends' connections reset now (each hears it on its loop). */
static void
reset_both(const char *why)
{
	if (T.src_up)
		send_close(R_SRC, T.src_gen, why, 1);
	if (T.tgt_up)
		send_close(R_TGT, T.tgt_gen, why, 1);
}

void
rt_happen(void)
{
	if (!T.on)
		return;
	if (T.down_len > 0 && !T.down_done && T.down_at <= R.now) {
		T.down_done = 1;
		T.downs++;
		T.hid = "the network down";
		r_trace(-1, "tls: the network goes down for %.1f s",
		    T.down_len);
		reset_both("Connection reset by peer");
		break_data("the network down");
	}
	if (T.reset_at > 0 && !T.reset_done && T.reset_at <= R.now) {
		T.reset_done = 1;
		T.resets++;
		T.hid = "the control connection reset";
		r_trace(-1, "tls: the control connection is reset");
		reset_both("Connection reset by peer");
	}
	if (T.part_len > 0 && !T.part_done && T.part_at <= R.now) {
		T.part_done = 1;
		T.partitions++;
		T.hid = "a partition";
		r_trace(-1, "tls: a partition for %.1f s", T.part_len);
	}
	if (T.part_len > DEAD_PEER && !T.part_dead && T.part_at + DEAD_PEER <=
	    R.now) {
		T.part_dead = 1;
		break_data("no acknowledgement for 10 s (a partition)");
	}
}

/* A side's process is gone (SIGKILL, a fatal signal): its end closes. */
void
rt_side_gone(int side)
{
	if (!T.on)
		return;
	drop_pending(side, 0);	/* its timers went with it */
	if (side == R_SRC && T.src != NULL) {
		if (T.src_up)
			src_close("the source's qmigrate died");
		T.src = NULL;
		T.src_up = T.src_live = 0;
		break_data("the source's proxy died");
	} else if (side == R_TGT && T.tgt != NULL) {
		if (T.tgt_up)
			send_close(R_SRC, T.tgt_gen, "the target's qmigrate "
			    "died", 0);
		T.tgt = NULL;
		T.tgt_up = T.tgt_live = 0;
		break_data("the target's proxy died");
	}
}

/* What on the link hid an outcome from either side, or NULL. */
const char *
rt_hidden(void)
{
	return T.on ? T.hid : NULL;
}

void
rt_report(FILE *f)
{
	fprintf(f, "sim-real: tls: %lu schedules; late %lu, timeouts %lu, "
	    "resets %lu, network down %lu, partitions %lu, connections "
	    "replaced %lu, another session's refused %lu, ends unseen until "
	    "an answer %lu, never set up %lu, refused %lu, streams broken "
	    "%lu, NBD links broken %lu\n", T.seeds, T.late, T.timeouts,
	    T.resets, T.downs, T.partitions, T.replaced, T.sessions_refused,
	    T.held_n, T.unset, T.refused,
	    T.breaks, T.nbd_breaks);
}
