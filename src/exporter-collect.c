/*
 * exporter-collect.c: one VM's collector.  On the caller's libev loop: a
 * persistent QMP connection (connected without blocking, reconnected with
 * exponential backoff), a refresh that sends every query at once, each
 * bounded by the timeout, then reads what the node knows about QEMU's
 * process (its /proc: CPU time, resident memory, each vCPU thread's time)
 * and its tap devices (/sys/class/net); a guest-agent round on a short
 * connection of its own (qemu-ga serves one client at a time, so the
 * collector never keeps it); and the status file of qmigrate's migration.
 * Everything lands in one struct vm_snapshot that renderers read at any
 * time: a reader never waits for QEMU.
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "qmp.h"
#include "exporter.h"

#define BACKOFF_MIN	0.5
#define BACKOFF_MAX	30.0
#define PROC_FILE_MAX	4096	/* /proc and /sys files read here */
#define DISK_RATE_IDLE	5.0	/* s without mirror progress: rate 0 */

/* The QMP round: one command each; optional ones may fail quietly. */
enum cq {
	CQ_STATUS, CQ_MIGRATE, CQ_CPUS, CQ_MEMORY, CQ_BALLOON, CQ_BLOCK,
	CQ_NETWORK, CQ_DIRTY, CQ_RX_FILTER, CQ_COUNT
};
static const struct {
	const char	*cmd;
	int		 optional;	/* not every VM has it */
} cq_table[CQ_COUNT] = {
	{ "query-status", 0 },
	{ "query-migrate", 0 },
	{ "query-cpus-fast", 0 },
	{ "query-memory-size-summary", 0 },
	{ "query-balloon", 1 },		/* no balloon device */
	{ "query-blockstats", 0 },
	{ "human-monitor-command", 0 },	/* info network */
	{ "query-dirty-rate", 1 },	/* never measured */
	{ "query-rx-filter", 1 },	/* only when it may have changed */
};

/* The agent round, after guest-sync answered. */
enum aq {
	AQ_OSINFO, AQ_HOSTNAME, AQ_BLOCK_INFO, AQ_BLOCKS, AQ_FSINFO, AQ_IFS,
	AQ_COUNT
};
static const char *aq_cmd[AQ_COUNT] = {
	"guest-get-osinfo", "guest-get-host-name",
	"guest-get-memory-block-info", "guest-get-memory-blocks",
	"guest-get-fsinfo", "guest-network-get-interfaces",
};

enum cstate { C_DOWN, C_CONNECTING, C_UP };

struct vm_collector;

struct query_arg {
	struct vm_collector	*c;
	int			 q;
};

struct vm_collector {
	struct ev_loop			*loop;
	const struct exporter_vm_spec	*spec;
	double				 timeout;
	collector_settled_cb		 settled_cb;
	void				*settled_arg;
	int				 dying;	/* callbacks: hands off */
	double				 ticks;	/* clock ticks per second */

	enum cstate	 state;
	struct qmp_conn	*qmp;
	struct qmp_conn	*dead[2];	/* closed from outside their callbacks */
	ev_timer	 reconnect;
	ev_timer	 reap;
	double		 backoff;
	char		*error;		/* why the last connect failed */
	struct query_arg qargs[CQ_COUNT];
	int		 pending;
	int		 round_failed;
	int		 rx_dirty;	/* ask query-rx-filter next round */
	json_object	*rx_filter;	/* its last answer, owned */
	double		 last_ok;	/* monotonic end of a complete round */
	int		 qmp_settled;	/* a round (or a failure) is in */

	struct qmp_conn	*qga;
	struct query_arg aargs[AQ_COUNT];
	int		 agent_pending;	/* sync included */
	int64_t		 sync_id;
	double		 agent_deadline;
	uint64_t	 block_size;	/* this round's memory block size */
	int		 agent_settled;

	struct vm_snapshot snap;
	struct vm_snapshot round;	/* the QMP round being answered */
	int		 round_ok[CQ_COUNT];
	char		*qerr[CQ_COUNT];	/* this round's error per query */
	char		*aerr[AQ_COUNT];
	char		*agent_error;	/* why the agent is down */

	int		 status_baselined;
	char		 failed_uid[64];
	uint64_t	 failures[3];	/* control, data, abort */
	struct phase_hist phases;
	uint64_t	 disk_prev;
	double		 disk_prev_t;
	double		 disk_rate;
	int		 have_disk_rate;
};

static void	collector_connect(struct vm_collector *);
static void	collector_round_done(struct vm_collector *);
static void	collector_qmp_round(struct vm_collector *);

/*
 * Reads at most PROC_FILE_MAX - 1 bytes of path into buf (NUL-ended).
 * Returns 0, or -1 when it cannot be read.
 */
static int
read_small(const char *path, char *buf, size_t size)
{
	ssize_t	n;
	size_t	off = 0;
	int	fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	while (off < size - 1) {
		n = read(fd, buf + off, size - 1 - off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	close(fd);
	buf[off] = '\0';
	return off > 0 ? 0 : -1;
}

static int
read_u64_file(const char *path, uint64_t *out)
{
	char			 buf[64], *end;
	unsigned long long	 v;

	if (read_small(path, buf, sizeof buf) != 0)
		return -1;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno != 0 || end == buf || buf[0] == '-')
		return -1;
	*out = v;
	return 0;
}

/* --- settling and teardown ------------------------------------------- */

static void
collector_check_settled(struct vm_collector *c)
{
	if (collector_settled(c) && c->settled_cb != NULL)
		c->settled_cb(c, c->settled_arg);
}

int
collector_settled(const struct vm_collector *c)
{
	return c->qmp_settled && c->agent_settled;
}

/*
 * Hands conn to the reap timer: a connection is never freed from inside
 * one of its own callbacks.
 */
static void
collector_bury(struct vm_collector *c, struct qmp_conn *conn)
{
	if (c->dead[0] == NULL)
		c->dead[0] = conn;
	else if (c->dead[1] == NULL)
		c->dead[1] = conn;
	else
		fatalx("collector: more than two connections to reap");
	ev_timer_stop(c->loop, &c->reap);
	ev_timer_set(&c->reap, 0, 0);
	ev_timer_start(c->loop, &c->reap);
}

static void
reap_cb(struct ev_loop *loop, ev_timer *t, int revents)
{
	struct vm_collector *c = container_of(t, struct vm_collector, reap);

	qmp_close(c->dead[0]);
	qmp_close(c->dead[1]);
	c->dead[0] = c->dead[1] = NULL;
}

/* QEMU's layer and the node's are only true while the monitor answers. */
static void
collector_forget_qemu(struct vm_collector *c)
{
	struct vm_snapshot *s = &c->snap;

	free(s->cpus);
	free(s->drives);
	free(s->nics);
	s->cpus = NULL;
	s->drives = NULL;
	s->nics = NULL;
	s->ncpus = s->ndrives = s->nnics = 0;
	s->have_cpus = s->have_drives = s->have_nics = 0;
	s->run_state[0] = '\0';
	memset(&s->memory, 0, sizeof s->memory);
	memset(&s->balloon, 0, sizeof s->balloon);
	memset(&s->dirty_rate, 0, sizeof s->dirty_rate);
	memset(&s->qemu_migration, 0, sizeof s->qemu_migration);
	s->pid = 0;
	memset(&s->cpu_user, 0, sizeof s->cpu_user);
	memset(&s->cpu_system, 0, sizeof s->cpu_system);
	memset(&s->rss, 0, sizeof s->rss);
}

/* The monitor is gone or useless: drop it and try again later. */
static void
collector_down(struct vm_collector *c, const char *why)
{
	if (c->error == NULL || strcmp(c->error, why) != 0)
		log_warnx("exporter: vm %s: %s (retrying in %.1f s)",
		    c->spec->name, why, c->backoff);
	free(c->error);
	c->error = xstrdup(why);
	if (c->qmp != NULL) {
		collector_bury(c, c->qmp);
		c->qmp = NULL;
	}
	c->state = C_DOWN;
	c->snap.qmp_up = 0;
	collector_forget_qemu(c);
	c->qmp_settled = 1;
	ev_timer_stop(c->loop, &c->reconnect);
	ev_timer_set(&c->reconnect, c->backoff, 0);
	ev_timer_start(c->loop, &c->reconnect);
	c->backoff *= 2;
	if (c->backoff > BACKOFF_MAX)
		c->backoff = BACKOFF_MAX;
	collector_check_settled(c);
}

static void
reconnect_cb(struct ev_loop *loop, ev_timer *t, int revents)
{
	collector_connect(container_of(t, struct vm_collector, reconnect));
}

static void
closed_cb(struct qmp_conn *conn, const char *reason, void *arg)
{
	struct vm_collector *c = arg;

	if (conn == c->qmp && !c->dying)
		collector_down(c, reason);
}

static void
rx_filter_changed_cb(struct qmp_conn *conn, const char *name,
    json_object *data, double timestamp, void *arg)
{
	struct vm_collector *c = arg;

	c->rx_dirty = 1;
}

static void
caps_cb(struct qmp_conn *conn, json_object *reply, const char *error_class,
    const char *error, void *arg)
{
	struct vm_collector	*c = arg;
	char			*why;

	if (conn != c->qmp || c->dying)
		return;
	if (reply == NULL) {
		xasprintf(&why, "%s: qmp_capabilities: %s", c->spec->qmp,
		    error);
		collector_down(c, why);
		free(why);
		return;
	}
	if (c->error != NULL)
		log_info("exporter: vm %s: connected", c->spec->name);
	free(c->error);
	c->error = NULL;
	c->state = C_UP;
	c->snap.qmp_up = 1;
	c->backoff = BACKOFF_MIN;
	c->rx_dirty = 1;
	collector_qmp_round(c);
}

/*
 * Starts a connection to the monitor without blocking the loop.  QEMU's
 * pid comes from the socket itself (SO_PEERCRED, in our pid namespace).
 */
static void
collector_connect(struct vm_collector *c)
{
	struct ucred	 cred;
	socklen_t	 len = sizeof cred;
	char		*cause = NULL;
	int		 fd;

	if (c->state != C_DOWN)
		return;
	if ((fd = unix_connect(c->spec->qmp, &cause)) == -1) {
		collector_down(c, cause);
		free(cause);
		return;
	}
	c->snap.pid = getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred,
	    &len) == 0 ? cred.pid : 0;
	c->qmp = qmp_attach_fd(c->loop, fd, QMP_PROTO_MONITOR, c->spec->qmp);
	qmp_set_close_cb(c->qmp, closed_cb, c);
	(void)qmp_subscribe(c->qmp, "NIC_RX_FILTER_CHANGED",
	    rx_filter_changed_cb, c);
	c->state = C_CONNECTING;
	c->qmp_settled = 0;
	/* The greeting is recorded whenever it comes; this bounds it. */
	if (qmp_send(c->qmp, "qmp_capabilities", NULL, c->timeout, caps_cb,
	    c, &cause) != 0) {
		collector_down(c, cause);
		free(cause);
	}
}

/* --- the node: /proc and /sys ----------------------------------------- */

/*
 * The directory of QEMU's thread tid under /proc/PID/task: tid is in
 * QEMU's pid namespace, which is ours unless QEMU runs in a container;
 * then the task whose innermost NSpid is tid is the one.
 */
static int
vcpu_task_path(pid_t pid, int64_t tid, char *out, size_t len)
{
	char		 path[160], buf[PROC_FILE_MAX];
	int64_t		 inner;
	DIR		*d;
	struct dirent	*e;
	int		 found = -1;

	snprintf(out, len, "/proc/%d/task/%lld", (int)pid, (long long)tid);
	snprintf(path, sizeof path, "%s/status", out);
	if (read_small(path, buf, sizeof buf) == 0 &&
	    (decode_nspid(buf, &inner) != 0 || inner == tid))
		return 0;
	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	if ((d = opendir(path)) == NULL)
		return -1;
	while (found == -1 && (e = readdir(d)) != NULL) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9' ||
		    strlen(e->d_name) > 10)
			continue;
		snprintf(path, sizeof path, "/proc/%d/task/%s/status",
		    (int)pid, e->d_name);
		if (read_small(path, buf, sizeof buf) == 0 &&
		    decode_nspid(buf, &inner) == 0 && inner == tid) {
			snprintf(out, len, "/proc/%d/task/%s", (int)pid,
			    e->d_name);
			found = 0;
		}
	}
	closedir(d);
	return found;
}

static void
read_node(struct vm_collector *c, struct vm_snapshot *s)
{
	struct snap_f64		 u, sy;
	struct snap_nic		*nic;
	char			 path[160], dir[96], buf[PROC_FILE_MAX];
	size_t			 i;
	static const char	*ctr[8] = {
		"tx_bytes", "tx_packets", "tx_errors", "tx_dropped",
		"rx_bytes", "rx_packets", "rx_errors", "rx_dropped",
	};

	if (s->pid > 0) {
		snprintf(path, sizeof path, "/proc/%d/stat", (int)s->pid);
		if (read_small(path, buf, sizeof buf) != 0 ||
		    decode_proc_stat(buf, c->ticks, &s->cpu_user,
		    &s->cpu_system) != 0)
			s->cpu_user.have = s->cpu_system.have = 0;
		snprintf(path, sizeof path, "/proc/%d/status", (int)s->pid);
		if (read_small(path, buf, sizeof buf) != 0 ||
		    decode_proc_rss(buf, &s->rss) != 0)
			s->rss.have = 0;
	}
	for (i = 0; i < s->ncpus; i++) {
		s->cpus[i].seconds.have = s->cpus[i].delay.have = 0;
		if (s->pid <= 0 || vcpu_task_path(s->pid,
		    s->cpus[i].thread_id, dir, sizeof dir) != 0)
			continue;
		snprintf(path, sizeof path, "%s/stat", dir);
		if (read_small(path, buf, sizeof buf) == 0 &&
		    decode_proc_stat(buf, c->ticks, &u, &sy) == 0) {
			s->cpus[i].seconds.have = 1;
			s->cpus[i].seconds.v = u.v + sy.v;
		}
		snprintf(path, sizeof path, "%s/schedstat", dir);
		if (read_small(path, buf, sizeof buf) == 0)
			(void)decode_schedstat(buf, &s->cpus[i].delay);
	}
	/* A tap's transmit is what the guest receives, and the reverse. */
	for (i = 0; i < s->nnics; i++) {
		uint64_t *dst[8];
		int k, ok = 1;

		nic = &s->nics[i];
		memset(&nic->stats, 0, sizeof nic->stats);
		if (nic->tap[0] == '\0')
			continue;
		dst[0] = &nic->stats.rx_bytes;
		dst[1] = &nic->stats.rx_packets;
		dst[2] = &nic->stats.rx_errors;
		dst[3] = &nic->stats.rx_dropped;
		dst[4] = &nic->stats.tx_bytes;
		dst[5] = &nic->stats.tx_packets;
		dst[6] = &nic->stats.tx_errors;
		dst[7] = &nic->stats.tx_dropped;
		for (k = 0; k < 8 && ok; k++) {
			snprintf(path, sizeof path,
			    "/sys/class/net/%s/statistics/%s", nic->tap,
			    ctr[k]);
			ok = read_u64_file(path, dst[k]) == 0;
		}
		nic->stats.have = ok;
	}
}

/* --- the QMP round ------------------------------------------------------ */

static void
query_cb(struct qmp_conn *conn, json_object *reply, const char *error_class,
    const char *error, void *arg)
{
	struct query_arg	*a = arg;
	struct vm_collector	*c = a->c;
	struct vm_snapshot	*s = &c->round;
	int			 bad = 0;

	c->pending--;
	if (c->dying)
		return;
	free(c->qerr[a->q]);
	c->qerr[a->q] = reply == NULL ? xstrdup(error) : NULL;
	if (reply == NULL) {
		if (!cq_table[a->q].optional) {
			c->round_failed = 1;
			log_debug("exporter: vm %s: %s: %s", c->spec->name,
			    cq_table[a->q].cmd, error);
		}
	} else {
		switch (a->q) {
		case CQ_STATUS:
			bad = decode_run_state(reply, s->run_state,
			    sizeof s->run_state);
			break;
		case CQ_MIGRATE:
			bad = decode_query_migrate(reply, &s->qemu_migration);
			break;
		case CQ_CPUS:
			bad = decode_cpus(reply, s);
			break;
		case CQ_MEMORY:
			bad = decode_memory(reply, &s->memory);
			break;
		case CQ_BALLOON:
			(void)decode_balloon(reply, &s->balloon);
			break;
		case CQ_BLOCK:
			bad = decode_blockstats(reply, s);
			break;
		case CQ_NETWORK:
			bad = decode_info_network(json_object_is_type(reply,
			    json_type_string) ? json_object_get_string(reply) :
			    NULL, s);
			break;
		case CQ_DIRTY:
			(void)decode_dirty_rate(reply, &s->dirty_rate);
			break;
		case CQ_RX_FILTER:
			json_object_put(c->rx_filter);
			c->rx_filter = json_object_get(reply);
			break;
		}
		if (bad) {
			c->round_failed = 1;
			log_debug("exporter: vm %s: %s: unexpected answer",
			    c->spec->name, cq_table[a->q].cmd);
		} else
			c->round_ok[a->q] = 1;
	}
	if (c->pending > 0)
		return;
	collector_round_done(c);
}

/*
 * The round is in: apply the MACs, ask the node, and publish what was
 * answered all at once, so that a reader never sees a vCPU without its
 * time or a NIC without its counters.  A part QEMU did not answer keeps
 * its last values (the VM is stale then); an optional one is gone.
 */
static void
collector_round_done(struct vm_collector *c)
{
	struct vm_snapshot	*r = &c->round, *s = &c->snap;

	r->pid = s->pid;
	if (c->rx_filter != NULL)
		(void)decode_rx_filter(c->rx_filter, r);
	read_node(c, r);
	s->cpu_user = r->cpu_user;
	s->cpu_system = r->cpu_system;
	s->rss = r->rss;
	if (c->round_ok[CQ_STATUS])
		memcpy(s->run_state, r->run_state, sizeof s->run_state);
	if (c->round_ok[CQ_MIGRATE])
		s->qemu_migration = r->qemu_migration;
	if (c->round_ok[CQ_MEMORY])
		s->memory = r->memory;
	s->balloon = r->balloon;
	s->dirty_rate = r->dirty_rate;
	if (c->round_ok[CQ_CPUS]) {
		free(s->cpus);
		s->cpus = r->cpus;
		s->ncpus = r->ncpus;
		s->have_cpus = 1;
		r->cpus = NULL;
	}
	if (c->round_ok[CQ_BLOCK]) {
		free(s->drives);
		s->drives = r->drives;
		s->ndrives = r->ndrives;
		s->have_drives = 1;
		r->drives = NULL;
	}
	if (c->round_ok[CQ_NETWORK]) {
		free(s->nics);
		s->nics = r->nics;
		s->nnics = r->nnics;
		s->have_nics = 1;
		r->nics = NULL;
	}
	snap_free(r);
	if (!c->round_failed)
		c->last_ok = ev_now(c->loop);
	c->qmp_settled = 1;
	collector_check_settled(c);
}

/* Every query at once, unless the last round is still out. */
static void
collector_qmp_round(struct vm_collector *c)
{
	json_object	*args;
	char		*cause = NULL;
	int		 q;

	if (c->state != C_UP || c->pending > 0)
		return;
	c->round_failed = 0;
	snap_free(&c->round);
	memset(c->round_ok, 0, sizeof c->round_ok);
	for (q = 0; q < CQ_COUNT; q++) {
		args = NULL;
		if (q == CQ_RX_FILTER) {
			if (!c->rx_dirty)
				continue;
			c->rx_dirty = 0;
		}
		if (q == CQ_NETWORK) {
			args = json_object_new_object();
			json_object_object_add(args, "command-line",
			    json_object_new_string("info network"));
		}
		c->qargs[q].c = c;
		c->qargs[q].q = q;
		if (qmp_send(c->qmp, cq_table[q].cmd, args, c->timeout,
		    query_cb, &c->qargs[q], &cause) != 0) {
			c->round_failed = 1;
			log_debug("exporter: vm %s: %s", c->spec->name, cause);
			free(cause);
			cause = NULL;
			continue;
		}
		c->pending++;
	}
	if (c->pending == 0)
		collector_round_done(c);
}

/* --- the guest agent ------------------------------------------------------ */

static void
agent_done(struct vm_collector *c)
{
	if (c->qga != NULL) {
		collector_bury(c, c->qga);
		c->qga = NULL;
	}
	c->agent_settled = 1;
	collector_check_settled(c);
}

static void
agent_cb(struct qmp_conn *conn, json_object *reply, const char *error_class,
    const char *error, void *arg)
{
	struct query_arg	*a = arg;
	struct vm_collector	*c = a->c;
	struct vm_snapshot	*s = &c->snap;
	uint64_t		 size;

	c->agent_pending--;
	if (c->dying)
		return;
	free(c->aerr[a->q]);
	c->aerr[a->q] = reply == NULL ? xstrdup(error) : NULL;
	/*
	 * A part that did not answer this time keeps its last value: the
	 * agent answered guest-sync, so it is up, only slow.
	 */
	if (reply == NULL) {
		log_debug("exporter: vm %s: %s: %s", c->spec->name,
		    aq_cmd[a->q], error);
		if (a->q == AQ_BLOCK_INFO)
			c->block_size = 0;
	} else switch (a->q) {
	case AQ_OSINFO:
		s->have_os = decode_osinfo(reply, &s->os) == 0;
		break;
	case AQ_HOSTNAME:
		s->hostname[0] = '\0';
		if (json_str_at(reply, "host-name") != NULL)
			snprintf(s->hostname, sizeof s->hostname, "%s",
			    json_str_at(reply, "host-name"));
		break;
	case AQ_BLOCK_INFO:
		c->block_size = 0;
		if ((size = json_u64_at(reply, "size")) > 0 &&
		    size < ((uint64_t)1 << 40))
			c->block_size = size;
		break;
	case AQ_BLOCKS:
		if (c->block_size > 0)
			(void)decode_memory_blocks(reply, c->block_size,
			    &s->guest_memory);
		break;
	case AQ_FSINFO:
		if (decode_fsinfo(reply, s) != 0)
			s->have_fs = 0;
		break;
	case AQ_IFS:
		if (decode_guest_ifs(reply, s) != 0)
			s->have_guest_ifs = 0;
		break;
	}
	if (c->agent_pending == 0)
		agent_done(c);
}

/* The agent answered guest-sync with our id: ask it everything else. */
static void
sync_cb(struct qmp_conn *conn, json_object *reply, const char *error_class,
    const char *error, void *arg)
{
	struct vm_collector	*c = arg;
	char			*cause = NULL;
	double			 left;
	int			 q;

	c->agent_pending--;
	if (c->dying)
		return;
	c->snap.agent_up = reply != NULL && json_object_is_type(reply,
	    json_type_int) && json_object_get_int64(reply) == c->sync_id;
	free(c->agent_error);
	c->agent_error = NULL;
	if (!c->snap.agent_up) {
		xasprintf(&c->agent_error, "%s: guest-sync: %s", c->spec->qga,
		    error != NULL ? error : "wrong guest-sync answer");
		log_debug("exporter: vm %s: %s", c->spec->name,
		    c->agent_error);
		c->snap.have_os = c->snap.have_fs = 0;
		c->snap.have_guest_ifs = c->snap.guest_memory.have = 0;
		agent_done(c);
		return;
	}
	left = c->agent_deadline - ev_now(c->loop);
	if (left < 0.001)
		left = 0.001;
	for (q = 0; q < AQ_COUNT; q++) {
		c->aargs[q].c = c;
		c->aargs[q].q = q;
		if (qmp_send(c->qga, aq_cmd[q], NULL, left, agent_cb,
		    &c->aargs[q], &cause) != 0) {
			free(cause);
			cause = NULL;
			continue;
		}
		c->agent_pending++;
	}
	if (c->agent_pending == 0)
		agent_done(c);
}

/* Starts an agent round: guest-sync with a fresh id on a new connection. */
static void
collector_agent_round(struct vm_collector *c)
{
	struct vm_snapshot	*s = &c->snap;
	json_object		*args;
	struct stat		 sb;
	char			*cause = NULL;
	int			 fd;

	if (c->qga != NULL)
		return;		/* the last round is still out */
	s->agent_configured = c->spec->qga != NULL &&
	    (!c->spec->optional || stat(c->spec->qga, &sb) == 0);
	if (!s->agent_configured) {
		s->agent_up = 0;
		c->agent_settled = 1;
		return;
	}
	c->agent_settled = 0;
	if ((fd = unix_connect(c->spec->qga, &cause)) == -1) {
		log_debug("exporter: vm %s: %s", c->spec->name, cause);
		free(c->agent_error);
		c->agent_error = cause;
		s->agent_up = 0;
		c->agent_settled = 1;
		return;
	}
	c->qga = qmp_attach_fd(c->loop, fd, QMP_PROTO_AGENT, c->spec->qga);
	c->sync_id = (int64_t)(random() & 0x7fffffff);
	c->agent_deadline = ev_now(c->loop) + c->timeout;
	args = json_object_new_object();
	json_object_object_add(args, "id", json_object_new_int64(c->sync_id));
	if (qmp_send(c->qga, "guest-sync", args, c->timeout, sync_cb, c,
	    &cause) != 0) {
		free(c->agent_error);
		c->agent_error = cause;
		s->agent_up = 0;
		agent_done(c);
		return;
	}
	c->agent_pending = 1;
}

/* --- the status document ----------------------------------------------- */

/*
 * Reads the status file of a qmigrate migrate/incoming, if any.  Each
 * failed migration counts once, by its uid; what the file already said
 * when the collector started is the baseline, not a new failure.
 */
static void
collector_read_status(struct vm_collector *c)
{
	struct snap_migration	*m = &c->snap.doc_migration;
	json_object		*doc;
	char			*cause = NULL;
	double			 now = ev_now(c->loop);
	int			 k;

	if (c->spec->status == NULL)
		return;
	if ((doc = status_read_file(c->spec->status, &cause)) == NULL) {
		/* No migration yet is the usual case: not worth a warning. */
		log_debug("exporter: vm %s: %s", c->spec->name, cause);
		free(cause);
		memset(m, 0, sizeof *m);
		c->status_baselined = 1;
		return;
	}
	(void)decode_status_doc(doc, m);
	json_object_put(doc);
	if (m->failure_plane[0] != '\0' && m->uid[0] != '\0' &&
	    strcmp(m->uid, c->failed_uid) != 0) {
		snprintf(c->failed_uid, sizeof c->failed_uid, "%s", m->uid);
		k = strcmp(m->failure_plane, "control") == 0 ? 0 :
		    strcmp(m->failure_plane, "data") == 0 ? 1 : 2;
		if (c->status_baselined)
			c->failures[k]++;
	}
	phase_hist_update(&c->phases, m, c->status_baselined);
	c->status_baselined = 1;

	/* Disks: bytes mirrored per second, between two readings. */
	if (!m->disk_processed.have) {
		c->have_disk_rate = 0;
		c->disk_prev_t = 0;
		return;
	}
	if (c->disk_prev_t != 0 && m->disk_processed.v > c->disk_prev &&
	    now > c->disk_prev_t) {
		c->disk_rate = (double)(m->disk_processed.v - c->disk_prev) /
		    (now - c->disk_prev_t);
		c->have_disk_rate = 1;
	} else if (c->disk_prev_t != 0 && now - c->disk_prev_t >
	    DISK_RATE_IDLE)
		c->disk_rate = 0;
	if (c->disk_prev_t == 0 || m->disk_processed.v != c->disk_prev) {
		c->disk_prev = m->disk_processed.v;
		c->disk_prev_t = now;
	}
	m->disk_rate.have = c->have_disk_rate;
	m->disk_rate.v = c->disk_rate;
}

/* --- the collector ------------------------------------------------------ */

struct vm_collector *
collector_new(struct ev_loop *loop, const struct exporter_vm_spec *spec,
    double timeout, collector_settled_cb cb, void *arg)
{
	struct vm_collector	*c = xcalloc(1, sizeof *c);
	long			 hz = sysconf(_SC_CLK_TCK);

	c->loop = loop;
	c->spec = spec;
	c->timeout = timeout;
	c->settled_cb = cb;
	c->settled_arg = arg;
	c->ticks = hz > 0 ? (double)hz : 100;
	c->backoff = BACKOFF_MIN;
	ev_timer_init(&c->reconnect, reconnect_cb, 0, 0);
	ev_timer_init(&c->reap, reap_cb, 0, 0);
	collector_read_status(c);
	collector_agent_round(c);
	collector_connect(c);
	return c;
}

/* One refresh of every layer; a layer whose last round is out waits. */
void
collector_refresh(struct vm_collector *c)
{
	collector_read_status(c);
	collector_agent_round(c);
	collector_qmp_round(c);
}

void
collector_free(struct vm_collector *c)
{
	struct qmp_conn	*conn;
	int		 q;

	if (c == NULL)
		return;
	c->dying = 1;
	ev_timer_stop(c->loop, &c->reconnect);
	ev_timer_stop(c->loop, &c->reap);
	qmp_close(c->dead[0]);
	qmp_close(c->dead[1]);
	qmp_close(c->qga);
	/* Pending callbacks run now and must find nothing to do. */
	if ((conn = c->qmp) != NULL) {
		c->qmp = NULL;
		qmp_close(conn);
	}
	json_object_put(c->rx_filter);
	snap_free(&c->snap);
	snap_free(&c->round);
	for (q = 0; q < CQ_COUNT; q++)
		free(c->qerr[q]);
	for (q = 0; q < AQ_COUNT; q++)
		free(c->aerr[q]);
	free(c->agent_error);
	free(c->error);
	free(c);
}

/* Stale: no complete QMP round in the last period. */
int
collector_stale(const struct vm_collector *c, double interval)
{
	return c->last_ok == 0 ||
	    ev_now(c->loop) - c->last_ok > interval + c->timeout;
}

const struct vm_snapshot *
collector_snapshot(const struct vm_collector *c)
{
	return &c->snap;
}

const struct exporter_vm_spec *
collector_spec(const struct vm_collector *c)
{
	return c->spec;
}

void
collector_failures(const struct vm_collector *c, uint64_t *control,
    uint64_t *data, uint64_t *abort_)
{
	*control = c->failures[0];
	*data = c->failures[1];
	*abort_ = c->failures[2];
}

const struct phase_hist *
collector_phase_hist(const struct vm_collector *c)
{
	return &c->phases;
}

/* Why QEMU's monitor is down, or NULL. */
const char *
collector_error(const struct vm_collector *c)
{
	return c->error;
}

/* Why the agent is down, or NULL. */
const char *
collector_agent_error(const struct vm_collector *c)
{
	return c->agent_error;
}

/* What QEMU or the agent answered command in the last round, or NULL. */
const char *
collector_part_error(const struct vm_collector *c, const char *command)
{
	int q;

	for (q = 0; q < CQ_COUNT; q++)
		if (strcmp(cq_table[q].cmd, command) == 0)
			return c->qerr[q];
	for (q = 0; q < AQ_COUNT; q++)
		if (strcmp(aq_cmd[q], command) == 0)
			return c->aerr[q];
	return NULL;
}
