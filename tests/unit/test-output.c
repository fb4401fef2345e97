/*
 * test-output.c: what qmigrate writes on stdout and stderr never blocks
 * (output.c): a reader that stops reading loses whole lines, counted and
 * said once it reads again, the rest in order; a reader that is gone
 * costs nothing; a file gets everything.  And every log line carries the
 * command's one prefix, or is one JSON object (log.c).
 */
#include <errno.h>
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
#include <json-c/json.h>

#include "qmigrate.h"
#include "pipe-reader.h"

static int
devnull(void)
{
	int fd = open("/dev/null", O_WRONLY);

	assert_true(fd >= 0);
	return fd;
}

/*
 * Lines into a pipe nobody reads: none blocks (alarm), those past the
 * pipe and the queue are dropped and counted; once a reader reads, it
 * gets every line queued, in order, then the notice, then what followed.
 */
static void
test_stalled_reader(void **state)
{
	struct pipe_reader r;
	char		line[1100], *p, *next;
	int		fds[2], null = devnull(), i, last = -1, notices = 0;
	unsigned long	lost, said = 0;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	out_reset(fds[1], null);
	alarm(20);	/* a write that blocks fails the test */
	for (i = 0; i < 1000; i++) {
		snprintf(line, sizeof line, "line %d %01000d", i, 0);
		out_line(OUT_STDOUT, line);
	}
	alarm(0);
	lost = out_lost(OUT_STDOUT);
	/* 64 KiB of pipe and 128 KiB of queue hold about 190 of 1000. */
	assert_true(lost > 700 && lost < 900);

	pipe_reader_start(&r, fds[0]);
	out_drain();
	out_line(OUT_STDOUT, "after");
	out_drain();
	close(fds[1]);
	pipe_reader_join(&r);
	close(fds[0]);
	close(null);

	assert_non_null(r.text);
	for (p = r.text; *p != '\0'; p = next + 1) {
		next = strchr(p, '\n');
		assert_non_null(next);
		*next = '\0';
		if (strncmp(p, "line ", 5) == 0) {
			int k = atoi(p + 5);

			assert_int_equal(strlen(p), strlen("line ") +
			    (size_t)snprintf(NULL, 0, "%d", k) + 1 + 1000);
			/* In order; the one gap is where the notice is. */
			assert_true(k == last + 1 || (notices == 1 &&
			    (unsigned long)(k - last - 1) == said));
			last = k;
		} else if (strcmp(p, "after") == 0) {
			assert_int_equal(notices, 1);
		} else {
			char want[128];

			said = strtoul(p, NULL, 10);
			snprintf(want, sizeof want, "%lu lines lost: the "
			    "reader of stdout did not read", said);
			assert_string_equal(p, want);
			notices++;
		}
	}
	assert_int_equal(notices, 1);
	assert_int_equal(said, lost);
	/* Nothing more went missing (the last lines sent were dropped). */
	assert_int_equal(out_lost(OUT_STDOUT), lost);
	free(r.text);
}

/* A reader that is gone: every line counted lost, no signal, no block. */
static void
test_reader_gone(void **state)
{
	int fds[2], null = devnull(), i;

	(void)state;
	signal(SIGPIPE, SIG_IGN);
	assert_int_equal(pipe(fds), 0);
	close(fds[0]);
	out_reset(fds[1], null);
	for (i = 0; i < 10; i++)
		out_line(OUT_STDOUT, "nobody reads this");
	out_drain();
	assert_int_equal(out_lost(OUT_STDOUT), 10);
	close(fds[1]);
	close(null);
}

/* A regular file takes every line, in order. */
static void
test_file(void **state)
{
	char	path[] = "/tmp/test-output.XXXXXX", buf[64 * 1024];
	int	fd = mkstemp(path), null = devnull(), i;
	ssize_t	n;
	char	want[64];
	FILE	*f;

	(void)state;
	assert_true(fd >= 0);
	out_reset(fd, null);
	for (i = 0; i < 2000; i++) {
		snprintf(want, sizeof want, "event %d", i);
		out_line(OUT_STDOUT, want);
	}
	out_drain();
	assert_int_equal(out_lost(OUT_STDOUT), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	for (i = 0; fgets(buf, sizeof buf, f) != NULL; i++) {
		snprintf(want, sizeof want, "event %d\n", i);
		assert_string_equal(buf, want);
	}
	assert_int_equal(i, 2000);
	fclose(f);
	n = unlink(path);
	assert_int_equal(n, 0);
	close(fd);
	close(null);
}

/* The log's lines of one message of two, read back from a pipe. */
static char *
logged(int json, const char *severity_msg)
{
	struct pipe_reader r;
	int		fds[2], null = devnull();

	assert_int_equal(pipe(fds), 0);
	out_reset(null, fds[1]);
	log_init("qmigrate", LOG_LEVEL_INFO, json);
	log_set_command("migrate");
	pipe_reader_start(&r, fds[0]);
	if (strcmp(severity_msg, "error") == 0)
		log_error("the guest runs on the source");
	else
		log_info("first\nsecond");
	out_drain();
	close(fds[1]);
	pipe_reader_join(&r);
	close(fds[0]);
	close(null);
	return r.text;
}

/* Each line of a message carries the command's prefix. */
static void
test_log_prefix(void **state)
{
	char *text;

	(void)state;
	text = logged(0, "info");
	assert_string_equal(text,
	    "qmigrate migrate: first\nqmigrate migrate: second\n");
	free(text);
	text = logged(0, "error");
	assert_string_equal(text,
	    "qmigrate migrate: the guest runs on the source\n");
	free(text);
}

/* --log-json: the error line too is one JSON object naming the command. */
static void
test_log_json(void **state)
{
	json_object	*o, *v;
	char		*text;

	(void)state;
	text = logged(1, "error");
	assert_non_null(strchr(text, '\n'));
	assert_int_equal(strchr(text, '\n')[1], '\0');	/* one line */
	o = json_tokener_parse(text);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "level", &v));
	assert_string_equal(json_object_get_string(v), "error");
	assert_true(json_object_object_get_ex(o, "command", &v));
	assert_string_equal(json_object_get_string(v), "migrate");
	assert_true(json_object_object_get_ex(o, "msg", &v));
	assert_string_equal(json_object_get_string(v),
	    "the guest runs on the source");
	json_object_put(o);
	free(text);
	text = logged(1, "info");
	o = json_tokener_parse(text);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "msg", &v));
	assert_string_equal(json_object_get_string(v), "first\nsecond");
	json_object_put(o);
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stalled_reader),
		cmocka_unit_test(test_reader_gone),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_log_prefix),
		cmocka_unit_test(test_log_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
