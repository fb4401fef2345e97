/*
 * test-switchover-request.c: the request `qmigrate switchover` leaves beside
 * a status file for the migrate that writes it (switchover-request.c), on
 * real files in a private directory: what the command writes the migrate
 * takes, once; no file is no request; a file that is not a request, or too
 * long to be one, is refused with a message naming it, and removed so that
 * the next SIGUSR2 does not find it again.  Two requests before the
 * migrate takes one: the second is refused and the first stays, whole,
 * for the migrate to take (unless its asker is gone); a request is
 * withdrawn only while it is its own.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "qmigrate.h"
#include "switchover-request.h"

static char	dir[] = "/tmp/test-switchover-request.XXXXXX";
static char	status_file[64];

static int
setup(void **state)
{
	(void)state;
	if (mkdtemp(dir) == NULL)
		return -1;
	snprintf(status_file, sizeof status_file, "%s/vm1.status", dir);
	return 0;
}

static int
teardown(void **state)
{
	char *path = switchover_request_path(status_file);

	(void)state;
	unlink(path);
	free(path);
	return rmdir(dir);
}

/* Writes text as the request file of status_file. */
static void
put_request(const char *text)
{
	char	*path = switchover_request_path(status_file);
	FILE	*f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	free(path);
}

static int
request_exists(void)
{
	char	*path = switchover_request_path(status_file);
	int	 there = access(path, F_OK) == 0;

	free(path);
	return there;
}

/* What the command writes, the migrate takes once, and the file is gone. */
static void
test_written_then_taken(void **state)
{
	char			 id[SWITCHOVER_ID_MAX], pending[SWITCHOVER_ID_MAX];
	enum sess_finish	 f = FINISH_AUTO;
	char			*cause = NULL;

	(void)state;
	assert_int_equal(switchover_request_publish(status_file, "42-1",
	    FINISH_PAUSE, pending, &cause), 0);
	assert_true(request_exists());
	assert_int_equal(switchover_request_take(status_file, id, &f, &cause),
	    1);
	assert_string_equal(id, "42-1");
	assert_int_equal(f, FINISH_PAUSE);
	assert_false(request_exists());
	assert_int_equal(switchover_request_take(status_file, id, &f, &cause),
	    0);
	assert_null(cause);
}

/* Each finish by its name; none given in the file is refused. */
static void
test_finishes(void **state)
{
	static const struct {
		const char		*text;
		enum sess_finish	 finish;
	} rows[] = {
		{ "{\"requestId\":\"a\",\"finish\":\"auto\"}", FINISH_AUTO },
		{ "{\"requestId\":\"a\",\"finish\":\"postcopy\"}",
		    FINISH_POSTCOPY },
		{ "{\"requestId\":\"a\",\"finish\":\"pause\"}", FINISH_PAUSE },
	};
	char			 id[SWITCHOVER_ID_MAX];
	enum sess_finish	 f;
	char			*cause = NULL;
	size_t			 i;

	(void)state;
	for (i = 0; i < NITEMS(rows); i++) {
		put_request(rows[i].text);
		f = FINISH_PAUSE + 1;
		assert_int_equal(switchover_request_take(status_file, id, &f,
		    &cause), 1);
		assert_int_equal(f, rows[i].finish);
	}
}

/* Not a request: refused with the file's name and what is wrong, and
 * removed. */
static void
test_refused(void **state)
{
	static const struct {
		const char *text, *says;
	} rows[] = {
		{ "", "not a JSON object" },
		{ "[1, 2]", "not a JSON object" },
		{ "{\"requestId\": 7, \"finish\": \"pause\"}", "requestId" },
		{ "{\"requestId\": \"\", \"finish\": \"pause\"}", "requestId" },
		{ "{\"requestId\": \"x\", \"finish\": \"now\"}",
		    "finish: expected auto, postcopy or pause" },
		{ "{\"requestId\": \"x\"}", "finish" },
		{ "{\"requestId\": \"0123456789012345678901234567890123456789"
		    "0123456789012345678901234\", \"finish\": \"pause\"}",
		    "requestId: expected a string of 1 to 63" },
	};
	char			 id[SWITCHOVER_ID_MAX];
	enum sess_finish	 f;
	char			*cause;
	size_t			 i;

	(void)state;
	for (i = 0; i < NITEMS(rows); i++) {
		put_request(rows[i].text);
		cause = NULL;
		assert_int_equal(switchover_request_take(status_file, id, &f,
		    &cause), -1);
		assert_non_null(cause);
		assert_non_null(strstr(cause, "vm1.status.switchover"));
		assert_non_null(strstr(cause, rows[i].says));
		free(cause);
		assert_false(request_exists());
	}
}

/* Longer than any request (4 KiB read at most): refused, removed. */
static void
test_too_long(void **state)
{
	char			*big = xmalloc(8192), id[SWITCHOVER_ID_MAX];
	enum sess_finish	 f;
	char			*cause = NULL;

	(void)state;
	memset(big, ' ', 8191);
	big[8191] = '\0';
	put_request(big);
	free(big);
	assert_int_equal(switchover_request_take(status_file, id, &f, &cause),
	    -1);
	assert_non_null(strstr(cause, "longer than 4096 bytes"));
	free(cause);
	assert_false(request_exists());
}

/*
 * The race: two requests written before the migrate reads the file.  The
 * second is refused at once, naming the first, which stays as it was: the
 * migrate takes the first (whose asker waits under its id), and once it is
 * taken a new request is published.
 */
static void
test_second_refused(void **state)
{
	char			 id[SWITCHOVER_ID_MAX], pending[SWITCHOVER_ID_MAX];
	enum sess_finish	 f = FINISH_AUTO;
	char			*cause = NULL;
	char			 first[SWITCHOVER_ID_MAX];

	(void)state;
	/* This process is the first's asker: it runs, it waits. */
	snprintf(first, sizeof first, "%ld-1", (long)getpid());
	assert_int_equal(switchover_request_publish(status_file, first,
	    FINISH_POSTCOPY, pending, &cause), 0);
	assert_int_equal(switchover_request_publish(status_file, "second-2",
	    FINISH_PAUSE, pending, &cause), 1);
	assert_null(cause);
	assert_string_equal(pending, first);
	assert_int_equal(switchover_request_take(status_file, id, &f, &cause),
	    1);
	assert_string_equal(id, first);
	assert_int_equal(f, FINISH_POSTCOPY);
	/* Taken: the next is published, and taken as itself. */
	assert_int_equal(switchover_request_publish(status_file, "third-3",
	    FINISH_PAUSE, pending, &cause), 0);
	assert_int_equal(switchover_request_take(status_file, id, &f, &cause),
	    1);
	assert_string_equal(id, "third-3");
	assert_int_equal(f, FINISH_PAUSE);
	assert_null(cause);
}

/*
 * A request no one waits for (its asker's pid runs no process, or it
 * names none, or it is not a request) is replaced by the next.
 */
static void
test_stale_replaced(void **state)
{
	static const char *stale[] = {
		/* Past any pid_max (2^22): no such process. */
		"{\"requestId\":\"gone-1\",\"finish\":\"pause\","
		    "\"pid\":999999999}",
		"{\"requestId\":\"old-1\",\"finish\":\"pause\"}",
		"not json",
	};
	char			 id[SWITCHOVER_ID_MAX], pending[SWITCHOVER_ID_MAX];
	enum sess_finish	 f = FINISH_AUTO;
	char			*cause = NULL;
	size_t			 i;

	(void)state;
	for (i = 0; i < NITEMS(stale); i++) {
		put_request(stale[i]);
		assert_int_equal(switchover_request_publish(status_file,
		    "new-2", FINISH_POSTCOPY, pending, &cause), 0);
		assert_null(cause);
		assert_int_equal(switchover_request_take(status_file, id, &f,
		    &cause), 1);
		assert_string_equal(id, "new-2");
		assert_int_equal(f, FINISH_POSTCOPY);
	}
}

/* An asker removes its request only while it is there and its own. */
static void
test_withdraw(void **state)
{
	char			 id[SWITCHOVER_ID_MAX], pending[SWITCHOVER_ID_MAX];
	enum sess_finish	 f;
	char			*cause = NULL;

	(void)state;
	assert_int_equal(switchover_request_withdraw(status_file, "a-1"), 0);
	assert_int_equal(switchover_request_publish(status_file, "a-1",
	    FINISH_PAUSE, pending, &cause), 0);
	assert_int_equal(switchover_request_withdraw(status_file, "b-2"), 0);
	assert_true(request_exists());
	assert_int_equal(switchover_request_withdraw(status_file, "a-1"), 1);
	assert_false(request_exists());
	assert_int_equal(switchover_request_take(status_file, id, &f, &cause),
	    0);
	assert_null(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_written_then_taken),
		cmocka_unit_test(test_finishes),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_too_long),
		cmocka_unit_test(test_second_refused),
		cmocka_unit_test(test_stale_replaced),
		cmocka_unit_test(test_withdraw),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
