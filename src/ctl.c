/*
 * ctl.c: what both convergence controllers share: set-up, the acceptable
 * completion time, and the dispatch to the chosen one.
 */
#include <math.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "ctl.h"
#include "policy.h"

const char *
ctl_kind_name(enum ctl_kind kind)
{
	return kind == CTL_KUBEVIRT ? "kubevirt" : "adaptive";
}

/* The action's name in logs and the status (a static string). */
const char *
ctl_action_name(enum ctl_action action)
{
	switch (action) {
	case CTL_NONE:		return "none";
	case CTL_SET_DOWNTIME:	return "set-downtime";
	case CTL_AUTO_CONVERGE:	return "auto-converge";
	case CTL_DIRTY_LIMIT:	return "dirty-limit";
	case CTL_POST_COPY:	return "post-copy";
	case CTL_PAUSE:		return "pause";
	case CTL_ABORT:		return "abort";
	}
	return "unknown";
}

/*
 * KubeVirt's acceptable completion time: completionTimeoutPerGiB times the
 * data to move in decimal GB, rounded up (so a 1 GiB guest counts as 2).
 * Returns 0 when the policy sets no limit.
 */
double
ctl_acceptable_seconds(const struct ctl_config *cfg)
{
	uint64_t gb;

	if (cfg->completion_timeout_per_gib == 0)
		return 0;
	gb = (cfg->guest_bytes + 999999999ULL) / 1000000000ULL;
	if (gb == 0)
		gb = 1;
	return (double)cfg->completion_timeout_per_gib * (double)gb;
}

/*
 * Seconds one pass of the guest's memory must take before a dirty-rate
 * measurement (calc-dirty-rate, one second before migrate) is worth its
 * cost: on a shorter bulk pass the controller's first judgement comes soon
 * anyway, and the second would slow every migration that converges.
 */
#define DIRTY_PROBE_MIN_PASS_SECONDS	10.0

/*
 * Whether the controller of kind, given cfg and the bandwidth cap
 * (bytes/s, 0: none), wants the guest's dirty rate measured before
 * migrate (ctl_config.measured_dirty_rate): the adaptive one, allowed
 * post-copy, when one pass over the cap takes long enough.
 */
int
ctl_wants_dirty_rate(enum ctl_kind kind, const struct ctl_config *cfg,
    uint64_t bandwidth)
{
	return kind == CTL_ADAPTIVE && cfg->allow_post_copy &&
	    bandwidth > 0 && (double)cfg->guest_bytes / (double)bandwidth >=
	    DIRTY_PROBE_MIN_PASS_SECONDS;
}

/*
 * KubeVirt's newest monitor for the kubevirt controller, when the
 * settings' spec.experimental asks for it: the stall detector, downtime
 * tuning, and the maxDowntimeMs they apply (KubeVirt's 900 when unset).
 * Leaves cfg alone otherwise (the classic monitor, or adaptive).
 */
void
ctl_config_experimental(struct ctl_config *cfg, enum ctl_kind kind,
    const struct mig_settings *s)
{
	const struct mig_stall_detector		*sd = &s->stall_detector;
	const struct mig_downtime_tuning	*dt = &s->downtime_tuning;

	if (kind != CTL_KUBEVIRT || !mig_settings_kubevirt_downtime(s))
		return;
	if (sd->enabled) {
		cfg->stall.enabled = 1;
		cfg->stall.margin_pct = sd->stall_margin_pct;
		cfg->stall.ewma_alpha = sd->ewma_alpha;
		cfg->stall.window_s = sd->stall_progress_timeout;
		cfg->stall.switchover_timeout_s = sd->switchover_timeout;
		cfg->stall.precopy_factor = sd->precopy_possible_factor;
		cfg->stall.patience_decay = sd->patience_window_decay_factor;
		cfg->stall.search_local_minima = sd->search_local_minima;
		cfg->stall.completion_factor = sd->completion_timeout_factor;
	}
	if (dt->enabled) {
		cfg->tuning.enabled = 1;
		cfg->tuning.initial_ms = dt->initial_ms;
		cfg->tuning.steps = dt->steps;
		cfg->tuning.start_after_iteration = dt->start_after_iteration;
		cfg->tuning.cooldown_s = dt->cooldown_seconds;
	}
	cfg->max_downtime_ms = mig_settings_reported_downtime(s);
}

/*
 * Starts ctl, owned by the caller, as a controller of kind with a copy of
 * cfg: the first downtime and the switchover deadline come from cfg.
 */
void
ctl_init(struct ctl *ctl, enum ctl_kind kind, const struct ctl_config *cfg)
{
	memset(ctl, 0, sizeof *ctl);
	ctl->kind = kind;
	ctl->cfg = *cfg;
	ctl->acceptable = ctl_acceptable_seconds(cfg);
	ctl->downtime_ms = cfg->initial_downtime_ms;
	/* The stall detector's switchover deadline starts as that time. */
	ctl->switchover_deadline = ctl->acceptable;
}

/* Answers one decision for one sample; never fails. */
void
ctl_step(struct ctl *ctl, const struct ctl_sample *s, struct ctl_decision *d)
{
	memset(d, 0, sizeof *d);
	d->action = CTL_NONE;

	/*
	 * Progress is a new low of the remaining bytes (KubeVirt keeps the
	 * minimum, not the previous sample, so an oscillating busy guest is
	 * not mistaken for progress).
	 */
	if (!ctl->have_min || s->remaining < ctl->min_remaining) {
		ctl->min_remaining = s->remaining;
		ctl->last_progress = s->t;
		ctl->have_min = 1;
	}
	if (s->postcopy)
		ctl->postcopy = 1;

	if (ctl->kind == CTL_KUBEVIRT)
		ctl_kubevirt_step(ctl, s, d);
	else
		ctl_adaptive_step(ctl, s, d);
	if (d->action != CTL_NONE)
		ctl->last_action_t = s->t;
}

/*
 * What a controller was given, for the status document: an operator sees
 * the bounds behind its decisions, and a trace of a real run replays with
 * the same ones (tests/unit/test-trace.c).
 */
struct json_object *
ctl_config_to_json(enum ctl_kind kind, const struct ctl_config *cfg)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "kind",
	    json_object_new_string(ctl_kind_name(kind)));
	json_object_object_add(o, "guestBytes",
	    json_object_new_uint64(cfg->guest_bytes));
	json_object_object_add(o, "completionTimeoutPerGiB",
	    json_object_new_uint64(cfg->completion_timeout_per_gib));
	json_object_object_add(o, "progressTimeout",
	    json_object_new_uint64(cfg->progress_timeout));
	json_object_object_add(o, "maxDowntimeMs",
	    json_object_new_uint64(cfg->max_downtime_ms));
	json_object_object_add(o, "initialDowntimeMs",
	    json_object_new_uint64(cfg->initial_downtime_ms));
	json_object_object_add(o, "allowAutoConverge",
	    json_object_new_boolean(cfg->allow_auto_converge));
	json_object_object_add(o, "throttle", json_object_new_string(
	    !cfg->allow_auto_converge ? "none" : cfg->dirty_limit ?
	    "dirty-limit" : "auto-converge"));
	if (cfg->vcpus > 0)
		json_object_object_add(o, "vcpus",
		    json_object_new_int(cfg->vcpus));
	json_object_object_add(o, "allowPostCopy",
	    json_object_new_boolean(cfg->allow_post_copy));
	json_object_object_add(o, "allowWorkloadDisruption",
	    json_object_new_boolean(cfg->allow_workload_disruption));
	if (cfg->measured_dirty_rate > 0)
		json_object_object_add(o, "measuredDirtyRate",
		    json_object_new_double(cfg->measured_dirty_rate));
	json_object_object_add(o, "acceptableSeconds",
	    json_object_new_double(ctl_acceptable_seconds(cfg)));
	if (cfg->stall.enabled) {
		json_object *x = json_object_new_object();

		json_object_object_add(x, "stallMargin",
		    json_object_new_uint64(cfg->stall.margin_pct));
		json_object_object_add(x, "ewmaAlpha",
		    json_object_new_double(cfg->stall.ewma_alpha));
		json_object_object_add(x, "stallProgressTimeout",
		    json_object_new_uint64(cfg->stall.window_s));
		json_object_object_add(x, "switchoverTimeout",
		    json_object_new_uint64(cfg->stall.switchover_timeout_s));
		json_object_object_add(x, "precopyPossibleFactor",
		    json_object_new_double(cfg->stall.precopy_factor));
		json_object_object_add(x, "patienceWindowDecayFactor",
		    json_object_new_double(cfg->stall.patience_decay));
		json_object_object_add(x, "searchLocalMinima",
		    json_object_new_boolean(cfg->stall.search_local_minima));
		json_object_object_add(x, "completionTimeoutFactor",
		    json_object_new_double(cfg->stall.completion_factor));
		json_object_object_add(o, "stallDetector", x);
	}
	if (cfg->tuning.enabled) {
		json_object *x = json_object_new_object();

		json_object_object_add(x, "initialMs",
		    json_object_new_uint64(cfg->tuning.initial_ms));
		json_object_object_add(x, "steps",
		    json_object_new_uint64(cfg->tuning.steps));
		json_object_object_add(x, "startAfterIteration",
		    json_object_new_uint64(cfg->tuning.start_after_iteration));
		json_object_object_add(x, "cooldownSeconds",
		    json_object_new_uint64(cfg->tuning.cooldown_s));
		json_object_object_add(o, "downtimeTuning", x);
	}
	return o;
}

/*
 * The inverse of ctl_config_to_json(), for replaying a recorded trace with
 * the bounds its controller had (tests/unit/test-trace.c).  Missing fields
 * read as 0 or false.
 */
void
ctl_config_from_json(struct json_object *c, enum ctl_kind *kind,
    struct ctl_config *cfg)
{
	json_object	*x;
	const char	*k = json_str_at(c, "kind");

	*kind = k != NULL && strcmp(k, "kubevirt") == 0 ? CTL_KUBEVIRT :
	    CTL_ADAPTIVE;
	memset(cfg, 0, sizeof *cfg);
	cfg->guest_bytes = json_u64_at(c, "guestBytes");
	cfg->completion_timeout_per_gib = json_u64_at(c,
	    "completionTimeoutPerGiB");
	cfg->progress_timeout = json_u64_at(c, "progressTimeout");
	cfg->max_downtime_ms = json_u64_at(c, "maxDowntimeMs");
	cfg->initial_downtime_ms = json_u64_at(c, "initialDowntimeMs");
	cfg->allow_auto_converge = json_bool_at(c, "allowAutoConverge");
	cfg->dirty_limit = json_str_at(c, "throttle") != NULL &&
	    strcmp(json_str_at(c, "throttle"), "dirty-limit") == 0;
	cfg->vcpus = (int)json_u64_at(c, "vcpus");
	cfg->allow_post_copy = json_bool_at(c, "allowPostCopy");
	cfg->allow_workload_disruption = json_bool_at(c,
	    "allowWorkloadDisruption");
	cfg->measured_dirty_rate = json_double_at(c, "measuredDirtyRate");
	if ((x = json_obj_at(c, "stallDetector")) != NULL) {
		cfg->stall.enabled = 1;
		cfg->stall.margin_pct = json_u64_at(x, "stallMargin");
		cfg->stall.ewma_alpha = json_double_at(x, "ewmaAlpha");
		cfg->stall.window_s = json_u64_at(x, "stallProgressTimeout");
		cfg->stall.switchover_timeout_s = json_u64_at(x,
		    "switchoverTimeout");
		cfg->stall.precopy_factor = json_double_at(x,
		    "precopyPossibleFactor");
		cfg->stall.patience_decay = json_double_at(x,
		    "patienceWindowDecayFactor");
		cfg->stall.search_local_minima = json_bool_at(x,
		    "searchLocalMinima");
		cfg->stall.completion_factor = json_double_at(x,
		    "completionTimeoutFactor");
	}
	if ((x = json_obj_at(c, "downtimeTuning")) != NULL) {
		cfg->tuning.enabled = 1;
		cfg->tuning.initial_ms = json_u64_at(x, "initialMs");
		cfg->tuning.steps = json_u64_at(x, "steps");
		cfg->tuning.start_after_iteration = json_u64_at(x,
		    "startAfterIteration");
		cfg->tuning.cooldown_s = json_u64_at(x, "cooldownSeconds");
	}
}
