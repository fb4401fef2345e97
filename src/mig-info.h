/*
 * mig-info.h: QEMU's query-migrate and query-status answers, typed
 * (mig-info.c).
 */
#ifndef MIG_INFO_H
#define MIG_INFO_H

#include "qmigrate.h"

/*
 * mig-info.c: QEMU's query-migrate and query-status answers, typed (one
 * decoder for the session, the exporter and watch).
 */
/*
 * Every MigrationStatus of QEMU 7.2 to 11.1 (qapi/migration.json, "since"
 * as each QEMU's QMP reference gives it); QMS_UNKNOWN is any other name.
 */
enum qemu_mig_status {
	QMS_NONE, QMS_SETUP, QMS_CANCELLING, QMS_CANCELLED, QMS_ACTIVE,
	QMS_POSTCOPY_ACTIVE, QMS_POSTCOPY_PAUSED, QMS_POSTCOPY_RECOVER,
	QMS_POSTCOPY_DEVICE,	/* 10.2: the target loads device state */
	QMS_POSTCOPY_RECOVER_SETUP, /* 9.1: the source, before recovering */
	QMS_COMPLETED, QMS_FAILED,
	QMS_FAILING,		/* 11.0: the source cleans up, then failed */
	QMS_COLO, QMS_PRE_SWITCHOVER, QMS_DEVICE, QMS_WAIT_UNPLUG,
	QMS_UNKNOWN,
};

struct mig_info {
	enum qemu_mig_status status;
	char		status_name[32];	/* QEMU's spelling */
	int		has_ram;
	uint64_t	ram_total;
	uint64_t	ram_remaining;
	uint64_t	ram_transferred;
	uint64_t	dirty_sync_count;	/* passes so far */
	uint64_t	dirty_pages_rate;	/* pages/s */
	uint64_t	page_size;		/* 4096 when absent */
	uint64_t	postcopy_requests;
	double		mbps;			/* QEMU's instantaneous */
	int		has_disk;		/* block migration (-b) */
	uint64_t	disk_total;
	uint64_t	disk_remaining;
	uint64_t	disk_transferred;
	uint64_t	expected_downtime_ms;
	int		has_downtime;		/* completed, figures stored */
	uint64_t	downtime_ms;
	int		has_total_time;
	uint64_t	total_time_ms;
	uint64_t	setup_time_ms;
	int		throttle_pct;
	/* dirty-limit (8.1): the vCPUs' sleep per dirty-limit round, and
	 * their time blocked on a full dirty ring, microseconds */
	int		has_dirty_limit;
	uint64_t	dirty_limit_throttle_us;
	uint64_t	dirty_limit_ring_full_us;
	char		error_desc[256];	/* failed: QEMU's reason */
};

enum run_state {
	RUN_UNKNOWN, RUN_DEBUG, RUN_INMIGRATE, RUN_INTERNAL_ERROR,
	RUN_IO_ERROR, RUN_PAUSED, RUN_POSTMIGRATE, RUN_PRELAUNCH,
	RUN_FINISH_MIGRATE, RUN_RESTORE_VM, RUN_RUNNING, RUN_SAVE_VM,
	RUN_SHUTDOWN, RUN_SUSPENDED, RUN_WATCHDOG, RUN_GUEST_PANICKED,
	RUN_COLO,
};

struct run_info {
	enum run_state	state;
	char		state_name[32];
	int		running;
};

const char *qemu_mig_status_name(enum qemu_mig_status);
enum qemu_mig_status qemu_mig_status_parse(const char *name);
int	 qemu_mig_status_in_progress(enum qemu_mig_status);
int	 qemu_mig_status_postcopy(enum qemu_mig_status);
int	 qemu_mig_status_recovering(enum qemu_mig_status);
int	 mig_info_decode(struct json_object *reply, struct mig_info *);
double	 mig_info_dirty_rate(const struct mig_info *);
double	 mig_info_bandwidth(const struct mig_info *);
int	 run_info_decode(struct json_object *reply, struct run_info *);

/*
 * mig-rerun.c: what a re-run after a SIGKILL makes of the QEMU it found.
 * mig_target_found(): `incoming`'s (unix:/tcp:); mig_target_found_tls():
 * over tls:, a QEMU that does not wait for a migration.
 */
enum target_found {
	TF_FRESH,	/* it waits for a migration: set one up */
	TF_REATTACH,	/* it listens or has a migration: watch it */
	TF_NOT_WAITING,	/* no migration, none can come: 3 */
	TF_NOT_KNOWN,	/* a migration ended here, whose is not known: 8 */
};
enum target_found mig_target_found(int record, enum run_state,
	    const struct mig_info *, int listening);
enum target_found mig_target_found_tls(int record, enum run_state,
	    const struct mig_info *, int listening);
enum target_found mig_target_unanswered(int record, enum run_state);
int	 mig_exec_rerun_lost(enum mig_phase, const char *qemu_mode);
int	 mig_update_mode_left(const char *qemu_mode);

/*
 * An `update --mode exec` re-run that found the update marker
 * (mig-marker.c, "<status-file>.update"): what it says, with what the
 * re-run found.  mig_marker_verdict() decides.
 */
struct marker_seen {
	pid_t			 pid;		/* the marker's QEMU (0: not known) */
	unsigned long long	 start;		/* ... its start time (0: not known) */
	unsigned long long	 start_now;	/* that pid's start time now (0:
						   gone or a zombie) */
	int			 connected;	/* the monitor answered */
	pid_t			 peer;		/* ... its process (0: not known,
						   a relay in front) */
	unsigned long long	 peer_start;	/* ... its start time */
	int			 record;	/* the status file has a record of
						   the marker's update (same uid) */
	int			 record_open;	/* ... that does not say it ended */
	int			 not_execd;	/* connected, and QEMU says the exec
						   never happened (mig_exec_not_done) */
};
enum marker_verdict {
	MV_STALE,	/* another QEMU's: removed with a note, carry on */
	MV_ENDED,	/* its record says it ended: removed, carry on */
	MV_RECORD,	/* its record is open: the record decides, kept */
	MV_NOT_KNOWN,	/* this QEMU's, no record says it ended: 8 */
	MV_NOT_EXECD,	/* this QEMU's, which never exec'd: removed, carry on */
};
enum marker_verdict mig_marker_verdict(const struct marker_seen *);
int	 mig_exec_not_done(const char *qemu_mode, enum qemu_mig_status);

#endif
