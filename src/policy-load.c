/*
 * policy-load.c: reads policy files (JSON with comments, one policy per
 * file) into struct policy, checking every field, and KubeVirt's defaults.
 *
 * Input is untrusted in the sense that an operator's typo must never turn
 * into a silently different migration: unknown fields, wrong types and
 * out-of-range values are refused with the file and the field named, and a
 * directory with one bad file is refused whole.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "qmigrate.h"

/* Ranges of the numeric fields; README.md in policies/ documents them. */
#define MAX_BANDWIDTH		(1ULL << 40)	/* 1 TiB/s */
#define MAX_TIMEOUT		86400ULL	/* a day */
#define MAX_DOWNTIME_MS		2000000ULL	/* QEMU's limit, 2000 s */
#define MAX_MULTIFD		64
#define MAX_SHARED_PATHS	64
#define MAX_DISKS		64
#define MAX_NAME_LEN		253
#define MAX_LABEL_LEN		253

/* One file being parsed: where errors go and what they name. */
struct pctx {
	const char	*file;
	char	       **cause;
};

static void perr(struct pctx *, const char *, const char *, ...)
	    __attribute__((format(printf, 3, 4)));

/* Sets *cause to "policy FILE: FIELD: message" (FIELD may be NULL). */
static void
perr(struct pctx *c, const char *field, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	if (field != NULL)
		xasprintf(c->cause, "policy %s: %s: %s", c->file, field, msg);
	else
		xasprintf(c->cause, "policy %s: %s", c->file, msg);
	free(msg);
}

/*
 * Describes a JSON value for an error message: scalars as JSON text (json-c
 * escapes control characters in strings), long ones cut, containers by kind.
 * Returns a malloc'd string.
 */
static char *
json_got(struct json_object *v)
{
	const char	*s;
	char		*out;

	switch (json_object_get_type(v)) {
	case json_type_null:
		return xstrdup("null");
	case json_type_object:
		return xstrdup("an object");
	case json_type_array:
		return xstrdup("an array");
	default:
		break;
	}
	s = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN |
	    JSON_C_TO_STRING_NOSLASHESCAPE);
	if (strlen(s) > 64)
		xasprintf(&out, "%.60s...", s);
	else
		out = xstrdup(s);
	return out;
}

static void
perr_got(struct pctx *c, const char *field, const char *expected,
    struct json_object *v)
{
	char *got = json_got(v);

	perr(c, field, "expected %s, got %s", expected, got);
	free(got);
}

const char *
policy_eviction_name(enum eviction_strategy e)
{
	switch (e) {
	case EVICT_NONE:
		return "None";
	case EVICT_LIVE_MIGRATE:
		return "LiveMigrate";
	case EVICT_LIVE_MIGRATE_IF_POSSIBLE:
		return "LiveMigrateIfPossible";
	case EVICT_EXTERNAL:
		return "External";
	}
	return "unknown";
}

const char *
policy_convergence_name(enum ctl_kind k)
{
	switch (k) {
	case CTL_ADAPTIVE:
		return "adaptive";
	case CTL_KUBEVIRT:
		return "kubevirt";
	}
	return "unknown";
}

/* Fills s with KubeVirt's migration defaults; s owns nothing afterwards. */
void
policy_defaults(struct mig_settings *s)
{
	memset(s, 0, sizeof *s);
	s->bandwidth = 0;
	s->completion_timeout_per_gib = 150;
	s->progress_timeout = 150;
	s->max_downtime_ms = 0;
	s->allow_auto_converge = 0;
	s->allow_post_copy = 0;
	s->allow_workload_disruption = s->allow_post_copy;
	s->parallel_migration_threads = 0;
	s->disable_tls = 0;
	s->convergence = CTL_ADAPTIVE;
	s->shared_storage_paths = NULL;
}

/* Frees the strings s owns; s may be reused after policy_defaults(). */
void
mig_settings_free(struct mig_settings *s)
{
	char **p;

	if (s->shared_storage_paths != NULL) {
		for (p = s->shared_storage_paths; *p != NULL; p++)
			free(*p);
		free(s->shared_storage_paths);
	}
	s->shared_storage_paths = NULL;
	if (s->disks != NULL) {
		for (p = s->disks; *p != NULL; p++)
			free(*p);
		free(s->disks);
	}
	s->disks = NULL;
}

static char **
strv_copy(char **v)
{
	char	**out;
	size_t	  n = 0, i;

	if (v == NULL)
		return NULL;
	while (v[n] != NULL)
		n++;
	out = xcalloc(n + 1, sizeof (char *));
	for (i = 0; i < n; i++)
		out[i] = xstrdup(v[i]);
	return out;
}

/* Deep copy: dst owns its own strings (free with mig_settings_free()). */
void
mig_settings_copy(struct mig_settings *dst, const struct mig_settings *src)
{
	size_t n = 0, i;

	*dst = *src;
	dst->disks = strv_copy(src->disks);
	if (src->shared_storage_paths == NULL)
		return;
	while (src->shared_storage_paths[n] != NULL)
		n++;
	dst->shared_storage_paths = xcalloc(n + 1, sizeof (char *));
	for (i = 0; i < n; i++)
		dst->shared_storage_paths[i] =
		    xstrdup(src->shared_storage_paths[i]);
}

/*
 * The settings as the status document's "configuration": the policy file's
 * camelCase names and units.  Returns a new reference.
 */
struct json_object *
mig_settings_to_json(const struct mig_settings *s)
{
	struct json_object	*o = json_object_new_object(), *a;
	char		       **p;

	json_object_object_add(o, "bandwidthPerMigration",
	    json_object_new_int64((int64_t)s->bandwidth));
	json_object_object_add(o, "completionTimeoutPerGiB",
	    json_object_new_int64((int64_t)s->completion_timeout_per_gib));
	json_object_object_add(o, "progressTimeout",
	    json_object_new_int64((int64_t)s->progress_timeout));
	json_object_object_add(o, "maxDowntimeMs",
	    json_object_new_int64((int64_t)s->max_downtime_ms));
	json_object_object_add(o, "allowAutoConverge",
	    json_object_new_boolean(s->allow_auto_converge));
	json_object_object_add(o, "allowPostCopy",
	    json_object_new_boolean(s->allow_post_copy));
	json_object_object_add(o, "allowWorkloadDisruption",
	    json_object_new_boolean(s->allow_workload_disruption));
	json_object_object_add(o, "parallelMigrationThreads",
	    json_object_new_int(s->parallel_migration_threads));
	json_object_object_add(o, "disableTLS",
	    json_object_new_boolean(s->disable_tls));
	json_object_object_add(o, "convergence",
	    json_object_new_string(policy_convergence_name(s->convergence)));
	a = json_object_new_array();
	if (s->shared_storage_paths != NULL)
		for (p = s->shared_storage_paths; *p != NULL; p++)
			json_object_array_add(a, json_object_new_string(*p));
	json_object_object_add(o, "sharedStoragePaths", a);
	json_object_object_add(o, "blockMigration", json_object_new_string(
	    s->block_migration == BLOCK_MIGRATION_ALWAYS ? "always" :
	    s->block_migration == BLOCK_MIGRATION_AUTO ? "auto" : "never"));
	a = json_object_new_array();
	if (s->disks != NULL)
		for (p = s->disks; *p != NULL; p++)
			json_object_array_add(a, json_object_new_string(*p));
	json_object_object_add(o, "disks", a);
	return o;
}

/* A policy in the policy file's own shape.  Returns a new reference. */
struct json_object *
policy_to_json(const struct policy *p)
{
	struct json_object	*o = json_object_new_object(), *sel, *labels;
	size_t			 i;

	json_object_object_add(o, "name", json_object_new_string(p->name));
	json_object_object_add(o, "file", json_object_new_string(p->file));
	sel = json_object_new_object();
	labels = json_object_new_object();
	for (i = 0; i < p->nselector; i++)
		json_object_object_add(labels, p->selector[i].key,
		    json_object_new_string(p->selector[i].value));
	json_object_object_add(sel, "labels", labels);
	json_object_object_add(o, "selector", sel);
	json_object_object_add(o, "evictionStrategy",
	    json_object_new_string(policy_eviction_name(p->eviction)));
	json_object_object_add(o, "terminationGracePeriodSeconds",
	    json_object_new_int64((int64_t)p->termination_grace_seconds));
	json_object_object_add(o, "migration",
	    mig_settings_to_json(&p->migration));
	return o;
}

/*
 * Parses a bandwidth: decimal bytes/s with an optional binary suffix Ki, Mi,
 * Gi or Ti ("64Mi" is 64 MiB/s, "0" unlimited).  Returns 0, or -1 on junk,
 * an unknown suffix or a value over 1 TiB/s.
 */
int
policy_parse_bandwidth(const char *s, uint64_t *out)
{
	static const struct {
		const char	*suffix;
		uint64_t	 mult;
	} units[] = {
		{ "", 1 }, { "Ki", 1ULL << 10 }, { "Mi", 1ULL << 20 },
		{ "Gi", 1ULL << 30 }, { "Ti", 1ULL << 40 },
	};
	uint64_t	 v = 0;
	size_t		 i;
	const char	*p = s;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > MAX_BANDWIDTH)
			return -1;
	}
	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (strcmp(p, units[i].suffix) != 0)
			continue;
		if (v > MAX_BANDWIDTH / units[i].mult)
			return -1;
		*out = v * units[i].mult;
		return 0;
	}
	return -1;
}

/* Checks an unsigned integer field against [min, max]. */
static int
get_uint(struct pctx *c, const char *field, struct json_object *v,
    uint64_t min, uint64_t max, uint64_t *out)
{
	int64_t	 n;
	char	*expected;

	xasprintf(&expected, "an integer from %llu to %llu",
	    (unsigned long long)min, (unsigned long long)max);
	if (!json_object_is_type(v, json_type_int)) {
		perr_got(c, field, expected, v);
		free(expected);
		return -1;
	}
	/* json-c clamps larger numbers to INT64_MAX: still out of range. */
	n = json_object_get_int64(v);
	if (n < 0 || (uint64_t)n < min || (uint64_t)n > max) {
		char *got = json_got(v);

		perr(c, field, "out of range: expected %s, got %s", expected,
		    got);
		free(got);
		free(expected);
		return -1;
	}
	free(expected);
	*out = (uint64_t)n;
	return 0;
}

static int
get_bool(struct pctx *c, const char *field, struct json_object *v, int *out)
{
	if (!json_object_is_type(v, json_type_boolean)) {
		perr_got(c, field, "true or false", v);
		return -1;
	}
	*out = json_object_get_boolean(v) ? 1 : 0;
	return 0;
}

/* One accepted string of a field that takes a fixed set of names. */
struct choice {
	const char	*name;
	int		 value;
};

/*
 * Sets *out to the value of the choice (n of them) whose name is the string
 * in v; otherwise reports field, expecting the names as "expected" says.
 */
static int
get_choice(struct pctx *c, const char *field, struct json_object *v,
    const struct choice *choices, size_t n, const char *expected, int *out)
{
	const char	*str;
	size_t		 i;

	str = json_object_is_type(v, json_type_string) ?
	    json_object_get_string(v) : "";
	for (i = 0; i < n; i++) {
		if (strcmp(str, choices[i].name) == 0) {
			*out = choices[i].value;
			return 0;
		}
	}
	perr_got(c, field, expected, v);
	return -1;
}

/*
 * Returns the string in v, refusing other types, embedded NULs, control
 * characters and lengths outside [minlen, maxlen].
 */
static const char *
get_string(struct pctx *c, const char *field, struct json_object *v,
    size_t minlen, size_t maxlen)
{
	const char	*s;
	size_t		 len, i;
	char		*expected;

	if (!json_object_is_type(v, json_type_string)) {
		xasprintf(&expected, "a string");
		goto bad;
	}
	s = json_object_get_string(v);
	len = (size_t)json_object_get_string_len(v);
	if (strlen(s) != len) {
		xasprintf(&expected, "a string without NUL characters");
		goto bad;
	}
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
			xasprintf(&expected,
			    "a string without control characters");
			goto bad;
		}
	if (len < minlen || len > maxlen) {
		xasprintf(&expected, "a string of %zu to %zu characters",
		    minlen, maxlen);
		goto bad;
	}
	return s;
bad:
	perr_got(c, field, expected, v);
	free(expected);
	return NULL;
}

static int
check_object(struct pctx *c, const char *field, struct json_object *v)
{
	if (!json_object_is_type(v, json_type_object)) {
		perr_got(c, field, "an object", v);
		return -1;
	}
	return 0;
}

/* Refuses any key of o not in known (NULL-terminated). */
static int
check_known(struct pctx *c, const char *prefix, struct json_object *o,
    const char *const *known)
{
	const char *const *k;

	json_object_object_foreach(o, key, val) {
		(void)val;
		for (k = known; *k != NULL; k++)
			if (strcmp(key, *k) == 0)
				break;
		if (*k == NULL) {
			char *field;

			if (prefix != NULL)
				xasprintf(&field, "%s.%s", prefix, key);
			else
				field = xstrdup(key);
			perr(c, field, "unknown field");
			free(field);
			return -1;
		}
	}
	return 0;
}

/*
 * Parses sharedStoragePaths: absolute paths without "." or ".." components
 * (matching is by path prefix, which those would fool); a trailing slash is
 * dropped.
 */
static int
parse_shared_paths(struct pctx *c, struct json_object *v,
    struct mig_settings *s)
{
	const char	*base = "migration.sharedStoragePaths";
	size_t		 n, i;
	char		*field, *path, *comp, *save;
	const char	*str;

	if (!json_object_is_type(v, json_type_array)) {
		perr_got(c, base, "an array of absolute paths", v);
		return -1;
	}
	n = json_object_array_length(v);
	if (n > MAX_SHARED_PATHS) {
		perr(c, base, "out of range: expected at most %d paths, got %zu",
		    MAX_SHARED_PATHS, n);
		return -1;
	}
	mig_settings_free(s);
	s->shared_storage_paths = xcalloc(n + 1, sizeof (char *));
	for (i = 0; i < n; i++) {
		xasprintf(&field, "%s[%zu]", base, i);
		str = get_string(c, field, json_object_array_get_idx(v, i), 1,
		    PATH_MAX - 1);
		if (str == NULL) {
			free(field);
			return -1;
		}
		if (str[0] != '/') {
			perr_got(c, field, "an absolute path",
			    json_object_array_get_idx(v, i));
			free(field);
			return -1;
		}
		path = xstrdup(str);
		for (comp = strtok_r(path, "/", &save); comp != NULL;
		    comp = strtok_r(NULL, "/", &save))
			if (strcmp(comp, ".") == 0 || strcmp(comp, "..") == 0)
				break;
		free(path);
		if (comp != NULL) {
			perr_got(c, field,
			    "an absolute path without . or .. components",
			    json_object_array_get_idx(v, i));
			free(field);
			return -1;
		}
		free(field);
		path = xstrdup(str);
		while (strlen(path) > 1 && path[strlen(path) - 1] == '/')
			path[strlen(path) - 1] = '\0';
		s->shared_storage_paths[i] = path;
	}
	return 0;
}

/*
 * Parses migration.disks: node names or drive ids (QMP identifiers) and
 * absolute file paths, the disks blockMigration copies.
 */
static int
parse_disks(struct pctx *c, struct json_object *v, struct mig_settings *s)
{
	const char	*base = "migration.disks", *str;
	size_t		 n, i, j;
	char		*field;

	if (!json_object_is_type(v, json_type_array)) {
		perr_got(c, base, "an array of node names or absolute paths",
		    v);
		return -1;
	}
	n = json_object_array_length(v);
	if (n > MAX_DISKS) {
		perr(c, base, "out of range: expected at most %d disks, got "
		    "%zu", MAX_DISKS, n);
		return -1;
	}
	s->disks = xcalloc(n + 1, sizeof (char *));
	for (i = 0; i < n; i++) {
		xasprintf(&field, "%s[%zu]", base, i);
		str = get_string(c, field, json_object_array_get_idx(v, i), 1,
		    PATH_MAX - 1);
		if (str == NULL) {
			free(field);
			return -1;
		}
		for (j = 0; str[0] != '/' && str[j] != '\0'; j++)
			if (!((str[j] >= 'a' && str[j] <= 'z') ||
			    (str[j] >= 'A' && str[j] <= 'Z') ||
			    (j > 0 && ((str[j] >= '0' && str[j] <= '9') ||
			    str[j] == '-' || str[j] == '_' || str[j] == '.'))))
				break;
		if (str[0] != '/' && (str[j] != '\0' || j > 31)) {
			perr_got(c, field, "a node name (a letter, then up to "
			    "30 letters, digits, -, _ or .) or an absolute "
			    "path", json_object_array_get_idx(v, i));
			free(field);
			return -1;
		}
		free(field);
		s->disks[i] = xstrdup(str);
	}
	return 0;
}

static int
parse_migration(struct pctx *c, struct json_object *m, struct mig_settings *s)
{
	static const char *const known[] = {
		"bandwidthPerMigration", "completionTimeoutPerGiB",
		"progressTimeout", "maxDowntimeMs", "allowAutoConverge",
		"allowPostCopy", "allowWorkloadDisruption",
		"parallelMigrationThreads", "disableTLS", "convergence",
		"sharedStoragePaths", "blockMigration", "disks", NULL
	};
	static const struct choice convergences[] = {
		{ "adaptive", CTL_ADAPTIVE },
		{ "kubevirt", CTL_KUBEVIRT },
	};
	static const struct choice block_migrations[] = {
		{ "never", BLOCK_MIGRATION_NEVER },
		{ "auto", BLOCK_MIGRATION_AUTO },
		{ "always", BLOCK_MIGRATION_ALWAYS },
	};
	struct json_object	*v;
	uint64_t		 u;
	const char		*str;
	int			 choice, disruption_set = 0;

	if (check_object(c, "migration", m) != 0 ||
	    check_known(c, "migration", m, known) != 0)
		return -1;

	if (json_object_object_get_ex(m, "bandwidthPerMigration", &v)) {
		const char *f = "migration.bandwidthPerMigration";

		if (json_object_is_type(v, json_type_string)) {
			if ((str = get_string(c, f, v, 1, 64)) == NULL)
				return -1;
			if (policy_parse_bandwidth(str, &s->bandwidth) != 0) {
				perr_got(c, f, "bytes/s up to 1Ti, as an "
				    "integer or a string with a Ki, Mi, Gi or "
				    "Ti suffix such as \"64Mi\"", v);
				return -1;
			}
		} else if (json_object_is_type(v, json_type_int)) {
			if (get_uint(c, f, v, 0, MAX_BANDWIDTH,
			    &s->bandwidth) != 0)
				return -1;
		} else {
			perr_got(c, f, "bytes/s as an integer or a string "
			    "such as \"64Mi\"", v);
			return -1;
		}
	}
	if (json_object_object_get_ex(m, "completionTimeoutPerGiB", &v) &&
	    get_uint(c, "migration.completionTimeoutPerGiB", v, 0,
	    MAX_TIMEOUT, &s->completion_timeout_per_gib) != 0)
		return -1;
	if (json_object_object_get_ex(m, "progressTimeout", &v) &&
	    get_uint(c, "migration.progressTimeout", v, 0, MAX_TIMEOUT,
	    &s->progress_timeout) != 0)
		return -1;
	if (json_object_object_get_ex(m, "maxDowntimeMs", &v) &&
	    get_uint(c, "migration.maxDowntimeMs", v, 0, MAX_DOWNTIME_MS,
	    &s->max_downtime_ms) != 0)
		return -1;
	if (json_object_object_get_ex(m, "allowAutoConverge", &v) &&
	    get_bool(c, "migration.allowAutoConverge", v,
	    &s->allow_auto_converge) != 0)
		return -1;
	if (json_object_object_get_ex(m, "allowPostCopy", &v) &&
	    get_bool(c, "migration.allowPostCopy", v,
	    &s->allow_post_copy) != 0)
		return -1;
	if (json_object_object_get_ex(m, "allowWorkloadDisruption", &v)) {
		if (get_bool(c, "migration.allowWorkloadDisruption", v,
		    &s->allow_workload_disruption) != 0)
			return -1;
		disruption_set = 1;
	}
	if (!disruption_set)
		s->allow_workload_disruption = s->allow_post_copy;
	if (json_object_object_get_ex(m, "parallelMigrationThreads", &v)) {
		if (get_uint(c, "migration.parallelMigrationThreads", v, 0,
		    MAX_MULTIFD, &u) != 0)
			return -1;
		s->parallel_migration_threads = (int)u;
	}
	if (json_object_object_get_ex(m, "disableTLS", &v) &&
	    get_bool(c, "migration.disableTLS", v, &s->disable_tls) != 0)
		return -1;
	if (json_object_object_get_ex(m, "convergence", &v)) {
		if (get_choice(c, "migration.convergence", v, convergences,
		    NITEMS(convergences), "\"adaptive\" or \"kubevirt\"",
		    &choice) != 0)
			return -1;
		s->convergence = (enum ctl_kind)choice;
	}
	if (json_object_object_get_ex(m, "sharedStoragePaths", &v) &&
	    parse_shared_paths(c, v, s) != 0)
		return -1;
	/* After sharedStoragePaths: parse_shared_paths() resets s. */
	if (json_object_object_get_ex(m, "blockMigration", &v)) {
		if (get_choice(c, "migration.blockMigration", v,
		    block_migrations, NITEMS(block_migrations),
		    "\"never\", \"auto\" or \"always\"", &choice) != 0)
			return -1;
		s->block_migration = (enum block_migration)choice;
	}
	if (json_object_object_get_ex(m, "disks", &v) &&
	    parse_disks(c, v, s) != 0)
		return -1;
	return 0;
}

/*
 * Checks a label key the way Kubernetes' users write them, loosely: 1-253
 * printable characters without spaces or "=" (which --label splits on).
 */
int
policy_label_key_ok(const char *k)
{
	size_t len = strlen(k), i;

	if (len == 0 || len > MAX_LABEL_LEN)
		return 0;
	for (i = 0; i < len; i++)
		if ((unsigned char)k[i] <= 0x20 || k[i] == 0x7f || k[i] == '=')
			return 0;
	return 1;
}

static int
parse_selector(struct pctx *c, struct json_object *sel, struct policy *p)
{
	static const char *const known[] = { "labels", NULL };
	struct json_object	*labels;
	const char		*str;
	char			*field;
	size_t			 n;

	if (check_object(c, "selector", sel) != 0 ||
	    check_known(c, "selector", sel, known) != 0)
		return -1;
	if (!json_object_object_get_ex(sel, "labels", &labels))
		return 0;
	if (!json_object_is_type(labels, json_type_object)) {
		perr_got(c, "selector.labels",
		    "an object of label names to string values", labels);
		return -1;
	}
	n = (size_t)json_object_object_length(labels);
	if (n > POLICY_MAX_LABELS) {
		perr(c, "selector.labels", "out of range: expected at most "
		    "%d labels, got %zu", POLICY_MAX_LABELS, n);
		return -1;
	}
	p->selector = xcalloc(n == 0 ? 1 : n, sizeof *p->selector);
	json_object_object_foreach(labels, key, val) {
		xasprintf(&field, "selector.labels.%s", key);
		if (!policy_label_key_ok(key)) {
			perr(c, field, "bad label name: expected 1 to %d "
			    "characters without spaces, '=' or control "
			    "characters", MAX_LABEL_LEN);
			free(field);
			return -1;
		}
		str = get_string(c, field, val, 0, MAX_LABEL_LEN);
		free(field);
		if (str == NULL)
			return -1;
		p->selector[p->nselector].key = xstrdup(key);
		p->selector[p->nselector].value = xstrdup(str);
		p->nselector++;
	}
	return 0;
}

static int
name_ok(const char *s)
{
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '-' || *s == '.' ||
		    *s == '_'))
			return 0;
	return 1;
}

static void
policy_clear(struct policy *p)
{
	size_t i;

	free(p->name);
	free(p->file);
	for (i = 0; i < p->nselector; i++) {
		free(p->selector[i].key);
		free(p->selector[i].value);
	}
	free(p->selector);
	mig_settings_free(&p->migration);
	memset(p, 0, sizeof *p);
}

/* Fills p from a parsed document; on error p may hold partial data. */
static int
parse_policy(struct pctx *c, struct json_object *o, struct policy *p)
{
	static const char *const known[] = {
		"name", "selector", "evictionStrategy",
		"terminationGracePeriodSeconds", "migration", NULL
	};
	static const struct choice strategies[] = {
		{ "None", EVICT_NONE },
		{ "LiveMigrate", EVICT_LIVE_MIGRATE },
		{ "LiveMigrateIfPossible", EVICT_LIVE_MIGRATE_IF_POSSIBLE },
		{ "External", EVICT_EXTERNAL },
	};
	struct json_object	*v;
	const char		*str;
	int			 choice;

	if (!json_object_is_type(o, json_type_object)) {
		perr_got(c, NULL, "a JSON object", o);
		return -1;
	}
	if (check_known(c, NULL, o, known) != 0)
		return -1;

	if (!json_object_object_get_ex(o, "name", &v)) {
		perr(c, "name", "missing: every policy needs a name");
		return -1;
	}
	if ((str = get_string(c, "name", v, 1, MAX_NAME_LEN)) == NULL)
		return -1;
	if (!name_ok(str)) {
		perr_got(c, "name", "letters, digits, '-', '.' or '_'", v);
		return -1;
	}
	p->name = xstrdup(str);

	if (json_object_object_get_ex(o, "selector", &v) &&
	    parse_selector(c, v, p) != 0)
		return -1;

	if (json_object_object_get_ex(o, "evictionStrategy", &v)) {
		if (get_choice(c, "evictionStrategy", v, strategies,
		    NITEMS(strategies), "\"None\", \"LiveMigrate\", "
		    "\"LiveMigrateIfPossible\" or \"External\"", &choice) != 0)
			return -1;
		p->eviction = (enum eviction_strategy)choice;
	}
	if (json_object_object_get_ex(o, "terminationGracePeriodSeconds",
	    &v) && get_uint(c, "terminationGracePeriodSeconds", v, 0,
	    MAX_TIMEOUT, &p->termination_grace_seconds) != 0)
		return -1;
	if (json_object_object_get_ex(o, "migration", &v) &&
	    parse_migration(c, v, &p->migration) != 0)
		return -1;
	return 0;
}

/* Line and column (1-based) of byte off in buf, for parse errors. */
static void
line_col(const char *buf, size_t off, size_t *line, size_t *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off; i++) {
		if (buf[i] == '\n') {
			(*line)++;
			*col = 1;
		} else
			(*col)++;
	}
}

/*
 * Reads a whole regular file of at most POLICY_MAX_FILE_SIZE bytes (checked
 * while reading too, in case it grows).  Returns a NUL-terminated buffer or
 * NULL with *cause set.  Used for policy and label files.
 */
static char *
read_small_file(const char *what, const char *path, size_t *lenp,
    char **cause)
{
	struct stat	 st;
	char		*buf;
	size_t		 len = 0;
	ssize_t		 n;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1) {
		xasprintf(cause, "%s %s: %s", what, path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) == -1) {
		xasprintf(cause, "%s %s: %s", what, path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		xasprintf(cause, "%s %s: not a regular file", what, path);
		close(fd);
		return NULL;
	}
	if (st.st_size > POLICY_MAX_FILE_SIZE)
		goto too_big;
	buf = xmalloc(POLICY_MAX_FILE_SIZE + 2);
	for (;;) {
		n = read(fd, buf + len, POLICY_MAX_FILE_SIZE + 1 - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			xasprintf(cause, "%s %s: %s", what, path,
			    strerror(errno));
			free(buf);
			close(fd);
			return NULL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > POLICY_MAX_FILE_SIZE) {
			free(buf);
			goto too_big;
		}
	}
	close(fd);
	buf[len] = '\0';
	*lenp = len;
	return buf;
too_big:
	close(fd);
	xasprintf(cause, "%s %s: larger than %d bytes", what, path,
	    POLICY_MAX_FILE_SIZE);
	return NULL;
}

/*
 * Parses buf as one JSON value with json-c's default (non-strict) tokener,
 * which accepts / * * / and // comments outside strings.  Anything but
 * whitespace and comments after the value is an error.  Returns a new
 * reference or NULL with *cause set ("WHAT PATH: line L, column C: ...").
 */
static struct json_object *
parse_json_text(const char *what, const char *path, const char *buf,
    size_t len, char **cause)
{
	struct json_tokener		*tok;
	struct json_object		*o;
	enum json_tokener_error		 jerr;
	size_t				 end, line, col;

	if (strlen(buf) != len) {
		line_col(buf, strlen(buf), &line, &col);
		xasprintf(cause, "%s %s: line %zu, column %zu: NUL character",
		    what, path, line, col);
		return NULL;
	}
	tok = json_tokener_new_ex(64);
	o = json_tokener_parse_ex(tok, buf, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (o == NULL) {
		if (jerr == json_tokener_continue || jerr == json_tokener_success)
			xasprintf(cause, "%s %s: unexpected end of file", what,
			    path);
		else {
			line_col(buf, end, &line, &col);
			xasprintf(cause, "%s %s: line %zu, column %zu: %s",
			    what, path, line, col, json_tokener_error_desc(jerr));
		}
		return NULL;
	}
	/* The rest must parse as nothing at all: only space and comments. */
	tok = json_tokener_new_ex(64);
	if (end < len) {
		struct json_object *rest;

		rest = json_tokener_parse_ex(tok, buf + end, (int)(len - end));
		jerr = json_tokener_get_error(tok);
		if (rest != NULL || jerr != json_tokener_continue) {
			json_object_put(rest);
			while (end < len && strchr(" \t\r\n", buf[end]) != NULL)
				end++;
			line_col(buf, end, &line, &col);
			xasprintf(cause, "%s %s: line %zu, column %zu: "
			    "unexpected text after the JSON value", what, path,
			    line, col);
			json_tokener_free(tok);
			json_object_put(o);
			return NULL;
		}
	}
	json_tokener_free(tok);
	return o;
}

/* Loads one policy file into p (defaults first).  Returns 0 or -1. */
static int
load_file(const char *path, struct policy *p, char **cause)
{
	struct pctx		 c = { path, cause };
	struct json_object	*o;
	char			*buf;
	size_t			 len;
	int			 rc;

	memset(p, 0, sizeof *p);
	p->eviction = POLICY_DEFAULT_EVICTION;
	p->termination_grace_seconds = POLICY_DEFAULT_GRACE_SECONDS;
	policy_defaults(&p->migration);
	p->file = xstrdup(path);

	if ((buf = read_small_file("policy", path, &len, cause)) == NULL)
		return -1;
	o = parse_json_text("policy", path, buf, len, cause);
	free(buf);
	if (o == NULL)
		return -1;
	rc = parse_policy(&c, o, p);
	json_object_put(o);
	return rc;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
cmp_policy(const void *a, const void *b)
{
	return strcmp(((const struct policy *)a)->name,
	    ((const struct policy *)b)->name);
}

/*
 * Lists the *.json files of dir, sorted, skipping hidden names (editors'
 * files and Kubernetes' ..data links).  Returns the count or -1.
 */
static int
list_dir(const char *dir, char ***namesp, size_t *np, char **cause)
{
	DIR		*d;
	struct dirent	*de;
	char	       **names = NULL;
	size_t		 n = 0, len, i;

	if ((d = opendir(dir)) == NULL) {
		xasprintf(cause, "policy %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((errno = 0, de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len < 6 ||
		    strcmp(de->d_name + len - 5, ".json") != 0)
			continue;
		if (n == POLICY_MAX_FILES) {
			xasprintf(cause, "policy %s: more than %d policy files",
			    dir, POLICY_MAX_FILES);
			goto fail;
		}
		names = xreallocarray(names, n + 1, sizeof *names);
		names[n++] = xstrdup(de->d_name);
	}
	if (errno != 0) {
		xasprintf(cause, "policy %s: %s", dir, strerror(errno));
		goto fail;
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof *names, cmp_str);
	*namesp = names;
	*np = n;
	return 0;
fail:
	closedir(d);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return -1;
}

void
policy_set_free(struct policy_set *set)
{
	size_t i;

	if (set == NULL)
		return;
	for (i = 0; i < set->npolicies; i++)
		policy_clear(&set->policies[i]);
	free(set->policies);
	free(set->path);
	free(set);
}

/*
 * Loads a policy file, or every *.json file of a directory.  All or
 * nothing: the first bad file (or a name defined twice) fails the whole
 * set.  Returns a set sorted by name, to free with policy_set_free(), or
 * NULL with *cause set.  An empty directory gives an empty set.
 */
struct policy_set *
policy_load(const char *path, char **cause)
{
	struct policy_set	*set;
	struct stat		 st;
	char		       **names = NULL, *file;
	size_t			 nnames = 0, i, j;
	int			 failed = 0;

	if (stat(path, &st) == -1) {
		xasprintf(cause, "policy %s: %s", path, strerror(errno));
		return NULL;
	}
	set = xcalloc(1, sizeof *set);
	set->path = xstrdup(path);
	if (!S_ISDIR(st.st_mode)) {
		set->policies = xcalloc(1, sizeof *set->policies);
		set->npolicies = 1;
		if (load_file(path, &set->policies[0], cause) != 0) {
			policy_set_free(set);
			return NULL;
		}
		return set;
	}

	if (list_dir(path, &names, &nnames, cause) != 0) {
		policy_set_free(set);
		return NULL;
	}
	set->policies = xcalloc(nnames == 0 ? 1 : nnames,
	    sizeof *set->policies);
	for (i = 0; i < nnames && !failed; i++) {
		if (path[strlen(path) - 1] == '/')
			xasprintf(&file, "%s%s", path, names[i]);
		else
			xasprintf(&file, "%s/%s", path, names[i]);
		set->npolicies++;
		if (load_file(file, &set->policies[i], cause) != 0)
			failed = 1;
		for (j = 0; j < i && !failed; j++) {
			if (strcmp(set->policies[j].name,
			    set->policies[i].name) != 0)
				continue;
			xasprintf(cause, "policy %s: name: duplicate name "
			    "\"%s\", also defined in %s", file,
			    set->policies[i].name, set->policies[j].file);
			failed = 1;
		}
		free(file);
	}
	for (i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	if (failed) {
		policy_set_free(set);
		return NULL;
	}
	if (set->npolicies > 1)
		qsort(set->policies, set->npolicies, sizeof *set->policies,
		    cmp_policy);
	return set;
}

/*
 * Loads the --policy option's PATH, or POLICY_DEFAULT_DIR when path is
 * NULL.  A default directory that does not exist gives an empty set (every
 * VM gets the defaults, as in a cluster without MigrationPolicies); a PATH
 * the operator named must exist.  Same contract as policy_load().
 */
struct policy_set *
policy_load_or_default(const char *path, char **cause)
{
	struct policy_set	*set;
	struct stat		 st;

	if (path != NULL)
		return policy_load(path, cause);
	if (stat(POLICY_DEFAULT_DIR, &st) == -1 && errno == ENOENT) {
		set = xcalloc(1, sizeof *set);
		set->path = xstrdup(POLICY_DEFAULT_DIR);
		return set;
	}
	return policy_load(POLICY_DEFAULT_DIR, cause);
}

/*
 * Reads a bounded JSON file (comments allowed) for labels_load_file() and
 * others.  Errors read "WHAT PATH: ...".  Returns a new reference or NULL.
 */
struct json_object *
policy_read_json(const char *what, const char *path, char **cause)
{
	struct json_object	*o;
	char			*buf;
	size_t			 len;

	if ((buf = read_small_file(what, path, &len, cause)) == NULL)
		return NULL;
	o = parse_json_text(what, path, buf, len, cause);
	free(buf);
	return o;
}
