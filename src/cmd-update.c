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

/* --mode exec's checks and command line; 0, or a usage error's status. */
static int
update_exec_args(struct args *args, struct mig_options *o, char ***argv)
{
	const char	*file = args_get(args, "new-command");
	char		*cause = NULL;
	int		 rc;

	if (args_get(args, "new-qmp") != NULL || args_get(args, "cpr") !=
	    NULL || args_has(args, "defer"))
		return cmd_usage_error(&cmd_update_entry, "--mode exec: "
		    "--new-qmp, --cpr and --defer are cpr-transfer's (the "
		    "new QEMU is the same process, its monitor the same)");
	if (file == NULL)
		return cmd_usage_error(&cmd_update_entry, "--mode exec: "
		    "--new-command FILE is required");
	/* Nothing streams: the two QEMUs never run at once. */
	if (strncmp(o->uri, "file:", 5) != 0 || o->uri[5] == '\0')
		return cmd_usage_error(&cmd_update_entry, "--to: expected "
		    "file:PATH with --mode exec (the device state waits in a "
		    "file across the exec), got \"%s\"", o->uri);
	if (update_command_load(file, o->uri, argv, &cause) != 0) {
		rc = cmd_usage_error(&cmd_update_entry, "%s", cause);
		free(cause);
		return rc;
	}
	o->exec_argv = *argv;
	return 0;
}

/* --mode transfer's checks (the default). */
static int
update_transfer_args(struct args *args, struct mig_options *o)
{
	o->new_qmp_path = args_get(args, "new-qmp");
	o->cpr_uri = args_get(args, "cpr");
	o->cpr_defer = args_has(args, "defer");
	/* Name the one missing: the user's line has the other. */
	if (o->new_qmp_path == NULL)
		return cmd_usage_error(&cmd_update_entry, "--new-qmp PATH is "
		    "required (--mode transfer)");
	if (o->cpr_uri == NULL)
		return cmd_usage_error(&cmd_update_entry, "--cpr URI is "
		    "required (--mode transfer)");
	if (args_get(args, "new-command") != NULL)
		return cmd_usage_error(&cmd_update_entry, "--new-command is "
		    "--mode exec's");
	/* The RAM's fds pass by SCM_RIGHTS: unix sockets on this host. */
	if (strncmp(o->uri, "unix:", 5) != 0 || o->uri[5] == '\0')
		return cmd_usage_error(&cmd_update_entry, "--to: expected "
		    "unix:PATH (the new QEMU's main channel), got \"%s\"",
		    o->uri);
	if (strncmp(o->cpr_uri, "unix:", 5) != 0 || o->cpr_uri[5] == '\0')
		return cmd_usage_error(&cmd_update_entry, "--cpr: expected "
		    "unix:PATH (QEMU passes the RAM's fds over a unix socket "
		    "only), got \"%s\"", o->cpr_uri);
	return 0;
}

static int
cmd_update_exec(struct args *args)
{
	struct mig_options	 o;
	const char		*mode = args_get(args, "mode");
	char			*cause = NULL, **argv = NULL;
	int			 rc;

	if (mig_options_from_args(args, &o, 1, &cause) != 0) {
		rc = cmd_usage_error(&cmd_update_entry, "%s", cause);
		free(cause);
		return rc;
	}
	if (mode != NULL && strcmp(mode, "transfer") != 0 &&
	    strcmp(mode, "exec") != 0)
		rc = cmd_usage_error(&cmd_update_entry, "--mode: expected "
		    "transfer or exec, got \"%s\"", mode);
	else if (mode != NULL && strcmp(mode, "exec") == 0)
		rc = update_exec_args(args, &o, &argv);
	else
		rc = update_transfer_args(args, &o);
	if (rc == 0)
		rc = mig_source_run(&o);
	mig_options_free(&o);
	update_command_free(argv);
	return rc;
}

static const struct args_option update_options[] = {
	{ .name = "qmp", .type = ARGS_STRING, .value = "PATH",
	    .flags = ARGS_REQUIRED,
	    .help = "the old QEMU's monitor socket (it runs the guest)" },
	{ .name = "mode", .type = ARGS_STRING, .value = "MODE",
	    .help = "transfer (default: cpr-transfer to a second QEMU) or\n"
	    "exec (cpr-exec, QEMU 10.2: the QEMU process execs\n"
	    "--new-command, keeping its pid)" },
	{ .name = "new-command", .type = ARGS_STRING, .value = "FILE",
	    .help = "--mode exec: the new QEMU's command line, one argument\n"
	    "a line, with -incoming and --to's file:PATH" },
	{ .name = "new-qmp", .type = ARGS_STRING, .value = "PATH",
	    .help = "the new QEMU's monitor socket (it appears only after\n"
	    "the old QEMU's migrate: waited for, 20 s at most)" },
	{ .name = "to", .type = ARGS_STRING, .value = "unix:PATH",
	    .flags = ARGS_REQUIRED,
	    .help = "the new QEMU's main channel (its -incoming); --mode\n"
	    "exec: file:PATH, where the device state waits" },
	{ .name = "cpr", .type = ARGS_STRING, .value = "unix:PATH",
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
	"The status document's mode is CprTransfer.\n"
	"With --mode exec (cpr-exec, QEMU 10.2) there is one QEMU: it writes the\n"
	"device state to --to file:PATH and execs --new-command in the same\n"
	"process (the same pid and cgroup), whose monitor comes back on --qmp;\n"
	"the RAM stays in its shared memory backend.  The command line must hold\n"
	"-incoming file:PATH (without it the new QEMU boots a fresh guest).  The\n"
	"status document's mode is CprExec.  If the exec fails (QEMU's \"execvp\n"
	"... failed\") the old QEMU runs on, its mode is put back to normal, and\n"
	"the exit is 3; once the exec happened there is no old copy: a new QEMU\n"
	"that does not come up is not known (8).  With --status-file FILE the\n"
	"update marker FILE.update is there from before the exec until the end\n"
	"is recorded; a run that finds this QEMU's marker and no record of that\n"
	"update's end exits 8 and starts nothing (remove the marker once QEMU's\n"
	"log and query-status say where the guest is); one that cannot write it\n"
	"stops before the exec (3).\n",
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
