/*
 * cmd-guest.c: qmigrate guest --qga PATH [--timeout S] [PART...]: what the
 * guest agent knows about the guest, as one JSON document
 * {"infoSource": "guest-agent", PART: DATA, ...}.  A part whose command
 * the agent refuses (disabled, unsupported, failed) is {"error": "..."};
 * an agent that is absent or stops answering is a one-line error, exit 3,
 * within --timeout seconds (the whole run, not each command).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "qmp.h"

extern const struct cmd_entry cmd_guest_entry;

struct guest_part {
	const char	*name;
	const char	*command;
};

/* In the order of the output document. */
static const struct guest_part guest_parts[] = {
	{ "ping", "guest-ping" },
	{ "info", "guest-info" },
	{ "osinfo", "guest-get-osinfo" },
	{ "hostname", "guest-get-host-name" },
	{ "users", "guest-get-users" },
	{ "fs", "guest-get-fsinfo" },
	{ "net", "guest-network-get-interfaces" },
};
#define GUEST_NPARTS (sizeof guest_parts / sizeof guest_parts[0])

#define GUEST_DEFAULT_TIMEOUT 5.0

/* One command's outcome. */
static int
cmd_guest_exec(struct args *args)
{
	const char		*path = args_get(args, "qga");
	double			 timeout, deadline, left;
	int			 want[GUEST_NPARTS];
	struct json_object	*doc, *part;
	struct cmd_answer	 a;
	struct qmp_conn		*conn;
	struct ev_loop		*loop;
	char			*cause = NULL;
	int			 i, j, any = 0, rc = QM_EXIT_OK;

	memset(want, 0, sizeof want);
	timeout = args_number(args, "timeout", GUEST_DEFAULT_TIMEOUT);
	for (i = 0; i < args_count(args); i++) {
		if (strcmp(args_string(args, i), "all") == 0) {
			for (j = 0; j < (int)GUEST_NPARTS; j++)
				want[j] = 1;
			any = 1;
			continue;
		}
		for (j = 0; j < (int)GUEST_NPARTS; j++)
			if (strcmp(args_string(args, i), guest_parts[j].name) == 0)
				break;
		if (j == (int)GUEST_NPARTS)
			return cmd_usage_error(&cmd_guest_entry,
			    "unknown part \"%s\" (expected ping, info, osinfo, "
			    "users, fs, net, hostname or all)", args_string(args, i));
		want[j] = any = 1;
	}
	if (!any)
		for (j = 0; j < (int)GUEST_NPARTS; j++)
			want[j] = 1;

	loop = ev_loop_new(EVFLAG_AUTO);
	deadline = ev_time() + timeout;
	conn = qmp_connect(loop, path, QMP_PROTO_AGENT, timeout, &cause);
	if (conn == NULL) {
		log_error("%s", cause);
		free(cause);
		ev_loop_destroy(loop);
		return QM_EXIT_CONTROL;
	}

	doc = json_object_new_object();
	json_object_object_add(doc, "infoSource",
	    json_object_new_string("guest-agent"));
	for (j = 0; j < (int)GUEST_NPARTS; j++) {
		if (!want[j])
			continue;
		left = deadline - ev_time();
		if (left < 0.001)
			left = 0.001;
		memset(&a, 0, sizeof a);
		if (qmp_send(conn, guest_parts[j].command, NULL, left,
		    cmd_answer_cb, &a, &cause) != 0) {
			a.fatal = 1;
			a.error = cause;
		} else	/* the command's own timer bounds this */
			(void)qmp_run_until(conn, &a.done, 0, NULL);
		if (a.reply != NULL) {
			json_object_object_add(doc, guest_parts[j].name,
			    a.reply);
			continue;
		}
		/* A silent or vanished agent is not one part's failure. */
		if (a.fatal) {
			log_error("%s: %s: %s", path,
			    guest_parts[j].command, a.error);
			free(a.error);
			rc = QM_EXIT_CONTROL;
			break;
		}
		part = json_object_new_object();
		json_object_object_add(part, "error",
		    json_object_new_string(a.error));
		json_object_object_add(doc, guest_parts[j].name, part);
		free(a.error);
	}
	if (rc == QM_EXIT_OK)
		printf("%s\n", json_object_to_json_string_ext(doc,
		    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(doc);
	qmp_close(conn);
	ev_loop_destroy(loop);
	return rc;
}

static const struct args_option guest_options[] = {
	{ .name = "qga", .type = ARGS_STRING, .value = "PATH",
	    .flags = ARGS_REQUIRED,
	    .help = "the guest agent's socket (qemu-ga's)" },
	{ .name = "timeout", .type = ARGS_SECONDS, .value = "S", .min = 0.001,
	    .help = "for the whole run (5)" },
	{ .name = NULL }
};

const struct cmd_entry cmd_guest_entry = {
	.name = "guest",
	.args = { .options = guest_options, .upper = -1,
	    .arguments = "[ping|info|osinfo|users|fs|net|hostname|all]..." },
	.help =
	"Asks the guest agent on PATH (qemu-ga's socket) about the guest and\n"
	"prints one JSON document: \"infoSource\": \"guest-agent\" and one key\n"
	"per part (default all) holding the agent's answer, or {\"error\":\n"
	"\"...\"} when the agent refused that command.\n",
	.exits =
	"Exit status: 0 the agent answered (a part it refused says so), 1 usage,\n"
	"3 the agent absent or silent for --timeout seconds.\n",
	.exec = cmd_guest_exec,
};
