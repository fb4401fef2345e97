/*
 * cmd-abort.c: qmigrate abort --status-file F: asks the qmigrate that owns
 * a migration to abort it (SIGTERM to the pid its status file names), and
 * waits for the answer in the same file.  The pid is only a hint: after a
 * crash it may belong to any process, so the process is checked first
 * (status-writer.c) and signalled through a pidfd, which cannot reach a
 * process that took the pid since.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "qmigrate.h"

/* The abort's answer, abortStatus Succeeded (0) or Failed (5), printed. */
static int
abort_answered(json_object *doc, void *arg, int *exit_code)
{
	const char	*abort_status = json_str_at(doc, "abortStatus");

	(void)arg;
	if (abort_status == NULL || (strcmp(abort_status, "Succeeded") != 0 &&
	    strcmp(abort_status, "Failed") != 0))
		return 0;
	printf("abortStatus: %s\n", abort_status);
	*exit_code = strcmp(abort_status, "Succeeded") == 0 ? QM_EXIT_OK :
	    QM_EXIT_ABORTED;
	return 1;
}

static int
cmd_abort_exec(struct args *args)
{
	const char	*file = args_get(args, "status-file"), *phase;
	double		 timeout = args_number(args, "timeout", 40);
	json_object	*doc;
	char		*cause = NULL;
	int		 ch, pidfd;

	doc = status_read_file(file, &cause);
	if (doc == NULL)
		goto fail;
	phase = json_str_at(doc, "phase");
	if (phase != NULL && (strcmp(phase, "Succeeded") == 0 ||
	    strcmp(phase, "Failed") == 0 || strcmp(phase, "HandedOver") == 0)) {
		xasprintf(&cause, "status file %s: the migration already "
		    "ended (%s)", file, phase);
		json_object_put(doc);
		goto fail;
	}
	pidfd = status_writer_open(doc, file, &cause);
	json_object_put(doc);
	if (pidfd == -1)
		goto fail;
	if (status_writer_signal(pidfd, file, SIGTERM, &cause) == -1)
		goto fail;
	if (status_writer_wait(file, timeout, abort_answered, NULL, &ch))
		return ch;
	xasprintf(&cause, "status file %s: no abort status within %.0f s",
	    file, timeout);
fail:
	log_error("%s", cause);
	free(cause);
	return QM_EXIT_CONTROL;
}

static const struct args_option abort_options[] = {
	{ .name = "status-file", .type = ARGS_STRING, .value = "FILE",
	    .flags = ARGS_REQUIRED,
	    .help = "the status document of the migration" },
	{ .name = "timeout", .type = ARGS_SECONDS, .value = "S",
	    .help = "how long to wait for abortStatus (40)" },
	{ .name = NULL }
};

const struct cmd_entry cmd_abort_entry = {
	.name = "abort",
	.args = { .options = abort_options },
	.help =
	"Aborts the migration whose status document is FILE: signals the\n"
	"qmigrate that writes it and waits for abortStatus.  The pid FILE names\n"
	"is signalled only if it is still that qmigrate (the start time FILE\n"
	"records, a command line naming FILE): after a crash the pid may belong\n"
	"to another process.\n",
	.exits =
	"Exit status: 0 when the abort succeeded (the guest runs on the\n"
	"source), 5 when it was refused (post-copy had started), 3 when no\n"
	"qmigrate drives the migration or nothing answered.\n",
	.exec = cmd_abort_exec,
};
