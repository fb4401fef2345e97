/*
 * test-trace.c: traces of real migrations, recorded with `qmigrate migrate
 * --events` (tests/traces/NAME.jsonl, one JSON line per status change), fed
 * back through the session's step function: every sample QEMU gave (the
 * "progress" events), the abort requests, and the end.  The session and its
 * controller must take the same decisions and end the same way as the real
 * run did.  A change to either that would have changed a real migration
 * fails here, in milliseconds.  tests/traces/README says how to record one.
 */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "mig-session.h"

#define TRACE_MAX_BYTES	(16 * 1024 * 1024)

static int
read_trace(const char *path, json_object ***lines, size_t *n)
{
	FILE	*f = fopen(path, "r");
	char	*buf, *line, *save = NULL;
	size_t	 len;

	if (f == NULL)
		return -1;
	buf = xmalloc(TRACE_MAX_BYTES + 1);
	len = fread(buf, 1, TRACE_MAX_BYTES, f);
	fclose(f);
	buf[len] = '\0';
	*lines = NULL;
	*n = 0;
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		json_object *o = json_tokener_parse(line);

		if (o == NULL)
			continue;	/* log lines mixed in */
		*lines = xreallocarray(*lines, *n + 1, sizeof **lines);
		(*lines)[(*n)++] = o;
	}
	free(buf);
	return 0;
}

/* A query-migrate answer as the recorded status showed it. */
static void
info_of(json_object *progress, struct mig_info *mi)
{
	const char *qs = json_str_at(progress, "qemuStatus");

	memset(mi, 0, sizeof *mi);
	mi->status = qemu_mig_status_parse(qs);
	snprintf(mi->status_name, sizeof mi->status_name, "%s",
	    qs != NULL ? qs : "none");
	mi->has_ram = 1;
	mi->page_size = 4096;
	mi->ram_total = json_u64_at(progress, "dataTotal");
	mi->ram_transferred = json_u64_at(progress, "dataProcessed");
	mi->ram_remaining = json_u64_at(progress, "dataRemaining");
	mi->mbps = json_double_at(progress, "bandwidth") * 8 / 1e6;
	mi->dirty_pages_rate = (uint64_t)(json_double_at(progress,
	    "dirtyRate") / 4096 + 0.5);
	mi->dirty_sync_count = json_u64_at(progress, "iteration");
	mi->expected_downtime_ms = json_u64_at(progress, "expectedDowntimeMs");
	mi->throttle_pct = (int)json_u64_at(progress, "throttlePercentage");
	mi->postcopy_requests = json_u64_at(progress, "postCopyRequests");
	mi->downtime_ms = json_u64_at(progress, "downtimeMs");
	mi->has_downtime = json_obj_at(progress, "downtimeMs") != NULL;
	mi->total_time_ms = json_u64_at(progress, "totalTimeMs");
	mi->has_total_time = mi->total_time_ms > 0;
}

/* The decisions the replay took, "action@seconds,...", from its actions. */
static char	got[4096];

static void
step(struct session *s, const struct sess_event *ev)
{
	size_t	i;
	char	one[96];

	session_step(s, ev);
	for (i = 0; i < s->nacts; i++) {
		if (s->acts[i].kind != SA_ST_DECISION)
			continue;
		snprintf(one, sizeof one, "%s@%.1f,", ctl_action_name(
		    (enum ctl_action)s->acts[i].value), s->acts[i].sample.t);
		strncat(got, one, sizeof got - strlen(got) - 1);
	}
}

static void
step_sample(struct session *s, json_object *progress)
{
	struct mig_info		mi;
	struct sess_event	ev = { .kind = SEV_SAMPLE, .mi = &mi };

	info_of(progress, &mi);
	ev.t = json_double_at(progress, "elapsedSeconds");
	step(s, &ev);
}

/* The decisions, "action@seconds,...". */
static void
decision_list(json_object *decisions, char *out, size_t len)
{
	size_t i;

	out[0] = '\0';
	for (i = 0; i < json_object_array_length(decisions); i++) {
		json_object	*d = json_object_array_get_idx(decisions, i);
		const char	*a = json_str_at(d, "action");
		char		 one[96];

		/*
		 * Which decision, and when (to the tenth of a second), from
		 * the time rounded to the millisecond as the samples carry it:
		 * a decision recorded at 3.25006 s is replayed at 3.250.
		 */
		snprintf(one, sizeof one, "%s@%.1f,", a != NULL ? a : "?",
		    round(json_double_at(d, "elapsedSeconds") * 1000) / 1000);
		strncat(out, one, len - strlen(out) - 1);
	}
}

static void
replay(const char *path)
{
	json_object		**lines = NULL, *last, *doc, *c;
	struct session		 s;
	struct sess_config	 cfg;
	struct ctl_config	 ccfg;
	enum ctl_kind		 kind;
	struct sess_event	 ev;
	size_t			 n = 0, i;
	int			 aborted = 0, tries;
	char			 want[4096];
	const char		*phase;

	assert_int_equal(read_trace(path, &lines, &n), 0);
	assert_true(n > 2);
	last = json_obj_at(lines[n - 1], "status");
	assert_string_equal(json_str_at(last, "role"), "source");
	/* "configuration" before the document took KubeVirt's name. */
	c = json_obj_at(json_obj_at(last, "migrationConfiguration"),
	    "controller");
	if (c == NULL)
		c = json_obj_at(json_obj_at(last, "configuration"),
		    "controller");
	assert_non_null(c);
	ctl_config_from_json(c, &kind, &ccfg);

	got[0] = '\0';
	memset(&cfg, 0, sizeof cfg);
	cfg.role = SESS_SOURCE;
	cfg.recover_timeout = 120;
	cfg.stall_timeout = (double)ccfg.progress_timeout;
	cfg.peer = "unix:trace";
	cfg.qmp_path = "trace.qmp";
	session_init(&s, &cfg);
	session_set_controller(&s, kind, &ccfg);
	memset(&ev, 0, sizeof ev);
	ev.kind = SEV_SETUP_DONE;
	ev.setup = SETUP_FRESH;
	step(&s, &ev);
	ev.kind = SEV_QMP_DONE;
	ev.cmd = SC_MIGRATE;
	ev.ok = 1;
	step(&s, &ev);

	for (i = 0; i < n && !session_done(&s); i++) {
		const char *event = json_str_at(lines[i], "event");

		doc = json_obj_at(lines[i], "status");
		if (event == NULL || doc == NULL)
			continue;
		if (strcmp(event, "abort") == 0 && !aborted &&
		    json_bool_at(doc, "abortRequested")) {
			aborted = 1;
			memset(&ev, 0, sizeof ev);
			ev.kind = SEV_SIGNAL;
			ev.signum = SIGTERM;
			step(&s, &ev);
		}
		if (strcmp(event, "progress") == 0)
			step_sample(&s, json_obj_at(doc, "progress"));
	}
	/* The end as QEMU reported it (re-polled until its figures came). */
	for (tries = 0; tries < 12 && !session_done(&s); tries++)
		step_sample(&s, json_obj_at(last, "progress"));
	/* A guest the controller paused runs again: QEMU answers cont. */
	if (s.state == SS_FINISHING) {
		memset(&ev, 0, sizeof ev);
		ev.kind = SEV_QMP_DONE;
		ev.cmd = SC_CONT;
		ev.ok = 1;
		step(&s, &ev);
	}

	phase = json_str_at(last, "phase");
	decision_list(json_obj_at(last, "decisions"), want, sizeof want);

	printf("%s: recorded %s exit %d [%s]; replayed %s exit %d [%s]\n",
	    path, phase, (int)json_u64_at(last, "exitCode"), want,
	    status_phase_name(s.phase), session_exit_code(&s), got);
	assert_true(session_done(&s));
	assert_int_equal(s.overflow, 0);
	assert_string_equal(status_phase_name(s.phase), phase);
	assert_int_equal(session_exit_code(&s), json_u64_at(last, "exitCode"));
	assert_string_equal(got, want);

	for (i = 0; i < n; i++)
		json_object_put(lines[i]);
	free(lines);
}

static void
test_traces(void **state)
{
	DIR		*d;
	struct dirent	*e;
	char		 path[4096];
	int		 count = 0;

	(void)state;
	d = opendir(TRACE_DIR);
	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);

		if (len < 6 || strcmp(e->d_name + len - 6, ".jsonl") != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", TRACE_DIR, e->d_name);
		replay(path);
		count++;
	}
	closedir(d);
	/* No traces would be a test that cannot fail. */
	assert_true(count >= 3);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_traces),
	};

	log_init("test-trace", LOG_LEVEL_WARN, 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
