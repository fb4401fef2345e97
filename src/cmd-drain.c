/*
 * cmd-drain.c: qmigrate drain: evacuate a node (drain.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qmigrate.h"
#include "slot.h"
#include "drain.h"

extern const struct cmd_entry cmd_drain_entry;

static int
cmd_drain_exec(struct args *args)
{
	struct drain_options	 o;
	char			*cause = NULL;
	int			 rc;

	memset(&o, 0, sizeof o);
	o.inventory = args_get(args, "inventory");
	o.max_parallel = (int)args_number(args, "max-parallel", 0);
	o.slot_dir = args_has(args, "slot-dir") ? args_get(args, "slot-dir") :
	    SLOT_DEFAULT_DIR;
	o.policy_path = args_get(args, "policy");
	o.node = args_get(args, "node");
	/*
	 * A Namespace manifest's name: its kubernetes.io/metadata.name, as
	 * the API server sets it, among every VM's namespace labels.
	 */
	if (vm_ident_from_args(&o.vm, args, &cause) != 0 ||
	    (o.vm.namespace != NULL && labels_find(o.vm.ns_labels,
	    o.vm.nns_labels, "kubernetes.io/metadata.name") == NULL &&
	    labels_add(&o.vm.ns_labels, &o.vm.nns_labels,
	    "kubernetes.io/metadata.name", o.vm.namespace, &cause) != 0)) {
		rc = cmd_usage_error(&cmd_drain_entry, "%s", cause);
		free(cause);
		vm_ident_free(&o.vm);
		return rc;
	}
	rc = drain_run(&o);
	vm_ident_free(&o.vm);
	return rc;
}

static const struct args_option drain_options[] = {
	{ "inventory", ARGS_STRING, "FILE", ARGS_REQUIRED, 0, 0,
	    "the VMs to evict (below)", NULL },
	{ "max-parallel", ARGS_COUNT, "N", 0, 1, SLOT_MAX,
	    "evictions and outbound migrations at once (default: the\n"
	    "policy directory's KubeVirt object's\n"
	    "parallelOutboundMigrationsPerNode and\n"
	    "parallelMigrationsPerCluster, the smaller; else 2)", NULL },
	{ "slot-dir", ARGS_STRING, "DIR", 0, 0, 0,
	    "node-wide migration slots shared with qmigrate migrate\n"
	    "--slot-dir (default " SLOT_DEFAULT_DIR ")", NULL },
	{ "policy", ARGS_STRING, "PATH", 0, 0, 0,
	    "policy file or directory for every VM (default\n"
	    POLICY_DEFAULT_DIR " if it exists): strategy and migration\n"
	    "settings alike", NULL },
	{ "namespace-label", ARGS_STRING, "K=V", ARGS_REPEAT, 0, 0,
	    "a namespace label of every VM (added to each one's\n"
	    "namespaceLabels)", NULL },
	{ "namespace-labels-file", ARGS_STRING, "F", ARGS_REPEAT, 0, 0,
	    "namespace labels of every VM: an object, or a kind:\n"
	    "Namespace manifest (its name as kubernetes.io/metadata.name)",
	    NULL },
	{ "node", ARGS_STRING, "NAME", 0, 0, 0,
	    "the node being evacuated (External; default host name)", NULL },
	{ NULL, 0, NULL, 0, 0, 0, NULL, NULL }
};

const struct cmd_entry cmd_drain_entry = {
	"drain",
	{ drain_options, 0, 0, NULL, NULL },
	"Evacuates a node: evicts every VM of the inventory (qmigrate evict, one\n"
	"child process each, by the strategy of its policy), at most N at once.\n"
	"The inventory is a JSON list of\n"
	"  { \"name\": \"vm1\", \"qmp\": PATH, \"qga\": PATH (optional),\n"
	"    \"labels\": { \"K\": \"V\" }, \"namespaceLabels\": { \"K\": \"V\" },\n"
	"    \"vmi\": FILE (a VirtualMachineInstance manifest), \"to\": URI,\n"
	"    \"statusFile\": F }   (qga, labels, namespaceLabels, vmi and\n"
	"    statusFile are optional)\n",
	"Prints a table (VM, strategy, action, state, progress), redrawn on a\n"
	"terminal, one timestamped line per change otherwise; then a summary.\n"
	"Each VM's status goes to its statusFile (default a new directory under\n"
	"/tmp), its evict output to statusFile.log.\n"
	"VMs handed to an external controller (External) are listed: they still\n"
	"run on the node.\n"
	"Exit status: 0 every VM evicted (none runs on the node any more), 1 bad\n"
	"inventory (nothing started), else the worst exit status of the VMs left\n"
	"behind (4 when one died), or 7 when the only VMs left are handed to an\n"
	"external controller.\n",
	cmd_drain_exec,
	NULL,
};
