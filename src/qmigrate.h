/*
 * qmigrate.h: the engine's shared declarations, grouped by the file that
 * defines them (tmux.h's layout).
 */
#ifndef QMIGRATE_H
#define QMIGRATE_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"

struct ev_loop;
struct json_object;
struct yaml_docs;
struct qmp_conn;

/* Exit statuses: the table in the migration driver's issue. */
enum qm_exit {
	QM_EXIT_OK = 0,
	QM_EXIT_USAGE = 1,		/* usage or configuration: nothing touched */
	QM_EXIT_NOT_MIGRATABLE = 2,	/* pre-flight refused */
	QM_EXIT_CONTROL = 3,		/* control plane failed */
	QM_EXIT_DATA = 4,		/* data plane failed, guest on the source */
	QM_EXIT_ABORTED = 5,		/* aborted, guest on the source */
	QM_EXIT_POSTCOPY_LOST = 6,	/* post-copy failed and not recovered */
	QM_EXIT_EXTERNAL = 7,		/* eviction handed to an external
					   controller: the VM still runs here */
};

/*
 * A command's options, declared in its cmd_entry and parsed once by
 * args_parse() (args.c); --help comes from the same table.
 */
enum args_type {
	ARGS_FLAG,	/* no value */
	ARGS_STRING,
	ARGS_SECONDS,	/* parse_seconds(), at least min */
	ARGS_COUNT,	/* an integer from min to max */
};
#define ARGS_REQUIRED	0x1
#define ARGS_REPEAT	0x2	/* may be given more than once */

struct args_option {
	const char		 *name;		/* --name */
	enum args_type		  type;
	const char		 *value;	/* its value in usage: "PATH" */
	int			  flags;	/* ARGS_REQUIRED, ARGS_REPEAT */
	double			  min, max;	/* ARGS_SECONDS, ARGS_COUNT */
	const char		 *help;		/* its lines in --help */
	const struct args_option *include;	/* a shared group instead */
};

struct args_spec {
	const struct args_option *options;	/* ends with an empty entry */
	int			  lower, upper;	/* arguments; upper -1: any */
	const char		 *arguments;	/* their names in usage */
	const char		 *usage;	/* overrides the generated line */
};

/* One option given, in command-line order; value points into argv. */
struct args_value {
	const struct args_option *opt;
	const char		 *value;	/* NULL for a flag */
	double			  number;	/* seconds or count */
};

struct args {
	struct args_value	*values;
	size_t			 n;
	int			 argc;		/* the arguments after the */
	char			**argv;		/* options */
};

/*
 * A command: src/cmd-*.c each export one, src/cmd.c lists them.  A command
 * with subcommands (policy check, proxy source) lists them in subs; each
 * is an entry of its own, named with its parent's name.
 */
struct cmd_entry {
	const char		 *name;
	struct args_spec	  args;
	const char		 *help;		/* what it does, for --help */
	const char		 *footer;	/* after the options, or NULL */
	int			(*exec)(struct args *);
	const struct cmd_entry *const *subs;	/* NULL-terminated, or NULL */
};

/* Convergence controllers a policy can ask for. */
enum ctl_kind {
	CTL_ADAPTIVE,
	CTL_KUBEVIRT,
};

/* Eviction strategies (KubeVirt's names). */
enum eviction_strategy {
	EVICT_NONE,
	EVICT_LIVE_MIGRATE,
	EVICT_LIVE_MIGRATE_IF_POSSIBLE,
	EVICT_EXTERNAL,
};

/* migration.blockMigration: copying disks off shared storage. */
enum block_migration {
	BLOCK_MIGRATION_NEVER,	/* refuse them (exit 2): the default */
	BLOCK_MIGRATION_AUTO,	/* copy the writable ones off shared storage */
	BLOCK_MIGRATION_ALWAYS,	/* copy every writable disk */
};

/*
 * spec.experimental.downtimeTuning (KubeVirt's DowntimeTuningOptions):
 * from pass start_after_iteration on, raise the downtime limit from
 * initial_ms to the effective maxDowntimeMs (KubeVirt's 900 when unset)
 * in steps equal increments, at most one step per cooldown_seconds.  The
 * fields hold KubeVirt's defaults unless given (set: MIG_DT_* bits).
 */
struct mig_downtime_tuning {
	int		enabled;		/* downtimeTuning was given */
	uint64_t	initial_ms;		/* initialMs: 150, >= 1 */
	uint64_t	steps;			/* steps: 7, >= 1 */
	uint64_t	start_after_iteration;	/* startAfterIteration: 3 */
	uint64_t	cooldown_seconds;	/* cooldownSeconds: 10, >= 1 */
	unsigned	set;			/* MIG_DT_*: fields given */
};
#define MIG_DT_INITIAL		0x01
#define MIG_DT_STEPS		0x02
#define MIG_DT_START_AFTER	0x04
#define MIG_DT_COOLDOWN		0x08
#define MIG_DT_DEFAULT_INITIAL_MS	150
#define MIG_DT_DEFAULT_STEPS		7
#define MIG_DT_DEFAULT_START_AFTER	3
#define MIG_DT_DEFAULT_COOLDOWN		10

/*
 * spec.experimental.stallDetector (KubeVirt's StallDetectorOptions), with
 * KubeVirt's defaults unless given (set: MIG_SD_* bits); the quantities
 * (ewmaAlpha and the factors) validated as KubeVirt's admission does.
 */
struct mig_stall_detector {
	int		enabled;		/* stallDetector was given */
	uint64_t	stall_margin_pct;	/* stallMargin: 4, 0-100 */
	double		ewma_alpha;		/* ewmaAlpha: 0.4, (0, 1] */
	uint64_t	stall_progress_timeout;	/* seconds: 40 */
	uint64_t	switchover_timeout;	/* seconds: 60 */
	double		precopy_possible_factor; /* 1.5, >= 1 */
	double		patience_window_decay_factor; /* 0.5, 0-1 */
	int		search_local_minima;	/* true */
	double		completion_timeout_factor; /* 2, >= 1 */
	unsigned	set;			/* MIG_SD_*: fields given */
};
#define MIG_SD_MARGIN		0x01
#define MIG_SD_EWMA		0x02
#define MIG_SD_PROGRESS		0x04
#define MIG_SD_SWITCHOVER	0x08
#define MIG_SD_PRECOPY		0x10
#define MIG_SD_PATIENCE		0x20
#define MIG_SD_LOCAL_MINIMA	0x40
#define MIG_SD_COMPLETION	0x80

/* KubeVirt's DefaultMigrationMaxDowntimeMs. */
#define KUBEVIRT_DEFAULT_MAX_DOWNTIME_MS	900

/*
 * A policy's migration section, after defaults: KubeVirt's defaults unless
 * the policy says otherwise (see policy_defaults()).
 */
struct mig_settings {
	uint64_t	bandwidth;		/* bytes/s, 0 = unlimited */
	uint64_t	completion_timeout_per_gib; /* seconds, 0 = never */
	uint64_t	progress_timeout;	/* seconds, 0 = never */
	uint64_t	max_downtime_ms;	/* 0 = QEMU's default */
	int		allow_auto_converge;
	int		allow_post_copy;
	int		allow_workload_disruption;
	int		parallel_migration_threads; /* 0 = no multifd */
	int		disable_tls;
	enum ctl_kind	convergence;
	char	      **shared_storage_paths;	/* NULL-terminated, may be NULL */
	enum block_migration block_migration;	/* local disks: mig-disks.c */
	char	      **disks;		/* node names or files; may be NULL */
	struct mig_downtime_tuning downtime_tuning; /* spec.experimental */
	struct mig_stall_detector stall_detector;   /* spec.experimental */
	unsigned	set;		/* MIG_SET_*: the fields given explicitly */
};

/*
 * The fields a policy or the cluster's KubeVirt object gives explicitly
 * (mig_settings.set): only these refine the defaults beneath them
 * (mig_settings_overlay()), as KubeVirt overlays a policy's non-nil fields.
 */
#define MIG_SET_BANDWIDTH	0x0001
#define MIG_SET_COMPLETION	0x0002
#define MIG_SET_PROGRESS	0x0004
#define MIG_SET_DOWNTIME	0x0008
#define MIG_SET_AUTO_CONVERGE	0x0010
#define MIG_SET_POST_COPY	0x0020
#define MIG_SET_DISRUPTION	0x0040
#define MIG_SET_MULTIFD		0x0080
#define MIG_SET_DISABLE_TLS	0x0100
#define MIG_SET_CONVERGENCE	0x0200
#define MIG_SET_SHARED_PATHS	0x0400
#define MIG_SET_BLOCK_MIGRATION	0x0800
#define MIG_SET_DISKS		0x1000

/* Elements of a fixed-size array. */
#define NITEMS(a) (sizeof (a) / sizeof (a)[0])

#define POLICY_MAX_LABELS 64

struct label {
	char	*key;
	char	*value;
};

/*
 * One policy: qmigrate's JSON shape or a KubeVirt MigrationPolicy, read
 * into the same model.  Its migration settings are over the built-in
 * defaults, with .set naming the fields it gives.
 */
struct policy {
	char			*name;
	char			*file;		/* where it was read from */
	size_t			 doc;		/* document number, 0: JSON shape */
	long			 item;		/* index in a kind: List, or -1 */
	struct label		*selector;	/* the VM's (VMI's) labels */
	size_t			 nselector;
	struct label		*ns_selector;	/* its namespace's labels */
	size_t			 nns_selector;
	int			 selectors_absent; /* no spec.selectors:
						    matches no VM */
	enum eviction_strategy	 eviction;
	int			 eviction_set;
	uint64_t		 termination_grace_seconds;
	int			 grace_set;
	struct mig_settings	 migration;
	char			*unapplied;	/* fields read, not carried out */
};

/* A kind: Namespace manifest of a policy directory: its labels by name. */
struct kube_namespace {
	char			*name;
	char			*file;
	struct label		*labels;
	size_t			 nlabels;
};

/*
 * What policies refine: KubeVirt's defaults, or a kind: KubeVirt
 * manifest's spec.configuration (migrations, evictionStrategy).
 */
struct cluster_config {
	char			*file;		/* NULL: built-in defaults */
	char			*name;
	struct mig_settings	 migration;	/* complete, over the defaults */
	enum eviction_strategy	 eviction;
	uint64_t		 parallel_per_cluster;	/* as given */
	uint64_t		 parallel_outbound_per_node;
	char			*unapplied;
};

/* Bounds on policy input and what applies when no policy matches. */
#define POLICY_DEFAULT_DIR	"/etc/qmigrate/policies.d"
#define POLICY_MAX_FILE_SIZE	(1024 * 1024)
#define POLICY_MAX_FILES	1000
#define POLICY_DEFAULT_EVICTION	EVICT_NONE	/* KubeVirt's cluster default */
#define POLICY_DEFAULT_GRACE_SECONDS 30		/* KubeVirt's VMI default */

#define CLUSTER_DEFAULT_PARALLEL	5	/* parallelMigrationsPerCluster */
#define CLUSTER_DEFAULT_OUTBOUND	2	/* ...OutboundMigrationsPerNode */

/*
 * Every policy of a file or directory, sorted by name (policy_load()),
 * with the namespaces and cluster defaults found beside them.
 */
struct policy_set {
	char			*path;
	struct policy		*policies;
	size_t			 npolicies;
	struct kube_namespace	*namespaces;
	size_t			 nnamespaces;
	struct cluster_config	 cluster;
};

/*
 * What selects a VM's policy and what its own manifest says: --label,
 * --labels-file, --namespace-label, --namespace-labels-file, --vmi.
 */
struct vm_ident {
	struct label		*labels;
	size_t			 nlabels;
	struct label		*ns_labels;
	size_t			 nns_labels;
	char			*ns_source;	/* the flag or file, or NULL */
	char			*vmi_file;
	char			*name;		/* the --vmi's metadata */
	char			*namespace;	/* its namespace's name */
	char			*namespace_from; /* what said so, or NULL */
	int			 eviction_set;	/* its spec.evictionStrategy */
	enum eviction_strategy	 eviction;
	int			 grace_set;
	uint64_t		 grace_seconds;
};

/* What applies to one VM (policy_choose()). */
struct policy_choice {
	const struct policy	*policy;	/* NULL: none matches */
	struct mig_settings	 migration;	/* effective; owned */
	enum eviction_strategy	 eviction;
	const char		*eviction_from;	/* which object said so */
	uint64_t		 grace_seconds;
	struct label		*ns_labels;	/* the namespace labels used
						   (owned) */
	size_t			 nns_labels;
	char			*why;		/* if asked: one line each */
};

/*
 * Controllers (ctl-*.c) are pure: they see samples and answer decisions,
 * doing no I/O, so both are unit-tested on synthetic traces.
 */
struct ctl_sample {
	double		t;		/* seconds since migrate was sent */
	int		postcopy;	/* QEMU is in postcopy-active */
	uint64_t	pass;		/* dirty-sync-count */
	uint64_t	total;		/* bytes of guest RAM */
	uint64_t	remaining;	/* bytes left in this pass */
	uint64_t	transferred;	/* bytes sent so far */
	double		dirty_rate;	/* bytes/s the guest dirties */
	double		bandwidth;	/* bytes/s actually sent */
	uint64_t	expected_downtime_ms;
	int		throttle_pct;
};

enum ctl_action {
	CTL_NONE,
	CTL_SET_DOWNTIME,	/* value: downtime-limit in ms */
	CTL_AUTO_CONVERGE,	/* value: the throttle to start at, percent */
	CTL_POST_COPY,
	CTL_PAUSE,
	CTL_ABORT,
};

struct ctl_decision {
	enum ctl_action	action;
	uint64_t	value;
	char		reason[320];
};

/*
 * KubeVirt's newest monitor, asked for by spec.experimental of a policy or
 * the KubeVirt CR (the kubevirt controller only): the stall detector
 * replaces the classic timeouts; downtime tuning raises the downtime limit
 * step by step under them.  ctl_config_experimental() fills them from the
 * settings (KubeVirt's defaults for the fields not given).
 */
struct ctl_stall {
	int		enabled;
	uint64_t	margin_pct;		/* stallMargin: 4 */
	double		ewma_alpha;		/* ewmaAlpha: 0.4 */
	uint64_t	window_s;		/* stallProgressTimeout: 40 */
	uint64_t	switchover_timeout_s;	/* switchoverTimeout: 60 */
	double		precopy_factor;		/* precopyPossibleFactor: 1.5 */
	double		patience_decay;		/* patienceWindowDecayFactor:
						   0.5 */
	int		search_local_minima;	/* true */
	double		completion_factor;	/* completionTimeoutFactor: 2 */
};

struct ctl_tuning {
	int		enabled;
	uint64_t	initial_ms;		/* initialMs: 150 */
	uint64_t	steps;			/* 7 */
	uint64_t	start_after_iteration;	/* 3 */
	uint64_t	cooldown_s;		/* cooldownSeconds: 10 */
};

/* KubeVirt's maxDowntimeMs when unset, which its newest monitor applies. */
#define CTL_KUBEVIRT_MAX_DOWNTIME_MS	900
/* QEMU's largest downtime-limit: KubeVirt's "hard stop-and-copy". */
#define CTL_QEMU_MAX_DOWNTIME_MS	2000000

/* What a controller may do, fixed when the migration starts. */
struct ctl_config {
	uint64_t	guest_bytes;		/* RAM (+ disks) to move */
	uint64_t	completion_timeout_per_gib;
	uint64_t	progress_timeout;
	uint64_t	max_downtime_ms;	/* 0: QEMU's default only */
	uint64_t	initial_downtime_ms;
	int		allow_auto_converge;
	int		allow_post_copy;	/* and postcopy-ram is set */
	int		allow_workload_disruption;
	double		measured_dirty_rate;	/* bytes/s, calc-dirty-rate
						   before migrate; 0: none */
	struct ctl_stall stall;			/* kubevirt: experimental */
	struct ctl_tuning tuning;		/* kubevirt: experimental */
};

/* One pass as KubeVirt's stall detector records it (its iterationRecord). */
struct ctl_record {
	double		t_ms;		/* elapsed at the pass's start */
	uint64_t	remaining;
	uint64_t	pass;
	int		set;
};

#define CTL_STALL_CANDIDATES	128	/* minima within the window */
#define CTL_STALL_HISTORY	512	/* the smallest remaining bytes seen */

struct ctl {
	enum ctl_kind		kind;
	struct ctl_config	cfg;
	double			acceptable;	/* seconds, 0 = never */
	double			last_progress;	/* t of the last new minimum */
	uint64_t		min_remaining;
	int			have_min;
	int			paused;
	int			postcopy;
	int			throttling;
	uint64_t		downtime_ms;
	/* adaptive */
	uint64_t		last_pass;
	int			stalled_passes;	/* passes judged divergent */
	int			throttle_full_passes; /* ... at 99% throttle */
	uint64_t		pass_min_remaining; /* low point of this pass */
	uint64_t		prev_pass_min;	    /* low point of the last */
	double			pass_start_t;	/* when this pass began */
	uint64_t		pass_start_bytes; /* transferred by then */
	double			pass_bandwidth;	/* bytes/s over the last pass */
	int			want_postcopy;
	double			last_action_t;
	int			judged;		/* a pass was judged */
	int			early_judged;	/* ... or the bulk pass */
	/* kubevirt: KubeVirt's progress clock (the previous sample's) */
	uint64_t		kv_prev_remaining;
	int			kv_have_prev;
	double			kv_last_progress;
	uint64_t		kv_last_pass;
	int			kv_started;
	/* kubevirt: downtime tuning */
	int			tuning_started;
	double			tuned_t;
	/* kubevirt: the stall detector */
	double			switchover_deadline;	/* seconds */
	double			ewma_bw;
	int			stall_detected;
	int			switchover_initiated;
	struct ctl_record	rec;		/* the last pass */
	struct ctl_record	min_outside;	/* smallest out of the window */
	struct ctl_record	cand[CTL_STALL_CANDIDATES];
	size_t			ncand;
	uint64_t		hist[CTL_STALL_HISTORY];	/* ascending */
	size_t			nhist;
	uint64_t		best_remaining;
	double			relax_deadline_ms;
	double			relax_patience_ms;
};

/* ctl.c */
const char	*ctl_kind_name(enum ctl_kind);
const char	*ctl_action_name(enum ctl_action);
void		 ctl_init(struct ctl *, enum ctl_kind, const struct ctl_config *);
void		 ctl_step(struct ctl *, const struct ctl_sample *,
		    struct ctl_decision *);
double		 ctl_acceptable_seconds(const struct ctl_config *);
int		 ctl_wants_dirty_rate(enum ctl_kind, const struct ctl_config *,
		    uint64_t);
void		 ctl_config_experimental(struct ctl_config *, enum ctl_kind,
		    const struct mig_settings *);
struct json_object *ctl_config_to_json(enum ctl_kind,
		    const struct ctl_config *);
void		 ctl_config_from_json(struct json_object *, enum ctl_kind *,
		    struct ctl_config *);

/* ctl-kubevirt.c */
void		 ctl_kubevirt_step(struct ctl *, const struct ctl_sample *,
		    struct ctl_decision *);

/* ctl-adaptive.c */
void		 ctl_adaptive_step(struct ctl *, const struct ctl_sample *,
		    struct ctl_decision *);

/* The migration's state as a node agent reads it (status.c). */
enum mig_phase {
	PHASE_PENDING,
	PHASE_PREPARING_TARGET,
	PHASE_TARGET_READY,
	PHASE_RUNNING,
	PHASE_SUCCEEDED,
	PHASE_FAILED,
	PHASE_HANDED_OVER,	/* evict, External: no migration, VM still here */
};

enum mig_mode { MODE_PRECOPY, MODE_POSTCOPY, MODE_PAUSED };

enum abort_status { ABORT_NONE, ABORT_ABORTING, ABORT_SUCCEEDED,
	ABORT_FAILED };

/* Why a migration failed; decides the plane and the exit status. */
enum mig_failure {
	FAIL_NONE,
	FAIL_NOT_MIGRATABLE,	/* exit 2, control plane */
	FAIL_CONTROL,		/* exit 3 */
	FAIL_DATA,		/* exit 4 */
	FAIL_ABORTED,		/* exit 5 */
	FAIL_POSTCOPY_LOST,	/* exit 6, data plane */
};

struct mig_progress {
	double		elapsed;		/* s since migrate, at the sample */
	char		qemu_status[32];
	uint64_t	data_total;
	uint64_t	data_processed;
	uint64_t	data_remaining;
	double		bandwidth;		/* bytes/s */
	double		dirty_rate;		/* bytes/s */
	uint64_t	iteration;
	uint64_t	expected_downtime_ms;
	uint64_t	downtime_ms;
	int		throttle_pct;
	uint64_t	postcopy_requests;
	uint64_t	total_time_ms;
	struct json_object *disks;	/* owned: mirror jobs, or NULL */
};

struct status {
	char			 uid[40];
	const char		*role;		/* "source" or "target" */
	enum mig_phase		 phase;
	enum mig_mode		 mode;
	double			 start;		/* realtime */
	double			 end;
	char			*source;
	char			*target;
	char			*source_node;	/* KubeVirt's migrationState */
	char			*source_pod;
	char			*target_node;
	char			*target_pod;
	char			*target_address; /* targetNodeAddress */
	char			*evacuation_node; /* EvictionRequested */
	enum mig_failure	 failure;
	char			*failure_reason;
	int			 abort_requested;
	enum abort_status	 abort_status;
	char			*policy_name;
	char			*controller;
	struct json_object	*configuration;	/* owned */
	struct json_object	*conditions;	/* owned: pre-flight's, or NULL */
	struct json_object	*eviction;	/* owned: evict's record, or NULL */
	struct json_object	*notes;		/* owned array of strings */
	struct json_object	*decisions;	/* owned array */
	struct mig_progress	 progress;
	struct json_object	*phase_times;	/* owned: one {phase, time} per
						   phase entered, in order */
	char			*vmim_name;	/* --vmim's metadata, or NULL */
	char			*vmim_namespace;
	int			 uid_from_vmim;	/* uid is --vmim's metadata.uid */

	char			*file;		/* --status-file, or NULL */
	int			 events;	/* --events: JSON lines */
	int			 write_failed;	/* logged once */
	int			 held;		/* status_hold() depth */
	int			 file_kept;	/* never write the file */
	struct json_object	*pending;	/* held: [event, document]... */
};

/* status.c */
const char	*status_phase_name(enum mig_phase);
const char	*status_mode_name(enum mig_mode);
void		 status_init(struct status *, const char *role,
		    const char *file, int events);
void		 status_free(struct status *);
void		 status_set_phase(struct status *, enum mig_phase);
void		 status_set_mode(struct status *, enum mig_mode);
void		 status_note(struct status *, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));
void		 status_fail(struct status *, enum mig_failure,
		    const char *fmt, ...)
		    __attribute__((format(printf, 3, 4)));
void		 status_record_failure(struct status *, enum mig_failure,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void		 status_decision(struct status *, double t, const char *action,
		    const char *reason, const struct ctl_sample *);
void		 status_progress(struct status *);
void		 status_set_abort(struct status *, enum abort_status);
void		 status_set_abort_requested(struct status *);
void		 status_clear_failure(struct status *);
struct mig_info;
void		 status_set_progress(struct status *, const struct mig_info *,
		    double elapsed);
void		 status_hold(struct status *);
void		 status_release(struct status *);
void		 status_changed(struct status *, const char *event);
struct json_object *status_to_json(const struct status *);
int		 status_exit_code(const struct status *);
const char	*status_plane(const struct status *);
struct json_object *status_read_file(const char *path, char **cause);
struct json_object *status_parse(const char *what, const char *buf,
		    size_t len, char **cause);
int		 status_restore(struct status *, struct json_object *doc,
		    const char *what, enum mig_phase *, enum mig_mode *,
		    char **cause);
void		 status_discard(struct status *);
void		 status_forget_held(struct status *);
void		 status_keep_file(struct status *);

/*
 * What both QEMUs are set to for one migration (mig-caps.c), derived from
 * the effective settings, and sent to the target over tls:.
 */
struct mig_plan {
	int		postcopy;	/* postcopy-ram, both sides */
	int		auto_converge;	/* source */
	int		multifd;	/* both sides */
	int		channels;	/* multifd-channels */
	uint64_t	bandwidth;	/* max-bandwidth, bytes/s (0: unlimited) */
	uint64_t	downtime_ms;	/* initial downtime-limit */
	uint64_t	downtime_max_ms; /* the most a controller may raise it to */
	int		max_cpu_throttle; /* the adaptive controller arms it */
	/* Negotiated by the two QEMUs' capabilities (mig-negotiate.c). */
	int		postcopy_preempt; /* both sides */
	int		validate_uuid;	/* source */
	int		postcopy_blocktime; /* target */
};

/* mig-negotiate.c: what the two QEMUs of a migration can do together */
enum mig_cap {
	MIG_CAP_EVENTS, MIG_CAP_POSTCOPY_RAM, MIG_CAP_MULTIFD,
	MIG_CAP_AUTO_CONVERGE, MIG_CAP_POSTCOPY_PREEMPT,
	MIG_CAP_VALIDATE_UUID, MIG_CAP_POSTCOPY_BLOCKTIME,
	MIG_CAP_SWITCHOVER_ACK, MIG_CAP_DIRTY_LIMIT, MIG_CAP_MAPPED_RAM,
	MIG_CAP_ZERO_BLOCKS, MIG_CAP_COMPRESS, MIG_CAP_BLOCK,
	MIG_CAP_COUNT
};
#define MIG_CAP_BIT(c)	(1u << (c))
#define QEMU_SIDE_NAME_MAX 63
/* One side's QEMU, as its qmigrate reads it (0 or "": not known). */
struct qemu_side {
	int		major, minor, micro;
	uint32_t	caps;		/* MIG_CAP_BIT of each capability listed */
	uint64_t	ram_bytes;	/* query-memory-size-summary base-memory */
	char		machine[QEMU_SIDE_NAME_MAX + 1]; /* pc-i440fx-7.2 */
	char		cpu_model[QEMU_SIDE_NAME_MAX + 1]; /* qemu64 */
	char		uuid[37];	/* query-uuid; "" when not set */
	int		kvm;		/* 1 KVM, 0 TCG, -1 not known */
};
/* What the policy asks for (the plan before negotiation). */
struct mig_wants {
	int		postcopy;	/* allowPostCopy */
	int		channels;	/* parallelMigrationThreads (0: none) */
};
const char *mig_cap_name(enum mig_cap);
uint32_t mig_caps_listed(struct json_object *);
struct json_object *qemu_side_encode(const struct qemu_side *);
int	 qemu_side_decode(struct json_object *, struct qemu_side *,
	    char **cause);
int	 qemu_side_compare(const struct qemu_side *source,
	    const struct qemu_side *target, char *reason, size_t len);
struct json_object *mig_negotiate(const struct mig_wants *,
	    const struct qemu_side *source, const struct qemu_side *target,
	    struct mig_plan *);
int	 mig_multifd_postcopy_ok(const struct qemu_side *);

/* mig-qemu-side.c */
int	 qemu_side_read(struct qmp_conn *, struct qemu_side *, char **cause);

/* mig-caps.c */
void	 mig_plan_make(struct mig_plan *, const struct mig_settings *,
	    enum ctl_kind, struct status *);
int	 mig_plan_apply(struct qmp_conn *, const struct mig_plan *,
	    int source, char **cause);
struct json_object *mig_plan_to_json(const struct mig_plan *);
int	 mig_plan_from_json(struct mig_plan *, struct json_object *,
	    char **cause);

/* mig-control.c: the control channel's messages over tls: */
enum control_type {
	CONTROL_UNKNOWN, CONTROL_OFFER, CONTROL_WATCH, CONTROL_RESUME,
	CONTROL_ABORT, CONTROL_COMPLETED,
};
enum control_answer {
	ANSWER_UNKNOWN, ANSWER_READY, ANSWER_REFUSED, ANSWER_OK, ANSWER_ABORT,
	ANSWER_RUNNING, ANSWER_FAILED,
};
#define CONTROL_NAME_MAX	253	/* a node's or a pod's name */
struct control_offer {
	char		 uid[40];
	char		 source_node[CONTROL_NAME_MAX + 1];
	char		 source_pod[CONTROL_NAME_MAX + 1];
	int		 has_version;
	int		 qemu_major, qemu_minor, qemu_micro;
	int		 guest_running;
	struct mig_plan	 plan;
	char		**disks;	/* disk names */
	size_t		 ndisks;
	int		 has_qemu;	/* qemu and wants were sent */
	struct qemu_side qemu;		/* the source's QEMU */
	struct mig_wants wants;		/* what the source's policy asks */
};
struct control_msg {
	enum control_type	type;
	char			reason[320];	/* abort */
	struct control_offer	offer;		/* CONTROL_OFFER */
	char			offer_error[256]; /* a malformed offer */
};
const char *control_type_name(enum control_type);
const char *control_answer_name(enum control_answer);
int	 control_decode(struct json_object *, struct control_msg *,
	    char **cause);
struct json_object *control_encode(const struct control_msg *);
void	 control_msg_free(struct control_msg *);
enum control_answer control_answer_decode(struct json_object *,
	    char *reason, size_t len);
struct json_object *control_answer_encode(enum control_answer,
	    const char *reason);
void	 control_answer_identify(struct json_object *, const char *node,
	    const char *pod);
void	 control_answer_agree(struct json_object *,
	    const struct qemu_side *, const struct mig_plan *,
	    struct json_object *why);
int	 control_answer_agreed(struct json_object *, struct qemu_side *,
	    struct mig_plan *, struct json_object **why, char **cause);
void	 control_answer_identity(struct json_object *, char *node,
	    char *pod);

/*
 * --vmim FILE: the VirtualMachineInstanceMigration a migration carries
 * out (kube-vmim.c).
 */
struct kube_vmim {
	char	*file;		/* NULL: no --vmim */
	char	*name;		/* metadata.name */
	char	*namespace;	/* metadata.namespace, or NULL */
	char	*uid;		/* metadata.uid: the migrationUid */
	char	*vmi_name;	/* spec.vmiName */
};

/* mig-options.c: the options migrate and incoming share. */
struct mig_options {
	const char	*qmp_path;
	const char	*uri;		/* --to or --listen */
	const char	*policy_path;	/* NULL: built-in defaults */
	const struct policy_set *policies; /* loaded by the caller (evict):
					   used instead of policy_path */
	struct vm_ident	 vm;		/* what selects the policy */
	struct kube_vmim vmim;		/* --vmim, or none (file NULL) */
	const char	*status_file;
	int		 events;
	int		 keep_paused;	/* incoming: do not resume a paused guest */
	double		 timeout;	/* overall deadline, seconds */
	double		 recover_timeout; /* post-copy recovery, seconds */
	const char	*tls_dir;
	const char	*tls_name;
	int		 tls12;
	int		 convergence_set;
	enum ctl_kind	 convergence;	/* --convergence overrides the policy */
	const char	*slot_dir;	/* --slot-dir: node-wide limit, or NULL */
	int		 max_parallel;	/* --max-parallel: slots in slot_dir */
	struct json_object *eviction;	/* evict's record for the status */
	const char	*nbd;		/* --nbd: disks' NBD address, or NULL */
	const char	*node;		/* --node: this node; NULL: node_name() */
	const char	*pod;		/* --pod: this pod; NULL: $POD_NAME */
	const char	*evacuation_node; /* evict: the node being drained */
};
extern const struct args_option mig_common_options[];
int	 mig_options_from_args(struct args *, struct mig_options *,
	    int source, char **cause);
void	 mig_options_free(struct mig_options *);

/* mig-config.c */
int	 mig_settings_resolve(const struct mig_options *,
	    struct mig_settings *, struct status *, char **cause);

/* mig-source.c, mig-target.c */
int	 mig_source_run(const struct mig_options *);
int	 mig_target_run(const struct mig_options *);

/*
 * mig-info.c: QEMU's query-migrate and query-status answers, typed (one
 * decoder for the session, the exporter and watch).
 */
enum qemu_mig_status {
	QMS_NONE, QMS_SETUP, QMS_CANCELLING, QMS_CANCELLED, QMS_ACTIVE,
	QMS_POSTCOPY_ACTIVE, QMS_POSTCOPY_PAUSED, QMS_POSTCOPY_RECOVER,
	QMS_COMPLETED, QMS_FAILED, QMS_COLO, QMS_PRE_SWITCHOVER, QMS_DEVICE,
	QMS_WAIT_UNPLUG, QMS_UNKNOWN,
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
const char *run_state_name(enum run_state);
int	 mig_info_decode(struct json_object *reply, struct mig_info *);
double	 mig_info_dirty_rate(const struct mig_info *);
double	 mig_info_bandwidth(const struct mig_info *);
int	 run_info_decode(struct json_object *reply, struct run_info *);

/* dirty-rate.c: calc-dirty-rate and what it means for pre-copy. */
#define DIRTY_CONVERGE_RATIO	0.8	/* dirty/bandwidth that still converges */
enum dirty_verdict { DIRTY_UNKNOWN, DIRTY_CONVERGES, DIRTY_DIVERGES };
struct dirty_estimate {
	enum dirty_verdict	verdict;
	double			ratio;		/* dirty / bandwidth */
	int			passes;		/* including the stopped one */
	double			seconds;	/* to completion */
};
int	 dirty_rate_mode_ok(const char *mode);
int	 dirty_rate_kvm_enabled(struct qmp_conn *, char **cause);
int	 dirty_rate_measure(struct qmp_conn *, int seconds, int sample_pages,
	    const char *mode, double *mbps, struct json_object **per_vcpu,
	    char **cause);
void	 dirty_rate_estimate(uint64_t memory, double dirty,
	    uint64_t bandwidth, uint64_t downtime_ms, struct dirty_estimate *);

/* privs.c */
int	 privs_drop(const char *user);
int	 privs_keep(const int *keep, size_t n);

/* json-get.c */
struct json_object *json_obj_at(struct json_object *, const char *key);
const char *json_str_at(struct json_object *, const char *key);
uint64_t json_u64_at(struct json_object *, const char *key);
double	 json_double_at(struct json_object *, const char *key);
int	 json_bool_at(struct json_object *, const char *key);

/* net.c */
int	 split_hostport(const char *s, char **host, char **port);
#ifdef PROXY_H
void	 proxy_log_to_qmigrate(enum proxy_log_level, const char *msg,
	    void *arg);
#endif

/* mig-tls.c: the proxy inside migrate and incoming, for tls: URIs */
struct mig_tls_source;
struct mig_tls_target;
typedef void (*mig_tls_offer_cb)(struct json_object *msg, const char *error,
	    void *arg);
struct mig_tls_source *mig_tls_source_open(struct ev_loop *,
	    const struct mig_options *, const char *uid, char **qemu_uri,
	    char **cause);
void	 mig_tls_source_ask(struct mig_tls_source *, struct json_object *,
	    double timeout, mig_tls_offer_cb, void *arg);
void	 mig_tls_source_close(struct mig_tls_source *);
/* The NBD address of each side's QEMU over tls: (--nbd is refused). */
char	*mig_tls_source_nbd_uri(struct mig_tls_source *,
	    const struct mig_options *, char **cause);
char	*mig_tls_target_nbd_uri(struct mig_tls_target *,
	    const struct mig_options *, char **cause);
struct mig_tls_target *mig_tls_target_open(struct ev_loop *,
	    const struct mig_options *, mig_tls_offer_cb, void *arg,
	    char **qemu_uri, char **cause);
int	 mig_tls_target_answer(struct mig_tls_target *, struct json_object *,
	    char **cause);
void	 mig_tls_target_close(struct mig_tls_target *);

/* log.c */
enum log_level { LOG_LEVEL_WARN, LOG_LEVEL_INFO, LOG_LEVEL_DEBUG };
void	log_init(const char *progname, enum log_level level, int json);
void	log_set_level(enum log_level level);
void	log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	fatal(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
void	fatalx(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

/* args.c */
struct args *args_parse(const struct args_spec *, int argc, char **argv,
	    char **cause);
void	 args_free(struct args *);
int	 args_has(const struct args *, const char *name);
const char *args_get(const struct args *, const char *name);
double	 args_number(const struct args *, const char *name, double dflt);
char	*args_usage(const struct args_spec *, int all);
void	 args_print_options(FILE *, const struct args_spec *);

/* cmd.c */
struct cmd_answer {
	int			 done;
	struct json_object	*reply;
	int			 fatal;	/* timeout or connection lost */
	char			*error;
};
void	 cmd_answer_cb(struct qmp_conn *, struct json_object *reply,
	    const char *error_class, const char *error, void *arg);
extern const struct cmd_entry *cmd_table[];
const struct cmd_entry *cmd_find(const char *name);
int	 cmd_usage_error(const struct cmd_entry *cmd, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
int	 cmd_run(const struct cmd_entry *, int argc, char **argv);
void	 cmd_print_usage(FILE *, const struct cmd_entry *);

/* cmd-*.c: one entry each, listed in cmd.c */
extern const struct cmd_entry cmd_policy_entry;
extern const struct cmd_entry cmd_policy_check_entry;
extern const struct cmd_entry cmd_policy_explain_entry;
extern const struct cmd_entry cmd_abort_entry;
extern const struct cmd_entry cmd_incoming_entry;
extern const struct cmd_entry cmd_migrate_entry;
extern const struct cmd_entry cmd_proxy_entry;
extern const struct cmd_entry cmd_proxy_source_entry;
extern const struct cmd_entry cmd_proxy_target_entry;
extern const struct cmd_entry cmd_guest_entry;
extern const struct cmd_entry cmd_qmp_entry;
extern const struct cmd_entry cmd_check_entry;
extern const struct cmd_entry cmd_evict_entry;
extern const struct cmd_entry cmd_drain_entry;
extern const struct cmd_entry cmd_dirty_rate_entry;
extern const struct cmd_entry cmd_exporter_entry;
extern const struct cmd_entry cmd_stats_entry;
extern const struct cmd_entry cmd_watch_entry;
extern const struct cmd_entry cmd_status_entry;

/* cmd-status.c */
struct json_object *status_to_kubevirt(struct json_object *doc,
	    struct json_object *vmi_conditions, const char *now);
struct json_object *status_to_kubevirt_migration(struct json_object *doc,
	    char **cause);

/*
 * The policy layer, bottom to top: labels.c and policy-read.c, then
 * policy-parse.c (policy-parse.h), policy-settings.c, KubeVirt's objects
 * (policy-kube.c, kube-vmi.c), policy-load.c, policy-select.c and
 * vm-ident.c.  Each file uses only those before it.
 */

/* labels.c */
const struct label *labels_find(const struct label *, size_t n,
	    const char *key);
int	 labels_key_ok(const char *key);
int	 labels_value_ok(const char *value);
int	 labels_parse(const char *kv, struct label *out, char **cause);
int	 labels_add(struct label **labels, size_t *n, const char *key,
	    const char *value, char **cause);
int	 labels_load_file(const char *path, struct label **out, size_t *n,
	    char **cause);
int	 labels_from_json(const char *what, const char *path,
	    struct json_object *, struct label **out, size_t *n,
	    char **cause);
void	 labels_free(struct label *labels, size_t n);
struct json_object *labels_to_json(const struct label *, size_t n);

/* policy-read.c */
char	*policy_read_file(const char *what, const char *path, size_t *len,
	    char **cause);
struct json_object *policy_read_json(const char *what, const char *path,
	    char **cause);
int	 policy_read_docs(const char *what, const char *path,
	    struct yaml_docs *, char **cause);

/* policy-settings.c */
void	 policy_defaults(struct mig_settings *);
void	 mig_settings_free(struct mig_settings *);
void	 mig_settings_copy(struct mig_settings *dst,
	    const struct mig_settings *src);
void	 mig_settings_overlay(struct mig_settings *dst,
	    const struct mig_settings *src);
int	 mig_settings_kubevirt_downtime(const struct mig_settings *);
uint64_t mig_settings_reported_downtime(const struct mig_settings *);
struct json_object *mig_settings_to_json(const struct mig_settings *);
struct json_object *policy_to_json(const struct policy *);
char	*policy_origin(const struct policy *);
int	 policy_parse_bandwidth(const char *s, uint64_t *out);
const char *policy_eviction_name(enum eviction_strategy);
const char *policy_convergence_name(enum ctl_kind);

/* policy-kube.c: KubeVirt's objects in a policy file or directory */
int	 policy_kube_doc(struct policy_set *, const char *file, size_t doc,
	    int yaml, struct json_object *, char **cause);

/* kube-vmi.c: --vmi FILE, --namespace-labels-file FILE */
extern const char *const kube_meta_known[];
struct json_object *kube_one_document(const char *what, const char *path,
	    int *yaml, char **cause);
int	 kube_vmi_load(const char *path, struct vm_ident *, char **cause);
void	 vm_ident_free(struct vm_ident *);
int	 kube_vmi_conditions(const char *path, struct json_object **out,
	    char **cause);

/* kube-vmim.c: --vmim FILE */
extern const struct args_option kube_vmim_options[];
int	 kube_vmim_load(const char *path, struct kube_vmim *, char **cause);
int	 kube_vmim_check_vmi(const struct kube_vmim *,
	    const struct vm_ident *, char **cause);
void	 kube_vmim_identify(const struct kube_vmim *, struct status *);
void	 kube_vmim_free(struct kube_vmim *);
int	 kube_namespace_labels_load(const char *path, struct label **out,
	    size_t *n, char **name, char **cause);
int	 kube_namespace_set(struct vm_ident *, const char *name,
	    const char *from, char **cause);

/* policy-load.c */
struct policy_set *policy_set_new(const char *path);
struct policy_set *policy_load(const char *path, char **cause);
struct policy_set *policy_load_or_default(const char *path, char **cause);
void	 policy_set_free(struct policy_set *);
void	 policy_clear(struct policy *);

/* policy-select.c */
const struct policy *policy_select(const struct policy_set *,
	    const struct vm_ident *, char **why);
void	 policy_choose(const struct policy_set *, const struct vm_ident *,
	    struct policy_choice *, int explain);
void	 policy_choice_free(struct policy_choice *);

/* vm-ident.c */
int	 vm_ident_option(struct vm_ident *, const char *option,
	    const char *arg, char **cause);
extern const struct args_option vm_ident_options[];
int	 vm_ident_from_args(struct vm_ident *, const struct args *,
	    char **cause);

/* yaml-read.c */
#define YAML_MAX_DEPTH	64
struct yaml_docs {
	struct json_object	**docs;	/* NULL for an empty document */
	size_t			  n;
};
int	 yaml_read(const char *buf, size_t len, size_t max_docs,
	    struct yaml_docs *, char **cause);
void	 yaml_docs_free(struct yaml_docs *);

/* quantity.c */
int	 quantity_parse(const char *s, uint64_t max, uint64_t *out);
int	 quantity_parse_milli(const char *s, uint64_t max_milli,
	    uint64_t *milli);

/* slot.c: outbound migrations at once on a node (flock'd slot files). */
#define SLOT_DEFAULT_DIR	"/run/qmigrate"
#define SLOT_DEFAULT_MAX	2	/* parallelOutboundMigrationsPerNode */
#define SLOT_MAX		64
int	 slot_wait(struct ev_loop *, struct qmp_conn *, const char *dir,
	    int max, double timeout, const int *stop, struct status *);
void	 slot_release(void);

/* evict.c: one VM's eviction by its policy's strategy. */
struct evict_options {
	const char	*qmp_path;
	const char	*qga_path;	/* NULL: system_powerdown only */
	const char	*uri;
	const char	*policy_path;	/* NULL: POLICY_DEFAULT_DIR if any */
	struct vm_ident	 vm;		/* what selects the policy */
	struct kube_vmim vmim;		/* --vmim, or none (file NULL) */
	const char	*status_file;
	int		 events;
	const char	*node;		/* this node: NULL = node_name() */
	const char	*pod;		/* this pod, or NULL: $POD_NAME */
	double		 timeout;	/* migration deadline, 0 = policy's */
	const char	*slot_dir;
	int		 max_parallel;
};
int	 evict_run(const struct evict_options *);

/* drain.c: a node's evacuation, one evict child per VM. */
struct drain_options {
	const char	*inventory;
	int		 max_parallel;	/* 0: the cluster's (KubeVirt) */
	const char	*slot_dir;
	const char	*policy_path;
	const char	*node;
	struct vm_ident	 vm;		/* namespace labels for every VM */
};
int	 drain_run(const struct drain_options *);
int	 drain_check_inventory(const char *file, char **cause);

/* preflight-storage.c: whether file is on storage the target sees too */
int	 preflight_disk_shared(const struct mig_settings *, const char *file,
	    char *why, size_t len);

/* preflight.c */
int	 preflight_run(struct qmp_conn *, const struct mig_settings *,
	    struct json_object **conditions, char **summary);

/* util.c */
int	 parse_seconds(const char *s, double *out);
int	 parse_u64(const char *s, uint64_t *out);
int	 write_file_atomic(const char *path, const char *data, size_t len,
	    char **cause);
double	 now_monotonic(void);
double	 now_realtime(void);
char	*format_rfc3339(double when);
int	 proc_start_time(pid_t, unsigned long long *ticks);
char	*node_name(const char *given);

#endif
