/*
 * exec.c: the executor's role, as src/mig-watch.c, src/mig-source.c and
 * src/mig-target.c play it: actions become operations on the models, and
 * what the models do comes back as session events.  The mapping follows
 * those files; each rule cites where it comes from.
 *
 * - mig_watch_step: an event that arrives while a step's actions run is
 *   queued and stepped after, in order (side_deliver).
 * - on_cmd_done (mig-watch.c:259-280): an answer is QMP_DONE ok=1, an
 *   error ok=0 with its text; a Timeout is QMP_DONE ok=0 then QMP_SILENT;
 *   a closed connection is QMP_DONE ok=0 ("Closed").
 * - on_query (:181-210): a sample; a Timeout is QMP_SILENT; a close is
 *   nothing.  on_run_state (:227-247): RUN_STATE; Timeout QMP_SILENT.
 * - send_cmd (:330-360): not connected is QMP_DONE ok=0 at once (queued).
 * - qmp_end (qmp/qmp-conn.c:196-226): every pending command fails
 *   "Closed" in order, then the close callback: QMP_CLOSED (on_close,
 *   mig-watch.c:650-662), unless qmigrate closed it itself (reconnect()).
 * - reconnect (:425-443): close, connect; refused at once is QMP_CLOSED,
 *   else qmp_capabilities' answer is QMP_UP or QMP_CLOSED (a handshake
 *   that times out after 10 s).
 * - the poll timer every 0.5 s and a MIGRATION event poll (:600-615,
 *   :683), one query-migrate at a time.
 * - jobs: no disks here, so the source's and the target's disk jobs end
 *   at once as mig-source.c:870 and mig-target.c:435 do with no disks;
 *   the target's SJ_PREPARE_TARGET is its migrate-incoming through the
 *   monitor (mig-target.c:225-235, a job: a failed, timed out or closed
 *   command fails it).
 * - tls: questions go one at a time (mig-tls.c:180-200); WATCH and ABORT
 *   wait 10 s, OFFER 60 s, COMPLETED and RESUME forever (mig-source.c
 *   source_ask); a question that times out closes the control connection
 *   (proxy-conn.c conn_deadline_cb); a question whose connection ends gets
 *   ANSWER_UNKNOWN (mig-source.c:828); the target learns the end as
 *   SEV_CONTROL_LOST (mig-target.c:360-366); the next question opens a new
 *   control connection (proxy-source.c:339-370).  The source never gets
 *   SEV_CONTROL_LOST from its executor: only ANSWER_UNKNOWN.
 *
 * Simplified: the source's setup is one step after the connection (its
 * inspect, pre-flight and plan jobs are not modelled command by command:
 * the setup fails when the monitor is not there), the offer carries no
 * version (never refused for it), and disks are not modelled.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "sim.h"

#define CMD_TIMEOUT	10.0	/* MIG_JOB_CMD_TIMEOUT */
#define POLL_SECONDS	0.5

static const char *ev_names[] = {
	"SETUP_DONE", "JOB_DONE", "QMP_DONE", "QMP_SILENT", "QMP_UP",
	"SAMPLE", "RUN_STATE", "RESUMED", "QMP_CLOSED", "CONTROL", "ANSWER",
	"CONTROL_LOST", "SIGNAL", "DEADLINE", "TIMER",
};
static const char *act_names[] = {
	"QMP", "POLL", "QUERY_STATUS", "JOB", "ASK", "ANSWER", "TIMER", "CUT",
	"UNLISTEN", "RECONNECT", "LOG", "FINISH", "ST_PHASE", "ST_MODE",
	"ST_ABORT", "ST_ABORT_REQUESTED", "ST_FAILURE", "ST_CLEAR_FAILURE",
	"ST_NOTE", "ST_PROGRESS", "ST_DECISION", "ST_PUBLISH",
};
static const char *cmd_names[] = {
	[SC_MIGRATE] = "migrate", [SC_MIGRATE_RESUME] = "migrate-resume",
	[SC_MIGRATE_RECOVER] = "migrate-recover", [SC_CANCEL] = "migrate_cancel",
	[SC_CONT] = "cont", [SC_STOP] = "stop",
	[SC_START_POSTCOPY] = "migrate-start-postcopy",
	[SC_SET_DOWNTIME] = "set-downtime", [SC_AUTO_CONVERGE] = "auto-converge",
	[SC_QUIT] = "quit", [SC_DIRTY_LIMIT] = "dirty-limit",
	[SC_DIRTY_LIMIT_NOW] = "set-vcpu-dirty-limit",
};
static const char *q_names[] = {
	"unknown", "offer", "watch", "resume", "abort", "completed",
};
static const char *a_names[] = {
	[ANSWER_UNKNOWN] = "unknown", [ANSWER_READY] = "ready",
	[ANSWER_REFUSED] = "refused", [ANSWER_OK] = "ok",
	[ANSWER_ABORT] = "abort", [ANSWER_RUNNING] = "running",
	[ANSWER_FENCED] = "fenced", [ANSWER_NOT_KNOWN] = "not-known",
};

const char *
ev_name(enum sess_ev_kind k)
{
	return (size_t)k < NITEMS(ev_names) ? ev_names[k] : "?";
}

const char *
act_name(enum sess_act_kind k)
{
	return (size_t)k < NITEMS(act_names) ? act_names[k] : "?";
}

static const char *
cmd_name(enum sess_cmd c)
{
	return (size_t)c < NITEMS(cmd_names) ? cmd_names[c] : "?";
}

static const char *
qname(enum control_type t)
{
	return (size_t)t < NITEMS(q_names) ? q_names[t] : "?";
}

static const char *
aname(enum control_answer a)
{
	return (size_t)a < NITEMS(a_names) ? a_names[a] : "?";
}

static const char *
side_name(int role)
{
	return role == SRC ? "source" : "target";
}

/* ---- stepping ------------------------------------------------------ */

static void	execute(struct world *, int, const struct sess_action *);

static void
trace_event(struct world *w, int role, const struct sess_event *ev)
{
	if (!w->trace)
		return;
	switch (ev->kind) {
	case SEV_QMP_DONE:
		trace(w, role, "ev QMP_DONE %s ok=%d %s", cmd_name(ev->cmd),
		    ev->ok, ev->reason != NULL ? ev->reason : "");
		break;
	case SEV_SAMPLE:
		trace(w, role, "ev SAMPLE %s remaining=%llu", ev->mi->status_name,
		    (unsigned long long)ev->mi->ram_remaining);
		break;
	case SEV_RUN_STATE:
		trace(w, role, "ev RUN_STATE %s", ev->ri->state_name);
		break;
	case SEV_CONTROL:
		trace(w, role, "ev CONTROL %s", qname(ev->msg->type));
		break;
	case SEV_ANSWER:
		trace(w, role, "ev ANSWER %s -> %s %s", qname(ev->question),
		    aname(ev->answer), ev->reason != NULL ? ev->reason : "");
		break;
	case SEV_TIMER:
		trace(w, role, "ev TIMER %d", ev->timer);
		break;
	case SEV_SETUP_DONE:
		trace(w, role, "ev SETUP_DONE setup=%d ok=%d %s", ev->setup,
		    ev->ok, ev->reason != NULL ? ev->reason : "");
		break;
	case SEV_JOB_DONE:
		trace(w, role, "ev JOB_DONE job=%d ok=%d", ev->job, ev->ok);
		break;
	default:
		trace(w, role, "ev %s %s", ev_name(ev->kind), ev->reason != NULL ?
		    ev->reason : "");
		break;
	}
}

static void
step_one(struct world *w, int role, const struct sess_event *ev)
{
	struct side		*sd = &w->sd[role];
	struct sess_action	 acts[SESS_MAX_ACTIONS];
	size_t			 i, n;
	enum sess_state		 before = sd->sess.state;

	trace_event(w, role, ev);
	session_step(&sd->sess, ev);
	w->steps++;
	w->visited[role] |= 1u << sd->sess.state;
	n = sd->sess.nacts;
	memcpy(acts, sd->sess.acts, n * sizeof acts[0]);
	if (sd->sess.overflow > 0)
		violation(w, V_OVERFLOW, "%s: %zu actions dropped in one step",
		    side_name(role), sd->sess.overflow);
	/*
	 * The status file, as status_release() writes it after the step;
	 * not during the source's setup (mig-source.c holds the document
	 * until it knows the migration's identity: a re-run's signal in
	 * its setup leaves the record as it was).
	 */
	if (role == SRC && !sd->keep_doc && !(before == SS_SETUP &&
	    sd->sess.state == SS_SETUP)) {
		sd->doc.exists = 1;
		sd->doc.phase = sd->sess.phase;
		sd->doc.mode = sd->sess.mode;
		sd->doc.failure = sd->sess.failure;
		sd->doc.abort = sd->sess.abort;
		sd->doc.abort_requested = sd->sess.abort_requested;
	}
	if (w->trace && before != sd->sess.state)
		trace(w, role, "   state %d -> %d", before, sd->sess.state);
	for (i = 0; i < n && sd->alive; i++)
		execute(w, role, &acts[i]);
}

/* mig_watch_step(): nested events wait for the step to end. */
void
side_deliver(struct world *w, int role, const struct sess_event *ev)
{
	struct side		*sd = &w->sd[role];
	struct sess_event	 e;
	int			 i;

	if (!sd->alive || sd->finished)
		return;
	if (sd->stepping) {
		if (sd->nq == (int)NITEMS(sd->queue)) {
			trace(w, role, "event %s dropped (queue full)",
			    ev_name(ev->kind));
			return;
		}
		i = sd->nq++;
		sd->queue[i] = *ev;
		if (ev->mi != NULL) {
			sd->qmi[i] = *ev->mi;
			sd->queue[i].mi = NULL;
		}
		if (ev->ri != NULL) {
			sd->qri[i] = *ev->ri;
			sd->queue[i].ri = NULL;
		}
		if (ev->msg != NULL) {
			sd->qmsg[i] = *ev->msg;
			sd->queue[i].msg = NULL;
		}
		snprintf(sd->qreason[i], sizeof sd->qreason[i], "%s",
		    ev->reason != NULL ? ev->reason : "");
		sd->qflags[i] = (ev->mi != NULL) | (ev->ri != NULL) << 1 |
		    (ev->msg != NULL) << 2 | (ev->reason != NULL) << 3;
		return;
	}
	sd->stepping = 1;
	step_one(w, role, ev);
	while (sd->nq > 0 && sd->alive) {
		struct mig_info		mi = sd->qmi[0];
		struct run_info		ri = sd->qri[0];
		struct control_msg	msg = sd->qmsg[0];
		char			reason[128];
		int			flags = sd->qflags[0];

		e = sd->queue[0];
		snprintf(reason, sizeof reason, "%s", sd->qreason[0]);
		sd->nq--;
		memmove(&sd->queue[0], &sd->queue[1], sd->nq *
		    sizeof sd->queue[0]);
		memmove(&sd->qmi[0], &sd->qmi[1], sd->nq * sizeof sd->qmi[0]);
		memmove(&sd->qri[0], &sd->qri[1], sd->nq * sizeof sd->qri[0]);
		memmove(&sd->qmsg[0], &sd->qmsg[1], sd->nq *
		    sizeof sd->qmsg[0]);
		memmove(&sd->qreason[0], &sd->qreason[1], sd->nq *
		    sizeof sd->qreason[0]);
		memmove(&sd->qflags[0], &sd->qflags[1], sd->nq *
		    sizeof sd->qflags[0]);
		e.mi = flags & 1 ? &mi : NULL;
		e.ri = flags & 2 ? &ri : NULL;
		e.msg = flags & 4 ? &msg : NULL;
		e.reason = flags & 8 ? reason : NULL;
		if (sd->finished)
			break;
		step_one(w, role, &e);
	}
	sd->nq = 0;
	sd->stepping = 0;
}

static void
deliver_simple(struct world *w, int role, enum sess_ev_kind kind,
    const char *reason)
{
	struct sess_event ev;

	memset(&ev, 0, sizeof ev);
	ev.kind = kind;
	ev.t = w->now;
	ev.reason = reason;
	/*
	 * mig_watch_qemu_gone(): the executor knows QEMU's process exited
	 * only when it learnt its pid from the socket (no relay in front).
	 */
	if (kind == SEV_QMP_CLOSED)
		ev.qemu_gone = !w->q[role].alive && !w->k.relay[role];
	if (kind == SEV_QMP_CLOSED || kind == SEV_QMP_SILENT)
		w->saw |= role == TGT ? SAW_TGT_MON_LOST : SAW_SRC_MON_LOST;
	if (kind == SEV_DEADLINE && role == TGT && !w->sd[TGT].sess.started)
		w->saw |= SAW_TGT_DEADLINE_EARLY;
	side_deliver(w, role, &ev);
}

/* ---- the monitor --------------------------------------------------- */

static struct pcmd *
pc_find(struct world *w, int role, uint64_t id)
{
	int i;

	for (i = 0; i < MAX_PCMD; i++)
		if (w->pc[role][i].used && w->pc[role][i].id == id)
			return &w->pc[role][i];
	return NULL;
}

static void
job_done(struct world *w, int role, enum sess_job job, int ok,
    const char *reason)
{
	struct sess_event ev;

	memset(&ev, 0, sizeof ev);
	ev.kind = SEV_JOB_DONE;
	ev.t = w->now;
	ev.job = job;
	ev.ok = ok;
	ev.fail = ok ? FAIL_NONE : FAIL_CONTROL;
	ev.reason = reason;
	side_deliver(w, role, &ev);
}

static void
qmp_done(struct world *w, int role, enum sess_cmd cmd, int ok,
    const char *reason)
{
	struct sess_event	ev;

	int noanswer;

	/* No answer (a timeout, a closed connection), not a refusal. */
	noanswer = !ok && reason != NULL && (strstr(reason, "no reply") !=
	    NULL || strstr(reason, "losed") != NULL);
	if (noanswer) {
		if (role == TGT && cmd == SC_CONT)
			w->saw |= SAW_TGT_CONT_LOST;
		if (role == SRC && cmd == SC_MIGRATE)
			w->saw |= SAW_SRC_MIGRATE_LOST;
		if (role == SRC && cmd == SC_START_POSTCOPY)
			w->saw |= SAW_POSTCOPY_LOST;
		if (role == SRC && cmd == SC_CANCEL)
			w->saw |= SAW_CANCEL_LOST;
		if (role == SRC && cmd == SC_CONT)
			w->saw |= SAW_SRC_CONT_LOST;
	}

	memset(&ev, 0, sizeof ev);
	ev.kind = SEV_QMP_DONE;
	ev.t = w->now;
	ev.cmd = cmd;
	ev.ok = ok;
	/*
	 * on_cmd_done: Timeout and Closed are no answer, any other error a
	 * refusal; send_cmd's "not connected" is no answer too.
	 */
	ev.outcome = ok ? SO_ANSWERED : noanswer ? SO_NO_ANSWER : SO_REFUSED;
	ev.reason = reason;
	side_deliver(w, role, &ev);
}

/* A command leaves for QEMU; the seed decides its fate. */
static void
send_pc(struct world *w, int role, enum pc_kind kind, enum sess_cmd cmd,
    enum sess_job job)
{
	struct side	*sd = &w->sd[role];
	struct pcmd	*pc = NULL;
	struct hap	 h;
	double		 exec_at, answer_at, hold;
	int		 i, hold_cmd;

	if (!sd->conn_up) {
		/* send_cmd(): "not connected", at once (queued). */
		if (kind == PC_SESS)
			qmp_done(w, role, cmd, 0, "connection closed");
		else if (kind == PC_JOB)
			job_done(w, role, job, 0, "not connected to QEMU");
		return;
	}
	for (i = 0; i < MAX_PCMD; i++)
		if (!w->pc[role][i].used) {
			pc = &w->pc[role][i];
			break;
		}
	if (pc == NULL) {
		trace(w, role, "too many commands in flight");
		return;
	}
	memset(pc, 0, sizeof *pc);
	pc->used = 1;
	pc->kind = kind;
	pc->cmd = cmd;
	pc->job = job;
	pc->conn_gen = w->conn_gen[role];
	pc->run = sd->run;
	pc->id = ++w->ids;
	if (kind == PC_QUERY) {
		sd->query_inflight = 1;
		pc->asked = w->now;
		/* mig-target.c reads the queue as the query leaves. */
		if (role == TGT && w->q[TGT].unlistened && !sim_blind_queue)
			pc->queued = w->q[TGT].accept_queued;
	}
	if (kind == PC_SESS && rng_chance(&w->rng, w->k.p_cut_after_cmd[role]))
		sched_in(w, rng_range(&w->rng, 0, 30), H_CUT, role, 0, 0);
	exec_at = answer_at = w->now + rng_range(&w->rng, 0.2, 1.0) *
	    w->k.answer_delay;
	/* The session's own commands are the relay's targets. */
	hold_cmd = kind == PC_SESS || kind == PC_JOB ||
	    rng_chance(&w->rng, 0.05);
	if (hold_cmd && rng_chance(&w->rng, w->k.p_drop[role])) {
		fault(w, F_DROP, role, kind == PC_SESS ? cmd_name(cmd) :
		    "a query");
		pc->executed = -1;	/* never reaches QEMU */
		sched_in(w, CMD_TIMEOUT, H_QMP_TIMEOUT, role, pc->id, 0);
		return;
	}
	if (hold_cmd && rng_chance(&w->rng, w->k.p_hold[role])) {
		hold = rng_range(&w->rng, CMD_TIMEOUT + 0.2, CMD_TIMEOUT + 8);
		fault(w, F_HOLD, role, kind == PC_SESS ? cmd_name(cmd) :
		    "a query");
		/* qmp-relay --hold: QEMU gets it late; or QEMU was slow. */
		if (rng_chance(&w->rng, 0.7))
			exec_at = answer_at = w->now + hold;
		else
			answer_at = w->now + hold;
	} else if (hold_cmd && rng_chance(&w->rng, w->k.p_hold_short[role])) {
		hold = rng_range(&w->rng, 0.5, CMD_TIMEOUT - 0.2);
		fault(w, F_HOLD_SHORT, role, kind == PC_SESS ? cmd_name(cmd) :
		    "a query");
		exec_at = answer_at = w->now + hold;
	}
	/*
	 * One connection, one queue: QEMU (and qmp-relay's --hold) takes
	 * the commands in order, so a held one holds those behind it.
	 */
	if (w->mon_gen[role] != w->conn_gen[role]) {
		w->mon_gen[role] = w->conn_gen[role];
		w->mon_busy[role] = 0;
	}
	if (exec_at < w->mon_busy[role]) {
		answer_at += w->mon_busy[role] - exec_at;
		exec_at = w->mon_busy[role];
	}
	w->mon_busy[role] = answer_at;
	if (w->trace)
		trace(w, role, "qmp -> %s", kind == PC_SESS ? cmd_name(cmd) :
		    kind == PC_QUERY ? "query-migrate" : kind == PC_STATUS ?
		    "query-status" : "migrate-incoming (job)");
	sched_in(w, CMD_TIMEOUT, H_QMP_TIMEOUT, role, pc->id, 0);
	memset(&h, 0, sizeof h);
	h.kind = H_QMP_EXEC;
	h.side = role;
	h.gen = pc->id;
	h.x = answer_at - exec_at;
	sched(w, exec_at, &h);
}

static void
answer_pc(struct world *w, int role, struct pcmd *pc)
{
	struct sess_event	ev;
	struct side		*sd = &w->sd[role];

	pc->done = 1;
	if (pc->run != sd->run)
		return;
	memset(&ev, 0, sizeof ev);
	ev.t = w->now;
	switch (pc->kind) {
	case PC_SESS:
		qmp_done(w, role, pc->cmd, pc->ok, pc->ok ? NULL : pc->err);
		break;
	case PC_QUERY:
		sd->query_inflight = 0;
		ev.kind = SEV_SAMPLE;
		ev.mi = &pc->mi;
		ev.asked = pc->asked;
		ev.queued = pc->queued;
		side_deliver(w, role, &ev);
		break;
	case PC_STATUS:
		ev.kind = SEV_RUN_STATE;
		ev.ri = &pc->ri;
		side_deliver(w, role, &ev);
		break;
	case PC_JOB:
		job_done(w, role, pc->job, pc->ok, pc->ok ? NULL : pc->err);
		break;
	}
}

static void
timeout_pc(struct world *w, int role, struct pcmd *pc)
{
	struct side	*sd = &w->sd[role];
	const char	*why = "no reply within 10 s";

	pc->done = 1;
	if (pc->run != sd->run || pc->conn_gen != w->conn_gen[role])
		return;
	w->trouble[role] = 1;
	switch (pc->kind) {
	case PC_SESS:
		qmp_done(w, role, pc->cmd, 0, why);
		deliver_simple(w, role, SEV_QMP_SILENT, why);
		break;
	case PC_QUERY:
		sd->query_inflight = 0;
		deliver_simple(w, role, SEV_QMP_SILENT, why);
		break;
	case PC_STATUS:
		deliver_simple(w, role, SEV_QMP_SILENT, why);
		break;
	case PC_JOB:
		job_done(w, role, pc->job, 0, why);
		break;
	}
}

/* qmp_end(): every pending command fails "Closed", in order. */
static void
close_pending(struct world *w, int role)
{
	struct side	*sd = &w->sd[role];
	struct pcmd	*pc;
	int		 i;

	sd->query_inflight = 0;
	for (i = 0; i < MAX_PCMD; i++) {
		pc = &w->pc[role][i];
		if (!pc->used || pc->done || pc->conn_gen != w->conn_gen[role] ||
		    pc->run != sd->run)
			continue;
		pc->done = 1;
		if (pc->kind == PC_SESS)
			qmp_done(w, role, pc->cmd, 0, "Closed");
		else if (pc->kind == PC_JOB)
			job_done(w, role, pc->job, 0, "Closed");
	}
}

/* The connection ended from QEMU's side (a cut, QEMU gone). */
void
monitor_closed(struct world *w, int role, const char *why)
{
	struct side *sd = &w->sd[role];

	if (sd->connecting && sd->alive && !sd->finished) {
		/* QEMU went during the handshake: the connect fails. */
		w->conn_gen[role]++;
		w->trouble[role] = 1;
		if (sd->connecting == 2) {
			sd->connecting = 0;
			deliver_simple(w, role, SEV_QMP_CLOSED, why);
		} else {
			sd->connecting = 0;
			sched_in(w, 0.001, H_SETUP, role, (uint64_t)sd->run, 0);
		}
		return;
	}
	if (!sd->conn_up || !sd->alive || sd->finished) {
		w->conn_gen[role]++;
		sd->conn_up = 0;
		return;
	}
	sd->conn_up = 0;
	w->trouble[role] = 1;
	trace(w, role, "monitor closed: %s", why);
	close_pending(w, role);
	w->conn_gen[role]++;
	deliver_simple(w, role, SEV_QMP_CLOSED, why);
}

/* Connects to the monitor (setup or SA_RECONNECT). */
static void
connect_monitor(struct world *w, int role, int reconnect)
{
	struct side	*sd = &w->sd[role];
	struct qemu	*q = &w->q[role];

	if (sd->conn_up) {
		/* reconnect(): qmp_close, quietly, then connect. */
		close_pending(w, role);
		sd->conn_up = 0;
	}
	w->conn_gen[role]++;
	sd->connecting = reconnect ? 2 : 1;
	if (!q->alive || w->now < q->refuse_until) {
		sd->connecting = 0;
		w->trouble[role] = 1;
		if (reconnect)
			deliver_simple(w, role, SEV_QMP_CLOSED,
			    "Connection refused");
		else
			sd->connect_failed = 1;
		if (!reconnect)
			sched_in(w, 0.001, H_SETUP, role, (uint64_t)sd->run, 0);
		return;
	}
	if (q->stopped) {
		w->trouble[role] = 1;
		sched_in(w, CMD_TIMEOUT, H_CONNECT_TIMEOUT, role,
		    (uint64_t)w->conn_gen[role], 0);
		return;
	}
	sched_in(w, 0.005, H_CONNECTED, role, (uint64_t)w->conn_gen[role], 0);
}

static void
poll_now(struct world *w, int role)
{
	struct side *sd = &w->sd[role];

	if (sd->query_inflight || !sd->conn_up || sd->finished || !sd->alive)
		return;
	send_pc(w, role, PC_QUERY, 0, 0);
}

/* ---- the control link (tls:) --------------------------------------- */

static void link_send_next(struct world *);

static void
answer_unknown(struct world *w, enum control_type type, const char *why)
{
	struct sess_event ev;

	memset(&ev, 0, sizeof ev);
	ev.kind = SEV_ANSWER;
	ev.t = w->now;
	ev.question = type;
	ev.answer = ANSWER_UNKNOWN;
	ev.reason = why;
	side_deliver(w, SRC, &ev);
}

static void
pop_question(struct link *ln)
{
	ln->nq--;
	memmove(&ln->queue[0], &ln->queue[1], ln->nq * sizeof ln->queue[0]);
	ln->asked = 0;
}

void
link_ctl_lost(struct world *w, const char *why)
{
	struct link		*ln = &w->ln;
	enum control_type	 type;

	if (!ln->ctl_up)
		return;
	ln->ctl_up = 0;
	ln->ctl_gen++;
	trace(w, -1, "control connection lost: %s", why);
	if (ln->asked) {
		type = ln->queue[0].type;
		pop_question(ln);
		answer_unknown(w, type, why);
	}
	deliver_simple(w, TGT, SEV_CONTROL_LOST, why);
	link_send_next(w);
}

/*
 * A process that ends closes its connection after what it wrote: the
 * messages on their way arrive first (a network that goes down is
 * link_ctl_lost(), at once).
 */
void
link_ctl_close(struct world *w, const char *why)
{
	struct hap h;

	if (!w->ln.ctl_up)
		return;
	memset(&h, 0, sizeof h);
	h.kind = H_CTL_CLOSE;
	h.gen = (uint64_t)w->ln.ctl_gen;
	snprintf(h.reason, sizeof h.reason, "%s", why);
	sched(w, (w->ln.inflight_until > w->now ? w->ln.inflight_until :
	    w->now) + 0.0005, &h);
}

static int
link_can_connect(const struct world *w)
{
	return w->now >= w->ln.refuse_until && !w->ln.cut &&
	    w->sd[TGT].alive && !w->sd[TGT].finished;
}

static void
link_send_next(struct world *w)
{
	struct link	*ln = &w->ln;
	struct hap	 h;
	double		 d;

	while (!ln->asked && ln->nq > 0) {
		if (!w->sd[SRC].alive || w->sd[SRC].finished) {
			ln->nq = 0;
			return;
		}
		if (!ln->ctl_up) {
			if (!link_can_connect(w)) {
				enum control_type type = ln->queue[0].type;

				pop_question(ln);
				answer_unknown(w, type, "control connection: "
				    "Connection refused");
				continue;
			}
			ln->ctl_up = 1;
			ln->ctl_gen++;
		}
		ln->asked = 1;
		ln->asked_gen = ++w->ids;
		d = rng_range(&w->rng, 0.3, 1) * w->k.link_delay;
		if (rng_chance(&w->rng, w->k.p_answer_late)) {
			fault(w, F_ANSWER_LATE, SRC, qname(ln->queue[0].type));
			d += rng_range(&w->rng, 1, 14);
		}
		memset(&h, 0, sizeof h);
		h.kind = H_CTL_DELIVER;
		h.side = TGT;
		h.gen = (uint64_t)ln->ctl_gen;
		h.a = ln->queue[0].type;
		h.b = ln->queue[0].postcopy;
		snprintf(h.reason, sizeof h.reason, "%s", ln->queue[0].reason);
		sched(w, w->now + d, &h);
		if (w->now + d > ln->inflight_until)
			ln->inflight_until = w->now + d;
		if (ln->queue[0].timeout > 0)
			sched_in(w, ln->queue[0].timeout, H_CTL_TIMEOUT, SRC,
			    ln->asked_gen, 0);
		trace(w, SRC, "ask %s", qname(ln->queue[0].type));
	}
}

static void
source_ask(struct world *w, const struct sess_action *a)
{
	struct link	*ln = &w->ln;
	struct question	*q;

	if (ln->nq == (int)NITEMS(ln->queue)) {
		trace(w, SRC, "question queue full");
		return;
	}
	q = &ln->queue[ln->nq++];
	memset(q, 0, sizeof *q);
	q->type = a->question;
	q->postcopy = a->value2;
	snprintf(q->reason, sizeof q->reason, "%s", a->reason);
	/* mig-source.c source_ask(): the timeouts. */
	q->timeout = a->question == CONTROL_OFFER ? 60 :
	    a->question == CONTROL_RESUME || a->question ==
	    CONTROL_COMPLETED ? 0 : 10;
	link_send_next(w);
}

static void
target_answer(struct world *w, const struct sess_action *a)
{
	struct hap	h;
	double		d;

	if (!w->k.tls)
		return;
	trace(w, TGT, "answer %s %s", aname(a->answer), a->reason);
	if (a->answer == ANSWER_FENCED)
		w->saw |= SAW_ANSWER_FAILED;
	if (!w->ln.ctl_up)
		return;		/* mig_tls_target_answer fails: logged */
	d = rng_range(&w->rng, 0.3, 1) * w->k.link_delay;
	if (rng_chance(&w->rng, w->k.p_answer_late)) {
		fault(w, F_ANSWER_LATE, TGT, aname(a->answer));
		d += rng_range(&w->rng, 1, 14);
	}
	memset(&h, 0, sizeof h);
	h.kind = H_CTL_ANSWER;
	h.side = SRC;
	h.gen = (uint64_t)w->ln.ctl_gen;
	h.answer = a->answer;
	snprintf(h.reason, sizeof h.reason, "%s", a->reason);
	sched(w, w->now + d, &h);
	if (w->now + d > w->ln.inflight_until)
		w->ln.inflight_until = w->now + d;
}

static void
ctl_deliver(struct world *w, const struct hap *h)
{
	struct control_msg	m;
	struct sess_event	ev;

	if (h->gen != (uint64_t)w->ln.ctl_gen || !w->ln.ctl_up)
		return;		/* lost with its connection */
	memset(&m, 0, sizeof m);
	m.type = (enum control_type)h->a;
	m.postcopy = h->b;	/* mig-control.c: always said */
	snprintf(m.reason, sizeof m.reason, "%s", h->reason);
	if (m.type == CONTROL_OFFER) {
		snprintf(m.offer.uid, sizeof m.offer.uid, "sim");
		m.offer.guest_running = 1;
		m.offer.plan.postcopy = w->k.postcopy;
	}
	memset(&ev, 0, sizeof ev);
	ev.kind = SEV_CONTROL;
	ev.t = w->now;
	ev.msg = &m;
	if (m.type == CONTROL_ABORT && !w->sd[TGT].sess.started)
		w->saw |= SAW_TGT_EARLY_ABORT;
	side_deliver(w, TGT, &ev);
}

static void
ctl_answer(struct world *w, const struct hap *h)
{
	struct link		*ln = &w->ln;
	struct sess_event	 ev;

	if (h->gen != (uint64_t)ln->ctl_gen || !ln->ctl_up)
		return;
	if (!ln->asked) {
		/* proxy-source.c: "unexpected control message": closed. */
		link_ctl_lost(w, "unexpected control message");
		return;
	}
	memset(&ev, 0, sizeof ev);
	ev.kind = SEV_ANSWER;
	ev.t = w->now;
	ev.question = ln->queue[0].type;
	ev.answer = h->answer;
	ev.reason = h->reason;
	if (ev.question == CONTROL_COMPLETED && ev.answer == ANSWER_RUNNING)
		w->saw |= SAW_RUNNING_ANSWERED;
	pop_question(ln);
	link_send_next(w);
	side_deliver(w, SRC, &ev);
}

/* ---- actions ------------------------------------------------------- */

static void
finish(struct world *w, int role)
{
	struct side *sd = &w->sd[role];

	sd->finished = 1;
	sd->finished_t = w->now;
	sd->exit_code = session_exit_code(&sd->sess);
	trace(w, role, "FINISH exit %d (phase %d, failure %d): %s",
	    sd->exit_code, sd->sess.phase, sd->sess.failure,
	    sd->sess.failure_reason);
	check_finish(w, role);
	if (w->k.tls) {
		/* The proxy goes with the process. */
		link_ctl_close(w, "the peer's qmigrate ended");
		if (w->ln.stream && !(role == SRC &&
		    w->q[SRC].ms == QMS_COMPLETED))
			qemu_stream_break(w, "a proxy closed");
	}
	if (role == SRC && sd->exit_code == QM_EXIT_UNKNOWN &&
	    w->k.rerun_after_8 && sd->run < 6) {
		/* README: "run migrate again with the same --status-file". */
		fault(w, F_RERUN_AFTER_8, SRC, "the re-run after exit 8");
		sched_in(w, rng_range(&w->rng, 1, 40), H_RERUN, SRC, 0, 0);
	} else if (role == SRC && sd->keep_doc) {
		/*
		 * README: the re-run cannot reach QEMU: 3, the file left as it
		 * was; "fix the monitor and run migrate again".  That exit
		 * is not judged; the next run is.
		 */
		sd->unreachable = 1;
		if (sd->run < 10)
			sched_in(w, rng_range(&w->rng, 5, 40), H_RERUN, SRC, 0,
			    0);
	}
}

static void
execute(struct world *w, int role, const struct sess_action *a)
{
	struct side	*sd = &w->sd[role];
	struct hap	 h;

	switch (a->kind) {
	case SA_QMP:
		send_pc(w, role, PC_SESS, a->cmd, 0);
		break;
	case SA_POLL:
		poll_now(w, role);
		break;
	case SA_QUERY_STATUS:
		if (sd->conn_up)
			send_pc(w, role, PC_STATUS, 0, 0);
		break;
	case SA_JOB:
		if (role == TGT && a->job == SJ_PREPARE_TARGET)
			send_pc(w, role, PC_JOB, 0, a->job);
		else
			job_done(w, role, a->job, role == TGT ||
			    a->job == SJ_FINISH_MIRRORS, "no disks to copy");
		break;
	case SA_ASK:
		if (w->k.tls)
			source_ask(w, a);
		break;
	case SA_ANSWER:
		target_answer(w, a);
		break;
	case SA_TIMER:
		sd->timer_gen[a->timer]++;
		memset(&h, 0, sizeof h);
		h.kind = H_TIMER;
		h.side = role;
		h.run = sd->run;
		h.gen = sd->timer_gen[a->timer];
		h.a = a->timer;
		sched(w, w->now + a->seconds, &h);
		break;
	case SA_CUT:
		trace(w, role, "cut: the proxy closes");
		w->trouble[SRC] = 1;	/* the source hears nothing more */
		w->ln.cut = 1;
		link_ctl_close(w, "the target cut the connection");
		qemu_stream_break(w, "the target cut the stream");
		break;
	case SA_UNLISTEN:
		if (!w->k.tls)
			w->q[TGT].unlistened = 1;
		if (!w->k.tls && w->q[TGT].accept_queued)
			w->saw |= SAW_QUEUED_UNLISTEN;
		break;
	case SA_RECONNECT:
		if (role == SRC)
			w->saw |= SAW_SRC_RECONNECT;
		connect_monitor(w, role, 1);
		break;
	case SA_FINISH:
		finish(w, role);
		break;
	case SA_LOG:
		if (w->trace && a->value > 0)
			trace(w, role, "log: %s", a->reason);
		break;
	case SA_ST_NOTE:
	case SA_ST_FAILURE:
		if (w->trace)
			trace(w, role, "%s: %s", act_name(a->kind), a->reason);
		break;
	default:
		break;
	}
}

/* ---- setup: the one mapping of what the source's setup decides ---- */

/*
 * What src/mig-source.c's setup decides from QEMU's migration status and
 * run state and the status file: source_existing() and record_peek() at
 * main's dd7f8a2 (mig-source.c:160-200 and :310-380), the one place this
 * simulator copies it:
 * - QEMU migrating (qemu_mig_status_in_progress): SETUP_REATTACH with the
 *   file's mode, post-copy if QEMU says so; no file: FAILED.
 * - the file's record open (its phase not ended, or Failed with exit 8 or
 *   6): QEMU completed: SETUP_ALREADY_DONE, over tls: unconfirmed
 *   (FAIL_UNKNOWN) unless the record said Succeeded (source_already_done);
 *   anything else: SETUP_CLOSE_RECORD (source_close_record), FAIL_DATA,
 *   FAIL_POSTCOPY_LOST in post-copy, FAIL_ABORTED when an abort was under
 *   way, with the file's mode (a guest the earlier run paused is resumed).
 * - QEMU completed, run state postmigrate, a record whose phase is not
 *   Failed: ALREADY_DONE as above (over tls: the session asks the
 *   target); a Failed one or none: FAILED, FAIL_UNKNOWN, "already
 *   migrated its guest away" (the guest is not here: not 2).
 * - anything else: SETUP_FRESH.
 * Both carry the file's abortStatus and abortRequested.  A QEMU that
 * cannot be asked (connect or inspect fails): FAILED FAIL_CONTROL, the
 * file left as it was (source_state_unknown).
 */
static enum sess_setup
decide_setup(struct world *w, enum mig_failure *fail, const char **why,
    enum mig_mode *mode)
{
	const struct qemu	*q = &w->q[SRC];
	const struct doc	*d = &w->sd[SRC].doc;
	int			 ended, open_, code;

	*fail = FAIL_NONE;
	*why = NULL;
	*mode = d->exists ? d->mode : MODE_PRECOPY;
	if (qemu_mig_status_in_progress(q->ms)) {
		if (!d->exists) {
			*fail = FAIL_CONTROL;
			*why = "already migrating and no --status-file names it";
			return SETUP_FAILED;
		}
		if (qemu_mig_status_postcopy(q->ms))
			*mode = MODE_POSTCOPY;
		*why = qemu_mig_status_name(q->ms);
		return SETUP_REATTACH;
	}
	code = mig_exit_code(d->failure, d->phase);
	ended = d->phase == PHASE_SUCCEEDED || d->phase == PHASE_FAILED ||
	    d->phase == PHASE_HANDED_OVER;
	open_ = d->exists && (!ended || (d->phase == PHASE_FAILED &&
	    (code == QM_EXIT_UNKNOWN || code == QM_EXIT_POSTCOPY_LOST)));
	if (open_ || (d->exists && d->phase != PHASE_FAILED &&
	    q->ms == QMS_COMPLETED && q->rs == RUN_POSTMIGRATE)) {
		if (q->ms == QMS_COMPLETED) {
			if (w->k.tls && d->phase != PHASE_SUCCEEDED) {
				*fail = FAIL_UNKNOWN;
				*why = "completed while no qmigrate watched it; "
				    "over tls: only the target can say";
			} else
				*why = "sim";
			return SETUP_ALREADY_DONE;
		}
		*fail = FAIL_DATA;
		if (*mode == MODE_POSTCOPY)
			*fail = FAIL_POSTCOPY_LOST;
		else if (d->abort == ABORT_ABORTING ||
		    d->abort == ABORT_FAILED)
			*fail = FAIL_ABORTED;
		*why = "the record's migration ended while no qmigrate "
		    "watched it";
		return SETUP_CLOSE_RECORD;
	}
	if (q->ms != QMS_COMPLETED || q->rs != RUN_POSTMIGRATE)
		return SETUP_FRESH;
	*fail = FAIL_UNKNOWN;
	*why = "source QEMU already migrated its guest away (run state "
	    "postmigrate): nothing to migrate; where the guest runs is not "
	    "known here";
	return SETUP_FAILED;
}

static void
setup(struct world *w, int role)
{
	struct side		*sd = &w->sd[role];
	struct qemu		*q = &w->q[role];
	struct sess_event	 ev;
	enum mig_mode		 mode;

	memset(&ev, 0, sizeof ev);
	ev.kind = SEV_SETUP_DONE;
	ev.t = w->now;
	ev.ok = 1;
	if (!sd->conn_up || !q->alive) {
		ev.ok = 0;
		ev.setup = SETUP_FAILED;
		ev.fail = FAIL_CONTROL;
		ev.reason = "cannot reach QEMU's monitor";
		if (role == SRC && sd->doc.exists)
			sd->keep_doc = 1;	/* source_state_unknown() */
		side_deliver(w, role, &ev);
		return;
	}
	if (q->stopped) {
		/* The inspect job's commands time out. */
		w->trouble[role] = 1;
		sched_in(w, CMD_TIMEOUT, H_SETUP, role, (uint64_t)sd->run, 1);
		return;
	}
	if (role == TGT) {
		if (q->rs != RUN_INMIGRATE || q->ms != QMS_NONE) {
			ev.ok = 0;
			ev.fail = FAIL_CONTROL;
			ev.reason = "target QEMU is not waiting for a migration";
		} else if (!w->k.tls)
			qemu_listen(w);	/* migrate-incoming */
		side_deliver(w, role, &ev);
		return;
	}
	ev.setup = decide_setup(w, &ev.fail, &ev.reason, &mode);
	ev.mode = mode;
	if (sd->doc.exists && ev.setup != SETUP_FRESH &&
	    ev.setup != SETUP_FAILED) {
		ev.abort = sd->doc.abort;
		ev.abort_requested = sd->doc.abort_requested;
	}
	ev.uid = "sim";
	trace(w, role, "setup decides %d (QEMU %s, run state %d; file %s, "
	    "phase %d)", ev.setup, qemu_mig_status_name(q->ms), q->rs,
	    sd->doc.exists ? "there" : "none", sd->doc.phase);
	if (ev.setup == SETUP_FRESH && sd->doc.exists &&
	    sd->doc.failure == FAIL_UNKNOWN && sd->doc.phase == PHASE_FAILED)
		w->saw |= SAW_RERUN_FRESH_AFTER_8;
	if (ev.setup == SETUP_CLOSE_RECORD && sd->doc.mode == MODE_PAUSED)
		w->saw |= SAW_CLOSE_RECORD_PAUSED;
	if (ev.setup == SETUP_ALREADY_DONE)
		w->saw |= SAW_ALREADY_DONE;
	if (ev.setup == SETUP_FAILED && ev.fail == FAIL_NOT_MIGRATABLE)
		w->saw |= SAW_NOT_MIGRATABLE;
	if (ev.setup == SETUP_FAILED && ev.fail == FAIL_CONTROL &&
	    sd->doc.exists)
		sd->keep_doc = 1;
	side_deliver(w, role, &ev);
}

/* ---- the side's life ----------------------------------------------- */

void
side_start(struct world *w, int role)
{
	struct side		*sd = &w->sd[role];
	struct sess_config	 cfg;
	struct ctl_config	 cc;
	struct doc		 doc = sd->doc;
	int			 run = sd->run;

	memset(sd, 0, sizeof *sd);
	sd->role = role;
	sd->run = run + 1;
	sd->doc = doc;
	sd->alive = 1;
	sd->started = w->now;
	memset(&cfg, 0, sizeof cfg);
	cfg.role = role == SRC ? SESS_SOURCE : SESS_TARGET;
	cfg.tls = w->k.tls;
	cfg.timeout = role == SRC ? w->k.src_timeout : w->k.tgt_timeout;
	cfg.recover_timeout = 120;
	cfg.stall_timeout = 150;
	cfg.keep_paused = role == TGT && w->k.keep_paused;
	cfg.unix_listen = !w->k.tls;
	/* QEMU 9.1 and later stay up when a load fails (exit-on-error). */
	cfg.qemu_major = w->k.exit_on_error ? 7 : 10;
	cfg.qemu_minor = w->k.exit_on_error ? 2 : 0;
	cfg.peer = w->k.tls ? "tls:peer:4444" : "unix:/run/in.sock";
	cfg.qmp_path = role == SRC ? "src-qmp" : "tgt-qmp";
	session_init(&sd->sess, &cfg);
	if (role == SRC) {
		memset(&cc, 0, sizeof cc);
		cc.guest_bytes = 1000ULL * 1000 * 1000;
		cc.completion_timeout_per_gib = (uint64_t)w->k.acceptable;
		cc.progress_timeout = 150;
		cc.allow_post_copy = w->k.postcopy;
		cc.allow_workload_disruption = w->k.disruption;
		session_set_controller(&sd->sess, CTL_KUBEVIRT, &cc);
	}
	trace(w, role, "qmigrate %s starts (run %d)", role == SRC ? "migrate" :
	    "incoming", sd->run);
	sched_in(w, POLL_SECONDS, H_POLL, role, (uint64_t)sd->run, 0);
	if (cfg.timeout > 0)
		sched_in(w, cfg.timeout, H_DEADLINE, role, (uint64_t)sd->run, 0);
	connect_monitor(w, role, 0);
}

void
side_kill(struct world *w, int role)
{
	struct side *sd = &w->sd[role];

	if (!sd->alive || sd->finished)
		return;
	fault(w, F_KILL_SIDE, role, "SIGKILL");
	sd->alive = 0;
	sd->killed = 1;
	sd->conn_up = 0;
	if (w->k.tls) {
		if (role == SRC)
			w->ln.nq = 0, w->ln.asked = 0;
		link_ctl_close(w, "the peer's qmigrate died");
		qemu_stream_break(w, "a proxy died");
	}
	if (role == SRC)
		sched_in(w, rng_range(&w->rng, 0.5, 5), H_RERUN, SRC, 0, 0);
}

/* A happening that belongs to the executor of one side. */
void
side_hap(struct world *w, const struct hap *h)
{
	struct side		*sd = &w->sd[h->side];
	struct qemu		*q = &w->q[h->side];
	struct pcmd		*pc;
	struct sess_event	 ev;

	switch (h->kind) {
	case H_QMP_EXEC:
		pc = pc_find(w, h->side, h->gen);
		if (h->a == 1 && q->ndeferred > 0 && q->deferred[0] == h->gen &&
		    (pc == NULL || !q->alive || pc->conn_gen !=
		    w->conn_gen[h->side])) {
			/* gone with its connection: the next one is read */
			memmove(&q->deferred[0], &q->deferred[1],
			    --q->ndeferred * sizeof q->deferred[0]);
			if (q->ndeferred > 0)
				qemu_release_next(w, h->side);
		}
		if ((pc = pc_find(w, h->side, h->gen)) == NULL)
			return;
		if (!q->alive || pc->conn_gen != w->conn_gen[h->side]) {
			pc->used = 0;	/* went with its connection */
			return;
		}
		/*
		 * A stopped QEMU reads nothing; once continued it reads what
		 * waits in order, and what comes meanwhile after it.
		 */
		if (h->a == 1 && q->stopped)
			return;		/* stays first; the next SIGCONT */
		if ((q->stopped || (q->ndeferred > 0 && h->a != 1)) &&
		    q->ndeferred < MAX_PCMD) {
			q->deferred[q->ndeferred++] = h->gen;
			return;
		}
		if (h->a == 1 && q->ndeferred > 0 && q->deferred[0] == h->gen) {
			memmove(&q->deferred[0], &q->deferred[1],
			    --q->ndeferred * sizeof q->deferred[0]);
			if (q->ndeferred > 0)
				qemu_release_next(w, h->side);
		}
		qemu_exec(w, h->side, pc);
		if (h->x <= 0) {
			if (!pc->done)
				answer_pc(w, h->side, pc);
			pc->used = 0;
		} else
			sched_in(w, h->x, H_QMP_ANSWER, h->side, h->gen, 0);
		return;
	case H_QMP_ANSWER:
		if ((pc = pc_find(w, h->side, h->gen)) == NULL)
			return;
		if (!pc->done && q->alive && pc->conn_gen ==
		    w->conn_gen[h->side] && sd->alive && !sd->finished)
			answer_pc(w, h->side, pc);
		pc->used = 0;
		return;
	case H_QMP_TIMEOUT:
		if ((pc = pc_find(w, h->side, h->gen)) == NULL)
			return;
		if (!pc->done && sd->alive && !sd->finished)
			timeout_pc(w, h->side, pc);
		if (pc->executed == -1)
			pc->used = 0;
		return;
	default:
		break;
	}
	if (h->run != 0 && h->run != sd->run)
		return;
	if (!sd->alive || sd->finished)
		return;
	memset(&ev, 0, sizeof ev);
	ev.t = w->now;
	switch (h->kind) {
	case H_POLL:
		if (h->gen != (uint64_t)sd->run)
			return;
		poll_now(w, h->side);
		sched_in(w, POLL_SECONDS, H_POLL, h->side, (uint64_t)sd->run,
		    0);
		break;
	case H_QEVENT:
		poll_now(w, h->side);
		if (h->side == TGT && q->rs == RUN_RUNNING)
			deliver_simple(w, TGT, SEV_RESUMED, NULL);
		break;
	case H_TIMER:
		if (h->gen != sd->timer_gen[h->a])
			return;
		ev.kind = SEV_TIMER;
		ev.timer = (enum sess_timer)h->a;
		side_deliver(w, h->side, &ev);
		break;
	case H_DEADLINE:
		if (h->gen != (uint64_t)sd->run)
			return;
		fault(w, F_DEADLINE, h->side, "--timeout passed");
		deliver_simple(w, h->side, SEV_DEADLINE, NULL);
		break;
	case H_SIGNAL:
		fault(w, F_SIGNAL, h->side, "SIGTERM");
		if (h->side == TGT)
			w->saw |= SAW_TGT_SIGNAL;
		ev.kind = SEV_SIGNAL;
		ev.signum = rng_chance(&w->rng, 0.5) ? SIGTERM : SIGINT;
		side_deliver(w, h->side, &ev);
		break;
	case H_CONNECTED:
	case H_CONNECT_TIMEOUT:
		if (h->gen != (uint64_t)w->conn_gen[h->side] ||
		    !sd->connecting)
			return;
		if (h->kind == H_CONNECTED && q->alive && !q->stopped) {
			sd->conn_up = 1;
			if (sd->connecting == 2) {
				sd->connecting = 0;
				deliver_simple(w, h->side, SEV_QMP_UP, NULL);
			} else {
				sd->connecting = 0;
				sched_in(w, rng_range(&w->rng, 0.02, 0.5),
				    H_SETUP, h->side, (uint64_t)sd->run, 0);
			}
			return;
		}
		if (h->kind == H_CONNECTED) {
			/* stopped meanwhile: the handshake times out */
			sched_in(w, CMD_TIMEOUT, H_CONNECT_TIMEOUT, h->side,
			    h->gen, 0);
			return;
		}
		if (sd->connecting == 2) {
			sd->connecting = 0;
			deliver_simple(w, h->side, SEV_QMP_CLOSED,
			    "no QMP greeting within 10 s");
		} else {
			sd->connecting = 0;
			sched_in(w, 0.001, H_SETUP, h->side, (uint64_t)sd->run,
			    0);
		}
		break;
	case H_SETUP:
		if (h->gen != (uint64_t)sd->run || sd->setup_over)
			return;
		if (h->a == 1 && q->stopped) {
			/* the inspect job timed out */
			sd->setup_over = 1;
			memset(&ev, 0, sizeof ev);
			ev.kind = SEV_SETUP_DONE;
			ev.t = w->now;
			ev.setup = SETUP_FAILED;
			ev.fail = FAIL_CONTROL;
			ev.reason = "no reply within 10 s";
			if (h->side == SRC && sd->doc.exists)
				sd->keep_doc = 1;
			side_deliver(w, h->side, &ev);
			return;
		}
		if (!q->stopped || !sd->conn_up)
			sd->setup_over = 1;
		setup(w, h->side);
		break;
	default:
		break;
	}
}

/* Called by sim.c for the control link's happenings. */
void
link_hap(struct world *w, const struct hap *h)
{
	switch (h->kind) {
	case H_CTL_DELIVER:
		ctl_deliver(w, h);
		break;
	case H_CTL_ANSWER:
		ctl_answer(w, h);
		break;
	case H_CTL_TIMEOUT:
		/* A lost control connection may hide the outcome: fair. */
		if (w->ln.asked && w->ln.asked_gen == h->gen) {
			w->trouble[SRC] = w->trouble[TGT] = 1;
			link_ctl_lost(w, "control answer timeout");
		}
		break;
	case H_CTL_CLOSE:
		if (h->gen == (uint64_t)w->ln.ctl_gen)
			link_ctl_lost(w, h->reason);
		break;
	default:
		break;
	}
}
