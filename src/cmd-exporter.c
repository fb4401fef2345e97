/*
 * cmd-exporter.c: qmigrate exporter: argument parsing for exporter.c.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qmigrate.h"
#include "exporter.h"

enum {
	OPT_LISTEN = 256, OPT_VM, OPT_TEXTFILE, OPT_ONCE, OPT_INTERVAL,
	OPT_VM_TIMEOUT, OPT_VM_DIR, OPT_NODE, OPT_NAMESPACE,
};

static int
cmd_exporter_exec(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "listen", required_argument, NULL, OPT_LISTEN },
		{ "vm", required_argument, NULL, OPT_VM },
		{ "textfile", required_argument, NULL, OPT_TEXTFILE },
		{ "once", no_argument, NULL, OPT_ONCE },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "vm-timeout", required_argument, NULL, OPT_VM_TIMEOUT },
		{ "vm-dir", required_argument, NULL, OPT_VM_DIR },
		{ "node", required_argument, NULL, OPT_NODE },
		{ "namespace", required_argument, NULL, OPT_NAMESPACE },
		{ NULL, 0, NULL, 0 }
	};
	const struct cmd_entry	*cmd = &cmd_exporter_entry;
	struct exporter_options	 o;
	struct exporter_vm_spec	 spec;
	DIR			*d;
	char			*cause = NULL;
	size_t			 i, j;
	int			 ch, rc = QM_EXIT_OK;

	memset(&o, 0, sizeof o);
	o.interval = 5;
	o.vm_timeout = 2;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_LISTEN:
			o.listen = optarg;
			break;
		case OPT_VM:
			if (o.nvms == EXPORTER_MAX_VMS) {
				rc = cmd_usage_error(cmd, "--vm: at most %d VMs",
				    EXPORTER_MAX_VMS);
				goto out;
			}
			if (exporter_vm_spec_parse(optarg, &spec, &cause)
			    != 0) {
				rc = cmd_usage_error(cmd, "--vm: %s", cause);
				free(cause);
				goto out;
			}
			for (j = 0; j < o.nvms; j++)
				if (strcmp(o.vms[j].name, spec.name) == 0)
					break;
			if (j < o.nvms) {
				rc = cmd_usage_error(cmd, "--vm: \"%s\" given "
				    "twice", spec.name);
				exporter_vm_spec_free(&spec);
				goto out;
			}
			o.vms = xreallocarray(o.vms, o.nvms + 1,
			    sizeof *o.vms);
			o.vms[o.nvms++] = spec;
			break;
		case OPT_TEXTFILE:
			o.textfile_dir = optarg;
			break;
		case OPT_ONCE:
			o.once = 1;
			break;
		case OPT_VM_DIR:
			o.vm_dir = optarg;
			break;
		case OPT_NODE:
		case OPT_NAMESPACE:
			if (*optarg == '\0') {
				rc = cmd_usage_error(cmd, "--%s: empty",
				    ch == OPT_NODE ? "node" : "namespace");
				goto out;
			}
			if (ch == OPT_NODE)
				o.node = optarg;
			else
				o.namespace = optarg;
			break;
		case OPT_INTERVAL:
		case OPT_VM_TIMEOUT:
			if (parse_seconds(optarg, ch == OPT_INTERVAL ?
			    &o.interval : &o.vm_timeout) != 0 ||
			    (ch == OPT_INTERVAL ? o.interval : o.vm_timeout)
			    < 0.1) {
				rc = cmd_usage_error(cmd, "--%s: expected "
				    "seconds (0.1 or more), got \"%s\"",
				    ch == OPT_INTERVAL ? "interval" :
				    "vm-timeout", optarg);
				goto out;
			}
			break;
		default:
			rc = cmd_usage_error(cmd, "unknown option %s",
			    argv[optind - 1]);
			goto out;
		}
	}
	if (optind < argc) {
		rc = cmd_usage_error(cmd, "unexpected argument \"%s\"",
		    argv[optind]);
		goto out;
	}
	if (o.nvms == 0 && o.vm_dir == NULL) {
		rc = cmd_usage_error(cmd, "give --vm-dir DIR or at least one "
		    "--vm");
		goto out;
	}
	if (o.vm_dir != NULL) {
		if ((d = opendir(o.vm_dir)) == NULL) {
			rc = cmd_usage_error(cmd, "--vm-dir %s: %s", o.vm_dir,
			    strerror(errno));
			goto out;
		}
		closedir(d);
	}
	if (!o.once && o.listen == NULL && o.textfile_dir == NULL) {
		rc = cmd_usage_error(cmd, "give --listen ADDR:PORT, --textfile "
		    "DIR or --once");
		goto out;
	}
	rc = exporter_run(&o);
out:
	for (i = 0; i < o.nvms; i++)
		exporter_vm_spec_free(&o.vms[i]);
	free(o.vms);
	return rc;
}

const struct cmd_entry cmd_exporter_entry = {
	"exporter",
	"[--listen ADDR:PORT] [--vm NAME=QMP_PATH[,qga=PATH][,status=FILE]"
	"[,namespace=NS]]... [--vm-dir DIR] [--node NAME] [--namespace NS] "
	"[--textfile DIR] [--interval S] [--vm-timeout S] [--once]",
	"Serves Prometheus metrics (text format 0.0.4) for every VM on\n"
	"http://ADDR:PORT/metrics: per-VM and per-vCPU CPU time, memory\n"
	"(size, balloon, QEMU's resident memory, the guest's view), block and\n"
	"tap network counters, the guest agent (up, OS, file systems) and the\n"
	"migration (named after KubeVirt's kubevirt_vmi_migration_* set, from\n"
	"the status file; failures by plane).  Series carry name, and\n"
	"namespace and node when given.  Each VM keeps a QMP connection of its\n"
	"own (give QEMU a second -qmp monitor for it: a monitor serves one\n"
	"client at a time), refreshed every --interval seconds (default 5) in\n"
	"the background; a scrape never waits for a VM: it serves the last\n"
	"values, with qmigrate_vm_stale 1 for a VM whose refresh did not\n"
	"answer within --vm-timeout seconds (default 2).\n"
	"\n"
	"  --vm-dir DIR    also every VM of DIR, rescanned each interval: a\n"
	"                  socket DIR/NAME.qmp is VM NAME's monitor, and\n"
	"                  DIR/NAME.qga its agent and DIR/NAME.status its\n"
	"                  status file while they exist\n"
	"  --node NAME     the node label of every series\n"
	"  --namespace NS  the namespace label of VMs that do not name one\n"
	"  --textfile DIR  also write DIR/qmigrate.prom (atomically) every\n"
	"                  interval, for node-exporter's textfile collector\n"
	"  --once          refresh once, write the textfile (or print the\n"
	"                  metrics on stdout without --textfile) and exit\n"
	"\n"
	"QEMU's process and vCPU threads are read in /proc (the exporter must\n"
	"see QEMU's pid namespace or a parent of it), tap counters in\n"
	"/sys/class/net (QEMU's network namespace).\n"
	"\n"
	"Exit status: 0 (after SIGINT/SIGTERM too), 1 usage, 3 cannot listen\n"
	"or write the textfile.\n",
	cmd_exporter_exec,
};
