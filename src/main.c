/*
 * main.c: global options, then hand over to the subcommand.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qmigrate.h"
#include "qmp.h"
#include "signals.h"

/*
 * The long-running commands, which take every default-fatal signal a user
 * can send as an event of their own loop (signals.c's table: an abort, a
 * log line, never a death): from main()'s first instruction until they
 * arm their handlers, a signal is recorded and handed to them then.
 * Every other command keeps the default actions.
 */
static const char *const signal_cmds[] = {
	"migrate", "incoming", "update", "evict", "drain", "exporter",
	"proxy", NULL
};

static int
takes_signals(const struct cmd_entry *cmd)
{
	const char *const *n;

	for (n = signal_cmds; *n != NULL; n++)
		if (strcmp(*n, cmd->name) == 0)
			return 1;
	return 0;
}

/* QEMU's error replies in full, for -v (qmp_set_debug_log()). */
static void
qmp_debug_line(const char *line, void *arg)
{
	(void)arg;
	log_debug("qmp %s", line);
}

int
main(int argc, char **argv)
{
	const struct cmd_entry	*cmd;
	enum log_level		 level = LOG_LEVEL_INFO;
	int			 json = 0, i;

	signals_early();
	/* A peer closing a socket must be an error return, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	/* A status file past RLIMIT_FSIZE must be a failed write (EFBIG). */
	signal(SIGXFSZ, SIG_IGN);

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			cmd_print_overview(stdout);
			return QM_EXIT_OK;
		} else if (strcmp(argv[i], "--version") == 0) {
			printf("qmigrate %s\n", PACKAGE_VERSION);
			return QM_EXIT_OK;
		} else if (strcmp(argv[i], "--log-json") == 0)
			json = 1;
		else if (strcmp(argv[i], "-v") == 0 ||
		    strcmp(argv[i], "--verbose") == 0)
			level = LOG_LEVEL_DEBUG;
		else if (strcmp(argv[i], "-q") == 0 ||
		    strcmp(argv[i], "--quiet") == 0)
			level = LOG_LEVEL_WARN;
		else {
			fprintf(stderr, "qmigrate: unknown option %s "
			    "(see qmigrate --help)\n", argv[i]);
			return QM_EXIT_USAGE;
		}
	}
	log_init("qmigrate", level, json);
	/* What is still queued for a slow reader goes out, within a bound. */
	atexit(out_drain);
	qmp_set_debug_log(qmp_debug_line, NULL);
	if (i == argc) {
		cmd_print_overview(stderr);
		return QM_EXIT_USAGE;
	}
	cmd = cmd_find(argv[i]);
	if (cmd == NULL) {
		fprintf(stderr, "qmigrate: unknown command %s "
		    "(see qmigrate --help)\n", argv[i]);
		return QM_EXIT_USAGE;
	}
	if (!takes_signals(cmd))
		signals_default();
	return cmd_run(cmd, argc - i, argv + i);
}
