/*
 * world-qemu.h: the world's QEMU for sim-real (real.c, world-sim.c): the
 * few calls the scheduler and the monitors' sockets need of a QEMU, with
 * two implementations behind them: the QEMU model built from QEMU's own
 * state machine (qemu-model.h, per version 7.2, 10.0, 11.1, held to real
 * QEMU by the conformance checker), and the thin 7.2 stand-in it
 * replaces (qemu-stub.h), kept so that a seed's old schedule can be
 * replayed against it.  Lines in and out are QMP as QEMU writes it, each
 * output line ending in CRLF.
 */
#ifndef WORLD_QEMU_H
#define WORLD_QEMU_H

enum wq_kind { WQ_STUB, WQ_MODEL };

struct wq;

struct wq_world {
	void	*arg;
	/* The target QEMU a source's migrate to uri reaches, or NULL. */
	struct wq *(*listener)(void *arg, const char *uri);
	/* A choice among n (0..n-1), the seeded world's (the model only). */
	int	 (*choose)(void *arg, int n);
	/* The target QEMU whose NBD server a source's NBD node reaches at
	   uri, or NULL (the model only; NULL: none). */
	struct wq *(*nbd_listener)(void *arg, const char *uri);
};

struct wq_config {
	enum wq_kind	 kind;
	int		 version;	/* the model's enum qm_version */
	int		 incoming;	/* -incoming defer */
	int		 dash_s;	/* -S */
	double		 converge;	/* s of pre-copy until it converges,
					   < 0: never */
	double		 postcopy_len;	/* s of post-copy once begun (model) */
	double		 load;		/* s the target's load takes (stub) */
	int		 load_fails;	/* the target's load fails */
	int		 ndisks;	/* local disks to copy (model: 0-2) */
	int		 disk_short;	/* disk0 created half its size */
	double		 mirror_len[2];	/* s until disk i's mirror is done,
					   -1 never (creeps), -2 (stalls) */
};

struct wq	*wq_new(const struct wq_config *, const struct wq_world *);
void		 wq_free(struct wq *);
/* "stub", or the model's version ("7.2", ...). */
const char	*wq_name(const struct wq *);

/* The greeting line (malloc'd, CRLF). */
char		*wq_greeting(const struct wq *);
/* One command line in at time now; its answer and events queue. */
void		 wq_input(struct wq *, const char *line, double now);
/* The next queued line (malloc'd, CRLF), NULL when none. */
char		*wq_output(struct wq *);
/* When it next moves on its own (INFINITY or a huge number: never). */
double		 wq_due(const struct wq *);
/* 0: nothing changed but its clock (qm_advance, sq_advance); 1: it
   moved. */
int		 wq_advance(struct wq *, double now);

/* The world's moves. */
void		 wq_kill(struct wq *);
/* SIGSTOP (1) or SIGCONT (0) at now: the model's peers see it (a stopped
   target reads nothing: its source's stream stalls); the stub's do not. */
void		 wq_sigstop(struct wq *, int stopped, double now);
/* The migration stream breaks (the model; the stub has no post-copy to
   recover, and is never asked). */
void		 wq_break_stream(struct wq *);

/* Every NBD connection of this source QEMU breaks (the network). */
void		 wq_break_nbd(struct wq *);
/* How many it has that are not known broken (0 for the stub). */
int		 wq_nbd_links(const struct wq *);
/* Mirror job slot j (0..3): 0 with its id and status (JobStatus), -1
   where there is none; its NBD link broke or it wrote an I/O error. */
int		 wq_job(const struct wq *, int j, const char **id,
		    const char **status);
int		 wq_job_io_error(const struct wq *, int j);

int		 wq_alive(const struct wq *);
/* A target whose migrate-incoming listens on uri, its path still there. */
int		 wq_listens(const struct wq *, const char *uri);
/* unlink(2) of the path it listens on: 0, or -1 when it is not there. */
int		 wq_unlink(struct wq *, const char *path);
/* Sources waiting in the accept queue of its listener on this unix:
   path (the stub takes a connection at once: 0). */
long		 wq_accept_queued(const struct wq *, const char *path);
int		 wq_runs_guest(const struct wq *);
/* Holds the guest's state (a source always; a target once loaded). */
int		 wq_has_guest(const struct wq *);
const char	*wq_status(const struct wq *);
const char	*wq_runstate(const struct wq *);

/*
 * cpr-exec (the model's 11.1, qemu-model.h "as the world sees it"; the
 * stub has none): the world's draw of how the exec goes (enum
 * qm_exec_outcome), the process (its pid: alive through the exec's gap,
 * when wq_alive, its monitor, is not), where the exec is (enum
 * qm_exec_phase), a guest booted afresh instead of loaded, the
 * migration mode (0 normal, 1 cpr-transfer, 2 cpr-exec), a migrate
 * given to this QEMU.
 */
void		 wq_set_exec(struct wq *, int outcome);
int		 wq_process_alive(const struct wq *);
int		 wq_exec_phase(const struct wq *);
int		 wq_fresh_guest(const struct wq *);
int		 wq_mode(const struct wq *);
int		 wq_migrating(const struct wq *);

#endif
