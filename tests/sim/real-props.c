/*
 * real-props.c: the properties of sim-real beyond real.c's P1-P8 (issue
 * 37; tests/sim/README.md lists them all):
 *
 * P9  exit 8 ("not known") only where something hid the outcome from
 *     that side: an answer of its QEMU's monitor held past qmigrate's
 *     10 s, its QEMU killed, qmigrate itself stopped or SIGKILLed (the
 *     re-run then decides), a write of its status file that failed, a
 *     disk's mirror write that failed while the source's guest ran
 *     (real-disks.c: the target's disk may lack it; over tls: the
 *     target hears it from the source); in post-copy, the source's
 *     too where the target's was hidden (the guest lives on both, and
 *     a recovery needs the target's side).  Any other 8 is an outcome
 *     qmigrate could have told and did not.
 * P10 a guest the operator paused on the source stays paused: the source
 *     QEMU never runs it, and the target's only where the target cannot
 *     tell who paused it (docs/failures.md: the policy allows workload
 *     disruption, so the source's controller may have; its QEMU runs
 *     -S; or its command line cannot be read).
 *
 * What hid an outcome is the world's own record of what it did (real.h),
 * never what qmigrate said.
 */
#include <stdio.h>
#include <string.h>

#include "qmigrate.h"
#include "policy.h"
#include "mig-options.h"
#include "real.h"

static struct {
	const char	*hid[2];	/* the world's word (rp_hide) */
	unsigned long	 write_failed[2];	/* writes of its document */
	int		 stopped[2];
	int		 ran[2];	/* the operator's paused guest ran */
	unsigned long	 exit8[2], exit8_hidden[2];	/* all seeds */
} P;

void
rp_start(void)
{
	memset(P.hid, 0, sizeof P.hid);
	memset(P.write_failed, 0, sizeof P.write_failed);
	memset(P.stopped, 0, sizeof P.stopped);
	memset(P.ran, 0, sizeof P.ran);
}

/* A write of path failed (no space). */
void
rp_write_failed(const char *path)
{
	if (strcmp(path, "/sim/src.status") == 0)
		P.write_failed[R_SRC]++;
	else if (strcmp(path, "/sim/tgt.status") == 0)
		P.write_failed[R_TGT]++;
}

/* How many writes of side's document failed so far. */
unsigned long
rp_write_fails(int side)
{
	return P.write_failed[side];
}

/* After every happening. */
void
rp_check_now(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (!R.sd[i].done && R.sd[i].stopped_until > R.now)
			P.stopped[i] = 1;
		if (rf_operator_paused() && wq_runs_guest(R.q[i]) &&
		    !P.ran[i]) {
			P.ran[i] = 1;
			r_trace(i, "the operator's paused guest runs");
		}
	}
}

/* A schedule kind's own hiding of side i's outcome (real-update.c: an
 * exec whose new QEMU never came up with the guest). */
void
rp_hide(int side, const char *why)
{
	P.hid[side] = why;
}

/* What hid side i's outcome from it in its own world, or NULL. */
static const char *
own_hidden(int i)
{
	if (P.hid[i] != NULL)
		return P.hid[i];
	if (R.k.hold_k[i] > 0 && R.answers[i] >= R.k.hold_k[i] &&
	    R.k.hold_len[i] > 10)
		return "an answer held past 10 s";
	if (R.qemu_killed[i])
		return "its QEMU killed";
	if (P.stopped[i])
		return "qmigrate stopped";
	if (R.sd[i].runs > 0)
		return "qmigrate SIGKILLed";
	if (P.write_failed[i])
		return "a status write failed";
	if (i == R_SRC && rd_write_failed())
		return "a disk's mirror write failed while the guest ran";
	return NULL;
}

/*
 * What hid side i's outcome from it, or NULL.  Over tls: the other
 * side's own, or the link's, too: each side knows the end only from the
 * other (the old sim's rule, check.c).
 */
const char *
rp_hidden(int i)
{
	const char *why = own_hidden(i);

	if (why != NULL)
		return why;
	/*
	 * In post-copy the guest lives on both QEMUs: the source's outcome
	 * (a recovery's resume that may still land) waits on the target's
	 * side, its QEMU and the qmigrate that gives it migrate-recover,
	 * so what hid the target's outcome hides the source's too (seeds
	 * 9901989 9906092: the target QEMU stopped, or its monitor hung and
	 * its incoming gone with 8; the source's postcopy-recover never
	 * ended, its 8 honest).
	 */
	if (i == R_SRC && strncmp(wq_status(R.q[R_SRC]), "postcopy", 8) == 0 &&
	    own_hidden(R_TGT) != NULL)
		return "the target's outcome hidden in post-copy";
	if (!rt_on())
		return NULL;
	if ((why = rt_hidden()) != NULL)
		return why;
	return own_hidden(1 - i) != NULL ? "the peer's outcome hidden" : NULL;
}

/* At the end. */
void
rp_check_end(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		const char *who = i == R_SRC ? "source" : "target";

		if (!R.sd[i].done || R.sd[i].died_by != 0 ||
		    R.sd[i].rc != QM_EXIT_UNKNOWN)
			continue;
		P.exit8[i]++;
		if (rp_hidden(i) != NULL) {
			P.exit8_hidden[i]++;
			r_trace(i, "exit 8: %s", rp_hidden(i));
		} else
			r_violation("P9: the %s exits 8 with nothing that hid "
			    "the outcome (%s, %s)", who, wq_status(R.q[i]),
			    wq_runstate(R.q[i]));
	}
	if (!rf_operator_paused())
		return;
	if (P.ran[R_SRC])
		r_violation("P10: the guest the operator paused runs on the "
		    "source");
	if (P.ran[R_TGT] && R.k.timeout_action != TIMEOUT_PAUSE &&
	    !R.k.dash_s && rf_cmdline_known())
		r_violation("P10: the guest the operator paused runs on the "
		    "target");
}

void
rp_report(FILE *f)
{
	fprintf(f, "sim-real: exit 8: source %lu, target %lu (each hidden: "
	    "%lu %lu)\n", P.exit8[R_SRC], P.exit8[R_TGT],
	    P.exit8_hidden[R_SRC], P.exit8_hidden[R_TGT]);
}
