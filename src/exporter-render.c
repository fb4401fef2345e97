/*
 * exporter-render.c: VM snapshots into the Prometheus text format 0.0.4.
 *
 * Conventions (qmigrate-metrics(7), contrib/qmigrate-metrics.7): every series of a VM carries name, and
 * namespace and node when the exporter was given them; extra labels only
 * where a VM has several of a thing (id of a vCPU, drive, interface,
 * mount_point, plane, phase, mode), never anything that changes per
 * sample.  Every family has HELP and TYPE and is written only when it has
 * a sample; counters end in _total; units are in the names (seconds,
 * bytes, bytes_per_second, ratio).  The migration families are named
 * after KubeVirt's kubevirt_vmi_migration_* set, one to one.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qmigrate.h"
#include "observe.h"

/*
 * Appends the formatted text to b, growing it (b->p owned by b's owner,
 * started on first use); never fails.
 */
void
render_printf(struct render_buf *b, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	if (b->p == NULL) {
		b->cap = 4096;
		b->p = xmalloc(b->cap);
		b->len = 0;
	}
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n < 0)
			fatalx("vsnprintf failed");
		if ((size_t)n < b->cap - b->len)
			break;
		b->cap = (b->cap + (size_t)n + 1) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	b->len += (size_t)n;
}

char *
prom_escape_label(const char *v)
{
	char	*out = xmalloc(strlen(v) * 2 + 1), *p = out;

	for (; *v != '\0'; v++) {
		if (*v == '\\' || *v == '"') {
			*p++ = '\\';
			*p++ = *v;
		} else if (*v == '\n') {
			*p++ = '\\';
			*p++ = 'n';
		} else
			*p++ = *v;
	}
	*p = '\0';
	return out;
}

/* A family whose HELP and TYPE go out before its first sample. */
struct family {
	struct render_buf	*b;
	const char		*name;
	const char		*type;
	const char		*help;
	int			 started;
};

static void
family(struct family *f, struct render_buf *b, const char *name,
    const char *type, const char *help)
{
	f->b = b;
	f->name = name;
	f->type = type;
	f->help = help;
	f->started = 0;
}

/*
 * One sample: base is the VM's labels (or "" for node-wide families),
 * extra more labels already escaped ("" for none).
 */
static void
sample(struct family *f, const char *base, const char *extra, double v)
{
	const char *sep = *base != '\0' && *extra != '\0' ? "," : "";

	if (!f->started) {
		render_printf(f->b, "# HELP %s %s\n# TYPE %s %s\n", f->name,
		    f->help, f->name, f->type);
		f->started = 1;
	}
	if (*base == '\0' && *extra == '\0')
		render_printf(f->b, "%s ", f->name);
	else
		render_printf(f->b, "%s{%s%s%s} ", f->name, base, sep, extra);
	/* Counts exactly, fractions to 15 digits (not 0.82000000000000006). */
	if (isnan(v))
		render_printf(f->b, "NaN\n");
	else if (isinf(v))
		render_printf(f->b, "%sInf\n", v > 0 ? "+" : "-");
	else if (v > -9e18 && v < 9e18 && v == (double)(int64_t)v)
		render_printf(f->b, "%" PRId64 "\n", (int64_t)v);
	else
		render_printf(f->b, "%.15g\n", v);
}

/* extra = KEY="escaped value"[,KEY2="..."], into out. */
static void
label1(char *out, size_t len, const char *key, const char *value)
{
	char *e = prom_escape_label(value);

	snprintf(out, len, "%s=\"%s\"", key, e);
	free(e);
}

/* The migration a VM's series describe: the status document's, else QEMU's. */
const struct snap_migration *
render_migration_of(const struct vm_snapshot *s)
{
	if (s->doc_migration.have)
		return &s->doc_migration;
	if (s->qemu_migration.have)
		return &s->qemu_migration;
	return NULL;
}

/* Per-VM values that are one number each. */
enum vsrc { V_U64, V_F64 };
struct vm_value {
	const char	*name;
	const char	*type;
	const char	*help;
	size_t		 off;		/* of a snap_u64/snap_f64 */
	enum vsrc	 kind;
	int		 migration;	/* off is in struct snap_migration */
};

#define SNAP(f)	offsetof(struct vm_snapshot, f)
#define MIG(f)	offsetof(struct snap_migration, f)

static const struct vm_value vm_values[] = {
	{ "qmigrate_vm_cpu_user_usage_seconds_total", "counter",
	    "CPU time QEMU's process spent in user mode (node /proc).",
	    SNAP(cpu_user), V_F64, 0 },
	{ "qmigrate_vm_cpu_system_usage_seconds_total", "counter",
	    "CPU time QEMU's process spent in system mode (node /proc).",
	    SNAP(cpu_system), V_F64, 0 },
	{ "qmigrate_vm_memory_domain_bytes", "gauge",
	    "Guest RAM, base and hot-plugged (QEMU).", SNAP(memory), V_U64,
	    0 },
	{ "qmigrate_vm_memory_actual_balloon_bytes", "gauge",
	    "Memory the guest has with its balloon (QEMU query-balloon).",
	    SNAP(balloon), V_U64, 0 },
	{ "qmigrate_vm_memory_resident_bytes", "gauge",
	    "Resident memory of QEMU's process (node /proc).", SNAP(rss),
	    V_U64, 0 },
	{ "qmigrate_guest_memory_online_bytes", "gauge",
	    "Memory the guest has online, by its own count (guest agent).",
	    SNAP(guest_memory), V_U64, 0 },
	{ "qmigrate_vm_dirty_rate_bytes_per_second", "gauge",
	    "The VM's last calc-dirty-rate measurement (QEMU).",
	    SNAP(dirty_rate), V_F64, 0 },

	{ "qmigrate_migration_data_total_bytes", "gauge",
	    "Bytes the migration moves (guest RAM).", MIG(data_total), V_U64,
	    1 },
	{ "qmigrate_migration_data_processed_bytes", "gauge",
	    "Bytes the migration has sent so far.", MIG(data_processed),
	    V_U64, 1 },
	{ "qmigrate_migration_data_remaining_bytes", "gauge",
	    "Bytes of guest RAM left to send in this pass.",
	    MIG(data_remaining), V_U64, 1 },
	{ "qmigrate_migration_memory_transfer_rate_bytes_per_second", "gauge",
	    "Memory sent per second, as the controller measures it.",
	    MIG(memory_rate), V_F64, 1 },
	{ "qmigrate_migration_dirty_memory_rate_bytes_per_second", "gauge",
	    "Guest memory dirtied per second during the migration.",
	    MIG(dirty_rate), V_F64, 1 },
	{ "qmigrate_migration_disk_transfer_rate_bytes_per_second", "gauge",
	    "Disk bytes mirrored per second (local disks copied over NBD).",
	    MIG(disk_rate), V_F64, 1 },
	{ "qmigrate_migration_start_time_seconds", "gauge",
	    "When the migration started, in seconds since the epoch.",
	    MIG(start_time), V_F64, 1 },
	{ "qmigrate_migration_end_time_seconds", "gauge",
	    "When the migration ended, in seconds since the epoch.",
	    MIG(end_time), V_F64, 1 },
	{ "qmigrate_migration_acceptable_seconds", "gauge",
	    "The completion time the controller's policy accepts "
	    "(acceptableSeconds: completionTimeoutPerGiB times the guest's "
	    "GiB); past it the controller aborts or finishes the migration.",
	    MIG(acceptable), V_F64, 1 },
	{ "qmigrate_migration_iteration", "gauge",
	    "Dirty-bitmap syncs so far (pre-copy passes).", MIG(iteration),
	    V_U64, 1 },
	{ "qmigrate_migration_expected_downtime_seconds", "gauge",
	    "QEMU's estimate of the downtime if it stopped the guest now.",
	    MIG(expected_downtime), V_F64, 1 },
	{ "qmigrate_migration_downtime_seconds", "gauge",
	    "The guest's pause at the switchover, once known (QEMU's figure; "
	    "qmigrate's after update --mode exec).",
	    MIG(downtime), V_F64, 1 },
	{ "qmigrate_migration_throttle_ratio", "gauge",
	    "CPU throttle auto-converge applies to the guest (0 to 1).",
	    MIG(throttle), V_F64, 1 },
	{ "qmigrate_migration_dirty_limit_throttle_seconds", "gauge",
	    "How long dirty-limit held the guest's vCPUs back in its last "
	    "round (QEMU 8.1+, while a limit holds).",
	    MIG(dirty_limit_throttle), V_F64, 1 },
	{ "qmigrate_migration_postcopy_requests_total", "counter",
	    "Pages the destination asked for during post-copy.",
	    MIG(postcopy_requests), V_U64, 1 },
};

/* Gets value k of a VM; 0 when it is not known. */
static int
vm_value(const struct vm_value *k, const struct vm_snapshot *s, double *v)
{
	const char			*base = (const char *)s;
	const struct snap_migration	*m;

	if (k->migration) {
		if ((m = render_migration_of(s)) == NULL)
			return 0;
		base = (const char *)m;
	}
	if (k->kind == V_U64) {
		const struct snap_u64 *u = (const void *)(base + k->off);

		*v = (double)u->v;
		return u->have;
	} else {
		const struct snap_f64 *f = (const void *)(base + k->off);

		*v = f->v;
		return f->have;
	}
}

static const char *mig_phases[] = {
	"Pending", "PreparingTarget", "TargetReady", "Running", "Succeeded",
	"Failed", "HandedOver",
};
static const char *mig_modes[] = { "PreCopy", "PostCopy", "Paused",
	"CprTransfer", "CprExec" };

/* Per-vCPU, per-drive and per-interface counters. */
static void
render_vcpus(struct render_buf *b, const struct render_vm *vms, size_t n,
    char **base)
{
	struct family	 f;
	char		 ex[32];
	size_t		 i, j;
	int		 pass;

	for (pass = 0; pass < 2; pass++) {
		family(&f, b, pass == 0 ? "qmigrate_vm_vcpu_seconds_total" :
		    "qmigrate_vm_vcpu_delay_seconds_total", "counter",
		    pass == 0 ? "CPU time of each vCPU thread (QEMU's thread "
		    "ids, node /proc)." : "Time each vCPU thread waited for "
		    "a host CPU (node /proc schedstat).");
		for (i = 0; i < n; i++) {
			const struct vm_snapshot *s = vms[i].snap;

			for (j = 0; j < s->ncpus; j++) {
				const struct snap_f64 *v = pass == 0 ?
				    &s->cpus[j].seconds : &s->cpus[j].delay;

				if (!v->have)
					continue;
				snprintf(ex, sizeof ex, "id=\"%d\"",
				    s->cpus[j].index);
				sample(&f, base[i], ex, v->v);
			}
		}
	}
}

static const struct {
	const char	*name;
	const char	*help;
	size_t		 off;
	double		 scale;
} drive_values[] = {
	{ "qmigrate_vm_storage_read_traffic_bytes_total",
	    "Bytes the guest read from the drive (QEMU).",
	    offsetof(struct snap_drive, rd_bytes), 1 },
	{ "qmigrate_vm_storage_write_traffic_bytes_total",
	    "Bytes the guest wrote to the drive (QEMU).",
	    offsetof(struct snap_drive, wr_bytes), 1 },
	{ "qmigrate_vm_storage_iops_read_total",
	    "Read requests of the guest on the drive (QEMU).",
	    offsetof(struct snap_drive, rd_ops), 1 },
	{ "qmigrate_vm_storage_iops_write_total",
	    "Write requests of the guest on the drive (QEMU).",
	    offsetof(struct snap_drive, wr_ops), 1 },
	{ "qmigrate_vm_storage_flush_requests_total",
	    "Flush requests of the guest on the drive (QEMU).",
	    offsetof(struct snap_drive, flush_ops), 1 },
	{ "qmigrate_vm_storage_read_times_seconds_total",
	    "Time the drive's reads took (QEMU).",
	    offsetof(struct snap_drive, rd_ns), 1e-9 },
	{ "qmigrate_vm_storage_write_times_seconds_total",
	    "Time the drive's writes took (QEMU).",
	    offsetof(struct snap_drive, wr_ns), 1e-9 },
	{ "qmigrate_vm_storage_flush_times_seconds_total",
	    "Time the drive's flushes took (QEMU).",
	    offsetof(struct snap_drive, flush_ns), 1e-9 },
};

static void
render_drives(struct render_buf *b, const struct render_vm *vms, size_t n,
    char **base)
{
	struct family	 f;
	char		 ex[SNAP_NAME * 2 + 16];
	size_t		 i, j, k;

	for (k = 0; k < NITEMS(drive_values); k++) {
		family(&f, b, drive_values[k].name, "counter",
		    drive_values[k].help);
		for (i = 0; i < n; i++) {
			const struct vm_snapshot *s = vms[i].snap;

			for (j = 0; j < s->ndrives; j++) {
				const uint64_t *v = (const void *)
				    ((const char *)&s->drives[j] +
				    drive_values[k].off);

				label1(ex, sizeof ex, "drive",
				    s->drives[j].name);
				sample(&f, base[i], ex, (double)*v *
				    drive_values[k].scale);
			}
		}
	}
}

static const struct {
	const char	*name;
	const char	*help;
	size_t		 off;
} net_values[] = {
	{ "qmigrate_vm_network_receive_bytes_total",
	    "Bytes the guest received on the interface (its tap, node /sys).",
	    offsetof(struct snap_netstats, rx_bytes) },
	{ "qmigrate_vm_network_receive_packets_total",
	    "Packets the guest received on the interface (node /sys).",
	    offsetof(struct snap_netstats, rx_packets) },
	{ "qmigrate_vm_network_receive_errors_total",
	    "Receive errors on the interface (node /sys).",
	    offsetof(struct snap_netstats, rx_errors) },
	{ "qmigrate_vm_network_receive_packets_dropped_total",
	    "Packets for the guest dropped on the interface (node /sys).",
	    offsetof(struct snap_netstats, rx_dropped) },
	{ "qmigrate_vm_network_transmit_bytes_total",
	    "Bytes the guest sent on the interface (its tap, node /sys).",
	    offsetof(struct snap_netstats, tx_bytes) },
	{ "qmigrate_vm_network_transmit_packets_total",
	    "Packets the guest sent on the interface (node /sys).",
	    offsetof(struct snap_netstats, tx_packets) },
	{ "qmigrate_vm_network_transmit_errors_total",
	    "Transmit errors on the interface (node /sys).",
	    offsetof(struct snap_netstats, tx_errors) },
	{ "qmigrate_vm_network_transmit_packets_dropped_total",
	    "Packets from the guest dropped on the interface (node /sys).",
	    offsetof(struct snap_netstats, tx_dropped) },
};

static void
render_nics(struct render_buf *b, const struct render_vm *vms, size_t n,
    char **base)
{
	struct family	 f;
	char		 ex[SNAP_NAME * 8], l1[SNAP_NAME * 2 + 16],
			 l2[SNAP_NAME * 2 + 16], l3[64], l4[SNAP_NAME * 2 + 16];
	size_t		 i, j, k;

	family(&f, b, "qmigrate_vm_vnic_info", "gauge",
	    "Each NIC of the VM (QEMU): its model, MAC (query-rx-filter where "
	    "the NIC has it) and tap device.");
	for (i = 0; i < n; i++)
		for (j = 0; j < vms[i].snap->nnics; j++) {
			const struct snap_nic *nic = &vms[i].snap->nics[j];

			label1(l1, sizeof l1, "interface", nic->name);
			label1(l2, sizeof l2, "model", nic->model);
			label1(l3, sizeof l3, "mac", nic->mac);
			label1(l4, sizeof l4, "tap", nic->tap);
			snprintf(ex, sizeof ex, "%s,%s,%s,%s", l1, l2, l3, l4);
			sample(&f, base[i], ex, 1);
		}
	for (k = 0; k < NITEMS(net_values); k++) {
		family(&f, b, net_values[k].name, "counter",
		    net_values[k].help);
		for (i = 0; i < n; i++)
			for (j = 0; j < vms[i].snap->nnics; j++) {
				const struct snap_nic *nic =
				    &vms[i].snap->nics[j];
				const uint64_t *v = (const void *)
				    ((const char *)&nic->stats +
				    net_values[k].off);

				if (!nic->stats.have)
					continue;
				label1(ex, sizeof ex, "interface", nic->name);
				sample(&f, base[i], ex, (double)*v);
			}
	}
}

static void
render_guest(struct render_buf *b, const struct render_vm *vms, size_t n,
    char **base)
{
	struct family	 f;
	char		 ex[SNAP_NAME * 16], l[6][SNAP_NAME * 2 + 32];
	size_t		 i, j;
	int		 pass;

	family(&f, b, "qmigrate_guest_agent_up", "gauge",
	    "1 when the VM's guest agent answered guest-sync.");
	for (i = 0; i < n; i++)
		if (vms[i].snap->agent_configured)
			sample(&f, base[i], "", vms[i].snap->agent_up);
	family(&f, b, "qmigrate_guest_os_info", "gauge",
	    "The guest's OS as its agent reports it (guest-get-osinfo).");
	for (i = 0; i < n; i++) {
		const struct snap_os *os = &vms[i].snap->os;

		if (!vms[i].snap->agent_up || !vms[i].snap->have_os)
			continue;
		label1(l[0], sizeof l[0], "guest_os_id", os->id);
		label1(l[1], sizeof l[1], "guest_os_name", os->name);
		label1(l[2], sizeof l[2], "guest_os_version_id",
		    os->version_id);
		label1(l[3], sizeof l[3], "guest_os_kernel_release",
		    os->kernel_release);
		label1(l[4], sizeof l[4], "guest_os_machine", os->machine);
		label1(l[5], sizeof l[5], "guest_os_pretty_name",
		    os->pretty_name);
		snprintf(ex, sizeof ex, "%s,%s,%s,%s,%s,%s", l[0], l[1], l[2],
		    l[3], l[4], l[5]);
		sample(&f, base[i], ex, 1);
	}
	for (pass = 0; pass < 2; pass++) {
		family(&f, b, pass == 0 ?
		    "qmigrate_guest_filesystem_capacity_bytes" :
		    "qmigrate_guest_filesystem_used_bytes", "gauge",
		    pass == 0 ? "Size of each guest file system (guest "
		    "agent)." : "Bytes used on each guest file system (guest "
		    "agent).");
		for (i = 0; i < n; i++) {
			const struct vm_snapshot *s = vms[i].snap;

			if (!s->agent_up || !s->have_fs)
				continue;
			for (j = 0; j < s->nfs; j++) {
				const struct snap_u64 *v = pass == 0 ?
				    &s->fs[j].total : &s->fs[j].used;

				if (!v->have)
					continue;
				label1(l[0], sizeof l[0], "mount_point",
				    s->fs[j].mountpoint);
				label1(l[1], sizeof l[1], "file_system_type",
				    s->fs[j].type);
				snprintf(ex, sizeof ex, "%s,%s", l[0], l[1]);
				sample(&f, base[i], ex, (double)v->v);
			}
		}
	}
}

/*
 * qmigrate_migration_phase_transition_time_from_creation_seconds: a
 * histogram by phase per VM (exporter-phases.c), KubeVirt's buckets.
 */
static void
render_phase_hist(struct render_buf *b, const struct render_vm *vms,
    size_t n, char **base)
{
	static const char *name =
	    "qmigrate_migration_phase_transition_time_from_creation_seconds";
	const struct phase_hist	*h;
	const char		*sep;
	size_t			 i, k, j;
	int			 started = 0;

	for (i = 0; i < n; i++) {
		if ((h = vms[i].phases) == NULL)
			continue;
		sep = *base[i] != '\0' ? "," : "";
		for (k = 0; k < PHASE_HIST_PHASES; k++) {
			if (h->count[k] == 0)
				continue;
			if (!started)
				render_printf(b, "# HELP %s Seconds from a "
				    "migration's creation to each phase it "
				    "entered, by phase.\n# TYPE %s histogram\n",
				    name, name);
			started = 1;
			for (j = 0; j < PHASE_HIST_BUCKETS; j++)
				render_printf(b, "%s_bucket{%s%sphase=\"%s\","
				    "le=\"%g\"} %" PRIu64 "\n", name, base[i],
				    sep, phase_hist_phases[k],
				    phase_hist_le[j], h->bucket[k][j]);
			render_printf(b, "%s_bucket{%s%sphase=\"%s\","
			    "le=\"+Inf\"} %" PRIu64 "\n", name, base[i], sep,
			    phase_hist_phases[k], h->count[k]);
			render_printf(b, "%s_sum{%s%sphase=\"%s\"} %.15g\n",
			    name, base[i], sep, phase_hist_phases[k],
			    h->sum[k]);
			render_printf(b, "%s_count{%s%sphase=\"%s\"} %" PRIu64
			    "\n", name, base[i], sep, phase_hist_phases[k],
			    h->count[k]);
		}
	}
}

static void
render_migration(struct render_buf *b, const struct render_vm *vms, size_t n,
    char **base, const char *node_base)
{
	const struct snap_migration	*m;
	struct family			 f;
	char				 ex[64];
	size_t				 i, j, k;
	double				 in_phase[3] = { 0, 0, 0 };
	int				 pass;

	for (pass = 0; pass < 2; pass++) {
		family(&f, b, pass == 0 ? "qmigrate_migration_succeeded" :
		    "qmigrate_migration_failed", "gauge", pass == 0 ?
		    "1 when the VM's last migration succeeded." :
		    "1 when the VM's last migration failed or was aborted.");
		for (i = 0; i < n; i++)
			if ((m = render_migration_of(vms[i].snap)) != NULL)
				sample(&f, base[i], "", strcmp(m->phase,
				    pass == 0 ? "Succeeded" : "Failed") == 0);
	}
	family(&f, b, "qmigrate_migration_outcome_unknown", "gauge",
	    "1 when the VM's last migration ended not knowing where the "
	    "guest runs (exit 8: both sides may be paused; a re-run "
	    "settles it).");
	for (i = 0; i < n; i++)
		if ((m = render_migration_of(vms[i].snap)) != NULL)
			sample(&f, base[i], "", m->outcome_unknown);
	family(&f, b, "qmigrate_migration_phase", "gauge",
	    "The migration's phase (a state set: 1 for the current one).");
	for (i = 0; i < n; i++) {
		if ((m = render_migration_of(vms[i].snap)) == NULL ||
		    m->phase[0] == '\0')
			continue;
		for (j = 0; j < NITEMS(mig_phases); j++) {
			snprintf(ex, sizeof ex, "phase=\"%s\"", mig_phases[j]);
			sample(&f, base[i], ex, strcmp(m->phase,
			    mig_phases[j]) == 0);
		}
	}
	family(&f, b, "qmigrate_migration_mode", "gauge",
	    "The migration's mode (a state set: 1 for the current one).");
	for (i = 0; i < n; i++) {
		if ((m = render_migration_of(vms[i].snap)) == NULL ||
		    m->mode[0] == '\0')
			continue;
		for (j = 0; j < NITEMS(mig_modes); j++) {
			snprintf(ex, sizeof ex, "mode=\"%s\"", mig_modes[j]);
			sample(&f, base[i], ex, strcmp(m->mode,
			    mig_modes[j]) == 0);
		}
	}
	family(&f, b, "qmigrate_migration_failures_total", "counter",
	    "Failed migrations of the VM seen in its status file, by the "
	    "plane that failed and the side (role) whose document said so "
	    "(limit: aborted by the controller at a bound "
	    "of its policy; abort: cancelled on request; unknown: exit 8, "
	    "where the guest runs is not known).");
	for (i = 0; i < n; i++)
		for (k = 0; k < FAILURE_ROLES; k++)
			for (j = 0; j < FAILURE_PLANES; j++) {
				snprintf(ex, sizeof ex, "plane=\"%s\","
				    "role=\"%s\"", failure_planes[j],
				    k == 0 ? "source" : "target");
				sample(&f, base[i], ex,
				    (double)vms[i].failures[k][j]);
			}

	render_phase_hist(b, vms, n, base);

	/* Outgoing migrations of this node by phase (KubeVirt's queue). */
	for (i = 0; i < n; i++) {
		if ((m = render_migration_of(vms[i].snap)) == NULL ||
		    strcmp(m->role, "source") != 0)
			continue;
		if (strcmp(m->phase, "Pending") == 0)
			in_phase[0]++;
		else if (strcmp(m->phase, "PreparingTarget") == 0 ||
		    strcmp(m->phase, "TargetReady") == 0)
			in_phase[1]++;
		else if (strcmp(m->phase, "Running") == 0)
			in_phase[2]++;
	}
	family(&f, b, "qmigrate_migrations_in_pending_phase", "gauge",
	    "Outgoing migrations of the node waiting to start (Pending).");
	sample(&f, node_base, "", in_phase[0]);
	family(&f, b, "qmigrate_migrations_in_scheduling_phase", "gauge",
	    "Outgoing migrations of the node preparing their target "
	    "(PreparingTarget, TargetReady).");
	sample(&f, node_base, "", in_phase[1]);
	family(&f, b, "qmigrate_migrations_in_running_phase", "gauge",
	    "Outgoing migrations of the node moving memory (Running).");
	sample(&f, node_base, "", in_phase[2]);
}

/*
 * The exposition of n VMs.  node and default_namespace (may be NULL) give
 * the node and namespace labels.
 */
void
render_metrics(struct render_buf *b, const struct render_vm *vms, size_t n,
    const char *node, const char *default_namespace)
{
	struct family		 f;
	const struct vm_snapshot *s;
	char			**base, *e, *node_base = xstrdup("");
	const char		*ns;
	size_t			 i, k;
	double			 v;

	if (node != NULL) {
		free(node_base);
		e = prom_escape_label(node);
		xasprintf(&node_base, "node=\"%s\"", e);
		free(e);
	}
	base = xcalloc(n == 0 ? 1 : n, sizeof *base);
	for (i = 0; i < n; i++) {
		char *en, *ens = NULL;

		ns = vms[i].spec->namespace != NULL ? vms[i].spec->namespace :
		    default_namespace;
		en = prom_escape_label(vms[i].spec->name);
		if (ns != NULL)
			ens = prom_escape_label(ns);
		xasprintf(&base[i], "name=\"%s\"%s%s%s%s%s", en,
		    ens != NULL ? ",namespace=\"" : "", ens != NULL ? ens : "",
		    ens != NULL ? "\"" : "", *node_base != '\0' ? "," : "",
		    node_base);
		free(en);
		free(ens);
	}

	family(&f, b, "qmigrate_exporter_vms", "gauge",
	    "VMs the exporter serves (--vm and --vm-dir).");
	sample(&f, node_base, "", (double)n);
	family(&f, b, "qmigrate_vm_up", "gauge",
	    "1 when the exporter's QMP connection to the VM's QEMU is up.");
	for (i = 0; i < n; i++)
		sample(&f, base[i], "", vms[i].snap->qmp_up);
	family(&f, b, "qmigrate_vm_stale", "gauge",
	    "1 when the VM's last refresh did not complete in time: its "
	    "values are old.");
	for (i = 0; i < n; i++)
		sample(&f, base[i], "", vms[i].stale);
	family(&f, b, "qmigrate_vm_info", "gauge",
	    "The VM's QEMU run state (query-status).");
	for (i = 0; i < n; i++) {
		char ex[64];

		if (vms[i].snap->run_state[0] == '\0')
			continue;
		label1(ex, sizeof ex, "run_state", vms[i].snap->run_state);
		sample(&f, base[i], ex, 1);
	}
	family(&f, b, "qmigrate_vm_vcpus", "gauge",
	    "vCPUs of the VM (QEMU query-cpus-fast).");
	for (i = 0; i < n; i++)
		if (vms[i].snap->have_cpus)
			sample(&f, base[i], "", (double)vms[i].snap->ncpus);
	family(&f, b, "qmigrate_vm_cpu_usage_seconds_total", "counter",
	    "CPU time of QEMU's process, vCPUs and emulation (node /proc).");
	for (i = 0; i < n; i++) {
		s = vms[i].snap;
		if (s->cpu_user.have && s->cpu_system.have)
			sample(&f, base[i], "", s->cpu_user.v +
			    s->cpu_system.v);
	}
	render_vcpus(b, vms, n, base);
	for (k = 0; k < NITEMS(vm_values); k++) {
		family(&f, b, vm_values[k].name, vm_values[k].type,
		    vm_values[k].help);
		for (i = 0; i < n; i++)
			if (vm_value(&vm_values[k], vms[i].snap, &v))
				sample(&f, base[i], "", v);
	}
	render_drives(b, vms, n, base);
	render_nics(b, vms, n, base);
	render_guest(b, vms, n, base);
	render_migration(b, vms, n, base, node_base);

	for (i = 0; i < n; i++)
		free(base[i]);
	free(base);
	free(node_base);
}
