/*
 * cmd-watch.c: qmigrate watch: a live, human view of a migration: phase,
 * mode, a progress bar, bandwidth, dirty rate, expected downtime and the
 * controller's decisions, from query-migrate (--qmp) and the status
 * document of the qmigrate that drives it (--status-file).  In a terminal
 * the view is redrawn in place; otherwise one line per refresh (and one per
 * new decision), so it can be logged.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "qmp.h"

#define CONTAINER_OF(ptr, type, field) \
	((type *)((char *)(ptr) - offsetof(type, field)))
#define MIB (1024.0 * 1024.0)
#define BAR_WIDTH 40

struct watch {
	struct ev_loop	*loop;
	struct qmp_conn	*qmp;
	const char	*status_file;
	int		 tty;
	int		 lines;		/* drawn last time (tty) */
	size_t		 decisions_seen;
	int		 inflight;
	int		 done;
	int		 rc;
	double		 t0;
	json_object	*migrate;	/* last query-migrate, owned */
	ev_timer	 timer;
	ev_signal	 sigint;
	ev_signal	 sigterm;
};

/* Draws one refresh; decides whether the migration is over. */
static void
watch_draw(struct watch *w)
{
	json_object	*st = NULL, *prog, *ram, *decisions, *d;
	const char	*phase, *mode, *qstatus, *s;
	char		*cause = NULL, bar[BAR_WIDTH + 1];
	double		 total, remaining, transferred, bw, dirty, downtime;
	double		 iteration, throttle, pct;
	size_t		 i, n;
	int		 filled, lines = 0;

	if (w->status_file != NULL &&
	    (st = status_read_file(w->status_file, &cause)) == NULL) {
		log_debug("%s", cause);
		free(cause);
	}
	prog = json_obj_at(st, "progress");
	ram = json_obj_at(w->migrate, "ram");
	qstatus = json_str_at(w->migrate, "status");
	if (qstatus == NULL)
		qstatus = json_str_at(prog, "qemuStatus");
	if (qstatus == NULL)
		qstatus = "unknown";
	phase = json_str_at(st, "phase");
	if (phase == NULL)
		phase = strcmp(qstatus, "completed") == 0 ? "Succeeded" :
		    strcmp(qstatus, "failed") == 0 ||
		    strcmp(qstatus, "cancelled") == 0 ? "Failed" :
		    strcmp(qstatus, "none") == 0 ? "Pending" : "Running";
	mode = json_str_at(st, "mode");
	if (mode == NULL)
		mode = strncmp(qstatus, "postcopy", 8) == 0 ? "PostCopy" :
		    "PreCopy";
	if (ram != NULL) {
		total = json_double_at(ram, "total");
		remaining = json_double_at(ram, "remaining");
		transferred = json_double_at(ram, "transferred");
		bw = json_double_at(ram, "mbps") * 1e6 / 8;
		dirty = json_double_at(ram, "dirty-pages-rate") *
		    (json_double_at(ram, "page-size") > 0 ? json_double_at(ram, "page-size") :
		    4096);
		iteration = json_double_at(ram, "dirty-sync-count");
		downtime = json_double_at(w->migrate, "expected-downtime");
		throttle = json_double_at(w->migrate, "cpu-throttle-percentage");
	} else {
		total = json_double_at(prog, "dataTotal");
		remaining = json_double_at(prog, "dataRemaining");
		transferred = json_double_at(prog, "dataProcessed");
		bw = json_double_at(prog, "bandwidth");
		dirty = json_double_at(prog, "dirtyRate");
		iteration = json_double_at(prog, "iteration");
		downtime = json_double_at(prog, "expectedDowntimeMs");
		throttle = json_double_at(prog, "throttlePercentage");
	}
	if (strcmp(qstatus, "completed") == 0 || strcmp(phase,
	    "Succeeded") == 0)
		pct = 100;
	else
		pct = total > 0 ? 100.0 * (total - remaining) / total : 0;
	if (pct < 0)
		pct = 0;
	filled = (int)(pct * BAR_WIDTH / 100);
	memset(bar, '#', (size_t)filled);
	memset(bar + filled, '.', (size_t)(BAR_WIDTH - filled));
	bar[BAR_WIDTH] = '\0';
	decisions = json_obj_at(st, "decisions");
	n = decisions != NULL ? json_object_array_length(decisions) : 0;

	if (w->tty) {
		if (w->lines > 0)
			printf("\033[%dA\033[J", w->lines);
		printf("migration  %s, %s (QEMU: %s)  %.0f s\n", phase, mode,
		    qstatus, ev_now(w->loop) - w->t0);
		printf("[%s] %5.1f%%\n", bar, pct);
		printf("remaining  %.1f MiB of %.1f MiB (sent %.1f MiB), "
		    "pass %.0f\n", remaining / MIB, total / MIB,
		    transferred / MIB, iteration);
		printf("bandwidth  %.1f MiB/s   dirty rate %.1f MiB/s   "
		    "expected downtime %.0f ms   throttle %.0f%%\n", bw / MIB,
		    dirty / MIB, downtime, throttle);
		lines = 4;
		if ((s = json_str_at(st, "failureReason")) != NULL) {
			printf("failure    %s\n", s);
			lines++;
		}
		for (i = n > 5 ? n - 5 : 0; i < n; i++) {
			d = json_object_array_get_idx(decisions, i);
			printf("decision   %s: %s\n", json_str_at(d, "action") ?
			    json_str_at(d, "action") : "?", json_str_at(d, "reason") ?
			    json_str_at(d, "reason") : "");
			lines++;
		}
		w->lines = lines;
	} else {
		for (i = w->decisions_seen; i < n; i++) {
			d = json_object_array_get_idx(decisions, i);
			printf("decision: %s: %s\n", json_str_at(d, "action") ?
			    json_str_at(d, "action") : "?", json_str_at(d, "reason") ?
			    json_str_at(d, "reason") : "");
		}
		printf("phase=%s mode=%s qemu=%s progress=%.1f%% "
		    "remaining=%.0f total=%.0f bandwidth=%.0f dirty_rate=%.0f "
		    "expected_downtime_ms=%.0f iteration=%.0f throttle=%.0f\n",
		    phase, mode, qstatus, pct, remaining, total, bw, dirty,
		    downtime, iteration, throttle);
	}
	w->decisions_seen = n;
	fflush(stdout);

	if (strcmp(phase, "Succeeded") == 0 ||
	    strcmp(qstatus, "completed") == 0) {
		w->done = 1;
		w->rc = QM_EXIT_OK;
	} else if (strcmp(phase, "Failed") == 0 ||
	    strcmp(qstatus, "failed") == 0 ||
	    strcmp(qstatus, "cancelled") == 0) {
		w->done = 1;
		w->rc = json_obj_at(st, "exitCode") != NULL ?
		    (int)json_double_at(st, "exitCode") : QM_EXIT_DATA;
	}
	json_object_put(st);
	if (w->done)
		ev_break(w->loop, EVBREAK_ALL);
}

static void
on_migrate(struct qmp_conn *conn, json_object *reply, const char *error_class,
    const char *error, void *arg)
{
	struct watch *w = arg;

	w->inflight = 0;
	if (reply == NULL) {
		log_warnx("query-migrate: %s", error);
		return;
	}
	json_object_put(w->migrate);
	w->migrate = json_object_get(reply);
	watch_draw(w);
}

static void
on_timer(struct ev_loop *loop, ev_timer *t, int revents)
{
	struct watch	*w = CONTAINER_OF(t, struct watch, timer);
	char		*cause = NULL;

	if (w->qmp != NULL && !qmp_is_closed(w->qmp)) {
		if (w->inflight)
			return;
		if (qmp_send(w->qmp, "query-migrate", NULL, 5, on_migrate, w,
		    &cause) == 0) {
			w->inflight = 1;
			return;
		}
		log_warnx("query-migrate: %s", cause);
		free(cause);
	}
	if (w->qmp != NULL && w->status_file == NULL) {
		fprintf(stderr, "qmigrate watch: %s: %s\n", qmp_peer(w->qmp),
		    qmp_close_reason(w->qmp) ? qmp_close_reason(w->qmp) :
		    "connection lost");
		w->rc = QM_EXIT_CONTROL;
		ev_break(loop, EVBREAK_ALL);
		return;
	}
	watch_draw(w);
}

/* SIGINT or SIGTERM: stop watching (the migration is not touched). */
static void
on_signal(struct ev_loop *loop, ev_signal *s, int revents)
{
	ev_break(loop, EVBREAK_ALL);
}

static int
cmd_watch_exec(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "qmp", required_argument, NULL, 'q' },
		{ "status-file", required_argument, NULL, 's' },
		{ "interval", required_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 }
	};
	struct watch	 w;
	const char	*qmp_path = NULL;
	double		 interval = 1;
	char		*cause = NULL;
	int		 ch;

	memset(&w, 0, sizeof w);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (ch) {
		case 'q':
			qmp_path = optarg;
			break;
		case 's':
			w.status_file = optarg;
			break;
		case 'i':
			if (parse_seconds(optarg, &interval) != 0 ||
			    interval < 0.1)
				return cmd_usage_error(&cmd_watch_entry,
				    "--interval: expected seconds (0.1 or "
				    "more), got \"%s\"", optarg);
			break;
		default:
			return cmd_usage_error(&cmd_watch_entry,
			    "unknown option %s", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cmd_usage_error(&cmd_watch_entry,
		    "unexpected argument \"%s\"", argv[optind]);
	if (qmp_path == NULL && w.status_file == NULL)
		return cmd_usage_error(&cmd_watch_entry,
		    "give --qmp PATH, --status-file F or both");

	w.loop = ev_loop_new(EVFLAG_AUTO);
	w.tty = isatty(STDOUT_FILENO);
	w.t0 = ev_time();
	w.rc = 130;	/* interrupted unless the migration ends first */
	if (qmp_path != NULL && (w.qmp = qmp_connect(w.loop, qmp_path,
	    QMP_PROTO_MONITOR, 5, &cause)) == NULL) {
		fprintf(stderr, "qmigrate watch: %s\n", cause);
		free(cause);
		ev_loop_destroy(w.loop);
		return QM_EXIT_CONTROL;
	}
	ev_timer_init(&w.timer, on_timer, 0, interval);
	ev_timer_start(w.loop, &w.timer);
	ev_signal_init(&w.sigint, on_signal, SIGINT);
	ev_signal_start(w.loop, &w.sigint);
	ev_signal_init(&w.sigterm, on_signal, SIGTERM);
	ev_signal_start(w.loop, &w.sigterm);
	ev_run(w.loop, 0);
	ev_timer_stop(w.loop, &w.timer);
	ev_signal_stop(w.loop, &w.sigint);
	ev_signal_stop(w.loop, &w.sigterm);
	qmp_close(w.qmp);
	json_object_put(w.migrate);
	ev_loop_destroy(w.loop);
	return w.rc;
}

const struct cmd_entry cmd_watch_entry = {
	"watch",
	"[--qmp PATH] [--status-file F] [--interval S]",
	"Shows a migration in progress: phase, mode, a progress bar,\n"
	"remaining data, bandwidth, dirty rate, expected downtime, throttle\n"
	"and the controller's decisions, every --interval seconds (default 1)\n"
	"from query-migrate on --qmp PATH (a monitor of its own: the one\n"
	"`qmigrate migrate` holds serves no second client) and the status\n"
	"document F of the qmigrate that drives the migration.  Redrawn in\n"
	"place in a terminal; one line per refresh (and per new decision)\n"
	"otherwise.  Ends when the migration completes or fails.\n"
	"\n"
	"Exit status: 0 completed, the status document's exitCode (else 4)\n"
	"when it failed, 3 QEMU's monitor lost (without --status-file),\n"
	"130 interrupted.\n",
	cmd_watch_exec,
};
