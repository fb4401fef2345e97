/*
 * mig-config.c: the effective migration settings: the policy that selects
 * this VM by its labels, or KubeVirt's defaults, under the options of
 * `qmigrate migrate` and `qmigrate incoming` (mig-options.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "ctl.h"
#include "mig-options.h"

/*
 * The host of a tcp: or tls: URI (NULL for unix: or a wildcard address),
 * malloc'd: the address a source connects to, KubeVirt's
 * targetNodeAddress.
 */
static char *
uri_host(const char *uri)
{
	char *host = NULL, *port = NULL;

	if (strncmp(uri, "tcp:", 4) != 0 && strncmp(uri, "tls:", 4) != 0)
		return NULL;
	if (split_hostport(uri + 4, &host, &port) != 0) {
		free(host);
		free(port);
		return NULL;
	}
	free(port);
	if (*host == '\0' || strcmp(host, "0.0.0.0") == 0 ||
	    strcmp(host, "::") == 0) {
		free(host);
		return NULL;
	}
	return host;
}

/*
 * Names this side in the status as KubeVirt's migrationState does: its
 * node and pod (sourceNode and sourcePod, or targetNode and targetPod);
 * the other side's come over tls: (the offer, the answers).  The target's
 * address is the host of the URI.  Under evict, the eviction too.
 */
static void
mig_identity(const struct mig_options *o, struct status *st)
{
	const char	*env = getenv("POD_NAME");
	const char	*pod = o->pod != NULL ? o->pod : env;
	char		*node = node_name(o->node), *host = uri_host(o->uri);
	char		*pod_name = pod != NULL ? xstrndup(pod, 253) : NULL;

	status_set_side(st, strcmp(status_role(st), "target") == 0 ?
	    STATUS_TARGET : STATUS_SOURCE, node, pod_name);
	status_set_target_address(st, host);
	status_set_eviction(st, o->evacuation_node, o->eviction);
	kube_vmim_identify(&o->vmim, st);
	free(node);
	free(host);
	free(pod_name);
}

/*
 * Fills *s with the effective settings and records in the status which
 * policy gave them and why: from o->policies when the caller already loaded
 * them (evict chose its strategy from that set: one set per run), else from
 * o->policy_path, else the defaults.  Returns 0, or -1 with *cause for a
 * policy that cannot be read or a combination that is refused (plaintext
 * tcp: without disableTLS).
 */
int
mig_settings_resolve(const struct mig_options *o, struct mig_settings *s,
    struct status *st, char **cause)
{
	struct policy_set	*loaded = NULL;
	const struct policy_set	*set = o->policies;
	struct policy_choice	 choice;
	json_object		*configuration, *sources;
	int64_t			 per_cluster = CLUSTER_DEFAULT_PARALLEL;
	int64_t			 per_node = CLUSTER_DEFAULT_OUTBOUND;

	/* The same default directory as policy explain, evict and drain. */
	if (set == NULL) {
		if ((loaded = policy_load_or_default(o->policy_path,
		    cause)) == NULL)
			return -1;
		set = loaded;
	}
	/* Say why only where there were policies to choose from. */
	policy_choose(set, &o->vm, &choice, o->policy_path != NULL ||
	    set->npolicies > 0 || set->namespaces != NULL);
	mig_settings_copy(s, &choice.migration);
	if (choice.why != NULL)
		log_info("policy: %s", choice.why);
	if (set != NULL) {
		per_cluster = (int64_t)set->cluster.parallel_per_cluster;
		per_node = (int64_t)set->cluster.parallel_outbound_per_node;
	}
	mig_flags_apply(s, &o->flags);
	configuration = mig_settings_to_json(s);
	/*
	 * KubeVirt reports its DefaultMigrationMaxDowntimeMs where nothing
	 * sets one (the controller's own ceiling is in .controller).
	 */
	json_object_object_add(configuration, "maxDowntimeMs",
	    json_object_new_uint64(mig_settings_reported_downtime(s)));
	sources = mig_flags_sources(&o->flags, choice.policy, set != NULL ?
	    &set->cluster : NULL);
	/* No policy names a deadline's action (KubeVirt's has none). */
	if (o->source) {
		json_object_object_add(configuration, "timeoutAction",
		    json_object_new_string(timeout_action_name(
		    o->timeout_action)));
		json_object_object_add(sources, "timeoutAction",
		    json_object_new_string(o->timeout_action_given ?
		    "flag --timeout-action" : "default"));
	}
	json_object_object_add(configuration, "sources", sources);
	/* A VMI's migrationConfiguration has the cluster's limits too. */
	json_object_object_add(configuration,
	    "parallelMigrationsPerCluster", json_object_new_int64(per_cluster));
	json_object_object_add(configuration,
	    "parallelOutboundMigrationsPerNode",
	    json_object_new_int64(per_node));
	status_set_configuration(st, choice.policy != NULL ?
	    choice.policy->name : NULL, ctl_kind_name(s->convergence),
	    configuration);
	policy_choice_free(&choice);
	policy_set_free(loaded);
	/* KubeVirt's rule for the controller's pause holds for the
	 * deadline's: a workload disruption the settings must allow. */
	if (o->timeout_action == TIMEOUT_PAUSE &&
	    !s->allow_workload_disruption) {
		mig_settings_free(s);
		xasprintf(cause, "--timeout-action pause: pausing the guest is "
		    "a workload disruption the settings do not allow (give "
		    "--postcopy, or a policy with allowWorkloadDisruption)");
		return -1;
	}
	if (o->timeout_action == TIMEOUT_POSTCOPY && !s->allow_post_copy) {
		mig_settings_free(s);
		xasprintf(cause, "--timeout-action postcopy: post-copy is not "
		    "allowed for this VM (give --postcopy, or a policy with "
		    "allowPostCopy)");
		return -1;
	}
	if (strncmp(o->uri, "tcp:", 4) == 0 && !s->disable_tls) {
		mig_settings_free(s);
		xasprintf(cause, "%s: plaintext migration refused: use tls: or "
		    "a policy with migration.disableTLS", o->uri);
		return -1;
	}
	if (strncmp(o->uri, "tcp:", 4) == 0)
		status_note(st, "migration stream in PLAINTEXT over %s: the "
		    "policy sets disableTLS", o->uri);
	mig_identity(o, st);
	return 0;
}
