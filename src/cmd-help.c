/*
 * cmd-help.c: qmigrate help [COMMAND [SUBCOMMAND]], the --help of a
 * command by its name (git help, virsh help): the same text, from the
 * same table.
 */
#include <stdio.h>
#include <string.h>

#include "qmigrate.h"

extern const struct cmd_entry cmd_help_entry;

static int
cmd_help_exec(struct args *args)
{
	const struct cmd_entry *const	*sub;
	const struct cmd_entry		*cmd;
	const char			*name, *subname;
	size_t				 n;

	if (args_count(args) == 0) {
		cmd_print_overview(stdout);
		return QM_EXIT_OK;
	}
	name = args_string(args, 0);
	if ((cmd = cmd_find(name)) == NULL)
		return cmd_usage_error(&cmd_help_entry, "unknown command \"%s\"",
		    name);
	if (args_count(args) == 1) {
		cmd_print_help(cmd);
		return QM_EXIT_OK;
	}
	subname = args_string(args, 1);
	n = strlen(cmd->name);
	for (sub = cmd->subs; sub != NULL && *sub != NULL; sub++)
		if (strcmp((*sub)->name + n + 1, subname) == 0) {
			cmd_print_help(*sub);
			return QM_EXIT_OK;
		}
	return cmd_usage_error(&cmd_help_entry, "%s has no subcommand \"%s\"",
	    name, subname);
}

const struct cmd_entry cmd_help_entry = {
	.name = "help",
	.args = { .upper = 2, .arguments = "[COMMAND [SUBCOMMAND]]" },
	.help =
	"Prints what qmigrate COMMAND --help prints (without COMMAND: what\n"
	"qmigrate --help prints).\n",
	.exits = "Exit status: 0 printed, 1 no such command.\n",
	.exec = cmd_help_exec,
};
