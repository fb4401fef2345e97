/*
 * real-update.c: sim-real's schedule kind `update --mode exec` (issue 40;
 * `sim-real --update-exec`).  The real update entry, mig_source_run()
 * with the options cmd-update.c hands it after its parsing (--to
 * file:PATH, the new command line, one QEMU), runs on the source's fiber
 * against one QEMU model, 11.1, whose cpr-exec the world draws
 * (qemu-model.h, "as the world sees it": the exec works; execvp fails;
 * the new program exits at its start; its monitor never comes back; its
 * load fails; a wrapper drops -incoming and a fresh guest boots), under
 * the faults the world already has for migrate: signals at any moment
 * and at QEMU's events, SIGKILL then the re-run, status writes that
 * fail, a held answer, qmigrate stopped, the QEMU killed, the operator's
 * pause.  There is no target side.
 *
 * Properties, on the last run's exit once the QEMU settled (X: the exec
 * happened; UP: the new QEMU is up, its process alive, and loaded the
 * guest, not a fresh boot):
 * E1 exit 0 never for a guest booted afresh: 0 only when the new QEMU
 *    loaded the guest;
 * E2 exit 0 only with the guest running on the new binary (paused where
 *    the operator had paused it, P10), in the same process (the world
 *    keeps its pid through the exec);
 * E3 exit 2-5 only with no exec, the guest running on the old binary
 *    (or paused by the operator), and QEMU's migration mode put back to
 *    normal (a later plain migrate would not exec); a QEMU the world
 *    killed excuses the guest, not the mode; the mode is excused only
 *    where the world kept every new connection from QEMU past
 *    qmigrate's reconnect (connects refused, or QEMU stopped, past 30 s)
 *    and the document says the mode may be left (mode_left_told);
 *    a dropped command is no excuse: a new connection works;
 * E4 X and not UP: the exit is 8, never 0 and never 2-5; an 8 elsewhere
 *    needs what P9 names (real-props.c), this case being the one P9 is
 *    told of here;
 * E5 a re-run after SIGKILL at any moment re-attaches: its exit is held
 *    to E1-E4 as the first run's would be, and it never migrates the new
 *    QEMU again.
 */
#include <stdio.h>
#include <string.h>

#include "qmigrate.h"
#include "policy.h"
#include "mig-options.h"
#include "qemu-model.h"
#include "real.h"

#define VM_STATE	"file:/sim/vm.state"

static const char *const outcome_name[] = { "ok", "execvp-fails",
    "new-exits", "monitor-never-back", "load-fails", "no-incoming" };
#define NOUTCOMES	6
#define NEXITS		10	/* 0-8, then the rest */

/* The new command line, as update_command_load() leaves it. */
static char *argv_plain[] = { (char *)"/usr/bin/qemu-system-x86_64",
    (char *)"-name", (char *)"g", (char *)"-m", (char *)"96",
    (char *)"-object", (char *)"memory-backend-memfd,id=ram0,size=96M,"
    "share=on", (char *)"-machine", (char *)"memory-backend=ram0,"
    "aux-ram-share=on", (char *)"-qmp", (char *)"unix:/sim/src.qmp,"
    "server=on,wait=off", (char *)"-incoming", (char *)VM_STATE, NULL };
static char *argv_dash_s[] = { (char *)"/usr/bin/qemu-system-x86_64",
    (char *)"-name", (char *)"g", (char *)"-m", (char *)"96",
    (char *)"-object", (char *)"memory-backend-memfd,id=ram0,size=96M,"
    "share=on", (char *)"-machine", (char *)"memory-backend=ram0,"
    "aux-ram-share=on", (char *)"-qmp", (char *)"unix:/sim/src.qmp,"
    "server=on,wait=off", (char *)"-S", (char *)"-incoming",
    (char *)VM_STATE, NULL };

static struct {
	int		 on;
	struct rng	 rng;
	int		 outcome;
	int		 dash_s;
	int		 postcopy;		/* the policy allows it */
	int		 migrated_again;	/* this seed: E5 */
	unsigned long	 drawn[NOUTCOMES];	/* all seeds */
	unsigned long	 execed[NOUTCOMES];
	unsigned long	 exits[NOUTCOMES][NEXITS];
	unsigned long	 reruns, reruns_execed;
	unsigned long	 mode_told;	/* E3: the mode left, and said */
	unsigned long	 marker_writes, marker_refused;	/* all seeds */
	unsigned long	 marker_left, marker_left_8;	/* ... at the end */
	unsigned long	 marker_rerun_8;	/* ... a re-run's 8, no record */
} U;

#define MARKER_FILE	"/sim/src.status" UPDATE_MARKER_SUFFIX

/* The world wrote (ok) or failed to write the update marker. */
void
ru_marker_write(const char *path, int ok)
{
	if (!U.on || strcmp(path, MARKER_FILE) != 0)
		return;
	U.marker_writes++;
	U.marker_refused += !ok;
}

void
ru_enable(void)
{
	U.on = 1;
}

int
ru_on(void)
{
	return U.on;
}

/*
 * The exec's outcome and -S, from a stream of the update's own; the
 * options as cmd-update.c leaves them for mig_source_run(): --to
 * file:PATH, the command line, no --timeout-action (update has none: its
 * --timeout aborts).
 */
void
ru_setup(struct mig_options *o)
{
	double	 d;

	rng_seed(&U.rng, R.seed ^ 0x7570646174652d78ULL);
	d = rng_range(&U.rng, 0, 1);
	U.outcome = d < 0.4 ? QM_EXEC_OK : 1 + (int)((d - 0.4) / 0.12);
	if (U.outcome >= NOUTCOMES)
		U.outcome = NOUTCOMES - 1;
	U.dash_s = rng_chance(&U.rng, 0.2);
	U.migrated_again = 0;
	U.drawn[U.outcome]++;
	o->source = 1;
	o->uri = VM_STATE;
	o->exec_argv = U.dash_s ? argv_dash_s : argv_plain;
	o->timeout_action = TIMEOUT_ABORT;
	o->timeout_action_given = 0;
	o->recover_timeout = 0;
	memset(&o->flags, 0, sizeof o->flags);
	/* A policy that allows post-copy, now and then: the pre-flight
	   refuses it (2, "Cannot use postcopy with CPR"). */
	U.postcopy = rng_chance(&U.rng, 0.1);
	if (U.postcopy) {
		o->flags.allow_post_copy = 1;
		o->flags.set |= MIG_SET_POST_COPY;
	}
	R.k.qemu_kind = WQ_MODEL;
	R.k.qemu_version = QM_V11_1;
	r_trace(-1, "update --mode exec: the exec drawn %s%s%s",
	    outcome_name[U.outcome], U.dash_s ? ", the new QEMU with -S" : "",
	    U.postcopy ? ", post-copy allowed" : "");
}

/* The one QEMU: the model's 11.1, its exec as drawn. */
struct wq *
ru_new_qemu(const struct wq_world *qw)
{
	struct wq_config	 qc;
	struct wq		*q;

	memset(&qc, 0, sizeof qc);
	qc.kind = WQ_MODEL;
	qc.version = QM_V11_1;
	qc.converge = -1;	/* cpr copies no RAM: the model's own pace */
	q = wq_new(&qc, qw);
	wq_set_exec(q, U.outcome);
	return q;
}

/* After every happening: a migrate the new QEMU was given (E5). */
void
ru_check_now(void)
{
	struct wq *q = R.q[R_SRC];

	if (wq_exec_phase(q) == QM_XP_REBORN && wq_migrating(q) &&
	    !U.migrated_again) {
		U.migrated_again = 1;
		r_violation("E5: the new QEMU was told migrate after the "
		    "exec (%s, %s; status writes that failed: %d)",
		    wq_status(q), wq_runstate(q), R.write_fails);
	}
}

/* The new QEMU is up, alive, and holds the guest it loaded. */
static int
new_qemu_up(const struct wq *q)
{
	return wq_exec_phase(q) == QM_XP_REBORN && wq_alive(q) &&
	    !wq_fresh_guest(q) && wq_has_guest(q);
}

/*
 * Before real-props.c's end: the exec that left no new QEMU with the
 * guest is what makes 8 the answer (P9 told so).
 */
void
ru_before_props(void)
{
	const struct wq *q = R.q[R_SRC];

	if (wq_exec_phase(q) != QM_XP_NONE && !new_qemu_up(q))
		rp_hide(R_SRC, "the exec's new QEMU did not come up with the "
		    "guest");
}

/*
 * Whether the source was kept from putting QEMU's mode back and said so:
 * no new connection served past the reconnect's 30 s (RECONNECT_TIMEOUT
 * in mig-session-source.c), and the document's note, unless its writes
 * failed (then the log has it, not the file).
 */
static int
mode_left_told(void)
{
	const struct r_file *f = world_sim_file("/sim/src.status");

	if (!rm_refused_past(R_SRC, 30) && !rqs_stopped_past(R_SRC, 30))
		return 0;
	return rp_write_fails(R_SRC) > 0 || (f != NULL && f->data != NULL &&
	    strstr(f->data, "mode normal not confirmed") != NULL);
}

/* At the end, the source's exit (real.c checked its bound, its death by
 * a signal, its phase). */
void
ru_check_end(void)
{
	const struct r_side	*sd = &R.sd[R_SRC];
	const struct wq		*q = R.q[R_SRC];
	int			 x = wq_exec_phase(q) != QM_XP_NONE;
	int			 up = new_qemu_up(q), rc = sd->rc;
	int			 paused = rf_operator_paused();

	if (!sd->done || sd->died_by != 0)
		return;
	U.exits[U.outcome][rc >= 0 && rc < NEXITS - 1 ? rc : NEXITS - 1]++;
	U.execed[U.outcome] += x;
	if (sd->runs > 0) {
		U.reruns++;
		U.reruns_execed += x;
	}
	if (world_sim_file(MARKER_FILE) != NULL &&
	    world_sim_file(MARKER_FILE)->data != NULL) {
		const struct r_file *rec = world_sim_file("/sim/src.status");

		U.marker_left++;
		U.marker_left_8 += rc == QM_EXIT_UNKNOWN;
		U.marker_rerun_8 += rc == QM_EXIT_UNKNOWN && sd->runs > 0 &&
		    (rec == NULL || rec->data == NULL);
	}
	if (rc == QM_EXIT_OK && wq_fresh_guest(q))
		r_violation("E1: exit 0 with a guest booted afresh (the new "
		    "QEMU had no -incoming)");
	else if (rc == QM_EXIT_OK && !(up && (wq_runs_guest(q) || paused)))
		r_violation("E2: exit 0 but the guest does not run on the new "
		    "QEMU (exec %s, %s, %s, process %s)", x ? "done" : "not "
		    "done", wq_status(q), wq_runstate(q),
		    wq_process_alive(q) ? "up" : "gone");
	if (rc >= 2 && rc <= 5) {
		if (x)
			r_violation("%s: exit %d after the exec (the old QEMU "
			    "is gone; status writes that failed: %d)",
			    sd->runs > 0 ? "E5 (E4 on a re-run)" : "E4", rc,
			    R.write_fails);
		else if (!R.qemu_killed[R_SRC] && !(wq_alive(q) &&
		    (wq_runs_guest(q) || paused)))
			r_violation("E3: exit %d but the guest does not run on "
			    "the old QEMU (%s, %s)", rc, wq_status(q),
			    wq_runstate(q));
		else if (wq_alive(q) && wq_mode(q) != 0 && mode_left_told())
			U.mode_told++;
		else if (wq_alive(q) && wq_mode(q) != 0)
			r_violation("E3: exit %d with QEMU's mode left %s (a "
			    "later plain migrate would run in it)", rc,
			    wq_mode(q) == 2 ? "cpr-exec" : "cpr-transfer");
	}
	if (x && !up && rc == QM_EXIT_OK)
		r_violation("E4: exit 0 while the new QEMU did not come up");
}

void
ru_report(FILE *f)
{
	int	 i, j;

	if (!U.on)
		return;
	for (i = 0; i < NOUTCOMES; i++) {
		fprintf(f, "sim-real: update --mode exec, %s: %lu drawn, %lu "
		    "exec'd; exits:", outcome_name[i], U.drawn[i], U.execed[i]);
		for (j = 0; j < NEXITS; j++)
			if (U.exits[i][j] > 0)
				fprintf(f, " %s%d %lu", j == NEXITS - 1 ? ">" : "",
				    j == NEXITS - 1 ? 8 : j, U.exits[i][j]);
		fprintf(f, "\n");
	}
	fprintf(f, "sim-real: update --mode exec: %lu ended in a re-run after "
	    "SIGKILL (%lu of them after the exec); %lu exited 2-5 with the "
	    "mode left, the monitor out of reach and the document saying "
	    "so\n", U.reruns, U.reruns_execed, U.mode_told);
	fprintf(f, "sim-real: update --mode exec: update marker writes %lu, "
	    "%lu of them refused (the update stopped before the exec); a "
	    "marker left at the end of %lu schedules (%lu of them exit 8, %lu "
	    "a re-run's over no record)\n", U.marker_writes, U.marker_refused,
	    U.marker_left, U.marker_left_8, U.marker_rerun_8);
}
