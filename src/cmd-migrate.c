/*
 * cmd-migrate.c: qmigrate migrate: drive the source side of a migration.
 */
#include "qmigrate.h"
#include "slot.h"
#include "mig-options.h"

extern const struct cmd_entry cmd_migrate_entry;

static int
cmd_migrate_exec(struct args *args)
{
	/* On a terminal, one updating line of progress (progress-line.c). */
	progress_line_enable(args_has(args, "events"));
	return cmd_migrate_side(&cmd_migrate_entry, args, 1);
}

static const struct args_option migrate_options[] = {
	{ .name = "qmp", .type = ARGS_STRING, .value = "PATH",
	    .flags = ARGS_REQUIRED,
	    .help = "the source QEMU's monitor socket" },
	{ .name = "to", .type = ARGS_STRING, .value = "URI",
	    .flags = ARGS_REQUIRED, .help = "where the guest goes (above)" },
	{ .include = mig_common_options },
	{ .name = "timeout", .type = ARGS_SECONDS, .value = "S",
	    .help = "the deadline: if not done in S s, what\n"
	    "--timeout-action says (none)" },
	{ .name = "timeout-action", .type = ARGS_STRING,
	    .value = "abort|postcopy|pause",
	    .help = "at the --timeout deadline: abort (migrate_cancel,\n"
	    "the default), postcopy (migrate-start-postcopy: needs\n"
	    "post-copy allowed, --postcopy or the policy's), or pause\n"
	    "(the source's vCPUs stopped so pre-copy converges; the\n"
	    "guest runs on the target after)" },
	{ .name = "slot-dir", .type = ARGS_STRING, .value = "DIR",
	    .help =
	    "wait (phase Pending) for one of the --max-parallel node-wide\n"
	    "migration slots in DIR (flock'd files; default\n"
	    SLOT_DEFAULT_DIR ")" },
	{ .name = "max-parallel", .type = ARGS_COUNT, .value = "N", .min = 1,
	    .max = SLOT_MAX, .help = "slots in --slot-dir (default 2)" },
	{ .name = "nbd", .type = ARGS_STRING,
	    .value = "unix:PATH|tcp:HOST:PORT",
	    .help = "the target's NBD server for disks the policy's\n"
	    "blockMigration copies (default: unix:PATH.nbd,\n"
	    "tcp:HOST:PORT+1)" },
	{ .name = NULL }
};

const struct cmd_entry cmd_migrate_entry = {
	.name = "migrate",
	.args = { .options = migrate_options },
	.help =
	"Migrates the guest of the source QEMU at --qmp PATH to URI:\n"
	"  unix:PATH       QEMU's incoming socket (or a proxy's)\n"
	"  tcp:HOST:PORT   plaintext: refused unless the policy sets disableTLS\n"
	"  tls:HOST:PORT   through the TLS proxy of a `qmigrate incoming`\n",
	.footer =
	"On a terminal, one line on stderr shows the progress in place: phase,\n"
	"% sent, MiB left, MB/s, dirty MB/s, ETA (not on a pipe or a file).\n"
	"SIGINT/SIGTERM or `qmigrate abort --status-file F` abort a migration\n"
	"that has not reached post-copy.\n",
	.exits =
	"Exit status: 0 completed (the guest runs on the target), 1 usage, 2 not\n"
	"live-migratable, 3 control plane, 4 data plane (guest still on the\n"
	"source), 5 aborted (guest still on the source), 6 post-copy failed and\n"
	"not recovered (both QEMUs paused), 8 not known: run migrate again with\n"
	"the same --status-file.\n",
	.exec = cmd_migrate_exec,
};
