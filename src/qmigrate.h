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
extern const struct cmd_entry cmd_qmp_entry;

/* util.c */
int	 parse_seconds(const char *s, double *out);
int	 parse_u64(const char *s, uint64_t *out);
int	 write_file_atomic(const char *path, const char *data, size_t len,
	    char **cause);
double	 now_monotonic(void);
double	 now_realtime(void);
char	*format_rfc3339(double when);

#endif
