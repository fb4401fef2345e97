/*
 * qemu.c: a small model of the two QEMUs, derived from
 * ../shared/reference/qemu-7.2-migration.md and qemu-10-11-migration.md
 * and from what the step expects:
 *
 * - source: none -> active -> completed (run state postmigrate, the guest
 *   paused there), or failed / cancelled (the guest's run state is left as
 *   it was: QEMU stops the vCPUs only at the switchover);
 *   migrate-start-postcopy -> postcopy-active (the source's vCPUs stop, the
 *   target runs the guest) -> completed; a broken stream in post-copy ->
 *   postcopy-paused on both, recovered by migrate-recover (target) then
 *   migrate resume (source).  `migrate` to a target that does not listen
 *   answers {} and query-migrate then says failed (the reference: "always
 *   read the status after migrate").  `cont` works from paused,
 *   postmigrate and finish-migrate: that is how a guest comes to run twice.
 * - target: -incoming defer (run state inmigrate), migrate-incoming
 *   listens; the load completes after the source's switchover; it runs the
 *   guest then if it was running on the source and QEMU was started
 *   without -S (or got a `cont` while inmigrate), else it waits paused for
 *   `cont`.  A failed load makes QEMU exit, or, with exit-on-error false
 *   (9.1), stay up with status failed.
 * - `quit` or a kill: the process is gone, its monitor closes.
 *
 * Simplifications: one stream (no multifd, no disks); progress is a
 * straight line to the moment the seed says pre-copy converges (or never:
 * then the controller must post-copy, pause or abort); over unix: a load
 * fails before the source's completion (the stream is direct), over tls:
 * it may fail after it (the last bytes were still in the proxies).
 */
#include <stdio.h>
#include <string.h>

#include "sim.h"

#define GUEST_BYTES	(1000ULL * 1000 * 1000)
#define RATE		(100.0 * 1000 * 1000)	/* bytes/s moved */

void
qemu_init(struct world *w, int role)
{
	struct qemu *q = &w->q[role];

	memset(q, 0, sizeof *q);
	q->role = role;
	q->alive = 1;
	q->ms = QMS_NONE;
	if (role == SRC)
		q->rs = RUN_RUNNING;
	else {
		q->rs = RUN_INMIGRATE;
		q->autostart = !w->k.dash_s;
		q->exit_on_error = w->k.exit_on_error;
	}
}

int
qemu_runs_guest(const struct world *w, int role)
{
	const struct qemu *q = &w->q[role];

	return q->alive && q->rs == RUN_RUNNING && (role == SRC ||
	    q->got_guest);
}

static const char *
rs_name(enum run_state rs)
{
	switch (rs) {
	case RUN_RUNNING: return "running";
	case RUN_PAUSED: return "paused";
	case RUN_POSTMIGRATE: return "postmigrate";
	case RUN_INMIGRATE: return "inmigrate";
	case RUN_FINISH_MIGRATE: return "finish-migrate";
	default: return "other";
	}
}

void
qemu_run_info(const struct world *w, int role, struct run_info *ri)
{
	const struct qemu *q = &w->q[role];

	memset(ri, 0, sizeof *ri);
	ri->state = q->rs;
	snprintf(ri->state_name, sizeof ri->state_name, "%s", rs_name(q->rs));
	ri->running = q->rs == RUN_RUNNING;
}

/*
 * migrate-incoming: the target listens; 10.0 and 11.1 (the seeds whose
 * QEMU stays up on a failed load) say "setup" from then on, 7.2 "none".
 */
void
qemu_listen(struct world *w)
{
	struct qemu *t = &w->q[TGT];

	t->listening = 1;
	if (!t->exit_on_error)
		t->ms = QMS_SETUP;
}

/* A continued QEMU reads the next command that waited in its monitor. */
void
qemu_release_next(struct world *w, int role)
{
	struct hap h;

	if (w->q[role].stopped || w->q[role].ndeferred == 0)
		return;
	memset(&h, 0, sizeof h);
	h.kind = H_QMP_EXEC;
	h.side = role;
	h.gen = w->q[role].deferred[0];
	h.a = 1;
	h.x = 0.001;
	sched(w, w->now + 0.001, &h);
}

/* Whether a new connection from the source QEMU reaches the target QEMU. */
int
qemu_stream_path(const struct world *w)
{
	const struct qemu *t = &w->q[TGT];

	if (!t->alive || !w->q[SRC].alive)
		return 0;
	if (!w->k.tls)
		return !t->unlistened;
	/* tls: both proxies (they live in the qmigrates) and the network. */
	return w->sd[SRC].alive && !w->sd[SRC].finished && w->sd[TGT].alive &&
	    !w->sd[TGT].finished && !w->ln.cut && w->now >= w->ln.refuse_until;
}

void
qemu_status_changed(struct world *w, int role)
{
	struct hap h;

	trace(w, role, "qemu: %s, run state %s%s",
	    qemu_mig_status_name(w->q[role].ms), rs_name(w->q[role].rs),
	    qemu_runs_guest(w, role) ? " (runs the guest)" : "");
	if (!w->q[role].alive)
		return;
	/* MIGRATION: the executor polls at once. */
	sched_in(w, 0.002, H_QEVENT, role, 0, 0);
	/* Faults aimed at the moments that matter. */
	if (rng_chance(&w->rng, w->k.p_cut_on_change[role])) {
		memset(&h, 0, sizeof h);
		h.kind = H_CUT;
		h.side = role;
		sched(w, w->now + rng_range(&w->rng, 0, 0.3), &h);
	}
	/* tls: the network goes down as post-copy runs: it must recover. */
	if (role == SRC && w->q[SRC].ms == QMS_POSTCOPY_ACTIVE && w->k.tls &&
	    rng_chance(&w->rng, w->k.p_postcopy_break)) {
		memset(&h, 0, sizeof h);
		h.kind = H_LINK_CUT;
		h.a = 1;
		h.x = rng_chance(&w->rng, 0.2) ? rng_range(&w->rng, 100, 140) :
		    rng_range(&w->rng, 0.5, 20);
		sched(w, w->now + rng_range(&w->rng, 0, w->k.postcopy_len),
		    &h);
	}
	if (w->k.sig_on_change[role] > 0 && rng_chance(&w->rng, 0.3)) {
		w->k.sig_on_change[role]--;
		sched_in(w, rng_range(&w->rng, 0, 0.6), H_SIGNAL,
		    rng_chance(&w->rng, 0.5) ? SRC : TGT, 0, 0);
	}
}

/* The target's load failed: QEMU exits, or says failed (exit-on-error). */
static void
target_fail(struct world *w, const char *why)
{
	struct qemu *t = &w->q[TGT];

	if (!t->alive)
		return;
	if (t->exit_on_error) {
		qemu_kill(w, TGT, why);
		return;
	}
	t->ms = QMS_FAILED;
	snprintf(t->err, sizeof t->err, "%s", why);
	qemu_status_changed(w, TGT);
}

void
qemu_stream_break(struct world *w, const char *why)
{
	struct qemu *s = &w->q[SRC], *t = &w->q[TGT];

	if (!w->ln.stream)
		return;
	trace(w, -1, "stream broken: %s", why);
	if (s->ms == QMS_POSTCOPY_ACTIVE || t->ms == QMS_POSTCOPY_ACTIVE) {
		if (s->alive && s->ms == QMS_POSTCOPY_ACTIVE) {
			s->ms = QMS_POSTCOPY_PAUSED;
			qemu_status_changed(w, SRC);
		}
		if (t->alive && t->ms == QMS_POSTCOPY_ACTIVE) {
			t->ms = QMS_POSTCOPY_PAUSED;
			t->recover_listening = 0;
			qemu_status_changed(w, TGT);
		}
		return;
	}
	w->ln.stream = 0;
	if (s->alive && (s->ms == QMS_ACTIVE || s->ms == QMS_SETUP ||
	    s->ms == QMS_CANCELLING)) {
		s->ms = QMS_FAILED;
		snprintf(s->err, sizeof s->err, "Unable to write to socket: %s",
		    why);
		qemu_status_changed(w, SRC);
	}
	if (t->alive && t->ms == QMS_ACTIVE)
		target_fail(w, "load of migration failed: stream closed");
}

void
qemu_kill(struct world *w, int role, const char *why)
{
	struct qemu *q = &w->q[role];

	if (!q->alive)
		return;
	q->alive = 0;
	trace(w, role, "qemu: exits (%s)", why);
	monitor_closed(w, role, "QEMU exited");
	if (role == TGT && w->q[SRC].ms == QMS_POSTCOPY_ACTIVE) {
		w->q[SRC].ms = QMS_POSTCOPY_PAUSED;
		qemu_status_changed(w, SRC);
	} else if (role == SRC && w->q[TGT].ms == QMS_POSTCOPY_ACTIVE) {
		w->q[TGT].ms = QMS_POSTCOPY_PAUSED;
		qemu_status_changed(w, TGT);
	} else
		qemu_stream_break(w, role == SRC ? "source QEMU gone" :
		    "target QEMU gone");
}

/* query-migrate's answer, now. */
void
qemu_sample(struct world *w, int role, struct mig_info *mi)
{
	struct qemu	*q = &w->q[SRC];
	double		 left;

	memset(mi, 0, sizeof *mi);
	mi->status = w->q[role].ms;
	snprintf(mi->status_name, sizeof mi->status_name, "%s",
	    qemu_mig_status_name(mi->status));
	snprintf(mi->error_desc, sizeof mi->error_desc, "%s", w->q[role].err);
	mi->page_size = 4096;
	if (role == TGT || q->migrations == 0)
		return;
	mi->has_ram = 1;
	mi->ram_total = GUEST_BYTES;
	mi->ram_transferred = (uint64_t)((w->now - q->mig_start) * RATE);
	if (q->converge_at < 0)
		left = 0.3;	/* never converges: a plateau */
	else
		left = (q->converge_at - w->now) / (q->converge_at -
		    q->mig_start + 1e-9);
	if (left < 0)
		left = 0;
	if (left > 1)
		left = 1;
	mi->ram_remaining = (uint64_t)(left * GUEST_BYTES);
	mi->dirty_sync_count = 1 + (uint64_t)((w->now - q->mig_start) / 2);
	mi->mbps = RATE * 8 / 1e6;
	if (mi->status == QMS_COMPLETED) {
		mi->has_total_time = 1;
		mi->total_time_ms = (uint64_t)((w->now - q->mig_start) * 1000);
		mi->has_downtime = 1;
		mi->downtime_ms = 50;
		mi->ram_remaining = 0;
	}
}

/*
 * The target QEMU takes the source's connection: the load begins, or,
 * where the stream already ended (the source cancelled or failed while it
 * waited in the queue), fails at once on its end.
 */
static void
target_accepted(struct world *w)
{
	struct qemu *t = &w->q[TGT];

	t->accept_queued = 0;
	t->ms = QMS_ACTIVE;
	if (!w->ln.stream) {
		target_fail(w, "load of migration failed: stream closed");
		return;
	}
	t->load_fail = rng_chance(&w->rng, w->k.p_load_fail);
	if (t->load_fail)
		fault(w, F_LOAD_FAIL, TGT, "this load will fail");
	qemu_status_changed(w, TGT);
}

/* H_ACCEPT: a unix: connection leaves QEMU's accept queue. */
void
qemu_accept(struct world *w)
{
	struct qemu *t = &w->q[TGT];

	if (!t->alive || !t->accept_queued)
		return;
	if (t->stopped) {
		sched_in(w, 0.5, H_ACCEPT, TGT, 0, 0);
		return;
	}
	if (t->unlistened)
		w->saw |= SAW_QUEUED_UNLISTEN;
	target_accepted(w);
}

static void
start_migration(struct world *w)
{
	struct qemu *s = &w->q[SRC], *t = &w->q[TGT];

	s->migrations++;
	s->err[0] = '\0';
	if (!qemu_stream_path(w) || !t->listening || t->accept_queued ||
	    (t->ms != QMS_NONE && t->ms != QMS_SETUP)) {
		s->ms = QMS_FAILED;
		snprintf(s->err, sizeof s->err, "Failed to connect socket: "
		    "Connection refused");
		qemu_status_changed(w, SRC);
		return;
	}
	w->ln.stream = 1;
	w->stream_ever = 1;
	s->ms = QMS_ACTIVE;
	s->mig_start = w->now;
	s->postcopy_started = 0;
	s->converge_at = w->k.converge > 0 ? w->now + w->k.converge : -1;
	if (s->converge_at > 0)
		sched_in(w, w->k.converge, H_SWITCHOVER, SRC,
		    (uint64_t)s->migrations, 0);
	qemu_status_changed(w, SRC);
	if (w->k.tls) {
		target_accepted(w);
		return;
	}
	/*
	 * unix: the connection waits in QEMU's accept queue for a main-loop
	 * turn (now and then a long one): a query may be answered first.
	 */
	t->accept_queued = 1;
	sched_in(w, rng_chance(&w->rng, 0.2) ? rng_range(&w->rng, 0.01, 0.5) :
	    rng_range(&w->rng, 0, 0.01), H_ACCEPT, TGT, 0, 0);
}

/* Pre-copy converged: the source stops the guest and sends the rest. */
void
qemu_switchover(struct world *w)
{
	struct qemu	*s = &w->q[SRC];
	int		 was_running;

	if (s->ms != QMS_ACTIVE || !s->alive)
		return;
	if (s->stopped || w->q[TGT].stopped || !w->ln.stream ||
	    w->q[TGT].accept_queued) {
		/* Nothing moves while a QEMU is stopped (or not reading). */
		sched_in(w, 0.5, H_SWITCHOVER, SRC, (uint64_t)s->migrations, 0);
		return;
	}
	was_running = s->rs == RUN_RUNNING;
	if (!w->k.tls && w->q[TGT].load_fail) {
		/* unix: the direct stream fails before the source completes */
		s->ms = QMS_FAILED;
		snprintf(s->err, sizeof s->err, "Sibling indicated error 1");
		w->ln.stream = 0;
		qemu_status_changed(w, SRC);
		target_fail(w, "load of migration failed: Invalid argument");
		return;
	}
	s->rs = RUN_POSTMIGRATE;
	s->ms = QMS_COMPLETED;
	qemu_status_changed(w, SRC);
	sched_in(w, w->k.tls ? rng_range(&w->rng, 0.05, 0.6) :
	    rng_range(&w->rng, 0.005, 0.1), H_LOAD_DONE, TGT, 0, was_running);
}

void
qemu_load_done(struct world *w, int was_running)
{
	struct qemu *t = &w->q[TGT];

	if (!t->alive || t->ms != QMS_ACTIVE)
		return;
	if (t->stopped) {
		sched_in(w, 0.5, H_LOAD_DONE, TGT, 0, was_running);
		return;
	}
	w->ln.stream = 0;
	if (t->load_fail) {
		target_fail(w, "load of migration failed: Invalid argument");
		return;
	}
	t->ms = QMS_COMPLETED;
	t->got_guest = 1;
	/* It runs the guest if it ran on the source and QEMU may start it. */
	t->rs = t->autostart && was_running ? RUN_RUNNING : RUN_PAUSED;
	qemu_status_changed(w, TGT);
}

void
qemu_postcopy_done(struct world *w)
{
	struct qemu *s = &w->q[SRC], *t = &w->q[TGT];

	if (s->ms != QMS_POSTCOPY_ACTIVE || t->ms != QMS_POSTCOPY_ACTIVE)
		return;
	if (s->stopped || t->stopped) {
		sched_in(w, 0.5, H_PC_DONE, SRC, (uint64_t)s->migrations, 0);
		return;
	}
	w->ln.stream = 0;
	s->ms = QMS_COMPLETED;
	s->rs = RUN_POSTMIGRATE;
	t->ms = QMS_COMPLETED;
	qemu_status_changed(w, SRC);
	qemu_status_changed(w, TGT);
}

void
qemu_cancelled(struct world *w)
{
	struct qemu *s = &w->q[SRC];

	if (s->ms != QMS_CANCELLING || !s->alive)
		return;
	if (s->stopped) {
		sched_in(w, 0.5, H_CANCELLED, SRC, 0, 0);
		return;
	}
	s->ms = QMS_CANCELLED;
	qemu_status_changed(w, SRC);
	w->ln.stream = 0;
	if (w->q[TGT].ms == QMS_ACTIVE)
		target_fail(w, "load of migration failed: stream closed");
}

static void
post_copy(struct world *w)
{
	struct qemu *s = &w->q[SRC], *t = &w->q[TGT];
	int was_running = s->rs == RUN_RUNNING;

	s->ms = QMS_POSTCOPY_ACTIVE;
	s->postcopy_started = 1;
	s->rs = RUN_FINISH_MIGRATE;
	/* The model's shortcut: the target takes its queued source first. */
	t->accept_queued = 0;
	t->ms = QMS_POSTCOPY_ACTIVE;
	t->got_guest = 1;
	t->rs = t->autostart && was_running ? RUN_RUNNING : RUN_PAUSED;
	sched_in(w, w->k.postcopy_len, H_PC_DONE, SRC, (uint64_t)s->migrations,
	    0);
	qemu_status_changed(w, SRC);
	qemu_status_changed(w, TGT);
}

static void
answer_err(struct pcmd *pc, const char *e)
{
	pc->ok = 0;
	snprintf(pc->err, sizeof pc->err, "%s", e);
}

/* One command arrives in QEMU: its effect now, its answer in pc. */
void
qemu_exec(struct world *w, int role, struct pcmd *pc)
{
	struct qemu *q = &w->q[role], *s = &w->q[SRC], *t = &w->q[TGT];

	pc->executed = 1;
	pc->ok = 1;
	pc->err[0] = '\0';
	if (pc->kind == PC_QUERY) {
		qemu_sample(w, role, &pc->mi);
		return;
	}
	if (pc->kind == PC_STATUS) {
		qemu_run_info(w, role, &pc->ri);
		return;
	}
	if (pc->kind == PC_JOB) {
		/* The target's preparation: migrate-incoming. */
		if (q->rs != RUN_INMIGRATE || q->listening)
			answer_err(pc, "not waiting for a migration");
		else
			qemu_listen(w);
		return;
	}
	switch (pc->cmd) {
	case SC_MIGRATE:
		if (qemu_mig_status_in_progress(s->ms))
			answer_err(pc, "There's a migration process in "
			    "progress");
		else
			start_migration(w);
		break;
	case SC_MIGRATE_RESUME:
		if (s->ms != QMS_POSTCOPY_PAUSED)
			answer_err(pc, "Cannot resume if there is no paused "
			    "migration");
		else if (!qemu_stream_path(w) || !t->recover_listening) {
			answer_err(pc, "Failed to connect socket");
		} else {
			w->ln.stream = 1;
			s->ms = t->ms = QMS_POSTCOPY_ACTIVE;
			t->recover_listening = 0;
			sched_in(w, w->k.postcopy_len / 2 + 0.1, H_PC_DONE, SRC,
			    (uint64_t)s->migrations, 0);
			qemu_status_changed(w, SRC);
			qemu_status_changed(w, TGT);
		}
		break;
	case SC_MIGRATE_RECOVER:
		if (t->ms != QMS_POSTCOPY_PAUSED)
			answer_err(pc, "Migrate recover can only be run when "
			    "postcopy is paused.");
		else
			t->recover_listening = 1;
		break;
	case SC_CANCEL:
		if (role == SRC && (s->ms == QMS_ACTIVE || s->ms == QMS_SETUP)) {
			s->ms = QMS_CANCELLING;
			sched_in(w, rng_range(&w->rng, 0.05, 0.6), H_CANCELLED,
			    SRC, 0, 0);
			qemu_status_changed(w, SRC);
		}
		break;
	case SC_CONT:
		if (role == TGT && q->rs == RUN_INMIGRATE) {
			if (q->ms == QMS_FAILED)
				answer_err(pc, "migration failed: the guest's "
				    "state is not valid");
			else
				q->autostart = 1;
		} else if (q->rs == RUN_PAUSED || q->rs == RUN_POSTMIGRATE ||
		    q->rs == RUN_FINISH_MIGRATE) {
			q->rs = RUN_RUNNING;
			qemu_status_changed(w, role);
		}
		break;
	case SC_STOP:
		if (q->rs == RUN_RUNNING) {
			q->rs = RUN_PAUSED;
			qemu_status_changed(w, role);
			/* A paused guest dirties nothing: it converges. */
			if (role == SRC && s->ms == QMS_ACTIVE) {
				s->converge_at = w->now + 0.5;
				sched_in(w, 0.5, H_SWITCHOVER, SRC,
				    (uint64_t)s->migrations, 0);
			}
		} else if (q->rs == RUN_INMIGRATE)
			q->autostart = 0;
		break;
	case SC_START_POSTCOPY:
		if (s->ms != QMS_ACTIVE || !w->k.postcopy)
			answer_err(pc, "Postcopy must be started after "
			    "migration has been started");
		else
			post_copy(w);
		break;
	case SC_SET_DOWNTIME:
	case SC_AUTO_CONVERGE:
	case SC_DIRTY_LIMIT:
	case SC_DIRTY_LIMIT_NOW:
		break;
	case SC_MIGRATE_INCOMING:
		/* cpr-transfer's new QEMU: no model runs `update` yet. */
		answer_err(pc, "not modelled: cpr-transfer");
		break;
	case SC_MODE_NORMAL:
	case SC_PAUSE_OFF:
		/* cpr only: no model runs `update` yet. */
		answer_err(pc, "not modelled: cpr-transfer");
		break;
	case SC_MIGRATE_CONTINUE:
		/* The model never waits at pre-switchover. */
		answer_err(pc, "Migration not in expected state: active");
		break;
	case SC_QUIT:
		/* QEMU answers, then exits: the monitor closes after. */
		sched_in(w, rng_range(&w->rng, 0.001, 0.05), H_QEMU_QUIT,
		    role, 0, 0);
		break;
	}
}
