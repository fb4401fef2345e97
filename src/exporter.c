/*
 * exporter.c: Prometheus metrics for the VMs of one node.
 *
 * One libev loop: per VM a persistent QMP connection (connected without
 * blocking, reconnected with exponential backoff), a refresh timer that
 * sends query-status, query-migrate, query-cpus-fast,
 * query-memory-size-summary, query-blockstats and query-dirty-rate at
 * once, each bounded by the per-VM timeout, a guest-agent probe on a short
 * connection of its own (qemu-ga serves one client at a time, so the
 * exporter does not keep it), and the VM's status file.  The HTTP side
 * renders the last snapshot of every VM: a scrape never waits for QEMU.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netdb.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "qmp.h"
#include "exporter.h"

#define CONTAINER_OF(ptr, type, field) \
	((type *)((char *)(ptr) - offsetof(type, field)))

#define BACKOFF_MIN	0.5
#define BACKOFF_MAX	30.0

enum vm_query {
	Q_STATUS, Q_MIGRATE, Q_CPUS, Q_MEMORY, Q_BLOCK, Q_DIRTY, Q_COUNT
};
static const char *vm_query_cmd[Q_COUNT] = {
	"query-status", "query-migrate", "query-cpus-fast",
	"query-memory-size-summary", "query-blockstats", "query-dirty-rate",
};

enum vm_state { VM_DOWN, VM_CONNECTING, VM_UP };

struct exporter;

struct vm_arg {
	struct vm	*vm;
	int		 q;
};

struct vm {
	struct exporter			*ex;
	const struct exporter_vm_spec	*spec;
	char				*label;	/* escaped name */

	enum vm_state	 state;
	struct qmp_conn	*qmp;
	struct qmp_conn	*dead[2];	/* closed from outside their callbacks */
	ev_timer	 reconnect;
	ev_timer	 reap;
	double		 backoff;
	char		*error;		/* why the last connect failed */
	struct vm_arg	 args[Q_COUNT];
	int		 pending;
	int		 round_failed;
	double		 last_ok;	/* monotonic end of a complete refresh */
	int		 settled;	/* --once: a refresh or failure is in */

	struct qmp_conn	*qga;
	int		 qga_inflight;
	int		 qga_up;
	int64_t		 qga_sync_id;

	/* The snapshot a scrape renders. */
	json_object	*migrate;	/* last query-migrate, owned */
	json_object	*blockstats;	/* last query-blockstats, owned */
	int		 ncpus;
	uint64_t	 memory;
	int		 have_dirty;
	double		 dirty_rate;	/* bytes/s, last calc-dirty-rate */
	char		 phase[32];	/* from the status file */
	char		 mode[32];
	char		 failed_uid[64];
	uint64_t	 failures_control;
	uint64_t	 failures_data;
};

struct client {
	struct exporter	*ex;
	struct client	*prev, *next;
	int		 fd;
	ev_io		 rio;
	ev_io		 wio;
	ev_timer	 timer;
	char		 in[EXPORTER_MAX_REQUEST];
	size_t		 inlen;
	char		*out;
	size_t		 outlen;
	size_t		 outoff;
};

struct exporter {
	struct ev_loop			*loop;
	const struct exporter_options	*o;
	struct vm			*vms;
	size_t				 nvms;
	int				 lfd;
	ev_io				 accept_io;
	ev_timer			 accept_pause;
	struct client			*clients;
	int				 nclients;
	ev_timer			 refresh;
	ev_timer			 once_deadline;
	ev_signal			 sigint;
	ev_signal			 sigterm;
	int				 textfile_failed;
	int				 stopping;	/* callbacks: hands off */
};

/* A growable text buffer for the exposition. */
struct buf {
	char	*p;
	size_t	 len;
	size_t	 cap;
};

static void __attribute__((format(printf, 2, 3)))
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list	ap;
	int	n;

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

int
exporter_vm_spec_parse(const char *arg, struct exporter_vm_spec *s,
    char **cause)
{
	const char	*eq = strchr(arg, '=');
	char		*rest, *tok, *save = NULL;

	memset(s, 0, sizeof *s);
	if (eq == NULL || eq == arg || eq[1] == '\0' || eq[1] == ',') {
		xasprintf(cause, "expected NAME=QMP_PATH[,qga=PATH]"
		    "[,status=FILE], got \"%s\"", arg);
		return -1;
	}
	s->name = xstrndup(arg, (size_t)(eq - arg));
	rest = xstrdup(eq + 1);
	for (tok = strtok_r(rest, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (s->qmp == NULL)
			s->qmp = xstrdup(tok);
		else if (strncmp(tok, "qga=", 4) == 0 && s->qga == NULL &&
		    tok[4] != '\0')
			s->qga = xstrdup(tok + 4);
		else if (strncmp(tok, "status=", 7) == 0 &&
		    s->status == NULL && tok[7] != '\0')
			s->status = xstrdup(tok + 7);
		else {
			xasprintf(cause, "%s: unexpected \"%s\" (expected "
			    "qga=PATH or status=FILE, once each)", s->name,
			    tok);
			free(rest);
			exporter_vm_spec_free(s);
			return -1;
		}
	}
	free(rest);
	return 0;
}

void
exporter_vm_spec_free(struct exporter_vm_spec *s)
{
	free(s->name);
	free(s->qmp);
	free(s->qga);
	free(s->status);
	memset(s, 0, sizeof *s);
}

/* A non-blocking unix-socket connect: at once or not at all. */
static int
unix_connect(const char *path, char **cause)
{
	struct sockaddr_un	sun;
	int			fd;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun.sun_path) {
		xasprintf(cause, "%s: socket path too long", path);
		return -1;
	}
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd == -1) {
		xasprintf(cause, "%s: socket: %s", path, strerror(errno));
		return -1;
	}
	while (connect(fd, (struct sockaddr *)&sun, sizeof sun) == -1) {
		if (errno == EINTR)
			continue;
		xasprintf(cause, "%s: connect: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static void	vm_connect(struct vm *);
static void	vm_refresh(struct vm *);
static void	exporter_check_once(struct exporter *);

/*
 * Hands conn to the reap timer: a connection is never freed from inside
 * one of its own callbacks.
 */
static void
vm_bury(struct vm *vm, struct qmp_conn *conn)
{
	if (vm->dead[0] == NULL)
		vm->dead[0] = conn;
	else if (vm->dead[1] == NULL)
		vm->dead[1] = conn;
	else
		fatalx("exporter: more than two connections to reap");
	ev_timer_stop(vm->ex->loop, &vm->reap);
	ev_timer_set(&vm->reap, 0, 0);
	ev_timer_start(vm->ex->loop, &vm->reap);
}

static void
vm_reap_cb(struct ev_loop *loop, ev_timer *t, int revents)
{
	struct vm	*vm = CONTAINER_OF(t, struct vm, reap);

	qmp_close(vm->dead[0]);
	qmp_close(vm->dead[1]);
	vm->dead[0] = vm->dead[1] = NULL;
}

/* The monitor is gone or useless: drop it and try again later. */
static void
vm_down(struct vm *vm, const char *why)
{
	if (vm->error == NULL || strcmp(vm->error, why) != 0)
		log_warnx("exporter: vm %s: %s (retrying in %.1f s)",
		    vm->spec->name, why, vm->backoff);
	free(vm->error);
	vm->error = xstrdup(why);
	if (vm->qmp != NULL) {
		vm_bury(vm, vm->qmp);
		vm->qmp = NULL;
	}
	vm->state = VM_DOWN;
	vm->settled = 1;
	ev_timer_stop(vm->ex->loop, &vm->reconnect);
	ev_timer_set(&vm->reconnect, vm->backoff, 0);
	ev_timer_start(vm->ex->loop, &vm->reconnect);
	vm->backoff *= 2;
	if (vm->backoff > BACKOFF_MAX)
		vm->backoff = BACKOFF_MAX;
	exporter_check_once(vm->ex);
}

static void
vm_reconnect_cb(struct ev_loop *loop, ev_timer *t, int revents)
{
	vm_connect(CONTAINER_OF(t, struct vm, reconnect));
}

static void
vm_closed_cb(struct qmp_conn *conn, const char *reason, void *arg)
{
	struct vm	*vm = arg;

	if (conn == vm->qmp)
		vm_down(vm, reason);
}

static void
vm_caps_cb(struct qmp_conn *conn, json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	struct vm	*vm = arg;
	char		*why;

	if (conn != vm->qmp)
		return;
	if (reply == NULL) {
		xasprintf(&why, "%s: qmp_capabilities: %s", vm->spec->qmp,
		    error);
		vm_down(vm, why);
		free(why);
		return;
	}
	if (vm->error != NULL)
		log_info("exporter: vm %s: connected", vm->spec->name);
	free(vm->error);
	vm->error = NULL;
	vm->state = VM_UP;
	vm->backoff = BACKOFF_MIN;
	vm_refresh(vm);
}

/* Starts a connection to the monitor without blocking the loop. */
static void
vm_connect(struct vm *vm)
{
	char	*cause = NULL;
	int	 fd;

	if (vm->state != VM_DOWN)
		return;
	if ((fd = unix_connect(vm->spec->qmp, &cause)) == -1) {
		vm_down(vm, cause);
		free(cause);
		return;
	}
	vm->qmp = qmp_attach_fd(vm->ex->loop, fd, QMP_PROTO_MONITOR,
	    vm->spec->qmp);
	qmp_set_close_cb(vm->qmp, vm_closed_cb, vm);
	vm->state = VM_CONNECTING;
	/* The greeting is recorded whenever it comes; this bounds it. */
	if (qmp_send(vm->qmp, "qmp_capabilities", NULL, vm->ex->o->vm_timeout,
	    vm_caps_cb, vm, &cause) != 0) {
		vm_down(vm, cause);
		free(cause);
	}
}

static void
vm_take(json_object **slot, json_object *reply)
{
	json_object_put(*slot);
	*slot = json_object_get(reply);
}

static void
vm_query_cb(struct qmp_conn *conn, json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	struct vm_arg	*a = arg;
	struct vm	*vm = a->vm;

	vm->pending--;
	if (vm->ex->stopping)
		return;
	if (reply == NULL) {
		/* query-dirty-rate is optional; anything else a gap. */
		if (a->q != Q_DIRTY) {
			vm->round_failed = 1;
			log_debug("exporter: vm %s: %s: %s", vm->spec->name,
			    vm_query_cmd[a->q], error);
		}
	} else {
		switch (a->q) {
		case Q_STATUS:
			break;
		case Q_MIGRATE:
			vm_take(&vm->migrate, reply);
			break;
		case Q_CPUS:
			vm->ncpus = json_object_is_type(reply,
			    json_type_array) ?
			    (int)json_object_array_length(reply) : 0;
			break;
		case Q_MEMORY:
			vm->memory = json_u64_at(reply, "base-memory") +
			    json_u64_at(reply, "plugged-memory");
			break;
		case Q_BLOCK:
			vm_take(&vm->blockstats, reply);
			break;
		case Q_DIRTY:
			if (json_str_at(reply, "status") != NULL &&
			    strcmp(json_str_at(reply, "status"), "measured") == 0) {
				vm->have_dirty = 1;
				vm->dirty_rate = json_double_at(reply,
				    "dirty-rate") * 1024 * 1024;
			}
			break;
		}
	}
	if (vm->pending == 0) {
		if (!vm->round_failed)
			vm->last_ok = ev_now(vm->ex->loop);
		vm->settled = 1;
		exporter_check_once(vm->ex);
	}
}

/* Reads the status file of a qmigrate migrate/incoming, if any. */
static void
vm_read_status(struct vm *vm)
{
	json_object	*doc;
	const char	*phase, *mode, *uid, *plane;
	char		*cause = NULL;

	if (vm->spec->status == NULL)
		return;
	if ((doc = status_read_file(vm->spec->status, &cause)) == NULL) {
		/* No migration yet is the usual case: not worth a warning. */
		log_debug("exporter: vm %s: %s", vm->spec->name, cause);
		free(cause);
		vm->phase[0] = vm->mode[0] = '\0';
		return;
	}
	phase = json_str_at(doc, "phase");
	mode = json_str_at(doc, "mode");
	snprintf(vm->phase, sizeof vm->phase, "%s", phase ? phase : "");
	snprintf(vm->mode, sizeof vm->mode, "%s", mode ? mode : "");
	uid = json_str_at(doc, "migrationUid");
	plane = json_str_at(doc, "failurePlane");
	/* Each failed migration counts once, by its uid. */
	if (phase != NULL && strcmp(phase, "Failed") == 0 && uid != NULL &&
	    plane != NULL && strcmp(uid, vm->failed_uid) != 0) {
		snprintf(vm->failed_uid, sizeof vm->failed_uid, "%s", uid);
		if (strcmp(plane, "control") == 0)
			vm->failures_control++;
		else if (strcmp(plane, "data") == 0)
			vm->failures_data++;
	}
	json_object_put(doc);
}

static void
vm_qga_cb(struct qmp_conn *conn, json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	struct vm	*vm = arg;

	if (vm->ex->stopping)
		return;
	vm->qga_up = reply != NULL && json_object_is_type(reply,
	    json_type_int) && json_object_get_int64(reply) == vm->qga_sync_id;
	if (!vm->qga_up)
		log_debug("exporter: vm %s: guest agent: %s", vm->spec->name,
		    error != NULL ? error : "wrong guest-sync answer");
	vm->qga_inflight = 0;
	vm_bury(vm, conn);
	vm->qga = NULL;
	exporter_check_once(vm->ex);
}

/*
 * Probes the agent with guest-sync on a connection of its own: an agent
 * that answers with our id is up.
 */
static void
vm_probe_agent(struct vm *vm)
{
	json_object	*args;
	char		*cause = NULL;
	int		 fd;

	if (vm->spec->qga == NULL || vm->qga_inflight)
		return;
	if ((fd = unix_connect(vm->spec->qga, &cause)) == -1) {
		log_debug("exporter: vm %s: %s", vm->spec->name, cause);
		free(cause);
		vm->qga_up = 0;
		return;
	}
	vm->qga = qmp_attach_fd(vm->ex->loop, fd, QMP_PROTO_AGENT,
	    vm->spec->qga);
	vm->qga_sync_id = (int64_t)(random() & 0x7fffffff);
	args = json_object_new_object();
	json_object_object_add(args, "id",
	    json_object_new_int64(vm->qga_sync_id));
	if (qmp_send(vm->qga, "guest-sync", args, vm->ex->o->vm_timeout,
	    vm_qga_cb, vm, &cause) != 0) {
		free(cause);
		vm->qga_up = 0;
		vm_bury(vm, vm->qga);
		vm->qga = NULL;
		return;
	}
	vm->qga_inflight = 1;
}

/* One refresh: every query at once, unless the last is still out. */
static void
vm_refresh(struct vm *vm)
{
	char	*cause = NULL;
	int	 q;

	vm_read_status(vm);
	vm_probe_agent(vm);
	if (vm->state != VM_UP || vm->pending > 0)
		return;
	vm->round_failed = 0;
	for (q = 0; q < Q_COUNT; q++) {
		vm->args[q].vm = vm;
		vm->args[q].q = q;
		if (qmp_send(vm->qmp, vm_query_cmd[q], NULL,
		    vm->ex->o->vm_timeout, vm_query_cb, &vm->args[q],
		    &cause) != 0) {
			vm->round_failed = 1;
			log_debug("exporter: vm %s: %s", vm->spec->name,
			    cause);
			free(cause);
			cause = NULL;
			continue;
		}
		vm->pending++;
	}
}

/* A VM is stale when no complete refresh came in the last period. */
static int
vm_stale(const struct vm *vm, double now, const struct exporter_options *o)
{
	return vm->last_ok == 0 ||
	    now - vm->last_ok > o->interval + o->vm_timeout;
}

/* --- rendering ------------------------------------------------------ */

static void
family(struct buf *b, const char *name, const char *type, const char *help)
{
	buf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static const char *mig_phases[] = {
	"Pending", "PreparingTarget", "TargetReady", "Running", "Succeeded",
	"Failed", "HandedOver",
};
static const char *mig_modes[] = { "PreCopy", "PostCopy", "Paused" };

/* The phase: the status file's, else what QEMU's status implies. */
static const char *
vm_phase(const struct vm *vm)
{
	const char *s;

	if (vm->phase[0] != '\0')
		return vm->phase;
	if ((s = json_str_at(vm->migrate, "status")) == NULL ||
	    strcmp(s, "none") == 0)
		return NULL;
	if (strcmp(s, "completed") == 0)
		return "Succeeded";
	if (strcmp(s, "failed") == 0 || strcmp(s, "cancelled") == 0)
		return "Failed";
	return "Running";
}

static const char *
vm_mode(const struct vm *vm)
{
	const char *s;

	if (vm->mode[0] != '\0')
		return vm->mode;
	if ((s = json_str_at(vm->migrate, "status")) == NULL ||
	    strcmp(s, "none") == 0)
		return NULL;
	if (strncmp(s, "postcopy", 8) == 0)
		return "PostCopy";
	return "PreCopy";
}

/* Migration gauges taken from query-migrate's "ram" and top level. */
static const struct {
	const char	*name;
	const char	*help;
	int		 in_ram;
	const char	*key;
	double		 scale;
} mig_gauges[] = {
	{ "qmigrate_migration_data_remaining_bytes",
	    "Bytes of guest RAM left to send in this pass.", 1, "remaining",
	    1 },
	{ "qmigrate_migration_data_transferred_bytes",
	    "Bytes sent so far by the migration.", 1, "transferred", 1 },
	{ "qmigrate_migration_data_total_bytes",
	    "Bytes of guest RAM the migration moves.", 1, "total", 1 },
	{ "qmigrate_migration_bandwidth_bytes_per_second",
	    "Throughput of the migration stream.", 1, "mbps", 1e6 / 8 },
	{ "qmigrate_migration_iteration",
	    "Dirty-bitmap syncs so far (pre-copy passes).", 1,
	    "dirty-sync-count", 1 },
	{ "qmigrate_migration_expected_downtime_seconds",
	    "QEMU's estimate of the downtime if it stopped the guest now.", 0,
	    "expected-downtime", 1e-3 },
	{ "qmigrate_migration_throttle_ratio",
	    "CPU throttle auto-converge applies to the guest (0 to 1).", 0,
	    "cpu-throttle-percentage", 1e-2 },
};

static void
render(struct exporter *ex, struct buf *b)
{
	const struct exporter_options	*o = ex->o;
	double				 now = ev_now(ex->loop), v;
	json_object			*ram, *e, *stats;
	const char			*s, *dev;
	char				*d;
	size_t				 i, j, k;
	struct vm			*vm;

	family(b, "qmigrate_vm_up", "gauge",
	    "1 when the exporter's QMP connection to the VM is up.");
	for (i = 0; i < ex->nvms; i++)
		buf_printf(b, "qmigrate_vm_up{vm=\"%s\"} %d\n",
		    ex->vms[i].label, ex->vms[i].state == VM_UP);
	family(b, "qmigrate_scrape_stale", "gauge",
	    "1 when the VM's last refresh did not answer in time: its values "
	    "are old.");
	for (i = 0; i < ex->nvms; i++)
		buf_printf(b, "qmigrate_scrape_stale{vm=\"%s\"} %d\n",
		    ex->vms[i].label, vm_stale(&ex->vms[i], now, o));
	family(b, "qmigrate_guest_agent_up", "gauge",
	    "1 when the VM's guest agent answered guest-sync.");
	for (i = 0; i < ex->nvms; i++)
		if (ex->vms[i].spec->qga != NULL)
			buf_printf(b, "qmigrate_guest_agent_up{vm=\"%s\"} %d\n",
			    ex->vms[i].label, ex->vms[i].qga_up);
	family(b, "qmigrate_vcpus", "gauge", "vCPUs of the VM.");
	for (i = 0; i < ex->nvms; i++)
		if (ex->vms[i].last_ok != 0)
			buf_printf(b, "qmigrate_vcpus{vm=\"%s\"} %d\n",
			    ex->vms[i].label, ex->vms[i].ncpus);
	family(b, "qmigrate_memory_bytes", "gauge",
	    "Guest RAM (base and hot-plugged).");
	for (i = 0; i < ex->nvms; i++)
		if (ex->vms[i].last_ok != 0)
			buf_printf(b, "qmigrate_memory_bytes{vm=\"%s\"} %"
			    PRIu64 "\n", ex->vms[i].label, ex->vms[i].memory);
	family(b, "qmigrate_dirty_rate_bytes_per_second", "gauge",
	    "The last calc-dirty-rate measurement of the VM.");
	for (i = 0; i < ex->nvms; i++)
		if (ex->vms[i].have_dirty)
			buf_printf(b, "qmigrate_dirty_rate_bytes_per_second"
			    "{vm=\"%s\"} %.0f\n", ex->vms[i].label,
			    ex->vms[i].dirty_rate);

	for (k = 0; k < sizeof mig_gauges / sizeof mig_gauges[0]; k++) {
		family(b, mig_gauges[k].name, "gauge", mig_gauges[k].help);
		for (i = 0; i < ex->nvms; i++) {
			vm = &ex->vms[i];
			ram = NULL;
			if (vm->migrate == NULL ||
			    !json_object_object_get_ex(vm->migrate, "ram",
			    &ram))
				continue;
			e = mig_gauges[k].in_ram ? ram : vm->migrate;
			if (!json_object_object_get_ex(e, mig_gauges[k].key,
			    NULL))
				continue;
			v = json_double_at(e, mig_gauges[k].key) *
			    mig_gauges[k].scale;
			buf_printf(b, "%s{vm=\"%s\"} %.17g\n",
			    mig_gauges[k].name, vm->label, v);
		}
	}
	family(b, "qmigrate_migration_dirty_rate_bytes_per_second", "gauge",
	    "How fast the guest dirties memory during the migration.");
	for (i = 0; i < ex->nvms; i++) {
		vm = &ex->vms[i];
		if (vm->migrate == NULL ||
		    !json_object_object_get_ex(vm->migrate, "ram", &ram))
			continue;
		v = (double)json_u64_at(ram, "dirty-pages-rate") *
		    (double)(json_u64_at(ram, "page-size") ? json_u64_at(ram,
		    "page-size") : 4096);
		buf_printf(b, "qmigrate_migration_dirty_rate_bytes_per_second"
		    "{vm=\"%s\"} %.0f\n", vm->label, v);
	}
	family(b, "qmigrate_migration_postcopy_requests_total", "counter",
	    "Pages the destination asked for during post-copy.");
	for (i = 0; i < ex->nvms; i++) {
		vm = &ex->vms[i];
		if (vm->migrate == NULL ||
		    !json_object_object_get_ex(vm->migrate, "ram", &ram))
			continue;
		buf_printf(b, "qmigrate_migration_postcopy_requests_total"
		    "{vm=\"%s\"} %" PRIu64 "\n", vm->label,
		    json_u64_at(ram, "postcopy-requests"));
	}
	family(b, "qmigrate_migration_phase", "gauge",
	    "The migration's phase (a state set: 1 for the current one).");
	for (i = 0; i < ex->nvms; i++) {
		if ((s = vm_phase(&ex->vms[i])) == NULL)
			continue;
		for (j = 0; j < sizeof mig_phases / sizeof mig_phases[0]; j++)
			buf_printf(b, "qmigrate_migration_phase{vm=\"%s\","
			    "phase=\"%s\"} %d\n", ex->vms[i].label,
			    mig_phases[j], strcmp(s, mig_phases[j]) == 0);
	}
	family(b, "qmigrate_migration_mode", "gauge",
	    "The migration's mode (a state set: 1 for the current one).");
	for (i = 0; i < ex->nvms; i++) {
		if ((s = vm_mode(&ex->vms[i])) == NULL)
			continue;
		for (j = 0; j < sizeof mig_modes / sizeof mig_modes[0]; j++)
			buf_printf(b, "qmigrate_migration_mode{vm=\"%s\","
			    "mode=\"%s\"} %d\n", ex->vms[i].label,
			    mig_modes[j], strcmp(s, mig_modes[j]) == 0);
	}
	family(b, "qmigrate_migration_failures_total", "counter",
	    "Failed migrations seen in the VM's status file, by the plane "
	    "that failed.");
	for (i = 0; i < ex->nvms; i++) {
		vm = &ex->vms[i];
		if (vm->spec->status == NULL)
			continue;
		buf_printf(b, "qmigrate_migration_failures_total{vm=\"%s\","
		    "plane=\"control\"} %" PRIu64 "\n", vm->label,
		    vm->failures_control);
		buf_printf(b, "qmigrate_migration_failures_total{vm=\"%s\","
		    "plane=\"data\"} %" PRIu64 "\n", vm->label,
		    vm->failures_data);
	}

	static const struct {
		const char *name, *key, *help;
	} block[] = {
		{ "qmigrate_block_read_bytes_total", "rd_bytes",
		    "Bytes read by the guest from the block device." },
		{ "qmigrate_block_written_bytes_total", "wr_bytes",
		    "Bytes written by the guest to the block device." },
		{ "qmigrate_block_read_operations_total", "rd_operations",
		    "Read requests of the guest on the block device." },
		{ "qmigrate_block_write_operations_total", "wr_operations",
		    "Write requests of the guest on the block device." },
	};
	for (k = 0; k < sizeof block / sizeof block[0]; k++) {
		family(b, block[k].name, "counter", block[k].help);
		for (i = 0; i < ex->nvms; i++) {
			vm = &ex->vms[i];
			if (vm->blockstats == NULL ||
			    !json_object_is_type(vm->blockstats,
			    json_type_array))
				continue;
			for (j = 0; j < json_object_array_length(
			    vm->blockstats); j++) {
				e = json_object_array_get_idx(vm->blockstats,
				    j);
				dev = json_str_at(e, "device");
				if (dev == NULL || *dev == '\0')
					dev = json_str_at(e, "qdev");
				if (dev == NULL || *dev == '\0')
					dev = json_str_at(e, "node-name");
				if (dev == NULL ||
				    !json_object_object_get_ex(e, "stats",
				    &stats))
					continue;
				d = prom_escape_label(dev);
				buf_printf(b, "%s{vm=\"%s\",device=\"%s\"} %"
				    PRIu64 "\n", block[k].name, vm->label, d,
				    json_u64_at(stats, block[k].key));
				free(d);
			}
		}
	}
}

/* --- textfile ------------------------------------------------------- */

static int
exporter_write_textfile(struct exporter *ex)
{
	struct buf	 b = { NULL, 0, 0 };
	char		*path, *cause = NULL;
	int		 rc = 0;

	render(ex, &b);
	xasprintf(&path, "%s/qmigrate.prom", ex->o->textfile_dir);
	if (write_file_atomic(path, b.p, b.len, &cause) != 0) {
		if (!ex->textfile_failed)
			log_warnx("exporter: textfile %s", cause);
		ex->textfile_failed = 1;
		free(cause);
		rc = -1;
	} else
		ex->textfile_failed = 0;
	free(path);
	free(b.p);
	return rc;
}

/* --- HTTP ----------------------------------------------------------- */

static void	exporter_accept_resume(struct exporter *);

static void
client_close(struct client *c)
{
	struct exporter *ex = c->ex;

	ev_io_stop(ex->loop, &c->rio);
	ev_io_stop(ex->loop, &c->wio);
	ev_timer_stop(ex->loop, &c->timer);
	close(c->fd);
	if (c->prev != NULL)
		c->prev->next = c->next;
	else
		ex->clients = c->next;
	if (c->next != NULL)
		c->next->prev = c->prev;
	free(c->out);
	free(c);
	if (ex->nclients-- == EXPORTER_MAX_CLIENTS)
		exporter_accept_resume(ex);
}

static void
client_respond(struct client *c, const char *status, const char *extra,
    const char *ctype, const char *body, size_t len)
{
	struct buf b = { NULL, 0, 0 };

	buf_printf(&b, "HTTP/1.1 %s\r\nContent-Type: %s\r\n"
	    "Content-Length: %zu\r\nConnection: close\r\n%s\r\n", status,
	    ctype, len, extra);
	if (len > 0) {
		while (b.cap - b.len < len + 1) {
			b.cap *= 2;
			b.p = xrealloc(b.p, b.cap);
		}
		memcpy(b.p + b.len, body, len);
		b.len += len;
	}
	c->out = b.p;
	c->outlen = b.len;
	c->outoff = 0;
	ev_io_stop(c->ex->loop, &c->rio);
	ev_io_start(c->ex->loop, &c->wio);
}

static void
client_error(struct client *c, const char *status, const char *extra)
{
	char *body;

	xasprintf(&body, "%s\n", status);
	client_respond(c, status, extra, "text/plain; charset=utf-8", body,
	    strlen(body));
	free(body);
}

/* A complete request head is in c->in: answer it. */
static void
client_request(struct client *c)
{
	char		*sp1, *sp2, *eol, *q;
	struct buf	 b = { NULL, 0, 0 };

	c->in[c->inlen] = '\0';
	eol = strpbrk(c->in, "\r\n");
	*eol = '\0';
	if ((sp1 = strchr(c->in, ' ')) == NULL ||
	    (sp2 = strchr(sp1 + 1, ' ')) == NULL ||
	    strncmp(sp2 + 1, "HTTP/1.", 7) != 0) {
		client_error(c, "400 Bad Request", "");
		return;
	}
	*sp1 = *sp2 = '\0';
	if ((q = strchr(sp1 + 1, '?')) != NULL)
		*q = '\0';
	if (strcmp(sp1 + 1, "/metrics") != 0) {
		client_error(c, "404 Not Found", "");
		return;
	}
	if (strcmp(c->in, "GET") != 0) {
		client_error(c, "405 Method Not Allowed", "Allow: GET\r\n");
		return;
	}
	render(c->ex, &b);
	client_respond(c, "200 OK", "",
	    "text/plain; version=0.0.4; charset=utf-8", b.p, b.len);
	free(b.p);
}

static void
client_read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct client	*c = CONTAINER_OF(w, struct client, rio);
	ssize_t		 n;

	n = read(c->fd, c->in + c->inlen, sizeof c->in - 1 - c->inlen);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		client_close(c);
		return;
	}
	c->inlen += (size_t)n;
	c->in[c->inlen] = '\0';
	if (strstr(c->in, "\r\n\r\n") != NULL ||
	    strstr(c->in, "\n\n") != NULL) {
		client_request(c);
		return;
	}
	if (c->inlen == sizeof c->in - 1)
		client_error(c, "431 Request Header Fields Too Large", "");
}

static void
client_write_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct client	*c = CONTAINER_OF(w, struct client, wio);
	ssize_t		 n;

	n = send(c->fd, c->out + c->outoff, c->outlen - c->outoff,
	    MSG_NOSIGNAL);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		client_close(c);
		return;
	}
	c->outoff += (size_t)n;
	if (c->outoff == c->outlen) {
		shutdown(c->fd, SHUT_WR);
		client_close(c);
	}
}

static void
client_timeout_cb(struct ev_loop *loop, ev_timer *t, int revents)
{
	client_close(CONTAINER_OF(t, struct client, timer));
}

static void
exporter_accept_resume(struct exporter *ex)
{
	if (ex->lfd != -1 && !ev_is_active(&ex->accept_pause))
		ev_io_start(ex->loop, &ex->accept_io);
}

static void
accept_pause_cb(struct ev_loop *loop, ev_timer *t, int revents)
{
	struct exporter *ex = CONTAINER_OF(t, struct exporter, accept_pause);

	if (ex->nclients < EXPORTER_MAX_CLIENTS)
		ev_io_start(loop, &ex->accept_io);
}

static void
accept_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct exporter	*ex = CONTAINER_OF(w, struct exporter, accept_io);
	struct client	*c;
	int		 fd;

	fd = accept4(ex->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd == -1) {
		if (errno == EMFILE || errno == ENFILE) {
			/* Out of descriptors: wait for some to close. */
			log_warn("exporter: accept");
			ev_io_stop(loop, &ex->accept_io);
			ev_timer_set(&ex->accept_pause, 1, 0);
			ev_timer_start(loop, &ex->accept_pause);
		}
		return;
	}
	c = xcalloc(1, sizeof *c);
	c->ex = ex;
	c->fd = fd;
	ev_io_init(&c->rio, client_read_cb, fd, EV_READ);
	ev_io_init(&c->wio, client_write_cb, fd, EV_WRITE);
	ev_timer_init(&c->timer, client_timeout_cb, EXPORTER_REQUEST_TIMEOUT,
	    0);
	ev_io_start(loop, &c->rio);
	ev_timer_start(loop, &c->timer);
	c->next = ex->clients;
	if (c->next != NULL)
		c->next->prev = c;
	ex->clients = c;
	if (++ex->nclients == EXPORTER_MAX_CLIENTS)
		ev_io_stop(loop, &ex->accept_io);
}

/* Listens on ADDR:PORT ([v6addr]:PORT too); returns the fd or -1. */
static int
exporter_listen(const char *spec, char **cause)
{
	struct addrinfo	 hints, *res, *ai;
	struct sockaddr_storage ss;
	socklen_t	 sslen = sizeof ss;
	char		*host, *port, hbuf[NI_MAXHOST], pbuf[NI_MAXSERV];
	int		 fd = -1, one = 1, e;

	host = xstrdup(spec);
	if ((port = strrchr(host, ':')) == NULL || port[1] == '\0') {
		xasprintf(cause, "--listen: expected ADDR:PORT, got \"%s\"",
		    spec);
		free(host);
		return -1;
	}
	*port++ = '\0';
	if (host[0] == '[' && host[strlen(host) - 1] == ']') {
		host[strlen(host) - 1] = '\0';
		memmove(host, host + 1, strlen(host));
	}
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	if ((e = getaddrinfo(*host ? host : NULL, port, &hints, &res)) != 0) {
		xasprintf(cause, "--listen %s: %s", spec, gai_strerror(e));
		free(host);
		return -1;
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, 0);
		if (fd == -1)
			continue;
		(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one,
		    sizeof one);
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
		    listen(fd, 128) == 0)
			break;
		e = errno;
		close(fd);
		fd = -1;
		errno = e;
	}
	if (fd == -1)
		xasprintf(cause, "--listen %s: %s", spec, strerror(errno));
	else if (getsockname(fd, (struct sockaddr *)&ss, &sslen) == 0 &&
	    getnameinfo((struct sockaddr *)&ss, sslen, hbuf, sizeof hbuf,
	    pbuf, sizeof pbuf, NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
		/* Port 0 picks one: tell the caller which. */
		fprintf(stderr, "qmigrate exporter: listening on %s%s%s:%s\n",
		    strchr(hbuf, ':') ? "[" : "", hbuf,
		    strchr(hbuf, ':') ? "]" : "", pbuf);
		fflush(stderr);
	}
	freeaddrinfo(res);
	free(host);
	return fd;
}

/* --- the loop ------------------------------------------------------- */

static void
refresh_cb(struct ev_loop *loop, ev_timer *t, int revents)
{
	struct exporter	*ex = CONTAINER_OF(t, struct exporter, refresh);
	size_t		 i;

	for (i = 0; i < ex->nvms; i++)
		vm_refresh(&ex->vms[i]);
	if (ex->o->textfile_dir != NULL)
		(void)exporter_write_textfile(ex);
}

/* --once: stops the loop when every VM has answered or given up. */
static void
exporter_check_once(struct exporter *ex)
{
	size_t i;

	if (!ex->o->once)
		return;
	for (i = 0; i < ex->nvms; i++)
		if (!ex->vms[i].settled || ex->vms[i].qga_inflight)
			return;
	ev_break(ex->loop, EVBREAK_ALL);
}

static void
once_deadline_cb(struct ev_loop *loop, ev_timer *t, int revents)
{
	ev_break(loop, EVBREAK_ALL);
}

static void
signal_cb(struct ev_loop *loop, ev_signal *s, int revents)
{
	log_info("exporter: signal %d: exiting", s->signum);
	ev_break(loop, EVBREAK_ALL);
}

/*
 * Runs the exporter until SIGINT/SIGTERM (or one refresh with --once).
 * Returns the exit status.
 */
int
exporter_run(const struct exporter_options *o)
{
	struct exporter	 ex;
	struct vm	*vm;
	struct buf	 b = { NULL, 0, 0 };
	char		*cause = NULL;
	size_t		 i;
	int		 rc = QM_EXIT_OK;

	memset(&ex, 0, sizeof ex);
	ex.o = o;
	ex.lfd = -1;
	ex.loop = ev_loop_new(EVFLAG_AUTO);
	if (ex.loop == NULL)
		fatalx("cannot create an event loop");
	signal(SIGPIPE, SIG_IGN);
	srandom((unsigned)getpid() ^ (unsigned)ev_time());

	if (o->listen != NULL) {
		if ((ex.lfd = exporter_listen(o->listen, &cause)) == -1) {
			fprintf(stderr, "qmigrate exporter: %s\n", cause);
			free(cause);
			ev_loop_destroy(ex.loop);
			return QM_EXIT_CONTROL;
		}
		ev_io_init(&ex.accept_io, accept_cb, ex.lfd, EV_READ);
		ev_io_start(ex.loop, &ex.accept_io);
		ev_timer_init(&ex.accept_pause, accept_pause_cb, 1, 0);
	}

	ex.nvms = o->nvms;
	ex.vms = xcalloc(ex.nvms, sizeof *ex.vms);
	for (i = 0; i < ex.nvms; i++) {
		vm = &ex.vms[i];
		vm->ex = &ex;
		vm->spec = &o->vms[i];
		vm->label = prom_escape_label(vm->spec->name);
		vm->backoff = BACKOFF_MIN;
		ev_timer_init(&vm->reconnect, vm_reconnect_cb, 0, 0);
		ev_timer_init(&vm->reap, vm_reap_cb, 0, 0);
		vm_read_status(vm);
		vm_probe_agent(vm);
		vm_connect(vm);
	}
	ev_timer_init(&ex.refresh, refresh_cb, o->interval, o->interval);
	ev_signal_init(&ex.sigint, signal_cb, SIGINT);
	ev_signal_init(&ex.sigterm, signal_cb, SIGTERM);
	ev_signal_start(ex.loop, &ex.sigint);
	ev_signal_start(ex.loop, &ex.sigterm);
	if (o->once) {
		ev_timer_init(&ex.once_deadline, once_deadline_cb,
		    o->vm_timeout + 1, 0);
		ev_timer_start(ex.loop, &ex.once_deadline);
		exporter_check_once(&ex);
	} else
		ev_timer_start(ex.loop, &ex.refresh);
	ev_run(ex.loop, 0);

	if (o->once) {
		if (o->textfile_dir != NULL) {
			if (exporter_write_textfile(&ex) != 0)
				rc = QM_EXIT_CONTROL;
		} else {
			render(&ex, &b);
			fwrite(b.p, 1, b.len, stdout);
			fflush(stdout);
			free(b.p);
		}
	}

	ex.stopping = 1;
	while (ex.clients != NULL)
		client_close(ex.clients);
	if (ex.lfd != -1) {
		ev_io_stop(ex.loop, &ex.accept_io);
		ev_timer_stop(ex.loop, &ex.accept_pause);
		close(ex.lfd);
	}
	for (i = 0; i < ex.nvms; i++) {
		vm = &ex.vms[i];
		ev_timer_stop(ex.loop, &vm->reconnect);
		ev_timer_stop(ex.loop, &vm->reap);
		qmp_close(vm->dead[0]);
		qmp_close(vm->dead[1]);
		vm->dead[0] = vm->dead[1] = NULL;
		qmp_close(vm->qga);
		vm->qga = NULL;
		/* Pending callbacks run now and must find no connection. */
		vm->state = VM_DOWN;
		if (vm->qmp != NULL) {
			struct qmp_conn *conn = vm->qmp;

			vm->qmp = NULL;
			qmp_close(conn);
		}
		json_object_put(vm->migrate);
		json_object_put(vm->blockstats);
		free(vm->label);
		free(vm->error);
	}
	free(ex.vms);
	ev_timer_stop(ex.loop, &ex.refresh);
	ev_timer_stop(ex.loop, &ex.once_deadline);
	ev_signal_stop(ex.loop, &ex.sigint);
	ev_signal_stop(ex.loop, &ex.sigterm);
	ev_loop_destroy(ex.loop);
	return rc;
}
