/*
 * output.c: what qmigrate writes on stdout (--events, the final document)
 * and stderr (the log), so that no reader can stop the loop.  A node
 * agent that stops reading a pipe would otherwise block the one loop in
 * write(2): signals, timers and the monitors all wait behind it (the
 * audit's N8).  Each stream is a bounded queue of whole lines, written
 * only as far as the file takes without blocking (world->write, lib/
 * world.c, the one write(2) of qmigrate's output); what does not fit is
 * dropped, whole lines only, counted, and said once the reader has caught
 * up ("N event lines lost: ...").  Where a loop is attached, the queue is
 * written when the fd is writable; at exit, out_drain() waits a bounded
 * time for a reader that still reads.
 *
 * On a terminal, stderr also carries one updating line (out_status(),
 * migrate's progress): written as "\r" TEXT "\033[K" into the same queue,
 * only while the queue is empty (a terminal that does not keep up skips
 * updates: the line never grows the queue nor waits), erased before each
 * log line and drawn again after it, so that log lines scroll above it.
 *
 * The proxy's worker threads log too: the queues are under one mutex.
 * Only the thread of the attached loop touches its watchers.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ev.h>

#include "qmigrate.h"
#include "world.h"

/* What each stream may hold unwritten beyond the pipe's own buffer: tens
 * of seconds of progress events (a few KiB each, two a second), hundreds
 * of log lines. */
#define OUT_STDOUT_MAX		(128 * 1024)
#define OUT_STDERR_MAX		(64 * 1024)
/* At exit: give up once the reader took nothing for this long, or after
 * the total, whichever comes first. */
#define OUT_DRAIN_IDLE_S	2.0
#define OUT_DRAIN_TOTAL_S	10.0

struct out_stream_state {
	int		 fd;
	const char	*name;		/* "stdout", "stderr" */
	size_t		 max;
	char		*buf;
	size_t		 off, len;	/* unwritten: buf[off .. off+len) */
	int		 dropping;	/* lines dropped since the queue was
					   last empty */
	int		 broken;	/* EPIPE, EIO: nothing more is written */
	unsigned long	 lost;		/* lines dropped in all */
	unsigned long	 unsaid;	/* dropped, not yet said */
	out_notice_fn	 notice;
	ev_io		 io;
	int		 io_ready;	/* io initialised for the loop */
};

/* The terminal's updating line: what erases it (carriage return, erase
 * to the end of the line), and the longest one kept. */
#define OUT_ERASE		"\r\033[K"
#define OUT_STATUS_MAX		256

static pthread_mutex_t		out_lock = PTHREAD_MUTEX_INITIALIZER;
/* The updating line on stderr: its text, and whether it is on the
 * terminal (queued or written) so that the next log line erases it. */
static char			out_status_text[OUT_STATUS_MAX];
static int			out_status_shown;
/* How a line of output.c's own goes on stderr (the log's format). */
static char			*(*out_log_format)(const char *msg);
static struct ev_loop		*out_loop;
/* Every loop attached and not yet detached, the newest last: nested in
 * one process (evict hands over to migrate), interleaved in the
 * simulator, which runs a source and a target in one process. */
#define OUT_MAX_LOOPS		8
static struct ev_loop		*out_loops[OUT_MAX_LOOPS];
static size_t			 out_nloops;
static ev_prepare		 out_prepare;
static struct out_stream_state	 out_streams[2] = {
	[OUT_STDOUT] = { .fd = STDOUT_FILENO, .name = "stdout",
	    .max = OUT_STDOUT_MAX },
	[OUT_STDERR] = { .fd = STDERR_FILENO, .name = "stderr",
	    .max = OUT_STDERR_MAX },
};

/* Appends n bytes of text as they are; the caller checked the room. */
static void
out_append_raw(struct out_stream_state *s, const char *text, size_t n)
{
	if (s->buf == NULL)
		s->buf = xmalloc(s->max);
	if (s->off > 0 && s->off + s->len + n > s->max) {
		memmove(s->buf, s->buf + s->off, s->len);
		s->off = 0;
	}
	memcpy(s->buf + s->off + s->len, text, n);
	s->len += n;
}

/* What a line of n bytes takes in s's queue: the newline, and on a
 * stderr with the updating line shown, its erasing and redrawing. */
static size_t
out_room(const struct out_stream_state *s, size_t n)
{
	if (s != &out_streams[OUT_STDERR] || !out_status_shown)
		return n + 1;
	return strlen(OUT_ERASE) + n + 1 + 1 + strlen(out_status_text) +
	    strlen(OUT_ERASE) - 1;
}

/*
 * Appends text and a newline; the caller checked the room (out_room()).
 * Over the updating line: erased first, drawn again after.
 */
static void
out_append(struct out_stream_state *s, const char *text, size_t n)
{
	int redraw = s == &out_streams[OUT_STDERR] && out_status_shown;

	if (redraw)
		out_append_raw(s, OUT_ERASE, strlen(OUT_ERASE));
	out_append_raw(s, text, n);
	out_append_raw(s, "\n", 1);
	if (redraw) {
		out_append_raw(s, "\r", 1);
		out_append_raw(s, out_status_text, strlen(out_status_text));
		out_append_raw(s, OUT_ERASE + 1, strlen(OUT_ERASE) - 1);
	}
}

/*
 * A line of output.c's own for stream s (caller frees): on stderr in the
 * log's format (out_set_log_format()), elsewhere as it is.
 */
static char *
out_own_line(const struct out_stream_state *s, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg, *line;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	if (s != &out_streams[OUT_STDERR] || out_log_format == NULL)
		return msg;
	line = out_log_format(msg);
	free(msg);
	return line;
}

/* Queues the notice of the lines dropped, now that the queue is empty. */
static void
out_say_lost(struct out_stream_state *s)
{
	char *text;

	if (s->unsaid == 0 || s->broken)
		return;
	if (s->notice != NULL)
		text = s->notice(s->unsaid, s->name);
	else
		text = out_own_line(s, "%lu %s lost: the reader of %s did not "
		    "read", s->unsaid, s == &out_streams[OUT_STDERR] ?
		    "log lines" : "lines", s->name);
	if (out_room(s, strlen(text)) <= s->max)
		out_append(s, text, strlen(text));
	free(text);
	s->unsaid = 0;
}

/* Empties the queue; each line in it, whole or begun, counts as lost. */
static void
out_discard(struct out_stream_state *s)
{
	size_t k;

	for (k = 0; k < s->len; k++)
		if (s->buf[s->off + k] == '\n')
			s->lost++;
	s->len = s->off = 0;
}

/*
 * Writes as much of the queue as the fd takes now.  Returns 0 once it is
 * empty, 1 while some waits, -1 when the stream broke.
 */
static int
out_flush(struct out_stream_state *s)
{
	ssize_t n;

	while (s->len > 0 && !s->broken) {
		/* The world's write never blocks (lib/world.c). */
		n = world->write(s->fd, s->buf + s->off, s->len);
		if (n > 0) {
			s->off += (size_t)n;
			s->len -= (size_t)n;
			if (s->len == 0) {
				s->off = 0;
				if (s->dropping) {
					s->dropping = 0;
					out_say_lost(s);
				}
			}
			continue;
		}
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 1;
		/* EPIPE, EIO (the terminal hung up), ENOSPC: no reader. */
		s->broken = 1;
		out_discard(s);
		if (s == &out_streams[OUT_STDERR])
			out_status_shown = 0;
	}
	return s->broken ? -1 : 0;
}

/*
 * Queues one line (text, without its newline) on the stream and writes
 * what the fd takes now.  A line that does not fit is dropped whole and
 * counted; so is every line after it until the queue has drained, where
 * the notice of how many goes.  Returns 0 when queued, -1 when dropped.
 */
int
out_line(enum out_stream which, const char *text)
{
	struct out_stream_state	*s = &out_streams[which];
	size_t			 n = strlen(text);
	int			 rc = 0;

	pthread_mutex_lock(&out_lock);
	if (s->broken) {
		s->lost++;
		rc = -1;
	} else if (s->dropping || s->len + out_room(s, n) > s->max) {
		s->dropping = 1;
		s->lost++;
		s->unsaid++;
		rc = -1;
	} else
		out_append(s, text, n);
	out_flush(s);
	pthread_mutex_unlock(&out_lock);
	return rc;
}

/* Erases the updating line, even behind a slow reader: the end must be
 * clean.  Under out_lock. */
static void
out_status_erase(struct out_stream_state *s)
{
	if (!out_status_shown)
		return;
	if (s->len + strlen(OUT_ERASE) <= s->max)
		out_append_raw(s, OUT_ERASE, strlen(OUT_ERASE));
	out_status_shown = 0;
	out_status_text[0] = '\0';
}

/*
 * The updating line on stderr, a terminal's (the caller knows it is one):
 * text (one line, no newline; cut to OUT_STATUS_MAX - 1 bytes) in place
 * of the one shown, or with NULL the line erased.  An update is skipped
 * while stderr's queue holds anything (a terminal that does not keep up
 * sees fewer updates; nothing waits, nothing grows).  Returns 0 when
 * queued, -1 when skipped.
 */
int
out_status(const char *text)
{
	struct out_stream_state	*s = &out_streams[OUT_STDERR];
	size_t			 n;
	int			 rc = 0;

	pthread_mutex_lock(&out_lock);
	if (s->broken || (text == NULL && !out_status_shown)) {
		pthread_mutex_unlock(&out_lock);
		return text == NULL ? 0 : -1;
	}
	if (text == NULL) {
		out_status_erase(s);
	} else if (s->len > 0 || s->dropping) {
		rc = -1;
	} else {
		n = strcspn(text, "\n");
		if (n > OUT_STATUS_MAX - 1)
			n = OUT_STATUS_MAX - 1;
		memcpy(out_status_text, text, n);
		out_status_text[n] = '\0';
		out_append_raw(s, "\r", 1);
		out_append_raw(s, out_status_text, n);
		out_append_raw(s, OUT_ERASE + 1, strlen(OUT_ERASE) - 1);
		out_status_shown = 1;
	}
	out_flush(s);
	pthread_mutex_unlock(&out_lock);
	return rc;
}

/* The lines the stream dropped since the start. */
unsigned long
out_lost(enum out_stream which)
{
	unsigned long n;

	pthread_mutex_lock(&out_lock);
	n = out_streams[which].lost;
	pthread_mutex_unlock(&out_lock);
	return n;
}

/* How output.c's own lines on stderr are formatted (log.c's). */
void
out_set_log_format(char *(*fmt)(const char *msg))
{
	pthread_mutex_lock(&out_lock);
	out_log_format = fmt;
	pthread_mutex_unlock(&out_lock);
}

/* How the stream says it lost lines (NULL: a plain sentence). */
void
out_set_notice(enum out_stream which, out_notice_fn fn)
{
	pthread_mutex_lock(&out_lock);
	out_streams[which].notice = fn;
	pthread_mutex_unlock(&out_lock);
}

static void
out_on_writable(struct ev_loop *loop, ev_io *io, int revents)
{
	struct out_stream_state *s = io->data;

	(void)loop;
	(void)revents;
	pthread_mutex_lock(&out_lock);
	out_flush(s);
	pthread_mutex_unlock(&out_lock);
}

/*
 * Before each wait of the loop: ask for write readiness only while a
 * stream has something queued (lines a worker thread queued included).
 * Neither watcher keeps the loop up: a command whose loop ends when its
 * work does must not wait on a reader (ev_unref).
 */
static void
out_on_prepare(struct ev_loop *loop, ev_prepare *p, int revents)
{
	size_t i;

	(void)p;
	(void)revents;
	pthread_mutex_lock(&out_lock);
	for (i = 0; i < NITEMS(out_streams); i++) {
		struct out_stream_state *s = &out_streams[i];
		int want = s->len > 0 && !s->broken;

		if (want && !ev_is_active(&s->io)) {
			ev_io_start(loop, &s->io);
			ev_unref(loop);
		} else if (!want && ev_is_active(&s->io)) {
			ev_ref(loop);
			ev_io_stop(loop, &s->io);
		}
	}
	pthread_mutex_unlock(&out_lock);
}

/* Stops the watchers on the loop attached; none is attached after. */
static void
out_unwatch(void)
{
	size_t i;

	if (out_loop == NULL)
		return;
	ev_ref(out_loop);
	ev_prepare_stop(out_loop, &out_prepare);
	for (i = 0; i < NITEMS(out_streams); i++) {
		struct out_stream_state *s = &out_streams[i];

		if (s->io_ready && ev_is_active(&s->io)) {
			ev_ref(out_loop);
			ev_io_stop(out_loop, &s->io);
		}
		s->io_ready = 0;
	}
	out_loop = NULL;
}

/* The queues' watchers on loop (none on the one attached before). */
static void
out_watch(struct ev_loop *loop)
{
	size_t i;

	out_unwatch();
	out_loop = loop;
	ev_prepare_init(&out_prepare, out_on_prepare);
	ev_prepare_start(loop, &out_prepare);
	ev_unref(loop);
	for (i = 0; i < NITEMS(out_streams); i++) {
		struct out_stream_state *s = &out_streams[i];

		ev_io_init(&s->io, out_on_writable, s->fd, EV_WRITE);
		s->io.data = s;
		s->io_ready = 1;
	}
}

/*
 * From now on the queues are written when their fds are writable on loop
 * (before it, lines go out as the next line or out_drain() finds the fd
 * writable).  Returns the loop attached before, for out_detach().  The
 * loop's thread only.
 */
struct ev_loop *
out_attach(struct ev_loop *loop)
{
	struct ev_loop *prev = out_loop;

	if (out_nloops < OUT_MAX_LOOPS)
		out_loops[out_nloops++] = loop;
	out_watch(loop);
	return prev;
}

/*
 * Detaches loop, before ev_loop_destroy: the newest loop still attached
 * takes the watchers over (prev, which out_attach() returned for loop,
 * where they nest; never a loop already detached, where they interleave).
 */
void
out_detach(struct ev_loop *loop, struct ev_loop *prev)
{
	size_t i;

	(void)prev;
	for (i = 0; i < out_nloops; i++)
		if (out_loops[i] == loop) {
			memmove(&out_loops[i], &out_loops[i + 1],
			    (out_nloops - i - 1) * sizeof out_loops[0]);
			out_nloops--;
			break;
		}
	if (out_loop != loop)
		return;
	out_unwatch();
	if (out_nloops > 0)
		out_watch(out_loops[out_nloops - 1]);
}

/*
 * Writes what is queued, waiting for each fd to become writable, but
 * never longer than OUT_DRAIN_IDLE_S without progress nor
 * OUT_DRAIN_TOTAL_S in all: a reader that stopped for good loses the
 * rest (counted, and said on stderr if it takes a line), and qmigrate
 * ends within its bounds.
 */
void
out_drain(void)
{
	double		start = now_monotonic(), progress = start, t;
	unsigned long	lost_before, unwritten;
	size_t		i;

	pthread_mutex_lock(&out_lock);
	if (!out_streams[OUT_STDERR].broken)
		out_status_erase(&out_streams[OUT_STDERR]);
	for (;;) {
		struct pollfd	pfd[2];
		nfds_t		n = 0;
		size_t		before;

		for (i = 0; i < NITEMS(out_streams); i++) {
			struct out_stream_state *s = &out_streams[i];

			before = s->len;
			if (out_flush(s) == 1) {
				pfd[n].fd = s->fd;
				pfd[n].events = POLLOUT;
				n++;
			}
			if (s->len != before)
				progress = now_monotonic();
		}
		t = now_monotonic();
		if (n == 0 || t - progress >= OUT_DRAIN_IDLE_S ||
		    t - start >= OUT_DRAIN_TOTAL_S)
			break;
		pthread_mutex_unlock(&out_lock);
		poll(pfd, n, 100);
		pthread_mutex_lock(&out_lock);
	}
	lost_before = out_streams[OUT_STDOUT].lost;
	for (i = 0; i < NITEMS(out_streams); i++)
		out_discard(&out_streams[i]);
	unwritten = out_streams[OUT_STDOUT].lost - lost_before;
	/* Said on stderr if it takes the line now (never waited for). */
	if (unwritten > 0) {
		struct out_stream_state	*err = &out_streams[OUT_STDERR];
		char			*text = out_own_line(err, "%lu lines of "
		    "stdout never written: its reader did not read",
		    unwritten);

		if (!err->broken && err->len + out_room(err, strlen(text)) <=
		    err->max) {
			out_append(err, text, strlen(text));
			out_flush(err);
		}
		free(text);
	}
	pthread_mutex_unlock(&out_lock);
}

/* For tests: the streams as at start, on the fds given. */
void
out_reset(int stdout_fd, int stderr_fd)
{
	size_t i;

	pthread_mutex_lock(&out_lock);
	for (i = 0; i < NITEMS(out_streams); i++) {
		struct out_stream_state *s = &out_streams[i];

		free(s->buf);
		s->buf = NULL;
		s->off = s->len = 0;
		s->dropping = s->broken = 0;
		s->lost = s->unsaid = 0;
		s->notice = NULL;
		s->io_ready = 0;
	}
	out_status_shown = 0;
	out_status_text[0] = '\0';
	out_streams[OUT_STDOUT].fd = stdout_fd;
	out_streams[OUT_STDERR].fd = stderr_fd;
	pthread_mutex_unlock(&out_lock);
}
