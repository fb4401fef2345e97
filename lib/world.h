/*
 * world.h: the one seam between qmigrate's executor and what lies outside
 * its process.  Everything the executor (src/mig-*.c, src/status.c, the
 * qmp/ client) asks of the kernel goes through the ops below: the clock,
 * the loop's turns and timers, signals, a connect to a unix socket and
 * who is at its other end, whether a process still runs, a listener's
 * accept queue, a file read or replaced whole, writes to stdout and
 * stderr, and random bytes.
 *
 * Production sets nothing: the world is libev and the kernel (world.c).
 * The simulator (tests/sim/) sets its own once, before anything runs, and
 * then owns every timer, signal, write and process, in the manner of
 * FoundationDB's INetwork and TigerBeetle's VOPR: the code above the seam
 * is the one users run.  An fd's readiness stays libev's in both worlds:
 * the simulator's monitors are socketpairs, so qmp/ parses the very bytes
 * its QEMU writes.
 */
#ifndef WORLD_H
#define WORLD_H

#include <sys/types.h>

#include <stddef.h>

#include <ev.h>

/* What write_file does with the temporary it wrote and synced. */
enum world_write {
	WORLD_WRITE_PROBE,	/* removes it: path can be written */
	WORLD_WRITE_INSTALL,	/* rename(2) over path: a reader sees the
				   old document or the new, never half */
	WORLD_WRITE_CREATE,	/* link(2) to path: refused while path
				   exists, so of two writers one wins */
};

struct world_ops {
	/* CLOCK_MONOTONIC and CLOCK_REALTIME, in seconds. */
	double	 (*now)(void);
	double	 (*now_real)(void);

	/* One turn of loop: wait for an fd, a timer or a signal; run what
	   is due.  loop_break makes the loop's current turn its last. */
	void	 (*loop_turn)(struct ev_loop *loop);
	void	 (*loop_break)(struct ev_loop *loop);
	/* Starts t as ev_timer_init/ev_timer_set left it: its callback in
	   t->at seconds, then every t->repeat (0: once).  Stopping a timer
	   that is not running does nothing. */
	void	 (*timer_start)(struct ev_loop *loop, ev_timer *t);
	void	 (*timer_stop)(struct ev_loop *loop, ev_timer *t);
	/* s's callback for each of its signal from now on.  signal_stop:
	   the signal is ignored afterwards, never its default action, and
	   none arriving in between kills the process. */
	void	 (*signal_start)(struct ev_loop *loop, ev_signal *s);
	void	 (*signal_stop)(struct ev_loop *loop, ev_signal *s);

	/* lib/common.h's unix_connect: an fd, or -1 with *cause. */
	int	 (*connect_unix)(const char *path, int flags, char **cause);
	/* The pid at the other end of a connected unix socket, 0 if not
	   known. */
	pid_t	 (*peer_pid)(int fd);
	/* The start time of process pid (a number that changes when the pid
	   is reused), or 0 when it is gone or a zombie. */
	unsigned long long (*process_start)(pid_t pid);
	/* 0 when no process pid exists (it was reaped), 1 otherwise. */
	int	 (*process_exists)(pid_t pid);
	/* lib/common.h's unix_listen_backlog. */
	long	 (*listen_backlog)(const char *path, char **cause);
	/* unlink(2): 0, or -1 with errno. */
	int	 (*unlink)(const char *path);

	/* Whether path exists (access(2) F_OK). */
	int	 (*file_exists)(const char *path);
	/* A file read whole: a malloc'd buffer of *len bytes with a NUL
	   after them, or NULL with errno (EFBIG past limit bytes). */
	char	*(*read_file)(const char *path, size_t limit, size_t *len);
	/* Writes data to a temporary beside path and syncs it, then, as
	   how says, renames it over path, links it to path, or removes it
	   (enum world_write), and syncs the directory after a rename or a
	   link.  0, or -1 with errno and *cause naming the
	   file (EEXIST: WORLD_WRITE_CREATE found path there). */
	int	 (*write_file)(const char *path, const char *data, size_t len,
		    enum world_write how, char **cause);
	/* write(2) to stdout, stderr or an --events fd, never blocking
	   (output.c): the bytes written, maybe fewer than len, or -1 with
	   errno (EAGAIN: the reader did not read; EPIPE: it is gone). */
	ssize_t	 (*write)(int fd, const void *buf, size_t len);
	/* len bytes from the kernel's generator: 0, or -1. */
	int	 (*random_bytes)(void *buf, size_t len);
};

/* The world in force: &world_kernel unless world_set() said otherwise. */
extern const struct world_ops *world;
extern const struct world_ops world_kernel;

/* Sets the world once, before any loop, timer or connection exists. */
void	 world_set(const struct world_ops *ops);

#endif
