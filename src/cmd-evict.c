/*
 * cmd-evict.c: qmigrate evict: apply a VM's eviction strategy (evict.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qmigrate.h"

static int
cmd_evict_exec(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "qmp", required_argument, NULL, 'q' },
		{ "qga", required_argument, NULL, 'g' },
		{ "to", required_argument, NULL, 't' },
		{ "policy", required_argument, NULL, 'p' },
		{ "label", required_argument, NULL, 'l' },
		{ "labels-file", required_argument, NULL, 'L' },
		{ "namespace-label", required_argument, NULL, 'L' },
		{ "namespace-labels-file", required_argument, NULL, 'L' },
		{ "vmi", required_argument, NULL, 'L' },
		{ "status-file", required_argument, NULL, 's' },
		{ "events", no_argument, NULL, 'e' },
		{ "node", required_argument, NULL, 'n' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "slot-dir", required_argument, NULL, 'S' },
		{ "max-parallel", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 }
	};
	struct evict_options	 o;
	uint64_t		 n;
	char			*cause = NULL;
	int			 ch, rc, longindex;

	memset(&o, 0, sizeof o);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+", longopts,
	    &longindex)) != -1) {
		switch (ch) {
		case 'q':
			o.qmp_path = optarg;
			break;
		case 'g':
			o.qga_path = optarg;
			break;
		case 't':
			o.uri = optarg;
			break;
		case 'p':
			o.policy_path = optarg;
			break;
		case 'l':
		case 'L':
			if (vm_ident_option(&o.vm, longopts[longindex].name,
			    optarg, &cause) != 0)
				goto bad;
			break;
		case 's':
			o.status_file = optarg;
			break;
		case 'e':
			o.events = 1;
			break;
		case 'n':
			o.node = optarg;
			break;
		case 'T':
			if (parse_seconds(optarg, &o.timeout) != 0) {
				xasprintf(&cause, "--timeout: expected "
				    "seconds, got \"%s\"", optarg);
				goto bad;
			}
			break;
		case 'S':
			o.slot_dir = optarg;
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
	if (o.qmp_path == NULL) {
		cause = xstrdup("--qmp PATH is required");
		goto bad;
	}
	if (o.uri == NULL) {
		cause = xstrdup("--to URI is required");
		goto bad;
	}
	if (strncmp(o.uri, "unix:", 5) != 0 && strncmp(o.uri, "tcp:", 4) != 0 &&
	    strncmp(o.uri, "tls:", 4) != 0) {
		xasprintf(&cause, "--to: expected unix:PATH, tcp:HOST:PORT or "
		    "tls:HOST:PORT, got \"%s\"", o.uri);
		goto bad;
	}
	if (o.max_parallel != 0 && o.slot_dir == NULL)
		o.slot_dir = SLOT_DEFAULT_DIR;
	if (o.slot_dir != NULL && o.max_parallel == 0)
		o.max_parallel = SLOT_DEFAULT_MAX;
	rc = evict_run(&o);
	vm_ident_free(&o.vm);
	return rc;

bad:
	rc = cmd_usage_error(&cmd_evict_entry, "%s", cause);
	free(cause);
	vm_ident_free(&o.vm);
	return rc;
}

const struct cmd_entry cmd_evict_entry = {
	"evict",
	"--qmp PATH [--qga PATH] --to URI [--policy PATH] [--label K=V]... "
	"[--namespace-label K=V]... [--vmi FILE] [--status-file F] [--events]",
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
	"                         (phase HandedOver, exit 7)\n"
	"\n"
	"  --policy PATH        policy file or directory (default\n"
	"                       " POLICY_DEFAULT_DIR " if it exists): the\n"
	"                       policy that chose the strategy gives the\n"
	"                       migration its settings\n"
	"  --label K=V, --labels-file F, --namespace-label K=V,\n"
	"  --namespace-labels-file F, --vmi FILE   select the policy\n"
	"                       (policies/README.md)\n"
	"  --status-file F      the status document; its \"eviction\" object says\n"
	"                       which strategy ran and why\n"
	"  --slot-dir DIR, --max-parallel N   node-wide limit on outbound\n"
	"                       migrations, as qmigrate migrate\n"
	"  --timeout S          give the migration up after S seconds\n"
	"\n"
	"Exit status: 0 done (migrated or shut down), 1 usage, 2 LiveMigrate\n"
	"refused (not live-migratable), 3-6 as qmigrate migrate, 7 handed to an\n"
	"external controller (the VM still runs on this node).\n",
	cmd_evict_exec,
};
