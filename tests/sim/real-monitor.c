/*
 * real-monitor.c: the monitors' own faults (issue 37: what exec.c's
 * monitors did that sim-real's world lacked; tests/sim/README.md).
 *
 * A QEMU's monitor connections cut: at one of its status changes (its
 * n-th STOP, RESUME or MIGRATION event), within 30 s of its k-th command,
 * or at a random moment; then connects refused for 0, 1-29 or 35-60 s (a
 * relay restarting, a QEMU whose monitor chardev is busy).  The answers
 * and events queued for a cut connection go with it.
 *
 * A command dropped: QEMU's k-th command is never answered, and nothing
 * more comes on that connection (a relay that holds it and those behind
 * it, or a QEMU whose monitor hangs in it): either it never reaches QEMU,
 * or QEMU runs it and the answer is lost.  A new connection works.
 *
 * A command that reaches QEMU late (qmp-relay --hold: the relay holds the
 * command, not the answer): QEMU's k-th command runs 1-9.9 or 10.1-40 s
 * after qmigrate sent it, those behind it on that connection after it; a
 * connection that went meanwhile does not take it back (a late `cont`
 * runs all the same).
 *
 * Each kind's draws come from a stream of their own, so every other fault's
 * schedule is what it was (a seed that draws none of these runs as
 * before).  Each fault that lands hides the outcome from the side whose
 * QEMU it hits (P9: an 8 is honest then, rp_hide).
 */
#include <string.h>

#include "common.h"
#include "real.h"

enum rm_when { RM_EVENT, RM_AFTER_CMD, RM_AT, RM_NWHEN };

static const char *when_name[RM_NWHEN] = { "at a status change",
	"after a command", "at a random moment" };

struct rm_cut {
	int		 drawn, done;
	enum rm_when	 when;
	int		 nth, seen;	/* RM_EVENT: events; RM_AFTER_CMD:
					   commands */
	double		 delay;		/* after it */
	double		 at;		/* due, 0: not yet known */
	double		 refuse;	/* connects refused so long */
};

struct rm_drop {
	int		 drawn, done;
	int		 nth, seen;	/* the nth command QEMU gets */
	int		 ran;		/* QEMU runs it, the answer lost */
	unsigned	 gen;		/* the connection gone mute, 0 */
};

#define RM_LATE_MAX	32
#define RM_LINE_MAX	4096
struct rm_late {
	int		 drawn, done;
	int		 nth, seen;
	double		 len;
	int		 n;		/* commands waiting */
	struct {
		double	 at;
		unsigned gen;
		char	 line[RM_LINE_MAX];
	}		 q[RM_LATE_MAX];
};

static struct {
	struct rng	 rng, rng_drop, rng_late;
	struct rm_late	 late[2];
	unsigned long	 lates[2];	/* under 10 s, past it */
	struct rm_cut	 cut[2];
	double		 refuse_until[2];
	struct rm_drop	 drop[2];
	unsigned long	 cuts[RM_NWHEN], refused;	/* all seeds */
	unsigned long	 drops[2];	/* never reached QEMU, ran */
} M;

static void
draw_drops(void)
{
	int i;

	memset(M.drop, 0, sizeof M.drop);
	rng_seed(&M.rng_drop, R.seed ^ 0x64726f702d636d64ULL);
	for (i = 0; i < 2; i++) {
		struct rm_drop *d = &M.drop[i];

		if (!rng_chance(&M.rng_drop, 0.2))
			continue;
		d->drawn = 1;
		d->nth = 1 + (int)(rng_next(&M.rng_drop) % 40);
		d->ran = rng_chance(&M.rng_drop, 0.5);
	}
}

static void
draw_lates(void)
{
	int i;

	memset(M.late, 0, sizeof M.late);
	rng_seed(&M.rng_late, R.seed ^ 0x6c6174652d636d64ULL);
	for (i = 0; i < 2; i++) {
		struct rm_late *l = &M.late[i];

		if (!rng_chance(&M.rng_late, 0.2))
			continue;
		l->drawn = 1;
		l->nth = 1 + (int)(rng_next(&M.rng_late) % 40);
		l->len = rng_chance(&M.rng_late, 0.5) ?
		    rng_range(&M.rng_late, 1, 9.9) :
		    rng_range(&M.rng_late, 10.1, 40);
	}
}

void
rm_draw(void)
{
	int i;

	memset(M.cut, 0, sizeof M.cut);
	M.refuse_until[0] = M.refuse_until[1] = 0;
	rng_seed(&M.rng, R.seed ^ 0x6d6f6e2d63757421ULL);
	for (i = 0; i < 2; i++) {
		struct rm_cut	*c = &M.cut[i];
		double		 r;

		if (!rng_chance(&M.rng, 0.25))
			continue;
		c->drawn = 1;
		c->when = (enum rm_when)(rng_next(&M.rng) % RM_NWHEN);
		c->nth = 1 + (int)(rng_next(&M.rng) % (c->when == RM_EVENT ?
		    4 : 30));
		c->delay = c->when == RM_EVENT ? rng_range(&M.rng, 0, 1) :
		    rng_range(&M.rng, 0, 30);
		if (c->when == RM_AT)
			c->at = rng_range(&M.rng, 0.3, 120);
		r = rng_unit(&M.rng);
		c->refuse = r < 1.0 / 3 ? 0 : r < 2.0 / 3 ?
		    rng_range(&M.rng, 1, 29) : rng_range(&M.rng, 35, 60);
	}
	draw_drops();
	draw_lates();
}

/* Whether connects to QEMU which's monitor are refused now. */
int
rm_refused(int which)
{
	if (R.now >= M.refuse_until[which])
		return 0;
	M.refused++;
	return 1;
}

/*
 * Whether a cut of QEMU which's monitor refused connects for more than
 * secs this schedule (real-update.c: past qmigrate's reconnect).
 */
int
rm_refused_past(int which, double secs)
{
	return M.cut[which].done && M.cut[which].refuse > secs;
}

static void
arm(struct rm_cut *c)
{
	if (++c->seen == c->nth)
		c->at = R.now + c->delay;
}

/* A command QEMU which took. */
void
rm_command(int which)
{
	struct rm_cut *c = &M.cut[which];

	if (c->drawn && !c->done && c->at == 0 && c->when == RM_AFTER_CMD)
		arm(c);
}

/*
 * Whether the command qmigrate (side) just wrote on connection gen never
 * reaches QEMU which: the dropped one, or one behind it on that
 * connection.
 */
int
rm_dropped(int which, unsigned gen, int side)
{
	struct rm_drop *d = &M.drop[which];

	if (!d->drawn)
		return 0;
	if (d->done)
		return d->gen == gen;
	if (++d->seen < d->nth)
		return 0;
	d->done = 1;
	d->gen = gen;
	M.drops[d->ran]++;
	r_trace(side, "command %d dropped (%s): nothing more on this "
	    "connection", d->nth, d->ran ? "QEMU runs it" :
	    "it never reaches QEMU");
	rp_hide(side, "a command never answered");
	return !d->ran;
}

/*
 * Whether the command (line) qmigrate (side) wrote on connection gen
 * waits in the relay: the late one, or one behind it there.
 */
int
rm_late(int which, unsigned gen, int side, const char *line)
{
	struct rm_late	*l = &M.late[which];
	double		 at;

	if (!l->drawn || strlen(line) >= RM_LINE_MAX || l->n == RM_LATE_MAX)
		return 0;
	if (l->n > 0 && l->q[l->n - 1].gen == gen)
		at = l->q[l->n - 1].at;
	else if (!l->done && ++l->seen == l->nth) {
		l->done = 1;
		at = R.now + l->len;
		M.lates[l->len > 10]++;
		r_trace(side, "command %d reaches QEMU %.1f s late", l->nth,
		    l->len);
		if (l->len > 10)
			rp_hide(side, "a command reached QEMU past 10 s");
	} else
		return 0;
	l->q[l->n].at = at;
	l->q[l->n].gen = gen;
	snprintf(l->q[l->n].line, RM_LINE_MAX, "%s", line);
	l->n++;
	return 1;
}

/* Whether what QEMU which writes now for connection gen is lost. */
int
rm_muted(int which, unsigned gen)
{
	return M.drop[which].done && M.drop[which].gen == gen;
}

/* A line QEMU which wrote: a status change arms the cut waiting for it. */
void
rm_qemu_line(int which, const char *line)
{
	struct rm_cut *c = &M.cut[which];

	if (!c->drawn || c->done || c->at != 0 || c->when != RM_EVENT ||
	    strstr(line, "\"event\"") == NULL)
		return;
	if (strstr(line, "\"MIGRATION\"") != NULL ||
	    strstr(line, "\"STOP\"") != NULL ||
	    strstr(line, "\"RESUME\"") != NULL)
		arm(c);
}

double
rm_due(void)
{
	double	t = 1e300;
	int	i;

	for (i = 0; i < 2; i++) {
		if (M.cut[i].drawn && !M.cut[i].done && M.cut[i].at > 0 &&
		    M.cut[i].at < t)
			t = M.cut[i].at;
		if (M.late[i].n > 0 && M.late[i].q[0].at < t)
			t = M.late[i].q[0].at;
	}
	return t;
}

void
rm_happen(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		struct rm_late *l = &M.late[i];

		while (l->n > 0 && l->q[0].at <= R.now) {
			if (wq_alive(R.q[i]))
				wq_input(R.q[i], l->q[0].line, R.now);
			memmove(&l->q[0], &l->q[1], (size_t)--l->n *
			    sizeof l->q[0]);
		}
	}
	for (i = 0; i < 2; i++) {
		struct rm_cut *c = &M.cut[i];

		if (!c->drawn || c->done || c->at == 0 || c->at > R.now)
			continue;
		c->done = 1;
		if (!wq_alive(R.q[i]))
			continue;
		M.cuts[c->when]++;
		M.refuse_until[i] = R.now + c->refuse;
		r_trace(i, "monitor cut (%s), connects refused %.1f s",
		    when_name[c->when], c->refuse);
		world_sim_cut_monitor(i);
		if (!R.sd[i].done)
			rp_hide(i, "its monitor cut");
	}
}

void
rm_report(FILE *fp)
{
	fprintf(fp, "sim-real: monitor faults: cuts %lu at a status change, "
	    "%lu after a command, %lu at a random moment; connects refused "
	    "%lu; commands dropped %lu before QEMU, %lu after it ran them; "
	    "commands late to QEMU %lu under 10 s, %lu past it\n",
	    M.cuts[RM_EVENT], M.cuts[RM_AFTER_CMD], M.cuts[RM_AT], M.refused,
	    M.drops[0], M.drops[1], M.lates[0], M.lates[1]);
}
