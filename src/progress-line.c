/*
 * progress-line.c: migrate's progress for a person at a terminal: one
 * line on stderr, drawn again in place as the status changes ("qmigrate
 * migrate: Running 43.0% 583 MiB left 12.3 MB/s dirty 3.1 MB/s ETA 47s"),
 * so that no second monitor (`watch`) is needed.  Only where stderr is a
 * terminal and the log is plain text at the info level: a pipe, a file,
 * --log-json and -q get what they always got.  The line goes through
 * output.c's stderr queue (out_status()), which skips an update rather
 * than wait for a terminal that does not keep up, and erases the line
 * before each log line and at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "qmigrate.h"

/* Redrawn at most this often, save when the phase changes. */
#define PROGRESS_LINE_INTERVAL_S	0.25
/* Where the terminal does not say its width. */
#define PROGRESS_LINE_WIDTH		80

static int		 progress_enabled;
static double		 progress_last = -1;
static const char	*progress_last_phase;

/*
 * Turns the line on when stderr is a terminal (not TERM=dumb, which
 * cannot go back to the line's start) and the log is plain text at the
 * info level; not when stdout_lines (--events) go to a terminal too: each
 * event line would be written into the progress line.
 */
void
progress_line_enable(int stdout_lines)
{
	const char *term = getenv("TERM");

	progress_enabled = isatty(STDERR_FILENO) && !log_is_json() &&
	    log_shows(LOG_LEVEL_INFO) &&
	    !(term != NULL && strcmp(term, "dumb") == 0) &&
	    !(stdout_lines && isatty(STDOUT_FILENO));
}

/* "ETA 47s", "ETA 3m05s", "ETA 2h10m" into buf; "ETA --" where the
 * remaining bytes do not shrink (nothing sent, or dirtied as fast). */
static void
format_eta(char *buf, size_t len, const struct progress_figures *f)
{
	double s;

	if (f->bandwidth <= 0 || f->dirty_rate >= f->bandwidth) {
		snprintf(buf, len, "ETA --");
		return;
	}
	s = (double)f->remaining / (f->bandwidth - f->dirty_rate);
	if (s < 60)
		snprintf(buf, len, "ETA %.0fs", s);
	else if (s < 3600)
		snprintf(buf, len, "ETA %dm%02ds", (int)(s / 60),
		    (int)s % 60);
	else if (s < 100 * 3600)
		snprintf(buf, len, "ETA %dh%02dm", (int)(s / 3600),
		    (int)(s / 60) % 60);
	else
		snprintf(buf, len, "ETA >99h");
}

/*
 * The line for f after prefix ("qmigrate migrate"), at most width bytes
 * (cut; every byte is ASCII, one column), caller frees: the phase, QEMU's
 * status where it is not plain "active", the share of RAM sent, MiB left,
 * the bandwidth and the dirty rate in MB/s, and the time the rest takes
 * at bandwidth less dirty rate.  Before the first figures, the phase and
 * the seconds so far.
 */
char *
progress_line_format(const char *prefix, const struct progress_figures *f,
    size_t width)
{
	char	*line, eta[32], qemu[48] = "";
	double	 mib = (double)f->remaining / 1048576.0;

	if (f->qemu_status[0] != '\0' && strcmp(f->qemu_status, "active") != 0)
		snprintf(qemu, sizeof qemu, " %s", f->qemu_status);
	if (f->total == 0)
		xasprintf(&line, "%s: %s%s %.0fs", prefix, f->phase, qemu,
		    f->elapsed);
	else {
		format_eta(eta, sizeof eta, f);
		xasprintf(&line, "%s: %s%s %.1f%% %.*f MiB left %.1f MB/s "
		    "dirty %.1f MB/s %s", prefix, f->phase, qemu,
		    100.0 * (double)(f->total - f->remaining) /
		    (double)f->total, mib < 10 ? 1 : 0, mib,
		    f->bandwidth / 1e6, f->dirty_rate / 1e6, eta);
	}
	if (strlen(line) > width)
		line[width] = '\0';
	return line;
}

/* The terminal's columns less one (a full line would wrap the cursor). */
static size_t
terminal_width(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20)
		return (size_t)ws.ws_col - 1;
	return PROGRESS_LINE_WIDTH - 1;
}

/*
 * Draws st's progress in place of the line shown, when on, at most every
 * PROGRESS_LINE_INTERVAL_S unless the phase changed.  Never waits: an
 * update the terminal has no room for is skipped (out_status()).
 */
void
progress_line_update(const struct status *st)
{
	struct progress_figures	 f;
	double			 t;
	char			*line;

	if (!progress_enabled)
		return;
	status_figures(st, &f);
	t = now_monotonic();
	if (progress_last >= 0 && f.phase == progress_last_phase &&
	    t - progress_last < PROGRESS_LINE_INTERVAL_S)
		return;
	line = progress_line_format(log_get_prefix(), &f, terminal_width());
	if (out_status(line) == 0) {
		progress_last = t;
		progress_last_phase = f.phase;
	}
	free(line);
}
