/*
 * mig-disks.c: copying local disks during a live migration (see
 * mig-disks.h).  The target exports its (empty) disks over NBD; the source
 * mirrors each disk into an NBD client node in write-blocking mode, so that
 * once a job is ready every new guest write reaches both sides before the
 * guest sees it complete.  Memory moves only when every mirror is ready;
 * when the migration completes the source guest is stopped, the mirrors
 * are in sync and are cancelled (no pivot: the source keeps its own disks
 * for a failed switchover), and the target drops its exports once the
 * source's NBD clients have gone, then resumes the guest.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "qmp.h"
#include "mig-disks.h"
#include "mig-job.h"
#include "world.h"

#define DISKS_MAX	64		/* disks copied in one migration */
#define POLL_STEP	0.2		/* between two query-block-jobs */
#define RELEASE_STEP	0.5		/* between two tries to drop exports */
/*
 * How long a forced cancel may take to end the jobs.  After the yank it
 * ends one in well under a second unless a write of its waits for room in
 * the NBD socket's buffer: QEMU 7.2's yank does not wake that write (a
 * shutdown socket whose peer stopped reading never becomes writable), and
 * the job ends only when the connection breaks, the target QEMU gone.
 * Waiting longer for that does not help: the failure is told at once.
 */
#define FORCED_END_SECONDS 10.0

struct mig_disk {
	char		*key;		/* node name or drive id */
	char		*node;		/* top node, for blockdev-mirror */
	char		*file;
	char		*format;
	uint64_t	 size;		/* virtual size */
	char		*job;		/* qm-mirror-KEY */
	char		*nbd_node;	/* qm-nbd-KEY */
	int		 nbd_added;
	int		 started;
	int		 exported;
	int		 ready;
	int		 gone;		/* the job ended */
	uint64_t	 offset;
	uint64_t	 len;
	char		*error;
	int		 lost;		/* the target's copy may miss writes:
					   LOST_SEEN, LOST_UNSEEN, or 0 */
};

enum {
	LOST_SEEN = 1,	/* failed or ended, an event said (before QEMU
			   completed: the session judges no later one) */
	LOST_UNSEEN,	/* ended with no event seen (a monitor reconnect, a
			   killed run's job): when is not known */
};

struct mig_disks {
	struct mig_disk	*v;
	size_t		 n;
	int		 server;	/* target: NBD server started */
	char		*unix_path;	/* target: socket to remove */
	int		 refreshing;
	/* The monitor connection (mig_watch's count) a query-block-jobs
	   was sent on, and the one the last answer came from: a view of
	   the jobs from before a reconnect misses the ends that went with
	   the old connection's events. */
	unsigned	 asked_conn, seen_conn;

	/* The job running over the disks (mig-job.h): its arguments. */
	char		*nbd_uri;
	uint64_t	 speed;
	int		 success;	/* finish: the migration succeeded */
	double		 deadline;	/* monotonic; finish, release */
	double		 timeout;
	size_t		 cur;		/* the disk the job is at */
	int		 busy;		/* release: an export still in use */
	char		*cause;		/* why a job fails, once it is undone */
	char		*start_cause;	/* source start: why it is undone */
	json_object	*stale;		/* source start: our nodes to remove */
};

static int
listed(char **list, const char *s)
{
	if (s == NULL || *s == '\0')
		return 0;
	for (; list != NULL && *list != NULL; list++)
		if (strcmp(*list, s) == 0)
			return 1;
	return 0;
}

int
mig_disks_selected(const struct mig_settings *s, const char *key,
    const char *device, const char *file, int shared)
{
	if (s->block_migration == BLOCK_MIGRATION_NEVER)
		return 0;
	if (s->disks != NULL && s->disks[0] != NULL)
		return listed(s->disks, key) || listed(s->disks, device) ||
		    listed(s->disks, file);
	if (s->block_migration == BLOCK_MIGRATION_ALWAYS)
		return 1;
	return !shared;
}

/* Whether any entry of the policy's disks is a node name or drive id. */
static int
names_keys(const struct mig_settings *s)
{
	char **p;

	for (p = s->disks; p != NULL && *p != NULL; p++)
		if (**p != '/')
			return 1;
	return 0;
}

static void
disk_free(struct mig_disk *d)
{
	free(d->key);
	free(d->node);
	free(d->file);
	free(d->format);
	free(d->job);
	free(d->nbd_node);
	free(d->error);
}

void
mig_disks_free(struct mig_disks *ds)
{
	size_t i;

	if (ds == NULL)
		return;
	for (i = 0; i < ds->n; i++)
		disk_free(&ds->v[i]);
	free(ds->v);
	free(ds->unix_path);
	free(ds->nbd_uri);
	free(ds->cause);
	free(ds->start_cause);
	json_object_put(ds->stale);
	free(ds);
}

int
mig_disks_select(json_object *blocks, const struct mig_settings *s,
    int source, struct mig_disks **out, char **cause)
{
	json_object		*dev, *ins, *image;
	struct mig_disks	*ds;
	struct mig_disk		*d;
	const char		*node, *device, *file, *key;
	char			 why[256];
	size_t			 i;
	int			 shared, take;

	*out = NULL;
	if (s->block_migration == BLOCK_MIGRATION_NEVER)
		return 0;
	if (!json_object_is_type(blocks, json_type_array)) {
		xasprintf(cause, "query-block: not a list");
		return -1;
	}
	ds = xcalloc(1, sizeof *ds);
	for (i = 0; i < json_object_array_length(blocks); i++) {
		dev = json_object_array_get_idx(blocks, i);
		if (!json_object_object_get_ex(dev, "inserted", &ins) ||
		    json_object_get_boolean(json_object_object_get(ins,
		    "ro")))
			continue;
		image = json_object_object_get(ins, "image");
		node = json_str_at(ins, "node-name");
		device = json_str_at(dev, "device");
		file = json_str_at(image, "filename");
		if (file == NULL)
			file = json_str_at(ins, "file");
		if (node == NULL || file == NULL)
			continue;
		key = node[0] != '#' ? node : device;
		if (key == NULL || *key == '\0')
			continue;	/* no stable name on both sides */
		shared = preflight_disk_shared(s, file, why, sizeof why);
		if (source)
			take = mig_disks_selected(s, key, device, file, shared);
		else
			take = !shared || (s->block_migration ==
			    BLOCK_MIGRATION_ALWAYS && (!names_keys(s) ||
			    listed(s->disks, key) || listed(s->disks, device)));
		if (!take)
			continue;
		if (ds->n == DISKS_MAX) {
			xasprintf(cause, "more than %d disks to copy",
			    DISKS_MAX);
			mig_disks_free(ds);
			return -1;
		}
		ds->v = xreallocarray(ds->v, ds->n + 1, sizeof *ds->v);
		d = &ds->v[ds->n++];
		memset(d, 0, sizeof *d);
		d->key = xstrdup(key);
		d->node = xstrdup(node);
		d->file = xstrdup(file);
		d->format = xstrdup(json_str_at(image, "format") != NULL ?
		    json_str_at(image, "format") : "raw");
		d->size = json_u64_at(image, "virtual-size");
		d->len = d->size;
		xasprintf(&d->job, "qm-mirror-%s", key);
		xasprintf(&d->nbd_node, "qm-nbd-%s", key);
		log_debug("disk %s (%s, %s, %llu bytes) %s", key, file,
		    d->format, (unsigned long long)d->size, source ?
		    "to copy" : "to receive");
	}
	if (ds->n == 0) {
		mig_disks_free(ds);
		return 0;
	}
	*out = ds;
	return 0;
}

/* A named node in a query-named-block-nodes answer, or NULL. */
static json_object *
named_node(json_object *nodes, const char *name)
{
	json_object	*n;
	size_t		 i;

	for (i = 0; json_object_is_type(nodes, json_type_array) &&
	    i < json_object_array_length(nodes); i++) {
		n = json_object_array_get_idx(nodes, i);
		if (json_str_at(n, "node-name") != NULL &&
		    strcmp(json_str_at(n, "node-name"), name) == 0)
			return n;
	}
	return NULL;
}

/* Adds the disk KEY (from a qm-mirror- or qm-nbd- name) once. */
static struct mig_disk *
adopt_one(struct mig_disks *ds, const char *key, json_object *nodes)
{
	json_object	*top;
	struct mig_disk	*d;
	size_t		 i;

	for (i = 0; i < ds->n; i++)
		if (strcmp(ds->v[i].key, key) == 0)
			return &ds->v[i];
	if (*key == '\0' || ds->n == DISKS_MAX)
		return NULL;
	ds->v = xreallocarray(ds->v, ds->n + 1, sizeof *ds->v);
	d = &ds->v[ds->n++];
	memset(d, 0, sizeof *d);
	d->key = xstrdup(key);
	top = named_node(nodes, key);
	d->file = xstrdup(json_str_at(top, "file") != NULL ?
	    json_str_at(top, "file") : key);
	d->size = json_u64_at(json_object_object_get(top, "image"),
	    "virtual-size");
	d->len = d->size;
	xasprintf(&d->job, "qm-mirror-%s", key);
	xasprintf(&d->nbd_node, "qm-nbd-%s", key);
	d->nbd_added = named_node(nodes, d->nbd_node) != NULL;
	return d;
}

struct mig_disks *
mig_disks_adopt(json_object *jobs, json_object *nodes)
{
	struct mig_disks	*ds = xcalloc(1, sizeof *ds);
	struct mig_disk		*d;
	json_object		*j;
	const char		*name;
	size_t			 i;

	for (i = 0; json_object_is_type(jobs, json_type_array) &&
	    i < json_object_array_length(jobs); i++) {
		j = json_object_array_get_idx(jobs, i);
		name = json_str_at(j, "device");
		if (name == NULL || strncmp(name, "qm-mirror-", 10) != 0 ||
		    (d = adopt_one(ds, name + 10, nodes)) == NULL)
			continue;
		d->started = 1;
		d->offset = json_u64_at(j, "offset");
		d->len = json_u64_at(j, "len");
		d->ready = json_object_get_boolean(json_object_object_get(j,
		    "ready"));
	}
	/* A mirror that ended leaves its NBD node, removed at the end. */
	for (i = 0; json_object_is_type(nodes, json_type_array) &&
	    i < json_object_array_length(nodes); i++) {
		name = json_str_at(json_object_array_get_idx(nodes, i),
		    "node-name");
		if (name != NULL && strncmp(name, "qm-nbd-", 7) == 0 &&
		    (d = adopt_one(ds, name + 7, nodes)) != NULL) {
			d->nbd_added = 1;
			d->gone = !d->started;	/* its mirror ended */
			if (d->gone)
				d->lost = LOST_UNSEEN;
		}
	}
	if (ds->n == 0) {
		mig_disks_free(ds);
		return NULL;
	}
	return ds;
}

char *
mig_disks_unproven(const struct mig_disks *ds)
{
	const struct mig_disk	*d;
	char			*why;
	size_t			 i;

	for (i = 0; ds != NULL && i < ds->n; i++) {
		d = &ds->v[i];
		if (d->gone || !d->started) {
			xasprintf(&why, "disk %s (%s): its mirror ended while no "
			    "qmigrate watched it (in sync or failed: QEMU kept "
			    "no word of it)", d->key, d->file);
			return why;
		}
		if (!d->ready) {
			xasprintf(&why, "disk %s (%s): its mirror had copied "
			    "%llu of %llu bytes, not ready", d->key, d->file,
			    (unsigned long long)d->offset,
			    (unsigned long long)d->len);
			return why;
		}
	}
	return NULL;
}

size_t
mig_disks_count(const struct mig_disks *ds)
{
	return ds != NULL ? ds->n : 0;
}

uint64_t
mig_disks_bytes(const struct mig_disks *ds)
{
	uint64_t	total = 0;
	size_t		i;

	for (i = 0; ds != NULL && i < ds->n; i++)
		total += ds->v[i].size;
	return total;
}

/* What the mirrors copied so far: it grows while they make progress. */
uint64_t
mig_disks_copied(const struct mig_disks *ds)
{
	uint64_t	total = 0;
	size_t		i;

	for (i = 0; ds != NULL && i < ds->n; i++)
		total += ds->v[i].offset;
	return total;
}

json_object *
mig_disks_to_json(const struct mig_disks *ds)
{
	json_object	*o = json_object_new_object(), *j;
	size_t		 i;

	for (i = 0; ds != NULL && i < ds->n; i++) {
		const struct mig_disk *d = &ds->v[i];

		j = json_object_new_object();
		json_object_object_add(j, "disk",
		    json_object_new_string(d->key));
		json_object_object_add(j, "file",
		    json_object_new_string(d->file));
		json_object_object_add(j, "offset",
		    json_object_new_uint64(d->offset));
		json_object_object_add(j, "len",
		    json_object_new_uint64(d->len));
		json_object_object_add(j, "ready",
		    json_object_new_boolean(d->ready));
		json_object_object_add(o, d->job, j);
	}
	return o;
}

char *
mig_disks_describe(const struct mig_disks *ds)
{
	char	*line = xstrdup(""), *next;
	size_t	 i;

	for (i = 0; ds != NULL && i < ds->n; i++) {
		xasprintf(&next, "%s%s%s (%s)", line, i ? ", " : "",
		    ds->v[i].key, ds->v[i].file);
		free(line);
		line = next;
	}
	return line;
}

char *
mig_disks_nbd_uri(const char *uri, const char *nbd, char **cause)
{
	char		*host = NULL, *port = NULL, *out;
	uint64_t	 p;

	if (strncmp(uri, "tls:", 4) == 0)
		goto refuse;	/* mig_tls_*_nbd_uri(): through the proxy */
	if (nbd != NULL) {
		if ((strncmp(nbd, "unix:", 5) == 0 && nbd[5] != '\0') ||
		    (strncmp(nbd, "tcp:", 4) == 0 &&
		    split_hostport(nbd + 4, &host, &port) == 0)) {
			free(host);
			free(port);
			return xstrdup(nbd);
		}
		xasprintf(cause, "--nbd: expected unix:PATH or tcp:HOST:PORT, "
		    "got \"%s\"", nbd);
		return NULL;
	}
	if (strncmp(uri, "unix:", 5) == 0) {
		xasprintf(&out, "%s.nbd", uri);
		return out;
	}
	if (strncmp(uri, "tcp:", 4) == 0 &&
	    split_hostport(uri + 4, &host, &port) == 0 &&
	    parse_u64(port, &p) == 0 && p > 0 && p < 65535) {
		xasprintf(&out, "tcp:%s:%llu", host, (unsigned long long)p + 1);
		free(host);
		free(port);
		return out;
	}
	free(host);
	free(port);
refuse:
	xasprintf(cause, "%s: disks cannot be copied over this URI: use "
	    "unix:, tcp: or tls:", uri);
	return NULL;
}

/* A SocketAddress (flat: blockdev-add) or SocketAddressLegacy. */
static json_object *
socket_address(const char *nbd_uri, int legacy)
{
	json_object	*a = json_object_new_object(), *data = a;
	char		*host = NULL, *port = NULL;

	if (legacy)
		data = json_object_new_object();
	if (strncmp(nbd_uri, "unix:", 5) == 0) {
		json_object_object_add(a, "type",
		    json_object_new_string("unix"));
		json_object_object_add(data, "path",
		    json_object_new_string(nbd_uri + 5));
	} else {
		split_hostport(nbd_uri + 4, &host, &port);
		json_object_object_add(a, "type",
		    json_object_new_string("inet"));
		json_object_object_add(data, "host",
		    json_object_new_string(host != NULL ? host : ""));
		json_object_object_add(data, "port",
		    json_object_new_string(port != NULL ? port : ""));
		free(host);
		free(port);
	}
	if (legacy)
		json_object_object_add(a, "data", data);
	return a;
}

static struct mig_disk *
find_job(struct mig_disks *ds, const char *id)
{
	size_t i;

	for (i = 0; id != NULL && i < ds->n; i++)
		if (strcmp(ds->v[i].job, id) == 0)
			return &ds->v[i];
	return NULL;
}

/*
 * A job failed or ended before its soft cancel (mig_disks_lost): a loss,
 * whether the guest ran or had stopped.  QEMU's STOP is not the end of the
 * guest's writes: do_vm_stop() sends STOP, then drains the writes in
 * flight (bdrv_drain_all), and a write-blocking mirror's half of one that
 * fails then completes on the source all the same (block/mirror.c
 * do_sync_target_write: the error is the job's, the guest's write
 * succeeds), so the device state QEMU then saves holds a write the
 * target's disk lacks (sim-real D1, seeds 3037225 3038791 at 3fc1633: both
 * mirrors' BLOCK_JOB_ERROR 20-40 ms after the switchover's STOP).  With
 * every write drained and the guest stopped a ready mirror does no I/O:
 * a link that breaks then fails nothing before the cancel's last flush,
 * after QEMU completed, which the session no longer judges.
 */
static void
ended(struct mig_disk *d)
{
	if (!d->lost)
		d->lost = LOST_SEEN;
}

void
mig_disks_on_event(struct mig_disks *ds, const char *name, json_object *data)
{
	struct mig_disk	*d;
	const char	*err;

	if (ds == NULL || strncmp(name, "BLOCK_JOB_", 10) != 0)
		return;
	d = find_job(ds, json_str_at(data, "device"));
	if (d == NULL)
		return;
	if (json_object_object_get_ex(data, "offset", NULL)) {
		d->offset = json_u64_at(data, "offset");
		d->len = json_u64_at(data, "len");
	}
	if (strcmp(name, "BLOCK_JOB_READY") == 0)
		d->ready = 1;
	else if (strcmp(name, "BLOCK_JOB_COMPLETED") == 0 ||
	    strcmp(name, "BLOCK_JOB_CANCELLED") == 0) {
		d->gone = 1;
		err = json_str_at(data, "error");
		if (err != NULL && d->error == NULL)
			d->error = xstrdup(err);
		ended(d);
	} else if (strcmp(name, "BLOCK_JOB_ERROR") == 0) {
		if (d->error == NULL)
			xasprintf(&d->error, "I/O error on %s",
			    json_str_at(data, "operation") != NULL ?
			    json_str_at(data, "operation") : "the disk");
		ended(d);
	}
}

char *
mig_disks_lost(const struct mig_disks *ds)
{
	const struct mig_disk	*d;
	char			*why;
	size_t			 i;

	for (i = 0; ds != NULL && i < ds->n; i++) {
		d = &ds->v[i];
		if (!d->lost)
			continue;
		if (d->lost == LOST_UNSEEN)
			xasprintf(&why, "disk %s (%s): its mirror ended "
			    "unseen (no qmigrate watched it, or its events went "
			    "with a lost connection): when is not known",
			    d->key, d->file);
		else
			xasprintf(&why, "disk %s (%s): its mirror %s before "
			    "QEMU completed the migration", d->key, d->file,
			    d->error != NULL ? "failed" : "ended");
		return why;
	}
	return NULL;
}

static void
on_jobs(struct qmp_conn *conn, json_object *reply, const char *error_class,
    const char *error, void *arg)
{
	struct mig_disks	*ds = arg;
	json_object		*j;
	struct mig_disk		*d;
	size_t			 i;

	ds->refreshing = 0;
	if (error != NULL)
		return;
	ds->seen_conn = ds->asked_conn;
	for (i = 0; i < ds->n; i++)
		ds->v[i].started = ds->v[i].started ? 2 : 0; /* 2: unseen */
	for (i = 0; i < json_object_array_length(reply); i++) {
		j = json_object_array_get_idx(reply, i);
		if ((d = find_job(ds, json_str_at(j, "device"))) == NULL)
			continue;
		d->started = 1;
		d->offset = json_u64_at(j, "offset");
		d->len = json_u64_at(j, "len");
		if (json_object_get_boolean(json_object_object_get(j,
		    "ready")))
			d->ready = 1;
	}
	for (i = 0; i < ds->n; i++) {
		if (ds->v[i].started != 2)
			continue;
		ds->v[i].started = 1;
		/* Ended: an event said why, or not.  Without one (missed
		   while the monitor reconnected) when is not known. */
		if (!ds->v[i].gone && !ds->v[i].lost)
			ds->v[i].lost = LOST_UNSEEN;
		ds->v[i].gone = 1;
	}
}

void
mig_disks_refresh(struct mig_disks *ds, struct qmp_conn *qmp, unsigned conn)
{
	char *cause = NULL;

	if (ds == NULL || ds->refreshing || qmp_is_closed(qmp))
		return;
	/* The context stays valid: ds outlives the connection's callbacks. */
	if (qmp_send(qmp, "query-block-jobs", NULL, MIG_JOB_CMD_TIMEOUT,
	    on_jobs, ds, &cause) != 0) {
		log_warnx("query-block-jobs: %s", cause);
		free(cause);
		return;
	}
	ds->refreshing = 1;
	ds->asked_conn = conn;
}

int
mig_disks_seen_on(const struct mig_disks *ds, unsigned conn)
{
	return ds == NULL || ds->seen_conn == conn;
}

int
mig_disks_state(struct mig_disks *ds, char **cause)
{
	size_t	i;
	int	all = 1;

	for (i = 0; i < ds->n; i++) {
		struct mig_disk *d = &ds->v[i];

		if (d->error != NULL || d->gone) {
			xasprintf(cause, "copy of disk %s (%s) failed: %s",
			    d->key, d->file, d->error != NULL ? d->error :
			    "the mirror job ended");
			return -1;
		}
		if (!d->ready)
			all = 0;
	}
	return all;
}


/* A job's command: name and arguments, then JOB_SEND. */
static enum mig_job_next
job_send(struct mig_job_cmd *cmd, const char *name, json_object *args)
{
	cmd->name = name;
	cmd->args = args;
	return JOB_SEND;
}

static json_object *
one_arg(const char *key, const char *value)
{
	json_object *args = json_object_new_object();

	json_object_object_add(args, key, json_object_new_string(value));
	return args;
}

/* Keeps the first reason a job fails for, until it is undone. */
static void
keep_cause(struct mig_disks *ds, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
keep_cause(struct mig_disks *ds, const char *fmt, ...)
{
	va_list ap;

	if (ds->cause != NULL)
		return;
	va_start(ap, fmt);
	xvasprintf(&ds->cause, fmt, ap);
	va_end(ap);
}

static enum mig_job_next
job_fail_kept(struct mig_disks *ds, char **cause)
{
	*cause = ds->cause;
	ds->cause = NULL;
	return JOB_FAILED;
}

/* Our jobs in a query-block-jobs answer. */
static int
jobs_listed(struct mig_disks *ds, json_object *reply)
{
	size_t	i;
	int	n = 0;

	for (i = 0; i < json_object_array_length(reply); i++)
		if (find_job(ds, json_str_at(json_object_array_get_idx(reply,
		    i), "device")) != NULL)
			n++;
	return n;
}

/* Virtual size of node in a query-named-block-nodes answer; 0: unknown. */
static uint64_t
node_size(json_object *nodes, const char *node)
{
	json_object	*n;
	size_t		 i;

	for (i = 0; i < json_object_array_length(nodes); i++) {
		n = json_object_array_get_idx(nodes, i);
		if (json_str_at(n, "node-name") != NULL &&
		    strcmp(json_str_at(n, "node-name"), node) == 0)
			return json_u64_at(json_object_object_get(n, "image"),
			    "virtual-size");
	}
	return 0;
}

/*
 * Why the jobs still listed in a query-block-jobs answer outlived their
 * forced cancel, and what is left: the source QEMU keeps each job and its
 * NBD node (blockdev-del would drain the hung writes, holding its monitor)
 * until the connection breaks; a retry's start refuses while the job
 * runs, then removes the node (START_STALE).  Fits SESS_REASON_MAX (400)
 * with one disk and a socket path of 108 bytes.
 */
static char *
jobs_left_forced(struct mig_disks *ds, json_object *reply)
{
	struct mig_disk	*d;
	char		*jobs = NULL, *nodes = NULL, *tmp, *out;
	size_t		 i;

	for (i = 0; i < json_object_array_length(reply); i++) {
		d = find_job(ds, json_str_at(json_object_array_get_idx(reply,
		    i), "device"));
		if (d == NULL)
			continue;
		xasprintf(&tmp, "%s%s%s", jobs != NULL ? jobs : "",
		    jobs != NULL ? ", " : "", d->job);
		free(jobs);
		jobs = tmp;
		xasprintf(&tmp, "%s%s%s", nodes != NULL ? nodes : "",
		    nodes != NULL ? ", " : "", d->nbd_node);
		free(nodes);
		nodes = tmp;
	}
	xasprintf(&out, "mirror job %s still runs %.0f s after its forced "
	    "cancel: its NBD writes to %s hang (yank cannot end them); it "
	    "ends when that connection breaks (the target QEMU discarded); "
	    "a retry is refused until then, and removes its NBD node %s "
	    "after", jobs, FORCED_END_SECONDS, ds->nbd_uri, nodes);
	free(jobs);
	free(nodes);
	return out;
}

enum {
	FIN_YANK, FIN_YANKED,
	FIN_CANCEL, FIN_CANCELLED, FIN_LIST, FIN_LISTED, FIN_DEL, FIN_DELETED,
};

/*
 * yank (QEMU 6.0) on our NBD client node: its connection is shut and the
 * requests waiting on it fail at once.  Without it, a target that stopped
 * answering (audit D22) leaves them waiting, and blockdev-del's drain
 * then holds the source QEMU's main loop, its monitor with it, forever.
 */
static json_object *
yank_args(const char *node)
{
	json_object *args = json_object_new_object(), *list, *inst;

	inst = one_arg("type", "block-node");
	json_object_object_add(inst, "node-name",
	    json_object_new_string(node));
	list = json_object_new_array();
	json_object_array_add(list, inst);
	json_object_object_add(args, "instances", list);
	return args;
}

enum mig_job_next
mig_disks_source_finish_job(void *ctx, int *pc, json_object *reply,
    const char *error, struct mig_job_cmd *cmd, char **cause)
{
	struct mig_disks	*ds = ctx;
	json_object		*args;
	struct mig_disk		*d;
	int			 left;

	for (;;) switch (*pc) {
	case FIN_YANK:
		/* A failed or aborted copy: nothing on the target is kept. */
		while (!ds->success && ds->cur < ds->n &&
		    !ds->v[ds->cur].nbd_added)
			ds->cur++;
		if (ds->success || ds->cur == ds->n) {
			ds->cur = 0;
			*pc = FIN_CANCEL;
			continue;
		}
		*pc = FIN_YANKED;
		return job_send(cmd, "yank",
		    yank_args(ds->v[ds->cur].nbd_node));
	case FIN_YANKED:
		if (error != NULL)
			log_debug("disk %s: yank: %s", ds->v[ds->cur].key,
			    error);
		ds->cur++;
		*pc = FIN_YANK;
		continue;
	case FIN_CANCEL:
		while (ds->cur < ds->n && !ds->v[ds->cur].started)
			ds->cur++;
		if (ds->cur == ds->n) {
			if (!ds->success && ds->deadline > now_monotonic() +
			    FORCED_END_SECONDS)
				ds->deadline = now_monotonic() +
				    FORCED_END_SECONDS;
			*pc = FIN_LIST;
			continue;
		}
		d = &ds->v[ds->cur];
		args = one_arg("device", d->job);
		json_object_object_add(args, "force",
		    json_object_new_boolean(!ds->success));
		*pc = FIN_CANCELLED;
		return job_send(cmd, "block-job-cancel", args);
	case FIN_CANCELLED:
		if (error != NULL)
			log_debug("disk %s: %s", ds->v[ds->cur].key, error);
		ds->cur++;
		*pc = FIN_CANCEL;
		continue;
	case FIN_LIST:
		*pc = FIN_LISTED;
		return job_send(cmd, "query-block-jobs", NULL);
	case FIN_LISTED:
		if (error != NULL) {
			xasprintf(cause, "query-block-jobs: %s", error);
			return JOB_FAILED;
		}
		left = jobs_listed(ds, reply);
		if (left > 0 && now_monotonic() < ds->deadline) {
			*pc = FIN_LIST;
			cmd->delay = POLL_STEP;
			return JOB_WAIT;
		}
		if (left > 0 && !ds->success) {
			*cause = jobs_left_forced(ds, reply);
			return JOB_FAILED;
		}
		if (left > 0) {
			xasprintf(cause, "mirror jobs still running after "
			    "%.0f s", ds->timeout);
			return JOB_FAILED;
		}
		for (ds->cur = 0; ds->cur < ds->n; ds->cur++)
			ds->v[ds->cur].started = 0;
		ds->cur = 0;
		*pc = FIN_DEL;
		continue;
	case FIN_DEL:
		while (ds->cur < ds->n && !ds->v[ds->cur].nbd_added)
			ds->cur++;
		if (ds->cur == ds->n)
			return ds->cause != NULL ? job_fail_kept(ds, cause) :
			    JOB_DONE;
		*pc = FIN_DELETED;
		return job_send(cmd, "blockdev-del", one_arg("node-name",
		    ds->v[ds->cur].nbd_node));
	case FIN_DELETED:
		d = &ds->v[ds->cur];
		if (error != NULL)
			keep_cause(ds, "disk %s: blockdev-del: %s", d->key,
			    error);
		else
			d->nbd_added = 0;
		ds->cur++;
		*pc = FIN_DEL;
		continue;
	default:
		xasprintf(cause, "disks: lost track of the job");
		return JOB_FAILED;
	}
}

void
mig_disks_source_finish_prepare(struct mig_disks *ds, int success,
    double timeout)
{
	ds->success = success;
	ds->timeout = timeout;
	ds->deadline = now_monotonic() + timeout;
	ds->cur = 0;
	free(ds->cause);
	ds->cause = NULL;
}

enum {
	START_JOBS, START_JOBS_LISTED, START_NODES_LISTED, START_STALE,
	START_STALE_DELETED,
	START_ADD, START_ADDED, START_SIZED, START_MIRROR, START_MIRRORED,
	START_UNDO = 100,	/* then the finish job's program, forced */
};

/* A name qmigrate gives its nodes and jobs. */
static int
ours(const char *name)
{
	return name != NULL && (strncmp(name, "qm-nbd-", 7) == 0 ||
	    strncmp(name, "qm-mirror-", 10) == 0);
}

/*
 * A mirror job of ours that an earlier run left (QEMU 7.2 keeps one whose
 * NBD writes hang on a stopped target past its forced cancel) holds its
 * NBD node until that connection breaks: the retry is refused, nothing
 * done, naming the job and what ends it.  NULL: none runs.
 */
static char *
job_left(json_object *jobs)
{
	json_object	*j;
	const char	*name;
	char		*out;
	size_t		 i;

	for (i = 0; json_object_is_type(jobs, json_type_array) &&
	    i < json_object_array_length(jobs); i++) {
		j = json_object_array_get_idx(jobs, i);
		name = json_str_at(j, "device");
		if (!ours(name))
			continue;
		xasprintf(&out, "the source QEMU still runs mirror job %s "
		    "(%s) of an earlier run, on its NBD node qm-nbd-%s: it "
		    "ends when that NBD connection breaks (the earlier target "
		    "QEMU discarded); nothing done", name,
		    json_str_at(j, "status") != NULL ? json_str_at(j, "status") :
		    "status unknown", name + strlen("qm-mirror-"));
		return out;
	}
	return NULL;
}

/* Our nodes in a query-named-block-nodes answer: no job uses them. */
static json_object *
nodes_left(json_object *nodes)
{
	json_object	*list = json_object_new_array();
	const char	*name;
	size_t		 i;

	for (i = 0; json_object_is_type(nodes, json_type_array) &&
	    i < json_object_array_length(nodes); i++) {
		name = json_str_at(json_object_array_get_idx(nodes, i),
		    "node-name");
		if (ours(name))
			json_object_array_add(list,
			    json_object_new_string(name));
	}
	return list;
}

enum mig_job_next
mig_disks_source_start_job(void *ctx, int *pc, json_object *reply,
    const char *error, struct mig_job_cmd *cmd, char **cause)
{
	struct mig_disks	*ds = ctx;
	json_object		*args;
	struct mig_disk		*d;
	uint64_t		 size;
	int			 sub;
	enum mig_job_next	 next;

	for (;;) switch (*pc) {
	case START_JOBS:
		/*
		 * What an earlier run left first: a node of ours would make
		 * blockdev-add fail on its name.
		 */
		*pc = START_JOBS_LISTED;
		return job_send(cmd, "query-block-jobs", NULL);
	case START_JOBS_LISTED:
		if (error != NULL) {
			xasprintf(cause, "source QEMU: query-block-jobs: %s",
			    error);
			return JOB_FAILED;
		}
		if ((*cause = job_left(reply)) != NULL)
			return JOB_FAILED;
		*pc = START_NODES_LISTED;
		args = json_object_new_object();
		json_object_object_add(args, "flat",
		    json_object_new_boolean(1));
		return job_send(cmd, "query-named-block-nodes", args);
	case START_NODES_LISTED:
		if (error != NULL) {
			xasprintf(cause, "source QEMU: "
			    "query-named-block-nodes: %s", error);
			return JOB_FAILED;
		}
		json_object_put(ds->stale);
		ds->stale = nodes_left(reply);
		ds->cur = 0;
		*pc = START_STALE;
		continue;
	case START_STALE:
		if (ds->cur == json_object_array_length(ds->stale)) {
			ds->cur = 0;
			*pc = START_ADD;
			continue;
		}
		*pc = START_STALE_DELETED;
		return job_send(cmd, "blockdev-del", one_arg("node-name",
		    json_object_get_string(json_object_array_get_idx(
		    ds->stale, ds->cur))));
	case START_STALE_DELETED:
		if (error != NULL) {
			xasprintf(cause, "source QEMU: blockdev-del %s, a node "
			    "an earlier run left: %s; nothing done",
			    json_object_get_string(json_object_array_get_idx(
			    ds->stale, ds->cur)), error);
			return JOB_FAILED;
		}
		log_info("removed node %s, left on the source QEMU by an "
		    "earlier run (no block job used it)",
		    json_object_get_string(json_object_array_get_idx(
		    ds->stale, ds->cur)));
		ds->cur++;
		*pc = START_STALE;
		continue;
	case START_ADD:
		/* Every target first: nothing is copied unless all fit. */
		if (ds->cur == ds->n) {
			ds->cur = 0;
			*pc = START_MIRROR;
			continue;
		}
		d = &ds->v[ds->cur];
		args = json_object_new_object();
		json_object_object_add(args, "driver",
		    json_object_new_string("nbd"));
		json_object_object_add(args, "node-name",
		    json_object_new_string(d->nbd_node));
		json_object_object_add(args, "server",
		    socket_address(ds->nbd_uri, 0));
		json_object_object_add(args, "export",
		    json_object_new_string(d->key));
		*pc = START_ADDED;
		return job_send(cmd, "blockdev-add", args);
	case START_ADDED:
		d = &ds->v[ds->cur];
		if (error != NULL) {
			keep_cause(ds, "disk %s: target export at %s: "
			    "blockdev-add: %s", d->key, ds->nbd_uri, error);
			goto undo;
		}
		d->nbd_added = 1;
		*pc = START_SIZED;
		return job_send(cmd, "query-named-block-nodes", NULL);
	case START_SIZED:
		d = &ds->v[ds->cur];
		if (error != NULL) {
			keep_cause(ds, "disk %s: query-named-block-nodes: %s",
			    d->key, error);
			goto undo;
		}
		size = node_size(reply, d->nbd_node);
		if (size < d->size) {
			keep_cause(ds, "disk %s: the target's disk has %llu "
			    "bytes, smaller than the source's %s with %llu "
			    "bytes: nothing copied", d->key,
			    (unsigned long long)size, d->file,
			    (unsigned long long)d->size);
			goto undo;
		}
		ds->cur++;
		*pc = START_ADD;
		continue;
	case START_MIRROR:
		if (ds->cur == ds->n)
			return JOB_DONE;
		d = &ds->v[ds->cur];
		args = json_object_new_object();
		json_object_object_add(args, "job-id",
		    json_object_new_string(d->job));
		json_object_object_add(args, "device",
		    json_object_new_string(d->node));
		json_object_object_add(args, "target",
		    json_object_new_string(d->nbd_node));
		json_object_object_add(args, "sync",
		    json_object_new_string("full"));
		/*
		 * QEMU 7.2 cannot switch a running job to write-blocking:
		 * set from the start, so a ready job stays in sync.
		 */
		json_object_object_add(args, "copy-mode",
		    json_object_new_string("write-blocking"));
		if (ds->speed > 0)
			json_object_object_add(args, "speed",
			    json_object_new_uint64(ds->speed));
		*pc = START_MIRRORED;
		return job_send(cmd, "blockdev-mirror", args);
	case START_MIRRORED:
		d = &ds->v[ds->cur];
		if (error != NULL) {
			keep_cause(ds, "disk %s: blockdev-mirror: %s", d->key,
			    error);
			goto undo;
		}
		d->started = 1;
		log_info("copying disk %s (%s, %llu bytes) to %s", d->key,
		    d->file, (unsigned long long)d->size, ds->nbd_uri);
		ds->cur++;
		*pc = START_MIRROR;
		continue;
	default:
		if (*pc < START_UNDO)
			goto undo;
		/* Undoing: the finish job's program, then the first cause. */
		sub = *pc - START_UNDO;
		next = mig_disks_source_finish_job(ctx, &sub, reply, error,
		    cmd, cause);
		*pc = START_UNDO + sub;
		if (next == JOB_FAILED) {
			log_warnx("%s", *cause);
			free(*cause);
			*cause = NULL;
		}
		if (next == JOB_DONE || next == JOB_FAILED) {
			*cause = ds->start_cause != NULL ? ds->start_cause :
			    xstrdup("the mirrors could not start");
			ds->start_cause = NULL;
			return JOB_FAILED;
		}
		return next;
	}
undo:
	free(ds->start_cause);
	ds->start_cause = ds->cause;
	ds->cause = NULL;
	mig_disks_source_finish_prepare(ds, 0, 30);
	*pc = START_UNDO;
	return mig_disks_source_start_job(ctx, pc, NULL, NULL, cmd, cause);
}

void
mig_disks_source_start_prepare(struct mig_disks *ds, const char *nbd_uri,
    uint64_t speed)
{
	free(ds->nbd_uri);
	ds->nbd_uri = xstrdup(nbd_uri);
	ds->speed = speed;
	ds->cur = 0;
	free(ds->cause);
	ds->cause = NULL;
}

enum { STOP_DEL, STOP_DELETED, STOP_SERVER, STOP_SERVER_STOPPED };

enum mig_job_next
mig_disks_target_stop_job(void *ctx, int *pc, json_object *reply,
    const char *error, struct mig_job_cmd *cmd, char **cause)
{
	struct mig_disks	*ds = ctx;
	json_object		*args;

	(void)reply;
	(void)cause;
	for (;;) switch (*pc) {
	case STOP_DEL:
		while (ds->cur < ds->n && !ds->v[ds->cur].exported)
			ds->cur++;
		if (ds->cur == ds->n) {
			*pc = STOP_SERVER;
			continue;
		}
		args = one_arg("id", ds->v[ds->cur].key);
		json_object_object_add(args, "mode",
		    json_object_new_string("hard"));
		*pc = STOP_DELETED;
		return job_send(cmd, "block-export-del", args);
	case STOP_DELETED:
		if (error != NULL)
			log_debug("%s", error);
		ds->v[ds->cur++].exported = 0;
		*pc = STOP_DEL;
		continue;
	case STOP_SERVER:
		if (!ds->server)
			return JOB_DONE;
		*pc = STOP_SERVER_STOPPED;
		return job_send(cmd, "nbd-server-stop", NULL);
	default:
		if (error != NULL)
			log_warnx("nbd-server-stop: %s", error);
		ds->server = 0;
		if (ds->unix_path != NULL && world->unlink(ds->unix_path) != 0 &&
		    errno != ENOENT)
			log_warn("%s", ds->unix_path);
		return JOB_DONE;
	}
}

/*
 * A target job's way out: the stop job's program from pc base on (every
 * export removed, the server stopped), then the failure kept before it.
 */
static enum mig_job_next
stop_then_fail(struct mig_disks *ds, int *pc, int base, json_object *reply,
    const char *error, struct mig_job_cmd *cmd, char **cause)
{
	enum mig_job_next	next;
	int			sub = *pc - base;

	next = mig_disks_target_stop_job(ds, &sub, reply, error, cmd, cause);
	*pc = base + sub;
	if (next == JOB_DONE)
		return job_fail_kept(ds, cause);
	return next;
}

enum {
	TSTART_SERVER, TSTART_SERVED, TSTART_EXPORT, TSTART_EXPORTED,
	TSTART_UNDO = 100,
};

enum mig_job_next
mig_disks_target_start_job(void *ctx, int *pc, json_object *reply,
    const char *error, struct mig_job_cmd *cmd, char **cause)
{
	struct mig_disks	*ds = ctx;
	json_object		*args;
	struct mig_disk		*d;

	for (;;) switch (*pc) {
	case TSTART_SERVER:
		/* A stale socket of an earlier run would make bind fail. */
		if (strncmp(ds->nbd_uri, "unix:", 5) == 0 &&
		    world->unlink(ds->nbd_uri + 5) != 0 && errno != ENOENT)
			log_warn("%s", ds->nbd_uri + 5);
		args = json_object_new_object();
		json_object_object_add(args, "addr",
		    socket_address(ds->nbd_uri, 1));
		*pc = TSTART_SERVED;
		return job_send(cmd, "nbd-server-start", args);
	case TSTART_SERVED:
		if (error != NULL) {
			xasprintf(cause, "NBD server on %s: nbd-server-start: "
			    "%s", ds->nbd_uri, error);
			return JOB_FAILED;
		}
		ds->server = 1;
		if (strncmp(ds->nbd_uri, "unix:", 5) == 0) {
			free(ds->unix_path);
			ds->unix_path = xstrdup(ds->nbd_uri + 5);
		}
		ds->cur = 0;
		*pc = TSTART_EXPORT;
		continue;
	case TSTART_EXPORT:
		if (ds->cur == ds->n)
			return JOB_DONE;
		d = &ds->v[ds->cur];
		args = one_arg("type", "nbd");
		json_object_object_add(args, "id",
		    json_object_new_string(d->key));
		json_object_object_add(args, "node-name",
		    json_object_new_string(d->node));
		json_object_object_add(args, "name",
		    json_object_new_string(d->key));
		json_object_object_add(args, "writable",
		    json_object_new_boolean(1));
		*pc = TSTART_EXPORTED;
		return job_send(cmd, "block-export-add", args);
	case TSTART_EXPORTED:
		d = &ds->v[ds->cur];
		if (error != NULL) {
			keep_cause(ds, "disk %s (%s): block-export-add: %s%s",
			    d->key, d->file, error,
			    strstr(error, "read-only") != NULL ? " (a "
			    "-drive disk needs file.auto-read-only=off on the "
			    "target; or use -blockdev)" : "");
			ds->cur = 0;
			*pc = TSTART_UNDO;
			reply = NULL;
			error = NULL;
			continue;
		}
		d->exported = 1;
		log_info("disk %s (%s, %llu bytes) exported on %s", d->key,
		    d->file, (unsigned long long)d->size, ds->nbd_uri);
		ds->cur++;
		*pc = TSTART_EXPORT;
		continue;
	default:
		return stop_then_fail(ds, pc, TSTART_UNDO, reply, error, cmd,
		    cause);
	}
}

void
mig_disks_target_start_prepare(struct mig_disks *ds, const char *nbd_uri)
{
	free(ds->nbd_uri);
	ds->nbd_uri = xstrdup(nbd_uri);
	ds->cur = 0;
	free(ds->cause);
	ds->cause = NULL;
}

enum {
	REL_DEL, REL_DELETED, REL_SERVER, REL_SERVER_STOPPED,
	REL_FORCE = 100,	/* the stop job's program, then fail */
};

enum mig_job_next
mig_disks_target_release_job(void *ctx, int *pc, json_object *reply,
    const char *error, struct mig_job_cmd *cmd, char **cause)
{
	struct mig_disks	*ds = ctx;
	json_object		*args;
	struct mig_disk		*d;

	for (;;) switch (*pc) {
	case REL_DEL:
		while (ds->cur < ds->n && !ds->v[ds->cur].exported)
			ds->cur++;
		if (ds->cur < ds->n) {
			/* Safe mode refuses while the source's client is there. */
			args = one_arg("id", ds->v[ds->cur].key);
			json_object_object_add(args, "mode",
			    json_object_new_string("safe"));
			*pc = REL_DELETED;
			return job_send(cmd, "block-export-del", args);
		}
		if (!ds->busy) {
			*pc = REL_SERVER;
			continue;
		}
		ds->busy = 0;
		ds->cur = 0;
		if (now_monotonic() < ds->deadline) {
			cmd->delay = RELEASE_STEP;
			return JOB_WAIT;
		}
		keep_cause(ds, "the source's mirrors did not end within "
		    "%.0f s", ds->timeout);
		*pc = REL_FORCE;
		continue;
	case REL_DELETED:
		d = &ds->v[ds->cur];
		if (error != NULL && strstr(error, "in use") == NULL) {
			keep_cause(ds, "disk %s: block-export-del: %s", d->key,
			    error);
			ds->cur = 0;
			*pc = REL_FORCE;
			continue;
		}
		if (error != NULL)
			ds->busy = 1;
		else {
			d->exported = 0;
			log_info("disk %s: the source's mirror is done",
			    d->key);
		}
		ds->cur++;
		*pc = REL_DEL;
		continue;
	case REL_SERVER:
		if (!ds->server)
			return JOB_DONE;
		*pc = REL_SERVER_STOPPED;
		return job_send(cmd, "nbd-server-stop", NULL);
	case REL_SERVER_STOPPED:
		if (error != NULL) {
			xasprintf(cause, "nbd-server-stop: %s", error);
			return JOB_FAILED;
		}
		ds->server = 0;
		if (ds->unix_path != NULL && world->unlink(ds->unix_path) != 0 &&
		    errno != ENOENT)
			log_warn("%s", ds->unix_path);
		return JOB_DONE;
	default:
		return stop_then_fail(ds, pc, REL_FORCE, reply, error, cmd,
		    cause);
	}
}

void
mig_disks_target_release_prepare(struct mig_disks *ds, double timeout)
{
	ds->timeout = timeout;
	ds->deadline = now_monotonic() + timeout;
	ds->cur = 0;
	ds->busy = 0;
	free(ds->cause);
	ds->cause = NULL;
}

void
mig_disks_target_stop_prepare(struct mig_disks *ds)
{
	ds->cur = 0;
}
