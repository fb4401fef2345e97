/*
 * cmd-policy.c: qmigrate policy check PATH, qmigrate policy explain: lets
 * an operator validate policy files and see which one a VM gets, and why,
 * before any VM is touched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "policy.h"

static int
policy_check(struct args *args)
{
	struct policy_set	*set;
	char			*cause = NULL;

	if ((set = policy_load(args_string(args, 0), &cause)) == NULL) {
		log_error("%s", cause);
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
effective_json(const struct policy_set *set, const struct policy_choice *ch,
    const struct mig_settings *flags)
{
	const struct policy	*p = ch->policy;
	struct json_object	*o = json_object_new_object(), *c, *m;

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
	m = mig_settings_to_json(&ch->migration);
	/* As the status document's migrationConfiguration (mig-config.c). */
	json_object_object_add(m, "maxDowntimeMs", json_object_new_uint64(
	    mig_settings_reported_downtime(&ch->migration)));
	json_object_object_add(m, "sources", mig_flags_sources(flags, p,
	    &set->cluster));
	json_object_object_add(o, "migration", m);
	c = json_object_new_object();
	json_object_object_add(c, "file", set->cluster.file != NULL ?
	    json_object_new_string(set->cluster.file) : NULL);
	json_object_object_add(c, "name", set->cluster.name != NULL ?
	    json_object_new_string(set->cluster.name) : NULL);
	json_object_object_add(c, "parallelMigrationsPerCluster",
	    json_object_new_int64((int64_t)
	    set->cluster.parallel_per_cluster));
	json_object_object_add(c, "parallelOutboundMigrationsPerNode",
	    json_object_new_int64((int64_t)
	    set->cluster.parallel_outbound_per_node));
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
policy_explain(struct args *args)
{
	const char		*path = args_get(args, "policy");
	struct vm_ident		 vm;
	struct policy_set	*set = NULL;
	struct policy_choice	 choice;
	struct mig_settings	 flags;
	struct json_object	*o, *wo, *src;
	struct json_object_iterator it, end;
	char			*cause = NULL, *line, *save, *unapplied;
	int			 json = args_has(args, "json");
	int			 rc = QM_EXIT_USAGE;

	if (vm_ident_from_args(&vm, args, &cause) != 0)
		goto fail;
	if (mig_flags_from_args(args, &flags, &cause) != 0)
		goto fail;
	if ((set = policy_load_or_default(path, &cause)) == NULL)
		goto fail;

	policy_choose(set, &vm, &choice, 1);
	mig_flags_apply(&choice.migration, &flags);
	o = effective_json(set, &choice, &flags);
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
		/* Where each setting came from: flag, policy, default. */
		json_object_object_get_ex(json_object_object_get(o,
		    "migration"), "sources", &src);
		it = json_object_iter_begin(src);
		end = json_object_iter_end(src);
		for (; !json_object_iter_equal(&it, &end);
		    json_object_iter_next(&it))
			printf("%s from %s\n", json_object_iter_peek_name(&it),
			    json_object_get_string(
			    json_object_iter_peek_value(&it)));
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
	log_error("%s", cause);
	free(cause);
out:
	policy_set_free(set);
	vm_ident_free(&vm);
	return rc;
}

static const struct args_option explain_options[] = {
	{ .name = "policy", .type = ARGS_STRING, .value = "PATH",
	    .help =
	    "policy file or directory (default " POLICY_DEFAULT_DIR ";\n"
	    "when that directory does not exist, there are no policies)" },
	{ .include = vm_ident_options },
	{ .include = mig_flag_options },
	{ .name = "json", .type = ARGS_FLAG,
	    .help = "one JSON document, with why, labels and namespaceLabels" },
	{ .name = NULL }
};

const struct cmd_entry cmd_policy_check_entry = {
	.name = "policy check",
	.args = { .lower = 1, .upper = 1, .arguments = "PATH" },
	.help =
	"Validates a policy file or a directory of policy files (*.json,\n"
	"*.yaml, *.yml: qmigrate's JSON policies and KubeVirt's\n"
	"MigrationPolicy, KubeVirt and Namespace objects) and prints\n"
	"\"ok: N policies\"; exits 1 naming the file, the document and the\n"
	"field at fault.  The formats are documented in policies/README.md.\n",
	.exits =
	"Exit status: 0 every policy valid, 1 a file, document or field at\n"
	"fault (named on one line).\n",
	.exec = policy_check,
};

const struct cmd_entry cmd_policy_explain_entry = {
	.name = "policy explain",
	.args = { .options = explain_options },
	.help =
	"Tells which policy applies to a VM with these labels and namespace\n"
	"labels (KubeVirt's precedence), why each other one lost, and the\n"
	"effective settings as JSON.\n",
	.exits =
	"Exit status: 0 explained, 1 usage or a policy at fault (named on one\n"
	"line).\n",
	.exec = policy_explain,
};

static const struct cmd_entry *const policy_subs[] = {
	&cmd_policy_check_entry, &cmd_policy_explain_entry, NULL
};

const struct cmd_entry cmd_policy_entry = {
	.name = "policy",
	.help = "Policy files: check and explain.\n",
	.subs = policy_subs,
};
