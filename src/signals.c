/*
 * signals.c: every signal a user or a terminal can send that would kill
 * by default (SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGUSR1, SIGUSR2), from
 * qmigrate's first instruction until the command's last document: a
 * long-running command never dies by one (the audit's N9).  What each
 * means to a command that runs a migration, an eviction, a drain, the
 * exporter or a proxy (signals_watch_start()):
 *   SIGINT, SIGTERM  stop: a migration aborts where it still can.
 *   SIGQUIT          the same (Ctrl-\ is a user asking it to stop).
 *   SIGHUP           nothing but a log line: the terminal or the SSH
 *                    session that started it is gone, and a migration
 *                    half done is worth finishing; the status file and
 *                    the exit tell the outcome (SIGTERM or qmigrate abort
 *                    stop it).
 *   SIGUSR1          one line on the log saying where it is (as dd does).
 *   SIGUSR2          nothing but a log line, unless the command asks
 *                    for it (signals_watch_request()): migrate reads
 *                    a `qmigrate switchover` request then.
 *
 * migrate, incoming, update, evict and drain arm their watchers only
 * after the policy is resolved, TLS is set up and a socket bound; a
 * signal in that window must be handled as it would be later, never a
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

#include <ev.h>

#include "qmigrate.h"
#include "signals.h"
#include "world.h"

#define SIGNALS_POLL_USEC	10000

static const int		 signals_taken[SIGNALS_COUNT] = {
	SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGUSR1, SIGUSR2,
};
static volatile sig_atomic_t	 signals_seen[SIGNALS_COUNT];

static void	signals_poll_set(long usec);

/* Records the signal; the poll hands it on once a real handler is there. */
static void
signals_record(int signum)
{
	int	saved = errno;
	size_t	i;

	for (i = 0; i < SIGNALS_COUNT; i++)
		if (signals_taken[i] == signum)
			signals_seen[i] = 1;
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

	for (i = 0; i < SIGNALS_COUNT; i++) {
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

/* The set of every signal taken (signals_block()). */
static void
signals_set(sigset_t *set)
{
	size_t i;

	sigemptyset(set);
	for (i = 0; i < SIGNALS_COUNT; i++)
		sigaddset(set, signals_taken[i]);
}

/* Blocks every signal taken; old gets the mask to put back. */
void
signals_block(sigset_t *old)
{
	sigset_t all;

	signals_set(&all);
	sigprocmask(SIG_BLOCK, &all, old);
}

/*
 * From here the signals taken are recorded, not acted on, until the
 * command's handler replaces the recording one (each also unblocked: a
 * parent may hand them over blocked, as drain does across its fork and
 * exec so that none is lost there).
 */
void
signals_early(void)
{
	struct sigaction	sa;
	sigset_t		all;
	size_t			i;

	signals_set(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGALRM);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = signals_on_poll;
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = signals_record;
	for (i = 0; i < SIGNALS_COUNT; i++)
		sigaction(signals_taken[i], &sa, NULL);
	signals_set(&all);
	sigprocmask(SIG_UNBLOCK, &all, NULL);
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
	for (i = 0; i < SIGNALS_COUNT; i++) {
		signal(signals_taken[i], SIG_DFL);
		if (signals_seen[i]) {
			signals_seen[i] = 0;
			raise(signals_taken[i]);
		}
	}
}

static void
signals_on_watch(struct ev_loop *loop, ev_signal *sig, int revents)
{
	struct signals_watch	*sw = sig->data;
	const char		*name = signals_name(sig->signum);

	(void)loop;
	(void)revents;
	switch (sig->signum) {
	case SIGHUP:
		log_info("%s (the terminal or session is gone): %s goes on; "
		    "SIGTERM stops it", name, sw->what);
		break;
	case SIGUSR1:
		if (sw->info != NULL)
			sw->info(sw->arg);
		else
			log_info("%s: %s goes on", name, sw->what);
		break;
	case SIGUSR2:
		if (sw->request != NULL)
			sw->request(sw->arg);
		else
			log_info("%s: ignored (%s goes on)", name, sw->what);
		break;
	default:
		sw->stop(sig->signum, sw->arg);
		break;
	}
}

/*
 * Arms every signal taken on loop, as the table at the top says: stop
 * (signum, arg) for SIGINT, SIGTERM and SIGQUIT; info(arg) for SIGUSR1
 * (NULL: a log line); what names the work in log lines ("the
 * migration").  A signal recorded since main() reaches them at once.
 */
void
signals_watch_start(struct signals_watch *sw, struct ev_loop *loop,
    const char *what, void (*stop)(int signum, void *arg),
    void (*info)(void *arg), void *arg)
{
	size_t i;

	sw->loop = loop;
	sw->what = what;
	sw->stop = stop;
	sw->info = info;
	sw->request = NULL;
	sw->arg = arg;
	for (i = 0; i < SIGNALS_COUNT; i++) {
		ev_signal_init(&sw->sig[i], signals_on_watch,
		    signals_taken[i]);
		sw->sig[i].data = sw;
		world->signal_start(loop, &sw->sig[i]);
	}
	sw->armed = 1;
	signals_armed();
}

/*
 * SIGUSR2 calls request(arg) from now on.  Called right after
 * signals_watch_start(), before the loop turns: a SIGUSR2 recorded
 * earlier reaches the watcher only on the loop's next turn, so it finds
 * request there.
 */
void
signals_watch_request(struct signals_watch *sw, void (*request)(void *arg))
{
	sw->request = request;
}

/*
 * Stops the watchers with every signal blocked; each is then ignored
 * (world->signal_stop(): the last document is written, a signal changes
 * nothing) or, for a handover (evict to migrate), recorded again until
 * the next command arms.
 */
void
signals_watch_stop(struct signals_watch *sw, int handover)
{
	sigset_t	old;
	size_t		i;

	if (!sw->armed)
		return;
	signals_block(&old);
	for (i = 0; i < SIGNALS_COUNT; i++)
		world->signal_stop(sw->loop, &sw->sig[i]);
	sw->armed = 0;
	if (handover)
		signals_early();	/* and unblocks them */
	sigprocmask(SIG_SETMASK, &old, NULL);
}

const char *
signals_name(int signum)
{
	switch (signum) {
	case SIGINT:	return "SIGINT";
	case SIGTERM:	return "SIGTERM";
	case SIGQUIT:	return "SIGQUIT";
	case SIGHUP:	return "SIGHUP";
	case SIGUSR1:	return "SIGUSR1";
	case SIGUSR2:	return "SIGUSR2";
	default:	return "a signal";
	}
}
