/*
 * cmd-evict.c: qmigrate evict: apply a VM's eviction strategy (evict.c).
 */
#include <stdlib.h>

#include "qmigrate.h"
#include "slot.h"
#include "evict.h"

extern const struct cmd_entry cmd_evict_entry;

static int
cmd_evict_exec(struct args *args)
{
	struct evict_options	 o;
	char			*cause = NULL;
	int			 rc;

	/* evict's options are migrate's (without its TLS and tuning) */
	if (mig_options_from_args(args, &o.mig, 1, &cause) != 0) {
		rc = cmd_usage_error(&cmd_evict_entry, "%s", cause);
		free(cause);
		return rc;
	}
	o.qga_path = args_get(args, "qga");
	rc = evict_run(&o);
	mig_options_free(&o.mig);
	return rc;
}

static const struct args_option evict_options[] = {
	{ .name = "qmp", .type = ARGS_STRING, .value = "PATH",
	    .flags = ARGS_REQUIRED, .help = "the VM's QEMU monitor socket" },
	{ .name = "qga", .type = ARGS_STRING, .value = "PATH",
	    .help = "its guest agent's socket (for guest-shutdown)" },
	{ .name = "to", .type = ARGS_STRING, .value = "URI",
	    .flags = ARGS_REQUIRED,
	    .help = "where a live migration goes: unix:PATH, tcp:HOST:PORT or\n"
	    "tls:HOST:PORT, as for qmigrate migrate" },
	{ .name = "policy", .type = ARGS_STRING, .value = "PATH",
	    .help = "policy file or directory (default " POLICY_DEFAULT_DIR "\n"
	    "if it exists): the policy that chose the strategy gives the\n"
	    "migration its settings" },
	{ .include = vm_ident_options },
	{ .include = kube_vmim_options },
	{ .name = "status-file", .type = ARGS_STRING, .value = "F",
	    .help = "the status document; its \"eviction\" object says which\n"
	    "strategy ran and why" },
	{ .name = "events", .type = ARGS_FLAG,
	    .help = "one JSON line on stdout per change and sample" },
	{ .name = "node", .type = ARGS_STRING, .value = "NAME",
	    .help = "this node, the one being evacuated (evacuationNodeName,\n"
	    "sourceNode; default $NODE_NAME, else the host name)" },
	{ .name = "pod", .type = ARGS_STRING, .value = "NAME",
	    .help = "the VM's pod (sourcePod; default $POD_NAME)" },
	{ .name = "timeout", .type = ARGS_SECONDS, .value = "S",
	    .help = "give the migration up after S seconds" },
	{ .name = "slot-dir", .type = ARGS_STRING, .value = "DIR",
	    .help =
	    "node-wide limit on outbound migrations, as qmigrate migrate" },
	{ .name = "max-parallel", .type = ARGS_COUNT, .value = "N", .min = 1,
	    .max = SLOT_MAX,
	    .help = "slots in --slot-dir, as qmigrate migrate" },
	{ .name = NULL }
};

const struct cmd_entry cmd_evict_entry = {
	.name = "evict",
	.args = { .options = evict_options },
	.help =
	"Evicts the VM of the QEMU at --qmp PATH by its evictionStrategy: the\n"
	"--vmi manifest's spec.evictionStrategy, else the policy's, else the\n"
	"cluster's (a KubeVirt object among the policies), else None:\n"
	"  LiveMigrate            migrate to URI, as qmigrate migrate; a VM that\n"
	"                         cannot move is refused (exit 2) and left running\n"
	"  LiveMigrateIfPossible  migrate when the pre-flight passes, else shut down\n"
	"  None                   shut down: guest-shutdown through the agent at\n"
	"                         --qga when it answers, else system_powerdown;\n"
	"                         quit after terminationGracePeriodSeconds\n"
	"  External               record evictionRequested and the node being\n"
	"                         evacuated (--node, default the host name) in the\n"
	"                         status; touch nothing: the VM still runs here\n"
	"                         (phase HandedOver, exit 7)\n",
	.exits =
	"Exit status: 0 done (migrated or shut down), 1 usage, 2 LiveMigrate\n"
	"refused (not live-migratable), 3-6 and 8 as qmigrate migrate (5 also\n"
	"SIGINT/SIGTERM before the shutdown, in the pre-flight or in the grace\n"
	"period: the VM still runs on this node), 7 handed to an external\n"
	"controller (the VM still runs on this node).\n",
	.exec = cmd_evict_exec,
};
