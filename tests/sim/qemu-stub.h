/*
 * qemu-stub.h: a thin QMP-speaking stand-in for QEMU 7.2, for the
 * simulator that runs the real executor (real.c), until the QEMU model
 * built from QEMU's own state machine (qemu-model.h, the "model" work of
 * issue 37) serves it behind the same calls.  It reads the command lines
 * qmigrate's qmp/ client writes and writes answers and events as QEMU
 * does; what it models: the source's none/setup/active/completed,
 * cancelling/cancelled and failed, its run states running, finish-migrate
 * and postmigrate; the target's inmigrate, migrate-incoming, a load that
 * completes (running without -S) or fails (QEMU 7.2 exits); cont, stop,
 * quit.  The setup's static queries are answered from a real 7.2 trace
 * (qemu-canned-7.2.c).  No post-copy, no disks, no cpr.
 */
#ifndef QEMU_STUB_H
#define QEMU_STUB_H

#include "qemu-canned.h"

struct sq;

/* What the world tells a QEMU and asks of it. */
struct sq_world {
	void	*arg;
	/* The target QEMU listening on uri (its migrate-incoming), or NULL. */
	struct sq *(*listener)(void *arg, const char *uri);
};

struct sq_config {
	int	 incoming;	/* -incoming defer */
	int	 dash_s;	/* -S */
	double	 converge;	/* s of pre-copy until it converges */
	double	 load;		/* s the target takes to load the state */
	int	 load_fails;	/* the target's load fails */
};

struct sq	*sq_new(const struct sq_config *, const struct sq_world *);
void		 sq_free(struct sq *);
/* The greeting line (malloc'd, with CRLF). */
char		*sq_greeting(const struct sq *);
/* One command line in at time now; answers and events queue. */
void		 sq_input(struct sq *, const char *line, double now);
/* The next queued line (malloc'd, with CRLF), NULL when none. */
char		*sq_output(struct sq *);
/* When it next moves on its own (a huge number: only when told). */
double		 sq_due(const struct sq *);
/* 0: nothing was due by now; 1: it moved. */
int		 sq_advance(struct sq *, double now);
/* The world's moves. */
void		 sq_kill(struct sq *);

int		 sq_alive(const struct sq *);
/* A target whose migrate-incoming listens on uri. */
int		 sq_listens(const struct sq *, const char *uri);
/* unlink(2) of the path it listens on: 0, or -1 when it is not there. */
int		 sq_unlink(struct sq *, const char *path);
int		 sq_runs_guest(const struct sq *);
const char	*sq_status(const struct sq *);
const char	*sq_runstate(const struct sq *);
/* Target: holds the guest (loaded it). */
int		 sq_has_guest(const struct sq *);

#endif
