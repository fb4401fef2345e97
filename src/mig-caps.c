/*
 * mig-caps.c: the capabilities and parameters both QEMUs need for one
 * migration, and the QEMU 7.2 rules about them (reference/qemu-7.2-
 * migration.md): postcopy-ram and multifd on both sides before migrate,
 * events on both, and never multifd with post-copy (accepted by 7.2, but
 * the destination aborts when post-copy ends).
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "qmp.h"
#include "mig-job.h"

/* Where the adaptive controller's downtime limit starts. */
#define ADAPTIVE_START_DOWNTIME_MS 50
/*
 * vcpu-dirty-limit (MB/s per vCPU) while the controller has not asked for
 * a throttle: QEMU applies the parameter at its own throttle trigger, and
 * its default, 1 MB/s, would all but stop a busy guest there.
 */
#define DIRTY_LIMIT_DISARMED_MBPS 1000000
/* QEMU 7.2's default downtime-limit. */
#define QEMU_DEFAULT_DOWNTIME_MS 300

/*
 * Derives the plan from the effective settings.  Anything the settings ask
 * for that cannot be honoured is dropped with a note in the status saying
 * which and why.
 */
void
mig_plan_make(struct mig_plan *plan, const struct mig_settings *s,
    enum ctl_kind kind, struct status *st)
{
	memset(plan, 0, sizeof *plan);
	plan->postcopy = s->allow_post_copy;
	plan->auto_converge = s->allow_auto_converge;
	plan->multifd = s->parallel_migration_threads > 0;
	plan->channels = s->parallel_migration_threads;
	plan->bandwidth = s->bandwidth;
	plan->max_cpu_throttle = 99;

	/* Which of post-copy, multifd and the others both QEMUs get is
	 * negotiated (mig-agree.c, mig-negotiate.c). */

	/* The policy's maxDowntimeMs, else QEMU's default. */
	plan->downtime_max_ms = s->max_downtime_ms != 0 ?
	    s->max_downtime_ms : QEMU_DEFAULT_DOWNTIME_MS;
	if (kind == CTL_KUBEVIRT) {
		/* KubeVirt sets maxDowntimeMs only when asked to. */
		plan->downtime_ms = plan->downtime_max_ms;
	} else {
		/*
		 * The adaptive controller starts low and raises the limit
		 * only when pre-copy cannot converge under it.  At QEMU's
		 * 300 ms a fast link switches over as soon as 300 ms of data
		 * is left, which can be most of the guest: the guest then
		 * stands still for nearly all of it (a 256 MiB guest paused
		 * 269 of the 388 ms its migration took, bench/RESULTS.md).
		 * QEMU cannot turn auto-converge on mid-migration, so the
		 * capability is set now with the throttle capped at 1% until
		 * the controller decides to throttle.
		 */
		plan->downtime_ms = ADAPTIVE_START_DOWNTIME_MS;
		if (plan->downtime_max_ms < plan->downtime_ms)
			plan->downtime_ms = plan->downtime_max_ms;
		if (plan->auto_converge)
			plan->max_cpu_throttle = 1;
	}
}

void
mig_plan_least(struct mig_plan *p)
{
	if (p->postcopy)
		p->multifd = p->channels = 0;
	/*
	 * return-path is one (QEMU 2.5 on): without it a source's
	 * "completed" says only that it wrote the stream, and over unix: a
	 * load the target then fails would be a success (N1).
	 */
	p->return_path = 1;
}

/*
 * The source capabilities sent off too where the source's QEMU lists them:
 * dirty-limit, set before (a plan changed by the target's answer, an
 * earlier migration), makes QEMU refuse auto-converge; the switchover's
 * two left on by an earlier migration would change this one's end.
 */
static int
off_too(const struct mig_plan *plan, const char *name)
{
	return (plan->dirty_limit_listed && strcmp(name, "dirty-limit") == 0) ||
	    (plan->return_path_listed && strcmp(name, "return-path") == 0);
}

/* migrate-set-capabilities' arguments for one side. */
static json_object *
caps_args(const struct mig_plan *plan, int source)
{
	json_object *caps = json_object_new_array(), *args, *c;
	struct {
		const char	*name;
		int		 on;
	} list[] = {
		{ "events", 1 },
		{ "postcopy-ram", plan->postcopy },
		{ "multifd", plan->multifd },
		{ "auto-converge", source && plan->auto_converge },
		/*
		 * The source QEMU waits in pre-switchover, its vCPUs
		 * stopped, until the session says migrate-continue (every
		 * QEMU since 2.11 has it): a cancel before that is safe, no
		 * device state has left, and none is sent after it
		 * (SS_SWITCHOVER).  Without it QEMU may begin the switchover
		 * between the "active" a cancel was decided on and the
		 * cancel: its device state reaches the target, which runs
		 * the guest, and the cancelled source resumes its own copy
		 * (audit N3; sim-real seed 9507581: a QEMU stopped 35 s
		 * answered "active" and stopped the guest at once).  The
		 * cost is one monitor round trip of downtime.  A migration
		 * that leaves the guest here puts it back off (source_end).
		 */
		{ "pause-before-switchover", source },
		/* Negotiated (mig-negotiate.c): sent only when on, so
		 * never to a QEMU that does not list them. */
		{ "postcopy-preempt", plan->postcopy_preempt },
		{ "validate-uuid", source && plan->validate_uuid },
		{ "postcopy-blocktime", !source && plan->postcopy_blocktime },
		/* After auto-converge's false: QEMU refuses the two at once. */
		{ "dirty-limit", source && plan->dirty_limit },
		{ "return-path", source && plan->return_path },
	};
	size_t i;

	for (i = 0; i < sizeof list / sizeof list[0]; i++) {
		if (!source && strcmp(list[i].name, "auto-converge") == 0)
			continue;
		if (i >= 5 && !list[i].on && !(source &&
		    off_too(plan, list[i].name)))
			continue;
		c = json_object_new_object();
		json_object_object_add(c, "capability",
		    json_object_new_string(list[i].name));
		json_object_object_add(c, "state",
		    json_object_new_boolean(list[i].on));
		json_object_array_add(caps, c);
	}
	args = json_object_new_object();
	json_object_object_add(args, "capabilities", caps);
	return args;
}

/* migrate-set-capabilities' arguments turning one capability off. */
json_object *
mig_cap_off_args(const char *name)
{
	json_object *caps = json_object_new_array(), *args, *c;

	c = json_object_new_object();
	json_object_object_add(c, "capability", json_object_new_string(name));
	json_object_object_add(c, "state", json_object_new_boolean(0));
	json_object_array_add(caps, c);
	args = json_object_new_object();
	json_object_object_add(args, "capabilities", caps);
	return args;
}

/* migrate-set-parameters' arguments for one side; NULL: nothing to set. */
static json_object *
params_args(const struct mig_plan *plan, int source)
{
	json_object *p = json_object_new_object();

	if (plan->multifd)
		json_object_object_add(p, "multifd-channels",
		    json_object_new_int(plan->channels));
	if (source) {
		/* 0 lifts QEMU's 128 MiB/s default: unlimited, as KubeVirt. */
		json_object_object_add(p, "max-bandwidth",
		    json_object_new_uint64(plan->bandwidth));
		/* Post-copy ignores max-bandwidth: give it the same cap. */
		json_object_object_add(p, "max-postcopy-bandwidth",
		    json_object_new_uint64(plan->bandwidth));
		json_object_object_add(p, "downtime-limit",
		    json_object_new_uint64(plan->downtime_ms));
		/*
		 * QEMU 10.0: the RAM's fds go over the cpr channel.  Any other
		 * plan sets the mode back where QEMU has it: an update that
		 * failed, or a check --update killed while it probed, may have
		 * left cpr-transfer set, and QEMU would refuse this migrate
		 * ("missing 'cpr' migration channel", audit N11).
		 */
		if (plan->cpr_transfer)
			json_object_object_add(p, "mode",
			    json_object_new_string("cpr-transfer"));
		else if (plan->cpr_exec) {
			/* QEMU (10.2) execs cpr-exec-command once completed. */
			json_object	*argv = json_object_new_array();
			char *const	*a;

			for (a = plan->cpr_exec_command; a != NULL && *a != NULL;
			    a++)
				json_object_array_add(argv,
				    json_object_new_string(*a));
			json_object_object_add(p, "mode",
			    json_object_new_string("cpr-exec"));
			json_object_object_add(p, "cpr-exec-command", argv);
		}
		else if (plan->mode_listed)
			json_object_object_add(p, "mode",
			    json_object_new_string("normal"));
		if (plan->auto_converge) {
			/* QEMU wants initial <= max: a disarmed throttle is 1%. */
			json_object_object_add(p, "cpu-throttle-initial",
			    json_object_new_int(plan->max_cpu_throttle < 20 ?
			    plan->max_cpu_throttle : 20));
			json_object_object_add(p, "max-cpu-throttle",
			    json_object_new_int(plan->max_cpu_throttle));
		}
		if (plan->dirty_limit)
			json_object_object_add(p, "vcpu-dirty-limit",
			    json_object_new_int(DIRTY_LIMIT_DISARMED_MBPS));
	}
	if (json_object_object_length(p) == 0) {
		json_object_put(p);
		return NULL;
	}
	return p;
}

enum { APPLY_CAPS, APPLY_CAPS_SET, APPLY_PARAMS_SET };

/*
 * The plan on one side, as a job (mig-job.h; ctx: struct mig_plan_apply):
 * capabilities, then parameters.  A refused postcopy-ram on the target is
 * almost always userfaultfd: the cause says so.
 */
enum mig_job_next
mig_plan_apply_job(void *ctx, int *pc, json_object *reply, const char *error,
    struct mig_job_cmd *cmd, char **cause)
{
	struct mig_plan_apply	*pa = ctx;
	json_object		*args;

	(void)reply;
	switch (*pc) {
	case APPLY_CAPS:
		*pc = APPLY_CAPS_SET;
		cmd->name = "migrate-set-capabilities";
		cmd->args = caps_args(&pa->plan, pa->source);
		return JOB_SEND;
	case APPLY_CAPS_SET:
		if (error != NULL) {
			if (!pa->source && pa->plan.postcopy)
				xasprintf(cause, "migrate-set-capabilities: %s "
				    "(post-copy needs userfaultfd on the "
				    "target: run as root or set "
				    "vm.unprivileged_userfaultfd=1)", error);
			else
				xasprintf(cause, "migrate-set-capabilities: %s",
				    error);
			return JOB_FAILED;
		}
		if ((args = params_args(&pa->plan, pa->source)) == NULL)
			return JOB_DONE;
		*pc = APPLY_PARAMS_SET;
		cmd->name = "migrate-set-parameters";
		cmd->args = args;
		return JOB_SEND;
	default:
		if (error != NULL) {
			xasprintf(cause, "migrate-set-parameters: %s", error);
			return JOB_FAILED;
		}
		return JOB_DONE;
	}
}

/*
 * The plan as the source sends it on the tls: handshake and the status
 * records it: a new object owned by the caller (mig_plan_from_json()
 * reads it back).
 */
json_object *
mig_plan_to_json(const struct mig_plan *plan)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "postCopy",
	    json_object_new_boolean(plan->postcopy));
	json_object_object_add(o, "autoConverge",
	    json_object_new_boolean(plan->auto_converge));
	json_object_object_add(o, "multifdChannels",
	    json_object_new_int(plan->multifd ? plan->channels : 0));
	json_object_object_add(o, "maxBandwidth",
	    json_object_new_uint64(plan->bandwidth));
	json_object_object_add(o, "downtimeLimitMs",
	    json_object_new_uint64(plan->downtime_ms));
	json_object_object_add(o, "postCopyPreempt",
	    json_object_new_boolean(plan->postcopy_preempt));
	json_object_object_add(o, "validateUuid",
	    json_object_new_boolean(plan->validate_uuid));
	json_object_object_add(o, "postCopyBlocktime",
	    json_object_new_boolean(plan->postcopy_blocktime));
	json_object_object_add(o, "dirtyLimit",
	    json_object_new_boolean(plan->dirty_limit));
	return o;
}

/* The target's side of the tls: handshake: reads what the source sent. */
int
mig_plan_from_json(struct mig_plan *plan, json_object *o, char **cause)
{
	json_object *v;

	memset(plan, 0, sizeof *plan);
	if (!json_object_is_type(o, json_type_object))
		goto bad;
	if (!json_object_object_get_ex(o, "postCopy", &v) ||
	    !json_object_is_type(v, json_type_boolean))
		goto bad;
	plan->postcopy = json_object_get_boolean(v);
	if (!json_object_object_get_ex(o, "multifdChannels", &v) ||
	    !json_object_is_type(v, json_type_int))
		goto bad;
	plan->channels = json_object_get_int(v);
	if (plan->channels < 0 || plan->channels > 255)
		goto bad;
	plan->multifd = plan->channels > 0;
	/* Negotiated capabilities (absent: a peer from before them). */
	plan->postcopy_preempt = plan->postcopy &&
	    json_object_get_boolean(json_obj_at(o, "postCopyPreempt"));
	plan->validate_uuid =
	    json_object_get_boolean(json_obj_at(o, "validateUuid"));
	plan->postcopy_blocktime = plan->postcopy &&
	    json_object_get_boolean(json_obj_at(o, "postCopyBlocktime"));
	/* multifd with post-copy only where both QEMUs run it: the
	 * target's negotiation decides (mig_negotiate()). */
	return 0;
bad:
	xasprintf(cause, "source sent a malformed migration configuration");
	return -1;
}
