/*
 * qemu-stub.c: the stand-in of qemu-stub.h.  States and answers follow
 * QEMU 7.2 as ../shared/reference/qemu-7.2-migration.md and the recorded
 * traces show them; anything it does not model is refused as QEMU
 * refuses an unknown command, so a command the executor starts sending
 * shows up as a failure, not as a silent success.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "common.h"
#include "qemu-stub.h"

#define SETUP_SECONDS	0.05
#define NEVER		1e18

enum move { MV_NONE, MV_ACTIVE, MV_COMPLETE, MV_CANCELLED, MV_LOADED,
	MV_EXIT };

struct line {
	char		*text;
	struct line	*next;
};

struct sq {
	struct sq_config	 cfg;
	struct sq_world		 world;
	int			 alive;
	const char		*st;		/* migration status */
	const char		*rs;		/* run state */
	int			 events;	/* capability events */
	int			 return_path;	/* capability return-path */
	int			 awaiting;	/* source: switched over, awaits
						   the target's verdict */
	int			 guest;		/* holds the guest state */
	int			 autostart;
	int			 was_running;	/* source, at migrate */
	char			 listen_uri[256];
	int			 path_gone;	/* its unix: socket's path
						   unlinked: none connect */
	struct sq		*peer;		/* the stream's other end */
	double			 mig_start;
	double			 due;
	enum move		 move;
	double			 now;
	struct line		*out, *out_tail;
};

static void
push(struct sq *q, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
push(struct sq *q, const char *fmt, ...)
{
	struct line	*l = xcalloc(1, sizeof *l);
	va_list		 ap;

	va_start(ap, fmt);
	xvasprintf(&l->text, fmt, ap);
	va_end(ap);
	if (q->out_tail != NULL)
		q->out_tail->next = l;
	else
		q->out = l;
	q->out_tail = l;
}

static void
event(struct sq *q, const char *name, const char *data)
{
	double s = floor(q->now);

	if (data != NULL)
		push(q, "{\"timestamp\": {\"seconds\": %.0f, \"microseconds\": "
		    "%.0f}, \"event\": \"%s\", \"data\": %s}\r\n", s,
		    (q->now - s) * 1e6, name, data);
	else
		push(q, "{\"timestamp\": {\"seconds\": %.0f, \"microseconds\": "
		    "%.0f}, \"event\": \"%s\"}\r\n", s, (q->now - s) * 1e6,
		    name);
}

static void
set_status(struct sq *q, const char *st)
{
	char data[64];

	q->st = st;
	if (q->events) {
		snprintf(data, sizeof data, "{\"status\": \"%s\"}", st);
		event(q, "MIGRATION", data);
	}
}

static void
set_run(struct sq *q, const char *rs)
{
	int was = strcmp(q->rs, "running") == 0;
	int is = strcmp(rs, "running") == 0;

	q->rs = rs;
	if (was && !is)
		event(q, "STOP", NULL);
	else if (!was && is)
		event(q, "RESUME", NULL);
}

static void
schedule(struct sq *q, enum move m, double at)
{
	q->move = m;
	q->due = at;
}

struct sq *
sq_new(const struct sq_config *cfg, const struct sq_world *w)
{
	struct sq *q = xcalloc(1, sizeof *q);

	q->cfg = *cfg;
	q->world = *w;
	q->alive = 1;
	q->st = "none";
	q->due = NEVER;
	if (cfg->incoming) {
		q->rs = "inmigrate";
		q->autostart = !cfg->dash_s;
	} else {
		q->rs = cfg->dash_s ? "prelaunch" : "running";
		q->guest = 1;
	}
	return q;
}

void
sq_free(struct sq *q)
{
	struct line *l;

	if (q == NULL)
		return;
	while ((l = q->out) != NULL) {
		q->out = l->next;
		free(l->text);
		free(l);
	}
	free(q);
}

char *
sq_greeting(const struct sq *q)
{
	char *s;

	(void)q;
	xasprintf(&s, "{\"QMP\": {\"version\": {\"qemu\": {\"micro\": 0, "
	    "\"minor\": 2, \"major\": 7}, \"package\": \"sim\"}, "
	    "\"capabilities\": [\"oob\"]}}\r\n");
	return s;
}

/*
 * The target's verdict reaches a source that awaits it over the return
 * path (migration_completion's wait for the SHUT): completed, or failed
 * and the guest resumed (migration_iteration_finish's vm_start).
 */
static void
verdict(struct sq *s, int loaded)
{
	if (s == NULL || !s->alive || !s->awaiting)
		return;
	s->awaiting = 0;
	if (loaded) {
		set_status(s, "completed");
		set_run(s, "postmigrate");
	} else {
		set_status(s, "failed");
		if (s->was_running)
			set_run(s, "running");
	}
}

/* The source's stream ended before the target completed its load. */
static void
stream_broken(struct sq *t)
{
	if (t == NULL || !t->alive || t->guest)
		return;
	if (t->peer != NULL)
		t->peer->now = t->now;
	verdict(t->peer, 0);
	/* 7.2: a failed incoming migration ends QEMU (exit-on-error). */
	set_status(t, "failed");
	schedule(t, MV_EXIT, t->now);
}

static void
answer(struct sq *q, const char *id, const char *ret)
{
	push(q, "{\"return\": %s, \"id\": \"%s\"}\r\n", ret, id);
}

static void
refuse(struct sq *q, const char *id, const char *class, const char *desc)
{
	push(q, "{\"error\": {\"class\": \"%s\", \"desc\": \"%s\"}, "
	    "\"id\": \"%s\"}\r\n", class, desc, id);
}

static const char *
str_arg(json_object *args, const char *key)
{
	json_object *v;

	if (args == NULL || !json_object_object_get_ex(args, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return "";
	return json_object_get_string(v);
}

static void
query_migrate(struct sq *q, const char *id)
{
	double	 moved;
	char	 ret[768];

	if (q->cfg.incoming) {
		/* 7.2's fill_destination_migration_info: no status until
		   the stream arrives, no ram figures on the destination
		   (tests/traces/qmp/disk-mirror-7.2). */
		char addr[320];

		snprintf(addr, sizeof addr, "\"socket-address\": [{\"path\": "
		    "\"%s\", \"type\": \"unix\"}]", q->listen_uri +
		    (strncmp(q->listen_uri, "unix:", 5) == 0 ? 5 : 0));
		if (strcmp(q->st, "none") == 0)
			snprintf(ret, sizeof ret, "{%s}",
			    q->listen_uri[0] != '\0' ? addr : "");
		else
			snprintf(ret, sizeof ret, "{\"status\": \"%s\", %s}",
			    q->st, addr);
		answer(q, id, ret);
		return;
	}
	if (strcmp(q->st, "none") == 0) {
		answer(q, id, "{}");
		return;
	}
	moved = q->cfg.converge > 0 ? fmin(1, (q->now - q->mig_start) /
	    q->cfg.converge) : 0;
	snprintf(ret, sizeof ret, "{\"status\": \"%s\", \"ram\": "
	    "{\"total\": 1073741824, \"remaining\": %.0f, \"transferred\": "
	    "%.0f, \"dirty-sync-count\": 1, \"dirty-pages-rate\": 0, "
	    "\"page-size\": 4096, \"mbps\": 800}%s}", q->st,
	    (1 - moved) * 1073741824.0, moved * 1073741824.0,
	    strcmp(q->st, "completed") == 0 ? ", \"total-time\": 1000" : "");
	answer(q, id, ret);
}

static void
canned(struct sq *q, const char *cmd, json_object *args, const char *id)
{
	char	 key[512];
	size_t	 i;

	snprintf(key, sizeof key, "%s|%s|%s|%s", cmd, str_arg(args, "path"),
	    str_arg(args, "property"), str_arg(args, "command-line"));
	for (i = 0; canned_7_2[i].key != NULL; i++)
		if (strcmp(canned_7_2[i].key, key) == 0) {
			/* {"return": ...}: the id goes in before the brace. */
			size_t n = strlen(canned_7_2[i].answer);

			push(q, "%.*s,\"id\":\"%s\"}\r\n", (int)n - 1,
			    canned_7_2[i].answer, id);
			return;
		}
	refuse(q, id, "CommandNotFound", "The command is not modelled");
}

static void
command(struct sq *q, const char *cmd, json_object *args, const char *id)
{
	struct sq *t;

	if (strcmp(cmd, "qmp_capabilities") == 0 ||
	    strcmp(cmd, "migrate-set-parameters") == 0) {
		answer(q, id, "{}");
	} else if (strcmp(cmd, "migrate-set-capabilities") == 0) {
		const char *caps = json_object_to_json_string(args);

		if (strstr(caps, "\"events\", \"state\": true") != NULL)
			q->events = 1;
		q->return_path = strstr(caps, "\"return-path\", \"state\": "
		    "true") != NULL;
		answer(q, id, "{}");
	} else if (strcmp(cmd, "query-status") == 0) {
		char ret[128];

		snprintf(ret, sizeof ret, "{\"status\": \"%s\", "
		    "\"singlestep\": false, \"running\": %s}", q->rs,
		    strcmp(q->rs, "running") == 0 ? "true" : "false");
		answer(q, id, ret);
	} else if (strcmp(cmd, "query-migrate") == 0) {
		query_migrate(q, id);
	} else if (strcmp(cmd, "query-block-jobs") == 0) {
		answer(q, id, "[]");
	} else if (strcmp(cmd, "migrate-incoming") == 0) {
		if (!q->cfg.incoming || q->listen_uri[0] != '\0') {
			refuse(q, id, "GenericError", "The incoming migration "
			    "has already been started");
			return;
		}
		snprintf(q->listen_uri, sizeof q->listen_uri, "%s",
		    str_arg(args, "uri"));
		/* 7.2 sends this one event with or without the events
		   capability, before the answer, and keeps the status
		   none until a source connects (the disk-mirror-7.2
		   trace). */
		event(q, "MIGRATION", "{\"status\": \"setup\"}");
		answer(q, id, "{}");
	} else if (strcmp(cmd, "migrate") == 0) {
		if (strcmp(q->st, "setup") == 0 || strcmp(q->st, "active") ==
		    0 || strcmp(q->st, "cancelling") == 0) {
			refuse(q, id, "GenericError", "There's a migration "
			    "process in progress");
			return;
		}
		answer(q, id, "{}");
		q->mig_start = q->now;
		q->was_running = strcmp(q->rs, "running") == 0;
		set_status(q, "setup");
		t = q->world.listener(q->world.arg, str_arg(args, "uri"));
		q->peer = t;
		if (t != NULL && t->peer == NULL) {
			t->peer = q;
			set_status(t, "active");
		} else
			q->peer = NULL;
		schedule(q, MV_ACTIVE, q->now + SETUP_SECONDS);
	} else if (strcmp(cmd, "migrate_cancel") == 0) {
		answer(q, id, "{}");
		if (strcmp(q->st, "setup") == 0 || strcmp(q->st, "active") ==
		    0) {
			set_status(q, "cancelling");
			schedule(q, MV_CANCELLED, q->now + SETUP_SECONDS);
		}
	} else if (strcmp(cmd, "cont") == 0) {
		if (strcmp(q->rs, "inmigrate") == 0) {
			q->autostart = 1;
			answer(q, id, "{}");
		} else if (!q->guest) {
			refuse(q, id, "GenericError", "no guest state");
		} else {
			/* 7.2 runs a postmigrate source again: a guest run
			   twice (the checker's both-run). */
			answer(q, id, "{}");
			set_run(q, "running");
		}
	} else if (strcmp(cmd, "stop") == 0) {
		answer(q, id, "{}");
		if (strcmp(q->rs, "running") == 0)
			set_run(q, "paused");
	} else if (strcmp(cmd, "quit") == 0) {
		answer(q, id, "{}");
		event(q, "SHUTDOWN", "{\"guest\": false, \"reason\": "
		    "\"host-qmp-quit\"}");
		schedule(q, MV_EXIT, q->now);
	} else if (strcmp(cmd, "migrate-start-postcopy") == 0 ||
	    strcmp(cmd, "migrate-pause") == 0 ||
	    strcmp(cmd, "migrate-recover") == 0) {
		refuse(q, id, "GenericError", "postcopy is not enabled");
	} else
		canned(q, cmd, args, id);
}

void
sq_input(struct sq *q, const char *line, double now)
{
	json_object	*msg, *v, *args = NULL;
	const char	*cmd, *id = "";

	q->now = now;
	if (!q->alive)
		return;
	if ((msg = json_tokener_parse(line)) == NULL) {
		push(q, "{\"error\": {\"class\": \"GenericError\", \"desc\": "
		    "\"JSON parse error\"}}\r\n");
		return;
	}
	if (json_object_object_get_ex(msg, "id", &v))
		id = json_object_get_string(v);
	json_object_object_get_ex(msg, "arguments", &args);
	if (!json_object_object_get_ex(msg, "execute", &v)) {
		refuse(q, id, "GenericError", "Expected 'execute'");
	} else {
		cmd = json_object_get_string(v);
		command(q, cmd, args, id);
	}
	json_object_put(msg);
}

char *
sq_output(struct sq *q)
{
	struct line	*l = q->out;
	char		*s;

	if (l == NULL)
		return NULL;
	q->out = l->next;
	if (q->out == NULL)
		q->out_tail = NULL;
	s = l->text;
	free(l);
	return s;
}

double
sq_due(const struct sq *q)
{
	return q->alive ? q->due : NEVER;
}

/* The target's load of a stream its source completed. */
static void
load(struct sq *t, double at)
{
	if (t != NULL && t->alive && !t->guest)
		schedule(t, MV_LOADED, at);
}

int
sq_advance(struct sq *q, double now)
{
	enum move m = q->move;

	q->now = now;
	if (!q->alive || now < q->due)
		return 0;
	q->move = MV_NONE;
	q->due = NEVER;
	switch (m) {
	case MV_ACTIVE:
		if (q->peer == NULL) {
			/* Nobody listens: QEMU says so only by failing. */
			set_status(q, "failed");
			break;
		}
		set_status(q, "active");
		schedule(q, MV_COMPLETE, q->mig_start + q->cfg.converge);
		break;
	case MV_COMPLETE:
		set_run(q, "finish-migrate");
		if (q->return_path && q->peer != NULL) {
			/* 7.2 says active all along, vCPUs stopped. */
			q->awaiting = 1;
		} else {
			set_status(q, "completed");
			set_run(q, "postmigrate");
		}
		if (q->peer != NULL) {
			q->peer->now = now;
			load(q->peer, now + q->peer->cfg.load);
		}
		break;
	case MV_CANCELLED:
		set_status(q, "cancelled");
		stream_broken(q->peer);
		q->peer = NULL;
		break;
	case MV_LOADED:
		if (q->cfg.load_fails) {
			stream_broken(q);
			break;
		}
		q->guest = 1;
		set_status(q, "completed");
		if (q->peer != NULL) {
			q->peer->now = now;
			verdict(q->peer, 1);
		}
		set_run(q, q->autostart && q->peer != NULL &&
		    q->peer->was_running ? "running" : "paused");
		break;
	case MV_EXIT:
		sq_kill(q);
		break;
	case MV_NONE:
		break;
	}
	return 1;
}

void
sq_kill(struct sq *q)
{
	q->alive = 0;
	q->due = NEVER;
	if (q->peer != NULL && q->peer->peer == q) {
		q->peer->now = q->now;
		if (!q->cfg.incoming)
			stream_broken(q->peer);
		else if (q->peer->awaiting)
			verdict(q->peer, 0);
		else if (strcmp(q->peer->st, "active") == 0 ||
		    strcmp(q->peer->st, "setup") == 0) {
			q->peer->now = q->now;
			set_status(q->peer, "failed");
			q->peer->move = MV_NONE;
			q->peer->due = NEVER;
		}
	}
}

int
sq_listens(const struct sq *q, const char *uri)
{
	return q->alive && q->cfg.incoming && q->listen_uri[0] != '\0' &&
	    !q->path_gone && strcmp(q->listen_uri, uri) == 0;
}

int
sq_unlink(struct sq *q, const char *path)
{
	if (q->listen_uri[0] == '\0' || q->path_gone ||
	    strncmp(q->listen_uri, "unix:", 5) != 0 ||
	    strcmp(q->listen_uri + 5, path) != 0)
		return -1;
	q->path_gone = 1;
	return 0;
}

int
sq_alive(const struct sq *q)
{
	return q->alive;
}

int
sq_runs_guest(const struct sq *q)
{
	return q->alive && q->guest && strcmp(q->rs, "running") == 0;
}

int
sq_has_guest(const struct sq *q)
{
	return q->alive && q->guest;
}

const char *
sq_status(const struct sq *q)
{
	return q->st;
}

const char *
sq_runstate(const struct sq *q)
{
	return q->rs;
}
