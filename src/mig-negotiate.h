/*
 * mig-negotiate.h: what the two QEMUs of a migration can do together
 * (mig-negotiate.c): each side's version and capabilities, and the plan
 * they agree on.
 */
#ifndef MIG_NEGOTIATE_H
#define MIG_NEGOTIATE_H

#include "qmigrate.h"

enum mig_cap {
	MIG_CAP_EVENTS, MIG_CAP_POSTCOPY_RAM, MIG_CAP_MULTIFD,
	MIG_CAP_AUTO_CONVERGE, MIG_CAP_POSTCOPY_PREEMPT,
	MIG_CAP_VALIDATE_UUID, MIG_CAP_POSTCOPY_BLOCKTIME,
	MIG_CAP_SWITCHOVER_ACK, MIG_CAP_DIRTY_LIMIT, MIG_CAP_MAPPED_RAM,
	MIG_CAP_ZERO_BLOCKS, MIG_CAP_COMPRESS, MIG_CAP_BLOCK,
	MIG_CAP_RETURN_PATH,
	MIG_CAP_COUNT
};
#define MIG_CAP_BIT(c)	(1u << (c))
#define QEMU_SIDE_NAME_MAX 63
#define QEMU_SIDE_DEVICES_MAX 1023
/* One side's QEMU, as its qmigrate reads it (0 or "": not known). */
struct qemu_side {
	int		major, minor, micro;
	uint32_t	caps;		/* MIG_CAP_BIT of each capability listed */
	uint64_t	ram_bytes;	/* query-memory-size-summary base-memory */
	char		machine[QEMU_SIDE_NAME_MAX + 1]; /* pc-i440fx-7.2 */
	char		cpu_model[QEMU_SIDE_NAME_MAX + 1]; /* qemu64 */
	char		uuid[37];	/* query-uuid; "" when not set */
	int		kvm;		/* 1 KVM, 0 TCG, -1 not known */
	/* KVM's dirty ring (-accel kvm,dirty-ring-size=N), which dirty-limit
	 * needs: 1 on, 0 off, -1 not known (mig-qemu-side.c probes it). */
	int		dirty_ring;
	char		dirty_ring_why[160]; /* QEMU's refusal, when off */
	int		vcpus;		/* query-cpus-fast (0: not known) */
	int		had_auto_converge, had_dirty_limit; /* the probe's */
	char		cpu_target[32];	/* reading it: the vCPU's target */
	/* The devices added with -device (their QOM types, sorted,
	 * space-separated), when has_devices: they carry state. */
	int		has_devices;
	char		devices[QEMU_SIDE_DEVICES_MAX + 1];
};
/* What the policy asks for (the plan before negotiation). */
struct mig_wants {
	int		postcopy;	/* allowPostCopy */
	int		channels;	/* parallelMigrationThreads (0: none) */
};
/* The throttle a migration's controller uses (mig_throttle_choose()). */
enum mig_throttle {
	MIG_THROTTLE_NONE, MIG_THROTTLE_AUTO_CONVERGE, MIG_THROTTLE_DIRTY_LIMIT,
};
uint32_t mig_caps_listed(struct json_object *);
struct json_object *qemu_side_encode(const struct qemu_side *);
int	 qemu_side_decode(struct json_object *, struct qemu_side *,
	    char **cause);
int	 qemu_side_compare(const struct qemu_side *source,
	    const struct qemu_side *target, const char *target_machines,
	    char *reason, size_t len);
int	 machines_listed(struct json_object *, char *out, size_t len);
void	 devices_add(struct json_object *, char *list, size_t len);
void	 devices_sort(char *list);
struct json_object *mig_negotiate(const struct mig_wants *,
	    const struct qemu_side *source, const struct qemu_side *target,
	    struct mig_plan *);
enum mig_throttle mig_throttle_choose(enum ctl_kind, int allow_throttle,
	    const struct qemu_side *source, const struct qemu_side *target,
	    char *why, size_t len);
void	 mig_throttle_apply(struct mig_plan *, enum mig_throttle,
	    const char *why, struct json_object *reasons);
int	 mig_dirty_ring_refusal(const char *error);
int	 mig_multifd_postcopy_ok(const struct qemu_side *);
int	 mig_incoming_exit_on_error_ok(const struct qemu_side *);
struct json_object *mig_downtime_args(uint64_t downtime_ms, double bandwidth,
	    int major, int minor);
struct json_object *mig_channels_args(const char *main_uri,
	    const char *cpr_uri);

/* mig-qemu-side.c */
/* A job (mig-job.h) filling the struct qemu_side ctx; the version first. */
struct mig_job_cmd;
enum mig_job_next qemu_side_job(void *, int *, struct json_object *,
	    const char *, struct mig_job_cmd *, char **);
/* The same, a failure taken as a QEMU with only what every QEMU has
 * (a warning naming the ROLE's QEMU at QMP_PATH). */
enum mig_job_next qemu_side_job_or_least(struct qemu_side *, int *,
	    struct json_object *, const char *, struct mig_job_cmd *,
	    const char *role, const char *qmp_path);

#endif
