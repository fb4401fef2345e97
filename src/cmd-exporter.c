/*
 * cmd-exporter.c: qmigrate exporter: argument parsing for exporter.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qmigrate.h"
#include "exporter.h"

#define EXPORTER_MAX_VMS	1024

enum {
	OPT_LISTEN = 256, OPT_VM, OPT_TEXTFILE, OPT_ONCE, OPT_INTERVAL,
	OPT_VM_TIMEOUT,
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
		{ NULL, 0, NULL, 0 }
	};
	const struct cmd_entry	*cmd = &cmd_exporter_entry;
	struct exporter_options	 o;
	struct exporter_vm_spec	 spec;
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
	if (o.nvms == 0) {
		rc = cmd_usage_error(cmd, "give at least one --vm");
		goto out;
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
	"[--listen ADDR:PORT] --vm NAME=QMP_PATH[,qga=PATH][,status=FILE]... "
	"[--textfile DIR] [--interval S] [--vm-timeout S] [--once]",
	"Serves Prometheus metrics (text format 0.0.4) for every --vm on\n"
	"http://ADDR:PORT/metrics: migration progress, phase and mode, failures\n"
	"by plane (from the status file), the last dirty-rate measurement,\n"
	"vCPUs, memory, block I/O, guest-agent availability.  Each VM keeps a\n"
	"QMP connection of its own (give QEMU a second -qmp monitor for it:\n"
	"a monitor serves one client at a time), refreshed every --interval\n"
	"seconds (default 5) in the background; a scrape never waits for a VM:\n"
	"it serves the last values, with qmigrate_scrape_stale 1 for a VM whose\n"
	"refresh did not answer within --vm-timeout seconds (default 2).\n"
	"\n"
	"  --textfile DIR  also write DIR/qmigrate.prom (atomically) every\n"
	"                  interval, for node-exporter's textfile collector\n"
	"  --once          refresh once, write the textfile (or print the\n"
	"                  metrics on stdout without --textfile) and exit\n"
	"\n"
	"Exit status: 0 (after SIGINT/SIGTERM too), 1 usage, 3 cannot listen\n"
	"or write the textfile.\n",
	cmd_exporter_exec,
};
