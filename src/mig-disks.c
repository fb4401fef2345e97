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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "qmp.h"
#include "mig-disks.h"

#define DISKS_MAX	64		/* disks copied in one migration */
#define QMP_TIMEOUT	10.0
#define POLL_STEP	0.2		/* between two query-block-jobs */

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
};

struct mig_disks {
	struct mig_disk	*v;
	size_t		 n;
	int		 server;	/* target: NBD server started */
	char		*unix_path;	/* target: socket to remove */
	int		 refreshing;
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
	free(ds);
}

int
mig_disks_select(struct qmp_conn *qmp, const struct mig_settings *s,
    int source, struct mig_disks **out, char **cause)
{
	json_object		*blocks = NULL, *dev, *ins, *image;
	struct mig_disks	*ds;
	struct mig_disk		*d;
	const char		*node, *device, *file, *key;
	char			 why[256];
	size_t			 i;
	int			 shared, take;

	*out = NULL;
	if (s->block_migration == BLOCK_MIGRATION_NEVER)
		return 0;
	if (qmp_call(qmp, "query-block", NULL, &blocks, QMP_TIMEOUT,
	    cause) != 0)
		return -1;
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
			json_object_put(blocks);
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
	json_object_put(blocks);
	if (ds->n == 0) {
		mig_disks_free(ds);
		return 0;
	}
	*out = ds;
	return 0;
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

/* Virtual size of a node, from query-named-block-nodes; 0 if unknown. */
static uint64_t
node_size(struct qmp_conn *qmp, const char *node, char **cause)
{
	json_object	*nodes = NULL, *n;
	uint64_t	 size = 0;
	size_t		 i;

	if (qmp_call(qmp, "query-named-block-nodes", NULL, &nodes,
	    QMP_TIMEOUT, cause) != 0)
		return 0;
	for (i = 0; i < json_object_array_length(nodes); i++) {
		n = json_object_array_get_idx(nodes, i);
		if (json_str_at(n, "node-name") != NULL &&
		    strcmp(json_str_at(n, "node-name"), node) == 0)
			size = json_u64_at(json_object_object_get(n, "image"),
			    "virtual-size");
	}
	json_object_put(nodes);
	return size;
}

int
mig_disks_source_start(struct mig_disks *ds, struct qmp_conn *qmp,
    const char *nbd_uri, uint64_t speed, char **cause)
{
	json_object	*args;
	struct mig_disk	*d;
	uint64_t	 size;
	char		*why = NULL;
	size_t		 i;

	/* Every target first: nothing is copied unless all fit. */
	for (i = 0; i < ds->n; i++) {
		d = &ds->v[i];
		args = json_object_new_object();
		json_object_object_add(args, "driver",
		    json_object_new_string("nbd"));
		json_object_object_add(args, "node-name",
		    json_object_new_string(d->nbd_node));
		json_object_object_add(args, "server",
		    socket_address(nbd_uri, 0));
		json_object_object_add(args, "export",
		    json_object_new_string(d->key));
		if (qmp_call(qmp, "blockdev-add", args, NULL, QMP_TIMEOUT,
		    &why) != 0) {
			xasprintf(cause, "disk %s: target export at %s: %s",
			    d->key, nbd_uri, why);
			goto fail;
		}
		d->nbd_added = 1;
		size = node_size(qmp, d->nbd_node, &why);
		if (why != NULL) {
			xasprintf(cause, "disk %s: %s", d->key, why);
			goto fail;
		}
		if (size < d->size) {
			xasprintf(cause, "disk %s: the target's disk has %llu "
			    "bytes, smaller than the source's %s with %llu "
			    "bytes: nothing copied", d->key,
			    (unsigned long long)size, d->file,
			    (unsigned long long)d->size);
			goto fail;
		}
	}
	for (i = 0; i < ds->n; i++) {
		d = &ds->v[i];
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
		if (speed > 0)
			json_object_object_add(args, "speed",
			    json_object_new_uint64(speed));
		if (qmp_call(qmp, "blockdev-mirror", args, NULL, QMP_TIMEOUT,
		    &why) != 0) {
			xasprintf(cause, "disk %s: %s", d->key, why);
			goto fail;
		}
		d->started = 1;
		log_info("copying disk %s (%s, %llu bytes) to %s", d->key,
		    d->file, (unsigned long long)d->size, nbd_uri);
	}
	return 0;
fail:
	free(why);
	why = NULL;
	if (mig_disks_source_finish(ds, qmp, 0, 30, &why) != 0) {
		log_warnx("%s", why);
		free(why);
	}
	return -1;
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
	} else if (strcmp(name, "BLOCK_JOB_ERROR") == 0 && d->error == NULL)
		xasprintf(&d->error, "I/O error on %s",
		    json_str_at(data, "operation") != NULL ?
		    json_str_at(data, "operation") : "the disk");
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
		ds->v[i].gone = 1;	/* ended: an event said why, or not */
	}
}

void
mig_disks_refresh(struct mig_disks *ds, struct qmp_conn *qmp)
{
	char *cause = NULL;

	if (ds == NULL || ds->refreshing || qmp_is_closed(qmp))
		return;
	/* The context stays valid: ds outlives the connection's callbacks. */
	if (qmp_send(qmp, "query-block-jobs", NULL, QMP_TIMEOUT, on_jobs, ds,
	    &cause) != 0) {
		log_warnx("query-block-jobs: %s", cause);
		free(cause);
		return;
	}
	ds->refreshing = 1;
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

/* Our jobs QEMU still runs (query-block-jobs); -1 if it cannot say. */
static int
jobs_left(struct mig_disks *ds, struct qmp_conn *qmp, char **cause)
{
	json_object	*reply = NULL;
	size_t		 i;
	int		 n = 0;

	if (qmp_call(qmp, "query-block-jobs", NULL, &reply, QMP_TIMEOUT,
	    cause) != 0)
		return -1;
	for (i = 0; i < json_object_array_length(reply); i++)
		if (find_job(ds, json_str_at(json_object_array_get_idx(reply, i),
		    "device")) != NULL)
			n++;
	json_object_put(reply);
	return n;
}

int
mig_disks_source_finish(struct mig_disks *ds, struct qmp_conn *qmp,
    int success, double timeout, char **cause)
{
	json_object	*args;
	struct mig_disk	*d;
	double		 deadline = now_monotonic() + timeout;
	char		*why = NULL;
	size_t		 i;
	int		 left, dummy = 0, rc = 0;

	if (ds == NULL)
		return 0;
	if (qmp_is_closed(qmp)) {
		xasprintf(cause, "the source QEMU is gone: the mirror jobs "
		    "went with it");
		return -1;
	}
	for (i = 0; i < ds->n; i++) {
		d = &ds->v[i];
		if (!d->started)
			continue;
		args = json_object_new_object();
		json_object_object_add(args, "device",
		    json_object_new_string(d->job));
		json_object_object_add(args, "force",
		    json_object_new_boolean(!success));
		if (qmp_call(qmp, "block-job-cancel", args, NULL, QMP_TIMEOUT,
		    &why) != 0) {
			log_debug("disk %s: %s", d->key, why);
			free(why);
			why = NULL;
		}
	}
	while ((left = jobs_left(ds, qmp, &why)) > 0 &&
	    now_monotonic() < deadline) {
		/* Nothing sets dummy: this runs the loop for POLL_STEP. */
		if (qmp_run_until(qmp, &dummy, POLL_STEP, &why) != 0) {
			free(why);
			why = NULL;
		}
	}
	if (left < 0) {
		xasprintf(cause, "mirror jobs: %s", why);
		free(why);
		return -1;
	}
	if (left > 0) {
		xasprintf(cause, "mirror jobs still running after %.0f s",
		    timeout);
		return -1;
	}
	for (i = 0; i < ds->n; i++) {
		d = &ds->v[i];
		d->started = 0;
		if (!d->nbd_added)
			continue;
		args = json_object_new_object();
		json_object_object_add(args, "node-name",
		    json_object_new_string(d->nbd_node));
		if (qmp_call(qmp, "blockdev-del", args, NULL, QMP_TIMEOUT,
		    &why) != 0) {
			if (rc == 0)
				xasprintf(cause, "disk %s: %s", d->key, why);
			free(why);
			why = NULL;
			rc = -1;
			continue;
		}
		d->nbd_added = 0;
	}
	return rc;
}

int
mig_disks_target_start(struct mig_disks *ds, struct qmp_conn *qmp,
    const char *nbd_uri, char **cause)
{
	json_object	*args;
	struct mig_disk	*d;
	char		*why = NULL;
	size_t		 i;

	args = json_object_new_object();
	json_object_object_add(args, "addr", socket_address(nbd_uri, 1));
	if (strncmp(nbd_uri, "unix:", 5) == 0) {
		/* A stale socket of an earlier run would make bind fail. */
		if (unlink(nbd_uri + 5) != 0 && errno != ENOENT)
			log_warn("%s", nbd_uri + 5);
	}
	if (qmp_call(qmp, "nbd-server-start", args, NULL, QMP_TIMEOUT,
	    &why) != 0) {
		xasprintf(cause, "NBD server on %s: %s", nbd_uri, why);
		free(why);
		return -1;
	}
	ds->server = 1;
	if (strncmp(nbd_uri, "unix:", 5) == 0)
		ds->unix_path = xstrdup(nbd_uri + 5);
	for (i = 0; i < ds->n; i++) {
		d = &ds->v[i];
		args = json_object_new_object();
		json_object_object_add(args, "type",
		    json_object_new_string("nbd"));
		json_object_object_add(args, "id",
		    json_object_new_string(d->key));
		json_object_object_add(args, "node-name",
		    json_object_new_string(d->node));
		json_object_object_add(args, "name",
		    json_object_new_string(d->key));
		json_object_object_add(args, "writable",
		    json_object_new_boolean(1));
		if (qmp_call(qmp, "block-export-add", args, NULL, QMP_TIMEOUT,
		    &why) != 0) {
			xasprintf(cause, "disk %s (%s): %s%s", d->key, d->file,
			    why, strstr(why, "read-only") != NULL ? " (a "
			    "-drive disk needs file.auto-read-only=off on the "
			    "target; or use -blockdev)" : "");
			free(why);
			mig_disks_target_stop(ds, qmp);
			return -1;
		}
		d->exported = 1;
		log_info("disk %s (%s, %llu bytes) exported on %s", d->key,
		    d->file, (unsigned long long)d->size, nbd_uri);
	}
	return 0;
}

static int
server_stop(struct mig_disks *ds, struct qmp_conn *qmp, char **cause)
{
	char *why = NULL;

	if (!ds->server)
		return 0;
	if (qmp_call(qmp, "nbd-server-stop", NULL, NULL, QMP_TIMEOUT,
	    &why) != 0) {
		xasprintf(cause, "%s", why);
		free(why);
		return -1;
	}
	ds->server = 0;
	if (ds->unix_path != NULL && unlink(ds->unix_path) != 0 &&
	    errno != ENOENT)
		log_warn("%s", ds->unix_path);
	return 0;
}

int
mig_disks_target_release(struct mig_disks *ds, struct qmp_conn *qmp,
    char **cause)
{
	json_object	*args;
	struct mig_disk	*d;
	char		*why = NULL;
	size_t		 i;
	int		 busy = 0;

	for (i = 0; i < ds->n; i++) {
		d = &ds->v[i];
		if (!d->exported)
			continue;
		/* Safe mode refuses while the source's client is there. */
		args = json_object_new_object();
		json_object_object_add(args, "id",
		    json_object_new_string(d->key));
		json_object_object_add(args, "mode",
		    json_object_new_string("safe"));
		if (qmp_call(qmp, "block-export-del", args, NULL, QMP_TIMEOUT,
		    &why) != 0) {
			if (strstr(why, "in use") == NULL) {
				xasprintf(cause, "disk %s: %s", d->key, why);
				free(why);
				return -1;
			}
			free(why);
			why = NULL;
			busy = 1;
			continue;
		}
		d->exported = 0;
		log_info("disk %s: the source's mirror is done", d->key);
	}
	if (busy)
		return 0;
	return server_stop(ds, qmp, cause) == 0 ? 1 : -1;
}

void
mig_disks_target_stop(struct mig_disks *ds, struct qmp_conn *qmp)
{
	json_object	*args;
	char		*why = NULL;
	size_t		 i;

	if (ds == NULL)
		return;
	if (qmp_is_closed(qmp)) {
		ds->server = 0;
		if (ds->unix_path != NULL)
			unlink(ds->unix_path);
		return;
	}
	for (i = 0; i < ds->n; i++) {
		if (!ds->v[i].exported)
			continue;
		args = json_object_new_object();
		json_object_object_add(args, "id",
		    json_object_new_string(ds->v[i].key));
		json_object_object_add(args, "mode",
		    json_object_new_string("hard"));
		if (qmp_call(qmp, "block-export-del", args, NULL, QMP_TIMEOUT,
		    &why) != 0) {
			log_debug("%s", why);
			free(why);
			why = NULL;
		}
		ds->v[i].exported = 0;
	}
	if (server_stop(ds, qmp, &why) != 0) {
		log_warnx("nbd-server-stop: %s", why);
		free(why);
	}
}
