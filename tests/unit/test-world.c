/*
 * test-world.c: the executor's I/O goes through lib/world.h and nowhere
 * else.  A world of the test's own (a clock it sets, timers it fires, a
 * socketpair for a monitor path nothing listens on, a pid it makes up)
 * drives the real qmp/ client: the connect, the command's timeout and the
 * peer's pid all come from that world, none from the kernel; with the
 * production world back, the same path cannot be reached.
 */
#include <sys/socket.h>

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
#include <json-c/json.h>

#include "common.h"
#include "qmp.h"
#include "world.h"

#define NOWHERE	"/nonexistent/test-world/qmp.sock"
#define MAX_TIMERS 8

static struct {
	double		 now;
	ev_timer	*timers[MAX_TIMERS];	/* running */
	double		 due[MAX_TIMERS];
	int		 peer;			/* the monitor's end */
	int		 connects;
} fake;

static double
fake_now(void)
{
	return fake.now;
}

static void
fake_timer_start(struct ev_loop *loop, ev_timer *t)
{
	size_t i;

	(void)loop;
	for (i = 0; i < MAX_TIMERS; i++)
		if (fake.timers[i] == NULL) {
			fake.timers[i] = t;
			fake.due[i] = fake.now + t->at;
			return;
		}
	fail_msg("too many timers");
}

static void
fake_timer_stop(struct ev_loop *loop, ev_timer *t)
{
	size_t i;

	(void)loop;
	for (i = 0; i < MAX_TIMERS; i++)
		if (fake.timers[i] == t)
			fake.timers[i] = NULL;
}

static size_t
fake_running(void)
{
	size_t i, n = 0;

	for (i = 0; i < MAX_TIMERS; i++)
		n += fake.timers[i] != NULL;
	return n;
}

/* Moves the clock to when and fires what is due, as a world would. */
static void
fake_advance(struct ev_loop *loop, double when)
{
	size_t i;

	fake.now = when;
	for (i = 0; i < MAX_TIMERS; i++) {
		ev_timer *t = fake.timers[i];

		if (t != NULL && fake.due[i] <= when) {
			fake.timers[i] = NULL;
			t->cb(loop, t, EV_TIMER);
		}
	}
}

static int
fake_connect(const char *path, int flags, char **cause)
{
	int sv[2];

	fake.connects++;
	if (strcmp(path, NOWHERE) != 0) {
		set_cause(cause, "%s: connect: refused by the test", path);
		return -1;
	}
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | flags, 0, sv), 0);
	fake.peer = sv[1];
	return sv[0];
}

static pid_t
fake_peer_pid(int fd)
{
	(void)fd;
	return 4242;
}

static struct world_ops fake_world;

static int
setup(void **state)
{
	(void)state;
	memset(&fake, 0, sizeof fake);
	fake.now = 1000;
	fake.peer = -1;
	fake_world = world_kernel;
	fake_world.now = fake_now;
	fake_world.timer_start = fake_timer_start;
	fake_world.timer_stop = fake_timer_stop;
	fake_world.connect_unix = fake_connect;
	fake_world.peer_pid = fake_peer_pid;
	world_set(&fake_world);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	world_set(&world_kernel);
	if (fake.peer != -1)
		close(fake.peer);
	return 0;
}

struct answer {
	int	 called;
	char	*error_class;
};

static void
on_ready(struct qmp_conn *conn, json_object *reply, const char *error_class,
    const char *error, void *arg)
{
	struct answer *a = arg;

	(void)conn;
	(void)reply;
	(void)error;
	a->called++;
	a->error_class = error_class != NULL ? strdup(error_class) : NULL;
}

/* The command's timeout is the world's timer, at the world's time. */
static void
test_timeout_is_the_worlds(void **state)
{
	struct ev_loop	*loop = ev_loop_new(EVFLAG_AUTO);
	struct answer	 a = { 0 };
	struct qmp_conn	*conn;
	char		*cause = NULL;

	(void)state;
	conn = qmp_connect_start(loop, NOWHERE, 10, on_ready, &a, &cause);
	assert_non_null(conn);
	assert_int_equal(fake.connects, 1);
	assert_int_equal(fake_running(), 1);
	/* No real second passes: only the world's clock says 10 s went. */
	fake_advance(loop, 1009.9);
	assert_int_equal(a.called, 0);
	fake_advance(loop, 1010);
	assert_int_equal(a.called, 1);
	assert_string_equal(a.error_class, "Timeout");
	free(a.error_class);
	qmp_close(conn);
	ev_loop_destroy(loop);
}

/* An answer read from the world's socket stops the world's timer. */
static void
test_answer_stops_the_timer(void **state)
{
	struct ev_loop	*loop = ev_loop_new(EVFLAG_AUTO);
	struct answer	 a = { 0 };
	struct qmp_conn	*conn;
	char		 line[512], *id, *end, reply[256];
	char		*cause = NULL;
	const char	*greeting = "{\"QMP\": {\"version\": {\"qemu\": "
	    "{\"major\": 10, \"minor\": 0, \"micro\": 0}, \"package\": \"\"},"
	    " \"capabilities\": []}}\r\n";
	ssize_t		 n;
	int		 turns;

	(void)state;
	conn = qmp_connect_start(loop, NOWHERE, 10, on_ready, &a, &cause);
	assert_non_null(conn);
	for (n = 0, turns = 0; n <= 0 && turns < 100; turns++) {
		ev_run(loop, EVRUN_NOWAIT);
		n = read(fake.peer, line, sizeof line - 1);
	}
	assert_true(n > 0);
	line[n] = '\0';
	assert_non_null(strstr(line, "\"qmp_capabilities\""));
	assert_non_null(id = strstr(line, "\"id\":\""));
	id += 6;
	assert_non_null(end = strchr(id, '"'));
	*end = '\0';
	snprintf(reply, sizeof reply, "%s{\"return\": {}, \"id\": \"%s\"}\r\n",
	    greeting, id);
	assert_int_equal(write(fake.peer, reply, strlen(reply)),
	    (ssize_t)strlen(reply));
	for (turns = 0; a.called == 0 && turns < 100; turns++)
		ev_run(loop, EVRUN_NOWAIT);
	assert_int_equal(a.called, 1);
	assert_null(a.error_class);
	assert_int_equal(fake_running(), 0);
	assert_int_equal(qmp_peer_pid(conn), 4242);
	qmp_close(conn);
	ev_loop_destroy(loop);
}

/* With the kernel's world back, the made-up path is not reachable. */
static void
test_kernel_world_is_the_default(void **state)
{
	struct ev_loop	*loop = ev_loop_new(EVFLAG_AUTO);
	char		*cause = NULL;

	(void)state;
	world_set(&world_kernel);
	assert_null(qmp_connect_start(loop, NOWHERE, 10, on_ready, NULL,
	    &cause));
	assert_non_null(cause);
	assert_non_null(strstr(cause, NOWHERE));
	assert_int_equal(fake.connects, 0);
	free(cause);
	ev_loop_destroy(loop);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_timeout_is_the_worlds,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_answer_stops_the_timer,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_kernel_world_is_the_default, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
