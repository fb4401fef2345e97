/*
 * policy-settings.c: the migration settings a policy gives (struct
 * mig_settings): KubeVirt's defaults, the overlay of a policy on the
 * cluster's defaults, copies and their JSON form.
 */
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "policy.h"
#include "policy-parse.h"

const char *
policy_eviction_name(enum eviction_strategy e)
{
	return policy_keyword_name(policy_strategies,
	    NITEMS(policy_strategies), (int)e);
}

/*
 * KubeVirt's migration defaults: what is not named here is 0 (unlimited
 * bandwidth, QEMU's downtime, no auto-converge, no post-copy and so no
 * workload disruption, no multifd, TLS, no lists, nothing set).
 */
static const struct mig_settings kubevirt_defaults = {
	.completion_timeout_per_gib = 150,
	.progress_timeout = 150,
	.convergence = CTL_ADAPTIVE,
	.downtime_tuning = {
		.initial_ms = MIG_DT_DEFAULT_INITIAL_MS,
		.steps = MIG_DT_DEFAULT_STEPS,
		.start_after_iteration = MIG_DT_DEFAULT_START_AFTER,
		.cooldown_seconds = MIG_DT_DEFAULT_COOLDOWN,
	},
	.stall_detector = {
		.stall_margin_pct = 4,
		.ewma_alpha = 0.4,
		.stall_progress_timeout = 40,
		.switchover_timeout = 60,
		.precopy_possible_factor = 1.5,
		.patience_window_decay_factor = 0.5,
		.search_local_minima = 1,
		.completion_timeout_factor = 2,
	},
};

/* Fills s with KubeVirt's migration defaults; s owns nothing afterwards. */
void
policy_defaults(struct mig_settings *s)
{
	*s = kubevirt_defaults;
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

/* Frees the strings s owns; s may be reused after policy_defaults(). */
void
mig_settings_free(struct mig_settings *s)
{
	policy_strv_free(s->shared_storage_paths);
	s->shared_storage_paths = NULL;
	policy_strv_free(s->disks);
	s->disks = NULL;
}

/* Deep copy: dst owns its own strings (free with mig_settings_free()). */
void
mig_settings_copy(struct mig_settings *dst, const struct mig_settings *src)
{
	*dst = *src;
	dst->disks = strv_copy(src->disks);
	dst->shared_storage_paths = strv_copy(src->shared_storage_paths);
}

static struct json_object *
strv_to_json(char **v)
{
	struct json_object	*a = json_object_new_array();
	char		       **p;

	for (p = v; p != NULL && *p != NULL; p++)
		json_object_array_add(a, json_object_new_string(*p));
	return a;
}

/* A number of the stall detector as KubeVirt writes a quantity ("0.4"). */
static struct json_object *
factor_json(double v)
{
	char buf[32];

	snprintf(buf, sizeof buf, "%.3f", v);
	while (buf[strlen(buf) - 1] == '0')
		buf[strlen(buf) - 1] = '\0';
	if (buf[strlen(buf) - 1] == '.')
		buf[strlen(buf) - 1] = '\0';
	return json_object_new_string(buf);
}

/* migration.bandwidthPerMigration: bytes/s as an integer or "64Mi". */
static int
read_bandwidth(struct policy_ctx *c, const char *f, struct json_object *v,
    const struct policy_field *pf, void *out)
{
	const char *str;

	if (json_object_is_type(v, json_type_string)) {
		if ((str = policy_get_string(c, f, v, 1, 64)) == NULL)
			return -1;
		if (policy_parse_bandwidth(str, out) != 0) {
			policy_err_got(c, f, "bytes/s up to 1Ti, as an "
			    "integer or a string with a Ki, Mi, Gi or "
			    "Ti suffix such as \"64Mi\"", v);
			return -1;
		}
		return 0;
	}
	if (json_object_is_type(v, json_type_int))
		return policy_read_uint(c, f, v, pf, out);
	policy_err_got(c, f, "bytes/s as an integer or a string such as "
	    "\"64Mi\"", v);
	return -1;
}

/* A factor at least pf->min thousandths, at most pf->max. */
static int
read_factor(struct policy_ctx *c, const char *f, struct json_object *v,
    const struct policy_field *pf, void *out)
{
	return policy_get_factor(c, f, v, pf->min, 0, pf->max, out);
}

/* A factor above pf->min thousandths, at most pf->max. */
static int
read_factor_above(struct policy_ctx *c, const char *f, struct json_object *v,
    const struct policy_field *pf, void *out)
{
	return policy_get_factor(c, f, v, pf->min, 1, pf->max, out);
}

#define SET(k, rd, v, hi, m, b) \
	POLICY_FIELD(struct mig_settings, k, rd, v, 0, hi, m, b)
#define NAMED(k, nm, expect, m, b) \
	POLICY_CHOICE(struct mig_settings, k, nm, expect, m, b)
#define DT(k, hi, m, b) POLICY_FIELD(struct mig_downtime_tuning, k, \
	policy_read_uint, PV_U64, 1, hi, m, b)
#define SD(k, rd, v, lo, hi, m, b) \
	POLICY_FIELD(struct mig_stall_detector, k, rd, v, lo, hi, m, b)
#define FACTOR_MAX	1000000000000000ULL

/*
 * A policy's migration section in qmigrate's JSON shape, in the order it
 * is read and written (the status document's "configuration").
 */
static const struct policy_field migration_fields[] = {
	SET("bandwidthPerMigration", read_bandwidth, PV_U64,
	    POLICY_MAX_BANDWIDTH, bandwidth, MIG_SET_BANDWIDTH),
	SET("completionTimeoutPerGiB", policy_read_uint, PV_U64,
	    POLICY_MAX_TIMEOUT, completion_timeout_per_gib, MIG_SET_COMPLETION),
	SET("progressTimeout", policy_read_uint, PV_U64, POLICY_MAX_TIMEOUT,
	    progress_timeout, MIG_SET_PROGRESS),
	SET("maxDowntimeMs", policy_read_uint, PV_U64, POLICY_MAX_DOWNTIME_MS,
	    max_downtime_ms, MIG_SET_DOWNTIME),
	SET("allowAutoConverge", policy_read_bool, PV_BOOL, 0,
	    allow_auto_converge, MIG_SET_AUTO_CONVERGE),
	SET("allowPostCopy", policy_read_bool, PV_BOOL, 0, allow_post_copy,
	    MIG_SET_POST_COPY),
	SET("allowWorkloadDisruption", policy_read_bool, PV_BOOL, 0,
	    allow_workload_disruption, MIG_SET_DISRUPTION),
	SET("parallelMigrationThreads", policy_read_int, PV_INT,
	    POLICY_MAX_MULTIFD, parallel_migration_threads, MIG_SET_MULTIFD),
	SET("disableTLS", policy_read_bool, PV_BOOL, 0, disable_tls,
	    MIG_SET_DISABLE_TLS),
	NAMED("convergence", policy_convergences,
	    "\"adaptive\" or \"kubevirt\"", convergence, MIG_SET_CONVERGENCE),
	SET("sharedStoragePaths", policy_read_shared_paths, PV_LIST, 0,
	    shared_storage_paths, MIG_SET_SHARED_PATHS),
	NAMED("blockMigration", policy_block_migrations,
	    "\"never\", \"auto\" or \"always\"", block_migration,
	    MIG_SET_BLOCK_MIGRATION),
	SET("disks", policy_read_disks, PV_LIST, 0, disks, MIG_SET_DISKS),
};

/* spec.experimental.downtimeTuning (DowntimeTuningOptions), all >= 1. */
static const struct policy_field downtime_tuning_fields[] = {
	DT("initialMs", INT64_MAX, initial_ms, MIG_DT_INITIAL),
	DT("steps", INT32_MAX, steps, MIG_DT_STEPS),
	DT("startAfterIteration", INT64_MAX, start_after_iteration,
	    MIG_DT_START_AFTER),
	DT("cooldownSeconds", INT32_MAX, cooldown_seconds, MIG_DT_COOLDOWN),
};

/* spec.experimental.stallDetector (StallDetectorOptions). */
static const struct policy_field stall_detector_fields[] = {
	SD("stallMargin", policy_read_uint, PV_U64, 0, 100,
	    stall_margin_pct, MIG_SD_MARGIN),
	SD("ewmaAlpha", read_factor_above, PV_FACTOR, 0, 1000,
	    ewma_alpha, MIG_SD_EWMA),
	SD("stallProgressTimeout", policy_read_uint, PV_U64, 0, INT64_MAX,
	    stall_progress_timeout, MIG_SD_PROGRESS),
	SD("switchoverTimeout", policy_read_uint, PV_U64, 0, INT64_MAX,
	    switchover_timeout, MIG_SD_SWITCHOVER),
	SD("precopyPossibleFactor", read_factor, PV_FACTOR, 1000, FACTOR_MAX,
	    precopy_possible_factor, MIG_SD_PRECOPY),
	SD("patienceWindowDecayFactor", read_factor, PV_FACTOR, 0, 1000,
	    patience_window_decay_factor, MIG_SD_PATIENCE),
	SD("searchLocalMinima", policy_read_bool, PV_BOOL, 0, 0,
	    search_local_minima, MIG_SD_LOCAL_MINIMA),
	SD("completionTimeoutFactor", read_factor, PV_FACTOR, 1000, FACTOR_MAX,
	    completion_timeout_factor, MIG_SD_COMPLETION),
};

#undef FACTOR_MAX
#undef SD
#undef DT
#undef NAMED
#undef SET

_Static_assert(sizeof (enum ctl_kind) == sizeof (int) &&
    sizeof (enum block_migration) == sizeof (int),
    "a named field is an int");

/*
 * The object o at base, of the table's keys only (n fields), read into
 * record: each field given sets its bit in *set.  Returns 0 or -1.
 */
static int
read_object(struct policy_ctx *c, const char *base, struct json_object *o,
    const struct policy_field *f, size_t n, void *record, unsigned *set)
{
	/* The largest table. */
	const char	*known[NITEMS(migration_fields) + 1];
	size_t		 i;

	_Static_assert(NITEMS(stall_detector_fields) <=
	    NITEMS(migration_fields), "known[] holds every key");
	for (i = 0; i < n; i++)
		known[i] = f[i].key;
	known[n] = NULL;
	if (policy_check_object(c, base, o, known) != 0)
		return -1;
	return policy_read_fields(c, base, o, f, n, record, set);
}

/*
 * A policy's migration section (qmigrate's shape) into s: an
 * allowWorkloadDisruption it leaves out follows its allowPostCopy.
 */
int
mig_settings_read(struct policy_ctx *c, const char *base,
    struct json_object *o, struct mig_settings *s)
{
	if (read_object(c, base, o, migration_fields, NITEMS(migration_fields),
	    s, &s->set) != 0)
		return -1;
	if (!(s->set & MIG_SET_DISRUPTION))
		s->allow_workload_disruption = s->allow_post_copy;
	return 0;
}

/*
 * The field of qmigrate's migration section named key, or NULL: for
 * another shape that carries some of them (a MigrationPolicy's
 * annotations) to read them as the section does.
 */
const struct policy_field *
mig_settings_field(const char *key)
{
	size_t i;

	for (i = 0; i < NITEMS(migration_fields); i++)
		if (strcmp(migration_fields[i].key, key) == 0)
			return &migration_fields[i];
	return NULL;
}

/*
 * The member key of x (at base) by the table, when x has it (null is
 * not): given from then on (*enabled).  Returns 0 or -1.
 */
static int
read_member(struct policy_ctx *c, const char *base, struct json_object *x,
    const char *key, const struct policy_field *f, size_t n, void *record,
    int *enabled, unsigned *set)
{
	struct json_object	*o;
	char			*field;
	int			 rc;

	if (!json_object_object_get_ex(x, key, &o) || o == NULL)
		return 0;
	*enabled = 1;
	field = policy_field(base, key);
	rc = read_object(c, field, o, f, n, record, set);
	free(field);
	return rc;
}

/*
 * spec.experimental's stallDetector and downtimeTuning (at base), those x
 * has, into s as KubeVirt's types.  Returns 0 or -1.
 */
int
mig_experimental_read(struct policy_ctx *c, const char *base,
    struct json_object *x, struct mig_settings *s)
{
	struct mig_stall_detector	*sd = &s->stall_detector;
	struct mig_downtime_tuning	*dt = &s->downtime_tuning;

	if (read_member(c, base, x, "stallDetector", stall_detector_fields,
	    NITEMS(stall_detector_fields), sd, &sd->enabled, &sd->set) != 0)
		return -1;
	return read_member(c, base, x, "downtimeTuning", downtime_tuning_fields,
	    NITEMS(downtime_tuning_fields), dt, &dt->enabled, &dt->set);
}

/* The bytes of a field's value, for an overlay's copy. */
static size_t
value_size(enum policy_value v)
{
	if (v == PV_U64)
		return sizeof (uint64_t);
	if (v == PV_FACTOR)
		return sizeof (double);
	return sizeof (int);
}

/*
 * Copies from src to dst each field of the table (n) whose bit is in set;
 * a list is copied deep (dst's is freed).
 */
static void
overlay_fields(void *dst, const void *src, unsigned set,
    const struct policy_field *f, size_t n)
{
	char		*d;
	const char	*s;
	size_t		 i;

	for (i = 0; i < n; i++) {
		if (!(set & f[i].bit))
			continue;
		d = (char *)dst + f[i].off;
		s = (const char *)src + f[i].off;
		if (f[i].value == PV_LIST) {
			policy_strv_free(*(char ***)d);
			*(char ***)d = strv_copy(*(char **const *)s);
		} else
			memcpy(d, s, value_size(f[i].value));
	}
}

/* Adds every field of the table (n) of rec to o, in the table's order. */
static void
fields_to_json(struct json_object *o, const void *rec,
    const struct policy_field *f, size_t n)
{
	struct json_object	*v;
	const char		*p;
	size_t			 i;

	for (i = 0; i < n; i++) {
		p = (const char *)rec + f[i].off;
		switch (f[i].value) {
		case PV_U64:
			v = json_object_new_int64(*(const int64_t *)p);
			break;
		case PV_INT:
			v = json_object_new_int(*(const int *)p);
			break;
		case PV_BOOL:
			v = json_object_new_boolean(*(const int *)p);
			break;
		case PV_FACTOR:
			v = factor_json(*(const double *)p);
			break;
		case PV_NAME:
			v = json_object_new_string(policy_keyword_name(
			    f[i].names, f[i].nnames, *(const int *)p));
			break;
		default:
			v = strv_to_json(*(char **const *)p);
			break;
		}
		json_object_object_add(o, f[i].key, v);
	}
}

/*
 * Whether s bounds the downtime by KubeVirt's maxDowntimeMs: with
 * downtime tuning or the stall detector on (KubeVirt's admission refuses
 * a maxDowntimeMs without one of their feature gates).  Otherwise an
 * unset max_downtime_ms (0) leaves the controller its own ceiling.
 */
int
mig_settings_kubevirt_downtime(const struct mig_settings *s)
{
	return s->downtime_tuning.enabled || s->stall_detector.enabled;
}

/*
 * The maxDowntimeMs KubeVirt reports for s: the one given, else
 * DefaultMigrationMaxDowntimeMs (900), which virt-handler fills in.
 */
uint64_t
mig_settings_reported_downtime(const struct mig_settings *s)
{
	return s->max_downtime_ms != 0 ? s->max_downtime_ms :
	    KUBEVIRT_DEFAULT_MAX_DOWNTIME_MS;
}

/*
 * Refines dst (the cluster's settings) with the fields src gives
 * (src->set), as KubeVirt applies a MigrationPolicy: only what the policy
 * sets changes.  allowWorkloadDisruption that src leaves unset follows
 * src's allowPostCopy when src sets that (KubeVirt's backward
 * compatibility rule).  dst->set gains src's bits.
 */
void
mig_settings_overlay(struct mig_settings *dst, const struct mig_settings *src)
{
	unsigned set = src->set;

	overlay_fields(dst, src, set, migration_fields,
	    NITEMS(migration_fields));
	if ((set & MIG_SET_POST_COPY) && !(set & MIG_SET_DISRUPTION))
		dst->allow_workload_disruption = src->allow_post_copy;
	if (src->downtime_tuning.enabled) {
		dst->downtime_tuning.enabled = 1;
		overlay_fields(&dst->downtime_tuning, &src->downtime_tuning,
		    src->downtime_tuning.set, downtime_tuning_fields,
		    NITEMS(downtime_tuning_fields));
		dst->downtime_tuning.set |= src->downtime_tuning.set;
	}
	if (src->stall_detector.enabled) {
		dst->stall_detector.enabled = 1;
		overlay_fields(&dst->stall_detector, &src->stall_detector,
		    src->stall_detector.set, stall_detector_fields,
		    NITEMS(stall_detector_fields));
		dst->stall_detector.set |= src->stall_detector.set;
	}
	dst->set |= set;
}

/*
 * The i-th member of a policy's migration section: its key and MIG_SET_
 * bit.  Returns 0, or -1 past the last.
 */
int
policy_settings_field(size_t i, const char **key, unsigned *bit)
{
	if (i >= NITEMS(migration_fields))
		return -1;
	*key = migration_fields[i].key;
	*bit = migration_fields[i].bit;
	return 0;
}

/*
 * The settings as the status document's "configuration": the policy file's
 * camelCase names and units, and spec.experimental as KubeVirt's
 * ExperimentalMigrationOptions with every field the effective settings
 * hold (defaults included).  Returns a new reference.
 */
struct json_object *
mig_settings_to_json(const struct mig_settings *s)
{
	struct json_object *o = json_object_new_object(), *x, *e;

	fields_to_json(o, s, migration_fields, NITEMS(migration_fields));
	if (!s->downtime_tuning.enabled && !s->stall_detector.enabled)
		return o;
	x = json_object_new_object();
	if (s->downtime_tuning.enabled) {
		e = json_object_new_object();
		fields_to_json(e, &s->downtime_tuning, downtime_tuning_fields,
		    NITEMS(downtime_tuning_fields));
		json_object_object_add(x, "downtimeTuning", e);
	}
	if (s->stall_detector.enabled) {
		e = json_object_new_object();
		fields_to_json(e, &s->stall_detector, stall_detector_fields,
		    NITEMS(stall_detector_fields));
		json_object_object_add(x, "stallDetector", e);
	}
	json_object_object_add(o, "experimental", x);
	return o;
}

/*
 * Where a policy was read: "FILE", or "FILE, document N" for a manifest.
 * Malloc'd.
 */
char *
policy_origin(const struct policy *p)
{
	char *s;

	if (p->doc == 0)
		return xstrdup(p->file);
	if (p->item >= 0)
		xasprintf(&s, "%s, document %zu, items[%ld]", p->file, p->doc,
		    p->item);
	else
		xasprintf(&s, "%s, document %zu", p->file, p->doc);
	return s;
}

/*
 * A policy in qmigrate's own shape (namespaceLabels only when it selects
 * namespaces, document only for a manifest).  Returns a new reference.
 */
struct json_object *
policy_to_json(const struct policy *p)
{
	struct json_object *o = json_object_new_object(), *sel;

	json_object_object_add(o, "name", json_object_new_string(p->name));
	json_object_object_add(o, "file", json_object_new_string(p->file));
	if (p->doc != 0)
		json_object_object_add(o, "document",
		    json_object_new_int64((int64_t)p->doc));
	sel = json_object_new_object();
	json_object_object_add(sel, "labels",
	    labels_to_json(p->selector, p->nselector));
	if (p->nns_selector > 0)
		json_object_object_add(sel, "namespaceLabels",
		    labels_to_json(p->ns_selector, p->nns_selector));
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
 * Parses a bandwidth of qmigrate's own flags and JSON shape: decimal
 * bytes/s with an optional binary suffix Ki, Mi, Gi or Ti ("64Mi" is 64
 * MiB/s, "0" unlimited).  Returns 0, or -1 on junk, an unknown suffix or a
 * value over 1 TiB/s.  (KubeVirt's manifests take Kubernetes quantities:
 * quantity.c.)
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
	uint64_t	 v = 0, max = 1ULL << 40;
	size_t		 i;
	const char	*p = s;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > max)
			return -1;
	}
	for (i = 0; i < NITEMS(units); i++) {
		if (strcmp(p, units[i].suffix) != 0)
			continue;
		if (v > max / units[i].mult)
			return -1;
		*out = v * units[i].mult;
		return 0;
	}
	return -1;
}
