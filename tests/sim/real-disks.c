/*
 * real-disks.c: sim-real's disks (issue 37, "the disk mirrors' jobs and
 * their faults").  A draw of its own per seed (the other draws stay as
 * they were): in 40% of the model's seeds the VM has one or two local
 * writable disks (diskN, qemu-model-disks.c), which both sides copy as a
 * policy's `blockMigration: auto` asks (NBD server and exports on the
 * target, blockdev-mirror write-blocking on the source: mig-disks.c).
 * Each mirror is done after a drawn time (0.5-10 s in 60%, 10-60 s in
 * 15%), or never (it creeps on, 15%, or it stalls halfway, 10%); in 15%
 * of the disk seeds the network breaks every NBD connection at a drawn
 * moment, in 10% the target QEMU is killed 0.3-15 s in (while the disks
 * copy, mostly), in 5% its disk0 is half the source's.  The world's
 * other faults (a QEMU killed, SIGKILL and re-runs, signals, deadlines)
 * land on the mirrors as they fall.
 *
 * D1: a side's exit 0 only where every disk's mirror was ready (its copy
 * done, no write of it to the target failed) at the last moment the
 * source's guest ran or after (write-blocking: each write of a ready
 * mirror reaches both sides before the guest sees it done); so a
 * migration whose mirror failed or was never in sync never says 0.  A
 * target QEMU the world killed excuses it (the guest died with it).  Over
 * unix:/tcp: the target cannot see the source's mirrors (a failed job is
 * dismissed on the source, QEMU's NBD server says nothing when a client
 * leaves), and docs/failures.md says so: its 0 with local disks holds
 * only with the source's Succeeded.  So there the target's 0 is judged
 * only where the source's last run ended 0 too (seeds 2023425 and
 * 2030458 at fb37ba0: migrate SIGKILLed, the mirrors failed unwatched,
 * the re-run's 8 says the target's disks are not known).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qmigrate.h"
#include "real.h"

#define MAX_JOB_STATUS	12

static struct rng	 g;
static double		 D_kill_at;	/* the target QEMU killed, 0 never */

/* This seed: what D1 judges (disk_synced, as rd_check_now keeps it). */
static struct {
	int		 ok[2];
	int		 why[2];	/* WHY_*: kept at every check, */
	const char	*why_st[2];	/* words only for a violation */
	int		 ready[2];	/* a mirror of disk i was ready */
	int		 failed[2];	/* its NBD writes failed when the
					   source's guest last ran */
	char		 last[2][4][16];	/* each job slot's status */
	int		 broke;		/* the NBD break landed */
} D;

/* Over the schedules. */
static unsigned long	 nseeds[3];	/* by disks: 0, 1, 2 */
static unsigned long	 nready, nbreaks, nkills, nioerr, nexit[2][10];
static struct {
	char		 name[16];
	unsigned long	 n;
} jentered[2][MAX_JOB_STATUS];

void
rd_draw(void)
{
	int	 i, u;

	D_kill_at = 0;
	if (R.k.qemu_kind != WQ_MODEL || ru_on())
		return;
	rng_seed(&g, R.seed ^ 0x6469736b73212121ULL);
	if (!rng_chance(&g, 0.4))
		return;
	R.k.ndisks = rng_chance(&g, 0.5) ? 2 : 1;
	for (i = 0; i < R.k.ndisks; i++) {
		u = (int)(rng_next(&g) % 100);
		R.k.mirror_len[i] = u < 60 ? rng_range(&g, 0.5, 10) :
		    u < 75 ? rng_range(&g, 10, 60) : u < 90 ? -1 : -2;
	}
	if (rng_chance(&g, 0.15))
		R.k.nbd_break_at = rng_range(&g, 0.5, 90);
	/* the target QEMU killed while the disks copy (its exports die
	   with it), beside the world's kills at any moment */
	if (rng_chance(&g, 0.1))
		D_kill_at = rng_range(&g, 0.3, 15);
	/* the target's disk0 created half its size: refused before
	   anything is copied (mig-disks.c's start) */
	R.k.disk_short = rng_chance(&g, 0.05);
}

void
rd_start(void)
{
	memset(&D, 0, sizeof D);
	nseeds[R.k.ndisks]++;
}

double
rd_due(void)
{
	return fmin(R.k.nbd_break_at > R.now ? R.k.nbd_break_at : INFINITY,
	    D_kill_at > R.now ? D_kill_at : INFINITY);
}

/* Whether rd_happen() has something to do now that rd_due() left out
   (a time drawn at or before now). */
int
rd_pending(void)
{
	return (D_kill_at > 0 && D_kill_at <= R.now) ||
	    (R.k.nbd_break_at != 0 && R.k.nbd_break_at <= R.now);
}

void
rd_happen(void)
{
	if (D_kill_at > 0 && D_kill_at <= R.now) {
		D_kill_at = 0;
		if (wq_alive(R.q[R_TGT])) {
			r_trace(R_TGT, "QEMU killed (while the disks copy)");
			R.qemu_killed[R_TGT] = 1;
			world_sim_kill_qemu(R_TGT);
			nkills++;
		}
	}
	if (R.k.nbd_break_at == 0 || R.k.nbd_break_at > R.now)
		return;
	R.k.nbd_break_at = 0;
	r_trace(-1, "the network breaks the NBD connections");
	wq_break_nbd(R.q[R_SRC]);
	D.broke = 1;
	nbreaks++;
}

static void
count_job(int side, const char *st)
{
	int	 i;

	for (i = 0; i < MAX_JOB_STATUS && jentered[side][i].name[0] != '\0' &&
	    strcmp(jentered[side][i].name, st) != 0; i++)
		;
	if (i == MAX_JOB_STATUS)
		return;
	if (jentered[side][i].name[0] == '\0')
		snprintf(jentered[side][i].name, sizeof jentered[side][i].name,
		    "%s", st);
	jentered[side][i].n++;
}

/* Why disk i's copy misses writes (why_words: the message's words). */
enum { WHY_SYNCED, WHY_IO_ERROR, WHY_NOT_READY, WHY_NO_MIRROR };

static const char *
why_words(int i, char *buf, size_t len)
{
	switch (D.why[i]) {
	case WHY_IO_ERROR:
		snprintf(buf, len, "its mirror's NBD writes failed (job %s)",
		    D.why_st[i]);
		break;
	case WHY_NOT_READY:
		snprintf(buf, len, "its mirror was %s", D.why_st[i]);
		break;
	default:
		snprintf(buf, len, "no mirror ran");
	}
	return buf;
}

/* Is disk i's mirror ready now?  D.why/why_st say why not (st: a static
   name); checked at every turn of the world, so nothing is formatted. */
static int
disk_synced(int i)
{
	const char	*id, *st;
	int		 j;

	for (j = 0; j < 4; j++) {
		if (wq_job(R.q[R_SRC], j, &id, &st) != 0 ||
		    strncmp(id, "qm-mirror-disk", 14) != 0 ||
		    id[14] != '0' + i || id[15] != '\0' ||
		    strcmp(st, "null") == 0)
			continue;
		D.why_st[i] = st;
		if (wq_job_io_error(R.q[R_SRC], j)) {
			D.why[i] = WHY_IO_ERROR;
			return 0;
		}
		if (strcmp(st, "ready") == 0 || strcmp(st, "standby") == 0) {
			D.why[i] = WHY_SYNCED;
			return 1;
		}
		D.why[i] = WHY_NOT_READY;
		return 0;
	}
	D.why[i] = WHY_NO_MIRROR;
	return 0;
}

void
rd_check_now(void)
{
	const char	*id, *st;
	int		 side, j, i;

	if (R.k.ndisks == 0)
		return;
	for (side = 0; side < 2; side++)
		for (j = 0; j < 4; j++) {
			if (wq_job(R.q[side], j, &id, &st) != 0 ||
			    strcmp(D.last[side][j], st) == 0)
				continue;
			snprintf(D.last[side][j], sizeof D.last[side][j], "%s",
			    st);
			count_job(side, st);
			if (strcmp(st, "ready") == 0 && side == R_SRC &&
			    strncmp(id, "qm-mirror-disk", 14) == 0 &&
			    id[14] >= '0' && id[14] < '0' + R.k.ndisks)
				D.ready[id[14] - '0'] = 1;
		}
	/* While the guest runs, each write must reach both sides: the
	   mirror ready now.  Once it stopped, a mirror that becomes ready
	   (its copy done, no write failed) still brings every write. */
	for (i = 0; i < R.k.ndisks; i++) {
		if (!wq_runs_guest(R.q[R_SRC]) && D.ok[i])
			continue;
		D.ok[i] = disk_synced(i);
		if (wq_runs_guest(R.q[R_SRC]))
			D.failed[i] = !D.ok[i] && D.why[i] == WHY_IO_ERROR;
	}
}

/*
 * What hides an outcome from both sides (P9): a mirror's write to the
 * target failed while the guest ran, and the guest then left.  Whether
 * the target's disk lacks a write the guest made is QEMU's to know, not
 * qmigrate's (a failed write is one BLOCK_JOB_ERROR, whatever it was,
 * and it may come after the switchover's STOP): 8, not 0.
 */
int
rd_write_failed(void)
{
	return R.k.ndisks > 0 && (D.failed[0] || D.failed[1]);
}

void
rd_check_end(void)
{
	const struct r_side	*sd;
	char			 why[96];
	int			 side, i, err = 0;

	if (R.k.ndisks == 0)
		return;
	for (i = 0; i < 4; i++)
		err |= wq_job_io_error(R.q[R_SRC], i);
	nioerr += err;
	nready += D.ready[0] || D.ready[1];
	for (side = 0; side < 2; side++) {
		sd = &R.sd[side];
		if (!sd->done || sd->died_by != 0)
			continue;
		nexit[side][sd->rc >= 0 && sd->rc < 9 ? sd->rc : 9]++;
		if (sd->rc != 0 || R.qemu_killed[R_TGT])
			continue;
		if (side == R_TGT && !rt_on() && (!R.sd[R_SRC].done ||
		    R.sd[R_SRC].died_by != 0 || R.sd[R_SRC].rc != 0))
			continue;
		for (i = 0; i < R.k.ndisks; i++)
			if (!D.ok[i])
				r_violation("D1: the %s exits 0 but disk%d's "
				    "copy misses writes: %s when the source's "
				    "guest last ran", side == R_SRC ? "source" :
				    "target", i, why_words(i, why, sizeof why));
	}
}

void
rd_report(FILE *f)
{
	int	 side, i;

	fprintf(f, "sim-real: disks: %lu schedules with 1, %lu with 2 (of "
	    "%lu); a mirror ready in %lu, an NBD link broken in %lu, the "
	    "network broke NBD in %lu, the target QEMU killed while they "
	    "copy in %lu\n", nseeds[1], nseeds[2],
	    nseeds[0] + nseeds[1] + nseeds[2], nready, nioerr, nbreaks,
	    nkills);
	for (side = 0; side < 2; side++) {
		fprintf(f, "sim-real: %s QEMU block-job statuses entered:",
		    side == R_SRC ? "source" : "target");
		for (i = 0; i < MAX_JOB_STATUS &&
		    jentered[side][i].name[0] != '\0'; i++)
			fprintf(f, " %s %lu", jentered[side][i].name,
			    jentered[side][i].n);
		fprintf(f, "\n");
	}
	for (side = 0; side < 2; side++) {
		fprintf(f, "sim-real: with disks, the %s's exits:",
		    side == R_SRC ? "source" : "target");
		for (i = 0; i < 10; i++)
			if (nexit[side][i] > 0)
				fprintf(f, " %d: %lu", i, nexit[side][i]);
		fprintf(f, "\n");
	}
}
