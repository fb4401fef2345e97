/*
 * report-html.c: the report's page: one self-contained HTML file (inline
 * SVG and CSS, no script, nothing fetched) with the outcome, the guest's
 * downtime ("not known" without progress.downtimeMs), both QEMUs'
 * versions, the four charts, the decisions with their figures and where
 * each setting came from.
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "report.h"

static void
cell(FILE *f, const char *tag, const char *text)
{
	fprintf(f, "<%s>", tag);
	report_html_escape(f, text != NULL ? text : "not known");
	fprintf(f, "</%s>", tag);
}

static void
decisions(FILE *f, const struct report *r)
{
	char	 t[32];
	size_t	 i;

	fputs("<h2>Decisions</h2>\n", f);
	if (r->ndecisions == 0) {
		fputs("<p>The controller made none.</p>\n", f);
		return;
	}
	fputs("<table class=\"decisions\"><tr><th>#</th><th>at</th>"
	    "<th>action</th><th>reason</th><th>figures</th></tr>\n", f);
	for (i = 0; i < r->ndecisions; i++) {
		const struct report_decision *d = &r->decisions[i];

		snprintf(t, sizeof t, "%.1f s", d->t);
		fprintf(f, "<tr class=\"decision\"><td>%zu</td>", i + 1);
		cell(f, "td", t);
		cell(f, "td", d->action);
		cell(f, "td", d->reason);
		fputs("<td><code>", f);
		report_html_escape(f, d->figures != NULL ? d->figures : "");
		fputs("</code></td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void
sources(FILE *f, const struct report *r)
{
	json_object *o;

	fputs("<h2>Settings' sources</h2>\n", f);
	if (r->sources == NULL ||
	    (o = json_tokener_parse(r->sources)) == NULL) {
		fputs("<p>The document does not say.</p>\n", f);
		return;
	}
	fputs("<table class=\"sources\"><tr><th>setting</th><th>from</th>"
	    "</tr>\n", f);
	json_object_object_foreach(o, key, val) {
		fputs("<tr>", f);
		cell(f, "td", key);
		cell(f, "td", json_object_get_string(val));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	json_object_put(o);
}

void
report_html_page(FILE *f, const struct report *r)
{
	char	code[16], down[32];
	int	s;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	    "<title>qmigrate report ", f);
	report_html_escape(f, r->uid);
	fputs("</title>\n<style>body{font-family:sans-serif;margin:16px;"
	    "background:#fff;color:#222}table{border-collapse:collapse}"
	    "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;"
	    "font-size:13px}svg.chart{display:block;margin:4px 0}"
	    "</style></head><body>\n<h1>Migration ", f);
	report_html_escape(f, r->uid);
	fputs("</h1>\n<table class=\"summary\">\n<tr><th>phase</th>", f);
	cell(f, "td", r->final_phase);
	fputs("</tr>\n<tr><th>exit status</th>", f);
	snprintf(code, sizeof code, "%d", r->exit_code);
	cell(f, "td", r->exit_code >= 0 ? code : NULL);
	if (r->failure != NULL) {
		fputs("</tr>\n<tr><th>failure</th>", f);
		cell(f, "td", r->failure);
	}
	fputs("</tr>\n<tr><th>downtime</th>", f);
	snprintf(down, sizeof down, "%.0f ms", r->downtime_ms);
	cell(f, "td", r->downtime_ms >= 0 ? down : NULL);
	fputs("</tr>\n<tr><th>source QEMU</th>", f);
	cell(f, "td", r->source_version);
	fputs("</tr>\n<tr><th>target QEMU</th>", f);
	cell(f, "td", r->target_version);
	fprintf(f, "</tr>\n<tr><th>samples</th><td>%zu over %.1f s</td></tr>\n"
	    "</table>\n", r->npoints, r->t_end);
	for (s = 0; s < REPORT_NSERIES; s++)
		report_svg_chart(f, r, (enum report_series)s);
	decisions(f, r);
	sources(f, r);
	fputs("</body></html>\n", f);
}
