/*
 * test-signals.c: the default-fatal signals between main()'s first
 * instruction and a command's own handler (signals.c): recorded, not
 * acted on, then handed to the handler once it is there, at once
 * (signals_armed()) or by the poll; dropped once the command ignores
 * them; acted on by the default action for a command that takes none.
 * Then a long-running command's table (signals_watch_start()): SIGINT,
 * SIGTERM, SIGQUIT stop it, SIGUSR1 asks where it is, SIGHUP and SIGUSR2
 * change nothing (SIGUSR2 is a request where the command takes them:
 * migrate's switchover), and none kills it once its watchers stop.
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
#include <ev.h>

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

/* SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 before the handler: recorded too. */
static void
test_others_recorded(void **state)
{
	static const int others[] = { SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };
	size_t i;

	(void)state;
	for (i = 0; i < NITEMS(others); i++) {
		got_int = got_term = 0;
		signals_early();
		raise(others[i]);		/* alive */
		take(others[i]);
		signals_armed();
		assert_int_equal(got_term, 1);	/* on_signal's other */
		signal(others[i], SIG_IGN);
	}
}

struct watched {
	int	stops, last, infos, requests;
};

static void
watched_stop(int signum, void *arg)
{
	struct watched *w = arg;

	w->stops++;
	w->last = signum;
}

static void
watched_info(void *arg)
{
	((struct watched *)arg)->infos++;
}

static void
watched_request(void *arg)
{
	((struct watched *)arg)->requests++;
}

/* Delivers signum to the loop and runs it until libev has handed it on. */
static void
deliver(struct ev_loop *loop, int signum)
{
	raise(signum);
	ev_run(loop, EVRUN_NOWAIT);
}

/*
 * In a child (a default action would end it): each signal does what the
 * table says, and after signals_watch_stop() none acts or kills.
 */
static void
test_watch_table(void **state)
{
	pid_t	pid;
	int	status;

	(void)state;
	pid = fork();
	assert_true(pid != -1);
	if (pid == 0) {
		struct ev_loop		*loop = ev_loop_new(EVFLAG_AUTO);
		struct signals_watch	 sw;
		struct watched		 w = { 0 };

		log_init("qmigrate", LOG_LEVEL_WARN, 0);
		signals_early();
		signals_watch_start(&sw, loop, "the test", watched_stop,
		    watched_info, &w);
		deliver(loop, SIGHUP);
		deliver(loop, SIGUSR2);
		if (w.stops != 0 || w.infos != 0)
			_exit(10);
		deliver(loop, SIGUSR1);
		if (w.infos != 1 || w.stops != 0)
			_exit(11);
		/* SIGUSR2 where the command takes requests (migrate). */
		signals_watch_request(&sw, watched_request);
		deliver(loop, SIGUSR2);
		if (w.requests != 1 || w.infos != 1 || w.stops != 0)
			_exit(15);
		deliver(loop, SIGQUIT);
		if (w.stops != 1 || w.last != SIGQUIT)
			_exit(12);
		deliver(loop, SIGTERM);
		deliver(loop, SIGINT);
		if (w.stops != 3 || w.last != SIGINT)
			_exit(13);
		signals_watch_stop(&sw, 0);
		raise(SIGHUP);
		raise(SIGQUIT);
		raise(SIGUSR1);
		raise(SIGUSR2);
		raise(SIGTERM);
		raise(SIGINT);
		if (w.stops != 3 || w.infos != 1 || w.requests != 1)
			_exit(14);
		ev_loop_destroy(loop);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_armed_at_once),
		cmocka_unit_test(test_armed_by_poll),
		cmocka_unit_test(test_ignored_dropped),
		cmocka_unit_test(test_default_acts),
		cmocka_unit_test(test_others_recorded),
		cmocka_unit_test(test_watch_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
