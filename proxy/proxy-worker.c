/*
 * proxy-worker.c: the worker loops of the data plane (memcached's
 * thread.c, libev's "one loop per thread"): forwarding pairs run on up to
 * N threads, each with its own libev loop and its own pairs, so that a
 * migration's connections (QEMU's main stream, its multifd channels, the
 * post-copy preempt channel, the disks) use every core.  The listeners,
 * the connections being set up, the session and its control connection
 * stay on the side's loop (the main loop); a pair is handed to a worker
 * only once its setup is done, in the order the side released it, so the
 * order of the channel headers and of the connects to QEMU is the side's.
 *
 * Nothing is shared without a handover:
 * - main -> worker: a job (the pair's fds, its TLS, its limits) queued in
 *   the worker's inbox under the worker's mutex, then ev_async_send();
 *   the worker builds the pair on its loop and owns it from then on;
 * - worker -> main: when the pair ends, its job goes to the pool's outbox
 *   under the pool's mutex, then ev_async_send() to the main loop, whose
 *   callback calls the job's done callback (proxy-conn.c's bookkeeping);
 * - the byte counters are added to with atomic operations, read with
 *   atomic loads (proxy_side_stats());
 * - stopping (the side freed): every worker is told to close its pairs
 *   ("proxy stopping") and leave its loop, is joined, and the main thread
 *   then calls the done callbacks of what ended, before it returns.
 *
 * One thing is shared after the handover, by the kernel: libev leaves a
 * stopped watcher's fd in the main loop's epoll set until an event comes
 * for it (it then takes it out, EPOLL_CTL_DEL), and libev 4.33 offers no
 * way to take it out sooner.  So the main loop may wake once for a
 * connection a worker owns, and its epoll_ctl() may meet the worker's
 * close(): both are single system calls; a failed epoll_ctl() makes
 * libev rebuild its set; and only the main thread makes new fds, so a
 * number cannot be reused between the event and its epoll_ctl().
 * ThreadSanitizer reports that pair of calls as a race on the fd.
 *
 * With N = 0 the pairs run on the main loop itself, as before workers
 * existed (the instrument for "one worker versus none").  Workers start
 * when needed: a pair goes to the worker with the fewest pairs, and a new
 * worker starts only while every running one has a pair, up to N; so a
 * migration of C connections uses min(N, C) threads.  The default N is
 * the number of online CPUs, or QMIGRATE_PROXY_WORKERS when set (for
 * the proxies inside migrate and incoming, which have no option).
 * Worker threads block every signal: the main loop keeps handling them.
 */
#include <sys/queue.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ev.h>

#include "proxy-int.h"

#define WORKERS_MAX	64

/* One pair's handover, from the side's loop to a worker and back. */
struct wjob {
	TAILQ_ENTRY(wjob)	 entry;
	struct proxy_workers	*ws;
	struct worker		*w;		/* NULL: on the main loop */
	struct proxy_pair	*pair;		/* the owning loop's only */
	char			*name;
	int			 qfd, nfd;
	SSL			*ssl;
	int			 sent_header;
	size_t			 bufsize;
	double			 idle;
	uint64_t		*stat_q2n, *stat_n2q;
	proxy_worker_done_cb	 done;
	void			*arg;
};
TAILQ_HEAD(wjob_list, wjob);

struct worker {
	struct proxy_workers	*ws;
	unsigned		 id;
	pthread_t		 thread;
	struct ev_loop		*loop;
	ev_async		 wake;
	pthread_mutex_t		 lock;		/* inbox, stop */
	struct wjob_list	 inbox;
	int			 stop;
	struct wjob_list	 live;		/* the worker's own */
	unsigned		 npairs;	/* the main loop's count */
};

struct proxy_workers {
	struct ev_loop		*loop;		/* the main loop */
	unsigned		 max;
	unsigned		 nworkers;	/* started */
	struct worker		*w[WORKERS_MAX];
	ev_async		 done_async;
	int			 done_ref;	/* keeps the main loop running */
	pthread_mutex_t		 lock;		/* outbox */
	struct wjob_list	 outbox;
	struct wjob_list	 inline_live;	/* N = 0: pairs on the main loop */
	unsigned		 outstanding;	/* on workers, not yet done */
};

unsigned
proxy_workers_default(void)
{
	const char	*env = getenv("QMIGRATE_PROXY_WORKERS");
	char		*end;
	long		 n;

	if (env != NULL && *env != '\0') {
		n = strtol(env, &end, 10);
		if (*end == '\0' && n >= 0)
			return n > WORKERS_MAX ? WORKERS_MAX : (unsigned)n;
		proxy_log(PROXY_LOG_WARN, "QMIGRATE_PROXY_WORKERS=%s: not a "
		    "number of workers, ignored", env);
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > WORKERS_MAX ? WORKERS_MAX : (unsigned)n;
}

static void
wjob_free(struct wjob *j)
{
	free(j->name);
	free(j);
}

/*
 * The main loop's side of a pair's end: the job's done callback, and the
 * main loop may end once no pair is left on the workers.
 */
static void
workers_done_one(struct proxy_workers *ws, struct wjob *j)
{
	if (j->w != NULL) {
		j->w->npairs--;
		ws->outstanding--;
	}
	j->done(j->arg);
	wjob_free(j);
}

/* Keeps the main loop alive while pairs run on workers (as their own
 * watchers did when they ran on it). */
static void
workers_ref_update(struct proxy_workers *ws)
{
	if (ws->outstanding > 0 && !ws->done_ref) {
		ev_ref(ws->loop);
		ws->done_ref = 1;
	} else if (ws->outstanding == 0 && ws->done_ref) {
		ev_unref(ws->loop);
		ws->done_ref = 0;
	}
}

/* Main loop: takes what the workers finished and calls its callbacks. */
static void
workers_drain_outbox(struct proxy_workers *ws)
{
	struct wjob_list	 ended;
	struct wjob		*j;

	TAILQ_INIT(&ended);
	pthread_mutex_lock(&ws->lock);
	TAILQ_CONCAT(&ended, &ws->outbox, entry);
	pthread_mutex_unlock(&ws->lock);
	while ((j = TAILQ_FIRST(&ended)) != NULL) {
		TAILQ_REMOVE(&ended, j, entry);
		workers_done_one(ws, j);
	}
	workers_ref_update(ws);
}

static void
workers_done_cb(struct ev_loop *loop, ev_async *a, int revents)
{
	struct proxy_workers *ws = container_of(a, struct proxy_workers,
	    done_async);

	workers_drain_outbox(ws);
}

/* A pair ended on worker j->w (its thread): hand the job back. */
static void
worker_pair_done(struct proxy_pair *p, void *arg)
{
	struct wjob		*j = arg;
	struct worker		*w = j->w;
	struct proxy_workers	*ws = w->ws;

	TAILQ_REMOVE(&w->live, j, entry);
	j->pair = NULL;
	pthread_mutex_lock(&ws->lock);
	TAILQ_INSERT_TAIL(&ws->outbox, j, entry);
	pthread_mutex_unlock(&ws->lock);
	ev_async_send(ws->loop, &ws->done_async);
}

/* A pair ended on the main loop (N = 0): its callback at once. */
static void
inline_pair_done(struct proxy_pair *p, void *arg)
{
	struct wjob *j = arg;

	TAILQ_REMOVE(&j->ws->inline_live, j, entry);
	j->pair = NULL;
	workers_done_one(j->ws, j);
}

static void
worker_start_pair(struct worker *w, struct wjob *j)
{
	TAILQ_INSERT_TAIL(&w->live, j, entry);
	j->pair = proxy_pair_new(w->loop, j->name, (int)w->id, j->qfd, j->nfd, j->ssl,
	    j->sent_header, j->bufsize, j->idle, j->stat_q2n, j->stat_n2q,
	    worker_pair_done, j);
}

/*
 * Worker loop: the inbox's new pairs start here; told to stop, it closes
 * its pairs (each hands its job back) and leaves the loop.
 */
static void
worker_wake_cb(struct ev_loop *loop, ev_async *a, int revents)
{
	struct worker		*w = container_of(a, struct worker, wake);
	struct wjob_list	 jobs;
	struct wjob		*j;
	int			 stop;

	TAILQ_INIT(&jobs);
	pthread_mutex_lock(&w->lock);
	TAILQ_CONCAT(&jobs, &w->inbox, entry);
	stop = w->stop;
	pthread_mutex_unlock(&w->lock);
	while ((j = TAILQ_FIRST(&jobs)) != NULL) {
		TAILQ_REMOVE(&jobs, j, entry);
		worker_start_pair(w, j);
	}
	if (!stop)
		return;
	while ((j = TAILQ_FIRST(&w->live)) != NULL)
		proxy_pair_close(j->pair, "proxy stopping");
	ev_break(loop, EVBREAK_ALL);
}

static void *
worker_main(void *arg)
{
	struct worker *w = arg;

	ev_run(w->loop, 0);
	return NULL;
}

/* Starts worker number ws->nworkers; NULL if the thread cannot start. */
static struct worker *
worker_new(struct proxy_workers *ws)
{
	struct worker	*w;
	sigset_t	 all, old;
	int		 err;

	w = xcalloc(1, sizeof *w);
	w->ws = ws;
	w->id = ws->nworkers;
	TAILQ_INIT(&w->inbox);
	TAILQ_INIT(&w->live);
	pthread_mutex_init(&w->lock, NULL);
	if ((w->loop = ev_loop_new(EVFLAG_AUTO | EVFLAG_NOSIGMASK)) == NULL) {
		proxy_log(PROXY_LOG_WARN, "worker %u: cannot make its event "
		    "loop: pairs stay on the main loop", w->id);
		pthread_mutex_destroy(&w->lock);
		free(w);
		return NULL;
	}
	ev_async_init(&w->wake, worker_wake_cb);
	ev_async_start(w->loop, &w->wake);
	/* The thread inherits a mask blocking every signal. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&w->thread, NULL, worker_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err != 0) {
		proxy_log(PROXY_LOG_WARN, "worker %u: cannot start its thread: "
		    "%s: pairs stay on the running workers", w->id,
		    strerror(err));
		ev_async_stop(w->loop, &w->wake);
		ev_loop_destroy(w->loop);
		pthread_mutex_destroy(&w->lock);
		free(w);
		return NULL;
	}
	ws->w[ws->nworkers++] = w;
	proxy_log(PROXY_LOG_DEBUG, "worker %u: started", w->id);
	return w;
}

struct proxy_workers *
proxy_workers_new(struct ev_loop *loop, unsigned max)
{
	struct proxy_workers *ws;

	ws = xcalloc(1, sizeof *ws);
	ws->loop = loop;
	ws->max = max > WORKERS_MAX ? WORKERS_MAX : max;
	pthread_mutex_init(&ws->lock, NULL);
	TAILQ_INIT(&ws->outbox);
	TAILQ_INIT(&ws->inline_live);
	ev_async_init(&ws->done_async, workers_done_cb);
	ev_async_start(loop, &ws->done_async);
	/* Idle, the pool does not keep the loop running. */
	ev_unref(loop);
	return ws;
}

void
proxy_workers_set_max(struct proxy_workers *ws, unsigned max)
{
	ws->max = max > WORKERS_MAX ? WORKERS_MAX : max;
}

/*
 * The worker for the next pair: the running one with the fewest pairs,
 * unless all have one and another may start.  NULL: the main loop.
 */
static struct worker *
workers_pick(struct proxy_workers *ws)
{
	struct worker	*best = NULL;
	unsigned	 i;

	for (i = 0; i < ws->nworkers; i++) {
		if (best == NULL || ws->w[i]->npairs < best->npairs)
			best = ws->w[i];
	}
	if ((best == NULL || best->npairs > 0) && ws->nworkers < ws->max) {
		struct worker *w = worker_new(ws);

		if (w != NULL)
			return w;
	}
	return best;
}

unsigned
proxy_workers_pair(struct proxy_workers *ws, const char *name, int qfd,
    int nfd, SSL *nssl, int sent_header, size_t bufsize, double idle,
    uint64_t *stat_q2n, uint64_t *stat_n2q, proxy_worker_done_cb done,
    void *arg)
{
	struct wjob	*j;
	struct worker	*w;

	j = xcalloc(1, sizeof *j);
	j->ws = ws;
	j->name = xstrdup(name);
	j->qfd = qfd;
	j->nfd = nfd;
	j->ssl = nssl;
	j->sent_header = sent_header;
	j->bufsize = bufsize;
	j->idle = idle;
	j->stat_q2n = stat_q2n;
	j->stat_n2q = stat_n2q;
	j->done = done;
	j->arg = arg;
	if ((w = workers_pick(ws)) == NULL) {
		TAILQ_INSERT_TAIL(&ws->inline_live, j, entry);
		j->pair = proxy_pair_new(ws->loop, name, -1, qfd, nfd, nssl,
		    sent_header, bufsize, idle, stat_q2n, stat_n2q,
		    inline_pair_done, j);
		return 0;
	}
	j->w = w;
	w->npairs++;
	ws->outstanding++;
	workers_ref_update(ws);
	pthread_mutex_lock(&w->lock);
	TAILQ_INSERT_TAIL(&w->inbox, j, entry);
	pthread_mutex_unlock(&w->lock);
	ev_async_send(w->loop, &w->wake);
	return w->id + 1;
}

void
proxy_workers_free(struct proxy_workers *ws)
{
	struct worker	*w;
	struct wjob	*j;
	unsigned	 i;

	if (ws == NULL)
		return;
	while ((j = TAILQ_FIRST(&ws->inline_live)) != NULL)
		proxy_pair_close(j->pair, "proxy stopping");
	for (i = 0; i < ws->nworkers; i++) {
		w = ws->w[i];
		pthread_mutex_lock(&w->lock);
		w->stop = 1;
		pthread_mutex_unlock(&w->lock);
		ev_async_send(w->loop, &w->wake);
	}
	for (i = 0; i < ws->nworkers; i++) {
		w = ws->w[i];
		pthread_join(w->thread, NULL);
		ev_async_stop(w->loop, &w->wake);
		ev_loop_destroy(w->loop);
		pthread_mutex_destroy(&w->lock);
	}
	/* Every pair has ended: their callbacks, on this thread. */
	workers_drain_outbox(ws);
	for (i = 0; i < ws->nworkers; i++)
		free(ws->w[i]);
	if (!ws->done_ref)
		ev_ref(ws->loop);
	ev_async_stop(ws->loop, &ws->done_async);
	pthread_mutex_destroy(&ws->lock);
	free(ws);
}
