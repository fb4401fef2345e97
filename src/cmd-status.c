/*
 * cmd-status.c: qmigrate status --status-file F [--format json|kubevirt|
 * kubevirt-migration]: a migration's status document as it is, or in
 * KubeVirt's shapes (kube-status.c): the part of a VMI's status KubeVirt
 * keeps for it, or a VirtualMachineInstanceMigration's status, as one JSON
 * merge patch a node agent can apply to the object (kubectl patch vmi
 * NAME --subresource=status --type=merge).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "policy.h"

extern const struct cmd_entry cmd_status_entry;

/* Now as Kubernetes writes a metav1.Time: seconds, UTC.  Malloc'd. */
static char *
kube_now(void)
{
	char *ts = format_rfc3339(now_realtime()), *dot;

	if ((dot = strchr(ts, '.')) != NULL)
		strcpy(dot, "Z");
	return ts;
}

static int
cmd_status_exec(struct args *args)
{
	const char	*file = args_get(args, "status-file");
	const char	*format = args_get(args, "format");
	const char	*vmi = args_get(args, "vmi");
	json_object	*doc, *out = NULL, *conds = NULL;
	char		*cause = NULL, *now;
	int		 rc = QM_EXIT_OK;

	if (format == NULL)
		format = "json";
	if (strcmp(format, "json") != 0 && strcmp(format, "kubevirt") != 0 &&
	    strcmp(format, "kubevirt-migration") != 0)
		return cmd_usage_error(&cmd_status_entry, "--format: expected "
		    "json, kubevirt or kubevirt-migration, got \"%s\"", format);
	if (vmi != NULL && strcmp(format, "kubevirt") != 0)
		return cmd_usage_error(&cmd_status_entry, "--vmi: only with "
		    "--format kubevirt (the VMI's conditions to merge into)");
	if (vmi != NULL && kube_vmi_conditions(vmi, &conds, &cause) != 0) {
		log_error("%s", cause);
		free(cause);
		return QM_EXIT_USAGE;
	}
	if ((doc = status_read_file(file, &cause)) == NULL) {
		log_error("%s", cause);
		free(cause);
		json_object_put(conds);
		return QM_EXIT_USAGE;
	}
	if (strcmp(format, "kubevirt") == 0) {
		now = kube_now();
		out = status_to_kubevirt(doc, conds, now);
		free(now);
	} else if (strcmp(format, "kubevirt-migration") == 0) {
		if ((out = status_to_kubevirt_migration(doc, &cause)) == NULL) {
			log_error("status file %s: %s",
			    file, cause);
			free(cause);
			rc = QM_EXIT_USAGE;
		}
	} else
		out = json_object_get(doc);
	if (out != NULL)
		printf("%s\n", json_object_to_json_string_ext(out,
		    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(out);
	json_object_put(conds);
	json_object_put(doc);
	return rc;
}

static const struct args_option status_options[] = {
	{ .name = "status-file", .type = ARGS_STRING, .value = "F",
	    .flags = ARGS_REQUIRED,
	    .help = "the status document of migrate, incoming or evict" },
	{ .name = "format", .type = ARGS_STRING, .value = "FORMAT",
	    .help =
	    "json (the document, the default), kubevirt (a merge patch\n"
	    "of the VMI's status: migrationState, conditions,\n"
	    "evacuationNodeName) or kubevirt-migration (a merge patch of\n"
	    "the VirtualMachineInstanceMigration's status: phase,\n"
	    "phaseTransitionTimestamps, migrationState)" },
	{ .name = "vmi", .type = ARGS_STRING, .value = "FILE",
	    .help =
	    "with --format kubevirt: the VMI as it is now (kubectl get\n"
	    "vmi NAME -o yaml): qmigrate's conditions are merged into its\n"
	    "list, the others kept with their times" },
	{ .name = NULL }
};

const struct cmd_entry cmd_status_entry = {
	.name = "status",
	.args = { .options = status_options },
	.help =
	"Prints a migration's status document; with --format kubevirt the\n"
	"part of a VirtualMachineInstance's status KubeVirt keeps for it, as\n"
	"a JSON merge patch:\n"
	"  kubectl get vmi NAME -o json >vmi.json\n"
	"  kubectl patch vmi NAME --subresource=status --type=merge \\\n"
	"      -p \"$(qmigrate status --status-file F --format kubevirt \\\n"
	"      --vmi vmi.json)\"\n"
	"In a merge patch a list replaces the VMI's whole list: with --vmi,\n"
	"qmigrate's conditions (LiveMigratable, StorageLiveMigratable,\n"
	"EvictionRequested) are merged into the VMI's, the others kept with\n"
	"their times, lastTransitionTime set when a condition changes.\n"
	"Without --vmi the list is qmigrate's alone, with null times (a node\n"
	"agent that keeps conditions of its own merges them by type).  After\n"
	"a successful eviction the patch clears evacuationNodeName and drops\n"
	"EvictionRequested, as virt-handler and virt-controller do.\n"
	"With --format kubevirt-migration, the status of the migration's\n"
	"VirtualMachineInstanceMigration (--vmim names it in the document):\n"
	"  kubectl patch vmim NAME --subresource=status --type=merge \\\n"
	"      -p \"$(qmigrate status --status-file F \\\n"
	"      --format kubevirt-migration)\"\n",
	.exits =
	"Exit status: 0 printed, 1 usage, an unreadable status file or VMI,\n"
	"or kubevirt-migration of an eviction that did not migrate.\n",
	.exec = cmd_status_exec,
};
