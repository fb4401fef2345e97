/*
 * mig-config.c: the options `qmigrate migrate` and `qmigrate incoming`
 * share, and the effective migration settings: the policy that selects
 * this VM by its labels, or KubeVirt's defaults.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"

/* The options migrate and incoming share (their tables include these). */
const struct args_option mig_common_options[] = {
	{ "policy", ARGS_STRING, "PATH", 0, 0, 0,
	    "policy file or directory (default: KubeVirt's defaults):\n"
	    "qmigrate's JSON policies, KubeVirt's MigrationPolicy, KubeVirt\n"
	    "and Namespace objects (policies/README.md)", NULL },
	{ NULL, 0, NULL, 0, 0, 0, NULL, vm_ident_options },
	{ "status-file", ARGS_STRING, "F", 0, 0, 0,
	    "the status document, rewritten atomically", NULL },
	{ "events", ARGS_FLAG, NULL, 0, 0, 0,
	    "one JSON line on stdout per change and sample", NULL },
	{ "recover-timeout", ARGS_SECONDS, "S", 0, 0, 0,
	    "how long to recover a broken post-copy (120)", NULL },
	{ "tls-dir", ARGS_STRING, "DIR", 0, 0, 0,
	    "ca.pem, cert.pem, key.pem for tls: URIs", NULL },
	{ "tls-name", ARGS_STRING, "N", 0, 0, 0,
	    "the name the peer's certificate must carry", NULL },
	{ "tls12", ARGS_FLAG, NULL, 0, 0, 0,
	    "allow TLS 1.2 (default: 1.3 only)", NULL },
	{ "convergence", ARGS_STRING, "C", 0, 0, 0,
	    "adaptive (default) or kubevirt: overrides the policy", NULL },
	{ "node", ARGS_STRING, "NAME", 0, 0, 0,
	    "this node's name in the status (sourceNode or targetNode;\n"
	    "default $NODE_NAME, else the host name)", NULL },
	{ "pod", ARGS_STRING, "NAME", 0, 0, 0,
	    "this side's pod in the status (sourcePod or targetPod;\n"
	    "default $POD_NAME)", NULL },
	{ NULL, 0, NULL, 0, 0, 0, NULL, NULL }
};

/*
 * Fills *o from the options of migrate (source) or incoming.  Returns 0,
 * or the exit status of a usage error (already reported in one line).
 */
int
mig_options_from_args(struct args *args, const struct cmd_entry *cmd,
    struct mig_options *o, int source)
{
	const char	*s;
	char		*cause = NULL;
	int		 rc;

	memset(o, 0, sizeof *o);
	o->qmp_path = args_get(args, "qmp");
	o->uri = args_get(args, source ? "to" : "listen");
	o->policy_path = args_get(args, "policy");
	o->status_file = args_get(args, "status-file");
	o->events = args_has(args, "events");
	o->keep_paused = args_has(args, "keep-paused");
	/* KubeVirt's catch-all for a target: 15 min. */
	o->timeout = args_number(args, "timeout", source ? 0 : 900);
	o->recover_timeout = args_number(args, "recover-timeout", 120);
	o->tls_dir = args_get(args, "tls-dir");
	o->tls_name = args_get(args, "tls-name");
	o->tls12 = args_has(args, "tls12");
	o->slot_dir = args_get(args, "slot-dir");
	o->max_parallel = (int)args_number(args, "max-parallel", 0);
	o->nbd = args_get(args, "nbd");
	o->node = args_get(args, "node");
	o->pod = args_get(args, "pod");
	if (vm_ident_from_args(&o->vm, args, &cause) != 0)
		goto bad;
	if ((s = args_get(args, "convergence")) != NULL) {
		o->convergence_set = 1;
		if (strcmp(s, "adaptive") == 0)
			o->convergence = CTL_ADAPTIVE;
		else if (strcmp(s, "kubevirt") == 0)
			o->convergence = CTL_KUBEVIRT;
		else {
			xasprintf(&cause, "--convergence: expected adaptive or "
			    "kubevirt, got \"%s\"", s);
			goto bad;
		}
	}
	if (o->max_parallel != 0 && o->slot_dir == NULL)
		o->slot_dir = SLOT_DEFAULT_DIR;
	if (o->slot_dir != NULL && o->max_parallel == 0)
		o->max_parallel = SLOT_DEFAULT_MAX;
	if (strncmp(o->uri, "unix:", 5) != 0 &&
	    strncmp(o->uri, "tcp:", 4) != 0 &&
	    strncmp(o->uri, "tls:", 4) != 0) {
		xasprintf(&cause, "%s: expected unix:PATH, tcp:HOST:PORT or "
		    "tls:HOST:PORT, got \"%s\"", source ? "--to" : "--listen",
		    o->uri);
		goto bad;
	}
	return 0;

bad:
	rc = cmd_usage_error(cmd, "%s", cause);
	free(cause);
	mig_options_free(o);
	return rc;
}

void
mig_options_free(struct mig_options *o)
{
	vm_ident_free(&o->vm);
}

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
 * address is the host of the URI.
 */
static void
mig_identity(const struct mig_options *o, struct status *st)
{
	const char	*env = getenv("POD_NAME");
	const char	*pod = o->pod != NULL ? o->pod : env;
	int		 source = strcmp(st->role, "target") != 0;
	char		**node_slot, **pod_slot;

	node_slot = source ? &st->source_node : &st->target_node;
	pod_slot = source ? &st->source_pod : &st->target_pod;
	free(*node_slot);
	*node_slot = node_name(o->node);
	free(*pod_slot);
	*pod_slot = pod != NULL && *pod != '\0' ? xstrndup(pod, 253) : NULL;
	free(st->target_address);
	st->target_address = uri_host(o->uri);
	if (o->evacuation_node != NULL) {
		free(st->evacuation_node);
		st->evacuation_node = xstrdup(o->evacuation_node);
	}
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
	int64_t			 per_cluster = CLUSTER_DEFAULT_PARALLEL;
	int64_t			 per_node = CLUSTER_DEFAULT_OUTBOUND;

	if (set == NULL && o->policy_path != NULL) {
		if ((loaded = policy_load(o->policy_path, cause)) == NULL)
			return -1;
		set = loaded;
	}
	policy_choose(set, &o->vm, &choice, set != NULL);
	mig_settings_copy(s, &choice.migration);
	if (choice.policy != NULL)
		st->policy_name = xstrdup(choice.policy->name);
	if (choice.why != NULL)
		log_info("policy: %s", choice.why);
	policy_choice_free(&choice);
	if (set != NULL) {
		per_cluster = (int64_t)set->cluster.parallel_per_cluster;
		per_node = (int64_t)set->cluster.parallel_outbound_per_node;
	}
	policy_set_free(loaded);
	if (o->convergence_set)
		s->convergence = o->convergence;
	if (strncmp(o->uri, "tcp:", 4) == 0 && !s->disable_tls) {
		mig_settings_free(s);
		xasprintf(cause, "%s: plaintext migration refused: use tls: or "
		    "a policy with migration.disableTLS", o->uri);
		return -1;
	}
	if (strncmp(o->uri, "tcp:", 4) == 0)
		status_note(st, "migration stream in PLAINTEXT over %s: the "
		    "policy sets disableTLS", o->uri);
	json_object_put(st->configuration);
	st->configuration = mig_settings_to_json(s);
	/* A VMI's migrationConfiguration has the cluster's limits too. */
	json_object_object_add(st->configuration,
	    "parallelMigrationsPerCluster", json_object_new_int64(per_cluster));
	json_object_object_add(st->configuration,
	    "parallelOutboundMigrationsPerNode",
	    json_object_new_int64(per_node));
	free(st->controller);
	st->controller = xstrdup(ctl_kind_name(s->convergence));
	mig_identity(o, st);
	return 0;
}
