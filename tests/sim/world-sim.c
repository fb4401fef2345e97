/*
 * world-sim.c: lib/world.h's ops for the simulator (real.h).  A side's
 * fiber calls them; loop_turn hands control back to the scheduler
 * (real.c), which resumes the fiber with its due timers, a signal, or
 * bytes on its monitor sockets.  QEMU's ends of those sockets are read
 * and answered here by the world's QEMU (world-qemu.h).
 */
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "common.h"
#include "world.h"
#include "fiber.h"
#include "real.h"

#define QEMU_PID(which)	((pid_t)(4000 + (which)))
#define QEMU_START	777ULL

static const char *monitor_path[2] = { "/sim/src.qmp", "/sim/tgt.qmp" };

void
r_trace(int side, const char *fmt, ...)
{
	va_list ap;

	if (!R.trace)
		return;
	fprintf(stderr, "%9.3f %s ", R.now, side == R_SRC ? "src" :
	    side == R_TGT ? "tgt" : "   ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static double
sim_now(void)
{
	return R.now;
}

static double
sim_now_real(void)
{
	return 1.8e9 + R.now;
}

static void
sim_timer_stop(struct ev_loop *loop, ev_timer *t)
{
	int i, j;

	(void)loop;
	for (i = 0; i < R.ntimers; i++)
		if (R.timers[i].t == t) {
			R.timers[i] = R.timers[--R.ntimers];
			break;
		}
	/* One already handed to its side but not fired yet is stopped too. */
	for (i = 0; i < 2; i++)
		for (j = 0; j < R.sd[i].ndue; j++)
			if (R.sd[i].due_timers[j].t == t)
				R.sd[i].due_timers[j].t = NULL;
}

static void
sim_timer_start(struct ev_loop *loop, ev_timer *t)
{
	struct r_timer *rt;

	sim_timer_stop(loop, t);
	if (R.ntimers == R_MAX_TIMERS)
		fatalx("sim: too many timers");
	rt = &R.timers[R.ntimers++];
	rt->t = t;
	rt->loop = loop;
	rt->side = R.cur;
	/* Before the start, t->at is ev_timer_set's "after". */
	rt->due = R.now + (t->at > 0 ? t->at : 0);
	rt->seq = ++R.seq;
}

static int invoked;

/*
 * No watcher takes the signal: its default action, the process ends.  Its
 * sockets close (QEMU's ends see EOF), its timers and watchers go; the
 * fiber is never resumed (what it holds is left, as a killed process's
 * memory is).
 */
static void
die_by_signal(int side, int signum)
{
	struct r_side	*sd = &R.sd[side];

	r_trace(side, "killed by signal %d (no handler)", signum);
	sd->done = 1;
	sd->died_by = signum;
	sd->rc = 128 + signum;
	sd->end_t = R.now;
	world_sim_side_gone(side);
	for (;;)
		fiber_yield();
}

/*
 * A side's process ends without a word: its sockets close (QEMU's ends
 * see EOF), its timers and signal watchers go.  Its fiber is abandoned,
 * never resumed, what it holds left as a killed process's memory is.
 */
void
world_sim_side_gone(int side)
{
	int i;

	for (i = 0; i < R_MAX_CONNS; i++)
		if (R.conns[i].used && R.conns[i].side == side) {
			close(R.conns[i].client);
			R.conns[i].client = -1;
			R.conns[i].drained = 0;	/* EOF to read */
		}
	for (i = 0; i < R.ntimers; )
		if (R.timers[i].side == side)
			R.timers[i] = R.timers[--R.ntimers];
		else
			i++;
	for (i = 0; i < R.nsigs; )
		if (R.sigs[i].side == side)
			R.sigs[i] = R.sigs[--R.nsigs];
		else
			i++;
	for (i = 0; i < R.sd[side].ndue; i++)
		R.sd[side].due_timers[i].t = NULL;
	R.sd[side].ndue = 0;
	R.sd[side].signal = 0;
	rt_side_gone(side);	/* its proxy went with it (tls:) */
}

/*
 * libev's pending watchers after the poll, counted: a turn that ran any
 * asks for one more.  An iteration with prepare watchers (output.c's)
 * invokes them first, before its poll: only its last batch counts, the
 * one with what the poll found.
 */
static void
sim_invoke_pending(struct ev_loop *loop)
{
	invoked = ev_pending_count(loop);
	ev_invoke_pending(loop);
}

/*
 * One turn of a side's loop: back to the scheduler, then what it handed
 * over: readiness first (libev's, on the socketpairs), then the timers
 * and the signal, in the order the scheduler found them due.  A turn in
 * which libev found anything to do (a write flushed, a line read) leaves
 * the side due for another: what it did may have queued more output.
 */
void
world_sim_turn(struct ev_loop *loop)
{
	struct r_side	*sd = &R.sd[R.cur];
	int		 side = R.cur, i, n;

	ev_set_invoke_pending_cb(loop, sim_invoke_pending);
	fiber_yield();
	R.cur = side;
	sd->turns++;
	invoked = 0;
	ev_run(loop, EVRUN_NOWAIT);
	if (invoked > 0)
		sd->dirty = 1;
	n = sd->ndue;
	for (i = 0; i < n && i < sd->ndue; i++) {
		struct r_timer rt = sd->due_timers[i];

		if (rt.t == NULL || rt.loop != loop)
			continue;
		sd->due_timers[i].t = NULL;
		if (rt.t->repeat > 0) {
			rt.t->at = rt.t->repeat;
			sim_timer_start(loop, rt.t);
		}
		rt.t->cb(loop, rt.t, EV_TIMER);
		sd->dirty = 1;	/* its output is flushed at the next turn */
	}
	sd->ndue = 0;
	if (sd->signal != 0) {
		int signum = sd->signal;

		sd->signal = 0;
		for (i = 0; i < R.nsigs; i++)
			if (R.sigs[i].side == side && R.sigs[i].s->signum ==
			    signum)
				break;
		if (i == R.nsigs)
			die_by_signal(side, signum);	/* never returns */
		if (R.sigs[i].loop == loop) {
			R.sigs[i].s->cb(loop, R.sigs[i].s, EV_SIGNAL);
			sd->dirty = 1;
		} else
			sd->signal = signum;	/* its own loop's turn */
	}
}

static void
sim_loop_break(struct ev_loop *loop)
{
	(void)loop;	/* mig_watch_run ends on w->stop by itself */
}

static void
sim_signal_start(struct ev_loop *loop, ev_signal *s)
{
	if (R.nsigs == R_MAX_SIGS)
		fatalx("sim: too many signal watchers");
	R.sigs[R.nsigs].s = s;
	R.sigs[R.nsigs].loop = loop;
	R.sigs[R.nsigs].side = R.cur;
	R.nsigs++;
}

static void
sim_signal_stop(struct ev_loop *loop, ev_signal *s)
{
	int i;

	(void)loop;
	for (i = 0; i < R.nsigs; i++)
		if (R.sigs[i].s == s) {
			R.sigs[i] = R.sigs[--R.nsigs];
			return;
		}
}

static int
which_qemu(const char *path)
{
	int i;

	for (i = 0; i < 2; i++)
		if (strcmp(path, monitor_path[i]) == 0)
			return i;
	return -1;
}

/* A monitor socket: QEMU greets each client at once. */
static int
sim_connect_unix(const char *path, int flags, char **cause)
{
	struct r_conn	*c = NULL;
	char		*greeting;
	int		 which = which_qemu(path), sv[2], i;

	if (which < 0 || !wq_alive(R.q[which]) || rm_refused(which)) {
		int e = which < 0 ? ENOENT : ECONNREFUSED;

		set_cause(cause, "%s: connect: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	for (i = 0; i < R_MAX_CONNS && c == NULL; i++)
		if (!R.conns[i].used)
			c = &R.conns[i];
	if (c == NULL)
		fatalx("sim: too many monitor connections");
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC |
	    (flags & SOCK_NONBLOCK), 0, sv) == -1)
		fatal("sim: socketpair");
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	memset(c, 0, sizeof *c);
	c->used = 1;
	c->side = R.cur;
	c->qemu = which;
	c->client = sv[0];
	c->srv = sv[1];
	c->gen = ++R.conn_gen[which];
	greeting = wq_greeting(R.q[which]);
	if (write(c->srv, greeting, strlen(greeting)) < 0)
		fatal("sim: greeting");
	free(greeting);
	R.sd[c->side].dirty = 1;
	r_trace(c->side, "connect %s", path);
	return sv[0];
}

static pid_t
sim_peer_pid(int fd)
{
	int i;

	for (i = 0; i < R_MAX_CONNS; i++)
		if (R.conns[i].used && R.conns[i].client == fd)
			return QEMU_PID(R.conns[i].qemu);
	return 0;
}

static unsigned long long
sim_process_start(pid_t pid)
{
	int which = pid - QEMU_PID(0);

	/* The process, not its monitor: cpr-exec's keeps its pid. */
	if (which < 0 || which > 1 || !wq_process_alive(R.q[which]))
		return 0;
	return QEMU_START;
}

static int
sim_process_exists(pid_t pid)
{
	/* A qmigrate switchover that waits for its answer (it is this
	   process: the request names getpid()). */
	if (pid == getpid())
		return rs_asker_waits();
	return sim_process_start(pid) != 0;
}

/*
 * The target QEMU's accept queue (sock_diag's count in production): a
 * source that connected before the path went and that the model's QEMU
 * has not taken yet (its "accepted" row comes a main-loop turn later).
 * Seed 2019835 at fb37ba0: this said 0 while the source waited there,
 * and the target exited 5 "no source can reach it" as the guest came.
 */
static long
sim_listen_backlog(const char *path, char **cause)
{
	(void)cause;
	return wq_accept_queued(R.q[R_TGT], path);
}

static struct r_file *file_at(const char *, int);

/* The target QEMU's socket path (SA_UNLISTEN): gone, no source reaches
   it any more; a file the world holds (a switchover request) is removed;
   any other path the executor removes is not modelled. */
static int
sim_unlink(const char *path)
{
	struct r_file *f;

	if (strcmp(path, "/sim/mig.sock") != 0 &&
	    strcmp(path, rt_target_socket()) != 0) {
		if ((f = file_at(path, 0)) == NULL)
			return 0;
		if (f->data == NULL) {
			errno = ENOENT;
			return -1;
		}
		free(f->data);
		f->data = NULL;
		f->len = 0;
		return 0;
	}
	if (wq_unlink(R.q[R_TGT], path) != 0) {
		errno = ENOENT;
		return -1;
	}
	r_trace(R.cur >= 0 ? R.cur : R_TGT, "unlink %s", path);
	return 0;
}

static struct r_file *
file_at(const char *path, int create)
{
	int i;

	for (i = 0; i < R_MAX_FILES; i++)
		if (R.files[i].path[0] != '\0' &&
		    strcmp(R.files[i].path, path) == 0)
			return &R.files[i];
	if (!create)
		return NULL;
	for (i = 0; i < R_MAX_FILES; i++)
		if (R.files[i].path[0] == '\0') {
			snprintf(R.files[i].path, sizeof R.files[i].path,
			    "%s", path);
			return &R.files[i];
		}
	fatalx("sim: too many files");
}

const struct r_file *
world_sim_file(const char *path)
{
	return file_at(path, 0);
}

/* A file the world holds from the start (a QEMU's /proc/PID/cmdline). */
void
world_sim_put_file(const char *path, const char *data, size_t len)
{
	struct r_file *f = file_at(path, 1);

	free(f->data);
	f->data = xmalloc(len + 1);
	memcpy(f->data, data, len);
	f->data[len] = '\0';
	f->len = len;
}

static int
sim_file_exists(const char *path)
{
	struct r_file *f = file_at(path, 0);

	return f != NULL && f->data != NULL;
}

static char *
sim_read_file(const char *path, size_t limit, size_t *len)
{
	struct r_file	*f = file_at(path, 0);
	char		*buf;

	if (f == NULL || f->data == NULL) {
		errno = ENOENT;
		return NULL;
	}
	if (f->len > limit) {
		errno = EFBIG;
		return NULL;
	}
	buf = xmalloc(f->len + 1);
	memcpy(buf, f->data, f->len);
	buf[f->len] = '\0';
	*len = f->len;
	return buf;
}

/*
 * A full filesystem that still has a block free: update --mode exec's
 * schedules (only theirs, and no draw: the other kinds' schedules stay
 * as they were).  A write that fits there succeeds (the update marker,
 * about 120 bytes) while every status document (2 KiB and more) fails:
 * the re-run then finds the marker and no record, the class of sim-real
 * --update-exec seeds 2821 3684 6016968 6020198 6026378 (tests/sim/
 * README.md, "no record at all").  A marker's write still fails at
 * random (p_write_fail).
 */
#define R_FULL_ROOM	1024

static int
full_room(enum world_write how, size_t len)
{
	return how != WORLD_WRITE_PROBE && len <= R_FULL_ROOM && ru_on();
}

/*
 * A full disk now and then: the write fails, the old document stays
 * (full_room: a small one may fit).  A create finds a file there as
 * link(2) does.
 */
static int
sim_write_file(const char *path, const char *data, size_t len,
    enum world_write how, char **cause)
{
	struct r_file *f;

	if (how != WORLD_WRITE_PROBE)
		rs_doc_attempted(path, data, len);
	if (r_dump != NULL && how != WORLD_WRITE_PROBE)
		fprintf(r_dump, "write %s %zu\n%.*s\n", path, len, (int)len,
		    data);
	if ((R.k.p_write_fail > 0 && rng_chance(&R.rng, R.k.p_write_fail)) ||
	    (((R.now >= R.k.full_from && R.now < R.k.full_until) ||
	    rf_disk_full()) && !full_room(how, len))) {
		R.write_fails++;
		rp_write_failed(path);
		ru_marker_write(path, 0);
		xasprintf(cause, "%s.tmp.1: No space left on device", path);
		errno = ENOSPC;
		return -1;
	}
	if (how == WORLD_WRITE_PROBE)
		return 0;
	if (how == WORLD_WRITE_CREATE && sim_file_exists(path)) {
		xasprintf(cause, "%s: exists", path);
		errno = EEXIST;
		return -1;
	}
	f = file_at(path, 1);
	free(f->data);
	f->data = xmalloc(len + 1);
	memcpy(f->data, data, len);
	f->data[len] = '\0';
	f->len = len;
	f->writes++;
	ru_marker_write(path, 1);
	rs_doc_written(path, f->data);
	return 0;
}

/*
 * A write refused this many times in a row within one turn of its side
 * is a process that waits for its reader in write(2) (asleep or busy, the
 * same to its loop): output.c's never retries within a turn more than
 * once a line, far fewer than this.
 */
#define R_BLOCKED_AFTER	100000

/* The stream whose write end fd is, or -1. */
static int
out_stream(int fd)
{
	int i;

	for (i = 0; i < 2; i++)
		if (fd >= 0 && R.out[i].wr == fd)
			return i;
	return -1;
}

/*
 * stdout and stderr: what the reader's socket takes now, never waiting
 * (world_kernel's write: MSG_DONTWAIT); EAGAIN while the reader does not
 * read, EPIPE once it closed.  A caller that asks again and again within
 * one turn sleeps, as in write(2), until the reader takes bytes.
 */
static ssize_t
sim_write(int fd, const void *buf, size_t len)
{
	int		 i = out_stream(fd), side = R.cur;
	struct r_out	*o;
	ssize_t		 n;

	if (i < 0)
		return (ssize_t)len;	/* nothing else is read */
	o = &R.out[i];
	n = send(fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
	if (n > 0)
		o->unread = 1;
	if (n >= 0 || errno != EAGAIN || side < 0) {
		o->refused = 0;
		return n;
	}
	o->waiting = 1;
	if (o->side != side || o->turn != R.sd[side].turns) {
		o->side = side;
		o->turn = R.sd[side].turns;
		o->refused = 0;
	}
	if (++o->refused >= R_BLOCKED_AFTER) {
		r_trace(side, "asleep in write(2) on %s: its reader does not "
		    "read", i == R_OUT_STDOUT ? "stdout" : "stderr");
		R.sd[side].write_blocked = i + 1;
		while (R.sd[side].write_blocked)
			fiber_yield();
		R.cur = side;
		o->refused = 0;
	}
	errno = EAGAIN;
	return -1;
}

/* The sides' log lines, as the reader of stderr gets them. */
static void
out_lines(struct r_out *o, const char *p, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++) {
		if (p[k] != '\n') {
			if (o->nline < sizeof o->line)
				o->line[o->nline++] = p[k];
			continue;
		}
		if (R.trace)
			fprintf(stderr, "%.*s\n", (int)o->nline, o->line);
		r_log_line(o->line, o->nline);
		o->nline = 0;
	}
}

/* The reader reads what there is, unless it stopped; writers it kept
 * waiting go on. */
static void
out_read(int i)
{
	struct r_out	*o = &R.out[i];
	char		 buf[16384];
	ssize_t		 n;
	int		 took = 0, j;

	if (o->rd < 0 || o->stopped || !o->unread)
		return;
	/* A short read emptied the socket (one process: no writer
	   between): no read(2) left to say EAGAIN. */
	do {
		if ((n = read(o->rd, buf, sizeof buf)) <= 0)
			break;
		if (r_dump != NULL && !took)
			fprintf(r_dump, "%s\n", i == R_OUT_STDOUT ? "stdout" :
			    "stderr");
		if (r_dump != NULL)
			fwrite(buf, 1, (size_t)n, r_dump);
		took = 1;
		if (i == R_OUT_STDERR)
			out_lines(o, buf, (size_t)n);
	} while ((size_t)n == sizeof buf);
	if (r_dump != NULL && took)
		fputc('\n', r_dump);
	o->unread = 0;
	if (!took || !o->waiting)
		return;
	o->waiting = 0;
	for (j = 0; j < 2; j++) {
		if (R.sd[j].write_blocked == i + 1)
			R.sd[j].write_blocked = 0;
		if (!R.sd[j].done)
			R.sd[j].dirty = 1;	/* output.c's queue */
	}
}

static int devnull = -1;

/* A schedule's stdout and stderr: a pipe's buffer each, which a reader
 * that stops fills (then output.c queues, then drops and counts). */
void
world_sim_out_open(void)
{
	int i, sv[2], small = 65536;	/* a pipe's */

	for (i = 0; i < 2; i++) {
		struct r_out *o = &R.out[i];

		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
		    sv) == -1)
			fatal("sim: socketpair");
		if (setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &small,
		    sizeof small) == -1)
			fatal("sim: SO_SNDBUF");
		fcntl(sv[1], F_SETFL, O_NONBLOCK);
		o->wr = sv[0];
		o->rd = sv[1];
		o->unread = 0;
	}
	out_reset(R.out[R_OUT_STDOUT].wr, R.out[R_OUT_STDERR].wr);
}

void
world_sim_out_close(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		out_read(i);
		if (R.out[i].rd >= 0)
			close(R.out[i].rd);
		close(R.out[i].wr);
		R.out[i].rd = R.out[i].wr = -1;
	}
	if (devnull < 0 && (devnull = open("/dev/null", O_WRONLY |
	    O_CLOEXEC)) == -1)
		fatal("sim: /dev/null");
	out_reset(devnull, devnull);
}

/* When a reader next stops, reads again or closes (1e300: never). */
double
world_sim_out_due(void)
{
	double	t = 1e300;
	int	i;

	for (i = 0; i < 2; i++) {
		const struct r_out *o = &R.out[i];

		if (o->stop_at > 0)
			t = fmin(t, o->stop_at);
		if (o->resume_at > 0)
			t = fmin(t, o->resume_at);
		if (o->close_at > 0)
			t = fmin(t, o->close_at);
	}
	return t;
}

void
world_sim_out_happen(void)
{
	int i, j;

	for (i = 0; i < 2; i++) {
		struct r_out	*o = &R.out[i];
		const char	*name = i == R_OUT_STDOUT ? "stdout" :
				    "stderr";

		if (o->stop_at > 0 && o->stop_at <= R.now) {
			o->stop_at = 0;
			o->stopped = 1;
			r_trace(-1, "the reader of %s stops reading", name);
		}
		if (o->resume_at > 0 && o->resume_at <= R.now) {
			o->resume_at = 0;
			o->stopped = 0;
			r_trace(-1, "the reader of %s reads again", name);
		}
		if (o->close_at > 0 && o->close_at <= R.now) {
			o->close_at = 0;
			o->stopped = 1;
			if (o->rd >= 0)
				close(o->rd);
			o->rd = -1;
			r_trace(-1, "the reader of %s closes it", name);
			/* write(2) asleep on it returns EPIPE */
			for (j = 0; j < 2; j++)
				if (R.sd[j].write_blocked == i + 1) {
					R.sd[j].write_blocked = 0;
					R.sd[j].dirty = 1;
				}
		}
	}
}

static int
sim_random_bytes(void *buf, size_t len)
{
	unsigned char	*p = buf;
	size_t		 i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char)rng_next(&R.rng);
	return 0;
}

static const struct world_ops world_sim = {
	.now = sim_now,
	.now_real = sim_now_real,
	.loop_turn = world_sim_turn,
	.loop_break = sim_loop_break,
	.timer_start = sim_timer_start,
	.timer_stop = sim_timer_stop,
	.signal_start = sim_signal_start,
	.signal_stop = sim_signal_stop,
	.connect_unix = sim_connect_unix,
	.peer_pid = sim_peer_pid,
	.process_start = sim_process_start,
	.process_exists = sim_process_exists,
	.listen_backlog = sim_listen_backlog,
	.unlink = sim_unlink,
	.file_exists = sim_file_exists,
	.read_file = sim_read_file,
	.write_file = sim_write_file,
	.write = sim_write,
	.random_bytes = sim_random_bytes,
};

void
world_sim_install(void)
{
	world_set(&world_sim);
}

static void
conn_close(struct r_conn *c)
{
	close(c->srv);
	c->srv = -1;
	R.sd[c->side].dirty = 1;
	c->used = 0;
}

/* QEMU is gone: its monitor connections end (the client sees EOF). */
void
world_sim_kill_qemu(int which)
{
	int i;

	wq_kill(R.q[which]);
	for (i = 0; i < R_MAX_CONNS; i++)
		if (R.conns[i].used && R.conns[i].qemu == which)
			conn_close(&R.conns[i]);
}

/* The monitor cut (real-monitor.c): every connection of QEMU which ends. */
void
world_sim_cut_monitor(int which)
{
	int i;

	for (i = 0; i < R_MAX_CONNS; i++)
		if (R.conns[i].used && R.conns[i].qemu == which)
			conn_close(&R.conns[i]);
}

static void input(struct r_conn *);

/* QEMU which continued (SIGCONT): it reads what waited on its monitor. */
void
world_sim_qemu_continued(int which)
{
	int i;

	for (i = 0; i < R_MAX_CONNS; i++)
		if (R.conns[i].used && R.conns[i].qemu == which) {
			input(&R.conns[i]);
			R.sd[R.conns[i].side].dirty = 1;
		}
}

/*
 * The commands in what the client wrote, to its QEMU: qmp/ writes JSON
 * objects back to back, no newline between (QEMU's parser streams), so
 * they are cut where json-c's tokener ends each one.
 */
static void
input(struct r_conn *c)
{
	static struct json_tokener	*tok;	/* one for all: the pump
						   runs at every turn */
	size_t				 off = 0;

	if (tok == NULL && (tok = json_tokener_new()) == NULL)
		fatalx("sim: json_tokener_new");
	if (rqs_stopped(c->qemu))
		return;		/* it waits in the socket (SIGSTOP) */
	while (off < c->nin) {
		json_object	*o;
		const char	*line;
		size_t		 used;

		json_tokener_reset(tok);
		o = json_tokener_parse_ex(tok, c->in + off, (int)(c->nin -
		    off));
		if (o == NULL)
			break;		/* the rest comes later */
		used = json_tokener_get_parse_end(tok);
		line = json_object_to_json_string(o);
		r_trace(c->side, "> %s", line);
		rm_command(c->qemu);
		if (!rm_dropped(c->qemu, c->gen, c->side) &&
		    !rm_late(c->qemu, c->gen, c->side, line))
			wq_input(R.q[c->qemu], line, R.now);
		json_object_put(o);
		off += used;
	}
	c->nin -= off;
	memmove(c->in, c->in + off, c->nin);
}

/*
 * Queues a line QEMU wrote: in order, each no earlier than the one before
 * it (one connection, one stream), the schedule's held answer later by
 * its hold (the monitor answers past or under qmigrate's 10 s).
 */
static void
hold(int which, char *line)
{
	struct r_held	*h;
	double		 at = R.now;
	int		 n = R.nheld[which];

	/* Behind what this connection still waits for; a connection gone
	   (its qmigrate killed, the monitor cut) holds nothing of a new
	   one's: the relay's held answer went with it. */
	if (n > 0 && R.held[which][n - 1].gen == R.conn_gen[which] &&
	    R.held[which][n - 1].at > at)
		at = R.held[which][n - 1].at;
	if (strncmp(line, "{\"return\"", 9) == 0 ||
	    strncmp(line, "{\"error\"", 8) == 0) {
		if (++R.answers[which] == R.k.hold_k[which]) {
			at += R.k.hold_len[which];
			r_trace(which, "answer %d held %.1f s",
			    R.answers[which], R.k.hold_len[which]);
		}
	}
	if (n == R_MAX_HELD || rm_muted(which, R.conn_gen[which])) {
		free(line);	/* a flood: lost, as a full socket would;
				   or a connection gone mute (real-monitor.c) */
		return;
	}
	h = &R.held[which][R.nheld[which]++];
	h->at = at;
	h->gen = R.conn_gen[which];
	h->line = line;
}

/*
 * Writes the lines due, to the connection each was written on.  Each
 * connection's lines are in order of time; an older connection's, still
 * held, do not hold a newer one's back.
 */
static void
release(int which)
{
	int i, j, n = 0;

	for (i = 0; i < R.nheld[which]; i++) {
		struct r_held *h = &R.held[which][i];

		if (h->at > R.now) {
			R.held[which][n++] = *h;
			continue;
		}
		for (j = 0; j < R_MAX_CONNS; j++) {
			struct r_conn *c = &R.conns[j];

			if (!c->used || c->qemu != which || c->gen != h->gen)
				continue;
			r_trace(c->side, "< %.*s", (int)strlen(h->line) - 2,
			    h->line);
			if (write(c->srv, h->line, strlen(h->line)) < 0)
				conn_close(c);
			else
				R.sd[c->side].dirty = 1;
		}
		free(h->line);
	}
	R.nheld[which] = n;
}

/* When the next held line is due (INFINITY: none). */
double
world_sim_next_release(void)
{
	double	t = 1e300;
	int	i;

	for (i = 0; i < 2; i++) {
		int j;

		if (rqs_stopped(i))
			continue;	/* it writes nothing (SIGSTOP) */
		for (j = 0; j < R.nheld[i]; j++)
			if (R.held[i][j].at < t)
				t = R.held[i][j].at;
	}
	return t;
}

/*
 * Moves bytes between qmigrate and the QEMUs: every command line a
 * client wrote goes to its QEMU, every line a QEMU queued goes to each of
 * its connections (answers and events alike: one client each here).
 */
void
world_sim_pump(void)
{
	int	 i;
	char	*line;

	for (i = 0; i < R_MAX_CONNS; i++) {
		struct r_conn	*c = &R.conns[i];
		ssize_t		 n;

		if (!c->used)
			continue;
		/* Only qmigrate writes to (or closes) the client's end, and
		   only on its fiber: no fiber ran, nothing came. */
		if (c->drained == fiber_resumes() + 1)
			continue;
		for (;;) {
			n = read(c->srv, c->in + c->nin, sizeof c->in - 1 -
			    c->nin);
			if (n <= 0)
				break;
			c->nin += (size_t)n;
		}
		if (n < 0 && errno == EAGAIN)
			c->drained = fiber_resumes() + 1;
		if (n == 0) {
			/* qmigrate closed its end. */
			conn_close(c);
			continue;
		}
		input(c);
	}
	for (i = 0; i < 2; i++)
		out_read(i);
	for (i = 0; i < 2; i++) {
		if (rqs_stopped(i))
			continue;	/* silent (SIGSTOP) */
		while (wq_alive(R.q[i]) && (line = wq_output(R.q[i])) != NULL) {
			rf_qemu_line(i, line);
			rm_qemu_line(i, line);
			hold(i, line);
		}
		release(i);
		if (!wq_alive(R.q[i])) {
			int j;

			while ((line = wq_output(R.q[i])) != NULL)
				free(line);
			for (j = 0; j < R_MAX_CONNS; j++)
				if (R.conns[j].used && R.conns[j].qemu == i)
					conn_close(&R.conns[j]);
		}
	}
}
