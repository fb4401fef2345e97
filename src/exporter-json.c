/*
 * exporter-json.c: what qmigrate stats prints: one JSON document about a
 * VM, joined per value rather than per layer: every value says where it
 * came from, as KubeVirt's VMI status does with infoSource:
 *
 *	"qemu"         QEMU's monitor (--qmp)
 *	"node"         this node's /proc (QEMU's process and vCPU threads)
 *	               and /sys (its tap devices)
 *	"guest-agent"  the guest agent (--qga)
 *	"status-file"  the status document of qmigrate's migration
 *
 *	{ "sources": { "qemu": {"available": true}, "node": {...},
 *	               "guest-agent": {"available": false, "reason": ...} },
 *	  "runState": {"value": "running", "source": "qemu"},
 *	  "cpu": { "vcpus": {...}, "usageSeconds": {...}, "vcpu": [...] },
 *	  "memory": {...}, "block": [...],
 *	  "interfaces": [ { "mac": ..., "infoSource": ["qemu", "node",
 *	                    "guest-agent"], "name": {...}, "guestName": {...},
 *	                    "ipAddresses": {...}, "rxBytes": {...}, ... } ],
 *	  "guest": {...}, "migration": {...} }
 *
 * Interfaces are merged by MAC: QEMU's NIC (its MAC as query-rx-filter
 * has it) and the agent's interface with the same hardware address are one
 * entry.  A value no source gave is absent; a part its source refused is
 * {"available": false, "reason"}.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "observe.h"

#define SRC_QEMU	"qemu"
#define SRC_NODE	"node"
#define SRC_AGENT	"guest-agent"
#define SRC_DOC		"status-file"

static json_object *
valued(json_object *value, const char *source)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "value", value);
	json_object_object_add(o, "source", json_object_new_string(source));
	return o;
}

static json_object *
unavailable(const char *reason)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "available", json_object_new_boolean(0));
	json_object_object_add(o, "reason", json_object_new_string(
	    reason != NULL ? reason : "no answer"));
	return o;
}

static void
add_u64(json_object *o, const char *key, const struct snap_u64 *v,
    const char *source)
{
	if (v->have)
		json_object_object_add(o, key, valued(
		    json_object_new_uint64(v->v), source));
}

static void
add_f64(json_object *o, const char *key, const struct snap_f64 *v,
    const char *source)
{
	if (v->have)
		json_object_object_add(o, key, valued(
		    json_object_new_double(v->v), source));
}

static void
add_str(json_object *o, const char *key, const char *v, const char *source)
{
	if (v != NULL && *v != '\0')
		json_object_object_add(o, key, valued(
		    json_object_new_string(v), source));
}

static json_object *
stats_sources(const struct vm_collector *c, const struct vm_snapshot *s)
{
	json_object *o = json_object_new_object(), *x;

	if (s->qmp_up) {
		x = json_object_new_object();
		json_object_object_add(x, "available",
		    json_object_new_boolean(1));
	} else
		x = unavailable(collector_error(c));
	json_object_object_add(o, SRC_QEMU, x);
	if (s->pid > 0 && s->cpu_user.have) {
		x = json_object_new_object();
		json_object_object_add(x, "available",
		    json_object_new_boolean(1));
		json_object_object_add(x, "pid", json_object_new_int(s->pid));
	} else
		x = unavailable(s->pid > 0 ? "QEMU's /proc cannot be read" :
		    "QEMU's pid is unknown (no monitor connection)");
	json_object_object_add(o, SRC_NODE, x);
	if (!s->agent_configured)
		x = unavailable("no --qga socket given");
	else if (!s->agent_up)
		x = unavailable(collector_agent_error(c));
	else {
		x = json_object_new_object();
		json_object_object_add(x, "available",
		    json_object_new_boolean(1));
	}
	json_object_object_add(o, SRC_AGENT, x);
	return o;
}

static json_object *
stats_cpu(const struct vm_snapshot *s)
{
	json_object	*o = json_object_new_object(), *list, *v;
	struct snap_f64	 total;
	size_t		 i;

	if (s->have_cpus)
		json_object_object_add(o, "vcpus", valued(
		    json_object_new_int((int)s->ncpus), SRC_QEMU));
	total.have = s->cpu_user.have && s->cpu_system.have;
	total.v = s->cpu_user.v + s->cpu_system.v;
	add_f64(o, "usageSeconds", &total, SRC_NODE);
	add_f64(o, "userSeconds", &s->cpu_user, SRC_NODE);
	add_f64(o, "systemSeconds", &s->cpu_system, SRC_NODE);
	list = json_object_new_array();
	for (i = 0; i < s->ncpus; i++) {
		v = json_object_new_object();
		json_object_object_add(v, "id",
		    json_object_new_int(s->cpus[i].index));
		json_object_object_add(v, "threadId", valued(
		    json_object_new_int64(s->cpus[i].thread_id), SRC_QEMU));
		add_f64(v, "seconds", &s->cpus[i].seconds, SRC_NODE);
		add_f64(v, "delaySeconds", &s->cpus[i].delay, SRC_NODE);
		json_object_array_add(list, v);
	}
	json_object_object_add(o, "vcpu", list);
	return o;
}

static json_object *
stats_memory(const struct vm_collector *c, const struct vm_snapshot *s)
{
	json_object *o = json_object_new_object();

	add_u64(o, "domainBytes", &s->memory, SRC_QEMU);
	if (s->balloon.have)
		add_u64(o, "balloonBytes", &s->balloon, SRC_QEMU);
	else if (s->qmp_up)
		json_object_object_add(o, "balloonBytes", unavailable(
		    collector_part_error(c, "query-balloon")));
	add_u64(o, "residentBytes", &s->rss, SRC_NODE);
	add_u64(o, "guestOnlineBytes", &s->guest_memory, SRC_AGENT);
	return o;
}

static json_object *
stats_block(const struct vm_snapshot *s)
{
	json_object	*list = json_object_new_array(), *d;
	size_t		 i;

	for (i = 0; i < s->ndrives; i++) {
		const struct snap_drive *v = &s->drives[i];

		d = json_object_new_object();
		json_object_object_add(d, "drive",
		    json_object_new_string(v->name));
		json_object_object_add(d, "source",
		    json_object_new_string(SRC_QEMU));
		json_object_object_add(d, "readBytes",
		    json_object_new_uint64(v->rd_bytes));
		json_object_object_add(d, "writtenBytes",
		    json_object_new_uint64(v->wr_bytes));
		json_object_object_add(d, "readOperations",
		    json_object_new_uint64(v->rd_ops));
		json_object_object_add(d, "writeOperations",
		    json_object_new_uint64(v->wr_ops));
		json_object_object_add(d, "flushOperations",
		    json_object_new_uint64(v->flush_ops));
		json_object_object_add(d, "readSeconds",
		    json_object_new_double((double)v->rd_ns / 1e9));
		json_object_object_add(d, "writeSeconds",
		    json_object_new_double((double)v->wr_ns / 1e9));
		json_object_object_add(d, "flushSeconds",
		    json_object_new_double((double)v->flush_ns / 1e9));
		json_object_array_add(list, d);
	}
	return list;
}

static void
add_netstats(json_object *o, const struct snap_netstats *n,
    const char *source)
{
	static const struct {
		const char	*key;
		size_t		 off;
	} f[] = {
		{ "rxBytes", offsetof(struct snap_netstats, rx_bytes) },
		{ "rxPackets", offsetof(struct snap_netstats, rx_packets) },
		{ "rxErrors", offsetof(struct snap_netstats, rx_errors) },
		{ "rxDropped", offsetof(struct snap_netstats, rx_dropped) },
		{ "txBytes", offsetof(struct snap_netstats, tx_bytes) },
		{ "txPackets", offsetof(struct snap_netstats, tx_packets) },
		{ "txErrors", offsetof(struct snap_netstats, tx_errors) },
		{ "txDropped", offsetof(struct snap_netstats, tx_dropped) },
	};
	size_t i;

	for (i = 0; i < NITEMS(f); i++)
		json_object_object_add(o, f[i].key, valued(
		    json_object_new_uint64(*(const uint64_t *)(const void *)
		    ((const char *)n + f[i].off)), source));
}

static void
add_source(json_object *sources, const char *source)
{
	size_t i;

	for (i = 0; i < json_object_array_length(sources); i++)
		if (strcmp(json_object_get_string(json_object_array_get_idx(
		    sources, i)), source) == 0)
			return;
	json_object_array_add(sources, json_object_new_string(source));
}

/*
 * QEMU's NICs and the agent's interfaces, merged by MAC.  Counters are
 * the node's (the tap) where QEMU has a tap, else the guest's own.
 */
json_object *
stats_interfaces(const struct vm_snapshot *s)
{
	json_object	*list = json_object_new_array(), *e, *src, *addrs;
	char		*merged = xcalloc(s->nguest_ifs + 1, 1);
	size_t		 i, j, k;

	for (i = 0; i < s->nnics; i++) {
		const struct snap_nic		*nic = &s->nics[i];
		const struct snap_guest_if	*g = NULL;

		e = json_object_new_object();
		src = json_object_new_array();
		add_source(src, SRC_QEMU);
		for (j = 0; s->agent_up && j < s->nguest_ifs; j++)
			if (nic->mac[0] != '\0' &&
			    strcmp(s->guest_ifs[j].mac, nic->mac) == 0) {
				g = &s->guest_ifs[j];
				merged[j] = 1;
				break;
			}
		add_str(e, "mac", nic->mac, SRC_QEMU);
		add_str(e, "name", nic->name, SRC_QEMU);
		add_str(e, "model", nic->model, SRC_QEMU);
		add_str(e, "tap", nic->tap, SRC_QEMU);
		if (g != NULL) {
			add_source(src, SRC_AGENT);
			add_str(e, "guestName", g->name, SRC_AGENT);
			addrs = json_object_new_array();
			for (k = 0; k < g->naddrs; k++)
				json_object_array_add(addrs,
				    json_object_new_string(g->addrs[k]));
			json_object_object_add(e, "ipAddresses",
			    valued(addrs, SRC_AGENT));
		}
		if (nic->stats.have) {
			add_source(src, SRC_NODE);
			add_netstats(e, &nic->stats, SRC_NODE);
		} else if (g != NULL && g->stats.have)
			add_netstats(e, &g->stats, SRC_AGENT);
		json_object_object_add(e, "infoSource", src);
		json_object_array_add(list, e);
	}
	for (j = 0; s->agent_up && j < s->nguest_ifs; j++) {
		const struct snap_guest_if *g = &s->guest_ifs[j];

		if (merged[j])
			continue;
		e = json_object_new_object();
		src = json_object_new_array();
		add_source(src, SRC_AGENT);
		add_str(e, "mac", g->mac, SRC_AGENT);
		add_str(e, "guestName", g->name, SRC_AGENT);
		addrs = json_object_new_array();
		for (k = 0; k < g->naddrs; k++)
			json_object_array_add(addrs,
			    json_object_new_string(g->addrs[k]));
		json_object_object_add(e, "ipAddresses", valued(addrs,
		    SRC_AGENT));
		if (g->stats.have)
			add_netstats(e, &g->stats, SRC_AGENT);
		json_object_object_add(e, "infoSource", src);
		json_object_array_add(list, e);
	}
	free(merged);
	return list;
}

static json_object *
stats_guest(const struct vm_collector *c, const struct vm_snapshot *s)
{
	json_object	*o = json_object_new_object(), *os, *list, *f;
	size_t		 i;

	if (!s->agent_up)
		return o;
	if (s->have_os) {
		os = json_object_new_object();
		json_object_object_add(os, "id",
		    json_object_new_string(s->os.id));
		json_object_object_add(os, "name",
		    json_object_new_string(s->os.name));
		json_object_object_add(os, "prettyName",
		    json_object_new_string(s->os.pretty_name));
		json_object_object_add(os, "version",
		    json_object_new_string(s->os.version));
		json_object_object_add(os, "versionId",
		    json_object_new_string(s->os.version_id));
		json_object_object_add(os, "kernelRelease",
		    json_object_new_string(s->os.kernel_release));
		json_object_object_add(os, "machine",
		    json_object_new_string(s->os.machine));
		json_object_object_add(o, "os", valued(os, SRC_AGENT));
	} else
		json_object_object_add(o, "os", unavailable(
		    collector_part_error(c, "guest-get-osinfo")));
	add_str(o, "hostname", s->hostname, SRC_AGENT);
	if (s->have_fs) {
		list = json_object_new_array();
		for (i = 0; i < s->nfs; i++) {
			f = json_object_new_object();
			json_object_object_add(f, "mountPoint",
			    json_object_new_string(s->fs[i].mountpoint));
			json_object_object_add(f, "type",
			    json_object_new_string(s->fs[i].type));
			if (s->fs[i].used.have)
				json_object_object_add(f, "usedBytes",
				    json_object_new_uint64(s->fs[i].used.v));
			if (s->fs[i].total.have)
				json_object_object_add(f, "totalBytes",
				    json_object_new_uint64(s->fs[i].total.v));
			json_object_array_add(list, f);
		}
		json_object_object_add(o, "filesystems", valued(list,
		    SRC_AGENT));
	} else
		json_object_object_add(o, "filesystems", unavailable(
		    collector_part_error(c, "guest-get-fsinfo")));
	return o;
}

static json_object *
stats_migration(const struct vm_snapshot *s)
{
	const struct snap_migration	*m = render_migration_of(s);
	const char			*src;
	json_object			*o = json_object_new_object();

	if (m == NULL)
		return o;
	src = m == &s->doc_migration ? SRC_DOC : SRC_QEMU;
	add_str(o, "phase", m->phase, src);
	add_str(o, "mode", m->mode, src);
	add_str(o, "qemuStatus", m->qemu_status, src);
	add_u64(o, "dataTotalBytes", &m->data_total, src);
	add_u64(o, "dataProcessedBytes", &m->data_processed, src);
	add_u64(o, "dataRemainingBytes", &m->data_remaining, src);
	add_f64(o, "memoryTransferRate", &m->memory_rate, src);
	add_f64(o, "dirtyMemoryRate", &m->dirty_rate, src);
	add_u64(o, "iteration", &m->iteration, src);
	add_f64(o, "startTime", &m->start_time, src);
	add_f64(o, "endTime", &m->end_time, src);
	add_str(o, "failurePlane", m->failure_plane, src);
	return o;
}

/*
 * The stats document of the VM c collected, its snapshot s (both
 * borrowed).  Returns a new reference.
 */
json_object *
stats_document(const struct vm_collector *c, const struct vm_snapshot *s)
{
	json_object *doc = json_object_new_object();

	json_object_object_add(doc, "sources", stats_sources(c, s));
	add_str(doc, "runState", s->run_state, SRC_QEMU);
	json_object_object_add(doc, "cpu", stats_cpu(s));
	json_object_object_add(doc, "memory", stats_memory(c, s));
	json_object_object_add(doc, "block", stats_block(s));
	json_object_object_add(doc, "interfaces", stats_interfaces(s));
	json_object_object_add(doc, "guest", stats_guest(c, s));
	json_object_object_add(doc, "migration", stats_migration(s));
	return doc;
}
