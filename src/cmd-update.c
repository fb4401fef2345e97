/*
 * cmd-update.c: qmigrate update: move a running guest to a new QEMU on the
 * same host by QEMU's cpr-transfer (10.0): the guest's RAM passes as file
 * descriptors over a unix socket, only the device state is copied.  It is
 * a migration of the old QEMU's session in mode cpr-transfer (DESIGN.md,
 * "In-place update"): the same status document, events and exit statuses
 * as `migrate`.
 */
#include <stdlib.h>
#include <string.h>

#include "qmigrate.h"
#include "mig-options.h"

extern const struct cmd_entry cmd_update_entry;

static int
cmd_update_exec(struct args *args)
{
	struct mig_options	 o;
	char			*cause = NULL;
	int			 rc;

	if (mig_options_from_args(args, &o, 1, &cause) != 0) {
		rc = cmd_usage_error(&cmd_update_entry, "%s", cause);
		free(cause);
		return rc;
	}
	o.new_qmp_path = args_get(args, "new-qmp");
	o.cpr_uri = args_get(args, "cpr");
	o.cpr_defer = args_has(args, "defer");
	/* The RAM's fds pass by SCM_RIGHTS: unix sockets on this host. */
	if (strncmp(o.uri, "unix:", 5) != 0 || o.uri[5] == '\0')
		rc = cmd_usage_error(&cmd_update_entry, "--to: expected "
		    "unix:PATH (the new QEMU's main channel), got \"%s\"",
		    o.uri);
	else if (strncmp(o.cpr_uri, "unix:", 5) != 0 || o.cpr_uri[5] == '\0')
		rc = cmd_usage_error(&cmd_update_entry, "--cpr: expected "
		    "unix:PATH (QEMU passes the RAM's fds over a unix socket "
		    "only), got \"%s\"", o.cpr_uri);
	else
		rc = mig_source_run(&o);
	mig_options_free(&o);
	return rc;
}

static const struct args_option update_options[] = {
	{ .name = "qmp", .type = ARGS_STRING, .value = "PATH",
	    .flags = ARGS_REQUIRED,
	    .help = "the old QEMU's monitor socket (it runs the guest)" },
	{ .name = "new-qmp", .type = ARGS_STRING, .value = "PATH",
	    .flags = ARGS_REQUIRED,
	    .help = "the new QEMU's monitor socket (it appears only after\n"
	    "the old QEMU's migrate: waited for, 20 s at most)" },
	{ .name = "to", .type = ARGS_STRING, .value = "unix:PATH",
	    .flags = ARGS_REQUIRED,
	    .help = "the new QEMU's main channel (its -incoming)" },
	{ .name = "cpr", .type = ARGS_STRING, .value = "unix:PATH",
	    .flags = ARGS_REQUIRED,
	    .help = "the new QEMU's cpr channel (its second -incoming,\n"
	    "\"channel-type\":\"cpr\")" },
	{ .name = "defer", .type = ARGS_FLAG,
	    .help = "the new QEMU has -incoming defer: qmigrate gives it\n"
	    "migrate-incoming on --to once its monitor appears" },
	{ .include = mig_common_options },
	{ .name = "timeout", .type = ARGS_SECONDS, .value = "S",
	    .help = "abort (migrate_cancel) if the old QEMU has not\n"
	    "completed in S s (none)" },
	{ .name = NULL }
};

const struct cmd_entry cmd_update_entry = {
	.name = "update",
	.args = { .options = update_options },
	.help =
	"Moves the guest of the QEMU at --qmp PATH to a new QEMU on this host by\n"
	"cpr-transfer (QEMU 10.0 and later): an in-place update of QEMU under a\n"
	"running guest, whose RAM is passed, not copied.  Both QEMUs need the\n"
	"guest's RAM in a shared memory backend (memory-backend-memfd, -file or\n"
	"-shm with share=on) and -machine aux-ram-share=on; the new one is\n"
	"started by the node agent with the same arguments plus\n"
	"  -incoming unix:MAIN (or -incoming defer, and --defer here)\n"
	"  -incoming '{\"channel-type\":\"cpr\",\"addr\":{\"transport\":\"socket\",\n"
	"             \"type\":\"unix\",\"path\":\"CPR\"}}'\n"
	"and qmigrate runs update --to unix:MAIN --cpr unix:CPR.  Once the new\n"
	"QEMU runs the guest (cont if it waits, -S), the old one is told quit.\n"
	"The status document's mode is CprTransfer.\n",
	.footer =
	"SIGINT/SIGTERM abort until the old QEMU completed, never after.\n",
	.exits =
	"Exit status as migrate's: 0 the guest runs on the new QEMU and the old\n"
	"one was told quit; 2 not updatable in place; 3 control plane (QEMU\n"
	"refused, the new QEMU not ready); 4 data plane and 5 aborted (the\n"
	"guest still runs on the old QEMU); 8 the old QEMU completed but the\n"
	"new one did not say it runs the guest (the old keeps it paused).\n",
	.exec = cmd_update_exec,
};
