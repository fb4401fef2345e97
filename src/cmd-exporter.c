/*
 * cmd-exporter.c: qmigrate exporter: argument parsing for exporter.c.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qmigrate.h"
#include "observe.h"

extern const struct cmd_entry cmd_exporter_entry;

static int
cmd_exporter_exec(struct args *args)
{
	const struct cmd_entry	*cmd = &cmd_exporter_entry;
	struct exporter_options	 o;
	struct exporter_vm_spec	 spec;
	DIR			*d;
	char			*cause = NULL;
	const char		*name, *value;
	size_t			 i, j;
	int			 rc = QM_EXIT_OK;

	memset(&o, 0, sizeof o);
	o.listen = args_get(args, "listen");
	o.textfile_dir = args_get(args, "textfile");
	o.tls_dir = args_get(args, "tls-dir");
	o.once = args_has(args, "once");
	o.vm_dir = args_get(args, "vm-dir");
	o.node = args_get(args, "node");
	o.namespace = args_get(args, "namespace");
	o.interval = args_number(args, "interval", 5);
	o.vm_timeout = args_number(args, "vm-timeout", 2);
	for (i = 0; (name = args_option_at(args, i, &value)) != NULL; i++) {
		if ((strcmp(name, "node") == 0 ||
		    strcmp(name, "namespace") == 0) && *value == '\0') {
			rc = cmd_usage_error(cmd, "--%s: empty", name);
			goto out;
		}
		if (strcmp(name, "vm") != 0)
			continue;
		if (o.nvms == EXPORTER_MAX_VMS) {
			rc = cmd_usage_error(cmd, "--vm: at most %d VMs",
			    EXPORTER_MAX_VMS);
			goto out;
		}
		if (exporter_vm_spec_parse(value, &spec,
		    &cause) != 0) {
			rc = cmd_usage_error(cmd, "--vm: %s", cause);
			free(cause);
			goto out;
		}
		for (j = 0; j < o.nvms; j++)
			if (strcmp(o.vms[j].name, spec.name) == 0)
				break;
		if (j < o.nvms) {
			rc = cmd_usage_error(cmd, "--vm: \"%s\" given twice",
			    spec.name);
			exporter_vm_spec_free(&spec);
			goto out;
		}
		o.vms = xreallocarray(o.vms, o.nvms + 1, sizeof *o.vms);
		o.vms[o.nvms++] = spec;
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

static const struct args_option exporter_options[] = {
	{ .name = "listen", .type = ARGS_STRING, .value = "ADDR:PORT",
	    .help = "serve http://ADDR:PORT/metrics" },
	{ .name = "vm", .type = ARGS_STRING,
	    .value = "NAME=QMP_PATH[,qga=PATH][,status=FILE][,namespace=NS]",
	    .flags = ARGS_REPEAT,
	    .help =
	    "a VM: its monitor, guest agent, status file and namespace" },
	{ .name = "vm-dir", .type = ARGS_STRING, .value = "DIR",
	    .help = "also every VM of DIR, rescanned each interval: a socket\n"
	    "DIR/NAME.qmp is VM NAME's monitor, and DIR/NAME.qga its agent\n"
	    "and DIR/NAME.status its status file while they exist" },
	{ .name = "node", .type = ARGS_STRING, .value = "NAME",
	    .help = "the node label of every series" },
	{ .name = "namespace", .type = ARGS_STRING, .value = "NS",
	    .help = "the namespace label of VMs that do not name one" },
	{ .name = "textfile", .type = ARGS_STRING, .value = "DIR",
	    .help =
	    "also write DIR/qmigrate.prom (atomically) every interval,\n"
	    "for node-exporter's textfile collector" },
	{ .name = "tls-dir", .type = ARGS_STRING, .value = "DIR",
	    .help = "the node's certificate (DIR/cert.pem): seconds until it\n"
	    "expires, qmigrate_tls_certificate_expiry_seconds" },
	{ .name = "interval", .type = ARGS_SECONDS, .value = "S", .min = 0.1,
	    .help = "refresh every S seconds (5)" },
	{ .name = "vm-timeout", .type = ARGS_SECONDS, .value = "S", .min = 0.1,
	    .help = "a VM whose refresh takes longer is stale (2)" },
	{ .name = "once", .type = ARGS_FLAG,
	    .help =
	    "refresh once, write the textfile (or print the metrics on\n"
	    "stdout without --textfile) and exit" },
	{ .name = NULL }
};

const struct cmd_entry cmd_exporter_entry = {
	.name = "exporter",
	.args = { .options = exporter_options },
	.help =
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
	"answer within --vm-timeout seconds (default 2).\n",
	.footer =
	"QEMU's process and vCPU threads are read in /proc (the exporter must\n"
	"see QEMU's pid namespace or a parent of it), tap counters in\n"
	"/sys/class/net (QEMU's network namespace).  Once listening, it keeps\n"
	"no capability but CAP_SYS_PTRACE (another user's QEMU in /proc): the\n"
	"monitors, status files and --textfile must be open to its user.\n",
	.exits =
	"Exit status: 0 (after SIGINT/SIGTERM too), 1 usage, 3 cannot listen\n"
	"or write the textfile.\n",
	.exec = cmd_exporter_exec,
};
