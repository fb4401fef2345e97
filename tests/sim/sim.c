/*
 * sim.c: the handoff simulator's scheduler (tests/sim/README.md).  One
 * 64-bit seed draws a schedule's setting and its fault probabilities
 * (swarm testing: each seed its own mix), then every delay and every
 * fault's moment; the happenings run in time order (ties by the order
 * they were scheduled), both sides' real steps decide, and check.c checks
 * the promise after every happening and at the end.
 *
 *   sim [--seeds N] [--first S]	N schedules from seed S (default
 *					3000 from 1), figures at the end
 *   sim --seed S [--trace]		one schedule, its trace
 *
 * Exit status: 0 when no schedule broke the promise, 1 otherwise.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim.h"

#define LIMIT		3000.0	/* seconds of simulated time, at most */
#define SETTLE		120.0	/* after both sides ended: QEMUs settle */

const char *fault_names[F_COUNT] = {
	[F_HOLD] = "hold>10s", [F_HOLD_SHORT] = "hold<10s",
	[F_DROP] = "drop", [F_CUT] = "monitor-cut",
	[F_REFUSE] = "reconnect-refused", [F_QEMU_STOP] = "qemu-stop",
	[F_QEMU_KILL] = "qemu-kill", [F_LOAD_FAIL] = "load-fails",
	[F_LINK_CUT] = "link-cut", [F_CONTROL_CUT] = "control-cut",
	[F_ANSWER_LATE] = "control-late", [F_SIGNAL] = "signal",
	[F_DEADLINE] = "deadline", [F_KILL_SIDE] = "sigkill-qmigrate",
	[F_RERUN_AFTER_8] = "rerun-after-8",
};

const char *viol_names[V_COUNT] = {
	[V_BOTH_RUN] = "both-run", [V_EXIT_PHASE] = "exit-vs-phase",
	[V_EXIT_0_NOT_TARGET] = "exit0-guest-not-on-target",
	[V_EXIT_SOURCE_NOT_RUNNING] = "exit2345-guest-not-running-on-source",
	[V_EXIT_6_NOT_LOST] = "exit6-guest-not-lost",
	[V_EXIT_8_KNOWN] = "exit8-outcome-was-known",
	[V_EXIT_OTHER] = "exit-unexpected", [V_NO_END] = "no-end",
	[V_OVERFLOW] = "action-overflow",
};

/* What happened in this schedule, for a failing seed's one line. */
static char	 fault_log[1024];
static unsigned	 viol_seen;

/* ---- the happenings' heap ------------------------------------------ */

static int
hap_before(const struct hap *a, const struct hap *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

void
sched(struct world *w, double at, const struct hap *h)
{
	size_t i;

	if (w->nheap == w->capheap) {
		w->capheap = w->capheap ? w->capheap * 2 : 256;
		w->heap = realloc(w->heap, w->capheap * sizeof *w->heap);
		if (w->heap == NULL)
			abort();
	}
	i = w->nheap++;
	w->heap[i] = *h;
	w->heap[i].t = at;
	w->heap[i].seq = ++w->seq;
	while (i > 0 && hap_before(&w->heap[i], &w->heap[(i - 1) / 2])) {
		struct hap tmp = w->heap[i];

		w->heap[i] = w->heap[(i - 1) / 2];
		w->heap[(i - 1) / 2] = tmp;
		i = (i - 1) / 2;
	}
}

static struct hap
pop(struct world *w)
{
	struct hap	top = w->heap[0];
	size_t		i = 0, l, m;

	w->heap[0] = w->heap[--w->nheap];
	for (;;) {
		l = 2 * i + 1;
		m = i;
		if (l < w->nheap && hap_before(&w->heap[l], &w->heap[m]))
			m = l;
		if (l + 1 < w->nheap && hap_before(&w->heap[l + 1],
		    &w->heap[m]))
			m = l + 1;
		if (m == i)
			break;
		struct hap tmp = w->heap[i];
		w->heap[i] = w->heap[m];
		w->heap[m] = tmp;
		i = m;
	}
	return top;
}

void
sched_in(struct world *w, double delay, enum hap_kind kind, int side,
    uint64_t gen, int a)
{
	struct hap h;

	memset(&h, 0, sizeof h);
	h.kind = kind;
	h.side = side;
	h.gen = gen;
	h.a = a;
	if (kind == H_RERUN)
		w->rerun_pending++;
	sched(w, w->now + delay, &h);
}

/* ---- reporting ----------------------------------------------------- */

void
trace(struct world *w, int side, const char *fmt, ...)
{
	va_list ap;

	if (!w->trace)
		return;
	printf("%10.4f %s ", w->now, side == SRC ? "src" : side == TGT ?
	    "tgt" : "---");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

void
fault(struct world *w, enum fault f, int side, const char *what)
{
	size_t n = strlen(fault_log);

	w->faults[f]++;
	if (f == F_HOLD || f == F_DROP || f == F_CUT || f == F_QEMU_STOP ||
	    f == F_QEMU_KILL || f == F_KILL_SIDE)
		w->trouble[side] = 1;
	if (f == F_LINK_CUT || f == F_CONTROL_CUT || f == F_ANSWER_LATE)
		w->trouble[SRC] = w->trouble[TGT] = 1;
	if (n + 64 < sizeof fault_log)
		snprintf(fault_log + n, sizeof fault_log - n, "%s%s:%s(%s)@%.1f",
		    n > 0 ? " " : "", fault_names[f], side == SRC ? "src" :
		    "tgt", what, w->now);
	trace(w, side, "FAULT %s: %s", fault_names[f], what);
}

void
violation(struct world *w, enum viol v, const char *fmt, ...)
{
	va_list	ap;
	char	msg[400];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (w->trace)
		printf("%10.4f !!! VIOLATION %s: %s\n", w->now, viol_names[v],
		    msg);
	if (viol_seen & (1u << v))
		return;
	viol_seen |= 1u << v;
	w->viols[v]++;
	if (w->first_viol[0] == '\0')
		snprintf(w->first_viol, sizeof w->first_viol, "%s: %s",
		    viol_names[v], msg);
}

/* ---- a schedule ---------------------------------------------------- */

/* Swarm: a fault kind is off for half the seeds, else at its own rate. */
static double
swarm(struct rng *r, double lo, double hi)
{
	return rng_chance(r, 0.5) ? rng_range(r, lo, hi) : 0;
}

static void
draw_knobs(struct world *w)
{
	struct rng	*r = &w->rng;
	struct knobs	*k = &w->k;
	int		 i;

	memset(k, 0, sizeof *k);
	k->tls = rng_chance(r, 0.5);
	k->dash_s = rng_chance(r, 0.4);
	k->keep_paused = rng_chance(r, 0.1);
	k->exit_on_error = rng_chance(r, 0.6);
	k->postcopy = rng_chance(r, 0.4);
	k->disruption = rng_chance(r, 0.5);
	k->acceptable = (int)rng_range(r, 3, 30);
	k->converge = rng_chance(r, 0.25) ? 0 : rng_range(r, 0.5, 25);
	k->postcopy_len = rng_range(r, 0.3, 8);
	k->src_timeout = rng_chance(r, 0.3) ? rng_range(r, 1, 60) : 0;
	k->tgt_timeout = rng_chance(r, 0.3) ? rng_range(r, 0.5, 60) : 0;
	k->answer_delay = rng_range(r, 0.001, 0.2);
	k->link_delay = rng_range(r, 0.005, 0.3);
	for (i = 0; i < 2; i++) {
		k->p_hold[i] = swarm(r, 0.02, 0.3);
		k->p_hold_short[i] = swarm(r, 0.02, 0.3);
		k->p_drop[i] = swarm(r, 0.02, 0.2);
		k->p_cut_on_change[i] = swarm(r, 0.05, 0.5);
		k->p_cut_after_cmd[i] = swarm(r, 0.02, 0.2);
		k->signals[i] = rng_chance(r, 0.3) ? 1 + (int)(rng_next(r) % 2) :
		    0;
		k->sig_on_change[i] = rng_chance(r, 0.3);
		k->kill_side[i] = rng_chance(r, 0.12);
		k->qemu_stop[i] = rng_chance(r, 0.2);
		k->qemu_kill[i] = rng_chance(r, 0.08);
		k->relay[i] = rng_chance(r, 0.5);
		k->monitor_cut[i] = rng_chance(r, 0.3) ?
		    1 + (int)(rng_next(r) % 2) : 0;
	}
	k->p_refuse_long = rng_unit(r);
	k->p_load_fail = swarm(r, 0.1, 0.6);
	k->p_link_cut = rng_chance(r, 0.25);
	k->p_control_cut = rng_chance(r, 0.25);
	k->p_answer_late = swarm(r, 0.02, 0.3);
	k->rerun_after_8 = rng_chance(r, 0.8);
	k->p_postcopy_break = swarm(r, 0.3, 0.9);
	k->horizon = (k->converge > 0 ? k->converge : k->acceptable) + 8;
}

static void
at_random(struct world *w, enum hap_kind kind, int side, int a, double x)
{
	struct hap h;

	memset(&h, 0, sizeof h);
	h.kind = kind;
	h.side = side;
	h.a = a;
	h.x = x;
	sched(w, rng_range(&w->rng, 0, w->k.horizon), &h);
}

static void
plan_faults(struct world *w)
{
	struct rng	*r = &w->rng;
	int		 i, n;

	for (i = 0; i < 2; i++) {
		for (n = 0; n < w->k.signals[i]; n++)
			at_random(w, H_SIGNAL, i, 0, 0);
		if (w->k.kill_side[i])
			at_random(w, H_KILL_SIDE, i, 0, 0);
		if (w->k.qemu_stop[i])
			at_random(w, H_QEMU_STOP, i, 0, rng_chance(r, 0.25) ?
			    rng_range(r, 35, 60) : rng_range(r, 1, 9));
		if (w->k.qemu_kill[i])
			at_random(w, H_QEMU_KILL, i, 0, 0);
		for (n = 0; n < w->k.monitor_cut[i]; n++)
			at_random(w, H_CUT, i, 0, 0);
	}
	if (w->k.tls && w->k.p_link_cut > 0)
		at_random(w, H_LINK_CUT, SRC, 1, rng_chance(r, 0.3) ?
		    rng_range(r, 30, 50) : rng_range(r, 0.5, 8));
	if (w->k.tls && w->k.p_control_cut > 0)
		at_random(w, H_LINK_CUT, SRC, 0, 0);
}

static void
world_hap(struct world *w, const struct hap *h)
{
	struct qemu	*q = &w->q[h->side];
	struct hap	 c;
	double		 refuse;

	switch (h->kind) {
	case H_SWITCHOVER:
		if (h->gen == (uint64_t)w->q[SRC].migrations)
			qemu_switchover(w);
		break;
	case H_LOAD_DONE:
		qemu_load_done(w, h->a);
		break;
	case H_ACCEPT:
		qemu_accept(w);
		break;
	case H_PC_DONE:
		if (h->gen == (uint64_t)w->q[SRC].migrations)
			qemu_postcopy_done(w);
		break;
	case H_CANCELLED:
		qemu_cancelled(w);
		break;
	case H_CUT:
		if (!q->alive)
			break;
		refuse = rng_chance(&w->rng, w->k.p_refuse_long) ?
		    rng_range(&w->rng, 35, 60) : rng_chance(&w->rng, 0.5) ? 0 :
		    rng_range(&w->rng, 1, 29);
		fault(w, F_CUT, h->side, "the monitor's connection");
		if (refuse > 0) {
			fault(w, F_REFUSE, h->side, "reconnects refused");
			q->refuse_until = w->now + refuse;
		}
		monitor_closed(w, h->side, "cut by the relay");
		break;
	case H_QEMU_STOP:
		if (!q->alive || q->stopped)
			break;
		fault(w, F_QEMU_STOP, h->side, "SIGSTOP");
		q->stopped = 1;
		memset(&c, 0, sizeof c);
		c.kind = H_QEMU_CONT;
		c.side = h->side;
		sched(w, w->now + h->x, &c);
		break;
	case H_QEMU_CONT:
		q->stopped = 0;
		trace(w, h->side, "qemu: SIGCONT");
		/* What waited in the monitor is read, in order. */
		if (q->ndeferred > 0)
			qemu_release_next(w, h->side);
		break;
	case H_QEMU_QUIT:
		qemu_kill(w, h->side, "quit");
		break;
	case H_QEMU_KILL:
		if (w->sd[SRC].finished || w->sd[TGT].finished || !q->alive)
			break;
		fault(w, F_QEMU_KILL, h->side, "SIGKILL");
		qemu_kill(w, h->side, "killed");
		break;
	case H_LINK_CUT:
		if (!w->k.tls)
			break;
		if (h->a) {
			fault(w, F_LINK_CUT, SRC, "every connection");
			w->ln.refuse_until = w->now + h->x;
			link_ctl_lost(w, "the network went down");
			qemu_stream_break(w, "the network went down");
		} else {
			fault(w, F_CONTROL_CUT, SRC, "the control connection");
			link_ctl_lost(w, "connection reset");
		}
		break;
	case H_CTL_DELIVER:
	case H_CTL_ANSWER:
	case H_CTL_TIMEOUT:
	case H_CTL_CLOSE:
		link_hap(w, h);
		break;
	case H_KILL_SIDE:
		side_kill(w, h->side);
		break;
	case H_RERUN:
		w->rerun_pending--;
		side_start(w, SRC);
		break;
	case H_SIG_SOON:
		break;
	default:
		side_hap(w, h);
		break;
	}
}

static int
sides_ended(const struct world *w)
{
	return w->rerun_pending == 0 && (w->sd[SRC].finished ||
	    !w->sd[SRC].alive) && (w->sd[TGT].finished || !w->sd[TGT].alive);
}

/* Runs one schedule; returns the number of violation kinds it broke. */
static int
run(struct world *w, uint64_t seed, int tracing)
{
	double end = -1;

	memset(w, 0, sizeof *w);
	w->seed = seed;
	w->trace = tracing;
	fault_log[0] = '\0';
	viol_seen = 0;
	rng_seed(&w->rng, seed);
	draw_knobs(w);
	if (tracing)
		printf("seed %llu: %s, target %s%s, exit-on-error %d, "
		    "post-copy %d, disruption %d, acceptable %.0f s, converge "
		    "%.1f s, timeouts %.1f/%.1f s\n",
		    (unsigned long long)seed, w->k.tls ? "tls" : "unix",
		    w->k.dash_s ? "-S" : "autostart", w->k.keep_paused ?
		    " --keep-paused" : "", w->k.exit_on_error, w->k.postcopy,
		    w->k.disruption, w->k.acceptable, w->k.converge,
		    w->k.src_timeout, w->k.tgt_timeout);
	qemu_init(w, SRC);
	qemu_init(w, TGT);
	if (w->k.src_timeout > 0)
		w->faults[F_DEADLINE]++;
	side_start(w, TGT);
	sched_in(w, rng_range(&w->rng, 0, 1.5), H_RERUN, SRC, 0, 0);
	plan_faults(w);
	while (w->nheap > 0) {
		struct hap h = pop(w);

		if (h.t > LIMIT)
			break;
		w->now = h.t;
		world_hap(w, &h);
		check_step(w);
		if (end < 0 && sides_ended(w))
			end = w->now + SETTLE;
		if (end >= 0 && w->now > end)
			break;
	}
	check_end(w);
	free(w->heap);
	w->heap = NULL;
	return __builtin_popcount(viol_seen);
}

/* What a run of many schedules adds up to (one worker's, or all). */
struct window_count {
	char			 name[16];
	unsigned long long	 n;
	uint64_t		 seeds[10];	/* the smallest */
};
struct totals {
	unsigned long long	 schedules, bad, steps;
	unsigned long long	 exits[2][10];	/* final exits; [9]: none */
	unsigned long long	 states[2][32];	/* schedules that entered */
	unsigned long long	 faults[F_COUNT], viols[V_COUNT];
	struct window_count	 windows[32];
	int			 nwindows;
};

static void
count_window(struct totals *t, const char *name, unsigned long long n,
    const uint64_t *seeds, int nseeds)
{
	struct window_count	*wc;
	int			 i, k;

	for (i = 0; i < t->nwindows; i++)
		if (strcmp(t->windows[i].name, name) == 0)
			break;
	if (i == t->nwindows) {
		if (t->nwindows == (int)(sizeof t->windows /
		    sizeof t->windows[0]))
			return;
		snprintf(t->windows[t->nwindows++].name,
		    sizeof t->windows[0].name, "%s", name);
	}
	wc = &t->windows[i];
	for (k = 0; k < nseeds; k++) {
		/* keep the 10 smallest, sorted */
		int m = wc->n + k < 10 ? (int)(wc->n + k) : 10, j;
		uint64_t v = seeds[k];

		for (j = 0; j < m && wc->seeds[j] < v; j++)
			;
		if (j == 10)
			continue;
		memmove(&wc->seeds[j + 1], &wc->seeds[j], (size_t)(9 - j) *
		    sizeof wc->seeds[0]);
		wc->seeds[j] = v;
	}
	wc->n += n;
}

static void
add_totals(struct totals *to, const struct totals *from)
{
	int j;

	to->schedules += from->schedules;
	to->bad += from->bad;
	to->steps += from->steps;
	for (j = 0; j < 2 * 10; j++)
		to->exits[j / 10][j % 10] += from->exits[j / 10][j % 10];
	for (j = 0; j < 2 * 32; j++)
		to->states[j / 32][j % 32] += from->states[j / 32][j % 32];
	for (j = 0; j < F_COUNT; j++)
		to->faults[j] += from->faults[j];
	for (j = 0; j < V_COUNT; j++)
		to->viols[j] += from->viols[j];
	for (j = 0; j < from->nwindows; j++)
		count_window(to, from->windows[j].name, from->windows[j].n,
		    from->windows[j].seeds, from->windows[j].n < 10 ?
		    (int)from->windows[j].n : 10);
}

int sim_blind_queue;

static void
usage(void)
{
	fprintf(stderr, "usage: sim [--seeds N] [--first SEED] [--jobs J] [--quiet] [--show N]\n"
	    "       sim --seed SEED [--trace]\n"
	    "       --blind-queue: the target reads no accept queue (before D27's fix)\n");
	exit(2);
}

/* Schedules first + i for i = part, part + parts, ... below count. */
static void
run_part(struct totals *t, uint64_t first, uint64_t count, int part,
    int parts, int quiet, int show)
{
	static struct world	w;
	uint64_t		i, seed;
	int			j, shown = 0;

	memset(t, 0, sizeof *t);
	for (i = (uint64_t)part; i < count; i += (uint64_t)parts) {
		seed = first + i;
		t->schedules++;
		if (run(&w, seed, 0) > 0) {
			t->bad++;
			count_window(t, w.window, 1, &seed, 1);
			if (!quiet && shown++ < show) {
				printf("seed %llu: [%s] %s | %s %s | %s\n",
				    (unsigned long long)seed, w.window,
				    w.first_viol, w.k.tls ? "tls" : "unix",
				    w.k.dash_s ? "-S" : "", fault_log);
				fflush(stdout);
			}
		}
		t->steps += (unsigned long long)w.steps;
		for (j = 0; j < 2; j++) {
			int k, code = w.sd[j].finished && w.sd[j].exit_code >= 0 &&
			    w.sd[j].exit_code < 9 ? w.sd[j].exit_code : 9;

			t->exits[j][code]++;
			for (k = 0; k < 32; k++)
				if (w.visited[j] & (1u << k))
					t->states[j][k]++;
		}
		for (j = 0; j < F_COUNT; j++)
			t->faults[j] += w.faults[j];
		for (j = 0; j < V_COUNT; j++)
			t->viols[j] += w.viols[j];
	}
}

/* --jobs: one worker process per part, their totals back by a pipe. */
static int
run_jobs(struct totals *all, uint64_t first, uint64_t count, int jobs,
    int quiet, int show)
{
	struct totals	 t;
	int		 fds[64][2], j;
	pid_t		 pid;
	ssize_t		 n;
	size_t		 got;

	memset(all, 0, sizeof *all);
	for (j = 0; j < jobs; j++) {
		if (pipe(fds[j]) != 0 || (pid = fork()) < 0) {
			perror("sim");
			return -1;
		}
		if (pid == 0) {
			close(fds[j][0]);
			run_part(&t, first, count, j, jobs, quiet, show / jobs);
			for (got = 0; got < sizeof t; got += (size_t)n)
				if ((n = write(fds[j][1], (char *)&t + got,
				    sizeof t - got)) <= 0)
					_exit(1);
			_exit(0);
		}
		close(fds[j][1]);
	}
	for (j = 0; j < jobs; j++) {
		for (got = 0; got < sizeof t; got += (size_t)n)
			if ((n = read(fds[j][0], (char *)&t + got,
			    sizeof t - got)) <= 0) {
				fprintf(stderr, "sim: worker %d failed\n", j);
				return -1;
			}
		close(fds[j][0]);
		add_totals(all, &t);
	}
	while (wait(NULL) > 0)
		;
	return 0;
}

static void
print_totals(const struct totals *t, uint64_t first, uint64_t count)
{
	int j, n;

	printf("schedules %llu (seeds %llu..%llu), steps %llu, schedules "
	    "with a violation %llu\n", t->schedules,
	    (unsigned long long)first, (unsigned long long)(first + count - 1),
	    t->steps, t->bad);
	printf("faults:");
	for (j = 0; j < F_COUNT; j++)
		printf(" %s %llu", fault_names[j], t->faults[j]);
	printf("\nviolations:");
	for (j = 0; j < V_COUNT; j++)
		printf(" %s %llu", viol_names[j], t->viols[j]);
	printf("\n");
	for (j = 0; j < 2; j++) {
		printf("%s exits:", j == SRC ? "source" : "target");
		for (n = 0; n < 10; n++)
			if (t->exits[j][n] > 0)
				printf(" %s %llu", n == 9 ? "none" :
				    (const char *[]){ "0", "1", "2", "3", "4",
				    "5", "6", "7", "8" }[n], t->exits[j][n]);
		printf("\n%s states entered:", j == SRC ? "source" : "target");
		for (n = 0; n <= SS_DONE; n++)
			printf(" %d:%llu", n, t->states[j][n]);
		printf("\n");
	}
	if (t->nwindows > 0)
		printf("windows (the first violation of each schedule):\n");
	for (j = 0; j < t->nwindows; j++) {
		printf("  %-9s %6llu  seeds", t->windows[j].name,
		    t->windows[j].n);
		for (n = 0; n < 10 && (unsigned long long)n < t->windows[j].n;
		    n++)
			printf(" %llu",
			    (unsigned long long)t->windows[j].seeds[n]);
		printf("\n");
	}
	if (t->bad > 0)
		printf("replay one: tests/sim/sim --seed N --trace\n");
}

int
main(int argc, char **argv)
{
	static struct world	w;
	static struct totals	t;
	uint64_t		first = 1, count = 3000;
	int			one = 0, tracing = 0, quiet = 0, show = 40;
	int			jobs = 1, j;

	for (j = 1; j < argc; j++) {
		if (strcmp(argv[j], "--seed") == 0 && j + 1 < argc) {
			first = strtoull(argv[++j], NULL, 0);
			count = 1;
			one = 1;
		} else if (strcmp(argv[j], "--seeds") == 0 && j + 1 < argc)
			count = strtoull(argv[++j], NULL, 0);
		else if (strcmp(argv[j], "--first") == 0 && j + 1 < argc)
			first = strtoull(argv[++j], NULL, 0);
		else if (strcmp(argv[j], "--jobs") == 0 && j + 1 < argc)
			jobs = atoi(argv[++j]);
		else if (strcmp(argv[j], "--trace") == 0)
			tracing = 1;
		else if (strcmp(argv[j], "--show") == 0 && j + 1 < argc)
			show = atoi(argv[++j]);
		else if (strcmp(argv[j], "--quiet") == 0)
			quiet = 1;
		else if (strcmp(argv[j], "--blind-queue") == 0)
			sim_blind_queue = 1;
		else
			usage();
	}
	if (jobs < 1 || jobs > 64)
		usage();
	if (one) {
		j = run(&w, first, tracing);
		if (j > 0)
			printf("seed %llu: [%s] %s | %s %s | %s\n",
			    (unsigned long long)first, w.window, w.first_viol,
			    w.k.tls ? "tls" : "unix", w.k.dash_s ? "-S" : "",
			    fault_log);
		else
			printf("seed %llu: no violation\n",
			    (unsigned long long)first);
		return j > 0;
	}
	if (jobs > 1) {
		fflush(stdout);
		if (run_jobs(&t, first, count, jobs, quiet, show) != 0)
			return 2;
	} else
		run_part(&t, first, count, 0, 1, quiet, show);
	print_totals(&t, first, count);
	return t.bad > 0;
}
