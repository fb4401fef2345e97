/*
 * real-switchover.c: `qmigrate switchover` in sim-real's world (issue 37;
 * docs/failures.md's switchover row).  An operator asks the source's
 * migrate to finish now, once or twice (the second 0-5 s after the
 * first), at a random moment, --pause, --postcopy or neither.  The
 * request goes the way cmd-switchover.c sends it: the document read for a
 * migration still running and a qmigrate driving it, the request file
 * beside it published by the real switchover_request_publish() through
 * the world's files (another pending: 5), SIGUSR2 to the migrate (one
 * still pending takes the second's place: signals do not queue), then
 * the document read every 100 ms for 40 s for the answer under the
 * request's id (Refused: 5; Started, or the migration Succeeded first:
 * 0; it ended otherwise: 3; no answer: 3), the request withdrawn if it
 * was not taken.  The asker is a process while it waits (the request
 * names it: a second asker tells a live one's request from a stale one).
 * The draws are a stream of their own.
 *
 * Properties:
 * S1 a request sent is taken: the migrate's document names its id
 *    (Accepted, Refused, Started) before the asker ends on no answer or
 *    on the migration's end, unless something kept the migrate from it
 *    while it waited: it was killed, it was stopped, a write of its
 *    document failed, its QEMU's monitor held an answer past 10 s, or
 *    its QEMU was killed;
 * S2 Started only while the source QEMU's migration was in pre-copy as
 *    far as qmigrate could know: QEMU had not said otherwise (a MIGRATION
 *    status past active, or STOP for the switchover) more than 1 s
 *    before the migrate wrote Started (the write attempted: a full disk
 *    delays only what the asker reads), with no answer of its monitor
 *    held (a held answer holds the events behind it).  A guest the
 *    operator paused stops for the switchover without a STOP, and 7.2
 *    says active all along: qmigrate cannot tell, and neither can S2.
 * Never both QEMUs run the guest, and migrate's exit as the migration
 * ends, are P1-P4 (real.c).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "switchover-request.h"
#include "world.h"
#include "real.h"

#define RS_MAX		2
#define RS_POLL		0.1
#define RS_TIMEOUT	40.0	/* cmd-switchover.c's default --timeout */
#define RS_FILE		"/sim/src.status"

enum rs_state { RS_NONE, RS_DUE, RS_SIGNAL, RS_WAIT, RS_DONE };

struct rs_request {
	enum rs_state	 state;
	double		 at;		/* next move */
	double		 deadline;
	enum sess_finish finish;
	char		 id[SWITCHOVER_ID_MAX];
	int		 rc;
	const char	*how;		/* what ended it */
	int		 started_seen;	/* S2: a write said Started (judged) */
	int		 started_bad;	/* S2: Started outside pre-copy */
	char		 bad_state[96];
	int		 src_runs;	/* the migrate's run it was sent to */
	/* what kept the migrate from answering while it waited (S1) */
	unsigned long	 fails_at_send;
	int		 killed_at_send;
	const char	*kept;
	int		 taken;		/* its id in the document since */
};

static struct {
	struct rng		 rng;
	struct rs_request	 rq[RS_MAX];
	int			 n;
	double			 left_precopy;	/* QEMU said so, 0: not */
	double			 held_at;	/* the source's held answer
						   came due, 0: not yet */
	char			 left_how[64];
	unsigned long		 asked;		/* all seeds */
	struct {
		const char	*how;
		int		 rc;
		unsigned long	 n;
	}			 ends[12];
} S;

void
rs_draw(void)
{
	static const enum sess_finish finishes[] = { FINISH_PAUSE,
	    FINISH_PAUSE, FINISH_AUTO, FINISH_POSTCOPY };
	struct rng	*g = &S.rng;
	int		 i;

	memset(S.rq, 0, sizeof S.rq);
	S.n = 0;
	S.left_precopy = 0;
	S.held_at = 0;
	rng_seed(g, R.seed ^ 0x73776974636876ULL);
	if (!rng_chance(g, 0.4))
		return;
	S.n = rng_chance(g, 0.3) ? 2 : 1;
	for (i = 0; i < S.n; i++) {
		struct rs_request *rq = &S.rq[i];

		rq->state = RS_DUE;
		/* the second at the same instant (two operators' scripts on
		   one trigger) or within 5 s */
		rq->at = i == 0 ? 0.2 + rng_range(g, 0, 40) :
		    S.rq[0].at + (rng_chance(g, 0.3) ? 0 : rng_range(g, 0, 5));
		rq->finish = finishes[rng_next(g) % 4];
		snprintf(rq->id, sizeof rq->id, "%d-%llu", 7000 + i,
		    (unsigned long long)(rng_next(g) % 1000000));
	}
}

/* Whether an asker waits now: the pid its request names runs. */
int
rs_asker_waits(void)
{
	int i;

	for (i = 0; i < S.n; i++)
		if (S.rq[i].state == RS_SIGNAL || S.rq[i].state == RS_WAIT)
			return 1;
	return 0;
}

double
rs_due(void)
{
	double	t = 1e300;
	int	i;

	for (i = 0; i < S.n; i++)
		if (S.rq[i].state != RS_DONE && S.rq[i].at < t)
			t = S.rq[i].at;
	return t;
}

static void
finish(struct rs_request *rq, int rc, const char *how)
{
	int i;

	rq->state = RS_DONE;
	rq->rc = rc;
	rq->how = how;
	for (i = 0; i < 12; i++)
		if (S.ends[i].how == NULL || S.ends[i].how == how) {
			S.ends[i].how = how;
			S.ends[i].rc = rc;
			S.ends[i].n++;
			break;
		}
	r_trace(R_SRC, "switchover %s: exit %d (%s)", rq->id, rc, how);
}

/* The source's document, parsed (NULL: none, or not JSON). */
static json_object *
document(void)
{
	const struct r_file *f = world_sim_file(RS_FILE);

	return f == NULL || f->data == NULL ? NULL :
	    json_tokener_parse(f->data);
}

/* cmd-switchover.c's refusals before anything is signalled: 1 if ended. */
static int
refused_first(struct rs_request *rq, json_object *doc)
{
	const char *phase = json_str_at(doc, "phase");

	if (doc == NULL) {
		finish(rq, QM_EXIT_CONTROL, "no document");
		return 1;
	}
	if (phase != NULL && (strcmp(phase, "Succeeded") == 0 ||
	    strcmp(phase, "Failed") == 0)) {
		finish(rq, QM_EXIT_CONTROL, "the migration had ended");
		return 1;
	}
	if (R.sd[R_SRC].done) {
		finish(rq, QM_EXIT_CONTROL, "no qmigrate drives it");
		return 1;
	}
	return 0;
}

/* The answer in doc under rq's id (cmd-switchover.c's answered()). */
static int
answered(struct rs_request *rq, json_object *doc)
{
	json_object	*sr = json_obj_at(doc, "switchoverRequest");
	const char	*status = json_str_at(sr, "status");
	const char	*their = json_str_at(sr, "requestId");
	const char	*phase = json_str_at(doc, "phase");

	if (their != NULL && strcmp(their, rq->id) == 0 && status != NULL) {
		if (strcmp(status, "Refused") == 0) {
			finish(rq, QM_EXIT_ABORTED, "refused");
			return 1;
		}
		if (strcmp(status, "Started") == 0) {
			finish(rq, QM_EXIT_OK, "started");
			return 1;
		}
	}
	if (phase != NULL && strcmp(phase, "Succeeded") == 0) {
		finish(rq, QM_EXIT_OK, "the migration completed first");
		return 1;
	}
	if (phase != NULL && strcmp(phase, "Failed") == 0) {
		finish(rq, QM_EXIT_CONTROL, "the migration ended first");
		return 1;
	}
	return 0;
}

/* What keeps the migrate from answering rq now, noted (S1). */
static void
watch(struct rs_request *rq)
{
	if (R.k.hold_k[R_SRC] > 0 && R.k.hold_len[R_SRC] > 10 &&
	    R.answers[R_SRC] >= R.k.hold_k[R_SRC] && S.held_at == 0)
		S.held_at = R.now;
	if (rq->kept != NULL)
		return;
	if (R.now < R.sd[R_SRC].stopped_until)
		rq->kept = "qmigrate stopped";
	else if (rp_write_fails(R_SRC) > rq->fails_at_send)
		rq->kept = "a write of its document failed";
	else if (R.qemu_killed[R_SRC] > rq->killed_at_send)
		rq->kept = "its QEMU killed";
	else if (S.held_at > 0 && S.held_at + R.k.hold_len[R_SRC] >
	    rq->deadline - RS_TIMEOUT)
		rq->kept = "its monitor's answer held";
	/* A dropped command's connection answers nothing more: the
	   migrate waits on it as on a held answer (seed 3012444: its
	   re-run re-attaching, 8 after 10 s). */
	else if (rm_muted(R_SRC, R.conn_gen[R_SRC]))
		rq->kept = "its monitor mute (a command dropped)";
}

static void
step(struct rs_request *rq)
{
	json_object	*doc;
	char		*cause = NULL, pending[SWITCHOVER_ID_MAX];

	switch (rq->state) {
	case RS_DUE:
		doc = document();
		if (refused_first(rq, doc)) {
			json_object_put(doc);
			return;
		}
		json_object_put(doc);
		S.asked++;
		r_trace(R_SRC, "switchover %s asked (%s)", rq->id,
		    switchover_finish_name(rq->finish));
		switch (switchover_request_publish(RS_FILE, rq->id, rq->finish,
		    pending, &cause)) {
		case -1:
			free(cause);
			finish(rq, QM_EXIT_CONTROL, "its request not written");
			return;
		case 1:
			finish(rq, QM_EXIT_ABORTED, "another request pending");
			return;
		}
		rq->state = RS_SIGNAL;
		/* FALLTHROUGH */
	case RS_SIGNAL:
		if (R.sd[R_SRC].done) {
			switchover_request_withdraw(RS_FILE, rq->id);
			finish(rq, QM_EXIT_CONTROL, "no qmigrate to signal");
			return;
		}
		/* A SIGUSR2 still pending takes this one's place (standard
		   signals do not queue); another signal is handled first. */
		if (R.sd[R_SRC].signal != 0 && R.sd[R_SRC].signal != SIGUSR2) {
			rq->at = R.now + 0.001;
			return;
		}
		R.sd[R_SRC].signal = SIGUSR2;
		R.sd[R_SRC].dirty = 1;
		rq->src_runs = R.sd[R_SRC].runs;
		rq->fails_at_send = rp_write_fails(R_SRC);
		rq->killed_at_send = R.qemu_killed[R_SRC];
		rq->state = RS_WAIT;
		rq->deadline = R.now + RS_TIMEOUT;
		rq->at = R.now + RS_POLL;
		return;
	case RS_WAIT:
		watch(rq);
		doc = document();
		if (doc != NULL && answered(rq, doc)) {
			/* one not taken must not block the next's */
			switchover_request_withdraw(RS_FILE, rq->id);
			json_object_put(doc);
			return;
		}
		json_object_put(doc);
		if (R.now >= rq->deadline) {
			switchover_request_withdraw(RS_FILE, rq->id);
			finish(rq, QM_EXIT_CONTROL, "no answer");
			return;
		}
		rq->at = R.now + RS_POLL;
		return;
	case RS_NONE:
	case RS_DONE:
		return;
	}
}

void
rs_happen(void)
{
	int i;

	for (i = 0; i < S.n; i++)
		if (S.rq[i].state != RS_DONE && S.rq[i].at <= R.now)
			step(&S.rq[i]);
}

/* An event the source QEMU wrote (rf_qemu_line): pre-copy left? */
void
rs_qemu_event(int which, const char *name, const char *status)
{
	const char *rs = wq_runstate(R.q[R_SRC]);

	if (which != R_SRC || S.left_precopy > 0)
		return;
	if ((strcmp(name, "MIGRATION") == 0 && strcmp(status, "setup") != 0 &&
	    strcmp(status, "active") != 0) || (strcmp(name, "STOP") == 0 &&
	    (strcmp(rs, "finish-migrate") == 0 ||
	    strcmp(rs, "postmigrate") == 0))) {
		S.left_precopy = R.now;
		snprintf(S.left_how, sizeof S.left_how, "%s %s at %.3f", name,
		    status, R.now);
	}
}

/* The source's document was just installed (data): the requests whose id
 * it holds are taken (S1). */
void
rs_doc_written(const char *path, const char *data)
{
	int i;

	if (strcmp(path, RS_FILE) != 0)
		return;
	for (i = 0; i < S.n; i++)
		if (S.rq[i].state == RS_WAIT && strstr(data, S.rq[i].id) != NULL)
			S.rq[i].taken = 1;
}

/*
 * The migrate writes its document (len bytes of data), whether the write
 * then fails or not: the first that says Started for a request still
 * waiting is held to what QEMU had said by now (S2).  That write is when
 * qmigrate decided; a full disk delays only when the asker sees it.
 */
void
rs_doc_attempted(const char *path, const char *data, size_t len)
{
	json_object	*doc, *sr;
	const char	*status, *their;
	char		*text;
	int		 i, bad;

	if (strcmp(path, RS_FILE) != 0)
		return;
	bad = S.left_precopy != 0 && R.now - S.left_precopy > 1 &&
	    !(R.k.hold_k[R_SRC] > 0 && R.answers[R_SRC] >= R.k.hold_k[R_SRC]);
	text = xmalloc(len + 1);
	memcpy(text, data, len);
	text[len] = '\0';
	for (i = 0; i < S.n; i++) {
		struct rs_request *rq = &S.rq[i];

		if (rq->state != RS_WAIT || rq->started_seen ||
		    strstr(text, rq->id) == NULL ||
		    (doc = json_tokener_parse(text)) == NULL)
			continue;
		sr = json_obj_at(doc, "switchoverRequest");
		status = json_str_at(sr, "status");
		their = json_str_at(sr, "requestId");
		if (status != NULL && their != NULL &&
		    strcmp(their, rq->id) == 0 &&
		    strcmp(status, "Started") == 0) {
			rq->started_seen = 1;
			rq->started_bad = bad;
			snprintf(rq->bad_state, sizeof rq->bad_state, "%s",
			    S.left_how);
		}
		json_object_put(doc);
	}
	free(text);
}

/* At the end: S1, S2. */
void
rs_check_end(void)
{
	int i;

	for (i = 0; i < S.n; i++) {
		const struct rs_request *rq = &S.rq[i];

		if (rq->state == RS_DONE && !rq->taken && (strcmp(rq->how,
		    "no answer") == 0 || strcmp(rq->how, "the migration "
		    "completed first") == 0 || strcmp(rq->how, "the migration "
		    "ended first") == 0)) {
			if (rq->kept != NULL || R.sd[R_SRC].runs != rq->src_runs)
				r_trace(R_SRC, "switchover %s unanswered: %s",
				    rq->id, rq->kept != NULL ? rq->kept :
				    "qmigrate SIGKILLed");
			else
				r_violation("S1: switchover request %s (%s) "
				    "never taken by a migrate that could (%s)",
				    rq->id, switchover_finish_name(rq->finish),
				    rq->how);
		}
		if (rq->started_bad)
			r_violation("S2: switchover request %s started after "
			    "the source QEMU said %s", rq->id, rq->bad_state);
	}
}

void
rs_report(FILE *f)
{
	int i;

	fprintf(f, "sim-real: switchover requests sent %lu; ended:", S.asked);
	for (i = 0; i < 12 && S.ends[i].how != NULL; i++)
		fprintf(f, "%s %s %d %lu", i > 0 ? "," : "", S.ends[i].how,
		    S.ends[i].rc, S.ends[i].n);
	fprintf(f, "\n");
}
