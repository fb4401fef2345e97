/*
 * model-drive.c: drives two simulated QEMUs (qemu-model-sim.c) through
 * migrations the way qmigrate's commands would, over many seeds and the
 * three versions, and checks what the model must hold whatever the seed:
 * every answer is a JSON line with its command's id; the guest never
 * runs on both; a source that completes with a return path has a target
 * that loaded; without one, a target whose load fails leaves a completed
 * source (QEMU's behaviour behind N1, counted, not a failure); every
 * migration ends within its bound.  Then 11.1's cpr-exec, each outcome the
 * world may draw (qm_set_exec): the process lives through a 20-50 ms gap
 * with no monitor, then the new QEMU loads the file and runs the guest,
 * or the failed execvp leaves the old one running it in mode cpr-exec,
 * or the new program exits, never binds its monitor, fails its load, or
 * (no -incoming) boots a fresh guest.  A check of the model's simulator
 * half until tests/sim/sim drives it.
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

/*
 * cpr-exec (11.1), as update --mode exec drives it: each outcome the
 * world can draw, with -S or not; what the process must then show.
 * Returns the migrations that ended as their outcome says.
 */
static int
drive_cpr_exec(int seed)
{
	static const char *const oname[] = { "ok", "execvp fails",
	    "new program exits", "monitor never back", "load fails",
	    "no -incoming" };
	struct qm_config	 sc = { 0 };
	struct qm_world		 qw = { 0 };
	struct world		 w;
	struct qm_qemu		*q;
	const struct qm_state	*s;
	enum qm_exec_outcome	 out = (enum qm_exec_outcome)(seed % 6);
	double			 now = 0, t_exec = -1, gap = -1;
	int			 dash_s, continued = 0, greeted = 0, ok;
	char			 params[512], what[160];

	w.rng = 0x2545f4914f6cdd1dull * (uint64_t)seed;
	w.dst = NULL;
	qw.arg = &w;
	qw.choose = choose;
	qw.listener = listener;
	sc.version = QM_V11_1;
	q = qm_new(&sc, &qw);
	s = qm_state(q);
	dash_s = choose(&w, 2);
	qm_set_exec(q, out);
	send(q, "qmp_capabilities", NULL, now, seed, "11.1");
	send(q, "migrate-set-capabilities", "{\"capabilities\":[{\"capability"
	    "\":\"events\",\"state\":true},{\"capability\":\"pause-before-"
	    "switchover\",\"state\":true}]}", now, seed, "11.1");
	snprintf(params, sizeof params, "{\"mode\":\"cpr-exec\","
	    "\"cpr-exec-command\":[\"/usr/bin/qemu-system-x86_64\",\"-m\","
	    "\"96\",%s\"-incoming\",\"file:/w/vm.state\"]}",
	    dash_s ? "\"-S\"," : "");
	send(q, "migrate-set-parameters", params, now, seed, "11.1");
	send(q, "migrate", "{\"uri\":\"file:/w/vm.state\"}", now, seed,
	    "11.1");
	while (now < 30 && isfinite(qm_due(q))) {
		now = qm_due(q);
		qm_advance(q, now);
		drain(q);
		if (s->status == QM_ST_PRE_SWITCHOVER && !continued) {
			continued = 1;
			send(q, "migrate-continue", "{\"state\":\"pre-"
			    "switchover\"}", now, seed, "11.1");
		}
		if (t_exec < 0 && qm_exec_phase(q) == QM_XP_GAP) {
			t_exec = now;
			if (!qm_process_alive(q) || s->alive)
				fail(seed, "11.1", "cpr-exec: in the exec's gap "
				    "the process must live, its QEMU not");
		}
		if (gap < 0 && t_exec >= 0 && qm_exec_phase(q) != QM_XP_GAP)
			gap = now - t_exec;
		/* The new QEMU greets behind the same monitor: asked, and
		   told cont once loaded if it waits (-S). */
		if (qm_exec_phase(q) == QM_XP_REBORN && s->alive && !greeted) {
			greeted = 1;
			free(qm_greeting(q));
			send(q, "qmp_capabilities", NULL, now, seed, "11.1");
		}
		if (greeted && s->alive && s->status == QM_ST_COMPLETED &&
		    s->runstate == QM_RS_PAUSED)
			send(q, "cont", NULL, now, seed, "11.1");
	}
	if (t_exec >= 0 && !(gap > 0.0199 && gap < 0.0501))
		fail(seed, "11.1", "cpr-exec: the monitor's gap is not "
		    "20-50 ms");
	switch (out) {
	case QM_EXEC_OK:
		ok = qm_exec_phase(q) == QM_XP_REBORN && qm_runs_guest(s) &&
		    s->status == QM_ST_COMPLETED && !qm_fresh_guest(q);
		break;
	case QM_EXEC_EXECVP_FAILS:
		/* The old QEMU runs the guest again, its mode unchanged. */
		ok = qm_exec_phase(q) == QM_XP_NONE && t_exec < 0 &&
		    s->status == QM_ST_FAILED && qm_runs_guest(s) &&
		    s->mode == 2;
		break;
	case QM_EXEC_EXITS:
		ok = qm_exec_phase(q) == QM_XP_EXITED && !qm_process_alive(q);
		break;
	case QM_EXEC_SILENT:
		ok = qm_exec_phase(q) == QM_XP_SILENT && qm_process_alive(q) &&
		    !s->alive;
		break;
	case QM_EXEC_LOAD_FAILS:
		ok = qm_exec_phase(q) == QM_XP_REBORN && !qm_process_alive(q) &&
		    greeted;
		break;
	default:
		/* A fresh guest: booted (prelaunch with -S), nothing loaded. */
		ok = (dash_s ? s->alive && s->runstate == QM_RS_PRELAUNCH :
		    qm_runs_guest(s)) && qm_fresh_guest(q) &&
		    s->status == QM_ST_NONE;
		break;
	}
	if (!ok) {
		snprintf(what, sizeof what, "cpr-exec (%s%s): ends %s/%s, "
		    "phase %d, process %s", oname[out], dash_s ? ", -S" : "",
		    qm_status_name(s->status), qm_runstate_name(s->runstate),
		    qm_exec_phase(q), qm_process_alive(q) ? "up" : "gone");
		fail(seed, "11.1", what);
	}
	qm_free(q);
	return ok;
}

int
main(void)
{
	static const char *const vname[] = { "7.2", "10.0", "11.1" };
	struct qm_config	 sc = { 0 }, dc = { 0 };
	struct qm_world		 qw = { 0 };
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
	for (seed = 1, bad = 0; seed <= 600; seed++)
		bad += !drive_cpr_exec(seed);
	printf("model-drive: cpr-exec, 600 seeds (100 per outcome): %d ended "
	    "otherwise than drawn, %d failures in all\n", bad, failures);
	return failures ? 1 : 0;
}
