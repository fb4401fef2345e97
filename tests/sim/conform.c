/*
 * conform.c: replays QMP traces recorded from real QEMU (QMIGRATE_QMP_TRACE,
 * qmp/qmp-trace.c) against the QEMU model (qemu-model.h) and fails on any
 * answer, event or status the model cannot produce.
 *
 *	conform [-v] [--without-row N] [--each-row] [--rows] DIR|FILE...
 *
 * The files of one QEMU process (its pid: the monitor qmigrate used, a
 * re-run's, the test's own `qmigrate qmp` calls) are merged by time into
 * one history.  The model is nondeterministic in timing, so the checker
 * keeps the set of states the QEMU may be in: between two observations
 * QEMU may take any enabled row that is not a command (its own progress,
 * the stream, the load, the process), and may carry out any command sent
 * and not yet answered, in each connection's order.  An observation (an
 * answer, an event) keeps the states it fits; none left is a failure that
 * names the trace, its line and what no path through the table explains.
 * --without-row N hides row N of qm_rows (the unit test that shows a
 * missing row fails a trace); --rows prints the table.  --each-row
 * checks the traces once, then again without each row the checker took
 * on the way, in turn, and prints which trace fails without it: the rows
 * the traces need, a count (conform-rows.sh).
 *
 * A monitor behind tests/qmp-relay joins the history of the QEMU the relay
 * fronts (its last argument): the relay only delays, drops and cuts,
 * which the checker allows anyway.  Other peers (fake peers) are skipped.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "qemu-model.h"

#define MAX_SLOTS	64
/*
 * The search's bound.  A monitor with several commands unanswered at once
 * while events come (a loaded host: session-disk-abort-start.sh's yank,
 * query-block-jobs, block-job-cancel and query-migrate in flight over a
 * mirror's burst of BLOCK_JOB_ERRORs) took 60000 states, over the old bound,
 * though a path exists; 600000 took 12 s and 430 MiB under ASan there.
 */
#define MAX_STATES	600000
#define STR_(x)		#x
#define STR(x)		STR_(x)
#define MAX_FILES	2048	/* rerun-confirm-tls.sh leaves 534 */

struct rec {
	double			 t;		/* when qmigrate logged it */
	double			 made;		/* an event: QEMU's timestamp */
	int			 file;
	int			 line;
	char			 dir;		/* '>', '<', 'x' */
	struct json_object	*m;
	int			 answer;	/* '>': its answer's index */
	int			 answered;	/* '<' answer: the command */
};

struct tfile {
	char			*path;
	long			 pid;
	char			 comm[64];
	char			 home[256];	/* the monitor's directory */
	char			 sock[256];	/* the monitor's socket */
	char			 target[256];	/* a relay's upstream socket */
	int			 relay;		/* through tests/qmp-relay */
	char			 cmdline[1024];	/* the peer's */
	int			 qemu;
};

/* A command sent and not yet answered: a slot. */
struct slot {
	int			 used;
	int			 file;
	int			 conn;		/* the connection's index */
	int			 seq;		/* send order in its file */
	int			 cmd_rec;
	int			 ans_rec;	/* -1: never answered */
	struct qm_cmd		 cmd;
};

/*
 * QEMU sends each event to every monitor that finished qmp_capabilities:
 * a candidate keeps one queue of unseen events per open connection.
 */
#define MAX_CONNS	8
#define MAX_QUEUE	8
struct cand {
	struct qm_state		 s;
	uint64_t		 applied;	/* slots carried out */
	uint32_t		 listening;	/* connections taking events */
	uint8_t			 nq[MAX_CONNS];
	struct qm_event		 q[MAX_CONNS][MAX_QUEUE];
};

struct set {
	struct cand		*c;
	size_t			 n;
	size_t			 cap;
	/* open-addressing hash of indices + 1 */
	uint32_t		*h;
	size_t			 hcap;
};

static int		 verbose;
/*
 * When qmigrate logged the record being explained.  An event's QEMU
 * timestamp is taken as QEMU makes it, a record's "t" when qmigrate read
 * or queued it, on the same clock (gettimeofday, CLOCK_REALTIME).  QEMU
 * changes what a query answers before it makes the event that says so,
 * not after: 7.2's do_vm_stop sets finish-migrate, then pauses the vCPUs
 * (the big lock let go, so a monitor answers meanwhile), and only then
 * makes STOP (seen: a poller answered finish-migrate 2.9 ms before the
 * STOP's timestamp, rerun-confirm-tls.sh).  So an event made after the
 * record at hand may still belong before it, within AHEAD_SLACK; an event
 * made before a command was queued can never follow that command's
 * effect, within MADE_SLACK (the microseconds QEMU's timestamp keeps).
 */
static double		 now_t;
#define MADE_SLACK	0.001
#define AHEAD_SLACK	1.0
static int		 quiet;		/* --each-row: no reports */
static uint64_t		 rows_taken[4];	/* rows the checker took */
static const char	*failed_path;	/* the first failure's trace */

static void
note_taken(int row)
{
	if (row >= 0 && row < 256)
		rows_taken[row / 64] |= 1ull << (row % 64);
}
static struct tfile	 files[MAX_FILES];
static int		 nfiles;
static struct rec	*recs;
static size_t		 nrecs, caprecs;
static struct slot	 slots[MAX_SLOTS];
static int		 failures;
static struct rec	*hist;		/* the QEMU being checked */
static int		 conn_of[MAX_FILES];	/* file -> connection */
static uint32_t		 used_conns;

/* An event's QEMU timestamp in seconds; 0 for anything else. */
static double
event_made(struct json_object *m)
{
	struct json_object	*ts, *sec, *usec;

	if (!json_object_object_get_ex(m, "event", NULL) ||
	    !json_object_object_get_ex(m, "timestamp", &ts) ||
	    !json_object_object_get_ex(ts, "seconds", &sec) ||
	    !json_object_object_get_ex(ts, "microseconds", &usec))
		return 0;
	return (double)json_object_get_int64(sec) +
	    (double)json_object_get_int64(usec) / 1e6;
}

/* ---- sets of candidate states --------------------------------------- */

static uint32_t
hash_cand(const struct cand *c)
{
	const unsigned char	*p = (const unsigned char *)c;
	uint32_t		 h = 2166136261u;
	size_t			 i;

	for (i = 0; i < sizeof *c; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static void
set_clear(struct set *s)
{
	s->n = 0;
	if (s->h != NULL)
		memset(s->h, 0, s->hcap * sizeof *s->h);
}

static void
set_free(struct set *s)
{
	free(s->c);
	free(s->h);
	memset(s, 0, sizeof *s);
}

static void set_rehash(struct set *);

/* Adds c unless present; returns 1 when added. */
static int
set_add(struct set *s, const struct cand *c)
{
	size_t	 i;

	if (s->hcap == 0 || s->n * 2 >= s->hcap)
		set_rehash(s);
	i = hash_cand(c) & (s->hcap - 1);
	while (s->h[i] != 0) {
		if (memcmp(&s->c[s->h[i] - 1], c, sizeof *c) == 0)
			return 0;
		i = (i + 1) & (s->hcap - 1);
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		if ((s->c = realloc(s->c, s->cap * sizeof *s->c)) == NULL)
			abort();
	}
	memcpy(&s->c[s->n], c, sizeof *c);
	s->h[i] = (uint32_t)++s->n;
	return 1;
}

static void
set_rehash(struct set *s)
{
	size_t	 i, j;

	s->hcap = s->hcap ? s->hcap * 2 : 256;
	free(s->h);
	if ((s->h = calloc(s->hcap, sizeof *s->h)) == NULL)
		abort();
	for (i = 0; i < s->n; i++) {
		j = hash_cand(&s->c[i]) & (s->hcap - 1);
		while (s->h[j] != 0)
			j = (j + 1) & (s->hcap - 1);
		s->h[j] = (uint32_t)(i + 1);
	}
}

/* ---- reading traces ------------------------------------------------- */

static void
read_file(const char *path)
{
	struct json_object	*o, *d, *m, *t, *v;
	struct tfile		*f;
	struct rec		*r;
	FILE			*fp;
	char			*line = NULL;
	size_t			 cap = 0;
	ssize_t			 len;
	int			 lineno = 0;

	if (nfiles == MAX_FILES) {
		fprintf(stderr, "conform: %s: more than %d trace files\n",
		    path, MAX_FILES);
		failures++;
		return;
	}
	if ((fp = fopen(path, "r")) == NULL) {
		fprintf(stderr, "conform: %s: cannot read\n", path);
		failures++;
		return;
	}
	f = &files[nfiles];
	memset(f, 0, sizeof *f);
	f->path = strdup(path);
	while ((len = getline(&line, &cap, fp)) != -1) {
		lineno++;
		if ((o = json_tokener_parse(line)) == NULL ||
		    !json_object_object_get_ex(o, "d", &d) ||
		    !json_object_object_get_ex(o, "m", &m) ||
		    !json_object_object_get_ex(o, "t", &t)) {
			/* A line cut by a kill: the rest is unknown. */
			json_object_put(o);
			break;
		}
		if (strcmp(json_object_get_string(d), "peer") == 0) {
			if (json_object_object_get_ex(m, "pid", &v))
				f->pid = (long)json_object_get_int64(v);
			if (json_object_object_get_ex(m, "comm", &v))
				snprintf(f->comm, sizeof f->comm, "%s",
				    json_object_get_string(v));
			f->qemu = strncmp(f->comm, "qemu-system", 11) == 0;
			/* pids recur across runs; a run's directory not */
			if (json_object_object_get_ex(m, "path", &v)) {
				snprintf(f->home, sizeof f->home, "%s",
				    json_object_get_string(v));
				snprintf(f->sock, sizeof f->sock, "%s",
				    json_object_get_string(v));
			}
			/* tests/qmp-relay: its last argument is the QEMU's
			   monitor (unix:PATH or PATH). */
			if (json_object_object_get_ex(m, "cmdline", &v))
				snprintf(f->cmdline, sizeof f->cmdline, "%s",
				    json_object_get_string(v));
			if (json_object_object_get_ex(m, "cmdline", &v) &&
			    strstr(f->comm, "qmp-relay") != NULL) {
				const char *c = json_object_get_string(v);
				const char *sp = strrchr(c, ' ');
				c = sp != NULL ? sp + 1 : c;
				if (strncmp(c, "unix:", 5) == 0)
					c += 5;
				snprintf(f->target, sizeof f->target, "%s", c);
			}
			if (strrchr(f->home, '/') != NULL)
				*strrchr(f->home, '/') = '\0';
			json_object_put(o);
			continue;
		}
		if (nrecs == caprecs) {
			caprecs = caprecs ? caprecs * 2 : 4096;
			if ((recs = realloc(recs, caprecs * sizeof *recs)) ==
			    NULL)
				abort();
		}
		r = &recs[nrecs++];
		r->t = json_object_get_double(t);
		r->made = event_made(m);
		r->file = nfiles;
		r->line = lineno;
		r->dir = json_object_get_string(d)[0];
		r->m = json_object_get(m);
		r->answer = -1;
		r->answered = -1;
		json_object_put(o);
	}
	free(line);
	fclose(fp);
	/* A file that ends without its close (qmigrate killed): the
	   connection is gone after its last line, and what QEMU sent it
	   later was never read. */
	if (nrecs > 0 && recs[nrecs - 1].file == nfiles &&
	    recs[nrecs - 1].dir != 'x') {
		if (nrecs == caprecs) {
			caprecs *= 2;
			if ((recs = realloc(recs, caprecs * sizeof *recs)) ==
			    NULL)
				abort();
		}
		r = &recs[nrecs];
		*r = recs[nrecs - 1];
		nrecs++;
		r->dir = 'x';
		r->line++;
		r->m = json_object_new_string("(no close recorded: the "
		    "process ended)");
		r->answer = r->answered = -1;
	}
	nfiles++;
}

static void
read_path(const char *path)
{
	struct dirent	*de;
	struct stat	 st;
	DIR		*dp;
	char		*p;
	char		**names = NULL;
	size_t		 n = 0, i;

	if (stat(path, &st) == 0 && !S_ISDIR(st.st_mode)) {
		read_file(path);
		return;
	}
	if ((dp = opendir(path)) == NULL) {
		fprintf(stderr, "conform: %s: cannot read\n", path);
		failures++;
		return;
	}
	while ((de = readdir(dp)) != NULL) {
		if (strstr(de->d_name, ".jsonl") == NULL)
			continue;
		if (asprintf(&p, "%s/%s", path, de->d_name) == -1)
			abort();
		names = realloc(names, (n + 1) * sizeof *names);
		names[n++] = p;
	}
	closedir(dp);
	for (i = 0; i < n; i++) {
		read_file(names[i]);
		free(names[i]);
	}
	free(names);
}

static int
rec_cmp(const void *a, const void *b)
{
	const struct rec	*x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->file != y->file)
		return x->file - y->file;
	return x->line - y->line;
}

/* ---- what a record is ----------------------------------------------- */

static const char *
member(struct json_object *o, const char *k)
{
	struct json_object	*v;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, k, &v))
		return NULL;
	return json_object_get_string(v);
}

static int
is_answer(const struct rec *r)
{
	struct json_object	*v;

	return r->dir == '<' && (json_object_object_get_ex(r->m, "return",
	    &v) || json_object_object_get_ex(r->m, "error", &v));
}

/* Events QEMU sends that say nothing of migration: accepted as they come. */
static int
event_ignored(const char *name)
{
	static const char *const ok[] = { "RTC_CHANGE", "MIGRATION_PASS",
	    "NIC_RX_FILTER_CHANGED", "POWERDOWN", "RESET", "SUSPEND",
	    "WAKEUP", "DEVICE_DELETED", "BALLOON_CHANGE", "VSERPORT_CHANGE",
	    "ACPI_DEVICE_OST", "UNPLUG_PRIMARY", "GUEST_PANICKED",
	    "DEVICE_TRAY_MOVED", "BLOCK_IO_ERROR", "VCPU_DIRTY_LIMIT", NULL };
	size_t	 i;

	for (i = 0; ok[i] != NULL; i++)
		if (strcmp(name, ok[i]) == 0)
			return 1;
	return 0;
}

/* ---- moves ---------------------------------------------------------- */

/*
 * Can slot k be carried out in c: its connection's earlier commands done
 * (QEMU runs a monitor's commands in order), except one a relay dropped
 * (never answered: tests/qmp-relay --drop keeps it from QEMU).
 */
static int
slot_ready(const struct cand *c, int k)
{
	int	 j;

	if (!slots[k].used || (c->applied & (1ull << k)))
		return 0;
	for (j = 0; j < MAX_SLOTS; j++)
		if (j != k && slots[j].used && slots[j].file == slots[k].file &&
		    slots[j].seq < slots[k].seq && !(c->applied & (1ull << j)) &&
		    !(files[slots[j].file].relay && slots[j].ans_rec < 0))
			return 0;
	return 1;
}

static char	 why_buf[512];

static void	 why(const char *, ...) __attribute__((format(printf, 1, 2)));

/* Why the last candidate failed, for the report. */
static void
why(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(why_buf, sizeof why_buf, fmt, ap);
	va_end(ap);
}

/*
 * The events each file shows, in order (record indices, file by file),
 * and how many of them the history has passed.  A connection's queue of
 * unseen events is what its file must show next, up to where the file
 * ends: a candidate whose queue is not that can never explain the next
 * event, and is dropped as its events are queued rather than when that
 * event comes.  Why: a row that only makes an event (mirror-io-error's
 * BLOCK_JOB_ERROR) interleaves with every path the migration may take
 * until the next event prunes them; disk-mirror-unseen-reconnect.sh,
 * whose traces have no BLOCK_JOB_ERROR at all, held 401650 states at one
 * record and went over the bound on a loaded host (CI).
 */
static int		*fev;
static int		 fev_start[MAX_FILES], fev_n[MAX_FILES];
static int		 fev_seen[MAX_FILES];
static int		 conn_file[MAX_CONNS];	/* connection -> file */

static int
is_listed_event(const struct rec *r)
{
	const char	*name;

	return r->dir == '<' && !is_answer(r) &&
	    (name = member(r->m, "event")) != NULL && qm_event_modelled(name);
}

/* Fills fev for the n records of one history; -1 out of memory. */
static int
list_events(const struct rec *r, size_t n)
{
	size_t	 i;
	int	 f, at = 0;

	free(fev);
	if ((fev = calloc(n + 1, sizeof *fev)) == NULL)
		return -1;
	memset(fev_n, 0, sizeof fev_n);
	memset(fev_seen, 0, sizeof fev_seen);
	for (i = 0; i < n; i++)
		if (is_listed_event(&r[i]))
			fev_n[r[i].file]++;
	for (f = 0; f < MAX_FILES; f++) {
		fev_start[f] = at;
		at += fev_n[f];
		fev_n[f] = 0;
	}
	for (i = 0; i < n; i++)
		if (is_listed_event(&r[i])) {
			f = r[i].file;
			fev[fev_start[f] + fev_n[f]++] = (int)i;
		}
	return 0;
}

/* Past record i: the events of its file up to it are seen. */
static void
pass_record(const struct rec *r, size_t i)
{
	int	 f = r[i].file;

	while (fev_seen[f] < fev_n[f] && fev[fev_start[f] + fev_seen[f]] <=
	    (int)i)
		fev_seen[f]++;
}

/*
 * Whether c has carried out a command qmigrate queued after QEMU made an
 * event at made: QEMU read that command later, so the event cannot come
 * after it (a ">" line is written as the command is queued).
 */
static int
made_before_applied(const struct cand *c, double made)
{
	int	 k;

	for (k = 0; k < MAX_SLOTS; k++)
		if (slots[k].used && (c->applied & (1ull << k)) &&
		    hist[slots[k].cmd_rec].t > made + MADE_SLACK)
			return 1;
	return 0;
}

/*
 * Moves the model's new events into the queue of every listening
 * connection.  An event past what the connection's file shows from here
 * on is never seen: it is not queued (so candidates that differ only in
 * unseen events are one).  0 if a queue overflowed or an event is not
 * the one the file shows next at its place (a path no trace shows).
 */
static int
deliver(struct cand *c)
{
	const struct rec	*ev;
	int			 i, k, f, at;

	if (c->s.npending > QM_MAX_PENDING)
		return 0;
	for (k = 0; k < MAX_CONNS; k++) {
		if (!(c->listening & (1u << k)))
			continue;
		f = conn_file[k];
		for (i = 0; i < c->s.npending; i++) {
			if ((at = fev_seen[f] + c->nq[k]) >= fev_n[f])
				break;
			ev = &hist[fev[fev_start[f] + at]];
			if (!qm_event_is(&c->s, &c->s.pending[i], ev->m))
				return 0;
			/* QEMU made it long after the record at hand was
			   read, or before a command carried out: not here. */
			if (ev->made > now_t + AHEAD_SLACK ||
			    made_before_applied(c, ev->made))
				return 0;
			if (c->nq[k] == MAX_QUEUE)
				return 0;
			c->q[k][c->nq[k]++] = c->s.pending[i];
		}
	}
	c->s.npending = 0;
	memset(c->s.pending, 0, sizeof c->s.pending);
	return 1;
}

static int
queued(const struct cand *c)
{
	int	 k, n = 0;

	for (k = 0; k < MAX_CONNS; k++)
		n += c->nq[k];
	return n;
}

/*
 * Carries out slot k in c, as its recorded answer says (no answer: either
 * outcome).  Adds the outcomes that fit to out.
 */
static void
apply_slot(const struct cand *c, int k, struct set *out)
{
	struct slot		*sl = &slots[k];
	struct json_object	*ans = NULL, *v, *err;
	struct cand		 n;
	const char		*desc, *cls;
	char			*w = NULL;
	int			 idx[16], certain, ok, i;
	size_t			 nr;

	if (!c->s.alive) {
		why("%s%s: carried out by a QEMU the model holds gone",
		    sl->cmd.name, "");
		return;
	}
	if (sl->ans_rec >= 0)
		ans = hist[sl->ans_rec].m;
	nr = qm_refusals_for(&c->s, &sl->cmd, idx, 16, &certain);
	if (ans != NULL && json_object_object_get_ex(ans, "error", &err)) {
		cls = member(err, "class");
		desc = member(err, "desc");
		memcpy(&n, c, sizeof n);
		n.applied |= 1ull << k;
		if (cls != NULL && strcmp(cls, "CommandNotFound") == 0) {
			set_add(out, &n);
			return;
		}
		for (ok = 0, i = 0; i < (int)nr && !ok; i++)
			ok = desc != NULL &&
			    strstr(desc, qm_refusals[idx[i]].desc) != NULL;
		if (ok && qm_refusals[idx[i - 1]].may == QM_MAY_AFTER_SETUP) {
			/* The migration went through SETUP to FAILED
			   first: its events come before the answer. */
			if (qm_refuse_after_setup(&n.s, &sl->cmd) == 0 &&
			    deliver(&n))
				set_add(out, &n);
		} else if (ok)
			set_add(out, &n);
		else
			why("%s refused (\"%s\"): the model has no such "
			    "refusal in this state", sl->cmd.name,
			    desc ? desc : "");
		return;
	}
	if (!qm_cmd_known(sl->cmd.name)) {
		why("%s%s: a command the model does not know", sl->cmd.name,
		    "");
		return;
	}
	if (ans != NULL && certain) {
		for (i = 0; i < (int)nr; i++)
			if (!qm_refusals[idx[i]].may)
				break;
		why("%s answered, but the model refuses it here (\"%s\")",
		    sl->cmd.name, qm_refusals[idx[i]].desc);
		return;
	}
	if (ans != NULL && json_object_object_get_ex(ans, "return", &v) &&
	    qm_return_fits(&c->s, &sl->cmd, v, &w) != 0) {
		why("%s: %s", sl->cmd.name, w);
		free(w);
		return;
	}
	memcpy(&n, c, sizeof n);
	n.applied |= 1ull << k;
	note_taken(qm_apply_cmd(&n.s, &sl->cmd));
	/* Events from now on reach this connection too. */
	if (strcmp(sl->cmd.name, "qmp_capabilities") == 0)
		n.listening |= 1u << sl->conn;
	if (deliver(&n))
		set_add(out, &n);
	if (ans == NULL && nr > 0) {
		/* Unanswered: a refusal is as possible as the success. */
		memcpy(&n, c, sizeof n);
		n.applied |= 1ull << k;
		set_add(out, &n);
	}
}

/* Every state reachable from in by moves that make no observation. */
static int
closure(const struct set *in, struct set *out)
{
	struct cand	 n;
	int		 rows[256], k;
	size_t		 i, j, nr;

	set_clear(out);
	for (i = 0; i < in->n; i++)
		set_add(out, &in->c[i]);
	for (i = 0; i < out->n; i++) {
		if (out->n > MAX_STATES)
			return -1;
		/* No bound on how many events a path leaves unseen: a
		   monitor read late (tests/qmp-relay --hold-answer held
		   a migrate-incoming 12 s while the target went setup,
		   active, RESUME, completed; a poller's qmp_capabilities
		   answered 3.4 ms late while the source went STOP, two
		   JOB_STATUS_CHANGE, pre-switchover: CI,
		   handoff-tls-disk-confirm.sh) holds any number.  What
		   bounds the paths is deliver(): each event queued is
		   the one its file shows next, made before now_t. */
		nr = qm_enabled(&out->c[i].s, rows, 256);
		for (j = 0; j < nr; j++) {
			memcpy(&n, &out->c[i], sizeof n);
			qm_take(&n.s, rows[j]);
			note_taken(rows[j] & 0xffff);
			if (deliver(&n))
				set_add(out, &n);
		}
		for (k = 0; k < MAX_SLOTS; k++) {
			if (!slot_ready(&out->c[i], k))
				continue;
			memcpy(&n, &out->c[i], sizeof n);
			apply_slot(&n, k, out);
		}
	}
	return 0;
}

/* ---- one QEMU's history ---------------------------------------------- */

static void
describe(const struct cand *c, char *buf, size_t size)
{
	int	 j;
	size_t	 len;

	snprintf(buf, size, "%s/%s%s%s", qm_status_name(c->s.status),
	    qm_runstate_name(c->s.runstate), c->s.alive ? "" : " (gone)",
	    queued(c) ? " +events" : "");
	for (j = 0; j < c->s.njobs; j++) {
		len = strlen(buf);
		snprintf(buf + len, size - len, " job %s %s", c->s.jobs[j].id,
		    qm_job_status_name(c->s.jobs[j].status));
	}
}

static void
report(const struct rec *r, const char *what, const struct set *before,
    const char *reason)
{
	char	 buf[128], states[512] = "";
	size_t	 i;
	char	*m;

	for (i = 0; i < before->n && i < 6; i++) {
		describe(&before->c[i], buf, sizeof buf);
		if (strstr(states, buf) == NULL && strlen(states) + strlen(buf)
		    + 3 < sizeof states) {
			if (states[0] != '\0')
				strcat(states, ", ");
			strcat(states, buf);
		}
	}
	if (failures++ == 0)
		failed_path = files[r->file].path;
	if (quiet)
		return;
	m = strdup(json_object_to_json_string_ext(r->m,
	    JSON_C_TO_STRING_PLAIN));
	if (strlen(m) > 200)
		strcpy(m + 197, "...");
	printf("FAIL %s:%d (QEMU pid %ld): %s %s\n"
	    "  no path through the table: %s\n"
	    "  the model's states before it: %s\n",
	    files[r->file].path, r->line, files[r->file].pid, what, m,
	    reason, states[0] ? states : "(none)");
	free(m);
}

static void
initial(struct set *s, enum qm_version v)
{
	struct qm_config	 cfg;
	struct cand		 c;
	int			 inc, lis, stop;

	for (inc = 0; inc < 2; inc++)
		for (lis = 0; lis <= inc; lis++)
			for (stop = 0; stop < 2; stop++) {
				memset(&cfg, 0, sizeof cfg);
				cfg.version = v;
				cfg.incoming = inc;
				cfg.listening = lis;
				cfg.stopped = stop;
				memset(&c, 0, sizeof c);
				qm_state_init(&c.s, &cfg);
				set_add(s, &c);
			}
}

/* Checks the records of one QEMU process, sorted; 0 if they fit. */
static int
check_qemu(struct rec *r, size_t n)
{
	struct set		 cur = { 0 }, all = { 0 }, next = { 0 };
	struct json_object	*v, *q, *ver;
	struct cand		 c;
	const char		*name;
	size_t			 i, j;
	int			 k, seq = 0, version = -1, ok = 0, mj, mn;

	memset(slots, 0, sizeof slots);
	hist = r;
	for (k = 0; k < MAX_FILES; k++)
		conn_of[k] = -1;
	used_conns = 0;
	if (list_events(r, n) != 0) {
		fprintf(stderr, "conform: out of memory\n");
		exit(2);
	}
	for (i = 0; i < n; i++) {
		struct rec *x = &r[i];

		now_t = x->t;
		if (i > 0)
			pass_record(r, i - 1);

		if (conn_of[x->file] == -1) {
			for (k = 0; k < MAX_CONNS && (used_conns & (1u << k));
			    k++)
				;
			if (k == MAX_CONNS) {
				report(x, "message", &cur, "over 8 monitor "
				    "connections at once");
				goto out;
			}
			used_conns |= 1u << k;
			conn_of[x->file] = k;
			conn_file[k] = x->file;
		}

		if (x->dir == '>') {
			for (k = 0; k < MAX_SLOTS && slots[k].used; k++)
				;
			if (k == MAX_SLOTS) {
				report(x, "command", &cur, "over 64 commands "
				    "in flight");
				goto out;
			}
			memset(&slots[k], 0, sizeof slots[k]);
			slots[k].used = 1;
			slots[k].file = x->file;
			slots[k].conn = conn_of[x->file];
			slots[k].seq = seq++;
			slots[k].cmd_rec = (int)i;
			slots[k].ans_rec = x->answer;
			if (qm_cmd_parse_json(x->m, &slots[k].cmd) != 0) {
				report(x, "command", &cur, "not a command");
				goto out;
			}
			if (x->answer >= 0)
				r[x->answer].answered = k;
			continue;
		}
		if (x->dir == '<' && json_object_object_get_ex(x->m, "QMP",
		    &q)) {
			if (json_object_object_get_ex(q, "version", &ver) &&
			    json_object_object_get_ex(ver, "qemu", &ver)) {
				json_object_object_get_ex(ver, "major", &v);
				mj = json_object_get_int(v);
				json_object_object_get_ex(ver, "minor", &v);
				mn = json_object_get_int(v);
				if ((k = qm_version_of(mj, mn)) < 0) {
					report(x, "greeting", &cur, "no model "
					    "for this QEMU version");
					goto out;
				}
				if (version == -1) {
					version = k;
					initial(&cur, (enum qm_version)k);
				} else {
					/* cpr-exec: a new QEMU in the same
					   process, started incoming, once
					   the table's exec row ended the
					   old one; or a fresh boot, where
					   the program exec'd dropped
					   -incoming (trap 2:
					   cpr-exec-rerun-norecord.sh).
					   (Else a greeting of another
					   connection to it.) */
					if (closure(&cur, &all) != 0) {
						report(x, "greeting", &cur,
						    "over " STR(MAX_STATES) " states");
						goto out;
					}
					for (j = 0; j < all.n; j++)
						if (!all.c[j].s.alive &&
						    (all.c[j].s.flags &
						    QM_IF_EXECED))
							break;
					if (j < all.n) {
						struct set fresh = { 0 };
						initial(&fresh,
						    (enum qm_version)k);
						for (j = 0; j < fresh.n; j++)
							set_add(&cur,
							    &fresh.c[j]);
						set_free(&fresh);
					}
				}
			}
			continue;
		}
		if (version == -1)
			continue;	/* nothing known before the greeting */
		if (closure(&cur, &all) != 0) {
			report(x, "message", &cur, "over " STR(MAX_STATES) " states");
			goto out;
		}
		set_clear(&next);
		why_buf[0] = '\0';
		if (x->dir == 'x') {
			/* The connection ended: its unanswered commands
			   may or may not have been carried out. */
			int ci = conn_of[x->file];
			for (j = 0; j < all.n; j++) {
				memcpy(&c, &all.c[j], sizeof c);
				for (k = 0; k < MAX_SLOTS; k++)
					if (slots[k].used &&
					    slots[k].file == x->file)
						c.applied &= ~(1ull << k);
				c.listening &= ~(1u << ci);
				c.nq[ci] = 0;
				memset(c.q[ci], 0, sizeof c.q[ci]);
				set_add(&next, &c);
			}
			for (k = 0; k < MAX_SLOTS; k++)
				if (slots[k].used && slots[k].file == x->file)
					slots[k].used = 0;
			used_conns &= ~(1u << ci);
			conn_of[x->file] = -2;	/* closed: no more records */
		} else if (is_answer(x)) {
			k = x->answered;
			if (getenv("CONFORM_DEBUG"))
				printf("answer line %d slot %d\n", x->line, k);
			if (k < 0 || !slots[k].used)
				continue;	/* an answer to no command */
			for (j = 0; j < all.n; j++) {
				if (!(all.c[j].applied & (1ull << k)))
					continue;
				memcpy(&c, &all.c[j], sizeof c);
				c.applied &= ~(1ull << k);
				set_add(&next, &c);
			}
			if (next.n == 0) {
				/* Ask a candidate why the command does not
				   fit there, for the report. */
				struct set scratch = { 0 };
				why_buf[0] = '\0';
				for (j = 0; j < all.n && why_buf[0] == '\0';
				    j++)
					if (slot_ready(&all.c[j], k))
						apply_slot(&all.c[j], k,
						    &scratch);
				set_free(&scratch);
			}
			slots[k].used = 0;
			if (next.n == 0) {
				report(x, "answer", &cur, why_buf[0] ?
				    why_buf : "the command cannot be carried "
				    "out in any state the QEMU may be in");
				goto out;
			}
		} else if ((name = member(x->m, "event")) != NULL) {
			if (!qm_event_modelled(name)) {
				if (event_ignored(name))
					continue;
				report(x, "event", &cur, "an event the model "
				    "does not know");
				goto out;
			}
			k = conn_of[x->file];
			for (j = 0; j < all.n; j++) {
				if (k < 0 || all.c[j].nq[k] == 0 ||
				    !qm_event_is(&all.c[j].s,
				    &all.c[j].q[k][0], x->m))
					continue;
				memcpy(&c, &all.c[j], sizeof c);
				memmove(&c.q[k][0], &c.q[k][1],
				    (size_t)(c.nq[k] - 1) * sizeof c.q[k][0]);
				c.nq[k]--;
				memset(&c.q[k][c.nq[k]], 0, sizeof c.q[k][0]);
				set_add(&next, &c);
			}
			if (next.n == 0) {
				report(x, "event", &cur, why_buf[0] ? why_buf :
				    "QEMU cannot make this event here");
				goto out;
			}
		} else
			continue;
		/* Keep the smallest set: the states as they were observed. */
		set_clear(&cur);
		for (j = 0; j < next.n; j++)
			set_add(&cur, &next.c[j]);
		if (verbose > 1)
			printf("  %s:%d %zu states\n", files[x->file].path,
			    x->line, cur.n);
		if (verbose > 2)
			for (j = 0; j < cur.n; j++) {
				char b[128];
				describe(&cur.c[j], b, sizeof b);
				printf("    %s flags %x applied %llx\n", b,
				    cur.c[j].s.flags,
				    (unsigned long long)cur.c[j].applied);
			}
	}
	ok = 1;
out:
	set_free(&cur);
	set_free(&all);
	set_free(&next);
	free(fev);
	fev = NULL;
	return ok ? 0 : -1;
}

/* Links each command of r to its answer (same file, same id, later). */
static void
link_answers(struct rec *r, size_t n)
{
	size_t		 i, j;
	const char	*id, *id2;
	char		*taken;

	if ((taken = calloc(n + 1, 1)) == NULL)
		abort();
	for (i = 0; i < n; i++) {
		r[i].answer = -1;
		r[i].answered = -1;
	}
	for (i = 0; i < n; i++) {
		if (r[i].dir != '>' || (id = member(r[i].m, "id")) == NULL)
			continue;
		for (j = i + 1; j < n; j++) {
			if (r[j].file != r[i].file || !is_answer(&r[j]) ||
			    taken[j])
				continue;
			if ((id2 = member(r[j].m, "id")) != NULL &&
			    strcmp(id, id2) == 0) {
				r[i].answer = (int)j;
				taken[j] = 1;
				break;
			}
		}
	}
	free(taken);
}

/*
 * A relay only delays, drops (never answers) and cuts, all of which the
 * checker allows, so its files join the history of the QEMU behind it:
 * the one whose monitor path is the relay's target.
 */
/* Does cmdline name path as a whole word (",", " " or the end after)? */
static int
names_socket(const char *cmdline, const char *path)
{
	const char	*p = cmdline;
	size_t		 n = strlen(path);

	while (n > 0 && (p = strstr(p, path)) != NULL) {
		if (p[n] == ',' || p[n] == ' ' || p[n] == '\0')
			return 1;
		p += n;
	}
	return 0;
}

static void
resolve_relays(void)
{
	int	 f, g;

	for (f = 0; f < nfiles; f++) {
		if (files[f].qemu || files[f].target[0] == '\0')
			continue;
		/* The QEMU whose command line has that monitor socket. */
		for (g = 0; g < nfiles; g++)
			if (files[g].qemu && files[g].relay == 0 &&
			    (strcmp(files[g].sock, files[f].target) == 0 ||
			    names_socket(files[g].cmdline, files[f].target)))
				break;
		files[f].qemu = 1;
		files[f].relay = 1;
		if (g < nfiles) {
			files[f].pid = files[g].pid;
			memcpy(files[f].home, files[g].home,
			    sizeof files[f].home);
		} else {
			/* No direct connection: the target names it. */
			files[f].pid = -1;
			memcpy(files[f].home, files[f].target,
			    sizeof files[f].home);
		}
	}
}

/*
 * Do files a and b speak to one QEMU process?  The same pid, and the same
 * run: the monitors' directory, or one file's QEMU command line names the
 * other's socket (a QEMU with several -qmp: observe-prometheus gives the
 * exporter one in a directory of its own).
 */
static int
same_qemu(int a, int b)
{
	if (!files[a].qemu || !files[b].qemu || files[a].pid != files[b].pid)
		return 0;
	return strcmp(files[a].home, files[b].home) == 0 ||
	    (files[b].sock[0] != '\0' &&
	    names_socket(files[a].cmdline, files[b].sock)) ||
	    (files[a].sock[0] != '\0' &&
	    names_socket(files[b].cmdline, files[a].sock));
}

static void
print_rows(void)
{
	size_t	 i;

	for (i = 0; i < qm_nrows; i++)
		printf("%3zu %-8s %-24s %s\n", i,
		    qm_rows[i].trigger == QM_T_CMD ? "command" :
		    qm_rows[i].trigger == QM_T_QEMU ? "qemu" :
		    qm_rows[i].trigger == QM_T_STREAM ? "stream" :
		    qm_rows[i].trigger == QM_T_LOAD ? "load" : "process",
		    qm_rows[i].cmd, qm_rows[i].qemu_fn);
}

/*
 * Checks every QEMU's history in the records read; with stop, up to the
 * first failure.  Counts into *checked and *skipped (may be NULL).
 */
static void
check_all(struct rec *mine, int stop, size_t *checked, size_t *skipped)
{
	size_t	 i, n;
	int	 f, g, done[MAX_FILES] = { 0 };
	long	 pid;

	for (f = 0; f < nfiles && !(stop && failures); f++) {
		if (done[f])
			continue;
		if (!files[f].qemu) {
			done[f] = 1;
			if (files[f].pid != 0 && skipped != NULL)
				(*skipped)++;
			if (verbose)
				printf("skip %s: peer %s (pid %ld) is not "
				    "QEMU\n", files[f].path,
				    files[f].comm[0] ? files[f].comm : "?",
				    files[f].pid);
			continue;
		}
		pid = files[f].pid;
		for (g = f; g < nfiles; g++)
			if (same_qemu(g, f))
				done[g] = 1;
		/* This QEMU's records, in time order. */
		for (n = 0, i = 0; i < nrecs; i++)
			if (same_qemu(recs[i].file, f))
				mine[n++] = recs[i];
		link_answers(mine, n);
		if (checked != NULL)
			(*checked)++;
		if (verbose)
			printf("check QEMU pid %ld: %zu messages\n", pid, n);
		(void)check_qemu(mine, n);
	}
}

/*
 * --each-row: each row the checker took, hidden in turn; a row whose
 * absence fails a trace is one the traces need.  A row never taken
 * cannot change the outcome (hiding it removes no explored move).
 */
static void
each_row_report(struct rec *mine)
{
	uint64_t	 was[4];
	size_t		 r, ntaken = 0, nneeded = 0;

	memcpy(was, rows_taken, sizeof was);
	quiet = 1;
	for (r = 0; r < qm_nrows && r < 256; r++) {
		if (!(was[r / 64] & (1ull << (r % 64)))) {
			printf("row %3zu %-24s never taken\n", r,
			    qm_rows[r].cmd);
			continue;
		}
		ntaken++;
		qm_disabled_row = (int)r;
		failures = 0;
		failed_path = NULL;
		check_all(mine, 1, NULL, NULL);
		if (failures) {
			nneeded++;
			printf("row %3zu %-24s needed: %s fails without it\n",
			    r, qm_rows[r].cmd, failed_path);
		} else
			printf("row %3zu %-24s taken, not needed (another "
			    "path explains the traces)\n", r, qm_rows[r].cmd);
	}
	qm_disabled_row = -1;
	failures = 0;
	quiet = 0;
	printf("rows: %zu in the table, %zu taken, %zu needed\n", qm_nrows,
	    ntaken, nneeded);
}

int
main(int argc, char **argv)
{
	struct rec	*mine;
	size_t		 i, checked = 0, skipped = 0;
	int		 a, f, each_row = 0;

	for (a = 1; a < argc && argv[a][0] == '-'; a++) {
		if (strcmp(argv[a], "-v") == 0)
			verbose++;
		else if (strcmp(argv[a], "--each-row") == 0)
			each_row = 1;
		else if (strcmp(argv[a], "--rows") == 0) {
			print_rows();
			return 0;
		} else if (strcmp(argv[a], "--without-row") == 0 &&
		    a + 1 < argc)
			qm_disabled_row = atoi(argv[++a]);
		else {
			fprintf(stderr, "usage: conform [-v] [--without-row N] "
			    "[--each-row] [--rows] DIR|FILE...\n");
			return 2;
		}
	}
	if (a == argc) {
		fprintf(stderr, "usage: conform [-v] [--without-row N] "
		    "[--each-row] [--rows] DIR|FILE...\n");
		return 2;
	}
	for (; a < argc; a++)
		read_path(argv[a]);
	qsort(recs, nrecs, sizeof *recs, rec_cmp);
	resolve_relays();
	if ((mine = calloc(nrecs + 1, sizeof *mine)) == NULL)
		abort();
	check_all(mine, 0, &checked, &skipped);
	if (each_row && failures == 0)
		each_row_report(mine);
	printf("conform: %zu QEMU histories checked, %zu monitors of "
	    "another peer skipped, %d failures\n", checked, skipped,
	    failures);
	for (i = 0; i < nrecs; i++)
		json_object_put(recs[i].m);
	free(recs);
	free(mine);
	for (f = 0; f < nfiles; f++)
		free(files[f].path);
	return failures ? 1 : 0;
}
