/*
 * cmd-abort.c: qmigrate abort --status-file F: asks the qmigrate that owns
 * a migration to abort it (SIGTERM to the pid its status file names), and
 * waits for the answer in the same file.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "qmigrate.h"

static int
cmd_abort_exec(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "status-file", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 }
	};
	const char	*file = NULL, *phase, *abort_status;
	double		 timeout = 40, deadline;
	json_object	*doc, *v;
	char		*cause = NULL;
	int		 ch, pid;
	struct timespec	 tick = { 0, 100 * 1000 * 1000 };

	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (ch) {
		case 's':
			file = optarg;
			break;
		case 't':
			if (parse_seconds(optarg, &timeout) != 0)
				return cmd_usage_error(&cmd_abort_entry,
				    "--timeout: expected seconds, got \"%s\"",
				    optarg);
			break;
		default:
			return cmd_usage_error(&cmd_abort_entry,
			    "unknown option %s", argv[optind - 1]);
		}
	}
	if (file == NULL)
		return cmd_usage_error(&cmd_abort_entry,
		    "--status-file FILE is required");

	doc = status_read_file(file, &cause);
	if (doc == NULL)
		goto fail;
	phase = json_str_at(doc, "phase");
	if (phase != NULL && (strcmp(phase, "Succeeded") == 0 ||
	    strcmp(phase, "Failed") == 0)) {
		xasprintf(&cause, "status file %s: the migration already "
		    "ended (%s)", file, phase);
		json_object_put(doc);
		goto fail;
	}
	pid = json_object_object_get_ex(doc, "pid", &v) ?
	    json_object_get_int(v) : 0;
	json_object_put(doc);
	if (pid <= 1 || kill(pid, SIGTERM) != 0) {
		xasprintf(&cause, "status file %s: its qmigrate (pid %d) is "
		    "not running", file, pid);
		goto fail;
	}

	deadline = now_monotonic() + timeout;
	while (now_monotonic() < deadline) {
		nanosleep(&tick, NULL);	/* polls a file: no event to wait on */
		doc = status_read_file(file, &cause);
		if (doc == NULL) {
			free(cause);
			cause = NULL;
			continue;
		}
		abort_status = json_str_at(doc, "abortStatus");
		if (abort_status != NULL && (strcmp(abort_status,
		    "Succeeded") == 0 || strcmp(abort_status, "Failed") == 0)) {
			printf("abortStatus: %s\n", abort_status);
			ch = strcmp(abort_status, "Succeeded") == 0 ?
			    QM_EXIT_OK : QM_EXIT_ABORTED;
			json_object_put(doc);
			return ch;
		}
		json_object_put(doc);
	}
	xasprintf(&cause, "status file %s: no abort status within %.0f s",
	    file, timeout);
fail:
	fprintf(stderr, "qmigrate abort: %s\n", cause);
	free(cause);
	return QM_EXIT_CONTROL;
}

const struct cmd_entry cmd_abort_entry = {
	"abort",
	"--status-file FILE [--timeout S]",
	"Aborts the migration whose status document is FILE: signals the\n"
	"qmigrate that writes it and waits for abortStatus.  Exits 0 when the\n"
	"abort succeeded (the guest runs on the source), 5 when it was refused\n"
	"(post-copy had started), 3 when nothing answered.\n",
	cmd_abort_exec,
};
