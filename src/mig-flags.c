/*
 * mig-flags.c: the per-run settings of the command line (--bandwidth,
 * --postcopy, --auto-converge, --multifd, --max-downtime,
 * --completion-timeout-per-gib, --convergence), which refine the policy
 * as a policy refines the cluster's defaults (virsh migrate --bandwidth,
 * qm migrate --bwlimit), and where each effective setting came from: a
 * flag, a policy by name, the KubeVirt object, or the default (KubeVirt
 * writes the merged configuration into the migration's state the same
 * way).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "policy.h"
#include "policy-parse.h"

/* migrate, incoming, update and policy explain include these. */
const struct args_option mig_flag_options[] = {
	{ .name = "bandwidth", .type = ARGS_STRING, .value = "B",
	    .help = "bytes/s, Ki/Mi/Gi/Ti suffix, 0 unlimited: over the\n"
	    "policy's bandwidthPerMigration" },
	{ .name = "postcopy", .type = ARGS_FLAG,
	    .help = "allow post-copy (allowPostCopy, and with it\n"
	    "allowWorkloadDisruption)" },
	{ .name = "no-postcopy", .type = ARGS_FLAG,
	    .help = "never post-copy, whatever the policy says (a pause it\n"
	    "allows stays allowed)" },
	{ .name = "auto-converge", .type = ARGS_FLAG,
	    .help = "allow the throttle (allowAutoConverge)" },
	{ .name = "no-auto-converge", .type = ARGS_FLAG,
	    .help = "never throttle, whatever the policy says" },
	{ .name = "multifd", .type = ARGS_COUNT, .value = "N", .min = 0,
	    .max = POLICY_MAX_MULTIFD,
	    .help = "multifd channels, 0 none (parallelMigrationThreads)" },
	{ .name = "max-downtime", .type = ARGS_COUNT, .value = "MS",
	    .min = 1, .max = (double)POLICY_MAX_DOWNTIME_MS,
	    .help = "the longest switchover pause allowed (maxDowntimeMs)" },
	{ .name = "completion-timeout-per-gib", .type = ARGS_COUNT,
	    .value = "S", .min = 0, .max = (double)POLICY_MAX_TIMEOUT,
	    .help = "seconds per GiB before the controller finishes or\n"
	    "aborts, 0 never (completionTimeoutPerGiB)" },
	{ .name = "convergence", .type = ARGS_STRING, .value = "C",
	    .help = "adaptive (default) or kubevirt: over the policy" },
	{ .name = NULL }
};

/* Each flag, the settings member it gives (MIG_SET_*) and its name. */
static const struct {
	unsigned	 bit;
	const char	*flag;
} flag_names[] = {
	{ MIG_SET_BANDWIDTH, "--bandwidth" },
	{ MIG_SET_POST_COPY, "--postcopy/--no-postcopy" },
	{ MIG_SET_DISRUPTION, "--postcopy" },
	{ MIG_SET_AUTO_CONVERGE, "--auto-converge/--no-auto-converge" },
	{ MIG_SET_MULTIFD, "--multifd" },
	{ MIG_SET_DOWNTIME, "--max-downtime" },
	{ MIG_SET_COMPLETION, "--completion-timeout-per-gib" },
	{ MIG_SET_CONVERGENCE, "--convergence" },
};

/* --X and --no-X: 1, 0, or -1 (neither); both is a usage error. */
static int
flag_pair(const struct args *args, const char *yes, const char *no,
    int *out, char **cause)
{
	int y = args_has(args, yes), n = args_has(args, no);

	if (y && n) {
		xasprintf(cause, "--%s and --%s: give one of them", yes, no);
		return -1;
	}
	*out = y ? 1 : n ? 0 : -1;
	return 0;
}

/*
 * Reads the flags into *flags: each member a flag gives, with its bit in
 * flags->set (nothing else is read from it).  Returns 0, or -1 with
 * *cause naming the flag.
 */
int
mig_flags_from_args(const struct args *args, struct mig_settings *flags,
    char **cause)
{
	const char	*s;
	int		 v;

	memset(flags, 0, sizeof *flags);
	if ((s = args_get(args, "bandwidth")) != NULL) {
		if (policy_parse_bandwidth(s, &flags->bandwidth) != 0) {
			xasprintf(cause, "--bandwidth: expected bytes/s up to "
			    "1Ti, an integer or with a Ki, Mi, Gi or Ti suffix "
			    "such as 64Mi, got \"%s\"", s);
			return -1;
		}
		flags->set |= MIG_SET_BANDWIDTH;
	}
	if (flag_pair(args, "postcopy", "no-postcopy", &v, cause) != 0)
		return -1;
	if (v >= 0) {
		flags->allow_post_copy = v;
		flags->set |= MIG_SET_POST_COPY;
	}
	/* Post-copy happens only where disruption is allowed (KubeVirt). */
	if (v == 1) {
		flags->allow_workload_disruption = 1;
		flags->set |= MIG_SET_DISRUPTION;
	}
	if (flag_pair(args, "auto-converge", "no-auto-converge", &v,
	    cause) != 0)
		return -1;
	if (v >= 0) {
		flags->allow_auto_converge = v;
		flags->set |= MIG_SET_AUTO_CONVERGE;
	}
	if (args_has(args, "multifd")) {
		flags->parallel_migration_threads =
		    (int)args_number(args, "multifd", 0);
		flags->set |= MIG_SET_MULTIFD;
	}
	if (args_has(args, "max-downtime")) {
		flags->max_downtime_ms =
		    (uint64_t)args_number(args, "max-downtime", 0);
		flags->set |= MIG_SET_DOWNTIME;
	}
	if (args_has(args, "completion-timeout-per-gib")) {
		flags->completion_timeout_per_gib = (uint64_t)args_number(args,
		    "completion-timeout-per-gib", 0);
		flags->set |= MIG_SET_COMPLETION;
	}
	if ((s = args_get(args, "convergence")) != NULL) {
		if (strcmp(s, "adaptive") == 0)
			flags->convergence = CTL_ADAPTIVE;
		else if (strcmp(s, "kubevirt") == 0)
			flags->convergence = CTL_KUBEVIRT;
		else {
			xasprintf(cause, "--convergence: expected adaptive or "
			    "kubevirt, got \"%s\"", s);
			return -1;
		}
		flags->set |= MIG_SET_CONVERGENCE;
	}
	return 0;
}

/* The flag that gives the member of bit, or NULL. */
static const char *
flag_of(unsigned bit)
{
	size_t i;

	for (i = 0; i < NITEMS(flag_names); i++)
		if (flag_names[i].bit == bit)
			return flag_names[i].flag;
	return NULL;
}

/*
 * Whether src gives the member of bit: explicitly, or for
 * allowWorkloadDisruption by following the allowPostCopy it gives
 * (KubeVirt's rule, mig_settings_overlay()).
 */
static int
gives(const struct mig_settings *src, unsigned bit)
{
	return (src->set & bit) || (bit == MIG_SET_DISRUPTION &&
	    (src->set & MIG_SET_POST_COPY));
}

/*
 * Where the member of bit came from, malloc'd: "flag --X", "policy NAME",
 * "KubeVirt NAME" (the cluster's spec.configuration.migrations), or
 * "default".
 */
static char *
source_of(unsigned bit, const struct mig_settings *flags,
    const struct policy *p, const struct cluster_config *cl)
{
	char *s;

	if (flags != NULL && (flags->set & bit)) {
		/* The flag given, of a pair. */
		if (bit == MIG_SET_POST_COPY)
			xasprintf(&s, "flag %s", flags->allow_post_copy ?
			    "--postcopy" : "--no-postcopy");
		else if (bit == MIG_SET_AUTO_CONVERGE)
			xasprintf(&s, "flag %s", flags->allow_auto_converge ?
			    "--auto-converge" : "--no-auto-converge");
		else
			xasprintf(&s, "flag %s", flag_of(bit));
		return s;
	}
	if (p != NULL && gives(&p->migration, bit)) {
		xasprintf(&s, "policy %s", p->name);
		return s;
	}
	if (cl != NULL && cl->file != NULL && gives(&cl->migration, bit)) {
		xasprintf(&s, "KubeVirt %s", cl->name != NULL ? cl->name :
		    cl->file);
		return s;
	}
	return xstrdup("default");
}

/*
 * The sources of the settings policy_settings_field() names, as
 * { "bandwidthPerMigration": "flag --bandwidth", ... }: flags (may be
 * NULL) over the policy p (may be NULL) over the cluster cl (may be NULL).
 * Returns a new reference.
 */
struct json_object *
mig_flags_sources(const struct mig_settings *flags, const struct policy *p,
    const struct cluster_config *cl)
{
	struct json_object	*o = json_object_new_object();
	const char		*key;
	unsigned		 bit;
	size_t			 i;
	char			*s;

	for (i = 0; policy_settings_field(i, &key, &bit) == 0; i++) {
		s = source_of(bit, flags, p, cl);
		json_object_object_add(o, key, json_object_new_string(s));
		free(s);
	}
	return o;
}

/*
 * Lays the flags over s (the policy's effective settings), as a policy
 * over the cluster's: only what a flag gives changes.
 */
void
mig_flags_apply(struct mig_settings *s, const struct mig_settings *flags)
{
	int disruption = s->allow_workload_disruption;

	if (flags == NULL || flags->set == 0)
		return;
	mig_settings_overlay(s, flags);
	/*
	 * --no-postcopy forbids post-copy only: a pause the policy allows
	 * stays allowed (the overlay's rule would make disruption follow).
	 */
	if (!(flags->set & MIG_SET_DISRUPTION))
		s->allow_workload_disruption = disruption;
}
