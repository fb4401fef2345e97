/*
 * test-report.c: qmigrate report's pieces: the series read from --events
 * lines (samples in time order, the last document's phases, decisions and
 * versions, bad lines named), round axes, values with units, and the page
 * (a path per series, the marks, what a document says escaped).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "report.h"

/* One --events line at t seconds; target names the target's version. */
static char *
event_line(double t, double remaining, int with_target, const char *reason)
{
	char *s;

	xasprintf(&s, "{\"event\":\"progress\",\"status\":{"
	    "\"migrationUid\":\"u-1\",\"phase\":\"Running\","
	    "\"startTimestamp\":\"2026-12-03T00:00:00.000Z\","
	    "\"phaseTransitionTimestamps\":["
	    "{\"phase\":\"Scheduling\",\"phaseTransitionTimestamp\":"
	    "\"2026-12-03T00:00:00.000Z\"},"
	    "{\"phase\":\"Running\",\"phaseTransitionTimestamp\":"
	    "\"2026-12-03T00:00:01.500Z\"}],"
	    "\"migrationConfiguration\":{\"qemus\":{\"source\":{\"version\":"
	    "\"10.0.2\"}%s},\"sources\":{\"bandwidthPerMigration\":"
	    "\"policy busy\"}},"
	    "\"decisions\":[{\"time\":\"2026-12-03T00:00:02.000Z\","
	    "\"elapsedSeconds\":2,\"action\":\"pause\",\"reason\":\"%s\","
	    "\"figures\":{\"dirtyRate\":5}}],"
	    "\"progress\":{\"elapsedSeconds\":%g,\"dataRemaining\":%g,"
	    "\"bandwidth\":2e7,\"dirtyRate\":3e7,\"throttlePercentage\":20}}}\n",
	    with_target ? ",\"target\":{\"version\":\"11.1.0\"}" : "",
	    reason, t, remaining);
	return s;
}

static void
add_lines(struct report *r, const char *text)
{
	char *cause = NULL;

	assert_int_equal(report_add_events(r, "events file e", text,
	    strlen(text), &cause), 0);
	assert_null(cause);
}

static void
test_series_in_order(void **state)
{
	struct report	 r;
	char		*a = event_line(1, 300, 1, "r"), *b = event_line(2, 200,
			    0, "r"), *c = event_line(2, 150, 0, "r"),
			*d = event_line(3, 100, 0, "slow <link> & \\\"dirty\\\"");
	char		*all;

	xasprintf(&all, "%s%s{\"event\":\"linesLost\",\"lines\":3}\n\n%s%s",
	    a, b, c, d);
	report_init(&r);
	add_lines(&r, all);
	/* The same second twice: the later document replaces the sample. */
	assert_int_equal(r.npoints, 3);
	assert_true(r.points[0].t == 1 && r.points[2].t == 3);
	assert_true(r.points[1].remaining == 150);
	assert_true(r.points[2].bandwidth == 2e7 && r.points[2].dirty == 3e7 &&
	    r.points[2].throttle == 20);
	assert_int_equal(r.nphases, 2);
	assert_string_equal(r.phases[1].name, "Running");
	assert_true(r.phases[1].t > 1.49 && r.phases[1].t < 1.51);
	assert_int_equal(r.ndecisions, 1);
	assert_string_equal(r.decisions[0].action, "pause");
	assert_string_equal(r.decisions[0].figures, "{ \"dirtyRate\": 5 }");
	/* A later document without the target's version keeps it. */
	assert_string_equal(r.source_version, "10.0.2");
	assert_string_equal(r.target_version, "11.1.0");
	assert_string_equal(r.uid, "u-1");
	assert_true(r.t_end == 3);
	report_free(&r);
	free(all);
	free(a);
	free(b);
	free(c);
	free(d);
}

static void
test_bad_lines_named(void **state)
{
	struct report	 r;
	char		*cause = NULL, *good = event_line(1, 1, 1, "r"), *text;

	report_init(&r);
	xasprintf(&text, "%s{\"event\": tru\n", good);
	assert_int_equal(report_add_events(&r, "events file e", text,
	    strlen(text), &cause), -1);
	assert_string_equal(cause, "events file e: line 2: not a JSON object");
	free(cause);
	cause = NULL;
	assert_int_equal(report_add_events(&r, "events file e", "{}\0{}", 5,
	    &cause), -1);
	assert_non_null(strstr(cause, "NUL character"));
	free(cause);
	report_free(&r);
	free(text);
	free(good);
}

static void
test_long_run_thinned(void **state)
{
	struct report	 r;
	json_object	*doc, *progress;
	size_t		 i;

	report_init(&r);
	for (i = 0; i < REPORT_MAX_POINTS * 3; i++) {
		doc = json_object_new_object();
		progress = json_object_new_object();
		json_object_object_add(progress, "elapsedSeconds",
		    json_object_new_double((double)i / 10));
		json_object_object_add(doc, "progress", progress);
		report_add_document(&r, doc);
		json_object_put(doc);
	}
	assert_true(r.npoints <= REPORT_MAX_POINTS);
	assert_true(r.npoints >= REPORT_MAX_POINTS / 2);
	assert_true(r.points[0].t == 0);
	for (i = 1; i < r.npoints; i++)
		assert_true(r.points[i].t > r.points[i - 1].t);
	report_free(&r);
}

static void
test_axis_round(void **state)
{
	struct report_axis a;

	report_axis_nice(0, &a);
	assert_true(a.max == 1 && a.nticks >= 1);
	report_axis_nice(37, &a);
	assert_true(a.step == 5 && a.max == 40 && a.nticks == 8);
	report_axis_nice(100, &a);
	assert_true(a.step == 20 && a.max == 100);
	report_axis_nice(67108864, &a);
	assert_true(a.max >= 67108864 && a.nticks <= 8 && a.nticks >= 4);
}

static void
test_units(void **state)
{
	char *s;

	s = report_format_value(64.0 * 1024 * 1024, "B");
	assert_string_equal(s, "64 MiB");
	free(s);
	s = report_format_value(1536, "B");
	assert_string_equal(s, "1.5 KiB");
	free(s);
	s = report_format_value(2e7, "B/s");
	assert_string_equal(s, "20 MB/s");
	free(s);
	s = report_format_value(2.5e6, "B/s");
	assert_string_equal(s, "2.5 MB/s");
	free(s);
	s = report_format_value(40, "%");
	assert_string_equal(s, "40%");
	free(s);
}

static void
test_page(void **state)
{
	struct report	 r;
	char		*a = event_line(1, 300, 1, "r"),
			*b = event_line(3, 100, 0, "slow <link> & \\\"dirty\\\"");
	char		*all, *page = NULL, *path;
	size_t		 len = 0;
	FILE		*f;

	xasprintf(&all, "%s%s", a, b);
	report_init(&r);
	add_lines(&r, all);
	f = open_memstream(&page, &len);
	report_html_page(f, &r);
	fclose(f);
	assert_non_null(strstr(page, "data-series=\"remaining\" "
	    "data-points=\"2\""));
	assert_non_null(strstr(page, "data-series=\"throttle\" "
	    "data-points=\"2\""));
	assert_non_null(strstr(page, "<g class=\"decision\" "
	    "data-action=\"pause\">"));
	assert_non_null(strstr(page, "slow &lt;link&gt; &amp; "
	    "&quot;dirty&quot;"));
	assert_null(strstr(page, "<link"));
	assert_null(strstr(page, "<script"));
	assert_non_null(strstr(page, "<td>bandwidthPerMigration</td>"
	    "<td>policy busy</td>"));
	assert_non_null(strstr(page, "<th>target QEMU</th><td>11.1.0</td>"));
	/* No progress.downtimeMs: not known, not a 0 ms pause. */
	assert_non_null(strstr(page, "<th>downtime</th><td>not known</td>"));
	/* The path is drawn: a move, then a line to the second sample. */
	path = strstr(page, "class=\"series\" data-series=\"remaining\"");
	assert_non_null(path);
	path = strstr(path, " d=\"M");
	assert_non_null(path);
	assert_non_null(strstr(path, " L"));
	assert_true(strchr(path + 5, '"') > strstr(path, " L"));
	free(page);
	report_free(&r);
	free(all);
	free(a);
	free(b);
}

/* Phases too short for their labels are named in their bands' titles
 * only: the labels never print over each other. */
static void
test_phase_labels(void **state)
{
	struct report		 r;
	const char		*names[] = { "Scheduling", "PreparingTarget",
				    "Running", "Succeeded" };
	const double		 at[] = { 0, 0.01, 0.02, 9.5 };
	struct report_point	 pts[2] = { { .t = 0, .remaining = 9 },
				    { .t = 10, .remaining = 1 } };
	char			*page = NULL;
	size_t			 len = 0, i, n = 0;
	const char		*p;
	FILE			*f;

	(void)state;
	report_init(&r);
	r.phases = xcalloc(4, sizeof *r.phases);
	for (i = 0; i < 4; i++) {
		r.phases[i].name = xstrdup(names[i]);
		r.phases[i].t = at[i];
	}
	r.nphases = 4;
	r.points = xcalloc(REPORT_MAX_POINTS, sizeof *r.points);
	memcpy(r.points, pts, sizeof pts);
	r.npoints = 2;
	r.t_end = 10;
	f = open_memstream(&page, &len);
	report_svg_chart(f, &r, REPORT_REMAINING);
	fclose(f);
	for (p = page; (p = strstr(p, "class=\"phase-label\"")) != NULL; p++)
		n++;
	assert_int_equal(n, 2);
	assert_non_null(strstr(page, "fill=\"#555\">Running</text>"));
	assert_non_null(strstr(page, "fill=\"#555\">Succeeded</text>"));
	assert_null(strstr(page, ">Scheduling</text>"));
	assert_non_null(strstr(page, "<title>Scheduling</title>"));
	free(page);
	report_free(&r);
}

/*
 * A decision's mark on a whole pixel's edge (x = 510.0) is drawn crisp,
 * 2 px: antialiased at 1.5 px it was two pale columns (report-chromium.sh
 * once found 13 pixels of its colour).
 */
static void
test_mark_crisp(void **state)
{
	struct report		 r;
	struct report_point	 pts[2] = { { .t = 0, .remaining = 9 },
				    { .t = 10, .remaining = 1 } };
	char			*page = NULL;
	size_t			 len = 0;
	FILE			*f;

	(void)state;
	report_init(&r);
	r.decisions = xcalloc(1, sizeof *r.decisions);
	r.decisions[0].action = xstrdup("pause");
	r.decisions[0].reason = xstrdup("not converging");
	r.decisions[0].t = 5;
	r.ndecisions = 1;
	r.points = xcalloc(REPORT_MAX_POINTS, sizeof *r.points);
	memcpy(r.points, pts, sizeof pts);
	r.npoints = 2;
	r.t_end = 10;
	f = open_memstream(&page, &len);
	report_svg_chart(f, &r, REPORT_REMAINING);
	fclose(f);
	assert_non_null(strstr(page, "<line x1=\"510.0\" y1=\"24\" "
	    "x2=\"510.0\" y2=\"160\" stroke=\"#f08a00\" stroke-width=\"2\" "
	    "shape-rendering=\"crispEdges\""));
	free(page);
	report_free(&r);
}

/* The guest's downtime: the document's figure, a 0 included; a later
 * document without one (the target's) does not take it away. */
static void
test_downtime_row(void **state)
{
	static const char *const docs[] = {
		"{\"progress\":{\"elapsedSeconds\":1,\"downtimeMs\":0}}",
		"{\"progress\":{\"elapsedSeconds\":2,\"downtimeMs\":12}}",
		"{\"progress\":{\"elapsedSeconds\":3}}",
	};
	static const char *const want[] = { "0 ms", "12 ms", "12 ms" };
	struct report	 r;
	json_object	*doc;
	char		*page, cell[64];
	size_t		 i, len;
	FILE		*f;

	(void)state;
	report_init(&r);
	for (i = 0; i < 3; i++) {
		doc = json_tokener_parse(docs[i]);
		assert_non_null(doc);
		report_add_document(&r, doc);
		json_object_put(doc);
		page = NULL;
		len = 0;
		f = open_memstream(&page, &len);
		report_html_page(f, &r);
		fclose(f);
		snprintf(cell, sizeof cell, "<th>downtime</th><td>%s</td>",
		    want[i]);
		assert_non_null(strstr(page, cell));
		free(page);
	}
	report_free(&r);
}

/*
 * The target's own document names its QEMU (a unix: source's does not),
 * and wins over the handshake's word; one without it is refused, named.
 */
static void
test_target_document(void **state)
{
	struct report	 r;
	json_object	*src = json_tokener_parse("{\"migrationConfiguration\":"
			    "{\"qemus\":{\"source\":{\"version\":\"7.2.19\"}}}}");
	json_object	*dst = json_tokener_parse("{\"migrationConfiguration\":"
			    "{\"qemus\":{\"target\":{\"version\":\"10.0.2\"}}}}");
	char		*cause = NULL;

	report_init(&r);
	report_add_document(&r, src);
	assert_null(r.target_version);
	assert_int_equal(report_add_target_document(&r, "status file t",
	    dst, &cause), 0);
	assert_string_equal(r.source_version, "7.2.19");
	assert_string_equal(r.target_version, "10.0.2");
	assert_int_equal(report_add_target_document(&r, "status file s",
	    src, &cause), -1);
	assert_string_equal(cause, "status file s: no migrationConfiguration."
	    "qemus.target.version (is it the target's, written by incoming?)");
	assert_string_equal(r.target_version, "10.0.2");
	free(cause);
	report_free(&r);
	json_object_put(src);
	json_object_put(dst);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_series_in_order),
		cmocka_unit_test(test_bad_lines_named),
		cmocka_unit_test(test_long_run_thinned),
		cmocka_unit_test(test_axis_round),
		cmocka_unit_test(test_downtime_row),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_page),
		cmocka_unit_test(test_target_document),
		cmocka_unit_test(test_phase_labels),
		cmocka_unit_test(test_mark_crisp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
