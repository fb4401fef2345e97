/*
 * cmd-stats.c: qmigrate stats: one JSON document joining QEMU's view of a
 * VM and its guest agent's, so an operator sees which layer answers:
 *
 *	{ "qemu":  { "source": "qmp", "available": true,
 *		     "status": ..., "cpus": ..., "memory": ..., "balloon": ...,
 *		     "blockstats": ..., "migration": ... },
 *	  "guest": { "source": "guest-agent", "available": true,
 *		     "osinfo": ..., "hostname": ..., "interfaces": ...,
 *		     "filesystems": ... } }
 *
 * A layer that does not answer is {"source", "available": false,
 * "reason"}; a part its layer refuses (no balloon device, a disabled agent
 * command) is {"available": false, "reason"}.  Each layer has its own
 * deadline (--timeout), so a hung QEMU or agent costs at most that.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "qmp.h"

struct stats_part {
	const char	*name;
	const char	*command;
};

static const struct stats_part qemu_parts[] = {
	{ "status", "query-status" },
	{ "cpus", "query-cpus-fast" },
	{ "memory", "query-memory-size-summary" },
	{ "balloon", "query-balloon" },
	{ "blockstats", "query-blockstats" },
	{ "migration", "query-migrate" },
};

static const struct stats_part guest_parts[] = {
	{ "osinfo", "guest-get-osinfo" },
	{ "hostname", "guest-get-host-name" },
	{ "interfaces", "guest-network-get-interfaces" },
	{ "filesystems", "guest-get-fsinfo" },
};

#define STATS_DEFAULT_TIMEOUT 5.0

static json_object *
unavailable(const char *source, const char *reason)
{
	json_object *o = json_object_new_object();

	if (source != NULL)
		json_object_object_add(o, "source",
		    json_object_new_string(source));
	json_object_object_add(o, "available", json_object_new_boolean(0));
	json_object_object_add(o, "reason", json_object_new_string(reason));
	return o;
}

/*
 * Asks one layer (monitor or agent at path) for parts, all within timeout
 * seconds from the connect on.  Returns the layer's object; *ok says
 * whether the layer answered at all.
 */
static json_object *
stats_layer(struct ev_loop *loop, const char *path, enum qmp_proto proto,
    const struct stats_part *parts, size_t nparts, double timeout, int *ok)
{
	const char		*source = proto == QMP_PROTO_MONITOR ? "qmp" :
				    "guest-agent";
	struct cmd_answer	 a;
	struct qmp_conn		*conn;
	json_object		*layer;
	double			 deadline = ev_time() + timeout, left;
	char			*cause = NULL, *msg;
	size_t			 i;

	*ok = 0;
	conn = qmp_connect(loop, path, proto, timeout, &cause);
	if (conn == NULL) {
		layer = unavailable(source, cause);
		free(cause);
		return layer;
	}
	layer = json_object_new_object();
	json_object_object_add(layer, "source",
	    json_object_new_string(source));
	json_object_object_add(layer, "available",
	    json_object_new_boolean(1));
	for (i = 0; i < nparts; i++) {
		memset(&a, 0, sizeof a);
		left = deadline - ev_time();
		if (left < 0.001)
			left = 0.001;
		if (qmp_send(conn, parts[i].command, NULL, left,
		    cmd_answer_cb, &a, &cause) != 0) {
			a.fatal = 1;
			a.error = cause;
			cause = NULL;
		} else	/* the command's own timer bounds this */
			(void)qmp_run_until(conn, &a.done, 0, NULL);
		if (a.reply != NULL) {
			json_object_object_add(layer, parts[i].name, a.reply);
			continue;
		}
		xasprintf(&msg, "%s: %s", parts[i].command, a.error);
		free(a.error);
		if (a.fatal) {
			/* The layer stopped answering: say so once. */
			json_object_put(layer);
			layer = unavailable(source, msg);
			free(msg);
			qmp_close(conn);
			return layer;
		}
		json_object_object_add(layer, parts[i].name,
		    unavailable(NULL, msg));
		free(msg);
	}
	qmp_close(conn);
	*ok = 1;
	return layer;
}

static int
cmd_stats_exec(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "qmp", required_argument, NULL, 'q' },
		{ "qga", required_argument, NULL, 'g' },
		{ "timeout", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 }
	};
	const char	*qmp_path = NULL, *qga_path = NULL;
	double		 timeout = STATS_DEFAULT_TIMEOUT;
	struct ev_loop	*loop;
	json_object	*doc;
	int		 ch, qemu_ok, guest_ok;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (ch) {
		case 'q':
			qmp_path = optarg;
			break;
		case 'g':
			qga_path = optarg;
			break;
		case 't':
			if (parse_seconds(optarg, &timeout) != 0 ||
			    timeout == 0)
				return cmd_usage_error(&cmd_stats_entry,
				    "--timeout: expected seconds, got \"%s\"",
				    optarg);
			break;
		default:
			return cmd_usage_error(&cmd_stats_entry,
			    "unknown option %s", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cmd_usage_error(&cmd_stats_entry,
		    "unexpected argument \"%s\"", argv[optind]);
	if (qmp_path == NULL)
		return cmd_usage_error(&cmd_stats_entry,
		    "--qmp PATH is required");

	loop = ev_loop_new(EVFLAG_AUTO);
	doc = json_object_new_object();
	json_object_object_add(doc, "qemu", stats_layer(loop, qmp_path,
	    QMP_PROTO_MONITOR, qemu_parts, NITEMS(qemu_parts), timeout,
	    &qemu_ok));
	if (qga_path != NULL)
		json_object_object_add(doc, "guest", stats_layer(loop,
		    qga_path, QMP_PROTO_AGENT, guest_parts, NITEMS(guest_parts),
		    timeout, &guest_ok));
	else
		json_object_object_add(doc, "guest", unavailable(
		    "guest-agent", "no --qga socket given"));
	printf("%s\n", json_object_to_json_string_ext(doc,
	    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
	    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(doc);
	ev_loop_destroy(loop);
	return qemu_ok ? QM_EXIT_OK : QM_EXIT_CONTROL;
}

const struct cmd_entry cmd_stats_entry = {
	"stats",
	"--qmp PATH [--qga PATH] [--timeout S]",
	"Prints one JSON document joining QEMU's view of the VM (\"qemu\":\n"
	"run state, vCPUs, memory, balloon, block statistics, migration; from\n"
	"the monitor at --qmp) and the guest's (\"guest\": OS, hostname,\n"
	"interfaces, file systems; from the agent at --qga).  Each layer says\n"
	"its \"source\" (qmp or guest-agent); a layer or part that does not\n"
	"answer is {\"available\": false, \"reason\": \"...\"}.  Each layer has\n"
	"--timeout seconds (default 5).\n"
	"\n"
	"Exit status: 0 when QEMU answered (whatever the agent did), 1 usage,\n"
	"3 when QEMU's monitor did not answer (the document is still printed).\n",
	cmd_stats_exec,
};
