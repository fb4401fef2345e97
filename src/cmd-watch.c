/*
 * cmd-watch.c: qmigrate watch: a live, human view of a migration: phase,
 * mode, a progress bar, bandwidth, dirty rate, expected downtime and the
 * controller's decisions, from query-migrate (--qmp, read through
 * mig-info.c) and the status document of the qmigrate that drives it
 * (--status-file).  The rates shown are the controller's (the status
 * document's), the ones its decisions come from; QEMU's instantaneous
 * mbps only when there is no document.
 *
 * In a terminal the view is redrawn in place: every line is cut to the
 * terminal's width, so each takes exactly one screen row and moving the
 * cursor up by the lines drawn lands on the first; a resize (SIGWINCH)
 * clears the screen and redraws at the new width, since a terminal may
 * rewrap what was on it.  Otherwise one line per refresh (and one per new
 * decision), so it can be logged: key=value fields, each with its unit
 * (MiB, MiB/s, %, ms, s).
 *
 * A status file that cannot be read ends the watch with one line naming
 * it (exit 1, as `status` does): at once when it exists but is no status
 * document, after STATUS_WAIT_S when it does not exist (the qmigrate that
 * writes it may be starting).
 */
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "mig-info.h"
#include "qmp.h"

extern const struct cmd_entry cmd_watch_entry;

#define MIB (1024.0 * 1024.0)
#define BAR_WIDTH 40
#define WATCH_MAX_LINES 16	/* header, bar, 2 figures, failure, 5 decisions */
#define WATCH_LINE 1024
#define STATUS_WAIT_S 10.0

struct watch {
	struct ev_loop	*loop;
	struct qmp_conn	*qmp;
	const char	*status_file;
	int		 tty;
	int		 columns;	/* the terminal's width (tty) */
	int		 resized;	/* clear before the next draw */
	int		 lines;		/* drawn last time (tty) */
	size_t		 decisions_seen;
	int		 inflight;
	int		 done;
	int		 rc;
	double		 t0;
	int		 have_info;
	struct mig_info	 info;		/* the last query-migrate */
	double		 missing_since;	/* the status file absent (0: not) */
	ev_timer	 timer;
	ev_signal	 sigint;
	ev_signal	 sigterm;
	ev_signal	 sigwinch;
};

/* What one refresh shows. */
struct view {
	const char	*phase;
	const char	*mode;
	const char	*qstatus;
	const char	*rate_source;	/* "controller" or "QEMU now" */
	double		 total, remaining, transferred;
	double		 bandwidth, dirty, downtime_ms, iteration, throttle;
	double		 dirty_limit_us;	/* per round; -1: no limit held */
	double		 pct;
};

static int
terminal_columns(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

/*
 * Writes s as one screen row: at most columns - 1 characters (the last
 * column would leave some terminals waiting to wrap), cut at a character,
 * control characters shown as '?', then clears the rest of the row and
 * ends it.
 */
static void
put_row(const char *s, int columns)
{
	const unsigned char	*p = (const unsigned char *)s;
	int			 width = 0;

	for (; *p != '\0'; p++) {
		/* A UTF-8 continuation byte adds no column. */
		if ((*p & 0xc0) == 0x80) {
			if (width > 0)
				putchar(*p);
			continue;
		}
		if (width == columns - 1)
			break;
		putchar(*p < 0x20 || *p == 0x7f ? '?' : *p);
		width++;
	}
	fputs("\033[K\n", stdout);
}

/* The figures: live ones from QEMU, the rates from the controller. */
static void
watch_view(struct watch *w, json_object *st, struct view *v)
{
	json_object		*prog = json_obj_at(st, "progress");
	const struct mig_info	*mi = w->have_info ? &w->info : NULL;

	memset(v, 0, sizeof *v);
	v->dirty_limit_us = -1;
	v->qstatus = mi != NULL ? mi->status_name :
	    json_str_at(prog, "qemuStatus");
	if (v->qstatus == NULL)
		v->qstatus = "unknown";
	v->phase = json_str_at(st, "phase");
	if (v->phase == NULL)
		v->phase = mi == NULL ? "Pending" :
		    mi->status == QMS_COMPLETED ? "Succeeded" :
		    mi->status == QMS_FAILED || mi->status == QMS_CANCELLED ?
		    "Failed" : mi->status == QMS_NONE ? "Pending" : "Running";
	v->mode = json_str_at(st, "mode");
	if (v->mode == NULL)
		v->mode = mi != NULL && qemu_mig_status_postcopy(mi->status) ?
		    "PostCopy" : "PreCopy";
	if (mi != NULL && mi->has_ram) {
		v->total = (double)mi->ram_total;
		v->remaining = (double)mi->ram_remaining;
		v->transferred = (double)mi->ram_transferred;
		v->iteration = (double)mi->dirty_sync_count;
	} else {
		v->total = json_double_at(prog, "dataTotal");
		v->remaining = json_double_at(prog, "dataRemaining");
		v->transferred = json_double_at(prog, "dataProcessed");
		v->iteration = json_double_at(prog, "iteration");
	}
	if (prog != NULL) {
		v->rate_source = "controller";
		v->bandwidth = json_double_at(prog, "bandwidth");
		v->dirty = json_double_at(prog, "dirtyRate");
		v->downtime_ms = json_double_at(prog, "expectedDowntimeMs");
		v->throttle = json_double_at(prog, "throttlePercentage");
		v->dirty_limit_us = json_obj_at(prog,
		    "dirtyLimitThrottleUsPerRound") != NULL ?
		    json_double_at(prog, "dirtyLimitThrottleUsPerRound") : -1;
	} else if (mi != NULL) {
		v->rate_source = "QEMU now";
		v->bandwidth = mig_info_bandwidth(mi);
		v->dirty = mig_info_dirty_rate(mi);
		v->downtime_ms = (double)mi->expected_downtime_ms;
		v->throttle = mi->throttle_pct;
		v->dirty_limit_us = mi->has_dirty_limit ?
		    (double)mi->dirty_limit_throttle_us : -1;
	} else
		v->rate_source = "none yet";
	if ((mi != NULL && mi->status == QMS_COMPLETED) ||
	    strcmp(v->phase, "Succeeded") == 0)
		v->pct = 100;
	else
		v->pct = v->total > 0 ? 100.0 * (v->total - v->remaining) /
		    v->total : 0;
	if (v->pct < 0)
		v->pct = 0;
}

/* The terminal view: every line one row, redrawn over the last one. */
static void
watch_draw_tty(struct watch *w, json_object *st, const struct view *v)
{
	json_object	*decisions = json_obj_at(st, "decisions"), *d;
	char		 rows[WATCH_MAX_LINES][WATCH_LINE], bar[BAR_WIDTH + 1];
	char		 throttle[64];
	const char	*s;
	size_t		 i, n;
	int		 filled, k = 0;

	filled = (int)(v->pct * BAR_WIDTH / 100);
	memset(bar, '#', (size_t)filled);
	memset(bar + filled, '.', (size_t)(BAR_WIDTH - filled));
	bar[BAR_WIDTH] = '\0';
	snprintf(rows[k++], WATCH_LINE, "migration  %s, %s (QEMU: %s)  %.0f s",
	    v->phase, v->mode, v->qstatus, ev_now(w->loop) - w->t0);
	snprintf(rows[k++], WATCH_LINE, "[%s] %5.1f%%", bar, v->pct);
	snprintf(rows[k++], WATCH_LINE, "remaining  %.1f MiB of %.1f MiB "
	    "(sent %.1f MiB), pass %.0f", v->remaining / MIB, v->total / MIB,
	    v->transferred / MIB, v->iteration);
	if (v->dirty_limit_us >= 0)	/* dirty-limit: no percentage */
		snprintf(throttle, sizeof throttle, "dirty-limit holds the "
		    "vCPUs %.1f s a round", v->dirty_limit_us / 1e6);
	else
		snprintf(throttle, sizeof throttle, "throttle %.0f%%",
		    v->throttle);
	snprintf(rows[k++], WATCH_LINE, "bandwidth  %.1f MiB/s (%s)   dirty "
	    "rate %.1f MiB/s   expected downtime %.0f ms   %s",
	    v->bandwidth / MIB, v->rate_source, v->dirty / MIB,
	    v->downtime_ms, throttle);
	if ((s = json_str_at(st, "failureReason")) != NULL)
		snprintf(rows[k++], WATCH_LINE, "failure    %s", s);
	n = decisions != NULL && json_object_is_type(decisions,
	    json_type_array) ? json_object_array_length(decisions) : 0;
	for (i = n > 5 ? n - 5 : 0; i < n; i++) {
		d = json_object_array_get_idx(decisions, i);
		snprintf(rows[k++], WATCH_LINE, "decision   %s: %s",
		    json_str_at(d, "action") ? json_str_at(d, "action") : "?",
		    json_str_at(d, "reason") ? json_str_at(d, "reason") : "");
	}

	if (w->resized) {
		/* The terminal may have rewrapped the old rows: start over. */
		w->columns = terminal_columns();
		printf("\033[H\033[2J");
		w->resized = 0;
	} else if (w->lines > 0)
		printf("\033[%dA", w->lines);
	/*
	 * Each row overwrites the old one and clears the rest of it; only
	 * rows the new view no longer has are cleared below it.  (Clearing
	 * the whole view from its first column would make terminals such as
	 * tmux push every frame into their history.)
	 */
	for (i = 0; i < (size_t)k; i++)
		put_row(rows[i], w->columns);
	if (k < w->lines)
		printf("\033[J");
	w->lines = k;
	w->decisions_seen = n;
}

static void
watch_draw_lines(struct watch *w, json_object *st, const struct view *v)
{
	json_object	*decisions = json_obj_at(st, "decisions"), *d;
	size_t		 i, n;

	n = decisions != NULL && json_object_is_type(decisions,
	    json_type_array) ? json_object_array_length(decisions) : 0;
	for (i = w->decisions_seen; i < n; i++) {
		d = json_object_array_get_idx(decisions, i);
		printf("decision: %s: %s\n", json_str_at(d, "action") ?
		    json_str_at(d, "action") : "?", json_str_at(d, "reason") ?
		    json_str_at(d, "reason") : "");
	}
	printf("phase=%s mode=%s qemu=%s progress=%.1f%% "
	    "remaining=%.1fMiB total=%.1fMiB bandwidth=%.1fMiB/s "
	    "dirty_rate=%.1fMiB/s rates_from=%s expected_downtime=%.0fms "
	    "pass=%.0f throttle=%.0f%%", v->phase, v->mode, v->qstatus,
	    v->pct, v->remaining / MIB, v->total / MIB, v->bandwidth / MIB,
	    v->dirty / MIB,
	    strcmp(v->rate_source, "controller") == 0 ? "controller" :
	    strcmp(v->rate_source, "QEMU now") == 0 ? "qemu" : "none",
	    v->downtime_ms, v->iteration, v->throttle);
	if (v->dirty_limit_us >= 0)
		printf(" dirty_limit=%.1fs", v->dirty_limit_us / 1e6);
	printf(" elapsed=%.0fs\n", ev_now(w->loop) - w->t0);
	w->decisions_seen = n;
}

/*
 * The status file could not be read (cause, freed here): returns 1 to
 * draw QEMU's view without it while it may still appear, 0 to draw
 * nothing (waiting for it, or the watch ended on it).
 */
static int
watch_status_missing(struct watch *w, char *cause)
{
	struct stat	sb;
	double		now = ev_now(w->loop);

	if (stat(w->status_file, &sb) == -1 && errno == ENOENT) {
		if (w->missing_since == 0)
			w->missing_since = now;
		if (now - w->missing_since < STATUS_WAIT_S) {
			log_debug("%s", cause);
			free(cause);
			return w->qmp != NULL;
		}
		log_error("%s: not there for %.0f s (is a qmigrate writing "
		    "it?)", cause, now - w->missing_since);
	} else
		log_error("%s", cause);
	free(cause);
	w->done = 1;
	w->rc = QM_EXIT_USAGE;
	ev_break(w->loop, EVBREAK_ALL);
	return 0;
}

/* Draws one refresh; decides whether the migration is over. */
static void
watch_draw(struct watch *w)
{
	json_object	*st = NULL;
	struct view	 v;
	char		*cause = NULL;

	if (w->status_file != NULL &&
	    (st = status_read_file(w->status_file, &cause)) == NULL) {
		if (!watch_status_missing(w, cause))
			return;
	}
	if (st != NULL)
		w->missing_since = 0;
	watch_view(w, st, &v);
	if (w->tty)
		watch_draw_tty(w, st, &v);
	else
		watch_draw_lines(w, st, &v);
	fflush(stdout);

	/*
	 * With a status document, its phase ends the watch (the source may
	 * still confirm with the target after QEMU completed); without one,
	 * QEMU's status does.
	 */
	if (strcmp(v.phase, "Succeeded") == 0 || (st == NULL &&
	    w->have_info && w->info.status == QMS_COMPLETED)) {
		w->done = 1;
		w->rc = QM_EXIT_OK;
	} else if (strcmp(v.phase, "Failed") == 0 ||
	    strcmp(v.phase, "HandedOver") == 0 || (st == NULL &&
	    w->have_info && (w->info.status == QMS_FAILED ||
	    w->info.status == QMS_CANCELLED))) {
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
	w->have_info = mig_info_decode(reply, &w->info) == 0;
	watch_draw(w);
}

static void
on_timer(struct ev_loop *loop, ev_timer *t, int revents)
{
	struct watch	*w = container_of(t, struct watch, timer);
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
		log_error("%s: %s", qmp_peer(w->qmp),
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

/* The terminal changed size: the next draw starts over at its width. */
static void
on_winch(struct ev_loop *loop, ev_signal *s, int revents)
{
	struct watch *w = container_of(s, struct watch, sigwinch);

	w->resized = 1;
	if (w->lines > 0 && !w->inflight)
		watch_draw(w);
}

static int
cmd_watch_exec(struct args *args)
{
	struct watch	 w;
	const char	*qmp_path = args_get(args, "qmp");
	double		 interval = args_number(args, "interval", 1);
	char		*cause = NULL;

	memset(&w, 0, sizeof w);
	w.status_file = args_get(args, "status-file");
	if (qmp_path == NULL && w.status_file == NULL)
		return cmd_usage_error(&cmd_watch_entry,
		    "give --qmp PATH, --status-file F or both");

	w.loop = ev_loop_new(EVFLAG_AUTO);
	w.tty = isatty(STDOUT_FILENO);
	w.columns = w.tty ? terminal_columns() : 0;
	w.t0 = ev_time();
	w.rc = 130;	/* interrupted unless the migration ends first */
	if (qmp_path != NULL && (w.qmp = qmp_connect(w.loop, qmp_path,
	    QMP_PROTO_MONITOR, 5, &cause)) == NULL) {
		log_error("%s", cause);
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
	ev_signal_init(&w.sigwinch, on_winch, SIGWINCH);
	if (w.tty)
		ev_signal_start(w.loop, &w.sigwinch);
	ev_run(w.loop, 0);
	ev_timer_stop(w.loop, &w.timer);
	ev_signal_stop(w.loop, &w.sigint);
	ev_signal_stop(w.loop, &w.sigterm);
	ev_signal_stop(w.loop, &w.sigwinch);
	qmp_close(w.qmp);
	ev_loop_destroy(w.loop);
	return w.rc;
}

static const struct args_option watch_options[] = {
	{ .name = "qmp", .type = ARGS_STRING, .value = "PATH",
	    .help =
	    "a QEMU monitor of its own (the one qmigrate migrate holds\n"
	    "serves no second client)" },
	{ .name = "status-file", .type = ARGS_STRING, .value = "F",
	    .help = "the status document of the qmigrate that drives it" },
	{ .name = "interval", .type = ARGS_SECONDS, .value = "S", .min = 0.1,
	    .help = "refresh every S seconds (1)" },
	{ .name = NULL }
};

const struct cmd_entry cmd_watch_entry = {
	.name = "watch",
	.args = { .options = watch_options },
	.help =
	"Shows a migration in progress: phase, mode, a progress bar,\n"
	"remaining data, bandwidth, dirty rate, expected downtime, throttle\n"
	"and the controller's decisions, every --interval seconds from\n"
	"query-migrate on --qmp PATH and the status document F of the qmigrate\n"
	"that drives the migration.  The rates are the controller's (the\n"
	"document's), QEMU's instantaneous ones only without F.  Redrawn in\n"
	"place in a terminal (each line cut to its width, redrawn whole when\n"
	"it is resized); one line per refresh (and per new decision)\n"
	"otherwise.  Ends when the migration completes or fails.\n",
	.exits =
	"Exit status: 0 completed, the status document's exitCode (else 4)\n"
	"when it failed or was handed over, 3 QEMU's monitor lost (without\n"
	"--status-file), 130 interrupted.\n",
	.exec = cmd_watch_exec,
};
