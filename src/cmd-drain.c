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
	{ .name = "inventory", .type = ARGS_STRING, .value = "FILE",
	    .flags = ARGS_REQUIRED, .help = "the VMs to evict (below)" },
	{ .name = "max-parallel", .type = ARGS_COUNT, .value = "N", .min = 1,
	    .max = SLOT_MAX,
	    .help = "evictions and outbound migrations at once (default: the\n"
	    "policy directory's KubeVirt object's\n"
	    "parallelOutboundMigrationsPerNode and\n"
	    "parallelMigrationsPerCluster, the smaller; else 2)" },
	{ .name = "slot-dir", .type = ARGS_STRING, .value = "DIR",
	    .help = "node-wide migration slots shared with qmigrate migrate\n"
	    "--slot-dir (default " SLOT_DEFAULT_DIR ")" },
	{ .name = "policy", .type = ARGS_STRING, .value = "PATH",
	    .help = "policy file or directory for every VM (default\n"
	    POLICY_DEFAULT_DIR " if it exists): strategy and migration\n"
	    "settings alike" },
	{ .name = "namespace-label", .type = ARGS_STRING, .value = "K=V",
	    .flags = ARGS_REPEAT,
	    .help = "a namespace label of every VM (added to each one's\n"
	    "namespaceLabels)" },
	{ .name = "namespace-labels-file", .type = ARGS_STRING, .value = "F",
	    .flags = ARGS_REPEAT,
	    .help = "namespace labels of every VM: an object, or a kind:\n"
	    "Namespace manifest (its name as kubernetes.io/metadata.name)" },
	{ .name = "node", .type = ARGS_STRING, .value = "NAME",
	    .help = "the node being evacuated (External; default host name)" },
	{ .name = NULL }
};

const struct cmd_entry cmd_drain_entry = {
	.name = "drain",
	.args = { .options = drain_options },
	.help =
	"Evacuates a node: evicts every VM of the inventory (qmigrate evict, one\n"
	"child process each, by the strategy of its policy), at most N at once.\n"
	"The inventory is a JSON list of\n"
	"  { \"name\": \"vm1\", \"qmp\": PATH, \"qga\": PATH (optional),\n"
	"    \"labels\": { \"K\": \"V\" }, \"namespaceLabels\": { \"K\": \"V\" },\n"
	"    \"vmi\": FILE (a VirtualMachineInstance manifest), \"to\": URI,\n"
	"    \"statusFile\": F }   (qga, labels, namespaceLabels, vmi and\n"
	"    statusFile are optional)\n",
	.footer =
	"Prints a table (VM, strategy, action, state, progress), redrawn on a\n"
	"terminal, one timestamped line per change otherwise; then a summary.\n"
	"Each VM's status goes to its statusFile (default a new directory under\n"
	"/tmp), its evict output to statusFile.log.  A statusFile is kept: the\n"
	"same drain again re-attaches to a killed child's migration.\n"
	"VMs handed to an external controller (External) are listed: they still\n"
	"run on the node.\n",
	.exits =
	"Exit status: 0 every VM evicted (none runs on the node any more), 1 bad\n"
	"inventory (nothing started), else the worst exit status of the VMs left\n"
	"behind (8 when one was killed by a signal: where its VM runs is not\n"
	"known; 5 for those a SIGINT/SIGTERM kept from starting), or 7 when the\n"
	"only VMs left are handed to an external controller.\n",
	.exec = cmd_drain_exec,
};
