/*
 * real.c: the simulator that runs the real executor (real.h).  One seed
 * draws a schedule: the QEMUs' timings, a failing load, signals to either
 * qmigrate, a --timeout, status writes that fail, qmigrate itself stopped
 * then continued, a QEMU killed.  Both sides then run their real
 * mig_source_run()/mig_target_run() over unix: or tls: (real-tls.c) in
 * one process, on simulated time, and the promise is checked after
 * every happening and at the end, as these properties (their ids are
 * what docs/failures.md's sim-real column names, and each violation's
 * text begins with its id; P9 P10 are real-props.c's, S1 S2
 * real-switchover.c's, E1-E5 real-update.c's, D1 real-disks.c's):
 * P1 never both QEMUs run the guest;
 * P2 exit 0 and only 0 with the document's phase Succeeded (excused once
 *    a write of a status document failed);
 * P3 the source's 0 only with the guest on the target (a target QEMU the
 *    world killed excuses it);
 * P4 the source's 2-5 only with the guest running on the source (a dead
 *    source QEMU, the target's -S and the operator's pause excuse it);
 * P5 the target's 0 only with the guest there;
 * P6 the target's 3-5 only with the guest not running there (P5, P6: a
 *    target QEMU the world killed excuses them);
 * P7 qmigrate never dies by a signal;
 * P8 every side ends within its bound of simulated time (SIDE_BOUND);
 * P11 either side's 6 only where post-copy began and the target QEMU
 *    never completed (r_check_postcopy);
 * P12 either side's 0, where post-copy began, only once the target QEMU
 *    completed (r_check_postcopy).
 *
 *	tests/sim/sim-real [--seeds N] [--first S] [--seed S --trace]
 *	    [--dump FILE]
 *
 * --dump writes to FILE every status document the sides wrote (or tried
 * to) and every byte the readers of stdout and stderr read, seed by seed:
 * a change meant to keep the schedules shows the same file before and
 * after it.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "policy.h"
#include "mig-options.h"
#include "world.h"
#include "fiber.h"
#include "qemu-model.h"
#include "real.h"

#define SIDE_BOUND	900.0
#define HORIZON		1200.0

struct r_world R;
FILE *r_dump;

/*
 * A SIGKILLed run leaves its allocations behind, as a killed process
 * does: not leaks of qmigrate's.  The rest of ASan and UBSan stay on.
 */
const char *__lsan_default_options(void);
const char *
__lsan_default_options(void)
{
	return "detect_leaks=0";
}

static const char *status_path[2] = { "/sim/src.status", "/sim/tgt.status" };

static struct policy_set	*no_policies;
static struct mig_options	 opts[2];

static FILE	*report;	/* the real stderr: the sides' logs go away */
static int	 force_qemu = -1;	/* --qemu: WQ_STUB or WQ_MODEL */

/* How often each side's session entered each state, from its log
 * (output.c writes it through the world: world-sim.c hands each write). */
#define MAX_STATES	48
static struct {
	char		 name[32];
	unsigned long	 n;
} entered[2][MAX_STATES];

static void
count_state(int side, const char *name, size_t len)
{
	int i;

	if (len >= sizeof entered[0][0].name)
		return;
	for (i = 0; i < MAX_STATES && entered[side][i].name[0] != '\0'; i++)
		if (strncmp(entered[side][i].name, name, len) == 0 &&
		    entered[side][i].name[len] == '\0')
			break;
	if (i == MAX_STATES)
		return;
	if (entered[side][i].name[0] == '\0')
		memcpy(entered[side][i].name, name, len);
	entered[side][i].n++;
}

/* A line a side logged: "session source: A -> B" counts B. */
void
r_log_line(const char *line, size_t len)
{
	const char	*p, *arrow, *end = line + len;
	int		 side;

	if ((p = memmem(line, len, "session ", 8)) == NULL ||
	    (arrow = memmem(p, (size_t)(end - p), " -> ", 4)) == NULL)
		return;
	if ((size_t)(end - p) >= 15 && strncmp(p, "session source:", 15) == 0)
		side = R_SRC;
	else if ((size_t)(end - p) >= 15 &&
	    strncmp(p, "session target:", 15) == 0)
		side = R_TGT;
	else
		return;
	arrow += 4;
	len = 0;
	while (arrow + len < end && arrow[len] != ' ' && arrow[len] != '\n')
		len++;
	count_state(side, arrow, len);
}

static void
print_states(void)
{
	int side, i;

	for (side = 0; side < 2; side++) {
		fprintf(report, "sim-real: %s states entered:",
		    side == R_SRC ? "source" : "target");
		for (i = 0; i < MAX_STATES && entered[side][i].name[0] != '\0';
		    i++)
			fprintf(report, " %s %lu", entered[side][i].name,
			    entered[side][i].n);
		fprintf(report, "\n");
	}
}
static int	 nviol;
static char	 first_viol[256];

void
r_violation(const char *fmt, ...)
{
	va_list	ap;
	char	text[sizeof first_viol];

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	/* The seed's line names the first; the trace shows each. */
	if (nviol++ == 0)
		memcpy(first_viol, text, sizeof first_viol);
	r_trace(-1, "VIOLATION %s", text);
}

static void
run_source(void *arg)
{
	(void)arg;
	R.sd[R_SRC].rc = mig_source_run(&opts[R_SRC]);
}

static void
run_target(void *arg)
{
	(void)arg;
	R.sd[R_TGT].rc = mig_target_run(&opts[R_TGT]);
}

/* The model's choice among the rows QEMU's table allows. */
static int
choose(void *arg, int n)
{
	(void)arg;
	return (int)(rng_next(&R.rng_qemu) % (uint64_t)n);
}

/*
 * The world's QEMU, from a stream of its own (the other draws stay as
 * they were): the model for three seeds in four, its version 7.2, 10.0
 * or 11.1 alike; else the 7.2 stub.
 */
static void
draw_qemu(void)
{
	struct rng	*g = &R.rng_qemu;
	int		 d;

	rng_seed(g, R.seed ^ 0x71656d7577726c64ULL);
	d = (int)(rng_next(g) % 4);
	R.k.qemu_kind = d == 3 ? WQ_STUB : WQ_MODEL;
	if (force_qemu >= 0)
		R.k.qemu_kind = force_qemu;
	R.k.qemu_version = d;
	if (d == 3)	/* a stub seed forced to the model: any version */
		R.k.qemu_version = (int)(rng_next(g) % 3);
	if (R.k.qemu_kind != WQ_MODEL)
		return;		/* the stub refuses post-copy */
	/* Post-copy allowed on both sides (a policy's allowPostCopy) in
	   half the model's seeds; then the deadline's action is post-copy
	   in half of those with a --timeout, pre-copy never converges in
	   some (the controller's own post-copy), and the stream breaks
	   once or twice in post-copy in some (recovered, or lost). */
	R.k.postcopy = rng_chance(g, 0.5);
	R.k.never_converges = rng_chance(g, R.k.postcopy ? 0.3 : 0.1);
	R.k.postcopy_len = rng_range(g, 0.5, 30);
	if (!R.k.postcopy)
		return;
	/* --recover-timeout: the default 120 s, or a short one */
	R.k.recover_timeout = rng_chance(g, 0.7) ? 120 : rng_range(g, 1, 60);
	if (R.k.src_timeout > 0 && rng_chance(g, 0.5))
		R.k.timeout_action = TIMEOUT_POSTCOPY;
	if (rng_chance(g, 0.4)) {
		R.k.pc_break[0] = rng_range(g, 0.01, R.k.postcopy_len);
		if (rng_chance(g, 0.3))
			R.k.pc_break[1] = R.k.pc_break[0] + rng_range(g, 0.01,
			    20);
	}
}

/* The one target; qemu-model-disks.c checks its server's address. */
static struct wq *
nbd_listener(void *arg, const char *uri)
{
	(void)arg;
	(void)uri;
	return R.q[R_TGT];
}

static struct wq *
listener(void *arg, const char *uri)
{
	(void)arg;
	if (rt_on())
		return rt_listener(uri);
	/* Only once its migrate-incoming ran: before that, the source's
	   connect finds no socket and its migration fails. */
	return wq_listens(R.q[R_TGT], uri) ? R.q[R_TGT] : NULL;
}

/*
 * --events on either side, and the readers of stdout and stderr: either
 * may stop reading at a random moment, then read again, close its end, or
 * never read again (a node agent's pipe that nobody drains).  From a
 * stream of its own, so that the other faults' draw is what it was.
 */
static void
draw_output(void)
{
	struct rng	*g = &R.rng_out;
	int		 i;

	rng_seed(g, R.seed ^ 0x6f75747075747321ULL);
	/* migrate's --timeout-action: the deadline cancels, or pauses the
	   guest so that pre-copy converges (issue 39 item 4); postcopy is
	   not drawn: the stub has no post-copy (it refuses the command). */
	R.k.timeout_action = rng_chance(g, 0.5) ? TIMEOUT_PAUSE :
	    TIMEOUT_ABORT;
	for (i = 0; i < 2; i++)
		R.k.events[i] = rng_chance(g, 0.5);
	/* The status files' filesystem full for a while (a small tmpfs, as
	   rerun-paused-stale.sh has it): every write then fails, not one at
	   random; and either QEMU killed at a random moment. */
	if (rng_chance(g, 0.3)) {
		R.k.full_from = rng_range(g, 0, 60);
		R.k.full_until = R.k.full_from + rng_range(g, 1, 120);
	}
	for (i = 0; i < 2; i++)
		if (rng_chance(g, 0.1))
			R.k.qemu_kill2_at[i] = rng_range(g, 0.1, 90);
	for (i = 0; i < 2; i++) {
		struct r_out *o = &R.out[i];

		if (!rng_chance(g, 0.15))
			continue;
		o->stop_at = rng_range(g, 0.01, 60);
		if (rng_chance(g, 0.4))
			o->resume_at = o->stop_at + rng_range(g, 1, 200);
		else if (rng_chance(g, 0.35))
			o->close_at = o->stop_at + rng_range(g, 0, 100);
	}
}

static void
draw(void)
{
	struct r_knobs *k = &R.k;
	int i;

	memset(k, 0, sizeof *k);
	k->converge = rng_range(&R.rng, 0.5, 40);
	k->load = rng_range(&R.rng, 0.01, 5);
	k->load_fails = rng_chance(&R.rng, 0.15);
	k->dash_s = rng_chance(&R.rng, 0.2);
	if (rng_chance(&R.rng, 0.3))
		k->p_write_fail = rng_range(&R.rng, 0.01, 0.5);
	for (i = 0; i < 2; i++) {
		if (rng_chance(&R.rng, 0.3)) {
			/* every signal whose default action ends a
			   process that a user, a terminal or a dropped SSH
			   session sends */
			static const int sigs[] = { SIGTERM, SIGINT, SIGHUP,
			    SIGQUIT, SIGUSR1, SIGUSR2 };

			k->sig_at[i] = rng_range(&R.rng, 0, 60);
			k->sig_num[i] = sigs[rng_next(&R.rng) % 6];
		}
		if (rng_chance(&R.rng, 0.2)) {
			k->stop_at[i] = rng_range(&R.rng, 0, 60);
			k->stop_len[i] = rng_range(&R.rng, 1, 60);
		}
		if (rng_chance(&R.rng, 0.05))
			k->qemu_kill_at[i] = rng_range(&R.rng, 0.1, 60);
		if (rng_chance(&R.rng, 0.3)) {
			k->hold_k[i] = 1 + (int)(rng_next(&R.rng) % 40);
			k->hold_len[i] = rng_chance(&R.rng, 0.5) ?
			    rng_range(&R.rng, 1, 9.9) :
			    rng_range(&R.rng, 10.1, 40);
		}
		if (rng_chance(&R.rng, 0.2)) {
			k->sigkill_at[i] = rng_range(&R.rng, 0.05, 60);
			k->rerun_after[i] = rng_chance(&R.rng, 0.5) ?
			    rng_range(&R.rng, 0.01, 2) :
			    rng_range(&R.rng, 2, 120);
		}
	}
	if (rng_chance(&R.rng, 0.25))
		k->src_timeout = rng_range(&R.rng, 1, 60);
	if (rng_chance(&R.rng, 0.25))
		k->tgt_timeout = rng_range(&R.rng, 1, 60);
	draw_output();
	draw_qemu();
	rd_draw();
	rf_draw();
	rm_draw();
	rr_draw();
	rqs_draw();
	rs_draw();
	rt_draw(R.k.qemu_kind == WQ_MODEL && !ru_on());
}

static void
set_options(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		memset(&opts[i], 0, sizeof opts[i]);
		opts[i].policies = no_policies;
		opts[i].status_file = status_path[i];
		opts[i].uri = rt_on() ? rt_uri() : "unix:/sim/mig.sock";
		opts[i].node = i == R_SRC ? "node-a" : "node-b";
		opts[i].pod = "sim";
		opts[i].events = R.k.events[i];
	}
	opts[R_SRC].qmp_path = "/sim/src.qmp";
	opts[R_SRC].timeout = R.k.src_timeout;
	if (R.k.src_timeout > 0) {
		opts[R_SRC].timeout_action = R.k.timeout_action;
		opts[R_SRC].timeout_action_given = 1;
	}
	/* A pause needs what a policy's allowWorkloadDisruption gives (the
	   controller may then pause by itself too). */
	if (R.k.timeout_action == TIMEOUT_PAUSE) {
		opts[R_SRC].flags.allow_workload_disruption = 1;
		opts[R_SRC].flags.set |= MIG_SET_DISRUPTION;
	}
	opts[R_TGT].qmp_path = "/sim/tgt.qmp";
	opts[R_TGT].timeout = R.k.tgt_timeout;
	/* The disks copied as a policy's blockMigration: auto asks. */
	for (i = 0; i < 2 && R.k.ndisks > 0; i++) {
		opts[i].flags.block_migration = BLOCK_MIGRATION_AUTO;
		opts[i].flags.set |= MIG_SET_BLOCK_MIGRATION;
	}
	for (i = 0; i < 2 && R.k.postcopy; i++) {
		opts[i].flags.allow_post_copy = 1;
		opts[i].flags.set |= MIG_SET_POST_COPY;
		opts[i].recover_timeout = R.k.recover_timeout;
	}
}

/* The phase of the side's last document ("" when none was written). */
static const char *
doc_phase(int side, char *buf, size_t len)
{
	const struct r_file	*f = world_sim_file(status_path[side]);
	json_object		*doc, *v;

	buf[0] = '\0';
	if (f == NULL || (doc = json_tokener_parse(f->data)) == NULL)
		return buf;
	if (json_object_object_get_ex(doc, "phase", &v))
		snprintf(buf, len, "%s", json_object_get_string(v));
	json_object_put(doc);
	return buf;
}

/*
 * How often each QEMU's migration entered each status, summed over the
 * schedules (as the world saw it after each happening), and how many
 * schedules each QEMU ran: what the world reaches, beside the sessions'
 * states (print_states).
 */
static struct {
	char		 name[32];
	unsigned long	 n;
} qentered[2][24];
static const char	*qlast[2];
static unsigned long	 nqemu[4];	/* stub, 7.2, 10.0, 11.1 */

static void
count_qemu_status(int side)
{
	const char	*st = wq_status(R.q[side]);
	int		 i;

	if (qlast[side] != NULL && strcmp(qlast[side], st) == 0)
		return;
	qlast[side] = st;
	for (i = 0; i < 24 && qentered[side][i].name[0] != '\0' &&
	    strcmp(qentered[side][i].name, st) != 0; i++)
		;
	if (i == 24)
		return;
	if (qentered[side][i].name[0] == '\0')
		snprintf(qentered[side][i].name, sizeof qentered[side][i].name,
		    "%s", st);
	qentered[side][i].n++;
}

static void
print_qemu_states(void)
{
	int side, i;

	fprintf(report, "sim-real: QEMUs: stub %lu, 7.2 %lu, 10.0 %lu, "
	    "11.1 %lu\n", nqemu[0], nqemu[1], nqemu[2], nqemu[3]);
	for (side = 0; side < 2; side++) {
		fprintf(report, "sim-real: %s QEMU statuses entered:",
		    side == R_SRC ? "source" : "target");
		for (i = 0; i < 24 && qentered[side][i].name[0] != '\0'; i++)
			fprintf(report, " %s %lu", qentered[side][i].name,
			    qentered[side][i].n);
		fprintf(report, "\n");
	}
}

/* What the post-copy properties need to know of the QEMUs' way. */
static void
note_qemus(void)
{
	count_qemu_status(R_SRC);
	count_qemu_status(R_TGT);
	/* Either QEMU in a post-copy status: 11.1 passes through
	   postcopy-device, where a source killed leaves its target in
	   postcopy-paused with the device state (seed 130). */
	if (R.postcopy_began == 0 &&
	    (strncmp(wq_status(R.q[R_SRC]), "postcopy-", 9) == 0 ||
	    strncmp(wq_status(R.q[R_TGT]), "postcopy-", 9) == 0))
		R.postcopy_began = R.now;
	if (strcmp(wq_status(R.q[R_TGT]), "completed") == 0)
		R.tgt_completed = 1;
}

/* When the next of the drawn post-copy breaks is due (INFINITY: none). */
static double
pc_break_due(void)
{
	if (R.postcopy_began == 0 || R.pc_breaks >= 2 ||
	    R.k.pc_break[R.pc_breaks] == 0)
		return INFINITY;
	return R.postcopy_began + R.k.pc_break[R.pc_breaks];
}

static void
check_now(void)
{
	note_qemus();
	if (wq_runs_guest(R.q[R_SRC]) && wq_runs_guest(R.q[R_TGT]) &&
	    !R.both_ran) {
		R.both_ran = 1;
		r_violation("P1: both QEMUs run the guest");
	}
	rp_check_now();
	rd_check_now();
	if (ru_on())
		ru_check_now();
}

/*
 * The source QEMU's migration goes on only while a qmigrate drives it: a
 * pre-copy (its controller decides the end), or a wait in pre-switchover
 * for migrate-continue (migrate sets pause-before-switchover).
 */
static int
r_src_undriven(void)
{
	const char *st = wq_status(R.q[R_SRC]);

	return strcmp(st, "active") == 0 || strcmp(st, "pre-switchover") == 0;
}

static void
r_check_end(void)
{
	char	 phase[32];
	int	 i;

	for (i = 0; i < 2; i++) {
		const struct r_side *sd = &R.sd[i];
		const char *who = i == R_SRC ? "source" : "target";

		if (i == R_TGT && ru_on())
			continue;	/* an update has no target side */
		if (!sd->done && i == R_TGT &&
		    strcmp(wq_runstate(R.q[R_TGT]), "inmigrate") == 0 &&
		    R.sd[R_SRC].done && R.sd[R_SRC].rerun_at == 0 &&
		    ((R.k.tgt_timeout == 0 && !r_src_undriven()) ||
		    (r_src_undriven() &&
		    (R.sd[R_SRC].rc == QM_EXIT_USAGE ||
		    R.sd[R_SRC].rc == QM_EXIT_UNKNOWN))))
			continue;	/* nothing came and no --timeout, or a
					   migration no one drives runs on, or
					   waits in pre-switchover (a
					   re-run that could not read its file
					   left it, 1; or the source's 8 and no
					   agent ran it again, as the README
					   says to; --timeout is for one to
					   arrive): it waits, as a server does
					   (the old sim's rule), as QEMU's
					   incoming does, and as KubeVirt's
					   target, which has no deadline of its
					   own (real-rerun.c) */
		/* P8 is each run's: one the agent started less than the
		   bound before the horizon (it runs a side that keeps
		   saying 8 again and again: real-rerun.c) has not overrun
		   it; its predecessors' exits were judged as they came. */
		if (!sd->done && R.now - sd->start_t < SIDE_BOUND)
			continue;
		if (!sd->done) {
			r_violation("P8: the %s did not end within %.0f s", who,
			    SIDE_BOUND);
			continue;
		}
		if (sd->died_by != 0) {
			r_violation("P7: the %s died by signal %d", who,
			    sd->died_by);
			continue;
		}
		doc_phase(i, phase, sizeof phase);
		if ((sd->rc == 0) != (strcmp(phase, "Succeeded") == 0) &&
		    R.write_fails == 0)
			r_violation("P2: the %s exits %d with phase %s", who,
			    sd->rc, phase);
	}
	if (ru_on()) {
		ru_check_end();
		return;
	}
	if (R.sd[R_TGT].done && R.sd[R_TGT].died_by == 0 &&
	    !R.qemu_killed[R_TGT]) {
		int rc = R.sd[R_TGT].rc;

		if (rc == 0 && !wq_has_guest(R.q[R_TGT]))
			r_violation("P5: the target exits 0 without the guest "
			    "(%s, %s)", wq_status(R.q[R_TGT]),
			    wq_runstate(R.q[R_TGT]));
		if (rc >= 3 && rc <= 5 && wq_runs_guest(R.q[R_TGT]))
			r_violation("P6: the target exits %d while the guest "
			    "runs there", rc);
	}
	if (!R.sd[R_SRC].done || R.sd[R_SRC].died_by != 0)
		return;
	switch (R.sd[R_SRC].rc) {
	case 0:
		if (!wq_has_guest(R.q[R_TGT]) && !R.qemu_killed[R_TGT])
			r_violation("P3: the source exits 0 but the guest is "
			    "not on the target (%s, %s)", wq_status(R.q[R_TGT]),
			    wq_runstate(R.q[R_TGT]));
		break;
	case 2: case 3: case 4: case 5:
		/*
		 * A re-run over a record whose write of the killed run's
		 * pause failed cannot tell that pause from an operator's,
		 * and leaves both (seed 9601661): paused, not lost.
		 */
		if (wq_alive(R.q[R_SRC]) && !wq_runs_guest(R.q[R_SRC]) &&
		    !R.k.dash_s && !rf_operator_paused() &&
		    !(R.sd[R_SRC].runs > 0 && rp_write_fails(R_SRC) > 0 &&
		    strcmp(wq_runstate(R.q[R_SRC]), "paused") == 0))
			r_violation("P4: the source exits %d but its guest "
			    "does not run there (%s)", R.sd[R_SRC].rc,
			    wq_runstate(R.q[R_SRC]));
		break;
	}
}

/*
 * The post-copy properties (docs/failures.md's rows): P11 exit 6 ("the
 * guest may be lost") only where post-copy began and the target never
 * completed; P12 a side's 0 not before the target completed where
 * post-copy began (until then the guest's memory is split).
 */
static void
r_check_postcopy(void)
{
	int	 i;

	for (i = 0; i < 2; i++) {
		const struct r_side *sd = &R.sd[i];
		const char *who = i == R_SRC ? "source" : "target";

		if (!sd->done || sd->died_by != 0)
			continue;
		/* (a target QEMU the world killed took the guest with it) */
		if (sd->rc == 6 && (R.postcopy_began == 0 ||
		    (R.tgt_completed && !R.qemu_killed[R_TGT])))
			r_violation("P11: the %s exits 6 but %s", who,
			    R.postcopy_began == 0 ? "post-copy never began" :
			    "the target completed");
		if (sd->rc == 0 && R.postcopy_began > 0 && !R.tgt_completed &&
		    !R.qemu_killed[R_TGT])
			r_violation("P12: the %s exits 0 after post-copy began, "
			    "the target never completing", who);
	}
}

/* Resumes side i for one turn; notes its end. */
static void
resume(int i)
{
	struct r_side *sd = &R.sd[i];

	if (sd->done || R.now < sd->stopped_until || sd->write_blocked)
		return;
	sd->dirty = 0;
	R.cur = i;
	if (fiber_resume(sd->fiber)) {
		sd->done = 1;
		sd->end_t = R.now;
		r_trace(i, "exit %d", sd->rc);
		rr_ended(i, status_path[i]);
	}
	R.cur = -1;
}

/* settle() ended with nobody left to resume (not at its bound). */
static int	 settled;

/* Lets bytes flow until nobody has anything more to read. */
static void
settle(void)
{
	int i, rounds;

	settled = 0;
	for (rounds = 0; rounds < 1000; rounds++) {
		int any = 0;

		world_sim_pump();
		for (i = 0; i < 2; i++)
			if (R.sd[i].dirty && !R.sd[i].done &&
			    R.now >= R.sd[i].stopped_until &&
			    !R.sd[i].write_blocked) {
				any = 1;
				resume(i);
			}
		check_now();
		if (!any) {
			settled = 1;
			return;
		}
	}
}

/* The earliest thing the world will do but the QEMUs' own steps. */
static double
next_due_world(void)
{
	double	 t = INFINITY;
	int	 i;

	t = fmin(t, world_sim_next_release());
	t = fmin(t, world_sim_out_due());
	t = fmin(t, rs_due());
	t = fmin(t, rt_due());
	t = fmin(t, rm_due());
	for (i = 0; i < R.ntimers; i++)
		if (!R.sd[R.timers[i].side].done)
			t = fmin(t, fmax(R.timers[i].due,
			    R.sd[R.timers[i].side].stopped_until));
	t = fmin(t, pc_break_due());
	t = fmin(t, rd_due());
	t = fmin(t, rqs_due());
	for (i = 0; i < 2; i++) {
		if (R.k.sig_at[i] > R.now)
			t = fmin(t, R.k.sig_at[i]);
		if (R.k.qemu_kill_at[i] > R.now)
			t = fmin(t, R.k.qemu_kill_at[i]);
		if (R.k.qemu_kill2_at[i] > R.now)
			t = fmin(t, R.k.qemu_kill2_at[i]);
		if (R.k.stop_at[i] > R.now)
			t = fmin(t, R.k.stop_at[i]);
		if (R.sd[i].stopped_until > R.now)
			t = fmin(t, R.sd[i].stopped_until);
		if (R.k.sigkill_at[i] > R.now)
			t = fmin(t, R.k.sigkill_at[i]);
		if (R.sd[i].rerun_at > 0)
			t = fmin(t, R.sd[i].rerun_at);
	}
	return t;
}

/* The QEMUs' next own steps (a QEMU stopped takes none). */
static double
next_due_qemus(void)
{
	double	 t = INFINITY;
	int	 i;

	for (i = 0; i < 2; i++)
		if (!rqs_stopped(i))
			t = fmin(t, wq_due(R.q[i]));
	return t;
}

/*
 * Whether happen() at R.now, with nothing of next_due_world()'s due by
 * then (tw), would only step the QEMUs: none of the drawn moments it
 * takes at or before now (next_due_world() counts them only while ahead)
 * is left.
 */
static int
only_qemus_due(double tw)
{
	int i;

	if (!(R.now < tw) || rd_pending())
		return 0;
	for (i = 0; i < 2; i++) {
		const struct r_side *sd = &R.sd[i];

		if ((R.k.sigkill_at[i] > 0 && R.k.sigkill_at[i] <= R.now) ||
		    (R.k.stop_at[i] > 0 && R.k.stop_at[i] <= R.now) ||
		    (R.k.qemu_kill_at[i] > 0 &&
		    R.k.qemu_kill_at[i] <= R.now) ||
		    (R.k.qemu_kill2_at[i] > 0 &&
		    R.k.qemu_kill2_at[i] <= R.now) ||
		    (!sd->done && R.k.sig_at[i] > 0 &&
		    R.k.sig_at[i] <= R.now) ||
		    (!sd->done && sd->stopped_until > 0 &&
		    sd->stopped_until <= R.now))
			return 0;
	}
	return 1;
}

/*
 * A turn in which only the QEMUs' own steps are due (only_qemus_due()).
 * Returns whether a step moved either QEMU; one that only let time pass
 * (a migration waiting on its peer: 50 steps a second, most of a
 * schedule that waits to the horizon) changed nothing that settle(),
 * after one that ended settled, could find or check_now() judge.
 */
static int
qemus_step(void)
{
	int i, moved = 0;

	for (i = 0; i < 2; i++)
		if (!rqs_stopped(i))
			moved |= wq_advance(R.q[i], R.now);
	return moved;
}

/* Everything due at R.now, in a fixed order. */
static void
happen(void)
{
	int i, j;

	rqs_happen();
	for (i = 0; i < 2; i++) {
		if (R.k.sigkill_at[i] > 0 && R.k.sigkill_at[i] <= R.now) {
			R.k.sigkill_at[i] = 0;
			if (!R.sd[i].done) {
				r_trace(i, "SIGKILL");
				world_sim_side_gone(i);
				R.sd[i].done = 1;
				R.sd[i].rerun_at = R.now + R.k.rerun_after[i];
			}
		}
		if (R.sd[i].rerun_at > 0 && R.sd[i].rerun_at <= R.now) {
			/* The node agent runs it again, same options: it
			   finds its record in the status file. */
			R.sd[i].rerun_at = 0;
			R.sd[i].done = 0;
			R.sd[i].runs++;
			R.sd[i].stopped_until = 0;
			R.sd[i].write_blocked = 0;
			if (R.nabandoned == (int)(sizeof R.abandoned /
			    sizeof R.abandoned[0]))
				fatalx("sim: too many re-runs");
			R.abandoned[R.nabandoned++] = R.sd[i].fiber;
			R.sd[i].fiber = fiber_new(i == R_SRC ? run_source :
			    run_target, NULL);
			R.sd[i].start_t = R.now;
			r_trace(i, "re-run");
			rr_started(i, status_path[i]);
			resume(i);
		}
		if (R.k.stop_at[i] > 0 && R.k.stop_at[i] <= R.now) {
			R.sd[i].stopped_until = R.now + R.k.stop_len[i];
			R.k.stop_at[i] = 0;
			r_trace(i, "qmigrate stopped for %.1f s",
			    R.k.stop_len[i]);
		}
		if ((R.k.qemu_kill_at[i] > 0 && R.k.qemu_kill_at[i] <= R.now) ||
		    (R.k.qemu_kill2_at[i] > 0 &&
		    R.k.qemu_kill2_at[i] <= R.now)) {
			if (R.k.qemu_kill_at[i] <= R.now)
				R.k.qemu_kill_at[i] = 0;
			if (R.k.qemu_kill2_at[i] <= R.now)
				R.k.qemu_kill2_at[i] = 0;
			if (wq_alive(R.q[i])) {
				r_trace(i, "QEMU killed");
				R.qemu_killed[i] = 1;
				world_sim_kill_qemu(i);
			}
		}
		if (!rqs_stopped(i))
			wq_advance(R.q[i], R.now);
		if (R.k.sig_at[i] > 0 && R.k.sig_at[i] <= R.now &&
		    !R.sd[i].done) {
			R.sd[i].signal = R.k.sig_num[i];
			R.sd[i].dirty = 1;
			R.k.sig_at[i] = 0;
			r_trace(i, "signal %d", R.sd[i].signal);
		}
	}
	if (pc_break_due() <= R.now) {
		/* A network failure in post-copy: both ends see the stream
		   break (QEMU's postcopy_pause). */
		r_trace(-1, "the migration stream breaks (%s)",
		    wq_status(R.q[R_SRC]));
		R.pc_breaks++;
		wq_break_stream(R.q[R_SRC]);
	}
	world_sim_out_happen();
	rs_happen();
	rt_happen();
	rd_happen();
	rm_happen();
	/* Timers due (a stopped qmigrate's fire when it continues). */
	for (j = 0; j < R.ntimers; ) {
		struct r_timer	*rt = &R.timers[j];
		struct r_side	*sd = &R.sd[rt->side];

		if (rt->due <= R.now && R.now >= sd->stopped_until &&
		    !sd->done && sd->ndue < R_MAX_TIMERS) {
			sd->due_timers[sd->ndue++] = *rt;
			sd->dirty = 1;
			R.timers[j] = R.timers[--R.ntimers];
		} else
			j++;
	}
	for (i = 0; i < 2; i++)
		if (!R.sd[i].done && R.now >= R.sd[i].stopped_until &&
		    R.sd[i].stopped_until > 0 && R.sd[i].stopped_until <=
		    R.now) {
			R.sd[i].dirty = 1;
			R.sd[i].stopped_until = 0;
		}
}

/*
 * Both sides ended: the QEMUs go on with what they were doing when the
 * last one exited (a failed migration's vm_start comes a step after the
 * status), for QEMU_SETTLE s, so that the end is judged on where the
 * guest ends up, as the old simulator's "once the QEMUs settle".
 */
#define QEMU_SETTLE	10.0
static void
qemus_settle(void)
{
	double	 until = R.now + QEMU_SETTLE, t;

	for (;;) {
		t = fmin(wq_due(R.q[R_SRC]), wq_due(R.q[R_TGT]));
		if (!(t <= until))
			break;
		R.now = fmax(R.now, t);
		wq_advance(R.q[R_SRC], R.now);
		wq_advance(R.q[R_TGT], R.now);
		world_sim_pump();
		check_now();
	}
}

static void
world_free(void)
{
	int i;

	world_sim_out_close();
	for (i = 0; i < R_MAX_CONNS; i++)
		if (R.conns[i].used)
			close(R.conns[i].srv);
	for (i = 0; i < 2; i++)
		while (R.nheld[i] > 0)
			free(R.held[i][--R.nheld[i]].line);
	for (i = 0; i < R_MAX_FILES; i++)
		free(R.files[i].data);
	for (i = 0; i < 2; i++) {
		fiber_free(R.sd[i].fiber);
		wq_free(R.q[i]);
	}
	/* A killed run's stack goes; what its heap held is a killed
	   process's, never freed (LeakSanitizer is told below). */
	for (i = 0; i < R.nabandoned; i++)
		fiber_free(R.abandoned[i]);
}

/* One schedule; the number of violations. */
static int
run_seed(uint64_t seed, int trace)
{
	struct wq_world		 qw = { .listener = listener,
				    .choose = choose,
				    .nbd_listener = nbd_listener };
	struct wq_config	 qc;
	double			 t;
	int			 steps = 0;

	memset(&R, 0, sizeof R);
	if (r_dump != NULL)
		fprintf(r_dump, "seed %llu\n", (unsigned long long)seed);
	R.seed = seed;
	R.trace = trace;
	R.cur = -1;
	rng_seed(&R.rng, seed);
	draw();
	set_options();
	if (ru_on())
		ru_setup(&opts[R_SRC]);
	world_sim_out_open();
	r_trace(-1, "drawn: QEMU %s, --timeout %.1f (%s) and %.1f, "
	    "--events %d %d, readers stop at %.1f %.1f, %s", R.k.qemu_kind ==
	    WQ_STUB ? "stub" : qm_version_name(R.k.qemu_version),
	    R.k.src_timeout,
	    timeout_action_name(R.k.timeout_action), R.k.tgt_timeout,
	    R.k.events[R_SRC], R.k.events[R_TGT], R.out[0].stop_at,
	    R.out[1].stop_at, opts[R_SRC].uri);
	nviol = 0;
	first_viol[0] = '\0';
	rp_start();
	rd_start();

	memset(&qc, 0, sizeof qc);
	qc.kind = R.k.qemu_kind;
	qc.version = R.k.qemu_version;
	qc.converge = R.k.never_converges ? -1 : R.k.converge;
	qc.postcopy_len = R.k.postcopy_len;
	qc.ndisks = R.k.ndisks;
	qc.mirror_len[0] = R.k.mirror_len[0];
	qc.mirror_len[1] = R.k.mirror_len[1];
	R.q[R_SRC] = ru_on() ? ru_new_qemu(&qw) : wq_new(&qc, &qw);
	qc.incoming = 1;
	qc.dash_s = R.k.dash_s;
	qc.load = R.k.load;
	qc.load_fails = R.k.load_fails;
	qc.disk_short = R.k.disk_short;
	R.q[R_TGT] = wq_new(&qc, &qw);
	qlast[R_SRC] = qlast[R_TGT] = NULL;
	nqemu[R.k.qemu_kind == WQ_STUB ? 0 : 1 + R.k.qemu_version]++;

	R.sd[R_SRC].fiber = fiber_new(run_source, NULL);
	if (ru_on())
		R.sd[R_TGT].done = 1;	/* one QEMU, no incoming */
	else {
		/* incoming first, as the README's quick start has it */
		R.sd[R_TGT].fiber = fiber_new(run_target, NULL);
		resume(R_TGT);
		settle();
	}
	R.now = 0.1;
	rf_before_source();
	R.now = 0.2;
	resume(R_SRC);
	settle();
	while (!(R.sd[R_SRC].done && R.sd[R_TGT].done &&
	    R.sd[R_SRC].rerun_at == 0 && R.sd[R_TGT].rerun_at == 0) &&
	    steps++ < 200000) {
		double tw = next_due_world(), tq = next_due_qemus();

		t = fmin(tw, tq);
		if (!isfinite(t) || t > HORIZON)
			break;
		R.now = fmax(R.now, t);
		if (tq < tw && settled && only_qemus_due(tw)) {
			if (qemus_step())
				settle();
			continue;
		}
		happen();
		settle();
	}
	qemus_settle();
	r_check_end();
	if (ru_on())
		ru_before_props();
	rp_check_end();
	r_check_postcopy();
	rd_check_end();
	rs_check_end();
	if (trace || nviol > 0)
		fprintf(report, "seed %llu (QEMU %s): source %d target %d "
		    "(%s/%s, %s/%s)%s%s\n", (unsigned long long)seed,
		    wq_name(R.q[R_SRC]), R.sd[R_SRC].rc, R.sd[R_TGT].rc,
		    wq_status(R.q[R_SRC]), wq_runstate(R.q[R_SRC]),
		    wq_status(R.q[R_TGT]), wq_runstate(R.q[R_TGT]),
		    nviol > 0 ? ": " : "", first_viol);
	/* A side still running at the horizon is abandoned on its fiber. */
	world_free();
	return nviol;
}

int
main(int argc, char **argv)
{
	uint64_t	 first = 1, n = 300;
	int		 trace = 0, i, bad = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--seeds") == 0 && i + 1 < argc)
			n = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--first") == 0 && i + 1 < argc)
			first = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
			first = strtoull(argv[++i], NULL, 10);
			n = 1;
		} else if (strcmp(argv[i], "--trace") == 0)
			trace = 1;
		else if (strcmp(argv[i], "--dump") == 0 && i + 1 < argc) {
			if ((r_dump = fopen(argv[++i], "w")) == NULL) {
				perror(argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "--update-exec") == 0)
			ru_enable();
		else if (strcmp(argv[i], "--qemu") == 0 && i + 1 < argc &&
		    (strcmp(argv[i + 1], "stub") == 0 ||
		    strcmp(argv[i + 1], "model") == 0))
			force_qemu = strcmp(argv[++i], "stub") == 0 ? WQ_STUB :
			    WQ_MODEL;
		else {
			fprintf(stderr, "usage: sim-real [--seeds N] "
			    "[--first S] [--seed S [--trace]] "
			    "[--qemu stub|model] [--update-exec] "
			    "[--dump FILE]\n");
			return 2;
		}
	}
	/* The documents the real status.c prints go nowhere; so do the
	   sides' logs unless --trace. */
	if ((report = fdopen(dup(2), "w")) == NULL ||
	    freopen("/dev/null", "w", stdout) == NULL)
		return 2;
	if (!trace && freopen("/dev/null", "w", stderr) == NULL)
		return 2;
	setvbuf(report, NULL, _IOLBF, 0);
	world_sim_install();
	rt_install();
	log_init("qmigrate", LOG_LEVEL_DEBUG, 0);
	no_policies = policy_set_new("/sim/policies.d");
	for (uint64_t s = first; s < first + n; s++)
		bad += run_seed(s, trace) > 0;
	policy_set_free(no_policies);
	if (r_dump != NULL && fclose(r_dump) != 0)
		return 2;
	print_states();
	print_qemu_states();
	rf_report(report);
	rm_report(report);
	rr_report(report);
	rqs_report(report);
	rp_report(report);
	rs_report(report);
	rd_report(report);
	ru_report(report);
	rt_report(report);
	fprintf(report, "sim-real: %llu schedules from seed %llu: %d broke "
	    "the promise\n", (unsigned long long)n, (unsigned long long)first,
	    bad);
	return bad > 0;
}
