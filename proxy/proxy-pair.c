/*
 * proxy-pair.c: forwarding one connection pair, QEMU's plain unix socket on
 * one side and the network (TLS or plain TCP) on the other: the engine.
 * How the bytes move is a transport's business (proxy-pair.h): TLS
 * records sealed and opened in place (proxy-pair-record.c) when the
 * connection allows, else linear buffers, through OpenSSL or straight
 * (proxy-pair-plain.c).
 *
 * Each direction is bounded: a side is read only while the direction it
 * fills has room, so a slow reader stops a fast writer instead of growing
 * memory (relayd's relay.c).  End of stream is forwarded as a half close
 * (TLS close_notify or shutdown(SHUT_WR)); an error or an unclean TLS end
 * tears down both sides at once so both QEMUs see the close.  All teardown
 * goes through pair_finish() with a reason that is logged.
 *
 * Each end remembers whether it may still have bytes to read and room to
 * write (until a call says EAGAIN or moves less than asked), so that a
 * pump round makes no system call bound to fail, and the watcher asks the
 * loop only for what would let more move.
 */
#include <stdlib.h>
#include <unistd.h>

#include <ev.h>

#include "proxy-pair.h"

static void	pair_finish(struct proxy_pair *);

/* Direction i may read from end[i]: it has room, and bytes may come. */
static int
pair_can_fill(struct proxy_pair *p, int i)
{
	struct pair_end *src = &p->end[i];

	return !src->rd_eof && (src->readable || (p->tp->buffered != NULL &&
	    p->tp->buffered(p, i))) && p->tp->room(p, i);
}

/* Asks the loop for the events that would let more move through e. */
static void
end_update(struct proxy_pair *p, int i)
{
	struct pair_end	*e = &p->end[i];
	int		 ev = 0;

	if (!e->rd_eof && !e->readable && p->tp->room(p, i))
		ev |= e->rd_ev;
	if ((p->tp->pending(p, !i) || e->shut_pending) && !e->writable)
		ev |= e->wr_ev;
	if (ev == e->io_events)
		return;
	ev_io_stop(p->loop, &e->io);
	e->io_events = ev;
	if (ev != 0) {
		ev_io_set(&e->io, e->fd, ev);
		ev_io_start(p->loop, &e->io);
	}
}

/*
 * Moves bytes until nothing more can move without waiting, then asks the
 * loop for exactly the readiness that would let more move.
 */
static void
pair_pump(struct proxy_pair *p)
{
	enum io_result	r;
	int		i, progress;

	p->in_pump = 1;
	do {
		progress = 0;
		for (i = 0; i < 2; i++) {
			struct pair_end	*src = &p->end[i], *dst = &p->end[!i];

			if (pair_can_fill(p, i)) {
				r = p->tp->fill(p, i);
				if (r == IO_ERROR)
					goto out;
				if (r == IO_EOF) {
					proxy_log(PROXY_LOG_DEBUG,
					    "%s: %s sent end of stream",
					    p->name, src->what);
					src->rd_eof = 1;
				}
				if (r != IO_BLOCKED)
					progress = 1;
			}
			if (p->tp->pending(p, i) && dst->writable) {
				r = p->tp->drain(p, i);
				if (r == IO_ERROR)
					goto out;
				if (r == IO_PROGRESS)
					progress = 1;
			}
			if (src->rd_eof && !p->tp->pending(p, i) &&
			    !dst->wr_shut &&
			    (dst->writable || !dst->shut_pending)) {
				r = p->tp->shutdown(p, !i);
				if (r == IO_ERROR)
					goto out;
				if (r == IO_PROGRESS)
					progress = 1;
			}
		}
		if (progress && p->idle_timeout > 0)
			ev_timer_again(p->loop, &p->idle);
	} while (progress && !p->closing);
	if (!p->closing && p->end[0].rd_eof && p->end[1].rd_eof &&
	    p->end[0].wr_shut && p->end[1].wr_shut &&
	    !p->tp->pending(p, END_QEMU) && !p->tp->pending(p, END_NET))
		proxy_pair_close(p, "both sides closed");
	if (!p->closing) {
		end_update(p, 0);
		end_update(p, 1);
	}
out:
	p->in_pump = 0;
	if (p->closing)
		pair_finish(p);
}

static void
pair_io_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct pair_end *e = container_of(w, struct pair_end, io);

	if (revents & e->rd_ev)
		e->readable = 1;
	if (revents & e->wr_ev)
		e->writable = 1;
	pair_pump(e->pair);
}

static void
pair_idle_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct proxy_pair	*p = container_of(w, struct proxy_pair, idle);
	char			*reason;

	set_cause(&reason, "no data for %.0f s (idle timeout)",
	    p->idle_timeout);
	proxy_pair_close(p, reason);
	free(reason);
}

struct proxy_pair *
proxy_pair_new(struct ev_loop *loop, const char *name, int worker, int qfd,
    int nfd, SSL *nssl, int sent_header, size_t bufsize, double idle,
    uint64_t *stat_q2n, uint64_t *stat_n2q, proxy_pair_done_cb done,
    void *arg)
{
	struct proxy_pair	*p;
	char			*why = NULL;
	int			 i;

	p = xcalloc(1, sizeof *p);
	p->loop = loop;
	p->name = xstrdup(name);
	p->cap = bufsize;
	p->idle_timeout = idle;
	p->started = now_monotonic();
	p->stat[END_QEMU] = stat_q2n;
	p->stat[END_NET] = stat_n2q;
	p->done = done;
	p->done_arg = arg;
	p->end[END_QEMU].fd = qfd;
	p->end[END_QEMU].what = "qemu";
	p->end[END_NET].fd = nfd;
	p->end[END_NET].what = "peer";
	for (i = 0; i < 2; i++) {
		p->end[i].pair = p;
		p->end[i].readable = p->end[i].writable = 1;
		p->end[i].rd_ev = EV_READ;
		p->end[i].wr_ev = EV_WRITE;
		ev_io_init(&p->end[i].io, pair_io_cb, p->end[i].fd, 0);
	}
	if (nssl == NULL)
		proxy_pair_plain_start(p, NULL);
	else if (proxy_pair_record_start(p, nssl, sent_header, &why) != 0) {
		proxy_log(PROXY_LOG_DEBUG, "%s: OpenSSL carries the records: "
		    "%s", p->name, why);
		free(why);
		proxy_pair_plain_start(p, nssl);
	}
	ev_init(&p->idle, pair_idle_cb);
	p->idle.repeat = idle;
	if (idle > 0)
		ev_timer_again(loop, &p->idle);
	if (worker >= 0)
		proxy_log(PROXY_LOG_INFO, "%s: forwarding on worker %d",
		    p->name, worker);
	else
		proxy_log(PROXY_LOG_INFO, "%s: forwarding", p->name);
	/* The first pump runs from the loop: the caller gets a live pair. */
	ev_feed_event(loop, &p->end[END_NET].io, EV_READ);
	return p;
}

void
proxy_pair_close(struct proxy_pair *p, const char *reason)
{
	if (p->closing)
		return;
	p->closing = 1;
	p->close_reason = xstrdup(reason);
	if (!p->in_pump)
		pair_finish(p);
}

/* The one teardown: log, stop watchers, free TLS, close fds, tell owner. */
static void
pair_finish(struct proxy_pair *p)
{
	int i;

	proxy_log(PROXY_LOG_INFO, "%s: closed: %s (%llu bytes from qemu, "
	    "%llu bytes from peer, %.1f s)", p->name, p->close_reason,
	    (unsigned long long)p->total[END_QEMU],
	    (unsigned long long)p->total[END_NET],
	    now_monotonic() - p->started);
	ev_timer_stop(p->loop, &p->idle);
	for (i = 0; i < 2; i++)
		ev_io_stop(p->loop, &p->end[i].io);
	p->tp->free(p);
	for (i = 0; i < 2; i++)
		close(p->end[i].fd);
	if (p->done != NULL)
		p->done(p, p->done_arg);
	free(p->close_reason);
	free(p->name);
	free(p);
}
