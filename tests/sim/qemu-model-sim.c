/*
 * qemu-model-sim.c: the simulator's QEMU (qemu-model.h, "the simulator's
 * QEMU"): a model state plus the world around it.  Commands come in as
 * the lines qmigrate's qmp/ client writes and leave as QEMU's answer and
 * event lines; QEMU's own rows are taken as time passes (qm_advance),
 * and the rows of the stream and the load only when the world allows
 * them: a source connects to the target the world's listener names, the
 * target loads once the source sent the device state (so a cancel after
 * that, the N3 window, still lets the target run the guest), the source
 * with a return path completes on the target's verdict, a load fails
 * when qm_fail_load said so.  A migrate to file: (cpr-exec's) needs no
 * listener: the file takes the stream.  cpr-exec's exec keeps the
 * process and swaps its model for the new command line's (qemu-model.h,
 * "cpr-exec ... as the world sees it").  Which of several allowed rows
 * comes first is the world's choose(): every choice is QEMU's table's,
 * none ours.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qemu-canned.h"
#include "qemu-model.h"
#include "qemu-model-sim.h"

static void	exec_command(struct qm_qemu *, struct json_object *);
static void	exec_reborn(struct qm_qemu *);

static void
push_line(struct qm_qemu *q, char *line)
{
	if (line == NULL)
		return;
	if (q->nout == MAX_OUT) {
		free(line);	/* a monitor nobody reads: QEMU drops too */
		return;
	}
	q->out[(q->out_head + q->nout) % MAX_OUT] = line;
	q->nout++;
}

/*
 * The source's vCPUs stopped during pre-copy (a stop, the controller's
 * pause) dirty nothing: what is left goes at the link's speed, so pre-copy
 * converges PAUSED_DRAIN s later whatever the world's converge said.
 */
#define PAUSED_DRAIN	4.0
static void
note_stopped(struct qm_qemu *q)
{
	if (q->s.flags & QM_IF_INCOMING)
		return;
	if (q->s.status != QM_ST_ACTIVE || q->s.runstate == QM_RS_RUNNING)
		q->stopped_at = 0;
	else if (q->stopped_at == 0)
		q->stopped_at = q->now;
}

/*
 * A source whose target QEMU is stopped (SIGSTOP): the target reads
 * nothing, so the stream's socket buffers fill within milliseconds and
 * the migration thread sleeps in its write (the kernel still took the
 * connect).  Its monitor answers (the main loop is not that thread), its
 * status stays as it was, its figures stand still, and nothing that
 * needs the stream to flow happens until the target continues.
 */
static int
stalled(const struct qm_qemu *q)
{
	const struct qm_qemu	*p = q->peer;

	return !(q->s.flags & QM_IF_INCOMING) && !q->to_file && p != NULL &&
	    p->peer == q && p->s.alive && p->sigstopped && q->connected;
}

/* The stream's clock: it stands from the target's stop. */
static double
stream_now(const struct qm_qemu *q)
{
	return stalled(q) ? fmin(q->now, fmax(q->peer->sigstop_at,
	    q->mig_start)) : q->now;
}

double
qm_shifted(double t0, double since, double now)
{
	if (t0 <= 0 || t0 > now)
		return t0;
	return t0 + now - fmax(since, t0);
}

/* Moves the state's pending events to the output. */
static void
flush_events(struct qm_qemu *q)
{
	int	 i;

	for (i = 0; i < q->s.npending && i < QM_MAX_PENDING; i++)
		push_line(q, qm_event_line(&q->s, &q->s.pending[i], q->now));
	q->s.npending = 0;
	memset(q->s.pending, 0, sizeof q->s.pending);
}

static void
wake(struct qm_qemu *q, double now)
{
	if (q != NULL && q->s.alive && now + STEP < q->next)
		q->next = now + STEP;
}

struct qm_qemu *
qm_new(const struct qm_config *cfg, const struct qm_world *w)
{
	struct qm_qemu	*q;

	if ((q = calloc(1, sizeof *q)) == NULL)
		abort();
	q->cfg = *cfg;
	q->w = *w;
	qm_state_init(&q->s, cfg);
	q->next = INFINITY;
	q->converge_after = -1;
	return q;
}

void
qm_free(struct qm_qemu *q)
{
	size_t	 i;

	if (q == NULL)
		return;
	if (q->peer != NULL && q->peer->peer == q)
		q->peer->peer = NULL;
	for (i = 0; i < QM_MAX_NODES; i++)
		if (q->nodes[i].target != NULL)
			qd_forget(q, q->nodes[i].target);
	if (q->nbd_client != NULL)
		qd_forget(q, q->nbd_client);
	qm_free(q->image);
	for (i = 0; i < q->nout; i++)
		free(q->out[(q->out_head + i) % MAX_OUT]);
	for (i = 0; i < q->nin; i++)
		free(q->in[i]);
	free(q);
}

const struct qm_state *
qm_state(const struct qm_qemu *q)
{
	return &q->s;
}

const char *
qm_listen_uri(const struct qm_qemu *q)
{
	return q->s.alive && (q->s.flags & QM_IF_LISTENING) ? q->uri : NULL;
}

int
qm_binds(const struct qm_qemu *q)
{
	return q->binds;
}

int
qm_accept_queued(const struct qm_qemu *q)
{
	return q->s.alive && q->peer != NULL && q->connected &&
	    (q->s.status == QM_ST_SETUP || q->s.status == QM_ST_NONE) &&
	    (q->s.flags & QM_IF_LISTENING) ? 1 : 0;
}

char *
qm_greeting(const struct qm_qemu *q)
{
	static const int ver[QM_NVERSIONS][3] = {
		{ 7, 2, 22 }, { 10, 0, 13 }, { 11, 1, 3 } };
	char	*line;
	int	 v = q->s.version;

	if (asprintf(&line, "{\"QMP\": {\"version\": {\"qemu\": {\"micro\": "
	    "%d, \"minor\": %d, \"major\": %d}, \"package\": \"model\"}, "
	    "\"capabilities\": [\"oob\"]}}", ver[v][2], ver[v][1],
	    ver[v][0]) == -1)
		abort();
	return line;
}

/* The destination of migrate: its uri, or the main channel's path. */
static void
migrate_dest(struct json_object *o, char *buf, size_t size)
{
	struct json_object	*a, *v, *ch, *addr;
	size_t			 i, n;

	buf[0] = '\0';
	if (!json_object_object_get_ex(o, "arguments", &a))
		return;
	if (json_object_object_get_ex(a, "uri", &v)) {
		snprintf(buf, size, "%s", json_object_get_string(v));
		return;
	}
	if (!json_object_object_get_ex(a, "channels", &ch) ||
	    !json_object_is_type(ch, json_type_array))
		return;
	n = json_object_array_length(ch);
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(ch, i);
		if (!json_object_object_get_ex(v, "channel-type", &a) ||
		    strcmp(json_object_get_string(a), "main") != 0 ||
		    !json_object_object_get_ex(v, "addr", &addr))
			continue;
		if (json_object_object_get_ex(addr, "path", &a))
			snprintf(buf, size, "unix:%s",
			    json_object_get_string(a));
	}
}

/* o's text as QEMU writes a line (o put). */
static char *
line_of(struct json_object *o)
{
	char	*out;

	if ((out = strdup(json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN))) == NULL)
		abort();
	json_object_put(o);
	return out;
}

/* json_tokener_parse(line) with one tokener for all: a new one's
   allocation was a third of the parse (every command comes here). */
static struct json_object *
parse(const char *line)
{
	static struct json_tokener	*tok;
	struct json_object		*o;

	if (tok == NULL && (tok = json_tokener_new()) == NULL)
		abort();
	json_tokener_reset(tok);
	o = json_tokener_parse_ex(tok, line, -1);
	if (json_tokener_get_error(tok) != json_tokener_success) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/*
 * A listening target's query-migrate names its socket (QEMU's
 * fill_destination_migration_info: mis->socket_address_list, from
 * migrate-incoming until migration_incoming_state_destroy at the end of
 * the load; the traces: 7.2 gives it before any status, none once
 * completed or failed).  The state holds no URI; the world does.
 */
static void
with_socket_address(const struct qm_qemu *q, struct json_object *o)
{
	struct json_object	*ret, *list, *a;

	if (!(q->s.flags & QM_IF_INCOMING) ||
	    !(q->s.flags & QM_IF_LISTENING) ||
	    q->s.status == QM_ST_COMPLETED || q->s.status == QM_ST_FAILED ||
	    strncmp(q->uri, "unix:", 5) != 0 ||
	    !json_object_object_get_ex(o, "return", &ret))
		return;
	a = json_object_new_object();
	json_object_object_add(a, "path", json_object_new_string(q->uri + 5));
	json_object_object_add(a, "type", json_object_new_string("unix"));
	list = json_object_new_array();
	json_object_array_add(list, a);
	json_object_object_add(ret, "socket-address", list);
}

/*
 * A source's query-migrate with the world's pace (its converge hook):
 * QEMU's ram figures, a straight line from migrate to the moment pre-copy
 * converges (then the rest in post-copy over postcopy_len), or, for a
 * migration that never converges, remaining memory falling to 40% and
 * staying there with the guest dirtying as fast as the link sends: what
 * a controller reads to decide.  The model's state holds no figures
 * (the checker does not judge them); the world's pace is here.
 */
#define RAM_TOTAL	1073741824.0
#define LINK_MBPS	800.0
static void
with_progress(const struct qm_qemu *q, struct json_object *o)
{
	struct json_object	*ret, *ram;
	double			 sn = stream_now(q);
	double			 el = sn - q->mig_start, left, dirty = 0;

	if (q->w.converge == NULL || (q->s.flags & QM_IF_INCOMING) ||
	    q->s.status == QM_ST_NONE ||
	    !json_object_object_get_ex(o, "return", &ret) ||
	    !json_object_object_get_ex(ret, "ram", &ram))
		return;
	if (q->postcopy_at > 0)
		left = q->postcopy_len > 0 ? 0.3 * fmax(0, 1 - fmax(0, sn -
		    q->postcopy_at) / q->postcopy_len) : 0;
	else if (q->stopped_at > 0)
		left = 0.4 * fmax(0, 1 - fmax(0, sn - q->stopped_at) /
		    PAUSED_DRAIN);
	else if (q->converge_after < 0) {
		left = fmax(0.4, 1 - el / 10);
		dirty = LINK_MBPS * 1e6 / 8 / 4096;
	} else
		left = q->converge_at > q->mig_start ? fmax(0, 1 - el /
		    (q->converge_at - q->mig_start)) : 0;
	if (q->s.status == QM_ST_COMPLETED)
		left = 0;
	json_object_object_add(ram, "total",
	    json_object_new_int64((int64_t)RAM_TOTAL));
	json_object_object_add(ram, "remaining",
	    json_object_new_int64((int64_t)(left * RAM_TOTAL)));
	json_object_object_add(ram, "transferred",
	    json_object_new_int64((int64_t)(fmax(0, el) * LINK_MBPS * 1e6 /
	    8)));
	json_object_object_add(ram, "dirty-pages-rate",
	    json_object_new_int64((int64_t)dirty));
	json_object_object_add(ram, "dirty-sync-count",
	    json_object_new_int64(1 + (int64_t)(fmax(0, el) / 2)));
	json_object_object_add(ram, "page-size", json_object_new_int64(4096));
	json_object_object_add(ram, "mbps", json_object_new_double(LINK_MBPS));
}

/*
 * The setup's static queries (the device tree, the CPUs, memory, KVM,
 * SEV, the network: nothing the model's state holds) answered as a real
 * QEMU of the version did for the test guest (qemu-canned.h, from the
 * traces); NULL where the traces have no such answer (the model's own
 * then serves).
 */
static char *
canned_answer(const struct qm_qemu *q, const char *name,
    struct json_object *o)
{
	static const char *const statics[] = { "qom-get", "qom-list",
	    "query-cpus-fast", "query-kvm", "query-memory-size-summary",
	    "query-uuid", "query-sev", "human-monitor-command",
	    "query-balloon", "query-rx-filter", NULL };
	static const struct canned *const table[QM_NVERSIONS] = {
	    canned_7_2, canned_10_0, canned_11_1 };
	const struct canned	*t = table[q->s.version];
	struct json_object	*a = NULL, *v, *id;
	const char		*arg[3] = { "", "", "" };
	static const char *const names[3] = { "path", "property",
	    "command-line" };
	char			 key[512], *line;
	size_t			 i, n;

	for (i = 0; statics[i] != NULL && strcmp(statics[i], name) != 0; i++)
		;
	if (statics[i] == NULL)
		return NULL;
	(void)json_object_object_get_ex(o, "arguments", &a);
	for (i = 0; i < 3; i++)
		if (a != NULL && json_object_object_get_ex(a, names[i], &v))
			arg[i] = json_object_get_string(v);
	snprintf(key, sizeof key, "%s|%s|%s|%s", name, arg[0], arg[1], arg[2]);
	for (i = 0; t[i].key != NULL && strcmp(t[i].key, key) != 0; i++)
		;
	if (t[i].key == NULL)
		return NULL;
	/* {"return": ...}: the id goes in before the closing brace */
	n = strlen(t[i].answer);
	if (!json_object_object_get_ex(o, "id", &id))
		line = strdup(t[i].answer);
	else if (asprintf(&line, "%.*s,\"id\":%s}", (int)n - 1, t[i].answer,
	    json_object_to_json_string(id)) == -1)
		line = NULL;
	if (line == NULL)
		abort();
	return line;
}

static void
command(struct qm_qemu *q, const char *line)
{
	struct json_object	*o;
	struct qm_cmd		 c;
	struct qm_qemu		*t;
	char			*canned;
	int			 idx[16], certain, i;
	size_t			 nr;

	if ((o = parse(line)) == NULL || qm_cmd_parse_json(o, &c) != 0) {
		json_object_put(o);
		push_line(q, strdup("{\"error\": {\"class\": \"GenericError\", "
		    "\"desc\": \"JSON parse error\"}}"));
		return;
	}
	if ((canned = canned_answer(q, c.name, o)) != NULL) {
		push_line(q, canned);
		json_object_put(o);
		return;
	}
	nr = qm_refusals_for(&q->s, &c, idx, 16, &certain);
	if (certain) {
		for (i = 0; i < (int)nr && qm_refusals[idx[i]].may; i++)
			;
		push_line(q, qm_answer(&q->s, &c, idx[i]));
		json_object_put(o);
		return;
	}
	/* A "may" refusal the block layer's world decides (qd_refusal). */
	if ((canned = qd_refusal(q, &c, o)) != NULL) {
		push_line(q, canned);
		json_object_put(o);
		return;
	}
	(void)qm_apply_cmd(&q->s, &c);
	qd_command(q, &c, o);
	if (strcmp(c.name, "migrate") == 0 && !(c.args & QM_IF_RESUME)) {
		migrate_dest(o, q->uri, sizeof q->uri);
		/* file: (cpr-exec's): QEMU writes the stream to a file. */
		q->to_file = strncmp(q->uri, "file:", 5) == 0;
		t = q->w.listener != NULL && !q->to_file ?
		    q->w.listener(q->w.arg, q->uri) : NULL;
		q->peer = t;
		q->connected = t != NULL;
		q->no_listener = t == NULL && !q->to_file;
		q->unreached = 0;
		q->sent_device = q->pc_switch = 0;
		q->steps = 0;
		q->mig_start = q->now;
		q->postcopy_at = 0;
		q->postcopy_len = q->w.postcopy_len != NULL ?
		    q->w.postcopy_len(q->w.arg) : 0;
		if (q->w.converge != NULL) {
			double s = q->w.converge(q->w.arg);

			q->converge_after = s < 0 ? -1 : 0;
			q->converge_at = q->now + s;
		} else {
			q->converge_after = q->w.choose(q->w.arg, 8) == 0 ?
			    -1 : 2 + q->w.choose(q->w.arg, 30);
			q->converge_at = 0;
		}
		if (t != NULL) {
			t->peer = q;
			t->connected = 1;
			wake(t, q->now);
		}
	} else if (strcmp(c.name, "migrate") == 0) {
		/* resume: a new connection for the paused stream, made to
		   whoever listens at its URI now (a removed unix: path
		   reaches no one); a target still loading from the old one
		   sees it broken all the same (its listen thread's read
		   fails: postcopy_pause_incoming) */
		char uri[sizeof q->uri];

		migrate_dest(o, uri, sizeof uri);
		q->unreached = q->w.listener == NULL ||
		    q->w.listener(q->w.arg, uri) != q->peer;
		q->broken = 0;
		if (q->peer != NULL && !q->unreached &&
		    q->peer->s.status != QM_ST_POSTCOPY_ACTIVE &&
		    q->peer->s.status != QM_ST_POSTCOPY_DEVICE)
			q->peer->broken = 0;
	} else if (strcmp(c.name, "migrate-incoming") == 0 ||
	    strcmp(c.name, "migrate-recover") == 0) {
		migrate_dest(o, q->uri, sizeof q->uri);
		q->broken = 0;
		q->binds++;	/* a unix: path made anew */
	}
	else if (strcmp(c.name, "migrate-set-parameters") == 0)
		exec_command(q, o);
	json_object_put(o);
	note_stopped(q);
	flush_events(q);
	if (strcmp(c.name, "query-migrate") == 0) {
		/* What the world holds, added to the model's answer. */
		o = qm_answer_json(&q->s, &c, -1);
		with_socket_address(q, o);
		with_progress(q, o);
		push_line(q, line_of(o));
	} else
		push_line(q, qd_answer(q, &c, qm_answer(&q->s, &c, -1)));
	wake(q, q->now);
	wake(q->peer, q->now);
}

void
qm_input(struct qm_qemu *q, const char *line, double now)
{
	if (!q->s.alive)
		return;
	q->now = now;
	if (q->sigstopped) {
		if (q->nin < MAX_OUT)
			q->in[q->nin++] = strdup(line);
		return;
	}
	command(q, line);
}

char *
qm_output(struct qm_qemu *q)
{
	char	*line;

	if (q->nout == 0 || q->sigstopped)
		return NULL;
	line = q->out[q->out_head];
	q->out_head = (q->out_head + 1) % MAX_OUT;
	q->nout--;
	return line;
}

double
qm_due(const struct qm_qemu *q)
{
	if (q->exec_phase == QM_XP_GAP)
		return q->exec_until;
	return q->s.alive && !q->sigstopped ? q->next : INFINITY;
}

/* Is a migration or a job under way (so QEMU's own time passes)? */
static int
busy(const struct qm_qemu *q)
{
	int	 j;

	for (j = 0; j < q->s.njobs; j++)
		if (q->s.jobs[j].status != QM_JOB_NULL &&
		    q->s.jobs[j].status != QM_JOB_CONCLUDED)
			return 1;
	switch (q->s.status) {
	case QM_ST_NONE:
	case QM_ST_CANCELLED:
	case QM_ST_FAILED:
		return q->s.runstate == QM_RS_FINISH_MIGRATE;
	case QM_ST_COMPLETED:
		return q->s.runstate == QM_RS_FINISH_MIGRATE ||
		    q->s.runstate == QM_RS_INMIGRATE;
	default:
		return 1;
	}
}

/* Has a source's migration ended (its stream closed)? */
static int
ended(const struct qm_qemu *p)
{
	return p->s.status == QM_ST_CANCELLING ||
	    p->s.status == QM_ST_CANCELLED || p->s.status == QM_ST_FAILED ||
	    p->s.status == QM_ST_FAILING;
}

/* The world's say on a row that is not a command (1: it may happen;
   a job row may note an NBD link it finds broken). */
static int
permitted(struct qm_qemu *q, int entry)
{
	const struct qm_row	*r = &qm_rows[entry & 0xffff];
	const struct qm_qemu	*p = q->peer;
	const char		*n = r->cmd;
	int			 incoming = (q->s.flags & QM_IF_INCOMING) != 0;

	if (r->kind == QM_ROW_JOB)
		return qd_permitted(q, n, entry >> 16);
	/* cpr-exec's bottom half: the world drew whether execvp works. */
	if (strcmp(n, "exec") == 0)
		return q->exec_outcome != QM_EXEC_EXECVP_FAILS;
	if (strcmp(n, "exec-failed") == 0)
		return q->exec_outcome == QM_EXEC_EXECVP_FAILS;
	if (r->trigger == QM_T_PROCESS)
		return strcmp(n, "exit-on-error") == 0 ||
		    strcmp(n, "shutdown-cancel") == 0 ||
		    strcmp(n, "exit") == 0;
	if (!incoming) {
		/* Its target stopped (SIGSTOP): what must be written or
		   read through the stream waits (stalled above): pre-copy's
		   rounds and so its convergence, post-copy's start (7.2's
		   status change included: the thread sits in a write) and
		   its pages, the last bytes without a return path, a
		   resume's handshake, 11.1's word that the target runs.
		   Not a resume's connect (recover-connected: the kernel
		   takes it into the stopped QEMU's backlog, and
		   migrate_fd_connect moves the status at once), nor its
		   refusal where nothing listens (7.2 before migrate-recover:
		   the kernel refuses it at once; sim-real seed 4007269: a
		   resume refused so was held pending until the target
		   listened, and the source recovered after its 6). */
		if (stalled(q) && (strcmp(n, "switchover") == 0 ||
		    strcmp(n, "switchover-stopped") == 0 ||
		    strcmp(n, "stream-written") == 0 ||
		    strcmp(n, "postcopy-start") == 0 ||
		    strcmp(n, "postcopy-continued") == 0 ||
		    strcmp(n, "postcopy-running") == 0 ||
		    strcmp(n, "postcopy-done") == 0 ||
		    strcmp(n, "recovered") == 0 ||
		    (strcmp(n, "recover-failed") == 0 && !q->unreached &&
		    (q->s.version != QM_V7_2 ||
		    (p->s.flags & QM_IF_RECOVERING)))))
			return 0;
		if (strcmp(n, "connect-failed") == 0)
			return !q->to_file && (q->no_listener || p == NULL ||
			    !p->s.alive);
		/* cpr stops the guest before its setup ends (the cpr-stop
		   rows' migration_thread): STOP comes before active (seen in
		   cpr-exec-11.1 and cpr-transfer-11.1). */
		if (strcmp(n, "setup-done") == 0 && (q->s.flags & QM_IF_CPR) &&
		    !(q->s.flags & QM_IF_SWITCHED))
			return 0;
		if (strcmp(n, "setup-done") == 0 || strcmp(n, "cpr-stop") ==
		    0 || strcmp(n, "cpr-stop-stopped") == 0)
			return q->to_file || (q->connected && p != NULL &&
			    p->s.alive);
		/* 7.2's post-copy stops the vCPUs by rows of its own
		   (postcopy-start, postcopy-stop), but with
		   pause-before-switchover by the switchover's (then
		   pause-before, postcopy-continued) */
		if ((strcmp(n, "switchover") == 0 ||
		    strcmp(n, "switchover-stopped") == 0) &&
		    q->s.version == QM_V7_2 &&
		    (q->s.flags & QM_IF_START_POSTCOPY) &&
		    !(q->s.flags & QM_IF_PAUSE_BEFORE))
			return 0;
		/* out of the pause: post-copy's start goes on in post-copy,
		   the completion's in DEVICE */
		if (strcmp(n, "postcopy-continued") == 0)
			return q->pc_switch;
		if (strcmp(n, "continued") == 0 && q->s.version == QM_V7_2 &&
		    q->pc_switch)
			return 0;
		/* a switchover made for post-copy goes on in post-copy; a
		   pre-copy one completes, a later migrate-start-postcopy
		   notwithstanding */
		if (strcmp(n, "postcopy-start") == 0 &&
		    q->s.version != QM_V7_2)
			return q->pc_switch;
		if (strcmp(n, "stream-written") == 0 ||
		    strcmp(n, "target-loaded") == 0)
			if (q->pc_switch)
				return 0;
		if (strcmp(n, "switchover") == 0 ||
		    strcmp(n, "switchover-stopped") == 0)
			return (q->converge_after >= 0 &&
			    q->steps >= q->converge_after &&
			    q->now >= q->converge_at) ||
			    /* postcopy_start stops the vCPUs as soon as
			       what must go before it fits (10.0 on: the
			       switchover and device rows, then post-copy;
			       7.2's has rows of its own) */
			    ((q->s.flags & QM_IF_START_POSTCOPY) &&
			    (q->s.version != QM_V7_2 ||
			    (q->s.flags & QM_IF_PAUSE_BEFORE))) ||
			    (q->stopped_at > 0 &&
			    q->now >= q->stopped_at + PAUSED_DRAIN);
		/* The last bytes sit in the socket's buffers: the source
		   completes even when the target dies on them (N1). */
		if (strcmp(n, "stream-written") == 0)
			return (p != NULL || q->to_file) && q->sent_device &&
			    (!q->broken || (p != NULL && p->verdict == 1));
		if (strcmp(n, "postcopy-done") == 0)
			return p != NULL && p->s.alive && !q->broken &&
			    p->verdict != -1 &&
			    q->postcopy_at > 0 &&
			    q->now >= q->postcopy_at + q->postcopy_len;
		if (strcmp(n, "target-loaded") == 0)
			return p != NULL && p->verdict == 1;
		if (strcmp(n, "target-failed") == 0)
			return !q->to_file && (p == NULL || p->verdict == -1 ||
			    !p->s.alive);
		/* A target that loaded the guest had every byte: without a
		   return path nothing is read after them, and the source
		   completes, a break since notwithstanding (tls:'s
		   proxies; seeds 2070749 2072916). */
		if (strcmp(n, "stream-broke") == 0)
			return (q->broken || (!q->to_file && (p == NULL ||
			    !p->s.alive))) && !(p != NULL && p->verdict == 1 &&
			    (q->s.flags & QM_IF_SWITCHED) &&
			    !(q->s.flags & QM_IF_RETURN_PATH));
		/* 11.1 before the target's word that it runs: a break fails
		   the migration (the guest runs here again).  Only where
		   the target did not take the package: one that did runs
		   the guest from it, and its word is taken as come (the
		   window where it is lost with the break, QEMU running the
		   guest on both sides, is not modelled). */
		if (strcmp(n, "postcopy-device-broke") == 0)
			return (q->broken || p == NULL || !p->s.alive) &&
			    !(p != NULL && (p->s.status ==
			    QM_ST_POSTCOPY_DEVICE || p->s.status ==
			    QM_ST_POSTCOPY_ACTIVE || (p->s.flags &
			    QM_IF_GUEST)));
		/* A target whose post-copy load failed closes the stream
		   and the return path: the source pauses (postcopy_pause). */
		if (strcmp(n, "postcopy-broke") == 0)
			return q->broken || p == NULL || !p->s.alive ||
			    p->verdict == -1;
		if (strcmp(n, "recover-connected") == 0)
			return p != NULL && p->s.alive && !q->broken &&
			    !q->unreached &&
			    ((p->s.flags & QM_IF_RECOVERING) ||
			    (q->s.version != QM_V7_2 &&
			    p->s.status == QM_ST_POSTCOPY_PAUSED));
		/* ... and completes only once the target resumed on the new
		   connection (loadvm_postcopy_handle_resume: POSTCOPY_ACTIVE,
		   then its RESUME_ACK) */
		if (strcmp(n, "recovered") == 0)
			return p != NULL && p->s.alive && !q->broken &&
			    !q->unreached &&
			    p->s.status == QM_ST_POSTCOPY_ACTIVE;
		/* nobody to resume with: a target that is not paused
		   in post-copy (its load failed) refuses the connection */
		if (strcmp(n, "recover-failed") == 0)
			return p == NULL || !p->s.alive || q->unreached ||
			    (!(p->s.flags & QM_IF_RECOVERING) &&
			    (q->s.version == QM_V7_2 ||
			    p->s.status != QM_ST_POSTCOPY_PAUSED));
		return r->trigger == QM_T_QEMU;
	}
	/* the target */
	if (strcmp(n, "accepted") == 0)
		return q->connected && p != NULL;
	/* Only a source that came back on a new connection (its migrate
	   resume clears its break): one the world stopped (SIGSTOP) before
	   it saw its stream break still says postcopy-active, and sends
	   nothing (long run at 3fc1633: seeds 3028855 3030006 3037384
	   3037705, the target "recovered" while its source sat paused for
	   ever). */
	if (strcmp(n, "recover-accepted") == 0 ||
	    strcmp(n, "recovered-incoming") == 0)
		return p != NULL && p->s.alive && !q->broken &&
		    !p->broken &&
		    (p->s.status == QM_ST_POSTCOPY_RECOVER_SETUP ||
		    p->s.status == QM_ST_POSTCOPY_RECOVER ||
		    p->s.status == QM_ST_POSTCOPY_ACTIVE);
	if (strcmp(n, "postcopy-broke-incoming") == 0)
		return q->broken || p == NULL || !p->s.alive;
	/* A failing load fails on the device state (its last section). */
	/* In post-copy a broken stream pauses the load (the listen
	   thread's postcopy_pause_incoming); only a bad section fails it. */
	if (strcmp(n, "postcopy-load-failed") == 0)
		return q->fail_load && p != NULL && p->sent_device;
	/* A target nothing connected to yet waits (a source whose disks
	   copy first migrates late); one whose source went fails. */
	if (strcmp(n, "load-failed") == 0)
		return (q->fail_load && p != NULL && p->sent_device) ||
		    q->broken || (p == NULL ? q->connected :
		    (!p->s.alive && !(q->s.flags & QM_IF_GUEST)) ||
		    ended(p));
	/* postcopy_start's package: LISTEN, then the device state (where
	   a failing load fails), then RUN. */
	if (strcmp(n, "postcopy-listen") == 0 && q->fail_load)
		return p != NULL && (p->s.flags & QM_IF_START_POSTCOPY) &&
		    (p->s.status == QM_ST_POSTCOPY_ACTIVE ||
		    p->s.status == QM_ST_POSTCOPY_DEVICE ||
		    p->s.status == QM_ST_COMPLETED);
	if (q->fail_load || p == NULL)
		return 0;
	/* loadvm_postcopy_handle_run_bh: 7.2 starts the guest on
	   autostart alone; 9.0 on, the run state the stream carries (a
	   guest stopped on the source stays paused) */
	if (q->s.version != QM_V7_2 && (strcmp(n, "postcopy-run") == 0 ||
	    strcmp(n, "postcopy-run-paused") == 0) &&
	    p->s.old_rs != QM_RS_RUNNING)
		return 0;
	if (strcmp(n, "postcopy-run-stopped") == 0 &&
	    p->s.old_rs == QM_RS_RUNNING)
		return 0;
	/* postcopy_start's package is one MIG_CMD_PACKAGED blob, read
	   whole before its commands run (loadvm_handle_cmd_packaged): once
	   LISTEN ran, the device state and RUN follow from that buffer,
	   whatever became of the stream or the source since. */
	if ((strcmp(n, "postcopy-device-loaded") == 0 ||
	    strncmp(n, "postcopy-run", 12) == 0) &&
	    (q->s.status == QM_ST_POSTCOPY_DEVICE ||
	    q->s.status == QM_ST_POSTCOPY_ACTIVE))
		return 1;
	/* Post-copy only from a source that started it (its stream's
	   POSTCOPY_LISTEN): a pre-copy source completed before the load
	   (no return path; cpr-exec's file) is loaded as pre-copy. */
	if (strcmp(n, "postcopy-listen") == 0 ||
	    strcmp(n, "postcopy-device-loaded") == 0 ||
	    strcmp(n, "postcopy-run") == 0 ||
	    strcmp(n, "postcopy-run-paused") == 0 ||
	    strcmp(n, "postcopy-run-stopped") == 0)
		return (p->s.flags & QM_IF_START_POSTCOPY) &&
		    (p->s.status == QM_ST_POSTCOPY_ACTIVE ||
		    p->s.status == QM_ST_POSTCOPY_DEVICE ||
		    p->s.status == QM_ST_COMPLETED);
	if (strcmp(n, "postcopy-loaded") == 0)
		return (p->s.flags & QM_IF_START_POSTCOPY) &&
		    p->s.status == QM_ST_COMPLETED;
	if (!p->sent_device || p->pc_switch)
		return strcmp(n, "load-complete") == 0;
	/* A stream broken before the target loaded the device state
	   cannot finish it (load-failed). */
	if (strncmp(n, "loaded-", 7) == 0 && q->broken)
		return 0;
	/* The global state the stream carries: the source's run state. */
	if (strcmp(n, "loaded-run") == 0)
		return p->s.old_rs == QM_RS_RUNNING;
	if (strcmp(n, "loaded-paused") == 0)
		return p->s.old_rs != QM_RS_PRELAUNCH &&
		    (p->s.old_rs != QM_RS_RUNNING ||
		    !(q->s.flags & QM_IF_AUTOSTART));
	if (strcmp(n, "loaded-prelaunch") == 0)
		return p->s.old_rs == QM_RS_PRELAUNCH;
	return r->trigger == QM_T_QEMU;
}

/* After a row: what the world learns from it. */
static void
took(struct qm_qemu *q, int entry)
{
	const char	*n = qm_rows[entry & 0xffff].cmd;

	if (qm_rows[entry & 0xffff].kind == QM_ROW_JOB)
		qd_took(q, n, entry >> 16);
	if (strcmp(n, "switchover") == 0 ||
	    strcmp(n, "switchover-stopped") == 0 ||
	    strcmp(n, "postcopy-start") == 0)
		q->pc_switch = (q->s.flags & QM_IF_START_POSTCOPY) != 0;
	if (strcmp(n, "device") == 0 || strcmp(n, "continued") == 0 ||
	    ((strcmp(n, "switchover") == 0 ||
	    strcmp(n, "switchover-stopped") == 0) &&
	    q->s.version == QM_V7_2 &&
	    !(q->s.flags & QM_IF_PAUSE_BEFORE)) ||
	    strcmp(n, "cpr-stop") == 0 ||
	    /* postcopy_start's package carries the device state */
	    ((strcmp(n, "postcopy-stop") == 0 ||
	    strcmp(n, "postcopy-stop-stopped") == 0) &&
	    q->s.version == QM_V7_2) ||
	    (strcmp(n, "postcopy-start") == 0 && q->s.version != QM_V7_2) ||
	    strcmp(n, "postcopy-continued") == 0)
		q->sent_device = 1;
	if (strncmp(n, "loaded-", 7) == 0 || strncmp(n, "postcopy-run",
	    12) == 0)
		q->verdict = 1;
	if (strcmp(n, "load-failed") == 0 ||
	    strcmp(n, "postcopy-load-failed") == 0)
		q->verdict = -1;
	if (!q->s.alive)
		q->verdict = q->verdict == 1 ? 1 : -1;
	if (strcmp(n, "exec") == 0) {
		/* The new program binds the monitor's path 20-50 ms later
		   (reference/qemu-cpr-exec.md: 9-14 refused connects). */
		q->exec_phase = QM_XP_GAP;
		q->exec_until = q->now + 0.02 + 0.001 * q->w.choose(q->w.arg,
		    31);
	}
}

int
qm_advance(struct qm_qemu *q, double now)
{
	struct qm_enabled_key	 key;
	int			 ok[256], moved = 0;
	size_t			 n, i, k;

	if (now > q->now)
		q->now = now;
	if (q->exec_phase == QM_XP_GAP && now >= q->exec_until) {
		exec_reborn(q);
		moved = 1;
	}
	if (!q->s.alive || q->sigstopped || now < q->next)
		return moved;
	q->next = INFINITY;
	qm_enabled_key(&q->s, &key);
	if (!q->en_valid || memcmp(&key, &q->en_key, sizeof key) != 0) {
		q->en_key = key;
		q->en_n = qm_enabled(&q->s, q->en_rows, 256);
		q->en_valid = 1;
	}
	n = q->en_n;
	for (k = 0, i = 0; i < n; i++)
		if (permitted(q, q->en_rows[i]))
			ok[k++] = q->en_rows[i];
	q->steps++;
	if (k == 0) {
		/* Migrating, or a job running: time still passes. */
		if (busy(q))
			q->next = now + STEP;
		return moved;
	}
	i = k == 1 ? 0 : (size_t)q->w.choose(q->w.arg, (int)k);
	qm_take(&q->s, ok[i]);
	took(q, ok[i]);
	note_stopped(q);
	if (q->s.status == QM_ST_POSTCOPY_ACTIVE && q->postcopy_at == 0 &&
	    !(q->s.flags & QM_IF_INCOMING))
		q->postcopy_at = now;
	flush_events(q);
	q->next = now + STEP;
	wake(q->peer, now);
	return 1;
}

void
qm_kill(struct qm_qemu *q)
{
	if (q->exec_phase != QM_XP_NONE)
		q->exec_phase = QM_XP_EXITED;
	q->s.alive = 0;
	if (q->verdict != 1)
		q->verdict = -1;
	wake(q->peer, q->now);
}

/*
 * The source p's stream stood still from since (its target q stopped):
 * what its pace had due from then on is due as much later (the world's
 * converge, post-copy's last page, a paused guest's drain).
 */
static void
stream_continued(struct qm_qemu *p, double since, double now)
{
	if (p->s.status == QM_ST_NONE || p->mig_start > now)
		return;
	if (p->converge_at > since)
		p->converge_at += now - fmax(since, p->mig_start);
	p->mig_start = qm_shifted(p->mig_start, since, now);
	p->postcopy_at = qm_shifted(p->postcopy_at, since, now);
	p->stopped_at = qm_shifted(p->stopped_at, since, now);
	wake(p, now);
}

void
qm_sigstop(struct qm_qemu *q, int stopped, double now)
{
	size_t	 i;

	if (now > q->now)
		q->now = now;
	if (stopped) {
		if (!q->sigstopped)
			q->sigstop_at = q->now;
		q->sigstopped = 1;
		return;
	}
	if (!q->sigstopped)
		return;
	q->sigstopped = 0;
	if (q->s.alive && q->peer != NULL && q->peer->peer == q &&
	    !(q->peer->s.flags & QM_IF_INCOMING) && q->peer->connected &&
	    !q->peer->to_file)
		stream_continued(q->peer, q->sigstop_at, q->now);
	if (q->s.alive && q->nbd_client != NULL)
		qd_continued(q->nbd_client, q, q->sigstop_at, q->now);
	for (i = 0; i < q->nin; i++) {
		command(q, q->in[i]);
		free(q->in[i]);
	}
	q->nin = 0;
	wake(q, q->now);
}

void
qm_fail_load(struct qm_qemu *target)
{
	target->fail_load = 1;
}

void
qm_break_stream(struct qm_qemu *q)
{
	q->broken = 1;
	if (q->peer != NULL)
		q->peer->broken = 1;
	wake(q, q->now);
	wake(q->peer, q->now);
}

/* ---- cpr-exec: the exec as the world sees it ------------------------ */

/*
 * migrate-set-parameters' cpr-exec-command: the argv QEMU will exec.
 * What the model takes from it is what decides the new QEMU's start:
 * -incoming (a URI, or defer) and -S.
 */
static void
exec_command(struct qm_qemu *q, struct json_object *o)
{
	struct json_object	*a, *argv, *v;
	const char		*w;
	size_t			 i, n;

	if (!json_object_object_get_ex(o, "arguments", &a) ||
	    !json_object_object_get_ex(a, "cpr-exec-command", &argv) ||
	    !json_object_is_type(argv, json_type_array))
		return;
	q->exec_incoming = 0;
	q->exec_stopped = 0;
	q->exec_uri[0] = '\0';
	n = json_object_array_length(argv);
	for (i = 1; i < n; i++) {
		v = json_object_array_get_idx(argv, i);
		if ((w = json_object_get_string(v)) == NULL)
			continue;
		if (strcmp(w, "-S") == 0)
			q->exec_stopped = 1;
		if (strcmp(w, "-incoming") != 0 || i + 1 == n)
			continue;
		w = json_object_get_string(json_object_array_get_idx(argv,
		    i + 1));
		q->exec_incoming = strcmp(w, "defer") == 0 ? 2 : 1;
		snprintf(q->exec_uri, sizeof q->exec_uri, "%s", w);
	}
}

void
qm_set_exec(struct qm_qemu *q, enum qm_exec_outcome outcome)
{
	q->exec_outcome = outcome;
}

/*
 * The exec's gap is over: the new program is up behind the same monitor
 * path, in the same process, or it never binds it.  The new QEMU is a
 * fresh model for its command line; with -incoming it loads the file the
 * old QEMU wrote (image: its state at the exec, the "source" of the
 * load rows), without it boots the guest afresh (reference trap 2).
 */
static void
exec_reborn(struct qm_qemu *q)
{
	struct qm_config	 cfg;
	struct qm_qemu		*img;
	size_t			 i;

	if (q->exec_outcome == QM_EXEC_EXITS) {
		q->exec_phase = QM_XP_EXITED;
		return;
	}
	if (q->exec_outcome == QM_EXEC_SILENT) {
		q->exec_phase = QM_XP_SILENT;
		return;
	}
	img = qm_new(&q->cfg, &q->w);
	img->s = q->s;
	img->s.alive = 1;
	img->sent_device = q->sent_device;
	memset(&cfg, 0, sizeof cfg);
	cfg.version = q->s.version;
	cfg.incoming = q->exec_incoming != 0 &&
	    q->exec_outcome != QM_EXEC_FRESH;
	cfg.listening = cfg.incoming && q->exec_incoming == 1;
	cfg.stopped = q->exec_stopped;
	for (i = 0; i < q->nout; i++)
		free(q->out[(q->out_head + i) % MAX_OUT]);
	for (i = 0; i < q->nin; i++)
		free(q->in[i]);
	q->nout = q->nin = q->out_head = 0;
	q->cfg = cfg;
	qm_state_init(&q->s, &cfg);
	q->image = img;
	q->peer = cfg.incoming ? img : NULL;
	q->connected = cfg.incoming;
	snprintf(q->uri, sizeof q->uri, "%s", cfg.listening ? q->exec_uri :
	    "");
	q->no_listener = q->to_file = q->sent_device = q->verdict = 0;
	q->broken = q->steps = 0;
	q->fail_load = q->exec_outcome == QM_EXEC_LOAD_FAILS;
	q->converge_after = -1;
	q->fresh = !cfg.incoming;
	q->exec_phase = QM_XP_REBORN;
	q->next = q->now + STEP;
}

enum qm_exec_phase
qm_exec_phase(const struct qm_qemu *q)
{
	return q->exec_phase;
}

int
qm_process_alive(const struct qm_qemu *q)
{
	return q->s.alive || q->exec_phase == QM_XP_GAP ||
	    q->exec_phase == QM_XP_SILENT;
}

int
qm_fresh_guest(const struct qm_qemu *q)
{
	return q->fresh;
}
