/*
 * cmd.c: the subcommand table and the helpers every command shares for
 * usage errors and --help.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"

/* Keep alphabetical: qmigrate --help prints them in this order. */
const struct cmd_entry *cmd_table[] = {
	&cmd_abort_entry,
	&cmd_check_entry,
	&cmd_dirty_rate_entry,
	&cmd_drain_entry,
	&cmd_exporter_entry,
	&cmd_evict_entry,
	&cmd_guest_entry,
	&cmd_incoming_entry,
	&cmd_migrate_entry,
	&cmd_policy_entry,
	&cmd_proxy_entry,
	&cmd_qmp_entry,
	&cmd_stats_entry,
	&cmd_watch_entry,
	NULL
};

const struct cmd_entry *
cmd_find(const char *name)
{
	const struct cmd_entry **c;

	for (c = cmd_table; *c != NULL; c++)
		if (strcmp((*c)->name, name) == 0)
			return *c;
	return NULL;
}

/* Prints one line naming the command and the fault; returns exit status 1. */
int
cmd_usage_error(const struct cmd_entry *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "qmigrate %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see qmigrate %s --help)\n", cmd->name);
	return QM_EXIT_USAGE;
}

int
cmd_wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0)
			return 1;
	}
	return 0;
}

void
cmd_print_help(const struct cmd_entry *cmd)
{
	printf("usage: qmigrate %s %s\n\n%s", cmd->name, cmd->usage,
	    cmd->help);
}

/*
 * A reply collected for a command that waits on the loop (qmp_run_until on
 * done): the reply (a reference the caller puts), or the error and whether
 * the peer is gone (timeout, closed) rather than refusing one command.
 */
void
cmd_answer_cb(struct qmp_conn *conn, json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	struct cmd_answer *a = arg;

	a->done = 1;
	if (reply != NULL) {
		a->reply = json_object_get(reply);
		return;
	}
	a->fatal = strcmp(error_class, "Timeout") == 0 ||
	    strcmp(error_class, "Closed") == 0;
	a->error = xstrdup(error);
}
