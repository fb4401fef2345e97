/*
 * cmd-stats.c: qmigrate stats: one JSON document about a VM, every value
 * with its source (exporter-json.c).  It runs the exporter's collector
 * once (exporter-collect.c), so stats and the metrics always agree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "observe.h"

#define STATS_DEFAULT_TIMEOUT 5.0

static void
settled_cb(struct vm_collector *c, void *arg)
{
	ev_break(arg, EVBREAK_ALL);
}

static void
deadline_cb(struct ev_loop *loop, ev_timer *t, int revents)
{
	ev_break(loop, EVBREAK_ALL);
}

static int
cmd_stats_exec(struct args *args)
{
	struct exporter_vm_spec		 spec;
	struct vm_collector		*c;
	const struct vm_snapshot	*s;
	struct ev_loop			*loop;
	ev_timer			 deadline;
	json_object			*doc;
	double				 timeout;
	int				 rc;

	memset(&spec, 0, sizeof spec);
	spec.name = "vm";
	/* Borrowed from argv: spec is never freed. */
	spec.qmp = (char *)args_get(args, "qmp");
	spec.qga = (char *)args_get(args, "qga");
	spec.status = (char *)args_get(args, "status-file");
	timeout = args_number(args, "timeout", STATS_DEFAULT_TIMEOUT);

	loop = ev_loop_new(EVFLAG_AUTO);
	srandom((unsigned)getpid() ^ (unsigned)ev_time());
	/* The monitor's handshake and its round, each within timeout. */
	ev_timer_init(&deadline, deadline_cb, timeout * 2 + 0.5, 0);
	ev_timer_start(loop, &deadline);
	c = collector_new(loop, &spec, timeout, settled_cb, loop);
	if (!collector_settled(c))
		ev_run(loop, 0);
	ev_timer_stop(loop, &deadline);
	s = collector_snapshot(c);

	doc = stats_document(c, s);
	printf("%s\n", json_object_to_json_string_ext(doc,
	    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
	    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(doc);
	rc = s->qmp_up ? QM_EXIT_OK : QM_EXIT_CONTROL;
	collector_free(c);
	ev_loop_destroy(loop);
	return rc;
}

static const struct args_option stats_options[] = {
	{ .name = "qmp", .type = ARGS_STRING, .value = "PATH",
	    .flags = ARGS_REQUIRED, .help = "QEMU's monitor socket" },
	{ .name = "qga", .type = ARGS_STRING, .value = "PATH",
	    .help = "the guest agent's socket" },
	{ .name = "status-file", .type = ARGS_STRING, .value = "F",
	    .help = "the migration's status document" },
	{ .name = "timeout", .type = ARGS_SECONDS, .value = "S", .min = 0.1,
	    .help = "for QEMU's monitor and for the agent, each (5)" },
	{ .name = NULL }
};

const struct cmd_entry cmd_stats_entry = {
	.name = "stats",
	.args = { .options = stats_options },
	.help =
	"Prints one JSON document about a VM, joined per value: each value is\n"
	"{\"value\": ..., \"source\": ...} with the source that gave it: \"qemu\"\n"
	"(the monitor at --qmp: run state, vCPUs, memory, balloon, drives,\n"
	"NICs), \"node\" (this node's /proc for QEMU's process and vCPU\n"
	"threads, /sys for its tap devices), \"guest-agent\" (the agent at\n"
	"--qga: OS, hostname, interfaces, file systems, online memory) or\n"
	"\"status-file\" (the migration's status document F).  Interfaces are\n"
	"merged by MAC between QEMU and the agent, each with its infoSource.\n"
	"\"sources\" says which answered; a part that did not is\n"
	"{\"available\": false, \"reason\": \"...\"}.\n",
	.exits =
	"Exit status: 0 when QEMU answered (whatever the agent did), 1 usage,\n"
	"3 when QEMU's monitor did not answer (the document is still printed).\n",
	.exec = cmd_stats_exec,
};
