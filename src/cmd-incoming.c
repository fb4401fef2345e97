/*
 * cmd-incoming.c: qmigrate incoming: prepare the target QEMU and wait for
 * the guest.
 */
#include "qmigrate.h"

static int
cmd_incoming_exec(int argc, char **argv)
{
	struct mig_options	o;
	int			rc;

	if ((rc = mig_options_parse(argc, argv, &cmd_incoming_entry, &o, 0)))
		return rc;
	rc = mig_target_run(&o);
	mig_options_free(&o);
	return rc;
}

const struct cmd_entry cmd_incoming_entry = {
	"incoming",
	"--qmp PATH --listen URI [--policy PATH] [--label K=V]... "
	"[--status-file F] [--events]",
	"Prepares the target QEMU at --qmp PATH (started with -incoming defer):\n"
	"sets the capabilities both sides need, listens on URI (unix:PATH,\n"
	"tcp:HOST:PORT with disableTLS, or tls:ADDR:PORT), waits until the\n"
	"guest runs here or the migration fails, and exits.\n"
	"\n"
	"  --policy PATH, --label K=V, --labels-file F, --namespace-label K=V,\n"
	"  --namespace-labels-file F, --vmi FILE   as for migrate: both sides\n"
	"                       must read the same policy over unix:/tcp:\n"
	"  --status-file F, --events    as for migrate\n"
	"  --keep-paused        a guest that arrives paused stays paused\n"
	"  --timeout S          fail if no migration arrives in S s (900)\n"
	"  --recover-timeout S  how long to wait for a post-copy resume (120)\n"
	"  --nbd unix:PATH|tcp:HOST:PORT   where to export the disks the\n"
	"                       policy's blockMigration copies (default:\n"
	"                       unix:PATH.nbd, tcp:HOST:PORT+1)\n",
	cmd_incoming_exec,
};
