/*
 * cmd-status.c: qmigrate status --status-file F [--format json|kubevirt]:
 * a migration's status document as it is, or as the part of a VMI's
 * status KubeVirt keeps for it: status.migrationState and
 * status.conditions, one JSON merge patch a node agent can apply to the
 * VMI (kubectl patch vmi NAME --subresource=status --type=merge).
 *
 * The document already uses KubeVirt's names; the conversion keeps only
 * KubeVirt's fields (qmigrate's own, such as progress or decisions, have
 * no place in a VMI) in KubeVirt's shapes: the configuration as
 * VMIMConfigurationOptions, a bandwidth as a Kubernetes quantity, each
 * condition with one reason and message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"

/* Copies doc[key] to out[key] when it is of type t. */
static void
copy_key(json_object *out, json_object *doc, const char *key, enum json_type t)
{
	json_object *v;

	if (json_object_object_get_ex(doc, key, &v) &&
	    json_object_is_type(v, t))
		json_object_object_add(out, key, json_object_get(v));
}

/* Bytes as Kubernetes writes a quantity: "64Mi", "1Gi", else "12345". */
static json_object *
quantity_json(int64_t bytes)
{
	static const char *suffixes[] = { "Ti", "Gi", "Mi", "Ki" };
	char	buf[32];
	int	i, shift;

	for (i = 0, shift = 40; i < 4 && bytes > 0; i++, shift -= 10) {
		if (bytes % ((int64_t)1 << shift) == 0) {
			snprintf(buf, sizeof buf, "%lld%s",
			    (long long)(bytes >> shift), suffixes[i]);
			return json_object_new_string(buf);
		}
	}
	snprintf(buf, sizeof buf, "%lld", (long long)bytes);
	return json_object_new_string(buf);
}

/* The document's migrationConfiguration as KubeVirt's fields only. */
static json_object *
configuration_json(json_object *c)
{
	static const char *bools[] = { "allowAutoConverge", "allowPostCopy",
	    "allowWorkloadDisruption", "disableTLS" };
	static const char *ints[] = { "completionTimeoutPerGiB",
	    "progressTimeout", "parallelMigrationsPerCluster",
	    "parallelOutboundMigrationsPerNode" };
	json_object	*o = json_object_new_object(), *v;
	size_t		 i;

	for (i = 0; i < NITEMS(bools); i++)
		copy_key(o, c, bools[i], json_type_boolean);
	for (i = 0; i < NITEMS(ints); i++)
		copy_key(o, c, ints[i], json_type_int);
	if (json_object_object_get_ex(c, "bandwidthPerMigration", &v) &&
	    json_object_is_type(v, json_type_int) &&
	    json_object_get_int64(v) > 0)
		json_object_object_add(o, "bandwidthPerMigration",
		    quantity_json(json_object_get_int64(v)));
	/* 0 is QEMU's own default, which KubeVirt cannot say. */
	if (json_object_object_get_ex(c, "maxDowntimeMs", &v) &&
	    json_object_is_type(v, json_type_int) &&
	    json_object_get_int64(v) > 0)
		json_object_object_add(o, "maxDowntimeMs", json_object_get(v));
	return o;
}

/* A condition of the document as a VMI's: one reason, one message. */
static json_object *
condition_json(json_object *c)
{
	json_object	*o = json_object_new_object();
	const char	*s;

	copy_key(o, c, "type", json_type_string);
	copy_key(o, c, "status", json_type_string);
	if ((s = json_str_at(c, "reason")) != NULL && *s != '\0')
		json_object_object_add(o, "reason", json_object_new_string(s));
	if ((s = json_str_at(c, "message")) != NULL && *s != '\0')
		json_object_object_add(o, "message",
		    json_object_new_string(s));
	json_object_object_add(o, "lastProbeTime", NULL);
	json_object_object_add(o, "lastTransitionTime", NULL);
	return o;
}

/*
 * The merge patch of a VMI's status for the status document doc
 * (borrowed).  Returns a new reference.
 */
json_object *
status_to_kubevirt(json_object *doc)
{
	static const char *strings[] = { "startTimestamp", "endTimestamp",
	    "targetNodeAddress", "targetNode", "targetPod", "sourceNode",
	    "sourcePod", "abortStatus", "failureReason", "migrationUid",
	    "mode", "migrationPolicyName" };
	static const char *bools[] = { "completed", "failed",
	    "abortRequested" };
	json_object	*patch, *status, *ms, *v, *conds;
	size_t		 i;

	ms = json_object_new_object();
	for (i = 0; i < NITEMS(strings); i++)
		copy_key(ms, doc, strings[i], json_type_string);
	for (i = 0; i < NITEMS(bools); i++)
		copy_key(ms, doc, bools[i], json_type_boolean);
	if (json_object_object_get_ex(doc, "migrationConfiguration", &v) &&
	    json_object_is_type(v, json_type_object))
		json_object_object_add(ms, "migrationConfiguration",
		    configuration_json(v));
	status = json_object_new_object();
	json_object_object_add(status, "migrationState", ms);
	if (json_object_object_get_ex(doc, "conditions", &v) &&
	    json_object_is_type(v, json_type_array)) {
		conds = json_object_new_array();
		for (i = 0; i < json_object_array_length(v); i++)
			if (json_object_is_type(json_object_array_get_idx(v, i),
			    json_type_object))
				json_object_array_add(conds, condition_json(
				    json_object_array_get_idx(v, i)));
		json_object_object_add(status, "conditions", conds);
	}
	copy_key(status, doc, "evacuationNodeName", json_type_string);
	patch = json_object_new_object();
	json_object_object_add(patch, "status", status);
	return patch;
}

static int
cmd_status_exec(struct args *args)
{
	const char	*file = args_get(args, "status-file");
	const char	*format = args_get(args, "format");
	json_object	*doc, *out;
	char		*cause = NULL;

	if (format == NULL)
		format = "json";
	if (strcmp(format, "json") != 0 && strcmp(format, "kubevirt") != 0)
		return cmd_usage_error(&cmd_status_entry, "--format: expected "
		    "json or kubevirt, got \"%s\"", format);
	if ((doc = status_read_file(file, &cause)) == NULL) {
		fprintf(stderr, "qmigrate status: %s\n", cause);
		free(cause);
		return QM_EXIT_USAGE;
	}
	out = strcmp(format, "kubevirt") == 0 ? status_to_kubevirt(doc) :
	    json_object_get(doc);
	printf("%s\n", json_object_to_json_string_ext(out,
	    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
	    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(out);
	json_object_put(doc);
	return QM_EXIT_OK;
}

static const struct args_option status_options[] = {
	{ "status-file", ARGS_STRING, "F", ARGS_REQUIRED, 0, 0,
	    "the status document of migrate, incoming or evict", NULL },
	{ "format", ARGS_STRING, "FORMAT", 0, 0, 0,
	    "json (the document, the default) or kubevirt (a merge patch\n"
	    "of the VMI's status: migrationState, conditions,\n"
	    "evacuationNodeName)", NULL },
	{ NULL, 0, NULL, 0, 0, 0, NULL, NULL }
};

const struct cmd_entry cmd_status_entry = {
	"status",
	{ status_options, 0, 0, NULL, NULL },
	"Prints a migration's status document, or with --format kubevirt the\n"
	"part of a VirtualMachineInstance's status KubeVirt keeps for it, as a\n"
	"JSON merge patch:\n"
	"  kubectl patch vmi NAME --subresource=status --type=merge \\\n"
	"      -p \"$(qmigrate status --status-file F --format kubevirt)\"\n"
	"In a merge patch a list replaces the VMI's whole list: a node agent\n"
	"that keeps conditions of its own (Ready) merges conditions by type\n"
	"before it patches.\n",
	"Exit status: 0 printed, 1 usage or an unreadable status file.\n",
	cmd_status_exec,
	NULL,
};
