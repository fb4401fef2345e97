/*
 * cmd-qmp.c: qmigrate qmp --qmp PATH COMMAND [JSON-ARGS]: one QMP command,
 * its reply printed as JSON.  An operator's debugging tool.  With
 * --wait-event NAME it prints instead the first NAME event that follows
 * the command (subscribed before sending, so an event QEMU emits before
 * its reply is not missed) as one JSON line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "qmp.h"

extern const struct cmd_entry cmd_qmp_entry;

struct cmd_qmp_event {
	int			 seen;
	struct json_object	*line;	/* {"event", "data", "timestamp"} */
};

static void
cmd_qmp_event_cb(struct qmp_conn *conn, const char *name,
    struct json_object *data, double timestamp, void *arg)
{
	struct cmd_qmp_event	*ev = arg;
	char			 ts[64];

	if (ev->seen++)
		return;
	snprintf(ts, sizeof ts, "%.6f", timestamp);
	ev->line = json_object_new_object();
	json_object_object_add(ev->line, "event",
	    json_object_new_string(name));
	json_object_object_add(ev->line, "data", data != NULL ?
	    json_object_get(data) : json_object_new_object());
	json_object_object_add(ev->line, "timestamp",
	    json_object_new_double_s(timestamp, ts));
}

/* guest-shutdown with args' mode; returns {} or NULL with *cause set. */
static struct json_object *
cmd_qmp_shutdown(struct qmp_conn *conn, struct json_object *args,
    double timeout, char **cause)
{
	struct json_object	*mode = NULL;
	int			 rc;

	if (args != NULL)
		(void)json_object_object_get_ex(args, "mode", &mode);
	rc = qga_shutdown(conn, mode != NULL ? json_object_get_string(mode) :
	    NULL, timeout, cause);
	json_object_put(args);
	return rc == 0 ? json_object_new_object() : NULL;
}

static int
cmd_qmp_exec(struct args *args)
{
	const char		*path, *wait_event, *command;
	struct cmd_qmp_event	 ev = { 0, NULL };
	enum qmp_proto		 proto = QMP_PROTO_MONITOR;
	double			 timeout = args_number(args, "timeout", 10);
	struct json_object	*cargs = NULL, *reply = NULL;
	struct qmp_conn		*conn;
	struct ev_loop		*loop;
	char			*cause = NULL;
	int			 rc;

	wait_event = args_get(args, "wait-event");
	if (args_has(args, "qmp") == args_has(args, "qga"))
		return cmd_usage_error(&cmd_qmp_entry,
		    "give --qmp PATH or --qga PATH");
	if ((path = args_get(args, "qmp")) == NULL) {
		path = args_get(args, "qga");
		proto = QMP_PROTO_AGENT;
	}
	command = args_string(args, 0);
	if (args_count(args) == 2) {
		enum json_tokener_error jerr;

		cargs = json_tokener_parse_verbose(args_string(args, 1), &jerr);
		if (cargs == NULL ||
		    !json_object_is_type(cargs, json_type_object)) {
			json_object_put(cargs);
			return cmd_usage_error(&cmd_qmp_entry,
			    "JSON-ARGS: expected a JSON object, got \"%s\"",
			    args_string(args, 1));
		}
	}

	loop = ev_loop_new(EVFLAG_AUTO);
	conn = qmp_connect(loop, path, proto, timeout, &cause);
	if (conn == NULL) {
		log_error("%s", cause);
		free(cause);
		json_object_put(cargs);
		ev_loop_destroy(loop);
		return QM_EXIT_CONTROL;
	}
	if (wait_event != NULL)
		qmp_subscribe(conn, wait_event, cmd_qmp_event_cb, &ev);
	if (proto == QMP_PROTO_AGENT &&
	    strcmp(command, "guest-shutdown") == 0) {
		/* Success is silence: qga_shutdown knows. */
		reply = cmd_qmp_shutdown(conn, cargs, timeout, &cause);
		cargs = NULL;
	} else if (qmp_call(conn, command, cargs, &reply, timeout,
	    &cause) != 0)
		reply = NULL;
	if (reply == NULL) {
		log_error("%s: %s", path, cause);
		free(cause);
		rc = QM_EXIT_CONTROL;
	} else if (wait_event != NULL) {
		json_object_put(reply);
		if (qmp_run_until(conn, &ev.seen, timeout, &cause) != 0) {
			if (qmp_is_closed(conn))
				log_error("%s: waiting for "
				    "%s: %s", path, wait_event, cause);
			else
				log_error("%s: no %s event "
				    "within %g s after %s", path, wait_event,
				    timeout, command);
			free(cause);
			rc = QM_EXIT_CONTROL;
		} else {
			printf("%s\n", json_object_to_json_string_ext(ev.line,
			    JSON_C_TO_STRING_PLAIN |
			    JSON_C_TO_STRING_NOSLASHESCAPE));
			rc = QM_EXIT_OK;
		}
	} else {
		printf("%s\n", json_object_to_json_string_ext(reply,
		    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		    JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(reply);
		rc = QM_EXIT_OK;
	}
	json_object_put(ev.line);
	qmp_close(conn);
	ev_loop_destroy(loop);
	return rc;
}

static const struct args_option qmp_options[] = {
	{ .name = "qmp", .type = ARGS_STRING, .value = "PATH",
	    .help = "QEMU's monitor socket" },
	{ .name = "qga", .type = ARGS_STRING, .value = "PATH",
	    .help = "or the guest agent's socket" },
	{ .name = "timeout", .type = ARGS_SECONDS, .value = "S", .min = 0.001,
	    .help = "for the reply, and for the event after it (10)" },
	{ .name = "wait-event", .type = ARGS_STRING, .value = "NAME",
	    .help = "print the event NAME that follows the reply instead" },
	{ .name = NULL }
};

const struct cmd_entry cmd_qmp_entry = {
	.name = "qmp",
	.args = { .options = qmp_options, .lower = 1, .upper = 2,
	    .arguments = "COMMAND [JSON-ARGS]",
	    .usage =
	    "--qmp PATH | --qga PATH [--timeout S] [--wait-event NAME] COMMAND "
	    "[JSON-ARGS]" },
	.help =
	"Runs one command on QEMU's QMP monitor (--qmp) or on the guest agent\n"
	"(--qga) and prints the reply as JSON.  With --wait-event NAME, waits\n"
	"up to --timeout seconds after the reply for the event NAME and prints\n"
	"it instead, as one line: {\"event\": NAME, \"data\": {...},\n"
	"\"timestamp\": SECONDS.MICROSECONDS}.\n",
	.exits =
	"Exit status: 0 answered, 1 usage, 3 the peer cannot be reached,\n"
	"answers with an error, or the event does not come.\n",
	.exec = cmd_qmp_exec,
};
