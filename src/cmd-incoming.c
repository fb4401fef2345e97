/*
 * cmd-incoming.c: qmigrate incoming: prepare the target QEMU and wait for
 * the guest.
 */
#include "qmigrate.h"
#include "mig-options.h"

extern const struct cmd_entry cmd_incoming_entry;

static int
cmd_incoming_exec(struct args *args)
{
	return cmd_migrate_side(&cmd_incoming_entry, args, 0);
}

static const struct args_option incoming_options[] = {
	{ .name = "qmp", .type = ARGS_STRING, .value = "PATH",
	    .flags = ARGS_REQUIRED,
	    .help = "the target QEMU's monitor socket" },
	{ .name = "listen", .type = ARGS_STRING, .value = "URI",
	    .flags = ARGS_REQUIRED,
	    .help = "unix:PATH, tcp:HOST:PORT (disableTLS) or tls:ADDR:PORT" },
	{ .include = mig_common_options },
	{ .name = "keep-paused", .type = ARGS_FLAG,
	    .help = "a guest that arrives paused stays paused" },
	{ .name = "timeout", .type = ARGS_SECONDS, .value = "S",
	    .help = "fail if no migration arrives in S s (900)" },
	{ .name = "nbd", .type = ARGS_STRING,
	    .value = "unix:PATH|tcp:HOST:PORT",
	    .help =
	    "where to export the disks the policy's blockMigration copies\n"
	    "(default: unix:PATH.nbd, tcp:HOST:PORT+1)" },
	{ .name = NULL }
};

const struct cmd_entry cmd_incoming_entry = {
	.name = "incoming",
	.args = { .options = incoming_options },
	.help =
	"Prepares the target QEMU at --qmp PATH (started with -incoming defer):\n"
	"sets the capabilities both sides need, listens on URI (unix:PATH,\n"
	"tcp:HOST:PORT with disableTLS, or tls:ADDR:PORT), waits until the\n"
	"guest runs here or the migration fails, and exits.  Over unix: and\n"
	"tcp: both sides must read the same policy.  A guest that arrives\n"
	"paused is resumed unless --keep-paused, or it was paused on the\n"
	"source: over tls: the source says so; over unix: and tcp: a target\n"
	"QEMU without -S starts a guest that ran there by itself, so paused\n"
	"means paused there, unless the policy allows workload disruption.\n"
	"Killed, run it again with the same --status-file: it re-attaches.\n",
	.exits =
	"Exit status: 0 the guest runs here, 1 usage, 3 control plane (no\n"
	"source before --timeout, QEMU or the source refused), 4 data plane\n"
	"(the guest still on the source), 5 aborted (SIGINT/SIGTERM), 6\n"
	"post-copy failed and not recovered, 8 not known (QEMU's monitor\n"
	"stopped answering).\n",
	.exec = cmd_incoming_exec,
};
