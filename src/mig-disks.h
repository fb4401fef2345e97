/*
 * mig-disks.h: live migration of disks that are not on shared storage,
 * with QEMU's NBD server on the target and blockdev-mirror on the source
 * (libvirt's order: mirrors ready, then memory, then the mirrors are
 * cancelled once the source has stopped the guest).
 *
 * A disk is named by its key: the node name of its top node when the user
 * gave one (-blockdev node-name=), else its drive id (-drive id=).  Both
 * QEMUs must use the same keys; the key is the NBD export name.
 */
#ifndef MIG_DISKS_H
#define MIG_DISKS_H

#include <stdint.h>

#include "qmigrate.h"
#include "preflight.h"
#include "mig-job.h"

struct json_object;
struct qmp_conn;
struct mig_disks;

/* Bytes per GiB, for the time a disk copy may take. */
#define MIG_DISKS_GIB	(1024.0 * 1024 * 1024)

/*
 * Whether the disk (key, drive id, file; shared: on shared storage) is to
 * be copied under s.  The source's rule: never: no; disks given: when one
 * entry names its key, drive id or file; always: every writable disk;
 * auto: the writable disks off shared storage.
 */
int	 mig_disks_selected(const struct mig_settings *s, const char *key,
	    const char *device, const char *file, int shared);

/*
 * From a query-block answer (borrowed), keeps the writable disks to copy
 * (source: the rule above; target: every writable disk off shared
 * storage, and under always the shared ones the policy's disks name by
 * key, or all when it names none).  Returns 0 with *out (NULL: nothing to
 * copy), or -1 with *cause.
 */
int	 mig_disks_select(struct json_object *blocks,
	    const struct mig_settings *, int source, struct mig_disks **out,
	    char **cause);
/*
 * The mirrors an earlier qmigrate left in this QEMU, taken over by a re-run
 * of its record: a disk per qm-mirror-KEY job in a query-block-jobs answer
 * and per qm-nbd-KEY node in a query-named-block-nodes (flat) answer (both
 * borrowed), watched and ended (the finish job) as this run's own.
 * Returns NULL when there are none.
 */
struct mig_disks *mig_disks_adopt(struct json_object *jobs,
	    struct json_object *nodes);
/*
 * Why the copy of mirrors a killed run left (mig_disks_adopt) is not known
 * to be complete (malloc'd), or NULL: every one is still there and ready
 * (write-blocking: in sync).  One that ended took its end with it (QEMU
 * dismissed the job: an end in sync and a failure look alike); one not
 * ready never finished its copy.
 */
char	*mig_disks_unproven(const struct mig_disks *);
size_t	 mig_disks_count(const struct mig_disks *);
uint64_t mig_disks_bytes(const struct mig_disks *);	/* virtual sizes */
uint64_t mig_disks_copied(const struct mig_disks *);	/* jobs' offsets */
/* {JOB: {disk, file, offset, len, ready}}: a new reference. */
struct json_object *mig_disks_to_json(const struct mig_disks *);
/* One line: "KEY (FILE), ..." */
char	*mig_disks_describe(const struct mig_disks *);

/*
 * The NBD server's address for a migration URI: --nbd when given (unix:PATH
 * or tcp:HOST:PORT), else unix:PATH.nbd for unix:PATH and tcp:HOST:PORT+1
 * for tcp:HOST:PORT.  tls: is refused here: the TLS proxy carries NBD
 * on its own channel (mig_tls_source_nbd_uri(), mig_tls_target_nbd_uri()).
 * Returns a malloc'd "unix:..." or "tcp:...", or NULL with *cause.
 */
char	*mig_disks_nbd_uri(const char *uri, const char *nbd, char **cause);

/*
 * The disks' QMP work, as jobs (mig-job.h) with ctx the struct mig_disks;
 * each *_prepare() sets a job's arguments before mig_job_start().
 *
 * Source.  start: an NBD client node per disk (qm-nbd-KEY), each checked
 * to be at least as large as the disk (refused before anything is copied,
 * naming both sizes), then blockdev-mirror (job qm-mirror-KEY, sync full,
 * write-blocking, speed bytes/s); undoes what it did on failure.  finish:
 * block-job-cancel (forced unless success: a ready mirror cancelled
 * without force ends in sync, without pivot), waits up to timeout seconds
 * for the jobs to go, then blockdev-del the NBD nodes; the source keeps
 * running on its own disks.
 */
void	 mig_disks_source_start_prepare(struct mig_disks *,
	    const char *nbd_uri, uint64_t speed);
void	 mig_disks_source_finish_prepare(struct mig_disks *, int success,
	    double timeout);
enum mig_job_next mig_disks_source_start_job(void *, int *,
	    struct json_object *, const char *, struct mig_job_cmd *, char **);
enum mig_job_next mig_disks_source_finish_job(void *, int *,
	    struct json_object *, const char *, struct mig_job_cmd *, char **);
/* BLOCK_JOB_* and JOB_STATUS_CHANGE events for our jobs. */
void	 mig_disks_on_event(struct mig_disks *, const char *name,
	    struct json_object *data);
/*
 * Why a target's copy may miss writes (malloc'd), or NULL: a mirror failed
 * or ended (an event said so, or it ended unseen).  Judged up to QEMU's
 * completion: the guest's writes all drained by then (mig-disks.c's
 * ended()), a mirror's later end (the soft cancel's, ours) loses nothing.
 */
char	*mig_disks_lost(const struct mig_disks *);
/* Sends query-block-jobs (asynchronous); the answer updates the jobs. */
void	 mig_disks_refresh(struct mig_disks *, struct qmp_conn *,
	    unsigned conn);
/* 1 when the last query-block-jobs answer came on monitor connection conn
 * (mig_watch's count), or there are no disks. */
int	 mig_disks_seen_on(const struct mig_disks *, unsigned conn);
/* 1: every mirror is ready; 0: copying; -1: a job failed (*cause). */
int	 mig_disks_state(struct mig_disks *, char **cause);

/*
 * Target.  start: nbd-server-start on the address and a writable export
 * per disk (named by its key).  release: once the migration completed,
 * removes each export when its client (the source's mirror) has gone,
 * trying again until timeout, then stops the server; past the timeout it
 * removes everything by force and fails, saying why.  stop: removes
 * everything at once (abort).
 */
void	 mig_disks_target_start_prepare(struct mig_disks *,
	    const char *nbd_uri);
void	 mig_disks_target_release_prepare(struct mig_disks *,
	    double timeout);
void	 mig_disks_target_stop_prepare(struct mig_disks *);
enum mig_job_next mig_disks_target_start_job(void *, int *,
	    struct json_object *, const char *, struct mig_job_cmd *, char **);
enum mig_job_next mig_disks_target_release_job(void *, int *,
	    struct json_object *, const char *, struct mig_job_cmd *, char **);
enum mig_job_next mig_disks_target_stop_job(void *, int *,
	    struct json_object *, const char *, struct mig_job_cmd *, char **);

void	 mig_disks_free(struct mig_disks *);

#endif
