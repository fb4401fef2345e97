/*
 * cmd-drain.c: qmigrate drain: evacuate a node (drain.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qmigrate.h"

static int
cmd_drain_exec(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "inventory", required_argument, NULL, 'i' },
		{ "max-parallel", required_argument, NULL, 'm' },
		{ "slot-dir", required_argument, NULL, 'S' },
		{ "policy", required_argument, NULL, 'p' },
		{ "node", required_argument, NULL, 'n' },
		{ "namespace-label", required_argument, NULL, 'L' },
		{ "namespace-labels-file", required_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 }
	};
	struct drain_options	 o;
	uint64_t		 n;
	char			*cause = NULL;
	int			 ch, rc, longindex;

	memset(&o, 0, sizeof o);
	o.slot_dir = SLOT_DEFAULT_DIR;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+", longopts,
	    &longindex)) != -1) {
		switch (ch) {
		case 'i':
			o.inventory = optarg;
			break;
		case 'm':
			if (parse_u64(optarg, &n) != 0 || n < 1 ||
			    n > SLOT_MAX) {
				xasprintf(&cause, "--max-parallel: expected 1 "
				    "to %d, got \"%s\"", SLOT_MAX, optarg);
				goto bad;
			}
			o.max_parallel = (int)n;
			break;
		case 'S':
			o.slot_dir = optarg;
			break;
		case 'p':
			o.policy_path = optarg;
			break;
		case 'n':
			o.node = optarg;
			break;
		case 'L':
			if (vm_ident_option(&o.vm, longopts[longindex].name,
			    optarg, &cause) != 0)
				goto bad;
			break;
		default:
			xasprintf(&cause, "unknown option %s",
			    argv[optind - 1]);
			goto bad;
		}
	}
	if (optind < argc) {
		xasprintf(&cause, "unexpected argument \"%s\"", argv[optind]);
		goto bad;
	}
	if (o.inventory == NULL) {
		cause = xstrdup("--inventory FILE is required");
		goto bad;
	}
	rc = drain_run(&o);
	vm_ident_free(&o.vm);
	return rc;

bad:
	rc = cmd_usage_error(&cmd_drain_entry, "%s", cause);
	free(cause);
	vm_ident_free(&o.vm);
	return rc;
}

const struct cmd_entry cmd_drain_entry = {
	"drain",
	"--inventory FILE [--max-parallel N] [--slot-dir DIR] [--policy PATH] "
	"[--namespace-label K=V]...",
	"Evacuates a node: evicts every VM of the inventory (qmigrate evict, one\n"
	"child process each, by the strategy of its policy), at most N at once.\n"
	"The inventory is a JSON list of\n"
	"  { \"name\": \"vm1\", \"qmp\": PATH, \"qga\": PATH (optional),\n"
	"    \"labels\": { \"K\": \"V\" }, \"namespaceLabels\": { \"K\": \"V\" },\n"
	"    \"vmi\": FILE (a VirtualMachineInstance manifest), \"to\": URI,\n"
	"    \"statusFile\": F }   (qga, labels, namespaceLabels, vmi and\n"
	"    statusFile are optional)\n"
	"\n"
	"  --max-parallel N  evictions and outbound migrations at once (default:\n"
	"                    the policy directory's KubeVirt object's\n"
	"                    parallelOutboundMigrationsPerNode and\n"
	"                    parallelMigrationsPerCluster, the smaller; else 2)\n"
	"  --slot-dir DIR    node-wide migration slots shared with qmigrate migrate\n"
	"                    --slot-dir (default " SLOT_DEFAULT_DIR ")\n"
	"  --policy PATH     policy file or directory for every VM (default\n"
	"                    " POLICY_DEFAULT_DIR " if it exists): strategy\n"
	"                    and migration settings alike\n"
	"  --namespace-label K=V, --namespace-labels-file F   namespace labels\n"
	"                    of every VM (added to each one's namespaceLabels)\n"
	"  --node NAME       the node being evacuated (External; default host name)\n"
	"\n"
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
};
