/*
 * cmd-report.c: qmigrate report --status-file F [--events E]
 * [--target-status-file T] --output H: one self-contained HTML page
 * picturing a migration (report-*.c): the samples over time come from E's
 * lines, the rest from F (read last, so the final document wins over the
 * last event line), the target's QEMU from T (the source knows it only
 * over tls:).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "report.h"

extern const struct cmd_entry cmd_report_entry;

/* The target's QEMU from its status file; -1 with *cause naming it. */
static int
add_target(struct report *r, const char *path, char **cause)
{
	json_object	*doc;
	char		*what;
	int		 rc;

	if ((doc = status_read_file(path, cause)) == NULL)
		return -1;
	xasprintf(&what, "status file %s", path);
	rc = report_add_target_document(r, what, doc, cause);
	free(what);
	json_object_put(doc);
	return rc;
}

static int
cmd_report_exec(struct args *args)
{
	const char	*file = args_get(args, "status-file");
	const char	*events = args_get(args, "events");
	const char	*output = args_get(args, "output");
	const char	*target = args_get(args, "target-status-file");
	struct report	 r;
	json_object	*doc;
	char		*cause = NULL, *page = NULL;
	size_t		 len = 0;
	FILE		*f;
	int		 rc = QM_EXIT_OK;

	report_init(&r);
	if (events != NULL && report_read_events(&r, events, &cause) != 0) {
		rc = cmd_usage_error(&cmd_report_entry, "%s", cause);
		goto out;
	}
	if ((doc = status_read_file(file, &cause)) == NULL) {
		rc = cmd_usage_error(&cmd_report_entry, "%s", cause);
		goto out;
	}
	report_add_document(&r, doc);
	json_object_put(doc);
	if (target != NULL && add_target(&r, target, &cause) != 0) {
		rc = cmd_usage_error(&cmd_report_entry, "%s", cause);
		goto out;
	}

	if ((f = open_memstream(&page, &len)) == NULL)
		fatal("open_memstream");
	report_html_page(f, &r);
	if (fclose(f) != 0)
		fatal("writing the report");
	if (write_file_atomic(output, page, len, &cause) != 0) {
		rc = cmd_usage_error(&cmd_report_entry, "--output: %s", cause);
		goto out;
	}
	log_info("report %s: %zu samples over %.1f s, %zu decisions", output,
	    r.npoints, r.t_end, r.ndecisions);
out:
	free(cause);
	free(page);
	report_free(&r);
	return rc;
}

static const struct args_option report_options[] = {
	{ .name = "status-file", .type = ARGS_STRING, .value = "F",
	    .flags = ARGS_REQUIRED, .help = "the migration's status document" },
	{ .name = "events", .type = ARGS_STRING, .value = "E",
	    .help = "its --events lines (stdout of migrate --events): the\n"
	    "samples over time; without it the chart has the last one only" },
	{ .name = "target-status-file", .type = ARGS_STRING, .value = "T",
	    .help = "the target's status document (incoming's): its QEMU's\n"
	    "version, which F knows only after a tls: handshake" },
	{ .name = "output", .type = ARGS_STRING, .value = "H",
	    .flags = ARGS_REQUIRED, .help = "the HTML page to write" },
	{ .name = NULL }
};

const struct cmd_entry cmd_report_entry = {
	.name = "report",
	.args = { .options = report_options },
	.help =
	"Writes one self-contained HTML page (inline SVG, no script, nothing\n"
	"fetched) picturing a migration: remaining bytes, bandwidth, dirty\n"
	"rate and throttle over time, the phases as bands, each decision\n"
	"marked and listed with the figures that caused it, the guest's\n"
	"downtime (\"not known\" where the document has none), both QEMUs'\n"
	"versions and where each setting came from.\n",
	.exits =
	"Exit status: 0 when the page is written, 1 usage, or a status file,\n"
	"events file or output that cannot be read or written (one line naming\n"
	"it).\n",
	.exec = cmd_report_exec,
};
