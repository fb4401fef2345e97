/*
 * observe.h: what a VM looks like to the observability commands, and the
 * parts of `qmigrate exporter` that share it:
 *
 *	exporter-decode.c   replies, /proc, /sys and the status document into
 *	                    a struct vm_snapshot (pure: buffers in, values out)
 *	exporter-collect.c  one VM's collector, refreshed on the loop, over
 *	                    its data sources (exporter-sources.h): QMP
 *	                    (exporter-qmp.c), the guest agent
 *	                    (exporter-agent.c), /proc and /sys
 *	                    (exporter-node.c), the status file
 *	                    (exporter-status.c)
 *	exporter-render.c   snapshots into the Prometheus text format
 *	exporter-http.c     the HTTP server behind --listen
 *	exporter.c          the exporter itself: the VM set (--vm, --vm-dir),
 *	                    the refresh timer, the textfile, --once
 *
 * `qmigrate stats` runs one collector once and prints its snapshot as JSON.
 */
#ifndef OBSERVE_H
#define OBSERVE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct ev_loop;
struct json_object;

/* One --vm NAME=QMP_PATH[,qga=PATH][,status=FILE][,namespace=NS]. */
struct exporter_vm_spec {
	char	*name;
	char	*namespace;	/* NULL: the exporter's --namespace, if any */
	char	*qmp;
	char	*qga;		/* NULL: no agent */
	char	*status;	/* NULL: no status file */
	int	 optional;	/* --vm-dir: a missing qga or status file means
				   "none", not "down" */
};

struct exporter_options {
	const char		*listen;	/* ADDR:PORT, or NULL */
	struct exporter_vm_spec	*vms;
	size_t			 nvms;
	const char		*vm_dir;	/* --vm-dir, or NULL */
	const char		*node;		/* the node label, or NULL */
	const char		*namespace;	/* default namespace label */
	const char		*textfile_dir;	/* or NULL */
	const char		*tls_dir;	/* the node's certificate, or NULL */
	double			 interval;	/* seconds between refreshes */
	double			 vm_timeout;	/* seconds a refresh may take */
	int			 once;
};

#define EXPORTER_MAX_VMS	1024

/* Limits of the HTTP side. */
#define EXPORTER_MAX_REQUEST	8192
#define EXPORTER_REQUEST_TIMEOUT 5.0
#define EXPORTER_MAX_CLIENTS	64

/* Bounds on what one VM may report: more is cut, with a debug line. */
#define SNAP_MAX_CPUS		1024
#define SNAP_MAX_DRIVES		256
#define SNAP_MAX_NICS		64
#define SNAP_MAX_FS		256
#define SNAP_MAX_GUEST_IFS	64
#define SNAP_MAX_ADDRS		16	/* IP addresses per guest interface */
#define SNAP_NAME		128	/* names, ids, labels from a peer */

/* A value read from a file or a peer: have says whether it is known. */
struct snap_u64 {
	int		have;
	uint64_t	v;
};
struct snap_f64 {
	int		have;
	double		v;
};

/* One vCPU: QEMU's thread, and what the node's /proc says it used. */
struct snap_vcpu {
	int		index;		/* cpu-index */
	int64_t		thread_id;	/* in QEMU's pid namespace */
	struct snap_f64	seconds;	/* utime + stime */
	struct snap_f64	delay;		/* waiting on a run queue */
};

/* One drive's query-blockstats counters. */
struct snap_drive {
	char		name[SNAP_NAME];	/* device, else qdev, else node */
	uint64_t	rd_bytes, wr_bytes;
	uint64_t	rd_ops, wr_ops, flush_ops;
	uint64_t	rd_ns, wr_ns, flush_ns;
};

/* Interface counters as the guest sees them (a tap's rx is its tx). */
struct snap_netstats {
	int		have;
	uint64_t	rx_bytes, rx_packets, rx_errors, rx_dropped;
	uint64_t	tx_bytes, tx_packets, tx_errors, tx_dropped;
};

/* One NIC of QEMU (info network), its tap and its counters. */
struct snap_nic {
	char			name[SNAP_NAME];	/* QEMU's NIC id */
	char			model[SNAP_NAME];
	char			mac[18];	/* configured, or rx-filter's */
	int			mac_from_rx_filter;
	char			tap[SNAP_NAME];	/* "" unless its peer is a tap */
	struct snap_netstats	stats;		/* the node's /sys, tap only */
};

/* One interface the guest agent reports. */
struct snap_guest_if {
	char			name[SNAP_NAME];
	char			mac[18];
	char			addrs[SNAP_MAX_ADDRS][64];	/* "IP/PREFIX" */
	size_t			naddrs;
	struct snap_netstats	stats;		/* the guest's own counters */
};

/* One guest file system (guest-get-fsinfo). */
struct snap_fs {
	char		mountpoint[SNAP_NAME * 2];
	char		type[32];
	struct snap_u64	used;
	struct snap_u64	total;
};

/* The guest's OS (guest-get-osinfo); "" for what it did not say. */
struct snap_os {
	char	id[64];
	char	name[SNAP_NAME];
	char	pretty_name[SNAP_NAME];
	char	version[SNAP_NAME];
	char	version_id[64];
	char	kernel_release[SNAP_NAME];
	char	machine[32];
};

#define PHASE_HIST_PHASES	6	/* Pending ... Failed */
#define PHASE_HIST_BUCKETS	18	/* KubeVirt's, up to an hour */

/*
 * The planes qmigrate_migration_failures_total counts a failed migration
 * under (exporter-decode.c): control and data (failurePlane), limit (the
 * controller aborted it at a bound of its policy), abort (someone asked:
 * an operator, a signal, the node agent), unknown (exit 8: where the
 * guest runs is not known).
 */
#define FAILURE_PLANES	5
/* ... and the side whose status file said so: source 0, target 1. */
#define FAILURE_ROLES	2
extern const char *const failure_planes[FAILURE_PLANES];
/* The index of plane in failure_planes (unknown for anything else). */
size_t	 failure_plane_index(const char *plane);

/* A migration as QEMU's query-migrate or the status document says. */
struct snap_migration {
	int		 have;
	char		 qemu_status[32];
	char		 role[16];	/* "source", "target" */
	char		 phase[32];	/* "" when nobody said */
	char		 mode[32];
	char		 uid[64];
	char		 failure_plane[16];	/* as failures_total counts it */
	int		 outcome_unknown;	/* it ended with exit 8 */
	/* the controller's bound: completion time its policy accepts */
	struct snap_f64	 acceptable;
	struct snap_u64	 data_total;
	struct snap_u64	 data_processed;
	struct snap_u64	 data_remaining;
	struct snap_f64	 memory_rate;	/* bytes/s sent */
	struct snap_f64	 dirty_rate;	/* bytes/s dirtied */
	struct snap_u64	 disk_processed;	/* bytes of disks mirrored */
	struct snap_f64	 disk_rate;	/* bytes/s mirrored (the collector's) */
	struct snap_u64	 iteration;
	struct snap_f64	 expected_downtime;	/* seconds */
	struct snap_f64	 downtime;	/* seconds: the guest's pause, once
					   known */
	struct snap_f64	 throttle;	/* 0 to 1 */
	struct snap_f64	 dirty_limit_throttle;	/* seconds per round */
	struct snap_u64	 postcopy_requests;
	struct snap_f64	 start_time;	/* seconds since the epoch */
	struct snap_f64	 end_time;
	/* seconds from start_time to each of phase_hist_phases entered */
	struct snap_f64	 phase_time[PHASE_HIST_PHASES];
};

/* exporter-phases.c: the phase transition histogram of one VM. */
struct phase_hist {
	char		uid[64];	/* the migration seen last */
	unsigned	observed;	/* its phases observed, bit i */
	uint64_t	bucket[PHASE_HIST_PHASES][PHASE_HIST_BUCKETS];
	uint64_t	count[PHASE_HIST_PHASES];	/* cumulative */
	double		sum[PHASE_HIST_PHASES];
};
extern const char *const phase_hist_phases[PHASE_HIST_PHASES];
extern const double phase_hist_le[PHASE_HIST_BUCKETS];
void	 phase_hist_update(struct phase_hist *,
	    const struct snap_migration *, int observe);

/*
 * Everything one refresh learnt about a VM, by layer.  A part its layer
 * did not answer stays "not have" and is left out, never shown as 0.
 */
struct vm_snapshot {
	/* QEMU, over QMP */
	int			 qmp_up;
	char			 run_state[32];		/* "" unknown */
	int			 have_cpus;
	struct snap_vcpu	*cpus;
	size_t			 ncpus;
	struct snap_u64		 memory;	/* base + plugged */
	struct snap_u64		 balloon;	/* query-balloon's actual */
	int			 have_drives;
	struct snap_drive	*drives;
	size_t			 ndrives;
	int			 have_nics;
	struct snap_nic		*nics;
	size_t			 nnics;
	struct snap_f64		 dirty_rate;	/* last calc-dirty-rate */
	struct snap_migration	 qemu_migration;	/* query-migrate */

	/* the node: /proc of QEMU's process */
	pid_t			 pid;		/* 0 unknown */
	struct snap_f64		 cpu_user;	/* seconds */
	struct snap_f64		 cpu_system;
	struct snap_u64		 rss;		/* bytes */

	/* the guest agent */
	int			 agent_configured;
	int			 agent_up;
	int			 have_os;
	struct snap_os		 os;
	char			 hostname[SNAP_NAME];
	struct snap_u64		 guest_memory;	/* online memory blocks */
	int			 have_fs;
	struct snap_fs		*fs;
	size_t			 nfs;
	int			 have_guest_ifs;
	struct snap_guest_if	*guest_ifs;
	size_t			 nguest_ifs;

	/* the status document of the migration qmigrate runs */
	struct snap_migration	 doc_migration;
};

/* exporter-decode.c: each returns 0, or -1 when the input is unusable. */
void	 snap_free(struct vm_snapshot *);
/*
 * Puts list v (count items) in the snapshot's list NAME (cpus, drives,
 * nics, fs or guest_ifs), freeing the one it had: known from now on.
 */
#define SNAP_SET_LIST(s, name, v, count) do {				\
	free((s)->name);						\
	(s)->name = (v);						\
	(s)->n##name = (count);						\
	(s)->have_##name = 1;						\
} while (0)
/* Moves list NAME of r into s: r no longer has it. */
#define SNAP_TAKE_LIST(s, r, name) do {					\
	SNAP_SET_LIST((s), name, (r)->name, (r)->n##name);		\
	(r)->name = NULL;						\
} while (0)
int	 decode_cpus(struct json_object *, struct vm_snapshot *);
int	 decode_memory(struct json_object *, struct snap_u64 *);
int	 decode_balloon(struct json_object *, struct snap_u64 *);
int	 decode_blockstats(struct json_object *, struct vm_snapshot *);
int	 decode_info_network(const char *text, struct vm_snapshot *);
int	 decode_rx_filter(struct json_object *, struct vm_snapshot *);
int	 decode_dirty_rate(struct json_object *, struct snap_f64 *);
int	 decode_run_state(struct json_object *, char *out, size_t len);
int	 decode_query_migrate(struct json_object *, struct snap_migration *);
int	 decode_status_doc(struct json_object *, struct snap_migration *);
int	 decode_osinfo(struct json_object *, struct snap_os *);
int	 decode_fsinfo(struct json_object *, struct vm_snapshot *);
int	 decode_memory_blocks(struct json_object *blocks, uint64_t block_size,
	    struct snap_u64 *);
int	 decode_guest_ifs(struct json_object *, struct vm_snapshot *);
int	 decode_proc_stat(const char *buf, double ticks_per_second,
	    struct snap_f64 *user, struct snap_f64 *system);
int	 decode_proc_rss(const char *buf, struct snap_u64 *);
int	 decode_schedstat(const char *buf, struct snap_f64 *delay);
int	 decode_nspid(const char *buf, int64_t *innermost);
int	 decode_rfc3339(const char *s, double *out);
int	 decode_mac(const char *s, char out[18]);

/* exporter-collect.c: one VM's collector on a loop. */
struct vm_collector;
typedef void (*collector_settled_cb)(struct vm_collector *, void *arg);
struct vm_collector *collector_new(struct ev_loop *,
	    const struct exporter_vm_spec *, double timeout,
	    collector_settled_cb, void *arg);
void	 collector_free(struct vm_collector *);
void	 collector_refresh(struct vm_collector *);
int	 collector_settled(const struct vm_collector *);
int	 collector_stale(const struct vm_collector *, double interval);
const struct vm_snapshot *collector_snapshot(const struct vm_collector *);
/* Failed migrations seen, by failure_planes' index. */
void	 collector_failures(const struct vm_collector *,
	    uint64_t out[FAILURE_ROLES][FAILURE_PLANES]);
const struct phase_hist *collector_phase_hist(const struct vm_collector *);
const char *collector_error(const struct vm_collector *);
const char *collector_agent_error(const struct vm_collector *);
const char *collector_part_error(const struct vm_collector *,
	    const char *command);

/* exporter-render.c: the text exposition of a set of VMs. */
struct render_vm {
	const struct exporter_vm_spec	*spec;
	const struct vm_snapshot	*snap;
	int				 stale;
	uint64_t			 failures[FAILURE_ROLES][FAILURE_PLANES];
	const struct phase_hist		*phases;	/* or NULL */
};
struct render_buf {
	char	*p;
	size_t	 len;
	size_t	 cap;
};
void	 render_printf(struct render_buf *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* exporter-tls.c: the certificate's expiry, now being the time. */
void	 render_tls_expiry(struct render_buf *, const char *tls_dir,
	    const char *node, double now);
void	 render_metrics(struct render_buf *, const struct render_vm *,
	    size_t n, const char *node, const char *default_namespace);
const struct snap_migration *render_migration_of(const struct vm_snapshot *);
/* A label value escaped for the text format (\\, \", \n); malloc'd. */
char	*prom_escape_label(const char *value);

/*
 * exporter-http.c: GET /metrics on a loop.  body() renders each answer;
 * a request head is at most EXPORTER_MAX_REQUEST bytes and
 * EXPORTER_REQUEST_TIMEOUT seconds, EXPORTER_MAX_CLIENTS at once.
 */
struct http_server;
typedef void (*http_body_cb)(struct render_buf *, void *arg);
struct http_server *http_server_new(struct ev_loop *, http_body_cb,
	    void *arg);
int	 http_server_listen(struct http_server *, const char *spec,
	    char **cause);
void	 http_server_add_client(struct http_server *, int fd);
int	 http_server_clients(const struct http_server *);
void	 http_server_free(struct http_server *);
int	 http_parse_request(char *head, const char **method,
	    const char **path);

/* exporter-json.c: qmigrate stats' document; its interfaces, QEMU's NICs
 * and the agent's merged by MAC. */
struct json_object *stats_document(const struct vm_collector *,
	    const struct vm_snapshot *);
struct json_object *stats_interfaces(const struct vm_snapshot *);

/* exporter.c */
int	 exporter_vm_spec_parse(const char *arg, struct exporter_vm_spec *,
	    char **cause);
void	 exporter_vm_spec_free(struct exporter_vm_spec *);
int	 exporter_dir_scan(const char *dir, struct exporter_vm_spec **out,
	    size_t *n, char **cause);
int	 exporter_run(const struct exporter_options *);

#endif
