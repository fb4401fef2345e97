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
	printf("ok: %zu polic%s\n", set->npolicies,
	    set->npolicies == 1 ? "y" : "ies");
	policy_set_free(set);
	return QM_EXIT_OK;
}

/*
 * The effective settings for a VM: the chosen policy's, or the defaults
 * (name null).  Returns a new reference.
 */
static struct json_object *
effective_json(const struct policy *p)
{
	struct json_object	*o;
	struct mig_settings	 defaults;

	if (p != NULL) {
		o = policy_to_json(p);
		json_object_object_del(o, "selector");
		return o;
	}
	o = json_object_new_object();
	policy_defaults(&defaults);
	json_object_object_add(o, "name", NULL);
	json_object_object_add(o, "file", NULL);
	json_object_object_add(o, "evictionStrategy", json_object_new_string(
	    policy_eviction_name(POLICY_DEFAULT_EVICTION)));
	json_object_object_add(o, "terminationGracePeriodSeconds",
	    json_object_new_int64(POLICY_DEFAULT_GRACE_SECONDS));
	json_object_object_add(o, "migration", mig_settings_to_json(&defaults));
	mig_settings_free(&defaults);
	return o;
}

static int
policy_explain(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "label", required_argument, NULL, 'l' },
		{ "labels-file", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 }
	};
	const char		*path = NULL, *file = NULL;
	struct label		*labels = NULL, l;
	size_t			 nlabels = 0, i;
	char		       **kvs = NULL;
	size_t			 nkvs = 0;
	struct policy_set	*set = NULL;
	const struct policy	*p;
	struct json_object	*o, *lo, *wo;
	char			*cause = NULL, *why = NULL, *line, *save;
	int			 ch, json = 0, rc = QM_EXIT_USAGE;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (ch) {
		case 'p':
			path = optarg;
			break;
		case 'l':
			kvs = xreallocarray(kvs, nkvs + 1, sizeof *kvs);
			kvs[nkvs++] = optarg;
			break;
		case 'f':
			file = optarg;
			break;
		case 'j':
			json = 1;
			break;
		default:
			free(kvs);
			return cmd_usage_error(&cmd_policy_entry,
			    "explain: unknown option %s", argv[optind - 1]);
		}
	}
	if (optind < argc) {
		free(kvs);
		return cmd_usage_error(&cmd_policy_entry,
		    "explain: unexpected argument \"%s\"", argv[optind]);
	}

	if (file != NULL &&
	    labels_load_file(file, &labels, &nlabels, &cause) != 0)
		goto fail;
	for (i = 0; i < nkvs; i++) {
		if (labels_parse(kvs[i], &l, &cause) != 0)
			goto fail;
		if (labels_add(&labels, &nlabels, l.key, l.value, &cause) != 0) {
			free(l.key);
			free(l.value);
			goto fail;
		}
		free(l.key);
		free(l.value);
	}
	if ((set = policy_load_or_default(path, &cause)) == NULL)
		goto fail;

	p = policy_select(set, labels, nlabels, &why);
	o = effective_json(p);
	if (json) {
		lo = json_object_new_object();
		for (i = 0; i < nlabels; i++)
			json_object_object_add(lo, labels[i].key,
			    json_object_new_string(labels[i].value));
		json_object_object_add(o, "labels", lo);
		wo = json_object_new_array();
		for (line = strtok_r(why, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save)) {
			while (*line == ' ')
				line++;
			json_object_array_add(wo, json_object_new_string(line));
		}
		json_object_object_add(o, "why", wo);
	} else
		printf("%s\neffective settings:\n", why);
	printf("%s\n", json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
	    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	free(why);
	rc = QM_EXIT_OK;
	goto out;
fail:
	fprintf(stderr, "qmigrate policy: %s\n", cause);
	free(cause);
out:
	policy_set_free(set);
	labels_free(labels, nlabels);
	free(kvs);
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
	"[--labels-file FILE] [--json]",
	"check PATH validates a policy file or a directory of *.json policy\n"
	"files and prints \"ok: N policies\"; exits 1 naming the file and the\n"
	"field at fault.\n\n"
	"explain loads --policy PATH (default " POLICY_DEFAULT_DIR ";\n"
	"when that directory does not exist, there are no policies) and tells\n"
	"which policy applies to a VM with these labels, why each other one\n"
	"lost, and the effective settings as JSON (--json: JSON only).\n"
	"--labels-file reads a JSON object {\"key\": \"value\"}.  The format is\n"
	"documented in policies/README.md.\n",
	cmd_policy_exec,
};
