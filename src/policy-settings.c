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

/* A field an overlay copies when its bit is in the source's set. */
struct overlay_field {
	unsigned	bit;
	size_t		off, size;
};
#define OVERLAY(type, bit, m) \
	{ bit, offsetof(struct type, m), sizeof ((struct type *)0)->m }

/* KubeVirt's applyDowntimeTuningOptions: the fields src gives. */
static const struct overlay_field downtime_tuning_overlay[] = {
	OVERLAY(mig_downtime_tuning, MIG_DT_INITIAL, initial_ms),
	OVERLAY(mig_downtime_tuning, MIG_DT_STEPS, steps),
	OVERLAY(mig_downtime_tuning, MIG_DT_START_AFTER,
	    start_after_iteration),
	OVERLAY(mig_downtime_tuning, MIG_DT_COOLDOWN, cooldown_seconds),
};

/* KubeVirt's applyStallDetectorOptions: the fields src gives. */
static const struct overlay_field stall_detector_overlay[] = {
	OVERLAY(mig_stall_detector, MIG_SD_MARGIN, stall_margin_pct),
	OVERLAY(mig_stall_detector, MIG_SD_EWMA, ewma_alpha),
	OVERLAY(mig_stall_detector, MIG_SD_PROGRESS, stall_progress_timeout),
	OVERLAY(mig_stall_detector, MIG_SD_SWITCHOVER, switchover_timeout),
	OVERLAY(mig_stall_detector, MIG_SD_PRECOPY, precopy_possible_factor),
	OVERLAY(mig_stall_detector, MIG_SD_PATIENCE,
	    patience_window_decay_factor),
	OVERLAY(mig_stall_detector, MIG_SD_LOCAL_MINIMA, search_local_minima),
	OVERLAY(mig_stall_detector, MIG_SD_COMPLETION,
	    completion_timeout_factor),
};

/* The plain fields of a mig_settings (its lists are copied apart). */
static const struct overlay_field settings_overlay[] = {
	OVERLAY(mig_settings, MIG_SET_BANDWIDTH, bandwidth),
	OVERLAY(mig_settings, MIG_SET_COMPLETION, completion_timeout_per_gib),
	OVERLAY(mig_settings, MIG_SET_PROGRESS, progress_timeout),
	OVERLAY(mig_settings, MIG_SET_DOWNTIME, max_downtime_ms),
	OVERLAY(mig_settings, MIG_SET_AUTO_CONVERGE, allow_auto_converge),
	OVERLAY(mig_settings, MIG_SET_POST_COPY, allow_post_copy),
	OVERLAY(mig_settings, MIG_SET_DISRUPTION, allow_workload_disruption),
	OVERLAY(mig_settings, MIG_SET_MULTIFD, parallel_migration_threads),
	OVERLAY(mig_settings, MIG_SET_DISABLE_TLS, disable_tls),
	OVERLAY(mig_settings, MIG_SET_CONVERGENCE, convergence),
	OVERLAY(mig_settings, MIG_SET_BLOCK_MIGRATION, block_migration),
};

#undef OVERLAY

/* Copies from src to dst each field of the table (n) whose bit is in set. */
static void
overlay_fields(void *dst, const void *src, unsigned set,
    const struct overlay_field *fields, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (set & fields[i].bit)
			memcpy((char *)dst + fields[i].off,
			    (const char *)src + fields[i].off, fields[i].size);
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

	overlay_fields(dst, src, set, settings_overlay,
	    NITEMS(settings_overlay));
	if ((set & MIG_SET_POST_COPY) && !(set & MIG_SET_DISRUPTION))
		dst->allow_workload_disruption = src->allow_post_copy;
	if (set & MIG_SET_SHARED_PATHS) {
		policy_strv_free(dst->shared_storage_paths);
		dst->shared_storage_paths =
		    strv_copy(src->shared_storage_paths);
	}
	if (set & MIG_SET_DISKS) {
		policy_strv_free(dst->disks);
		dst->disks = strv_copy(src->disks);
	}
	if (src->downtime_tuning.enabled) {
		dst->downtime_tuning.enabled = 1;
		overlay_fields(&dst->downtime_tuning, &src->downtime_tuning,
		    src->downtime_tuning.set, downtime_tuning_overlay,
		    NITEMS(downtime_tuning_overlay));
		dst->downtime_tuning.set |= src->downtime_tuning.set;
	}
	if (src->stall_detector.enabled) {
		dst->stall_detector.enabled = 1;
		overlay_fields(&dst->stall_detector, &src->stall_detector,
		    src->stall_detector.set, stall_detector_overlay,
		    NITEMS(stall_detector_overlay));
		dst->stall_detector.set |= src->stall_detector.set;
	}
	dst->set |= set;
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
 * spec.experimental as KubeVirt's ExperimentalMigrationOptions, with every
 * field the effective settings hold (defaults included).
 */
static struct json_object *
experimental_to_json(const struct mig_settings *s)
{
	const struct mig_downtime_tuning	*dt = &s->downtime_tuning;
	const struct mig_stall_detector		*sd = &s->stall_detector;
	struct json_object			*x, *o;

	x = json_object_new_object();
	if (dt->enabled) {
		o = json_object_new_object();
		json_object_object_add(o, "initialMs",
		    json_object_new_int64((int64_t)dt->initial_ms));
		json_object_object_add(o, "steps",
		    json_object_new_int64((int64_t)dt->steps));
		json_object_object_add(o, "startAfterIteration",
		    json_object_new_int64((int64_t)dt->start_after_iteration));
		json_object_object_add(o, "cooldownSeconds",
		    json_object_new_int64((int64_t)dt->cooldown_seconds));
		json_object_object_add(x, "downtimeTuning", o);
	}
	if (sd->enabled) {
		o = json_object_new_object();
		json_object_object_add(o, "stallMargin",
		    json_object_new_int64((int64_t)sd->stall_margin_pct));
		json_object_object_add(o, "ewmaAlpha",
		    factor_json(sd->ewma_alpha));
		json_object_object_add(o, "stallProgressTimeout",
		    json_object_new_int64((int64_t)sd->stall_progress_timeout));
		json_object_object_add(o, "switchoverTimeout",
		    json_object_new_int64((int64_t)sd->switchover_timeout));
		json_object_object_add(o, "precopyPossibleFactor",
		    factor_json(sd->precopy_possible_factor));
		json_object_object_add(o, "patienceWindowDecayFactor",
		    factor_json(sd->patience_window_decay_factor));
		json_object_object_add(o, "searchLocalMinima",
		    json_object_new_boolean(sd->search_local_minima));
		json_object_object_add(o, "completionTimeoutFactor",
		    factor_json(sd->completion_timeout_factor));
		json_object_object_add(x, "stallDetector", o);
	}
	return x;
}

/*
 * The settings as the status document's "configuration": the policy file's
 * camelCase names and units.  Returns a new reference.
 */
struct json_object *
mig_settings_to_json(const struct mig_settings *s)
{
	struct json_object *o = json_object_new_object();

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
	json_object_object_add(o, "sharedStoragePaths",
	    strv_to_json(s->shared_storage_paths));
	json_object_object_add(o, "blockMigration", json_object_new_string(
	    s->block_migration == BLOCK_MIGRATION_ALWAYS ? "always" :
	    s->block_migration == BLOCK_MIGRATION_AUTO ? "auto" : "never"));
	json_object_object_add(o, "disks", strv_to_json(s->disks));
	if (s->downtime_tuning.enabled || s->stall_detector.enabled)
		json_object_object_add(o, "experimental",
		    experimental_to_json(s));
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
