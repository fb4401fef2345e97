/*
 * real-faults.c: faults the world times from QEMU's own events (issue 37,
 * the simulator that runs the real executor, real.h).  real.c's draws fall
 * at random instants, so a fault that matters only in a window QEMU opens
 * (a SIGKILL just after the source QEMU stopped the guest, a full disk
 * when the pause is decided) is drawn rarely.  Here each fault waits for
 * an event one of the QEMUs writes on its monitor (STOP, RESUME, a
 * MIGRATION status of either), its n-th such, and happens 0-2 s after
 * it: SIGKILL of either qmigrate (then its re-run), the status files'
 * filesystem full for a while, a default-fatal signal to either side,
 * either QEMU killed.  And the operator's pause: the source guest paused
 * (QMP `stop` on the operator's own monitor) before migrate runs.
 *
 * A seed draws its own rate, then up to six faults of random kinds at
 * that rate (swarm testing: some seeds none, some two SIGKILLs, a QEMU
 * killed and a full disk).  Its draws come from a stream of their own, so every other fault's
 * schedule is what it was; a fault lands through real.c's own knobs (the
 * SIGKILL, the signal, the QEMU kill), taken only where the seed left
 * that knob unused, or through the write hook (the full filesystem).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "common.h"
#include "real.h"

enum rf_kind { RF_SIGKILL, RF_FULL, RF_SIGNAL, RF_QEMU_KILL, RF_NKINDS };
#define RF_MAX	6	/* faults a seed may draw */

static const char *kind_name[RF_NKINDS] = {
	"SIGKILL of qmigrate", "a full filesystem", "a signal",
	"a QEMU killed",
};

/* The events a fault may wait for, on either QEMU's monitor: STOP,
 * RESUME, or a MIGRATION event (any status: the n-th status change). */
enum rf_event { RF_EV_STOP, RF_EV_RESUME, RF_EV_MIGRATION, RF_NEVENTS };
static const char *event_names[RF_NEVENTS] = { "STOP", "RESUME",
	"MIGRATION" };

struct rf_fault {
	int		 drawn;
	int		 qemu;		/* whose event */
	enum rf_event	 ev;
	int		 nth, seen;
	double		 delay;		/* after the event, 0-2 s */
	int		 side;		/* the qmigrate or QEMU it hits */
	int		 signum;
	double		 len;		/* the filesystem full so long */
	double		 rerun_after;	/* SIGKILL: the re-run so long after */
	enum rf_kind	 kind;
	double		 full_from, full_until;	/* RF_FULL, landed */
	int		 done;		/* its event came: landed, or its
					   knob was in use */
};

static struct {
	struct rng	 rng;
	struct rf_fault	 f[RF_MAX];
	int		 cmdline_known;
	int		 pause_drawn;
	int		 operator_paused;	/* and done */
	unsigned long	 landed[RF_NKINDS], paused;	/* all seeds */
} F;

/*
 * The target QEMU's command line, as /proc shows it: the target tells by
 * its -S whether QEMU starts an arrived guest by itself.  Unreadable (a
 * relay in front of the monitor, mig-target.c's "not known") in a fifth
 * of the seeds.
 */
static void
put_cmdline(void)
{
	static const char plain[] = "qemu-system-x86_64\0-incoming\0defer";
	static const char dash_s[] = "qemu-system-x86_64\0-incoming\0defer"
	    "\0-S";

	if (!F.cmdline_known)
		return;
	if (R.k.dash_s)
		world_sim_put_file("/proc/4001/cmdline", dash_s, sizeof dash_s);
	else
		world_sim_put_file("/proc/4001/cmdline", plain, sizeof plain);
}

int
rf_cmdline_known(void)
{
	return F.cmdline_known;
}

void
rf_draw(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1,
	    SIGUSR2 };
	struct rng	*g = &F.rng;
	int		 i;

	double		 rate;

	memset(F.f, 0, sizeof F.f);
	rng_seed(g, R.seed ^ 0x716d752d65766e74ULL);
	F.pause_drawn = rng_chance(g, 0.15);
	F.operator_paused = 0;
	F.cmdline_known = rng_chance(g, 0.8);
	/* A swarm: each seed its own rate, so that some have none, some
	   many (two SIGKILLs, a kill and a full disk...). */
	rate = rng_unit(g);
	for (i = 0; i < RF_MAX; i++) {
		struct rf_fault *f = &F.f[i];

		if (!rng_chance(g, rate))
			continue;
		f->drawn = 1;
		f->kind = (enum rf_kind)(rng_next(g) % RF_NKINDS);
		f->qemu = rng_chance(g, 0.5) ? R_SRC : R_TGT;
		f->ev = (enum rf_event)(rng_next(g) % RF_NEVENTS);
		f->nth = f->ev == RF_EV_MIGRATION ? 1 + (int)(rng_next(g) % 4) :
		    rng_chance(g, 0.75) ? 1 : 2;
		f->delay = rng_range(g, 0, 2);
		f->side = rng_chance(g, 0.6) ? R_SRC : R_TGT;
		f->signum = sigs[rng_next(g) % 6];
		f->len = rng_range(g, 1, 120);
		f->rerun_after = rng_chance(g, 0.5) ? rng_range(g, 0.01, 2) :
		    rng_range(g, 2, 120);
	}
	put_cmdline();
}

int
rf_operator_paused(void)
{
	return F.operator_paused;
}

/*
 * Before migrate starts: the operator paused the guest on its own
 * monitor (docs/failures.md's row "a guest the operator paused on the
 * source").  QEMU's answer went to that monitor, not to qmigrate's.
 */
void
rf_before_source(void)
{
	char *line;

	if (!F.pause_drawn)
		return;
	F.operator_paused = 1;
	F.paused++;
	r_trace(R_SRC, "the operator pauses the guest (stop)");
	wq_input(R.q[R_SRC], "{\"execute\": \"stop\", \"id\": \"operator\"}",
	    R.now);
	while ((line = wq_output(R.q[R_SRC])) != NULL)
		free(line);
}

/* The fault lands, through the knob real.c schedules it by. */
static void
land(struct rf_fault *f)
{
	double at = R.now + f->delay;

	switch (f->kind) {
	case RF_SIGKILL:
		if (R.k.sigkill_at[f->side] > 0 || R.sd[f->side].done)
			return;
		R.k.sigkill_at[f->side] = at;
		R.k.rerun_after[f->side] = f->rerun_after;
		break;
	case RF_FULL:
		f->full_from = at;
		f->full_until = at + f->len;
		break;
	case RF_SIGNAL:
		if (R.k.sig_at[f->side] > 0 || R.sd[f->side].done)
			return;
		R.k.sig_at[f->side] = at;
		R.k.sig_num[f->side] = f->signum;
		break;
	case RF_QEMU_KILL:
		if (R.k.qemu_kill2_at[f->side] > 0 || !wq_alive(R.q[f->side]))
			return;
		R.k.qemu_kill2_at[f->side] = at;
		break;
	case RF_NKINDS:
		return;
	}
	F.landed[f->kind]++;
	r_trace(f->side, "%s drawn at %.3f (the %s QEMU's %s event #%d)",
	    kind_name[f->kind], at, f->qemu == R_SRC ? "source" : "target",
	    event_names[f->ev], f->nth);
}

/*
 * The event a QEMU's line is, or RF_NEVENTS for an answer or another; a
 * STOP, RESUME or MIGRATION goes to real-switchover.c too.
 */
static enum rf_event
event_of(int which, const char *line)
{
	json_object	*o, *v, *d;
	const char	*name, *status = "";
	enum rf_event	 e = RF_NEVENTS;
	int		 i;

	if (strstr(line, "\"event\"") == NULL ||
	    (o = json_tokener_parse(line)) == NULL)
		return RF_NEVENTS;
	if (json_object_object_get_ex(o, "event", &v)) {
		name = json_object_get_string(v);
		for (i = 0; i < RF_NEVENTS; i++)
			if (strcmp(name, event_names[i]) == 0)
				e = (enum rf_event)i;
		if (json_object_object_get_ex(o, "data", &d) &&
		    json_object_object_get_ex(d, "status", &v))
			status = json_object_get_string(v);
		if (e != RF_NEVENTS)
			rs_qemu_event(which, name, status);
	}
	json_object_put(o);
	return e;
}

/* A line QEMU which wrote on its monitor: the faults that wait for it. */
void
rf_qemu_line(int which, const char *line)
{
	enum rf_event	e = event_of(which, line);
	int		i;

	if (e == RF_NEVENTS)
		return;
	for (i = 0; i < RF_MAX; i++) {
		struct rf_fault *f = &F.f[i];

		if (!f->drawn || f->done || f->qemu != which || f->ev != e)
			continue;
		if (++f->seen == f->nth) {
			f->done = 1;
			land(f);
		}
	}
}

/* Whether a status write now fails: the filesystem full. */
int
rf_disk_full(void)
{
	int i;

	for (i = 0; i < RF_MAX; i++)
		if (F.f[i].kind == RF_FULL && R.now >= F.f[i].full_from &&
		    R.now < F.f[i].full_until)
			return 1;
	return 0;
}

void
rf_report(FILE *f)
{
	int i;

	fprintf(f, "sim-real: faults at QEMU's events:");
	for (i = 0; i < RF_NKINDS; i++)
		fprintf(f, " %s %lu,", kind_name[i], F.landed[i]);
	fprintf(f, " the operator's pause %lu\n", F.paused);
}
