/*
 * model-drive.c: drives two simulated QEMUs (qemu-model-sim.c) through
 * migrations the way qmigrate's commands would, over many seeds and the
 * three versions, and checks what the model must hold whatever the seed:
 * every answer is a JSON line with its command's id; the guest never
 * runs on both; a source that completes with a return path has a target
 * that loaded; without one, a target whose load fails leaves a completed
 * source (QEMU's behaviour behind N1, counted, not a failure); every
 * migration ends within its bound.  A check of the model's simulator half
 * until tests/sim/sim drives it.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qemu-model.h"

struct world {
	uint64_t	 rng;
	struct qm_qemu	*dst;
};

static int
choose(void *arg, int n)
{
	struct world	*w = arg;

	w->rng ^= w->rng << 13;
	w->rng ^= w->rng >> 7;
	w->rng ^= w->rng << 17;
	return (int)(w->rng % (uint64_t)n);
}

static struct qm_qemu *
listener(void *arg, const char *uri)
{
	struct world	*w = arg;
	const char	*l = qm_listen_uri(w->dst);

	return l != NULL && strcmp(l, uri) == 0 ? w->dst : NULL;
}

static int	 failures;
static int	 cmd_id;

static void
fail(int seed, const char *v, const char *what)
{
	if (failures++ < 10)
		printf("FAIL seed %d QEMU %s: %s\n", seed, v, what);
}

/* Sends a command and checks the answer that comes back with its id. */
static void
send(struct qm_qemu *q, const char *cmd, const char *args, double now,
    int seed, const char *v)
{
	struct json_object	*o, *id;
	char			 line[512], want[32];
	char			*out;
	int			 answered = 0;

	snprintf(want, sizeof want, "qm-%d", ++cmd_id);
	snprintf(line, sizeof line, "{\"execute\":\"%s\"%s%s%s,\"id\":\"%s\"}",
	    cmd, args ? ",\"arguments\":" : "", args ? args : "", "", want);
	qm_input(q, line, now);
	while ((out = qm_output(q)) != NULL) {
		if ((o = json_tokener_parse(out)) == NULL)
			fail(seed, v, "an output line that is not JSON");
		else if (json_object_object_get_ex(o, "id", &id) &&
		    strcmp(json_object_get_string(id), want) == 0)
			answered = 1;
		json_object_put(o);
		free(out);
	}
	if (!answered && qm_state(q)->alive)
		fail(seed, v, "a command without an answer");
}

static void
drain(struct qm_qemu *q)
{
	char	*out;

	while ((out = qm_output(q)) != NULL)
		free(out);
}

int
main(void)
{
	static const char *const vname[] = { "7.2", "10.0", "11.1" };
	struct qm_config	 sc = { 0 }, dc = { 0 };
	struct qm_world		 qw;
	struct world		 w;
	struct qm_qemu		*src;
	const struct qm_state	*ss, *ds;
	double			 now, due;
	int			 seed, v, rp, bad, n1 = 0, done_ok = 0, failed = 0;
	char			 caps[256];

	for (seed = 1; seed <= 600; seed++) {
		v = seed % 3;
		w.rng = 0x9e3779b97f4a7c15ull * (uint64_t)seed;
		qw.arg = &w;
		qw.choose = choose;
		qw.listener = listener;
		sc.version = dc.version = (enum qm_version)v;
		dc.incoming = 1;
		src = qm_new(&sc, &qw);
		w.dst = qm_new(&dc, &qw);
		rp = choose(&w, 2);
		bad = choose(&w, 4) == 0;
		if (bad)
			qm_fail_load(w.dst);
		now = 0;
		snprintf(caps, sizeof caps, "{\"capabilities\":[{\"capability"
		    "\":\"events\",\"state\":true},{\"capability\":"
		    "\"return-path\",\"state\":%s}]}", rp ? "true" : "false");
		send(w.dst, "qmp_capabilities", NULL, now, seed, vname[v]);
		send(w.dst, "migrate-set-capabilities", caps, now, seed,
		    vname[v]);
		send(w.dst, "migrate-incoming",
		    "{\"uri\":\"unix:/m.sock\"}", now, seed, vname[v]);
		send(src, "qmp_capabilities", NULL, now, seed, vname[v]);
		send(src, "migrate-set-capabilities", caps, now, seed,
		    vname[v]);
		send(src, "migrate", "{\"uri\":\"unix:/m.sock\"}", now, seed,
		    vname[v]);
		ss = qm_state(src);
		ds = qm_state(w.dst);
		while (now < 120) {
			due = fmin(qm_due(src), qm_due(w.dst));
			if (isinf(due))
				break;
			now = due;
			qm_advance(src, now);
			qm_advance(w.dst, now);
			drain(src);
			drain(w.dst);
			if (qm_runs_guest(ss) && qm_runs_guest(ds))
				fail(seed, vname[v], "both QEMUs run the guest");
			/* a migration that never converges: cancel it */
			if (now > 60 && ss->status == QM_ST_ACTIVE &&
			    !(ss->flags & QM_IF_SWITCHED))
				send(src, "migrate_cancel", NULL, now, seed,
				    vname[v]);
		}
		if (now >= 120) {
			char m[160];
			snprintf(m, sizeof m, "no end within 120 s: source %s/%s "
			    "flags %x, target %s/%s%s flags %x",
			    qm_status_name(ss->status),
			    qm_runstate_name(ss->runstate), ss->flags,
			    qm_status_name(ds->status),
			    qm_runstate_name(ds->runstate),
			    ds->alive ? "" : " (gone)", ds->flags);
			fail(seed, vname[v], m);
		}
		if (ss->status == QM_ST_COMPLETED) {
			if (rp && !(ds->alive && ds->status ==
			    QM_ST_COMPLETED && qm_runs_guest(ds)))
				fail(seed, vname[v], "completed with a return "
				    "path, the target not running");
			if (!qm_runs_guest(ds))
				n1++;
			else
				done_ok++;
		} else {
			failed++;
			if (ss->status == QM_ST_FAILED && ss->runstate !=
			    QM_RS_RUNNING)
				fail(seed, vname[v], "a failed migration left "
				    "the source stopped");
		}
		qm_free(src);
		qm_free(w.dst);
	}
	printf("model-drive: 600 seeds: %d moved, %d completed on the source "
	    "with the target's load failed (no return path: QEMU's N1), "
	    "%d failed or cancelled, %d failures\n", done_ok, n1, failed,
	    failures);
	return failures ? 1 : 0;
}
