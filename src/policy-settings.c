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

const char *
policy_convergence_name(enum ctl_kind k)
{
	return policy_keyword_name(policy_convergences,
	    NITEMS(policy_convergences), (int)k);
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

/*
 * A field of the settings as the status document writes it (its key, as
 * a policy names it, and how) and as an overlay copies it (when its bit
 * is in the source's set).
 */
struct settings_field {
	const char			*key;
	enum { SF_U64, SF_INT, SF_BOOL, SF_FACTOR, SF_NAME, SF_LIST } type;
	const struct policy_keyword	*names;		/* SF_NAME */
	size_t				 nnames;
	unsigned			 bit;
	size_t				 off, size;
};
#define FIELD(type, key, t, bit, m) { key, t, NULL, 0, bit, \
	offsetof(struct type, m), sizeof ((struct type *)0)->m }
#define NAMED(key, nm, bit, m) { key, SF_NAME, nm, NITEMS(nm), bit, \
	offsetof(struct mig_settings, m), sizeof (int) }
#define SET(key, t, bit, m)	FIELD(mig_settings, key, t, bit, m)
#define DT(key, bit, m)		FIELD(mig_downtime_tuning, key, SF_U64, bit, m)
#define SD(key, t, bit, m)	FIELD(mig_stall_detector, key, t, bit, m)

/* A policy's migration settings, in the status document's order. */
static const struct settings_field settings_fields[] = {
	SET("bandwidthPerMigration", SF_U64, MIG_SET_BANDWIDTH, bandwidth),
	SET("completionTimeoutPerGiB", SF_U64, MIG_SET_COMPLETION,
	    completion_timeout_per_gib),
	SET("progressTimeout", SF_U64, MIG_SET_PROGRESS, progress_timeout),
	SET("maxDowntimeMs", SF_U64, MIG_SET_DOWNTIME, max_downtime_ms),
	SET("allowAutoConverge", SF_BOOL, MIG_SET_AUTO_CONVERGE,
	    allow_auto_converge),
	SET("allowPostCopy", SF_BOOL, MIG_SET_POST_COPY, allow_post_copy),
	SET("allowWorkloadDisruption", SF_BOOL, MIG_SET_DISRUPTION,
	    allow_workload_disruption),
	SET("parallelMigrationThreads", SF_INT, MIG_SET_MULTIFD,
	    parallel_migration_threads),
	SET("disableTLS", SF_BOOL, MIG_SET_DISABLE_TLS, disable_tls),
	NAMED("convergence", policy_convergences, MIG_SET_CONVERGENCE,
	    convergence),
	SET("sharedStoragePaths", SF_LIST, MIG_SET_SHARED_PATHS,
	    shared_storage_paths),
	NAMED("blockMigration", policy_block_migrations,
	    MIG_SET_BLOCK_MIGRATION, block_migration),
	SET("disks", SF_LIST, MIG_SET_DISKS, disks),
};

/* KubeVirt's DowntimeTuningOptions. */
static const struct settings_field downtime_tuning_fields[] = {
	DT("initialMs", MIG_DT_INITIAL, initial_ms),
	DT("steps", MIG_DT_STEPS, steps),
	DT("startAfterIteration", MIG_DT_START_AFTER, start_after_iteration),
	DT("cooldownSeconds", MIG_DT_COOLDOWN, cooldown_seconds),
};

/* KubeVirt's StallDetectorOptions. */
static const struct settings_field stall_detector_fields[] = {
	SD("stallMargin", SF_U64, MIG_SD_MARGIN, stall_margin_pct),
	SD("ewmaAlpha", SF_FACTOR, MIG_SD_EWMA, ewma_alpha),
	SD("stallProgressTimeout", SF_U64, MIG_SD_PROGRESS,
	    stall_progress_timeout),
	SD("switchoverTimeout", SF_U64, MIG_SD_SWITCHOVER, switchover_timeout),
	SD("precopyPossibleFactor", SF_FACTOR, MIG_SD_PRECOPY,
	    precopy_possible_factor),
	SD("patienceWindowDecayFactor", SF_FACTOR, MIG_SD_PATIENCE,
	    patience_window_decay_factor),
	SD("searchLocalMinima", SF_BOOL, MIG_SD_LOCAL_MINIMA,
	    search_local_minima),
	SD("completionTimeoutFactor", SF_FACTOR, MIG_SD_COMPLETION,
	    completion_timeout_factor),
};

#undef SD
#undef DT
#undef SET
#undef NAMED
#undef FIELD

_Static_assert(sizeof (enum ctl_kind) == sizeof (int) &&
    sizeof (enum block_migration) == sizeof (int),
    "a named field is an int");

/*
 * Copies from src to dst each field of the table (n) whose bit is in set;
 * a list is copied deep (dst's is freed).
 */
static void
overlay_fields(void *dst, const void *src, unsigned set,
    const struct settings_field *f, size_t n)
{
	char		*d;
	const char	*s;
	size_t		 i;

	for (i = 0; i < n; i++) {
		if (!(set & f[i].bit))
			continue;
		d = (char *)dst + f[i].off;
		s = (const char *)src + f[i].off;
		if (f[i].type == SF_LIST) {
			policy_strv_free(*(char ***)d);
			*(char ***)d = strv_copy(*(char **const *)s);
		} else
			memcpy(d, s, f[i].size);
	}
}

/* Adds every field of the table (n) of rec to o, in the table's order. */
static void
fields_to_json(struct json_object *o, const void *rec,
    const struct settings_field *f, size_t n)
{
	struct json_object	*v;
	const char		*p;
	size_t			 i;

	for (i = 0; i < n; i++) {
		p = (const char *)rec + f[i].off;
		switch (f[i].type) {
		case SF_U64:
			v = json_object_new_int64(*(const int64_t *)p);
			break;
		case SF_INT:
			v = json_object_new_int(*(const int *)p);
			break;
		case SF_BOOL:
			v = json_object_new_boolean(*(const int *)p);
			break;
		case SF_FACTOR:
			v = factor_json(*(const double *)p);
			break;
		case SF_NAME:
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

	overlay_fields(dst, src, set, settings_fields,
	    NITEMS(settings_fields));
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
 * The settings as the status document's "configuration": the policy file's
 * camelCase names and units, and spec.experimental as KubeVirt's
 * ExperimentalMigrationOptions with every field the effective settings
 * hold (defaults included).  Returns a new reference.
 */
struct json_object *
mig_settings_to_json(const struct mig_settings *s)
{
	struct json_object *o = json_object_new_object(), *x, *e;

	fields_to_json(o, s, settings_fields, NITEMS(settings_fields));
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
