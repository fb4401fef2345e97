/*
 * qmigrate.h: what every part of the engine shares, grouped by the file
 * that defines it (tmux.h's layout): exit statuses, commands and their
 * options, the migration settings, the status document, logging and small
 * helpers.  An area's own model has its own header: policy.h (policies
 * and the VM's identity), ctl.h (controllers), mig-options.h,
 * mig-control.h, mig-info.h, mig-negotiate.h, mig-tls.h, dirty-rate.h,
 * slot.h, preflight.h, evict.h, drain.h, observe.h (a VM as the exporter
 * and stats see it).
 */
#ifndef QMIGRATE_H
#define QMIGRATE_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"

struct args;
struct ctl_sample;
struct ev_loop;
struct json_object;
struct mig_info;
struct mig_job_cmd;
struct mig_options;
struct qmp_conn;
struct status;
struct yaml_docs;

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
	QM_EXIT_UNKNOWN = 8,		/* QEMU stopped answering: where the
					   guest runs is not known */
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
	const char		 *exits;	/* "Exit status: ...", last */
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

/* MODE_CPR_TRANSFER: `qmigrate update`, the guest moved to a new QEMU on
 * the same host by QEMU's cpr-transfer (its RAM passed, not copied);
 * MODE_CPR_EXEC: `update --mode exec`, the QEMU process exec'd the new
 * binary (cpr-exec, 10.2: the same pid, the RAM in its memfd). */
enum mig_mode { MODE_PRECOPY, MODE_POSTCOPY, MODE_PAUSED, MODE_CPR_TRANSFER,
	MODE_CPR_EXEC };

/* What migrate's --timeout deadline does (--timeout-action): cancel, or
 * finish the migration: post-copy (virsh --timeout-postcopy), or the
 * source's vCPUs stopped so pre-copy converges (virsh --timeout-suspend). */
enum timeout_action { TIMEOUT_ABORT, TIMEOUT_POSTCOPY, TIMEOUT_PAUSE };

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
	FAIL_UNKNOWN,		/* exit 8: QEMU stopped answering */
};

/* The two sides of a migration, as the status names their places. */
enum status_side { STATUS_SOURCE, STATUS_TARGET };

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
	int		cpr_transfer;	/* source: migrate-set-parameters mode
					   cpr-transfer (`qmigrate update`) */
	int		cpr_exec;	/* source: mode cpr-exec (`update --mode
					   exec`) with cpr_exec_command */
	char *const	*cpr_exec_command; /* NULL-terminated, the options' */
	int		mode_listed;	/* source: QEMU has the mode parameter
					   (8.2): a plain plan sets normal */
	/* The throttle (mig_throttle_choose()): auto_converge or this. */
	int		dirty_limit;	/* source: dirty-limit, KVM's ring */
	int		dirty_limit_listed; /* the source's QEMU lists it: the
					   capability is always sent */
	/* return-path (mig-negotiate.c), source only; sent off too where
	 * listed, so that no earlier migration's setting stays. */
	int		return_path;
	int		return_path_listed;
	char		throttle_why[320]; /* "dirty-limit: both QEMUs ..." */
};

/* The job that sets a plan on one side (mig-job.h), and its context. */
struct mig_plan_apply {
	struct mig_plan	plan;
	int		source;
};

enum log_level { LOG_LEVEL_WARN, LOG_LEVEL_INFO, LOG_LEVEL_DEBUG };

/* A one-shot command's answer from QMP (cmd_answer_cb). */
struct cmd_answer {
	int			 done;
	struct json_object	*reply;
	int			 fatal;	/* timeout or connection lost */
	char			*error;
};

/* The figures of a person's progress line (status_figures()). */
struct progress_figures {
	const char	*phase;		/* borrowed: the status's */
	const char	*qemu_status;	/* borrowed; "" before the first */
	double		 elapsed;	/* s */
	uint64_t	 total, remaining;	/* bytes */
	double		 bandwidth, dirty_rate;	/* bytes/s */
};

/* status.c */
const char	*status_phase_name(enum mig_phase);
void		 status_figures(const struct status *,
		    struct progress_figures *);
struct status	*status_create(const char *role, const char *file,
		    int events);
char		*status_summary(const struct status *);
void		 status_free(struct status *);
const char	*status_role(const struct status *);
const char	*status_uid(const struct status *);
int		 status_uid_accepts(const struct status *, const char *uid);
enum mig_phase	 status_phase(const struct status *);
enum mig_failure status_failure(const struct status *, const char **reason);
void		 status_side(const struct status *, enum status_side,
		    const char **node, const char **pod);
void		 status_set_uid(struct status *, const char *uid);
void		 status_set_vmim(struct status *, const char *uid,
		    const char *name, const char *namespace);
void		 status_set_ends(struct status *, const char *source,
		    const char *target);
void		 status_set_side(struct status *, enum status_side,
		    const char *node, const char *pod);
void		 status_set_target_address(struct status *, const char *);
void		 status_set_eviction(struct status *, const char *node,
		    struct json_object *record);
void		 status_set_conditions(struct status *, struct json_object *);
void		 status_set_configuration(struct status *, const char *policy,
		    const char *controller, struct json_object *);
void		 status_configure(struct status *, const char *key,
		    struct json_object *value);
void		 status_set_disks(struct status *, struct json_object *);
int		 status_report(struct status *, int json_flags);
void		 status_set_phase(struct status *, enum mig_phase);
void		 status_set_mode(struct status *, enum mig_mode);
void		 status_note(struct status *, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));
void		 status_fail(struct status *, enum mig_failure,
		    const char *fmt, ...)
		    __attribute__((format(printf, 3, 4)));
void		 status_record_failure(struct status *, enum mig_failure,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void		 status_switchover(struct status *, const char *id,
		    const char *finish, const char *answer, const char *reason);
void		 status_decision(struct status *, double t, const char *action,
		    const char *reason, const char *by,
		    const struct ctl_sample *);
enum abort_status status_abort(const struct status *, int *requested);
void		 status_set_abort(struct status *, enum abort_status);
void		 status_set_abort_requested(struct status *);
void		 status_clear_failure(struct status *);
void		 status_set_downtime(struct status *, uint64_t);
void		 status_set_progress(struct status *, const struct mig_info *,
		    double elapsed);
void		 status_hold(struct status *);
void		 status_release(struct status *);
void		 status_changed(struct status *, const char *event);
struct json_object *status_to_json(const struct status *);
int		 status_exit_code(const struct status *);
int		 mig_exit_code(enum mig_failure, enum mig_phase);
const char	*mig_failure_plane(enum mig_failure);
struct json_object *status_read_file(const char *path, char **cause);
/* status-writer.c: a pidfd on the qmigrate that writes file (its document
 * doc), or -1 with *cause saying that nothing drives the migration. */
int		 status_writer_open(struct json_object *doc, const char *file,
		    char **cause);
/* ... sig sent through that pidfd (closed): 0, or -1 with *cause. */
int		 status_writer_signal(int pidfd, const char *file, int sig,
		    char **cause);
/* ... file read until answer() says 1 (*exit_code set): 1, or 0 when
 * timeout s passed first. */
int		 status_writer_wait(const char *file, double timeout,
		    int (*answer)(struct json_object *, void *, int *),
		    void *arg, int *exit_code);
struct json_object *status_parse(const char *what, const char *buf,
		    size_t len, char **cause);
int		 status_restore(struct status *, struct json_object *doc,
		    const char *what, enum mig_phase *, enum mig_mode *,
		    char **cause);
void		 status_discard(struct status *);
void		 status_forget_held(struct status *);
void		 status_keep_file(struct status *);
int		 status_file_current(const struct status *);

/* mig-caps.c */
void	 mig_plan_make(struct mig_plan *, const struct mig_settings *,
	    enum ctl_kind, struct status *);
/* A plan for a QEMU whose capabilities are unknown: no multifd with
 * post-copy, the return path (only what every QEMU runs). */
void	 mig_plan_least(struct mig_plan *);
/* migrate-set-capabilities' arguments turning capability NAME off. */
struct json_object *mig_cap_off_args(const char *name);
enum mig_job_next mig_plan_apply_job(void *, int *, struct json_object *,
	    const char *, struct mig_job_cmd *, char **);
struct json_object *mig_plan_to_json(const struct mig_plan *);
int	 mig_plan_from_json(struct mig_plan *, struct json_object *,
	    char **cause);

/* mig-source.c, mig-target.c: the engine (mig-options.h) */
int	 mig_source_run(const struct mig_options *);
int	 mig_target_run(const struct mig_options *);

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
int	 uri_check(const char *option, const char *uri, int listener,
	    char **cause);

/* output.c */
enum out_stream { OUT_STDOUT, OUT_STDERR };
/* How a stream says it lost lines: the line to write (caller frees). */
typedef char	*(*out_notice_fn)(unsigned long lost, const char *stream);
int		 out_line(enum out_stream, const char *text);
int		 out_status(const char *text);
unsigned long	 out_lost(enum out_stream);
void		 out_set_notice(enum out_stream, out_notice_fn);
void		 out_set_log_format(char *(*)(const char *msg));
struct ev_loop	*out_attach(struct ev_loop *);
void		 out_detach(struct ev_loop *, struct ev_loop *prev);
void		 out_drain(void);
void		 out_reset(int stdout_fd, int stderr_fd);

/* progress-line.c */
char	*progress_line_format(const char *prefix,
	    const struct progress_figures *, size_t width);
void	 progress_line_enable(int stdout_lines);
void	 progress_line_update(const struct status *);

/* log.c */
void	log_init(const char *progname, enum log_level level, int json);
const char *log_get_prefix(void);
int	log_shows(enum log_level);
void	log_set_command(const char *name);
int	log_is_json(void);
void	log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
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
const char *args_option_at(const struct args *, size_t i,
	    const char **value);
int	 args_count(const struct args *);
const char *args_string(const struct args *, int i);
char	*args_usage(const struct args_spec *, int all);
void	 args_print_options(FILE *, const struct args_spec *);

/* cmd.c */
void	 cmd_answer_cb(struct qmp_conn *, struct json_object *reply,
	    const char *error_class, const char *error, void *arg);
extern const struct cmd_entry *cmd_table[];
const struct cmd_entry *cmd_find(const char *name);
int	 cmd_usage_error(const struct cmd_entry *cmd, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
int	 cmd_run(const struct cmd_entry *, int argc, char **argv);
void	 cmd_print_usage(FILE *, const struct cmd_entry *);
void	 cmd_print_help(const struct cmd_entry *);
void	 cmd_print_overview(FILE *);
/* The exec of migrate (source) and incoming. */
int	 cmd_migrate_side(const struct cmd_entry *, struct args *,
	    int source);

/* kube-status.c */
struct json_object *status_to_kubevirt(struct json_object *doc,
	    struct json_object *vmi_conditions, const char *now);
struct json_object *status_to_kubevirt_migration(struct json_object *doc,
	    char **cause);

/* mig-marker.c */
#define UPDATE_MARKER_SUFFIX	".update"
struct update_marker {
	char			 uid[64];	/* the update's migrationUid */
	pid_t			 pid;		/* its QEMU (0: not known) */
	unsigned long long	 start;		/* ... /proc/PID/stat's start */
	char			 qmp[256];	/* ... its monitor */
	double			 time;		/* when it was written (realtime) */
};
char	*update_marker_path(const char *status_file);
int	 update_marker_write(const char *path, const struct update_marker *,
	    char **cause);
int	 update_marker_read(const char *path, struct update_marker *,
	    char **cause);
int	 update_marker_remove(const char *path, char **cause);

/* update-command.c */
int	 update_command_load(const char *, const char *, char ***, char **);
void	 update_command_free(char **);

/* util.c */
int	 parse_seconds(const char *s, double *out);
int	 parse_u64(const char *s, uint64_t *out);
int	 write_file_atomic(const char *path, const char *data, size_t len,
	    char **cause);
int	 write_file_probe(const char *path, size_t size, char **cause);
char	*format_rfc3339(double when);
int	 proc_start_time(pid_t, unsigned long long *ticks);
char	*node_name(const char *given);

#endif
