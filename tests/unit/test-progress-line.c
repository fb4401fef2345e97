/*
 * test-progress-line.c: migrate's one updating line on a terminal: the
 * figures as a person reads them (progress-line.c), and the bytes
 * output.c writes for it: drawn in place with a carriage return, erased
 * before a log line and drawn again after it, erased at the end, and
 * skipped, never queued, while stderr's reader is behind.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "qmigrate.h"
#include "pipe-reader.h"

static char *
format(const char *qemu, uint64_t total, uint64_t remaining, double bw,
    double dirty, size_t width)
{
	struct progress_figures f = {
		.phase = "Running", .qemu_status = qemu, .elapsed = 12,
		.total = total, .remaining = remaining, .bandwidth = bw,
		.dirty_rate = dirty,
	};

	return progress_line_format("qmigrate migrate", &f, width);
}

static void
test_format(void **state)
{
	char *s;

	(void)state;
	s = format("active", 1024ULL << 20, 583ULL << 20, 12.3e6, 3.1e6, 200);
	/* 583 MiB at 12.3 - 3.1 MB/s: 66 s. */
	assert_string_equal(s, "qmigrate migrate: Running 43.1% 583 MiB left "
	    "12.3 MB/s dirty 3.1 MB/s ETA 1m06s");
	free(s);
	/* Dirtied as fast as sent: no ETA; QEMU's status when not active. */
	s = format("postcopy-active", 100ULL << 20, 5ULL << 19, 1e6, 2e6, 200);
	assert_string_equal(s, "qmigrate migrate: Running postcopy-active "
	    "97.5% 2.5 MiB left 1.0 MB/s dirty 2.0 MB/s ETA --");
	free(s);
	/* Before QEMU's first figures. */
	s = format("", 0, 0, 0, 0, 200);
	assert_string_equal(s, "qmigrate migrate: Running 12s");
	free(s);
	/* Cut to the terminal's width. */
	s = format("active", 1024ULL << 20, 583ULL << 20, 12.3e6, 3.1e6, 30);
	assert_string_equal(s, "qmigrate migrate: Running 43.1");
	free(s);
	s = format("active", 1ULL << 40, 1ULL << 39, 1e6, 0, 200);
	assert_non_null(strstr(s, " ETA >99h"));	/* 152 h */
	free(s);
}

/* The bytes on stderr: drawn, erased and drawn again around a log line,
 * replaced, erased at the end and at the exit. */
static void
test_bytes(void **state)
{
	struct pipe_reader r;
	int		fds[2], null = open("/dev/null", O_WRONLY);

	(void)state;
	assert_true(null >= 0);
	assert_int_equal(pipe(fds), 0);
	out_reset(null, fds[1]);
	log_init("qmigrate", LOG_LEVEL_INFO, 0);
	log_set_command("migrate");
	pipe_reader_start(&r, fds[0]);
	assert_int_equal(out_status(NULL), 0);		/* nothing to erase */
	assert_int_equal(out_status("one"), 0);
	log_info("a log line");
	assert_int_equal(out_status("two\nnot this"), 0);
	assert_int_equal(out_status(NULL), 0);
	log_info("after");
	/* At the exit (atexit), a line still shown is erased. */
	assert_int_equal(out_status("three"), 0);
	out_drain();
	close(fds[1]);
	pipe_reader_join(&r);
	close(fds[0]);
	close(null);
	assert_string_equal(r.text,
	    "\rone\033[K"
	    "\r\033[Kqmigrate migrate: a log line\n\rone\033[K"
	    "\rtwo\033[K"
	    "\r\033[K"
	    "qmigrate migrate: after\n"
	    "\rthree\033[K\r\033[K");
	free(r.text);
}

/* A reader that is behind: updates are skipped (-1), nothing blocks, no
 * line is lost for them; the erase at the end still goes in. */
static void
test_behind(void **state)
{
	int		fds[2], null = open("/dev/null", O_WRONLY), i;
	char		line[1000];
	unsigned long	lost;

	(void)state;
	assert_true(null >= 0);
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(fcntl(fds[1], F_SETPIPE_SZ, 4096) > 0, 1);
	out_reset(null, fds[1]);
	log_init("qmigrate", LOG_LEVEL_INFO, 0);
	alarm(20);	/* a write that blocks fails the test */
	assert_int_equal(out_status("first"), 0);
	memset(line, 'x', sizeof line - 1);
	line[sizeof line - 1] = '\0';
	for (i = 0; i < 10; i++)
		out_line(OUT_STDERR, line);	/* past the 4 KiB pipe */
	lost = out_lost(OUT_STDERR);
	for (i = 0; i < 1000; i++)
		assert_int_equal(out_status("later"), -1);
	assert_int_equal(out_lost(OUT_STDERR), lost);
	assert_int_equal(out_status(NULL), 0);
	alarm(0);
	out_reset(null, null);
	close(fds[0]);
	close(fds[1]);
	close(null);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_behind),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
