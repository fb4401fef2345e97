/*
 * real-qemu-stop.c: a QEMU stopped (SIGSTOP) for 1-9 or 35-60 s, then
 * continued (issue 37: what exec.c's world did that sim-real's lacked;
 * tests/sim/README.md).  While stopped its monitor is silent: what
 * qmigrate writes waits in the socket, QEMU writes nothing (a held answer
 * waits too); and its migration is frozen: the model is not advanced, so
 * a stopped source sends nothing and its target waits; and the model is
 * told (wq_sigstop), so a stopped target reads nothing: its source's
 * stream and its mirrors' NBD writes stall on full buffers (their rounds,
 * convergence, post-copy's pages wait; the source's monitor still
 * answers, its figures stand still).  On SIGCONT it
 * reads what waited and catches up at once with what fell due while it
 * was stopped (the model's clock is the world's: a simplification).  A
 * connect to a stopped QEMU is still greeted (the kernel takes it; real
 * QEMU would greet on SIGCONT).
 *
 * In 15% of seeds per QEMU, at 0.3-30 s (70%) or 30-90 s.  The draws
 * come from a stream of their own, so every other fault's
 * schedule is what it was.  A stop hides the outcome from the side whose
 * QEMU it hits (P9: an 8 is honest then).
 */
#include <string.h>

#include "common.h"
#include "real.h"

static struct {
	struct rng	 rng;
	double		 at[2], len[2];	/* 0: none */
	double		 until[2];	/* stopped until, 0: running */
	double		 longest[2];	/* this schedule's stop, 0: none */
	unsigned long	 stops[2];	/* all seeds: short, long */
} Z;

void
rqs_draw(void)
{
	int i;

	memset(Z.at, 0, sizeof Z.at);
	memset(Z.until, 0, sizeof Z.until);
	memset(Z.longest, 0, sizeof Z.longest);
	rng_seed(&Z.rng, R.seed ^ 0x73696773746f7021ULL);
	for (i = 0; i < 2; i++) {
		if (!rng_chance(&Z.rng, 0.15))
			continue;
		/* Mostly while a migration runs (most end within 30 s). */
		Z.at[i] = rng_chance(&Z.rng, 0.7) ? rng_range(&Z.rng, 0.3, 30) :
		    rng_range(&Z.rng, 30, 90);
		Z.len[i] = rng_chance(&Z.rng, 0.5) ? rng_range(&Z.rng, 1, 9) :
		    rng_range(&Z.rng, 35, 60);
	}
}

/* Whether QEMU which is stopped now. */
int
rqs_stopped(int which)
{
	return Z.until[which] > 0;
}

/* Whether QEMU which was stopped for more than secs this schedule. */
int
rqs_stopped_past(int which, double secs)
{
	return Z.longest[which] > secs;
}

double
rqs_due(void)
{
	double	t = 1e300;
	int	i;

	for (i = 0; i < 2; i++) {
		if (Z.at[i] > 0 && Z.at[i] < t)
			t = Z.at[i];
		if (Z.until[i] > 0 && Z.until[i] < t)
			t = Z.until[i];
	}
	return t;
}

void
rqs_happen(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (Z.until[i] > 0 && Z.until[i] <= R.now) {
			Z.until[i] = 0;
			r_trace(i, "QEMU continued");
			wq_sigstop(R.q[i], 0, R.now);
			world_sim_qemu_continued(i);
		}
		if (Z.at[i] == 0 || Z.at[i] > R.now)
			continue;
		Z.at[i] = 0;
		if (!wq_alive(R.q[i]))
			continue;
		Z.until[i] = R.now + Z.len[i];
		Z.longest[i] = Z.len[i];
		Z.stops[Z.len[i] > 10]++;
		r_trace(i, "QEMU stopped (SIGSTOP) for %.1f s", Z.len[i]);
		wq_sigstop(R.q[i], 1, R.now);
		if (!R.sd[i].done)
			rp_hide(i, "its QEMU stopped");
	}
}

void
rqs_report(FILE *fp)
{
	fprintf(fp, "sim-real: QEMUs stopped (SIGSTOP): 1-9 s %lu, 35-60 s "
	    "%lu\n", Z.stops[0], Z.stops[1]);
}
