/*
 * qemu-model-sim.h: the simulator's QEMU inside (qemu-model.h, "the
 * simulator's QEMU"), shared by the two files of its world half:
 * qemu-model-sim.c (commands, QEMU's own rows, the migration stream,
 * cpr-exec) and qemu-model-disks.c (the block layer's world: the disks
 * on the command line, NBD client nodes and their connections, the
 * mirrors' pace).  Not for the model's users: they see qemu-model.h.
 */
#ifndef QEMU_MODEL_SIM_H
#define QEMU_MODEL_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "qemu-model.h"

#define STEP		0.02	/* s between two of QEMU's own moves */
#define MAX_OUT		256

struct json_object;

/* A source's NBD client node (blockdev-add driver nbd) and its link. */
#define QM_MAX_NODES	4
struct qm_nbd_node {
	int			 used;
	char			 name[QM_JOB_ID_MAX];
	char			 export_name[QM_JOB_ID_MAX];
	char			 uri[128];	/* the server's address */
	struct qm_qemu		*target;	/* whose server it reached */
	int			 broken;	/* the connection ended (for
						   good: no reconnect-delay) */
	int			 broke_running;	/* while its QEMU ran the
						   guest: a write in flight
						   failed (node_break) */
	uint64_t		 size;		/* the export's */
};

/* A mirror job's pace, the world's: QEMU's table says what may happen,
   this says when the copy is done. */
struct qm_job_pace {
	int			 on;		/* blockdev-mirror set it */
	double			 start;
	double			 ready_at;	/* INFINITY: never */
	int			 never;		/* 1: creeps on, 2: stalls */
	int			 disk;
	int			 node;		/* its NBD node, -1 */
	int			 io_error;	/* BLOCK_JOB_ERROR written */
};

struct qm_qemu {
	struct qm_config	 cfg;
	struct qm_world		 w;
	struct qm_state		 s;
	double			 now;
	double			 next;		/* qm_due */
	int			 sigstopped;
	double			 sigstop_at;	/* since when (SIGSTOP) */
	char			*in[MAX_OUT];	/* commands held by SIGSTOP */
	size_t			 nin;
	char			*out[MAX_OUT];
	size_t			 nout;
	size_t			 out_head;

	char			 uri[256];	/* migrate-incoming's, or the
						   source's destination */
	int			 binds;		/* listeners it opened */
	int			 unreached;	/* its last resume found no
						   listener at its URI */
	struct qm_qemu		*peer;		/* the other end */
	int			 no_listener;	/* migrate found nobody */
	int			 connected;
	int			 sent_device;	/* source: device state out */
	int			 verdict;	/* target: 1 loaded, -1 failed */
	int			 fail_load;
	int			 broken;
	int			 steps;		/* of this migration */
	int			 converge_after; /* steps; -1 never */
	double			 converge_at;	/* or at this time (the
						   world's converge) */
	double			 mig_start;	/* migrate's time */
	double			 postcopy_at;	/* source: post-copy began */
	double			 postcopy_len;	/* s until its last page */
	double			 stopped_at;	/* source: vCPUs stopped
						   (a stop) in pre-copy */
	int			 pc_switch;	/* source: its switchover is
						   post-copy's (decided when
						   the vCPUs stop) */
	int			 to_file;	/* source: migrate to file: (no
						   listener: the file takes it) */

	/* cpr-exec (11.1): the command line QEMU was given to exec, how the
	   exec goes (the world's draw), and where the process is in it. */
	int			 exec_incoming;	/* -incoming: 1 a URI, 2 defer */
	int			 exec_stopped;	/* -S */
	char			 exec_uri[256];	/* -incoming's */
	enum qm_exec_outcome	 exec_outcome;
	enum qm_exec_phase	 exec_phase;
	double			 exec_until;	/* QM_XP_GAP ends */
	int			 fresh;		/* no -incoming: a fresh guest */
	struct qm_qemu		*image;		/* the device state in the file,
						   as the old QEMU left it */

	/* The block layer's world (qemu-model-disks.c). */
	char			 nbd_uri[128];	/* target: nbd-server-start's */
	struct qm_qemu		*nbd_client;	/* target: the source whose
						   nodes reached its exports */
	struct qm_nbd_node	 nodes[QM_MAX_NODES];
	struct qm_job_pace	 pace[QM_MAX_JOBS];

	/* qm_advance's last qm_enabled(), and the key of its state: a
	   migration or a job steps every STEP, most steps in a state the
	   last one saw (a target that waits 20 minutes: 60000). */
	int			 en_valid;
	struct qm_enabled_key	 en_key;
	size_t			 en_n;
	int			 en_rows[256];
};

/* qemu-model-disks.c */
/* The error line the world answers cmd with (o: its JSON), or NULL. */
char	*qd_refusal(struct qm_qemu *, const struct qm_cmd *,
	    struct json_object *o);
/* After cmd succeeded in the model: what the world learns. */
void	 qd_command(struct qm_qemu *, const struct qm_cmd *,
	    struct json_object *o);
/* The answer line, with what the world holds (line freed), or line. */
char	*qd_answer(struct qm_qemu *, const struct qm_cmd *, char *line);
/* The world's say on a job row (name, job slot): 1 it may happen. */
int	 qd_permitted(struct qm_qemu *, const char *name, int job);
void	 qd_took(struct qm_qemu *, const char *name, int job);
void	 qd_forget(struct qm_qemu *gone, struct qm_qemu *other);
/* t, whose NBD server q's nodes reach, continued (SIGCONT) after its stop
   from since: q's mirrors, which wrote nothing meanwhile, move on. */
void	 qd_continued(struct qm_qemu *q, const struct qm_qemu *t,
	    double since, double now);

/* qemu-model-sim.c */
/* Past time t0 on a clock that stood still from since until now (an
   instant in the stop becomes now; one before it moves by the stop). */
double	 qm_shifted(double t0, double since, double now);

#endif
