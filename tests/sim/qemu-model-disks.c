/*
 * qemu-model-disks.c: the block layer's world for the simulator's QEMU
 * (qemu-model-sim.h).  The model's table holds the mirror jobs' statuses
 * (job.c, block/mirror.c) and the NBD server's exports; what they depend
 * on and the state does not hold is here: the disks on the command line
 * (-blockdev node-name=diskN, answered in query-block as QEMU 7.2
 * answered for the disk of tests/traces/qmp/disk-mirror-7.2), a source's
 * NBD client nodes and whether their connection to the target's export
 * still stands (the target QEMU gone, its server stopped, the export
 * removed, a yank, the network: once broken, for good, as QEMU's nbd
 * client with no reconnect-delay), and each mirror's pace, the world's
 * draw (done after so long, or never: creeping on or stalled).  The
 * "may" refusals of the block commands are decided here, with QEMU's
 * own texts (blockdev.c, block/nbd.c, nbd/server.c, block/export).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qemu-model-sim.h"

/* The trace's disk is 64 MiB; disk1 twice that. */
#define DISK_BYTES	(64ULL << 20)

static uint64_t
disk_size(const struct qm_qemu *q, int i)
{
	return (DISK_BYTES << i) >> (i == 0 && q->cfg.disk_short ? 1 : 0);
}

/* diskN, one of this QEMU's: N; else -1. */
static int
disk_of(const struct qm_qemu *q, const char *node)
{
	int	 i;

	for (i = 0; node != NULL && i < q->cfg.ndisks; i++) {
		char	 name[16];

		snprintf(name, sizeof name, "disk%d", i);
		if (strcmp(node, name) == 0)
			return i;
	}
	return -1;
}

static void
disk_file(const struct qm_qemu *q, int i, char *buf, size_t len)
{
	snprintf(buf, len, "/sim/%s-disk%d.qcow2", q->cfg.incoming ? "dst" :
	    "src", i);
}

static const char *
arg_str(struct json_object *o, const char *key)
{
	struct json_object	*a, *v;

	if (!json_object_object_get_ex(o, "arguments", &a) ||
	    !json_object_object_get_ex(a, key, &v))
		return NULL;
	return json_object_get_string(v);
}

/* An NBD server address (SocketAddress, flat or legacy) as a URI. */
static void
server_uri(struct json_object *addr, char *buf, size_t len)
{
	struct json_object	*v, *data = addr;
	const char		*type;

	buf[0] = '\0';
	if (!json_object_object_get_ex(addr, "type", &v))
		return;
	type = json_object_get_string(v);
	if (!json_object_object_get_ex(addr, "data", &data))
		data = addr;	/* flat: blockdev-add's */
	if (strcmp(type, "unix") == 0 &&
	    json_object_object_get_ex(data, "path", &v))
		snprintf(buf, len, "unix:%s", json_object_get_string(v));
	else if (strcmp(type, "inet") == 0) {
		struct json_object *h = NULL, *p = NULL;

		(void)json_object_object_get_ex(data, "host", &h);
		(void)json_object_object_get_ex(data, "port", &p);
		snprintf(buf, len, "tcp:%s:%s", h ? json_object_get_string(h) :
		    "", p ? json_object_get_string(p) : "");
	}
}

static int
export_at(const struct qm_qemu *t, const char *name)
{
	int	 j;

	for (j = 0; j < t->s.nexports; j++)
		if (!(t->s.exports_gone & (1u << j)) &&
		    strcmp(t->s.exports[j], name) == 0)
			return j;
	return -1;
}

static int
node_at(const struct qm_qemu *q, const char *name)
{
	int	 k;

	for (k = 0; name != NULL && k < QM_MAX_NODES; k++)
		if (q->nodes[k].used && strcmp(q->nodes[k].name, name) == 0)
			return k;
	return -1;
}

static int
job_at(const struct qm_qemu *q, const char *id)
{
	int	 j;

	for (j = 0; j < q->s.njobs; j++)
		if (q->s.jobs[j].status != QM_JOB_NULL &&
		    strcmp(q->s.jobs[j].id, id) == 0)
			return j;
	return -1;
}

/*
 * Node k's connection ends, for good.  While the guest runs, it writes:
 * one of its writes in flight fails its mirror half (noted here, for
 * mirror-io-error, even after QEMU's STOP: do_vm_stop drains the writes
 * in flight after it sends STOP).  With the guest stopped, a ready
 * mirror does no I/O, and nothing fails until one comes.
 */
static void
node_break(struct qm_qemu *q, int k)
{
	if (!q->nodes[k].broken)
		q->nodes[k].broke_running = qm_runs_guest(&q->s);
	q->nodes[k].broken = 1;
}

/*
 * Does node k's connection stand?  The target's server must run at its
 * address with the export still there; once not, the link is broken for
 * good (a new server is a new connection qmigrate never makes).
 */
static int
link_up(struct qm_qemu *q, int k)
{
	struct qm_nbd_node	*nd;
	struct qm_qemu		*t;

	if (k < 0 || k >= QM_MAX_NODES || !q->nodes[k].used ||
	    q->nodes[k].broken)
		return 0;
	nd = &q->nodes[k];
	t = nd->target;
	if (t == NULL || !t->s.alive || !t->s.nbd_server ||
	    strcmp(t->nbd_uri, nd->uri) != 0 ||
	    export_at(t, nd->export_name) < 0) {
		node_break(q, k);
		return 0;
	}
	return 1;
}

/* Is node k's server stopped (SIGSTOP)?  Its writes wait then: the
   connection's buffers are full, nothing is read (the link stands). */
static int
link_stopped(const struct qm_qemu *q, int k)
{
	return k >= 0 && k < QM_MAX_NODES && q->nodes[k].used &&
	    q->nodes[k].target != NULL && q->nodes[k].target->sigstopped;
}

/* The clock of job j's copy: it stands while its NBD server is stopped. */
static double
job_now(const struct qm_qemu *q, int j)
{
	const struct qm_job_pace *p = &q->pace[j];

	return link_stopped(q, p->node) ? fmin(q->now,
	    fmax(q->nodes[p->node].target->sigstop_at, p->start)) : q->now;
}

static char *
error_line(const struct qm_cmd *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static char *
error_line(const struct qm_cmd *c, const char *fmt, ...)
{
	struct json_object	*o = json_object_new_object(), *e;
	char			 desc[256], *line;
	va_list			 ap;

	va_start(ap, fmt);
	vsnprintf(desc, sizeof desc, fmt, ap);
	va_end(ap);
	e = json_object_new_object();
	json_object_object_add(e, "class",
	    json_object_new_string("GenericError"));
	json_object_object_add(e, "desc", json_object_new_string(desc));
	json_object_object_add(o, "error", e);
	if (c->id[0] != '\0')
		json_object_object_add(o, "id", json_object_new_string(c->id));
	if ((line = strdup(json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN))) == NULL)
		abort();
	json_object_put(o);
	return line;
}

/* The target a blockdev-add of an NBD node reaches, or why not. */
static struct qm_qemu *
nbd_reach(struct qm_qemu *q, struct json_object *o, char *uri, size_t len,
    const char **why)
{
	struct json_object	*a, *srv;
	struct qm_qemu		*t;
	const char		*exp = arg_str(o, "export");

	uri[0] = '\0';
	*why = "";
	if (json_object_object_get_ex(o, "arguments", &a) &&
	    json_object_object_get_ex(a, "server", &srv))
		server_uri(srv, uri, len);
	t = q->w.nbd_listener != NULL ? q->w.nbd_listener(q->w.arg, uri) :
	    NULL;
	if (t == NULL || !t->s.alive || !t->s.nbd_server ||
	    strcmp(t->nbd_uri, uri) != 0) {
		*why = "connect";
		return NULL;
	}
	if (exp == NULL || export_at(t, exp) < 0) {
		*why = "export";
		return NULL;
	}
	return t;
}

char *
qd_refusal(struct qm_qemu *q, const struct qm_cmd *c, struct json_object *o)
{
	const char	*n = c->name, *node, *why;
	char		 uri[128];
	int		 k, j;

	if (strcmp(n, "blockdev-add") == 0) {
		const char *drv = arg_str(o, "driver");

		node = arg_str(o, "node-name");
		if (drv == NULL || strcmp(drv, "nbd") != 0 || node == NULL)
			return NULL;
		if (node_at(q, node) >= 0 || disk_of(q, node) >= 0)
			return error_line(c, "Duplicate nodes with "
			    "node-name='%s'", node);
		if (nbd_reach(q, o, uri, sizeof uri, &why) != NULL)
			return NULL;
		if (strcmp(why, "export") == 0)
			return error_line(c, "Requested export not available");
		/* block/nbd.c nbd_connect: the socket's error */
		return strncmp(uri, "unix:", 5) == 0 ?
		    error_line(c, "Failed to connect to '%s': No such file or "
		    "directory", uri + 5) :
		    error_line(c, "Failed to connect to '%s': Connection "
		    "refused", uri + 4);
	}
	if (strcmp(n, "blockdev-del") == 0) {
		if ((node = arg_str(o, "node-name")) == NULL)
			return NULL;
		if ((k = node_at(q, node)) < 0)
			return disk_of(q, node) >= 0 ? NULL : error_line(c,
			    "Failed to find node with node-name='%s'", node);
		for (j = 0; j < q->s.njobs; j++)
			if (q->s.jobs[j].status != QM_JOB_NULL &&
			    q->pace[j].on && q->pace[j].node == k)
				return error_line(c, "Node '%s' is busy: block "
				    "device is in use by block job: mirror",
				    node);
		return NULL;
	}
	if (strcmp(n, "blockdev-mirror") == 0) {
		const char *dev = arg_str(o, "device"),
		    *tgt = arg_str(o, "target");

		if (dev == NULL || disk_of(q, dev) < 0)
			return error_line(c, "Cannot find device='%s' nor "
			    "node-name='%s'", dev ? dev : "", dev ? dev : "");
		if (tgt == NULL || node_at(q, tgt) < 0)
			return error_line(c, "Cannot find device='%s' nor "
			    "node-name='%s'", tgt ? tgt : "", tgt ? tgt : "");
		if (job_at(q, c->job) >= 0)
			return error_line(c, "Job ID '%s' already in use",
			    c->job);
		for (j = 0; j < q->s.njobs; j++)
			if (q->s.jobs[j].status != QM_JOB_NULL &&
			    q->pace[j].on && q->pace[j].disk == disk_of(q, dev))
				return error_line(c, "Node '%s' is busy: block "
				    "device is in use by block job: mirror",
				    dev);
		return NULL;
	}
	/* blockdev.c find_block_job_locked: no job of that id (never
	   started, or concluded and auto-dismissed) */
	if ((strcmp(n, "block-job-cancel") == 0 ||
	    strcmp(n, "block-job-complete") == 0) && job_at(q, c->job) < 0)
		return error_line(c, "Block job '%s' not found", c->job);
	if (strcmp(n, "nbd-server-start") == 0 && q->s.nbd_server)
		return error_line(c, "NBD server already running");
	if (strcmp(n, "nbd-server-stop") == 0 && !q->s.nbd_server)
		return error_line(c, "NBD server not running");
	if (strcmp(n, "block-export-add") == 0) {
		node = arg_str(o, "node-name");
		if (!q->s.nbd_server)
			return error_line(c, "NBD server not running");
		if (export_at(q, c->job) >= 0)
			return error_line(c, "Block export id '%s' is already "
			    "in use", c->job);
		if (node == NULL || disk_of(q, node) < 0)
			return error_line(c, "Cannot find device='%s' nor "
			    "node-name='%s'", node ? node : "",
			    node ? node : "");
		return NULL;
	}
	if (strcmp(n, "block-export-del") == 0) {
		const char *mode = arg_str(o, "mode");

		if (export_at(q, c->job) < 0)
			return error_line(c, "Export '%s' is not found",
			    c->job);
		/* blk_exp_request_shutdown's safe mode: a client refuses */
		if ((mode == NULL || strcmp(mode, "safe") == 0) &&
		    q->nbd_client != NULL)
			for (k = 0; k < QM_MAX_NODES; k++)
				if (q->nbd_client->nodes[k].target == q &&
				    strcmp(q->nbd_client->nodes[k].export_name,
				    c->job) == 0 && link_up(q->nbd_client, k))
					return error_line(c, "export '%s' "
					    "still in use", c->job);
		return NULL;
	}
	return NULL;
}

void
qd_command(struct qm_qemu *q, const struct qm_cmd *c, struct json_object *o)
{
	struct qm_nbd_node	*nd;
	struct qm_qemu		*t;
	struct json_object	*a, *list, *v;
	const char		*why, *s;
	char			 uri[128];
	double			 len;
	int			 k, j, d;
	size_t			 i;

	/* A new job in a slot: no pace but a mirror's (below). */
	if (strstr(c->name, "-mirror") != NULL ||
	    strstr(c->name, "-backup") != NULL) {
		if ((j = job_at(q, c->job)) >= 0)
			memset(&q->pace[j], 0, sizeof q->pace[j]);
	}
	if (strcmp(c->name, "nbd-server-start") == 0 &&
	    json_object_object_get_ex(o, "arguments", &a) &&
	    json_object_object_get_ex(a, "addr", &v))
		server_uri(v, q->nbd_uri, sizeof q->nbd_uri);
	else if (strcmp(c->name, "blockdev-add") == 0 &&
	    (t = nbd_reach(q, o, uri, sizeof uri, &why)) != NULL) {
		for (k = 0; k < QM_MAX_NODES && q->nodes[k].used; k++)
			;
		if (k == QM_MAX_NODES)
			return;
		nd = &q->nodes[k];
		memset(nd, 0, sizeof *nd);
		nd->used = 1;
		snprintf(nd->name, sizeof nd->name, "%s",
		    arg_str(o, "node-name"));
		snprintf(nd->export_name, sizeof nd->export_name, "%s",
		    arg_str(o, "export"));
		snprintf(nd->uri, sizeof nd->uri, "%s", uri);
		nd->target = t;
		d = disk_of(t, nd->export_name);
		nd->size = d >= 0 ? disk_size(t, d) : 0;
		t->nbd_client = q;
	} else if (strcmp(c->name, "blockdev-del") == 0 &&
	    (s = arg_str(o, "node-name")) != NULL &&
	    (k = node_at(q, s)) >= 0)
		q->nodes[k].used = 0;
	else if (strcmp(c->name, "blockdev-mirror") == 0 &&
	    (j = job_at(q, c->job)) >= 0) {
		struct qm_job_pace *p = &q->pace[j];

		p->on = 1;
		p->start = q->now;
		p->disk = disk_of(q, arg_str(o, "device"));
		p->node = node_at(q, arg_str(o, "target"));
		len = q->w.mirror_len != NULL ?
		    q->w.mirror_len(q->w.arg, p->disk) : 1;
		p->never = len >= 0 ? 0 : len < -1.5 ? 2 : 1;
		p->ready_at = len >= 0 ? q->now + len : INFINITY;
	} else if (strcmp(c->name, "yank") == 0 &&
	    json_object_object_get_ex(o, "arguments", &a) &&
	    json_object_object_get_ex(a, "instances", &list) &&
	    json_object_is_type(list, json_type_array)) {
		/* yank_block_node: the NBD node's connection is shut. */
		for (i = 0; i < json_object_array_length(list); i++) {
			v = json_object_array_get_idx(list, i);
			if (json_object_object_get_ex(v, "node-name", &a) &&
			    (k = node_at(q, json_object_get_string(a))) >= 0)
				node_break(q, k);
		}
	}
}

/* What a job has copied, of how much, as query-block-jobs says. */
static void
job_figures(const struct qm_qemu *q, int j, uint64_t *off, uint64_t *len)
{
	const struct qm_job_pace	*p = &q->pace[j];
	double				 el = job_now(q, j) - p->start, f;
	enum qm_job_status		 st = q->s.jobs[j].status;

	*len = disk_size(q, p->disk < 0 ? 0 : p->disk);
	if (p->never == 1)
		f = 0.8 * el / (el + 30);	/* on and on, never done */
	else if (p->never == 2)
		f = 0.5 * fmin(1, el / 5);	/* stalled halfway */
	else
		f = p->ready_at > p->start ? fmin(1, el / (p->ready_at -
		    p->start)) : 1;
	if (st == QM_JOB_READY || st == QM_JOB_STANDBY ||
	    st == QM_JOB_WAITING || st == QM_JOB_PENDING)
		f = 1;
	*off = (uint64_t)(f * (double)*len);
}

static char *
rewritten(char *line, struct json_object *o)
{
	char	*out;

	if ((out = strdup(json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN))) == NULL)
		abort();
	json_object_put(o);
	free(line);
	return out;
}

static void
add_image(struct json_object *node, uint64_t size, const char *file,
    const char *format)
{
	struct json_object	*img = json_object_new_object();

	json_object_object_add(img, "virtual-size",
	    json_object_new_int64((int64_t)size));
	json_object_object_add(img, "filename", json_object_new_string(file));
	json_object_object_add(img, "format", json_object_new_string(format));
	if (strcmp(format, "qcow2") == 0) {
		json_object_object_add(img, "cluster-size",
		    json_object_new_int(65536));
		json_object_object_add(img, "actual-size",
		    json_object_new_int64(17043456));
		json_object_object_add(img, "dirty-flag",
		    json_object_new_boolean(0));
	}
	json_object_object_add(node, "image", img);
}

/* BlockDeviceInfo, as 7.2 gave it for the trace's disk. */
static struct json_object *
device_info(const char *node, uint64_t size, const char *file,
    const char *drv)
{
	struct json_object	*o = json_object_new_object(), *cache;

	json_object_object_add(o, "iops_rd", json_object_new_int(0));
	json_object_object_add(o, "detect_zeroes",
	    json_object_new_string("off"));
	add_image(o, size, file, drv);
	json_object_object_add(o, "iops_wr", json_object_new_int(0));
	json_object_object_add(o, "ro", json_object_new_boolean(0));
	json_object_object_add(o, "node-name", json_object_new_string(node));
	json_object_object_add(o, "backing_file_depth",
	    json_object_new_int(0));
	json_object_object_add(o, "drv", json_object_new_string(drv));
	json_object_object_add(o, "encrypted", json_object_new_boolean(0));
	cache = json_object_new_object();
	json_object_object_add(cache, "no-flush", json_object_new_boolean(0));
	json_object_object_add(cache, "direct", json_object_new_boolean(0));
	json_object_object_add(cache, "writeback", json_object_new_boolean(1));
	json_object_object_add(o, "cache", cache);
	json_object_object_add(o, "file", json_object_new_string(file));
	return o;
}

char *
qd_answer(struct qm_qemu *q, const struct qm_cmd *c, char *line)
{
	struct json_object	*o, *ret, *e, *dev;
	char			 file[192], name[32];
	uint64_t		 off, len;
	int			 i, j;

	if ((strcmp(c->name, "query-block") != 0 &&
	    strcmp(c->name, "query-named-block-nodes") != 0 &&
	    strcmp(c->name, "query-block-jobs") != 0) ||
	    (o = json_tokener_parse(line)) == NULL)
		return line;
	if (!json_object_object_get_ex(o, "return", &ret) ||
	    !json_object_is_type(ret, json_type_array)) {
		json_object_put(o);
		return line;
	}
	if (strcmp(c->name, "query-block-jobs") == 0) {
		for (i = 0; i < (int)json_object_array_length(ret); i++) {
			e = json_object_array_get_idx(ret, i);
			if (!json_object_object_get_ex(e, "device", &dev) ||
			    (j = job_at(q, json_object_get_string(dev))) < 0 ||
			    !q->pace[j].on)
				continue;
			job_figures(q, j, &off, &len);
			json_object_object_add(e, "len",
			    json_object_new_int64((int64_t)len));
			json_object_object_add(e, "offset",
			    json_object_new_int64((int64_t)off));
			json_object_object_add(e, "io-status",
			    json_object_new_string("ok"));
		}
		return rewritten(line, o);
	}
	for (i = 0; i < q->cfg.ndisks; i++) {
		snprintf(name, sizeof name, "disk%d", i);
		disk_file(q, i, file, sizeof file);
		e = device_info(name, disk_size(q, i), file, "qcow2");
		if (strcmp(c->name, "query-block") == 0) {
			dev = json_object_new_object();
			json_object_object_add(dev, "io-status",
			    json_object_new_string("ok"));
			json_object_object_add(dev, "device",
			    json_object_new_string(""));
			json_object_object_add(dev, "locked",
			    json_object_new_boolean(0));
			json_object_object_add(dev, "removable",
			    json_object_new_boolean(0));
			json_object_object_add(dev, "inserted", e);
			snprintf(file, sizeof file,
			    "/machine/peripheral/vd%c/virtio-backend", 'b' + i);
			json_object_object_add(dev, "qdev",
			    json_object_new_string(file));
			json_object_object_add(dev, "type",
			    json_object_new_string("unknown"));
			e = dev;
		}
		json_object_array_add(ret, e);
	}
	for (i = 0; strcmp(c->name, "query-named-block-nodes") == 0 &&
	    i < QM_MAX_NODES; i++) {
		const struct qm_nbd_node *nd = &q->nodes[i];

		if (!nd->used)
			continue;
		snprintf(file, sizeof file, "nbd+unix:///%s?socket=%s",
		    nd->export_name, nd->uri + (strncmp(nd->uri, "unix:", 5) ==
		    0 ? 5 : 0));
		json_object_array_add(ret, device_info(nd->name, nd->size, file,
		    "nbd"));
	}
	return rewritten(line, o);
}

int
qd_permitted(struct qm_qemu *q, const char *n, int j)
{
	struct qm_job_pace	*p = &q->pace[j];

	if (strcmp(n, "job-drained") == 0)
		return 0;
	if (!p->on)	/* a job the world has no pace for (a backup) */
		return strcmp(n, "mirror-io-error") != 0 &&
		    strcmp(n, "mirror-failed") != 0;
	if (strcmp(n, "mirror-ready") == 0)
		return !p->never && q->now >= p->ready_at &&
		    link_up(q, p->node) && !link_stopped(q, p->node);
	/* mirror_error_action: a write to the target failed (the link
	   gone); the error ends the job (on-target-error report).  A write
	   comes from the guest running (or one in flight when the link
	   broke: node_break), the copy of a job not yet ready, or a soft
	   cancel's or complete's last flush (mirror_flush); a ready job of a
	   stopped guest does none. */
	if (strcmp(n, "mirror-io-error") == 0)
		return !p->io_error && !link_up(q, p->node) &&
		    (p->node < 0 || qm_runs_guest(&q->s) ||
		    q->nodes[p->node].broke_running ||
		    (q->s.jobs[j].status != QM_JOB_READY &&
		    q->s.jobs[j].status != QM_JOB_STANDBY) ||
		    (q->s.jobs[j].flags & (QM_IF_CANCEL | QM_IF_FORCE)) ==
		    QM_IF_CANCEL || (q->s.jobs[j].flags & QM_IF_COMPLETE));
	if (strcmp(n, "mirror-failed") == 0)
		return p->io_error;
	/* a ready mirror's soft cancel ends in sync: its last writes
	   reach the target first */
	if (strcmp(n, "job-waiting") == 0)
		return link_up(q, p->node) && !link_stopped(q, p->node);
	return 1;
}

void
qd_continued(struct qm_qemu *q, const struct qm_qemu *t, double since,
    double now)
{
	int	 j, k;

	for (j = 0; j < QM_MAX_JOBS; j++) {
		struct qm_job_pace *p = &q->pace[j];

		k = p->node;
		if (!p->on || k < 0 || k >= QM_MAX_NODES ||
		    q->nodes[k].target != t || p->start > now)
			continue;
		if (p->ready_at < INFINITY && p->ready_at > since)
			p->ready_at += now - fmax(since, p->start);
		p->start = qm_shifted(p->start, since, now);
	}
}

void
qd_took(struct qm_qemu *q, const char *n, int j)
{
	if (strcmp(n, "mirror-io-error") == 0)
		q->pace[j].io_error = 1;
}

void
qd_forget(struct qm_qemu *gone, struct qm_qemu *other)
{
	int	 k;

	for (k = 0; k < QM_MAX_NODES; k++)
		if (other->nodes[k].target == gone) {
			other->nodes[k].target = NULL;
			node_break(other, k);
		}
	if (other->nbd_client == gone)
		other->nbd_client = NULL;
}

void
qm_break_nbd(struct qm_qemu *q)
{
	int	 k;

	for (k = 0; k < QM_MAX_NODES; k++)
		node_break(q, k);
	if (q->s.alive && q->now + STEP < q->next)
		q->next = q->now + STEP;
}

int
qm_nbd_links(const struct qm_qemu *q)
{
	int	 k, n = 0;

	for (k = 0; k < QM_MAX_NODES; k++)
		n += q->nodes[k].used && !q->nodes[k].broken;
	return n;
}

int
qm_job_io_error(const struct qm_qemu *q, int j)
{
	const struct qm_job_pace	*p = &q->pace[j];

	return j >= 0 && j < QM_MAX_JOBS && p->on && (p->io_error ||
	    (p->node >= 0 && q->nodes[p->node].broken));
}
