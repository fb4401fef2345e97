/*
 * cmd.c: the subcommand table and the helpers every command shares for
 * usage errors and --help.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "qmp.h"
#include "mig-options.h"

/* The commands: src/cmd-*.c each define one (tmux's cmd.c lists its own). */
extern const struct cmd_entry cmd_abort_entry;
extern const struct cmd_entry cmd_check_entry;
extern const struct cmd_entry cmd_dirty_rate_entry;
extern const struct cmd_entry cmd_drain_entry;
extern const struct cmd_entry cmd_evict_entry;
extern const struct cmd_entry cmd_exporter_entry;
extern const struct cmd_entry cmd_guest_entry;
extern const struct cmd_entry cmd_help_entry;
extern const struct cmd_entry cmd_incoming_entry;
extern const struct cmd_entry cmd_migrate_entry;
extern const struct cmd_entry cmd_policy_entry;
extern const struct cmd_entry cmd_proxy_entry;
extern const struct cmd_entry cmd_qmp_entry;
extern const struct cmd_entry cmd_report_entry;
extern const struct cmd_entry cmd_stats_entry;
extern const struct cmd_entry cmd_status_entry;
extern const struct cmd_entry cmd_switchover_entry;
extern const struct cmd_entry cmd_update_entry;
extern const struct cmd_entry cmd_watch_entry;

/* Keep alphabetical: qmigrate --help prints them in this order. */
const struct cmd_entry *cmd_table[] = {
	&cmd_abort_entry,
	&cmd_check_entry,
	&cmd_dirty_rate_entry,
	&cmd_drain_entry,
	&cmd_exporter_entry,
	&cmd_evict_entry,
	&cmd_guest_entry,
	&cmd_help_entry,
	&cmd_incoming_entry,
	&cmd_migrate_entry,
	&cmd_policy_entry,
	&cmd_proxy_entry,
	&cmd_qmp_entry,
	&cmd_report_entry,
	&cmd_stats_entry,
	&cmd_status_entry,
	&cmd_switchover_entry,
	&cmd_update_entry,
	&cmd_watch_entry,
	NULL
};

/* The entry of cmd_table called name (borrowed), or NULL for none. */
const struct cmd_entry *
cmd_find(const char *name)
{
	const struct cmd_entry **c;

	for (c = cmd_table; *c != NULL; c++)
		if (strcmp((*c)->name, name) == 0)
			return *c;
	return NULL;
}

/*
 * Logs one line naming the command and the fault (as every line of the
 * command is: its prefix, or JSON with --log-json); returns exit status 1.
 */
int
cmd_usage_error(const struct cmd_entry *cmd, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	log_error("%s (see qmigrate %s --help)", msg, cmd->name);
	free(msg);
	return QM_EXIT_USAGE;
}

static int
wants_help(int argc, char **argv)
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

/*
 * qmigrate --help (and qmigrate help): the global options, every command's
 * usage line, then the exit statuses every command shares.
 */
void
cmd_print_overview(FILE *f)
{
	const struct cmd_entry **c;

	fprintf(f, "usage: qmigrate [--log-json] [-v | -q] COMMAND [ARGS]\n"
	    "       qmigrate --version | --help\n\n"
	    "Live migration of QEMU guests over QMP.\n\n"
	    "options:\n"
	    "  --log-json            log lines on stderr as JSON objects\n"
	    "  -v, --verbose         debug logging (QMP errors in full)\n"
	    "  -q, --quiet           warnings and errors only\n"
	    "  --version             the version\n"
	    "  --help                this text\n\n"
	    "commands:\n");
	for (c = cmd_table; *c != NULL; c++)
		cmd_print_usage(f, *c);
	fprintf(f, "\nqmigrate help COMMAND (or COMMAND --help) describes each "
	    "command.\n\n"
	    "Exit status: 0 done, 1 usage or configuration (nothing touched), 2\n"
	    "not live-migratable, 3 control plane, 4 data plane (the guest still\n"
	    "on the source), 5 aborted (the guest still on the source), 6\n"
	    "post-copy failed and not recovered, 7 handed to an external\n"
	    "controller, 8 not known (run the same command again with the same\n"
	    "--status-file); each command's --help says which it uses.\n");
}

/* "  qmigrate NAME USAGE" lines of cmd (each subcommand's, if any). */
void
cmd_print_usage(FILE *f, const struct cmd_entry *cmd)
{
	const struct cmd_entry *const	*sub;
	char				*usage;

	if (cmd->subs != NULL) {
		for (sub = cmd->subs; *sub != NULL; sub++)
			cmd_print_usage(f, *sub);
		return;
	}
	usage = args_usage(&cmd->args, 0);
	fprintf(f, "  %-15s %s\n", cmd->name, usage);
	free(usage);
}

/*
 * Prints a usage line after the command's name (the cursor at column at),
 * wrapped before column 80 between its words, an option and its value
 * kept together.
 */
static void
print_usage_line(const char *usage, int at)
{
	const char	*p = usage, *end;
	int		 len, indent = at > 40 ? 8 : at + 1;

	while (*p != '\0') {
		/*
		 * A word: "[...]" whole, or an option with the VALUE after
		 * it, so neither is cut in two.
		 */
		end = p;
		if (*p == '[' && strchr(p, ']') != NULL)
			end = strchr(p, ']');
		for (; *end != '\0' && *end != ' '; end++)
			;
		if (strncmp(p, "--", 2) == 0 && end[0] == ' ' &&
		    end[1] != '-' && end[1] != '[' && end[1] != '|')
			for (end++; *end != '\0' && *end != ' '; end++)
				;
		len = (int)(end - p);
		if (at + 1 + len > 79) {
			printf("\n%*s", indent - 1, "");
			at = indent - 1;
		}
		printf(" %.*s", len, p);
		at += len + 1;
		p = *end == ' ' ? end + 1 : end;
	}
	printf("\n");
}

/* COMMAND --help: usage, what it does, its options, the footer, exits. */
void
cmd_print_help(const struct cmd_entry *cmd)
{
	const struct cmd_entry *const	*sub;
	char				*usage;

	if (cmd->subs != NULL) {
		for (sub = cmd->subs; *sub != NULL; sub++) {
			cmd_print_help(*sub);
			if (sub[1] != NULL)
				printf("\n");
		}
		return;
	}
	usage = args_usage(&cmd->args, 1);
	printf("usage: qmigrate %s", cmd->name);
	print_usage_line(usage, 16 + (int)strlen(cmd->name));
	printf("\n%s", cmd->help);
	free(usage);
	if (cmd->args.options != NULL && cmd->args.options[0].name != NULL) {
		printf("\noptions:\n");
		args_print_options(stdout, &cmd->args);
	}
	if (cmd->footer != NULL)
		printf("\n%s", cmd->footer);
	/* Last, where a script's author looks first (tests/lint/options.sh). */
	if (cmd->exits != NULL)
		printf("\n%s", cmd->exits);
}

/*
 * Runs cmd on argv (argv[0] its name): --help, or its options parsed by
 * its table and handed to its exec; a command with subcommands passes on
 * to the one argv[1] names.  Returns the exit status.
 */
int
cmd_run(const struct cmd_entry *cmd, int argc, char **argv)
{
	const struct cmd_entry *const	*sub;
	struct args			*args;
	char				*cause = NULL, *names = NULL, *joined;
	size_t				 n;
	int				 rc;

	log_set_command(cmd->name);
	if (cmd->subs != NULL) {
		n = strlen(cmd->name);
		for (sub = cmd->subs; argc > 1 && *sub != NULL; sub++)
			if (strcmp((*sub)->name + n + 1, argv[1]) == 0)
				return cmd_run(*sub, argc - 1, argv + 1);
		if (argc > 1 && (strcmp(argv[1], "--help") == 0 ||
		    strcmp(argv[1], "-h") == 0)) {
			cmd_print_help(cmd);
			return QM_EXIT_OK;
		}
		for (sub = cmd->subs; *sub != NULL; sub++) {
			xasprintf(&joined, "%s%s%s", names != NULL ? names : "",
			    names == NULL ? "" : sub[1] == NULL ? " or " : ", ",
			    (*sub)->name + n + 1);
			free(names);
			names = joined;
		}
		if (argc > 1)
			rc = cmd_usage_error(cmd, "unknown subcommand \"%s\": "
			    "expected %s", argv[1], names);
		else
			rc = cmd_usage_error(cmd, "%s is required", names);
		free(names);
		return rc;
	}
	if (wants_help(argc, argv)) {
		cmd_print_help(cmd);
		return QM_EXIT_OK;
	}
	if ((args = args_parse(&cmd->args, argc, argv, &cause)) == NULL) {
		rc = cmd_usage_error(cmd, "%s", cause);
		free(cause);
		return rc;
	}
	rc = cmd->exec(args);
	args_free(args);
	return rc;
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
	a->fatal = qmp_error_unanswered(error_class);
	a->error = xstrdup(error);
}

/*
 * migrate (source) and incoming: the options read into a mig_options,
 * then the engine's side runs.  Returns the exit status; a bad option is
 * a usage error of cmd.
 */
int
cmd_migrate_side(const struct cmd_entry *cmd, struct args *args, int source)
{
	struct mig_options	 o;
	char			*cause = NULL;
	int			 rc;

	if (mig_options_from_args(args, &o, source, &cause) != 0) {
		rc = cmd_usage_error(cmd, "%s", cause);
		free(cause);
		return rc;
	}
	rc = source ? mig_source_run(&o) : mig_target_run(&o);
	mig_options_free(&o);
	return rc;
}
