/*
 * cmd-incoming.c: qmigrate incoming: prepare the target QEMU and wait for
 * the guest.
 */
#include <stdlib.h>

#include "qmigrate.h"
#include "mig-options.h"

extern const struct cmd_entry cmd_incoming_entry;

static int
cmd_incoming_exec(struct args *args)
{
	struct mig_options	 o;
	char			*cause = NULL;
	int			 rc;

	if (mig_options_from_args(args, &o, 0, &cause) != 0) {
		rc = cmd_usage_error(&cmd_incoming_entry, "%s", cause);
		free(cause);
		return rc;
	}
	rc = mig_target_run(&o);
	mig_options_free(&o);
	return rc;
}

static const struct args_option incoming_options[] = {
	{ "qmp", ARGS_STRING, "PATH", ARGS_REQUIRED, 0, 0,
	    "the target QEMU's monitor socket", NULL },
	{ "listen", ARGS_STRING, "URI", ARGS_REQUIRED, 0, 0,
	    "unix:PATH, tcp:HOST:PORT (disableTLS) or tls:ADDR:PORT", NULL },
	{ NULL, 0, NULL, 0, 0, 0, NULL, mig_common_options },
	{ "keep-paused", ARGS_FLAG, NULL, 0, 0, 0,
	    "a guest that arrives paused stays paused", NULL },
	{ "timeout", ARGS_SECONDS, "S", 0, 0, 0,
	    "fail if no migration arrives in S s (900)", NULL },
	{ "nbd", ARGS_STRING, "unix:PATH|tcp:HOST:PORT", 0, 0, 0,
	    "where to export the disks the policy's blockMigration copies\n"
	    "(default: unix:PATH.nbd, tcp:HOST:PORT+1)", NULL },
	{ NULL, 0, NULL, 0, 0, 0, NULL, NULL }
};

const struct cmd_entry cmd_incoming_entry = {
	"incoming",
	{ incoming_options, 0, 0, NULL, NULL },
	"Prepares the target QEMU at --qmp PATH (started with -incoming defer):\n"
	"sets the capabilities both sides need, listens on URI (unix:PATH,\n"
	"tcp:HOST:PORT with disableTLS, or tls:ADDR:PORT), waits until the\n"
	"guest runs here or the migration fails, and exits.  Over unix: and\n"
	"tcp: both sides must read the same policy.\n",
	NULL,
	cmd_incoming_exec,
	NULL,
};
