/*
 * report-series.c: the series a report draws, read from status documents.
 * Each --events line carries the whole document as it was then, so the
 * progress over time is the sequence of their "progress" members; the
 * phases, decisions, versions and settings' sources are the last
 * document's (the final status file's when it is given after the events).
 */
#define _DEFAULT_SOURCE		/* timegm */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "report.h"
#include "world.h"

/* An --events file: lines of at most a status document each. */
#define EVENTS_LIMIT		(64 * 1024 * 1024)
#define EVENT_LINE_LIMIT	(4 * 1024 * 1024)
/* Kept from a document: phases and decisions beyond these are dropped. */
#define MAX_PHASES		64
#define MAX_DECISIONS		256

void
report_init(struct report *r)
{
	memset(r, 0, sizeof *r);
	r->exit_code = -1;
	r->downtime_ms = -1;
}

static void
free_meta(struct report *r)
{
	size_t i;

	for (i = 0; i < r->nphases; i++)
		free(r->phases[i].name);
	free(r->phases);
	r->phases = NULL;
	r->nphases = 0;
	for (i = 0; i < r->ndecisions; i++) {
		free(r->decisions[i].action);
		free(r->decisions[i].reason);
		free(r->decisions[i].figures);
	}
	free(r->decisions);
	r->decisions = NULL;
	r->ndecisions = 0;
	free(r->uid);
	free(r->final_phase);
	free(r->failure);
	free(r->source_version);
	free(r->target_version);
	free(r->sources);
	r->uid = r->final_phase = r->failure = NULL;
	r->source_version = r->target_version = r->sources = NULL;
}

void
report_free(struct report *r)
{
	free_meta(r);
	free(r->points);
	report_init(r);
}

static double
num_at(json_object *o, const char *key)
{
	json_object *v = json_obj_at(o, key);

	if (v == NULL || !(json_object_is_type(v, json_type_int) ||
	    json_object_is_type(v, json_type_double)))
		return 0;
	return json_object_get_double(v);
}

static char *
str_at(json_object *o, const char *key)
{
	json_object *v = json_obj_at(o, key);

	if (v == NULL || !json_object_is_type(v, json_type_string))
		return NULL;
	return xstrdup(json_object_get_string(v));
}

/* An RFC 3339 UTC time as format_rfc3339 writes it; -1 when it is not. */
static double
parse_time(const char *s)
{
	struct tm	 tm;
	double		 frac = 0;
	const char	*rest;

	if (s == NULL)
		return -1;
	memset(&tm, 0, sizeof tm);
	if ((rest = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm)) == NULL)
		return -1;
	if (*rest == '.')
		frac = strtod(rest, NULL);
	return (double)timegm(&tm) + frac;
}

/* Halves the samples (keeps every other one) when they are full. */
static void
thin(struct report *r)
{
	size_t i, j;

	for (i = 0, j = 0; i < r->npoints; i += 2)
		r->points[j++] = r->points[i];
	r->npoints = j;
}

static void
add_point(struct report *r, json_object *progress)
{
	struct report_point p;

	p.t = num_at(progress, "elapsedSeconds");
	p.remaining = num_at(progress, "dataRemaining");
	p.bandwidth = num_at(progress, "bandwidth");
	p.dirty = num_at(progress, "dirtyRate");
	p.throttle = num_at(progress, "throttlePercentage");
	if (r->points == NULL)
		r->points = xcalloc(REPORT_MAX_POINTS, sizeof *r->points);
	/* A document rewritten for another event at the same time. */
	if (r->npoints > 0 && p.t <= r->points[r->npoints - 1].t) {
		if (p.t < r->points[r->npoints - 1].t)
			return;
		r->points[r->npoints - 1] = p;
		return;
	}
	if (r->npoints == REPORT_MAX_POINTS)
		thin(r);
	r->points[r->npoints++] = p;
	if (p.t > r->t_end)
		r->t_end = p.t;
}

static void
read_phases(struct report *r, json_object *doc)
{
	json_object	*a = json_obj_at(doc, "phaseTransitionTimestamps");
	double		 start, t;
	size_t		 i, n;

	if (a == NULL || !json_object_is_type(a, json_type_array))
		return;
	n = json_object_array_length(a);
	if (n > MAX_PHASES)
		n = MAX_PHASES;
	start = parse_time(json_object_get_string(json_obj_at(doc,
	    "startTimestamp")));
	r->phases = xcalloc(n + 1, sizeof *r->phases);
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		char *name = str_at(e, "phase");

		t = parse_time(json_object_get_string(json_obj_at(e,
		    "phaseTransitionTimestamp")));
		if (name == NULL || t < 0)
			continue;
		if (start < 0)
			start = t;
		r->phases[r->nphases].name = name;
		r->phases[r->nphases].t = t > start ? t - start : 0;
		if (r->phases[r->nphases].t > r->t_end)
			r->t_end = r->phases[r->nphases].t;
		r->nphases++;
	}
}

static void
read_decisions(struct report *r, json_object *doc)
{
	json_object	*a = json_obj_at(doc, "decisions"), *f;
	size_t		 i, n;

	if (a == NULL || !json_object_is_type(a, json_type_array))
		return;
	n = json_object_array_length(a);
	if (n > MAX_DECISIONS)
		n = MAX_DECISIONS;
	r->decisions = xcalloc(n + 1, sizeof *r->decisions);
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		struct report_decision *d = &r->decisions[r->ndecisions];

		if ((d->action = str_at(e, "action")) == NULL)
			continue;
		d->reason = str_at(e, "reason");
		d->t = num_at(e, "elapsedSeconds");
		if ((f = json_obj_at(e, "figures")) != NULL)
			d->figures = xstrdup(json_object_to_json_string_ext(f,
			    JSON_C_TO_STRING_SPACED |
			    JSON_C_TO_STRING_NOSLASHESCAPE));
		if (d->t > r->t_end)
			r->t_end = d->t;
		r->ndecisions++;
	}
}

/* The version of migrationConfiguration.qemus.<side>, malloc'd or NULL. */
static char *
qemu_version(json_object *doc, const char *side)
{
	json_object *q = json_obj_at(json_obj_at(json_obj_at(doc,
	    "migrationConfiguration"), "qemus"), side);

	return q == NULL ? NULL : str_at(q, "version");
}

/*
 * Adds one status document (borrowed): a sample of its progress, and its
 * phases, decisions, versions and sources in place of the last ones.
 */
void
report_add_document(struct report *r, json_object *doc)
{
	json_object *progress = json_obj_at(doc, "progress"), *v, *src;
	char *sv, *tv;

	if (progress != NULL && json_object_is_type(progress,
	    json_type_object))
		add_point(r, progress);
	/* A side writes only its own QEMU: keep what an earlier one said. */
	sv = qemu_version(doc, "source");
	tv = qemu_version(doc, "target");
	if (sv == NULL && r->source_version != NULL)
		sv = xstrdup(r->source_version);
	if (tv == NULL && r->target_version != NULL)
		tv = xstrdup(r->target_version);
	free_meta(r);
	r->source_version = sv;
	r->target_version = tv;
	r->uid = str_at(doc, "migrationUid");
	r->final_phase = str_at(doc, "phase");
	r->failure = str_at(doc, "failureReason");
	if ((v = json_obj_at(doc, "exitCode")) != NULL &&
	    json_object_is_type(v, json_type_int))
		r->exit_code = json_object_get_int(v);
	/* progress.downtimeMs is absent until known (a 0 is a pause). */
	if ((v = json_obj_at(progress, "downtimeMs")) != NULL &&
	    json_object_is_type(v, json_type_int) &&
	    json_object_get_int64(v) >= 0)
		r->downtime_ms = (double)json_object_get_int64(v);
	src = json_obj_at(json_obj_at(doc, "migrationConfiguration"),
	    "sources");
	if (src != NULL && json_object_is_type(src, json_type_object))
		r->sources = xstrdup(json_object_to_json_string_ext(src,
		    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	read_phases(r, doc);
	read_decisions(r, doc);
}

/*
 * Takes the target's QEMU from the target's own document (incoming's
 * status file, borrowed): over unix: and tcp: no channel tells the source
 * which QEMU received the guest, so only the target's document knows.
 * Its word wins over what the source heard in the handshake.  0, or -1
 * when doc says nothing of its QEMU (what names it in *cause).
 */
int
report_add_target_document(struct report *r, const char *what,
    json_object *doc, char **cause)
{
	char *tv = qemu_version(doc, "target");

	if (tv == NULL) {
		xasprintf(cause, "%s: no migrationConfiguration.qemus.target."
		    "version (is it the target's, written by incoming?)", what);
		return -1;
	}
	free(r->target_version);
	r->target_version = tv;
	return 0;
}

/*
 * Adds the documents of --events lines in buf (what names it in errors):
 * each line a JSON object; those with a "status" object are samples, the
 * others (linesLost) are skipped.  -1 with *cause at the first bad line.
 */
int
report_add_events(struct report *r, const char *what, const char *buf,
    size_t len, char **cause)
{
	const char	*p = buf, *end = buf + len, *nl;
	size_t		 lineno = 0, n;
	json_object	*line, *st;
	char		*text;

	if (memchr(buf, '\0', len) != NULL) {
		xasprintf(cause, "%s: a NUL character: not JSON lines", what);
		return -1;
	}
	for (; p < end; p = nl + 1) {
		lineno++;
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		n = (size_t)(nl - p);
		if (n == 0)
			continue;
		if (n > EVENT_LINE_LIMIT) {
			xasprintf(cause, "%s: line %zu: longer than 4 MiB",
			    what, lineno);
			return -1;
		}
		text = xstrndup(p, n);
		line = json_tokener_parse(text);
		free(text);
		if (line == NULL || !json_object_is_type(line,
		    json_type_object)) {
			json_object_put(line);
			xasprintf(cause, "%s: line %zu: not a JSON object",
			    what, lineno);
			return -1;
		}
		st = json_obj_at(line, "status");
		if (st != NULL && json_object_is_type(st, json_type_object))
			report_add_document(r, st);
		json_object_put(line);
	}
	return 0;
}

/* Reads an --events file; -1 with *cause (naming it) when it is bad. */
int
report_read_events(struct report *r, const char *path, char **cause)
{
	char	*buf, *what;
	size_t	 n;
	int	 rc;

	if ((buf = world->read_file(path, EVENTS_LIMIT, &n)) == NULL) {
		if (errno == EFBIG)
			xasprintf(cause, "events file %s: larger than 64 MiB",
			    path);
		else
			xasprintf(cause, "events file %s: cannot open it: %s",
			    path, strerror(errno));
		return -1;
	}
	xasprintf(&what, "events file %s", path);
	rc = report_add_events(r, what, buf, n, cause);
	if (rc == 0 && r->npoints == 0) {
		xasprintf(cause, "%s: no status lines (was it written by "
		    "--events?)", what);
		rc = -1;
	}
	free(what);
	free(buf);
	return rc;
}
