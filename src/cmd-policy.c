/*
 * cmd-policy.c: qmigrate policy check PATH, qmigrate policy explain: lets
 * an operator validate policy files and see which one a VM gets, and why,
 * before any VM is touched.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"

static int
policy_check(int argc, char **argv)
{
	struct policy_set	*set;
	char			*cause = NULL;

	if (argc < 2)
		return cmd_usage_error(&cmd_policy_entry,
		    "check: PATH is required");
	if (argc > 2)
		return cmd_usage_error(&cmd_policy_entry,
		    "check: unexpected argument \"%s\"", argv[2]);
	if ((set = policy_load(argv[1], &cause)) == NULL) {
		fprintf(stderr, "qmigrate policy: %s\n", cause);
		free(cause);
		return QM_EXIT_USAGE;
	}
	printf("ok: %zu polic%s", set->npolicies,
	    set->npolicies == 1 ? "y" : "ies");
	if (set->nnamespaces > 0)
		printf(", %zu namespace%s", set->nnamespaces,
		    set->nnamespaces == 1 ? "" : "s");
	if (set->cluster.file != NULL)
		printf(", cluster defaults from KubeVirt \"%s\" (%s)",
		    set->cluster.name, set->cluster.file);
	printf("\n");
	policy_set_free(set);
	return QM_EXIT_OK;
}

/*
 * The effective settings for a VM: the chosen policy's over the cluster's
 * defaults (name null when no policy applies).  Returns a new reference.
 */
static struct json_object *
effective_json(const struct policy_set *set, const struct policy_choice *ch)
{
	const struct policy	*p = ch->policy;
	struct json_object	*o = json_object_new_object(), *c;

	json_object_object_add(o, "name", p != NULL ?
	    json_object_new_string(p->name) : NULL);
	json_object_object_add(o, "file", p != NULL ?
	    json_object_new_string(p->file) : NULL);
	if (p != NULL && p->doc != 0)
		json_object_object_add(o, "document",
		    json_object_new_int64((int64_t)p->doc));
	json_object_object_add(o, "evictionStrategy", json_object_new_string(
	    policy_eviction_name(ch->eviction)));
	json_object_object_add(o, "evictionStrategyFrom",
	    json_object_new_string(ch->eviction_from));
	json_object_object_add(o, "terminationGracePeriodSeconds",
	    json_object_new_int64((int64_t)ch->grace_seconds));
	json_object_object_add(o, "migration",
	    mig_settings_to_json(&ch->migration));
	c = json_object_new_object();
	json_object_object_add(c, "file", set->cluster.file != NULL ?
	    json_object_new_string(set->cluster.file) : NULL);
	json_object_object_add(c, "name", set->cluster.name != NULL ?
	    json_object_new_string(set->cluster.name) : NULL);
	json_object_object_add(c, "parallelMigrationsPerCluster",
	    json_object_new_int(set->cluster.parallel_per_cluster));
	json_object_object_add(c, "parallelOutboundMigrationsPerNode",
	    json_object_new_int(set->cluster.parallel_outbound_per_node));
	json_object_object_add(o, "cluster", c);
	return o;
}

/* Lines on what was read but is not carried out, or NULL. */
static char *
unapplied_text(const struct policy_set *set, const struct policy *p)
{
	char *text = NULL;

	if (p != NULL && p->unapplied != NULL)
		xasprintf(&text, "not carried out by qmigrate (policy \"%s\"): "
		    "%s", p->name, p->unapplied);
	if (set->cluster.unapplied != NULL) {
		char *more;

		xasprintf(&more, "%s%snot carried out by qmigrate (KubeVirt "
		    "\"%s\"): %s", text != NULL ? text : "",
		    text != NULL ? "\n" : "", set->cluster.name,
		    set->cluster.unapplied);
		free(text);
		text = more;
	}
	return text;
}

static int
policy_explain(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "label", required_argument, NULL, 'l' },
		{ "labels-file", required_argument, NULL, 'l' },
		{ "namespace-label", required_argument, NULL, 'l' },
		{ "namespace-labels-file", required_argument, NULL, 'l' },
		{ "vmi", required_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 }
	};
	const char		*path = NULL;
	struct vm_ident		 vm;
	struct policy_set	*set = NULL;
	struct policy_choice	 choice;
	struct json_object	*o, *wo;
	char			*cause = NULL, *line, *save, *unapplied;
	int			 ch, json = 0, rc = QM_EXIT_USAGE, longindex;

	memset(&vm, 0, sizeof vm);
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+", longopts,
	    &longindex)) != -1) {
		switch (ch) {
		case 'p':
			path = optarg;
			break;
		case 'l':
			if (vm_ident_option(&vm, longopts[longindex].name,
			    optarg, &cause) != 0)
				goto fail;
			break;
		case 'j':
			json = 1;
			break;
		default:
			vm_ident_free(&vm);
			return cmd_usage_error(&cmd_policy_entry,
			    "explain: unknown option %s", argv[optind - 1]);
		}
	}
	if (optind < argc) {
		vm_ident_free(&vm);
		return cmd_usage_error(&cmd_policy_entry,
		    "explain: unexpected argument \"%s\"", argv[optind]);
	}
	if ((set = policy_load_or_default(path, &cause)) == NULL)
		goto fail;

	policy_choose(set, &vm, &choice, 1);
	o = effective_json(set, &choice);
	unapplied = unapplied_text(set, choice.policy);
	if (json) {
		json_object_object_add(o, "labels",
		    labels_to_json(vm.labels, vm.nlabels));
		json_object_object_add(o, "namespaceLabels",
		    labels_to_json(choice.ns_labels, choice.nns_labels));
		wo = json_object_new_array();
		for (line = strtok_r(choice.why, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save)) {
			while (*line == ' ')
				line++;
			json_object_array_add(wo, json_object_new_string(line));
		}
		json_object_object_add(o, "why", wo);
		json_object_object_add(o, "unapplied", unapplied != NULL ?
		    json_object_new_string(unapplied) : NULL);
	} else {
		printf("%s\n", choice.why);
		printf("evictionStrategy %s (from %s)\n",
		    policy_eviction_name(choice.eviction),
		    choice.eviction_from);
		if (set->cluster.file != NULL)
			printf("cluster defaults: KubeVirt \"%s\" (%s)\n",
			    set->cluster.name, set->cluster.file);
		if (unapplied != NULL)
			printf("%s\n", unapplied);
		printf("effective settings:\n");
	}
	printf("%s\n", json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
	    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	free(unapplied);
	policy_choice_free(&choice);
	rc = QM_EXIT_OK;
	goto out;
fail:
	fprintf(stderr, "qmigrate policy: %s\n", cause);
	free(cause);
out:
	policy_set_free(set);
	vm_ident_free(&vm);
	return rc;
}

static int
cmd_policy_exec(int argc, char **argv)
{
	if (argc < 2)
		return cmd_usage_error(&cmd_policy_entry,
		    "check or explain is required");
	if (strcmp(argv[1], "check") == 0)
		return policy_check(argc - 1, argv + 1);
	if (strcmp(argv[1], "explain") == 0)
		return policy_explain(argc - 1, argv + 1);
	return cmd_usage_error(&cmd_policy_entry,
	    "unknown subcommand \"%s\": expected check or explain", argv[1]);
}

const struct cmd_entry cmd_policy_entry = {
	"policy",
	"check PATH | explain [--policy PATH] [--label KEY=VALUE]... "
	"[--labels-file FILE] [--namespace-label KEY=VALUE]... "
	"[--namespace-labels-file FILE] [--vmi FILE] [--json]",
	"check PATH validates a policy file or a directory of policy files\n"
	"(*.json, *.yaml, *.yml: qmigrate's JSON policies and KubeVirt's\n"
	"MigrationPolicy, KubeVirt and Namespace objects) and prints\n"
	"\"ok: N policies\"; exits 1 naming the file, the document and the\n"
	"field at fault.\n\n"
	"explain loads --policy PATH (default " POLICY_DEFAULT_DIR ";\n"
	"when that directory does not exist, there are no policies) and tells\n"
	"which policy applies to a VM with these labels and namespace labels,\n"
	"why each other one lost, and the effective settings as JSON (--json:\n"
	"JSON only).  --labels-file reads an object {\"key\": \"value\"} (JSON\n"
	"or YAML); --namespace-labels-file the same or a kind: Namespace\n"
	"manifest; --vmi a VirtualMachineInstance or VirtualMachine manifest\n"
	"(its labels, namespace and spec.evictionStrategy).  The formats are\n"
	"documented in policies/README.md.\n",
	cmd_policy_exec,
};
