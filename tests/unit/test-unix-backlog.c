/*
 * test-unix-backlog.c: the accept queue of a listening unix socket, read
 * from the kernel by its bound name: a connection queued and not yet
 * accepted counts, also after the path was removed (the target's abort
 * before any source: audit D27), and no longer once accepted; a name
 * nothing listens on is "not known", never 0.
 */
#include <sys/socket.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common.h"

static void
test_queue_counted_after_unlink(void **state)
{
	char	 dir[] = "/tmp/test-unix-backlog.XXXXXX", path[64];
	char	*cause = NULL;
	int	 lfd, c1, c2, a;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/incoming.sock", dir);
	lfd = unix_listen(path, 0, 8, &cause);
	assert_true(lfd >= 0);
	assert_int_equal(unix_listen_backlog(path, &cause), 0);
	assert_null(cause);

	c1 = unix_connect(path, 0, &cause);
	c2 = unix_connect(path, 0, &cause);
	assert_true(c1 >= 0 && c2 >= 0);
	assert_int_equal(unix_listen_backlog(path, &cause), 2);
	/* The path goes: no one new can come, the queued ones still wait. */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(unix_listen_backlog(path, &cause), 2);
	a = accept(lfd, NULL, NULL);
	assert_true(a >= 0);
	assert_int_equal(unix_listen_backlog(path, &cause), 1);
	close(a);
	a = accept(lfd, NULL, NULL);
	assert_true(a >= 0);
	assert_int_equal(unix_listen_backlog(path, &cause), 0);
	close(a);
	close(c1);
	close(c2);

	close(lfd);
	assert_int_equal(unix_listen_backlog(path, &cause), -1);
	assert_non_null(cause);
	assert_non_null(strstr(cause, "no listening socket"));
	free(cause);
	rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queue_counted_after_unlink),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
