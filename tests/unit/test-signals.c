/*
 * test-signals.c: SIGINT and SIGTERM between main()'s first instruction
 * and a command's own handler (signals.c): recorded, not acted on, then
 * handed to the handler once it is there, at once (signals_armed()) or by
 * the poll; dropped once the command ignores them; acted on by the
 * default action for a command that takes none.
 */
#include <sys/wait.h>

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "qmigrate.h"
#include "signals.h"

static volatile sig_atomic_t got_int, got_term;

static void
on_signal(int signum)
{
	if (signum == SIGINT)
		got_int++;
	else
		got_term++;
}

static void
take(int signum)
{
	struct sigaction sa;

	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_signal;
	sigaction(signum, &sa, NULL);
}

/* Waits up to a second for *flag (the poll runs every 10 ms). */
static int
waited(volatile sig_atomic_t *flag)
{
	struct timespec	ts = { 0, 1000000 };
	int		i;

	for (i = 0; i < 1000 && !*flag; i++)
		nanosleep(&ts, NULL);
	return *flag;
}

static void
test_armed_at_once(void **state)
{
	(void)state;
	got_int = got_term = 0;
	signals_early();
	raise(SIGTERM);
	raise(SIGINT);
	assert_int_equal(got_term + got_int, 0);	/* and alive */
	take(SIGTERM);
	take(SIGINT);
	signals_armed();
	assert_int_equal(got_term, 1);
	assert_int_equal(got_int, 1);
}

static void
test_armed_by_poll(void **state)
{
	(void)state;
	got_int = got_term = 0;
	signals_early();
	raise(SIGTERM);
	take(SIGTERM);		/* a handler no one announced (libev's) */
	assert_true(waited(&got_term));
	assert_int_equal(got_term, 1);
	signal(SIGTERM, SIG_IGN);
}

static void
test_ignored_dropped(void **state)
{
	(void)state;
	got_int = got_term = 0;
	signals_early();
	raise(SIGTERM);
	signal(SIGTERM, SIG_IGN);	/* the teardown's */
	signals_armed();
	take(SIGTERM);
	signals_armed();
	assert_int_equal(got_term, 0);
	signal(SIGTERM, SIG_IGN);
}

static void
test_default_acts(void **state)
{
	pid_t	pid;
	int	status;

	(void)state;
	pid = fork();
	assert_true(pid != -1);
	if (pid == 0) {
		signals_early();
		raise(SIGTERM);
		signals_default();
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_armed_at_once),
		cmocka_unit_test(test_armed_by_poll),
		cmocka_unit_test(test_ignored_dropped),
		cmocka_unit_test(test_default_acts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
