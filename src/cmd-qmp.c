/*
 * cmd-qmp.c: qmigrate qmp --qmp PATH COMMAND [JSON-ARGS]: one QMP command,
 * its reply printed as JSON.  An operator's debugging tool.  With
 * --wait-event NAME it prints instead the first NAME event that follows
 * the command (subscribed before sending, so an event QEMU emits before
 * its reply is not missed) as one JSON line.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "qmp.h"

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
cmd_qmp_exec(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "qmp", required_argument, NULL, 'q' },
		{ "qga", required_argument, NULL, 'g' },
		{ "timeout", required_argument, NULL, 't' },
		{ "wait-event", required_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 }
	};
	const char		*path = NULL, *wait_event = NULL;
	struct cmd_qmp_event	 ev = { 0, NULL };
	enum qmp_proto		 proto = QMP_PROTO_MONITOR;
	double			 timeout = 10;
	struct json_object	*args = NULL, *reply = NULL;
	struct qmp_conn		*conn;
	struct ev_loop		*loop;
	char			*cause = NULL;
	int			 ch, rc;

	while ((ch = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (ch) {
		case 'q':
		case 'g':
			path = optarg;
			proto = ch == 'q' ? QMP_PROTO_MONITOR : QMP_PROTO_AGENT;
			break;
		case 'e':
			wait_event = optarg;
			break;
		case 't':
			if (parse_seconds(optarg, &timeout) != 0 || timeout == 0)
				return cmd_usage_error(&cmd_qmp_entry,
				    "--timeout: expected seconds, got \"%s\"",
				    optarg);
			break;
		default:
			return cmd_usage_error(&cmd_qmp_entry,
			    "unknown option %s", argv[optind - 1]);
		}
	}
	if (path == NULL)
		return cmd_usage_error(&cmd_qmp_entry,
		    "--qmp PATH or --qga PATH is required");
	if (optind >= argc)
		return cmd_usage_error(&cmd_qmp_entry, "COMMAND is required");
	if (argc - optind > 2)
		return cmd_usage_error(&cmd_qmp_entry,
		    "unexpected argument \"%s\"", argv[optind + 2]);
	if (optind + 1 < argc) {
		enum json_tokener_error jerr;

		args = json_tokener_parse_verbose(argv[optind + 1], &jerr);
		if (args == NULL ||
		    !json_object_is_type(args, json_type_object)) {
			json_object_put(args);
			return cmd_usage_error(&cmd_qmp_entry,
			    "JSON-ARGS: expected a JSON object, got \"%s\"",
			    argv[optind + 1]);
		}
	}

	loop = ev_loop_new(EVFLAG_AUTO);
	conn = qmp_connect(loop, path, proto, timeout, &cause);
	if (conn == NULL) {
		fprintf(stderr, "qmigrate qmp: %s\n", cause);
		free(cause);
		json_object_put(args);
		ev_loop_destroy(loop);
		return QM_EXIT_CONTROL;
	}
	if (wait_event != NULL)
		qmp_subscribe(conn, wait_event, cmd_qmp_event_cb, &ev);
	if (proto == QMP_PROTO_AGENT &&
	    strcmp(argv[optind], "guest-shutdown") == 0) {
		/* Success is silence: qga_shutdown knows. */
		reply = cmd_qmp_shutdown(conn, args, timeout, &cause);
		args = NULL;
	} else if (qmp_call(conn, argv[optind], args, &reply, timeout,
	    &cause) != 0)
		reply = NULL;
	if (reply == NULL) {
		fprintf(stderr, "qmigrate qmp: %s: %s\n", path, cause);
		free(cause);
		rc = QM_EXIT_CONTROL;
	} else if (wait_event != NULL) {
		json_object_put(reply);
		if (qmp_run_until(conn, &ev.seen, timeout, &cause) != 0) {
			if (qmp_is_closed(conn))
				fprintf(stderr, "qmigrate qmp: %s: waiting for "
				    "%s: %s\n", path, wait_event, cause);
			else
				fprintf(stderr, "qmigrate qmp: %s: no %s event "
				    "within %g s after %s\n", path, wait_event,
				    timeout, argv[optind]);
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

const struct cmd_entry cmd_qmp_entry = {
	"qmp",
	"--qmp PATH | --qga PATH [--timeout S] [--wait-event NAME] COMMAND "
	    "[JSON-ARGS]",
	"Runs one command on QEMU's QMP monitor (--qmp) or on the guest agent\n"
	"(--qga) and prints the reply as JSON.  With --wait-event NAME, waits\n"
	"up to --timeout seconds after the reply for the event NAME and prints\n"
	"it instead, as one line: {\"event\": NAME, \"data\": {...},\n"
	"\"timestamp\": SECONDS.MICROSECONDS}.  Exits 3 when the peer cannot be\n"
	"reached, answers with an error, or the event does not come.\n",
	cmd_qmp_exec,
};
