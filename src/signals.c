/*
 * signals.c: SIGINT and SIGTERM from qmigrate's first instruction until
 * a command's own handler takes them.  migrate, incoming, evict and drain
 * arm libev's watchers only after the policy is resolved, TLS is set up
 * and a socket bound; a signal in that window must be an abort, never a
 * death by signal.  main() first installs a handler that only records the
 * signal.  Once the command's handler is installed, the recorded signal is
 * raised again and reaches the command as any later one would: at once
 * where the command says so (signals_armed()), else found by a 10 ms poll
 * (SIGALRM) that runs only while a recorded signal waits.
 */
#include <sys/time.h>

#include <errno.h>
#include <signal.h>
#include <stddef.h>

#include "qmigrate.h"

#define SIGNALS_POLL_USEC	10000

static const int		 signals_taken[] = { SIGINT, SIGTERM };
static volatile sig_atomic_t	 signals_seen[2];

static void	signals_poll_set(long usec);

/* Records the signal; the poll hands it on once a real handler is there. */
static void
signals_record(int signum)
{
	int saved = errno;

	signals_seen[signum == SIGINT ? 0 : 1] = 1;
	signals_poll_set(SIGNALS_POLL_USEC);
	errno = saved;
}

static void
signals_poll_set(long usec)
{
	struct itimerval it = {
		.it_interval = { .tv_usec = usec },
		.it_value = { .tv_usec = usec },
	};

	setitimer(ITIMER_REAL, &it, NULL);
}

/*
 * Raises each recorded signal whose handler is now the command's own.
 * One still on the recording handler, or on the default action (a handler
 * being replaced: evict hands over to migrate), waits; one ignored (the
 * command's teardown) is dropped.  Returns how many still wait.
 * Async-signal-safe.
 */
static int
signals_redeliver(void)
{
	struct sigaction	cur;
	size_t			i;
	int			left = 0;

	for (i = 0; i < 2; i++) {
		if (!signals_seen[i])
			continue;
		if (sigaction(signals_taken[i], NULL, &cur) == -1 ||
		    cur.sa_handler == signals_record ||
		    cur.sa_handler == SIG_DFL) {
			left++;
			continue;
		}
		signals_seen[i] = 0;
		if (cur.sa_handler != SIG_IGN)
			raise(signals_taken[i]);
	}
	return left;
}

static void
signals_on_poll(int signum)
{
	int saved = errno;

	(void)signum;
	if (signals_redeliver() == 0)
		signals_poll_set(0);
	errno = saved;
}

/*
 * From here SIGINT and SIGTERM are recorded, not acted on, until the
 * command's handler replaces the recording one (either signal also
 * unblocked: a parent may hand them over blocked, as drain does across
 * its fork and exec so that none is lost there).
 */
void
signals_early(void)
{
	struct sigaction	sa;
	sigset_t		both;
	size_t			i;

	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGALRM);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = signals_on_poll;
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = signals_record;
	for (i = 0; i < 2; i++)
		sigaction(signals_taken[i], &sa, NULL);
	sigemptyset(&both);
	sigaddset(&both, SIGINT);
	sigaddset(&both, SIGTERM);
	sigprocmask(SIG_UNBLOCK, &both, NULL);
}

/*
 * The command's own handler is installed: what was recorded reaches it
 * now rather than at the next poll.
 */
void
signals_armed(void)
{
	sigset_t both, old;

	sigemptyset(&both);
	sigaddset(&both, SIGALRM);
	sigprocmask(SIG_BLOCK, &both, &old);
	if (signals_redeliver() == 0)
		signals_poll_set(0);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/*
 * A command that takes no signal: the default actions back, and a signal
 * recorded meanwhile acts now, as it would have.
 */
void
signals_default(void)
{
	size_t i;

	signals_poll_set(0);
	signal(SIGALRM, SIG_DFL);
	for (i = 0; i < 2; i++) {
		signal(signals_taken[i], SIG_DFL);
		if (signals_seen[i]) {
			signals_seen[i] = 0;
			raise(signals_taken[i]);
		}
	}
}
