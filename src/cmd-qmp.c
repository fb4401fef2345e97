/*
 * cmd-qmp.c: qmigrate qmp --qmp PATH COMMAND [JSON-ARGS]: one QMP command,
 * its reply printed as JSON.  An operator's debugging tool.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "qmp.h"

static int
cmd_qmp_exec(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "qmp", required_argument, NULL, 'q' },
		{ "qga", required_argument, NULL, 'g' },
		{ "timeout", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 }
	};
	const char		*path = NULL;
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
	if (qmp_call(conn, argv[optind], args, &reply, timeout, &cause) != 0) {
		fprintf(stderr, "qmigrate qmp: %s: %s\n", path, cause);
		free(cause);
		rc = QM_EXIT_CONTROL;
	} else {
		printf("%s\n", json_object_to_json_string_ext(reply,
		    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		    JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(reply);
		rc = QM_EXIT_OK;
	}
	qmp_close(conn);
	ev_loop_destroy(loop);
	return rc;
}

const struct cmd_entry cmd_qmp_entry = {
	"qmp",
	"--qmp PATH | --qga PATH [--timeout S] COMMAND [JSON-ARGS]",
	"Runs one command on QEMU's QMP monitor (--qmp) or on the guest agent\n"
	"(--qga) and prints the reply as JSON.  Exits 3 when the peer cannot be\n"
	"reached or answers with an error.\n",
	cmd_qmp_exec,
};
