/*
 * qmigrate.h: the engine's shared declarations, grouped by the file that
 * defines them (tmux.h's layout).
 */
#ifndef QMIGRATE_H
#define QMIGRATE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

struct ev_loop;
struct json_object;
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
};

/* A subcommand: src/cmd-*.c each export one, src/cmd.c lists them. */
struct cmd_entry {
	const char *name;
	const char *usage;	/* one line: flags after the command name */
	const char *help;	/* a few lines for COMMAND --help */
	int (*exec)(int argc, char **argv);	/* argv[0] is the command name */
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
};

#define POLICY_MAX_LABELS 64

struct label {
	char	*key;
	char	*value;
};

struct policy {
	char			*name;
	char			*file;		/* where it was read from */
	struct label		*selector;	/* selector.labels */
	size_t			 nselector;
	enum eviction_strategy	 eviction;
	uint64_t		 termination_grace_seconds;
	struct mig_settings	 migration;
};

/* Bounds on policy input and what applies when no policy matches. */
#define POLICY_DEFAULT_DIR	"/etc/qmigrate/policies.d"
#define POLICY_MAX_FILE_SIZE	(1024 * 1024)
#define POLICY_MAX_FILES	1000
#define POLICY_DEFAULT_EVICTION	EVICT_NONE	/* KubeVirt's cluster default */
#define POLICY_DEFAULT_GRACE_SECONDS 30		/* KubeVirt's VMI default */

/* Every policy of a file or directory, sorted by name (policy_load()). */
struct policy_set {
	char		*path;
	struct policy	*policies;
	size_t		 npolicies;
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
	CTL_AUTO_CONVERGE,	/* value: max-cpu-throttle percentage */
	CTL_POST_COPY,
	CTL_PAUSE,
	CTL_ABORT,
};

struct ctl_decision {
	enum ctl_action	action;
	uint64_t	value;
	char		reason[256];
};

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
};

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
	uint64_t		pass_min_remaining; /* low point of this pass */
	uint64_t		prev_pass_min;	    /* low point of the last */
	uint64_t		pass_max_remaining; /* what this pass must send */
	uint64_t		prev_pass_max;	    /* ... and the last one */
	int			want_postcopy;
	double			last_action_t;
};

/* ctl.c */
const char	*ctl_kind_name(enum ctl_kind);
const char	*ctl_action_name(enum ctl_action);
void		 ctl_init(struct ctl *, enum ctl_kind, const struct ctl_config *);
void		 ctl_step(struct ctl *, const struct ctl_sample *,
		    struct ctl_decision *);
double		 ctl_acceptable_seconds(const struct ctl_config *);

/* ctl-kubevirt.c */
void		 ctl_kubevirt_step(struct ctl *, const struct ctl_sample *,
		    struct ctl_decision *);

/* ctl-adaptive.c */
void		 ctl_adaptive_step(struct ctl *, const struct ctl_sample *,
		    struct ctl_decision *);

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

/* xmalloc.c */
void	*xmalloc(size_t size);
void	*xcalloc(size_t nmemb, size_t size);
void	*xrealloc(void *ptr, size_t size);
void	*xreallocarray(void *ptr, size_t nmemb, size_t size);
char	*xstrdup(const char *s);
char	*xstrndup(const char *s, size_t n);
int	 xasprintf(char **ret, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
int	 xvasprintf(char **ret, const char *fmt, va_list ap);

/* cmd.c */
extern const struct cmd_entry *cmd_table[];
const struct cmd_entry *cmd_find(const char *name);
int	 cmd_usage_error(const struct cmd_entry *cmd, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
int	 cmd_wants_help(int argc, char **argv);
void	 cmd_print_help(const struct cmd_entry *cmd);

/* cmd-*.c: one entry each, listed in cmd.c */
extern const struct cmd_entry cmd_policy_entry;
extern const struct cmd_entry cmd_proxy_entry;
extern const struct cmd_entry cmd_guest_entry;
extern const struct cmd_entry cmd_qmp_entry;

/* policy-load.c */
void	 policy_defaults(struct mig_settings *);
void	 mig_settings_free(struct mig_settings *);
void	 mig_settings_copy(struct mig_settings *dst,
	    const struct mig_settings *src);
struct json_object *mig_settings_to_json(const struct mig_settings *);
struct policy_set *policy_load(const char *path, char **cause);
struct policy_set *policy_load_or_default(const char *path, char **cause);
void	 policy_set_free(struct policy_set *);
struct json_object *policy_to_json(const struct policy *);
int	 policy_parse_bandwidth(const char *s, uint64_t *out);
const char *policy_eviction_name(enum eviction_strategy);
const char *policy_convergence_name(enum ctl_kind);
int	 policy_label_key_ok(const char *key);
struct json_object *policy_read_json(const char *what, const char *path,
	    char **cause);

/* policy-select.c */
const struct policy *policy_select(const struct policy_set *,
	    const struct label *labels, size_t nlabels, char **why);
int	 labels_parse(const char *kv, struct label *out, char **cause);
int	 labels_add(struct label **labels, size_t *n, const char *key,
	    const char *value, char **cause);
int	 labels_load_file(const char *path, struct label **out, size_t *n,
	    char **cause);
void	 labels_free(struct label *labels, size_t n);

/* util.c */
int	 parse_seconds(const char *s, double *out);
int	 parse_u64(const char *s, uint64_t *out);
int	 write_file_atomic(const char *path, const char *data, size_t len,
	    char **cause);
double	 now_monotonic(void);
double	 now_realtime(void);
char	*format_rfc3339(double when);

#endif
