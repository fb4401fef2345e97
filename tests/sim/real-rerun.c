/*
 * real-rerun.c: the node agent's re-runs the README prescribes (issue 37:
 * what exec.c's sides did that sim-real's world lacked).  After exit 8
 * ("run migrate again with the same --status-file to re-attach") the
 * agent runs the side again, same options, soon or a minute later; and
 * again after a re-run that could not reach its QEMU (exit 3 with the
 * status file left as it was: that exit is not judged, the next one is).
 * A SIGKILL's re-run stays real.c's.
 *
 * The draws come from a stream of their own, so every other fault's
 * schedule is what it was; a seed whose sides never exit 8 runs as
 * before.
 */
#include <string.h>

#include "common.h"
#include "real.h"

/*
 * The agent does not give up: KubeVirt's virt-launcher watches a migration
 * until it ends (live-migration-source.go's startMonitor: a GetJobStats
 * that fails is logged and asked again 400 ms later; only its
 * progressTimeout or completion timeout ends it, by an abort), and
 * virt-handler's target side has no deadline of its own: it waits for
 * the source's verdict (migration-target.go).  So the agent runs a side
 * that said 8 again until a run says where the guest is.  The bound is the
 * world's (fibers, the 1210 s horizon), not the agent's patience: a
 * re-run whose monitor is refused exits 8 at once, and a QEMU's monitor
 * is refused or stopped 60 s at most here, so 20 runs spaced 0.5-90 s
 * apart outlast it.  With 3 (until the long run at 3fc1633) the agent
 * gave up within seconds of a long refusal and the target waited on a
 * pre-copy nobody drove (seeds 2009183 3058236 3066254 3069235).
 */
#define RR_MAX	20	/* re-runs of one side, at most */

static struct {
	struct rng	 rng;
	int		 agent[2];	/* the agent re-runs after 8 */
	int		 n[2];		/* re-runs this world made */
	int		 writes[2];	/* the status file's, at the re-run */
	int		 mine[2];	/* the run now is one of these */
	unsigned long	 after8, after3;	/* all seeds */
} A;

void
rr_draw(void)
{
	int i;

	memset(A.agent, 0, sizeof A.agent);
	memset(A.n, 0, sizeof A.n);
	memset(A.mine, 0, sizeof A.mine);
	rng_seed(&A.rng, R.seed ^ 0x72652d72756e2138ULL);
	for (i = 0; i < 2; i++)
		A.agent[i] = rng_chance(&A.rng, 0.8) && !ru_on();
}

static int
writes(const char *path)
{
	const struct r_file *f = world_sim_file(path);

	return f != NULL ? f->writes : 0;
}

/* Side i ended with rc (not by a signal): the agent's re-run, if due. */
void
rr_ended(int i, const char *status_path)
{
	struct r_side	*sd = &R.sd[i];
	int		 again;

	again = sd->rc == QM_EXIT_UNKNOWN ||
	    (A.mine[i] && sd->rc == QM_EXIT_CONTROL &&
	    writes(status_path) == A.writes[i]);
	if (A.mine[i])
		r_trace(i, "the re-run's exit %d, the file's writes %d -> %d",
		    sd->rc, A.writes[i], writes(status_path));
	A.mine[i] = 0;
	if (!A.agent[i] || !again || A.n[i] >= RR_MAX || sd->died_by != 0 ||
	    sd->rerun_at > 0)
		return;
	if (sd->rc == QM_EXIT_UNKNOWN)
		A.after8++;
	else
		A.after3++;
	A.n[i]++;
	/* The process exited: what it left started (its deadline's timer)
	   goes with it, never into the re-run's loop. */
	world_sim_side_gone(i);
	sd->rerun_at = R.now + (rng_chance(&A.rng, 0.5) ?
	    rng_range(&A.rng, 0.5, 5) : rng_range(&A.rng, 5, 90));
	r_trace(i, "the agent re-runs it after exit %d, at %.1f", sd->rc,
	    sd->rerun_at);
}

/* The re-run starts now: what it leaves of the file tells its 3. */
void
rr_started(int i, const char *status_path)
{
	A.mine[i] = 1;
	A.writes[i] = writes(status_path);
}

void
rr_report(FILE *fp)
{
	fprintf(fp, "sim-real: the agent's re-runs: after exit 8 %lu, after "
	    "an exit 3 that left the file %lu\n", A.after8, A.after3);
}
