/*
 * preflight.c: can this guest move live, and if not, every reason why.
 * Asks the running QEMU over QMP (migration blockers, the QOM tree and its
 * hot-plugged devices, SEV, the network backends, block jobs, the CPUs,
 * the accelerator, the block devices) and answers with KubeVirt's two
 * conditions,
 * LiveMigratable and StorageLiveMigratable, with KubeVirt's reason names.
 * Unlike KubeVirt it lists every reason found, not only the first.
 * KubeVirt's DecentralizedNotLiveMigratable is not among them: its
 * synchronization controller sets it for a migration between two
 * clusters, and nothing in QEMU shows it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "preflight.h"
#include "qmp.h"
#include "mig-disks.h"
#include "world.h"

#define PF_TIMEOUT		10.0	/* seconds per QMP command */
#define PF_BUDGET		60.0	/* seconds for the whole pre-flight */
#define PF_QOM_MAX_DEPTH	8	/* QOM paths deeper than this are not read */
#define PF_QOM_MAX_NODES	2000	/* qom-list calls, at most */
#define PF_MAX_REASONS		64	/* reasons kept (the rest are counted) */

/*
 * Why the pre-flight ends before its answer: a stop asked for (a signal,
 * the deadline), or a monitor that does not answer (a command timed out,
 * the connection gone, the whole budget spent).  Once set, no command is
 * sent any more: every question fails at once.
 */
enum pf_halt { PF_GOING, PF_STOPPED, PF_NO_ANSWER };

struct pf {
	struct ev_loop			*loop;
	struct qmp_conn			*qmp;
	const struct mig_settings	*settings;
	const int			*stop;		/* may be NULL */
	double				 budget_end;	/* now_monotonic() */
	enum pf_halt			 halt;
	char				*halt_cause;
	json_object			*live;		/* array of reasons */
	json_object			*storage;	/* array of reasons */
	json_object			*warnings;	/* array of reasons */
	size_t				 dropped;
};

static void pf_add(struct pf *, json_object *, const char *reason,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Appends {"reason", "message"} to list. */
static void
pf_add(struct pf *pf, json_object *list, const char *reason,
    const char *fmt, ...)
{
	json_object	*r;
	va_list		 ap;
	char		*msg;

	if (json_object_array_length(list) >= PF_MAX_REASONS) {
		pf->dropped++;
		return;
	}
	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	r = json_object_new_object();
	json_object_object_add(r, "reason", json_object_new_string(reason));
	json_object_object_add(r, "message", json_object_new_string(msg));
	json_object_array_add(list, r);
	free(msg);
}

/* One command's answer; freed by whoever sees it last. */
struct pf_call_state {
	int		 done;
	int		 orphan;	/* the pre-flight stopped waiting */
	json_object	*reply;
	char		*error_class;
	char		*error;
};

static void
pf_call_cb(struct qmp_conn *conn, json_object *reply, const char *error_class,
    const char *error, void *arg)
{
	struct pf_call_state *cs = arg;

	(void)conn;
	if (cs->orphan) {
		free(cs);
		return;
	}
	cs->done = 1;
	if (reply != NULL)
		cs->reply = json_object_get(reply);
	else {
		cs->error_class = xstrdup(error_class);
		cs->error = xstrdup(error);
	}
}

static int
pf_stopped(const struct pf *pf)
{
	return pf->stop != NULL && *pf->stop;
}

/* Ends the pre-flight (the first reason stays). */
static void
pf_halt(struct pf *pf, enum pf_halt why, const char *cause)
{
	if (pf->halt != PF_GOING)
		return;
	pf->halt = why;
	pf->halt_cause = xstrdup(cause);
}

/*
 * qmp_call() for the pre-flight: the command (args stolen) waits on the
 * loop for its answer, but no longer than PF_TIMEOUT, the budget's end or
 * a stop.  Returns 0 with *reply (the caller puts it; NULL: dropped), or
 * -1 with *cause: QEMU's refusal, or the pre-flight halted (pf->halt: a
 * command that got no answer ends the pre-flight, since QEMU that does
 * not answer one question within 10 s answers none).  A command left
 * waiting by a stop frees its own state when it ends (its answer, its
 * timer or the connection's close).
 */
static int
pf_call(struct pf *pf, const char *command, json_object *args,
    json_object **reply, char **cause)
{
	struct pf_call_state	*cs;
	double			 left;
	char			*err = NULL;

	if (reply != NULL)
		*reply = NULL;
	if (pf->halt == PF_GOING && pf_stopped(pf))
		pf_halt(pf, PF_STOPPED, "stopped");
	left = pf->budget_end - now_monotonic();
	if (pf->halt == PF_GOING && left <= 0)
		pf_halt(pf, PF_NO_ANSWER, "no answer within its budget");
	if (pf->halt != PF_GOING) {
		json_object_put(args);
		xasprintf(cause, "%s: %s", command, pf->halt_cause);
		return -1;
	}
	cs = xcalloc(1, sizeof *cs);
	if (qmp_send(pf->qmp, command, args, left < PF_TIMEOUT ? left :
	    PF_TIMEOUT, pf_call_cb, cs, &err) != 0) {
		free(cs);
		xasprintf(cause, "%s: %s", command, err);
		pf_halt(pf, PF_NO_ANSWER, err);
		free(err);
		return -1;
	}
	while (!cs->done && !pf_stopped(pf))
		world->loop_turn(pf->loop);
	if (!cs->done) {
		cs->orphan = 1;
		pf_halt(pf, PF_STOPPED, "stopped");
		xasprintf(cause, "%s: stopped", command);
		return -1;
	}
	if (cs->error != NULL) {
		xasprintf(cause, "%s: %s", command, cs->error);
		if (strcmp(cs->error_class, "Timeout") == 0 ||
		    strcmp(cs->error_class, "Closed") == 0)
			pf_halt(pf, PF_NO_ANSWER, *cause);
		free(cs->error);
		free(cs->error_class);
		free(cs);
		return -1;
	}
	if (reply != NULL)
		*reply = cs->reply;
	else
		json_object_put(cs->reply);
	free(cs);
	return 0;
}

/* QEMU's own blockers.  Returns -1 (QMP failure, *cause set) or 0. */
static int
pf_blockers(struct pf *pf, char **cause)
{
	json_object	*reply = NULL, *blocked;
	size_t		 i;

	if (pf_call(pf, "query-migrate", NULL, &reply, cause) != 0)
		return -1;
	if (json_object_object_get_ex(reply, "blocked-reasons", &blocked) &&
	    json_object_is_type(blocked, json_type_array)) {
		for (i = 0; i < json_object_array_length(blocked); i++)
			pf_add(pf, pf->live, "MigrationBlocked", "%s",
			    json_object_get_string(
			    json_object_array_get_idx(blocked, i)));
	}
	json_object_put(reply);
	return 0;
}

/*
 * A guest never started (run state prelaunch: QEMU was started with -S and
 * never resumed) is not migrated: QEMU carries that run state, so it
 * arrives never started, and the target cannot tell it from a guest to
 * resume.  Returns -1 (QMP failure, *cause set) or 0.
 */
static int
pf_run_state(struct pf *pf, char **cause)
{
	json_object	*reply = NULL;
	const char	*state;

	if (pf_call(pf, "query-status", NULL, &reply, cause) != 0)
		return -1;
	state = json_str_at(reply, "status");
	if (state != NULL && strcmp(state, "prelaunch") == 0)
		pf_add(pf, pf->live, "GuestNotStarted", "the guest was never "
		    "started (QEMU's run state prelaunch: -S and no cont): "
		    "start it with cont first, or start it where it should "
		    "run");
	json_object_put(reply);
	return 0;
}

/* A QOM object's property, or NULL when it has none (logged). */
static json_object *
pf_qom_get(struct pf *pf, const char *path, const char *property)
{
	json_object	*args, *reply = NULL;
	char		*err = NULL;

	args = json_object_new_object();
	json_object_object_add(args, "path", json_object_new_string(path));
	json_object_object_add(args, "property",
	    json_object_new_string(property));
	if (pf_call(pf, "qom-get", args, &reply, &err) != 0) {
		log_debug("preflight: %s", err);
		free(err);
		return NULL;
	}
	return reply;
}

/* A boolean property of a QOM object: 1, 0, or -1 when it has none. */
static int
pf_qom_bool(struct pf *pf, const char *path, const char *property)
{
	json_object	*reply = pf_qom_get(pf, path, property);
	int		 v = -1;

	if (json_object_is_type(reply, json_type_boolean))
		v = json_object_get_boolean(reply);
	json_object_put(reply);
	return v;
}

/*
 * What a QOM type means for migration (type is the X of child<X>).
 * Returns 1 when it is a reason: the node's children (the parts of the
 * same device) are not reported again.
 */
static int
pf_qom_type(struct pf *pf, const char *path, const char *type)
{
	if (strncmp(type, "vfio-", 5) == 0)
		pf_add(pf, pf->live, "HostDeviceNotLiveMigratable",
		    "%s is a VFIO host device (%s)", path, type);
	else if (strncmp(type, "vhost-user-fs", 13) == 0)
		pf_add(pf, pf->live, "VirtIOFSNotLiveMigratable",
		    "%s is a virtiofs device (%s)", path, type);
	else if (strcmp(type, "pr-manager-helper") == 0) {
		pf_add(pf, pf->live, "PersistentReservationNotLiveMigratable",
		    "%s is a SCSI persistent reservation manager (%s)", path,
		    type);
		pf_add(pf, pf->storage,
		    "PersistentReservationNotLiveMigratable",
		    "%s is a SCSI persistent reservation manager (%s)", path,
		    type);
	} else if (strcmp(type, "tdx-guest") == 0)
		pf_add(pf, pf->live, "TDXNotLiveMigratable",
		    "%s: the guest is an Intel TDX trust domain (%s)", path,
		    type);
	else if (strcmp(type, "s390-pv-guest") == 0)
		pf_add(pf, pf->live, "SecureExecutionNotLiveMigratable",
		    "%s: the guest runs under IBM Secure Execution (%s)", path,
		    type);
	else
		return 0;
	return 1;
}

/*
 * A device made by device_add is not on the target QEMU's command line
 * unless whoever started it put it there: its state would have nowhere to
 * go.  KubeVirt's HotplugNotLiveMigratable.  Asked of the devices
 * directly under /machine/peripheral and /machine/peripheral-anon.
 */
static void
pf_hotplugged(struct pf *pf, const char *parent, const char *path,
    const char *type)
{
	if (strcmp(parent, "/machine/peripheral") != 0 &&
	    strcmp(parent, "/machine/peripheral-anon") != 0)
		return;
	if (pf_qom_bool(pf, path, "hotplugged") == 1)
		pf_add(pf, pf->live, "HotplugNotLiveMigratable",
		    "%s (%s) was hot-plugged (device_add): the target QEMU "
		    "would have to be started with it", path, type);
}

/*
 * Walks the QOM tree from root, breadth first, through child<> properties
 * (memory regions skipped: there are many and they hold no devices),
 * bounded in depth and in the number of qom-list calls.  A node that
 * QEMU refuses to list is skipped.  Returns -1 when the pre-flight halted
 * (QMP gone or silent, or a stop).
 */
static int
pf_qom_walk(struct pf *pf, const char *root, char **cause)
{
	char		**queue;
	int		 *depth, *quiet;
	size_t		  head = 0, tail = 0, i, listed = 0;
	json_object	 *args, *reply;
	char		 *err = NULL;
	int		  rc = 0, reported;

	queue = xcalloc(PF_QOM_MAX_NODES, sizeof *queue);
	depth = xcalloc(PF_QOM_MAX_NODES, sizeof *depth);
	quiet = xcalloc(PF_QOM_MAX_NODES, sizeof *quiet);
	queue[tail] = xstrdup(root);
	depth[tail++] = 0;
	while (head < tail) {
		const char	*path = queue[head];
		int		 d = depth[head], q = quiet[head];

		head++;
		args = json_object_new_object();
		json_object_object_add(args, "path",
		    json_object_new_string(path));
		reply = NULL;
		listed++;
		if (pf_call(pf, "qom-list", args, &reply, &err) != 0) {
			if (pf->halt != PF_GOING) {
				*cause = err;
				rc = -1;
				break;
			}
			log_debug("preflight: %s", err);
			free(err);
			err = NULL;
			continue;
		}
		for (i = 0; i < json_object_array_length(reply); i++) {
			json_object	*p = json_object_array_get_idx(reply, i);
			const char	*name = json_str_at(p, "name");
			const char	*type = json_str_at(p, "type");
			char		 child[512], *end;
			size_t		 len;

			if (name == NULL || type == NULL ||
			    strncmp(type, "child<", 6) != 0)
				continue;
			len = strlen(type + 6);
			if (len == 0 || type[6 + len - 1] != '>')
				continue;
			snprintf(child, sizeof child, "%s%s%s", path,
			    strcmp(path, "/") == 0 ? "" : "/", name);
			end = xstrndup(type + 6, len - 1);
			reported = q || pf_qom_type(pf, child, end);
			pf_hotplugged(pf, path, child, end);
			if (strstr(end, "memory-region") == NULL &&
			    d + 1 < PF_QOM_MAX_DEPTH &&
			    tail < PF_QOM_MAX_NODES) {
				queue[tail] = xstrdup(child);
				quiet[tail] = reported;
				depth[tail++] = d + 1;
			}
			free(end);
		}
		json_object_put(reply);
	}
	if (tail == PF_QOM_MAX_NODES)
		log_warnx("preflight: QOM tree under %s larger than %d nodes: "
		    "the rest was not checked", root, PF_QOM_MAX_NODES);
	log_debug("preflight: %zu QOM nodes listed under %s", listed, root);
	for (i = 0; i < tail; i++)
		free(queue[i]);
	free(queue);
	free(depth);
	free(quiet);
	return rc;
}

/*
 * A question QEMU may not answer (an older or differently built QEMU):
 * -1 when the pre-flight halted, else 0 (*cause logged and cleared).
 */
static int
pf_optional_failed(struct pf *pf, char **cause)
{
	if (pf->halt != PF_GOING)
		return -1;
	log_debug("preflight: %s", *cause);
	free(*cause);
	*cause = NULL;
	return 0;
}

/*
 * Block jobs running now (a backup, a stream, a commit): the migration
 * would end the guest's life here under them.  qmigrate's own mirrors
 * (qm-mirror-*) are its business.  Returns -1 only when QMP is gone.
 */
static int
pf_block_jobs(struct pf *pf, char **cause)
{
	json_object	*jobs = NULL, *j;
	const char	*id, *status;
	size_t		 i;

	if (pf_call(pf, "query-block-jobs", NULL, &jobs, cause) != 0)
		return pf_optional_failed(pf, cause);
	for (i = 0; json_object_is_type(jobs, json_type_array) &&
	    i < json_object_array_length(jobs); i++) {
		j = json_object_array_get_idx(jobs, i);
		id = json_str_at(j, "device");
		status = json_str_at(j, "status");
		if (id == NULL || strncmp(id, "qm-mirror-", 10) == 0 ||
		    (status != NULL && (strcmp(status, "concluded") == 0 ||
		    strcmp(status, "null") == 0)))
			continue;
		pf_add(pf, pf->live, "BlockJobNotLiveMigratable",
		    "block job %s (%s) is %s: let it finish or cancel it "
		    "first", id, json_str_at(j, "type") != NULL ?
		    json_str_at(j, "type") : "?", status != NULL ? status :
		    "running");
		pf_add(pf, pf->storage, "BlockJobNotLiveMigratable",
		    "block job %s is %s", id, status != NULL ? status :
		    "running");
	}
	json_object_put(jobs);
	return 0;
}

/*
 * NICs whose backend keeps the interface's state in this host's hardware
 * (vhost-vdpa): KubeVirt's InterfaceNotLiveMigratable.  QEMU 7.2 lists
 * network backends only in HMP's "info network", one NIC per line and its
 * backend on the next, indented:
 *	nic0: index=0,type=nic,model=virtio-net-pci,macaddr=...
 *	 \ net0: index=0,type=vhost-vdpa,vhostdev=/dev/vhost-vdpa-0
 * Lines are read up to a bound; anything else is ignored.  Returns -1 only
 * when QMP is gone.
 */
static int
pf_interfaces(struct pf *pf, char **cause)
{
	json_object	*args, *text = NULL;
	const char	*p, *nl, *colon, *type;
	char		 nic[64] = "", model[64] = "", backend[64], kind[32];
	size_t		 len, lines = 0;

	args = json_object_new_object();
	json_object_object_add(args, "command-line",
	    json_object_new_string("info network"));
	if (pf_call(pf, "human-monitor-command", args, &text, cause) != 0)
		return pf_optional_failed(pf, cause);
	p = json_object_is_type(text, json_type_string) ?
	    json_object_get_string(text) : "";
	for (; *p != '\0' && lines++ < 1024; p = *nl != '\0' ? nl + 1 : nl) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		len = (size_t)(nl - p);
		colon = memchr(p, ':', len);
		type = colon != NULL ? strstr(colon, ",type=") : NULL;
		if (colon == NULL || type == NULL || type > nl)
			continue;
		type += 6;
		snprintf(kind, sizeof kind, "%.*s", (int)strcspn(type, ",\r\n"),
		    type);
		if (p[0] != ' ') {
			/* A NIC: its name, and its model when it has one. */
			snprintf(nic, sizeof nic, "%.*s", (int)(colon - p), p);
			model[0] = '\0';
			if ((type = strstr(colon, ",model=")) != NULL &&
			    type < nl)
				snprintf(model, sizeof model, "%.*s",
				    (int)strcspn(type + 7, ",\r\n"), type + 7);
			continue;
		}
		if (strcmp(kind, "vhost-vdpa") != 0 || nic[0] == '\0')
			continue;
		p += strspn(p, " \\");
		snprintf(backend, sizeof backend, "%.*s", (int)(colon - p), p);
		pf_add(pf, pf->live, "InterfaceNotLiveMigratable",
		    "NIC %s%s%s%s is on %s backend %s: its state is in a vDPA "
		    "device of this host", nic, model[0] != '\0' ? " (" : "",
		    model, model[0] != '\0' ? ")" : "", kind, backend);
	}
	json_object_put(text);
	return 0;
}

/*
 * SEV: query-sev answers (x86) and says enabled.  Returns -1 only when
 * the pre-flight halted.
 */
static int
pf_sev(struct pf *pf, char **cause)
{
	json_object	*reply = NULL;

	if (pf_call(pf, "query-sev", NULL, &reply, cause) != 0)
		return pf_optional_failed(pf, cause);	/* no SEV support */
	if (json_bool_at(reply, "enabled"))
		pf_add(pf, pf->live, "SEVNotLiveMigratable",
		    "the guest's memory is encrypted with AMD SEV");
	json_object_put(reply);
	return 0;
}

/* An integer property of a QOM object: 0, or -1 when it has none. */
static int
pf_qom_int(struct pf *pf, const char *path, const char *property,
    int64_t *out)
{
	json_object	*reply = pf_qom_get(pf, path, property);
	int		 rc = -1;

	if (json_object_is_type(reply, json_type_int)) {
		*out = json_object_get_int64(reply);
		rc = 0;
	}
	json_object_put(reply);
	return rc;
}

/*
 * Hyper-V reenlightenment tells the guest when its TSC frequency changes,
 * which a migration to another host may do: KubeVirt refuses such a guest
 * unless its TSC frequency is pinned (NoTSCFrequencyNotLiveMigratable).
 * QEMU knows the frequency when it was given (-cpu ...,tsc-frequency=) or,
 * under KVM, read from the host at start, and then carries it to the
 * target, which keeps it or refuses to start; at 0 it knows none and the
 * guest would see the target's.
 */
static void
pf_tsc_frequency(struct pf *pf, const char *path)
{
	int64_t hz;

	if (pf_qom_bool(pf, path, "hv-reenlightenment") != 1)
		return;
	if (pf_qom_int(pf, path, "tsc-frequency", &hz) == 0 && hz == 0)
		pf_add(pf, pf->live, "NoTSCFrequencyNotLiveMigratable",
		    "vCPU %s has hv-reenlightenment but no TSC frequency "
		    "(-cpu ...,tsc-frequency=): the guest's timers would "
		    "follow the target host's", path);
}

/*
 * Per vCPU: hyperv passthrough and reenlightenment without a TSC
 * frequency (blockers), the host's CPU model (a warning).
 */
static int
pf_cpus(struct pf *pf, char **cause)
{
	json_object	*cpus = NULL, *type;
	const char	*path, *t;
	size_t		 i;
	int		 host_warned = 0;

	if (pf_call(pf, "query-cpus-fast", NULL, &cpus, cause) != 0)
		return -1;
	for (i = 0; i < json_object_array_length(cpus) &&
	    pf->halt == PF_GOING; i++) {
		path = json_str_at(json_object_array_get_idx(cpus, i), "qom-path");
		if (path == NULL)
			continue;
		if (pf_qom_bool(pf, path, "hv-passthrough") == 1)
			pf_add(pf, pf->live,
			    "HypervPassthroughNotLiveMigratable",
			    "vCPU %s has hv-passthrough: the target host "
			    "would have to offer the same Hyper-V features",
			    path);
		if (i == 0)	/* -cpu gives every vCPU the same */
			pf_tsc_frequency(pf, path);
		if (host_warned)
			continue;
		if ((type = pf_qom_get(pf, path, "type")) == NULL)
			continue;
		t = json_object_get_string(type);
		if (t != NULL && (strncmp(t, "host-", 5) == 0 ||
		    strncmp(t, "max-", 4) == 0)) {
			/*
			 * KubeVirt's name; a warning here, as qmigrate does
			 * not know the target's CPU (KubeVirt refuses when
			 * no node can take a host-model guest).
			 */
			pf_add(pf, pf->warnings, "CPUModeLiveMigratable",
			    "the vCPUs use the %.*s CPU model: the target "
			    "host must offer the same CPU features",
			    (int)strcspn(t, "-"), t);
			host_warned = 1;
		}
		json_object_put(type);
	}
	json_object_put(cpus);
	return 0;
}

/*
 * QEMU 7.2 without KVM can lose the dirty tracking of a page written
 * through a soft-TLB entry that a dirty-bitmap sync left behind, so the
 * page reaches the target stale (HACKING.md, "QEMU 7.2 under TCG").  Measured
 * with tests/guest/tcg-dirty-repro.sh: every 7.2 run corrupt, no 10.0 or
 * 11.1 run; 8.x and 9.x were not measured, so everything before 10.0 is
 * warned about.  A warning, not a blocker: the operator decides, before
 * the move.  Returns -1 only when QMP is gone.
 */
static int
pf_tcg_dirty_tracking(struct pf *pf, char **cause)
{
	json_object	*reply = NULL;
	int		 major, minor, micro, kvm;

	qmp_qemu_version(pf->qmp, &major, &minor, &micro);
	if (major >= 10)
		return 0;
	if (pf_call(pf, "query-kvm", NULL, &reply, cause) != 0)
		return pf_optional_failed(pf, cause);
	kvm = json_bool_at(reply, "enabled");
	json_object_put(reply);
	if (!kvm)
		pf_add(pf, pf->warnings, "TCGDirtyTrackingDefect", "the guest "
		    "runs under TCG (no KVM) on QEMU %d.%d.%d, whose dirty "
		    "tracking can miss writes made through a soft-TLB entry "
		    "after a dirty-bitmap sync: such pages can reach the "
		    "target stale (HACKING.md: QEMU 7.2 under TCG; fixed in "
		    "10.0)",
		    major, minor, micro);
	return 0;
}

/*
 * Disks: every writable block device with a medium, and its backing
 * chain, must be on shared storage, unless the policy's blockMigration
 * copies it (mig-disks.c; sync full flattens the backing chain too).
 * Read-only devices (a CD-ROM) and empty drives do not count: QEMU opens
 * the same path on the target, and a read-only image that differs there
 * is the operator's copy to make.
 */
/* A disk the migration copies: a warning that says so, no blocker. */
static int
pf_copied(struct pf *pf, json_object *dev, json_object *ins, const char *file)
{
	const char	*node = json_str_at(ins, "node-name");
	const char	*device = json_str_at(dev, "device");
	const char	*key;
	char		 why[256];
	int		 shared;

	key = node != NULL && node[0] != '#' ? node : device;
	if (key == NULL || *key == '\0')
		return 0;
	shared = preflight_disk_shared(pf->settings, file, why,
	    sizeof why);
	if (!mig_disks_selected(pf->settings, key, device, file, shared))
		return 0;
	pf_add(pf, pf->warnings, "DiskCopied", "disk %s: %s is %s: copied "
	    "to the target (blockMigration)", key, file, why);
	return 1;
}

static int
pf_disks(struct pf *pf, char **cause)
{
	json_object	*blocks = NULL, *dev, *ins, *image, *v;
	const char	*name, *file, *prev;
	char		 why[256];
	size_t		 i;
	int		 chain;

	if (pf_call(pf, "query-block", NULL, &blocks, cause) != 0)
		return -1;
	for (i = 0; i < json_object_array_length(blocks); i++) {
		dev = json_object_array_get_idx(blocks, i);
		name = json_str_at(dev, "device");
		if (name == NULL || *name == '\0')
			name = json_str_at(dev, "qdev");
		if (name == NULL)
			name = "?";
		if (!json_object_object_get_ex(dev, "inserted", &ins) ||
		    json_bool_at(ins, "ro"))
			continue;
		image = NULL;
		json_object_object_get_ex(ins, "image", &image);
		file = json_str_at(image, "filename");
		if (file == NULL)
			file = json_str_at(ins, "file");
		if (file != NULL && pf_copied(pf, dev, ins, file))
			continue;
		for (chain = 0, prev = NULL; file != NULL && chain < 32;
		    chain++) {
			/*
			 * A filter node (a backup job's backup-top, a
			 * throttle) shows its child as a backing image of
			 * the same file: one file, one reason.
			 */
			if (prev != NULL && strcmp(prev, file) == 0)
				log_debug("preflight: disk %s: %s again (a "
				    "filter node)", name, file);
			else if (!preflight_disk_shared(pf->settings, file, why,
	    sizeof why)) {
				pf_add(pf, pf->live, "DisksNotLiveMigratable",
				    "disk %s: %s%s is %s", name, file,
				    chain ? " (backing file)" : "", why);
				pf_add(pf, pf->storage,
				    "DisksNotLiveMigratable",
				    "disk %s: %s%s is %s", name, file,
				    chain ? " (backing file)" : "", why);
			} else
				log_debug("preflight: disk %s: %s is %s", name,
				    file, why);
			if (image == NULL || !json_object_object_get_ex(image,
			    "backing-image", &v))
				break;
			prev = file;
			image = v;
			file = json_str_at(image, "filename");
		}
	}
	json_object_put(blocks);
	return 0;
}

/*
 * One condition: {type, status, reason, message, reasons[, warnings]}.
 * As KubeVirt's: a False LiveMigratable's reason is its first reason's
 * name; a False StorageLiveMigratable's is always NotMigratable (reason
 * set), its message naming each one.  reasons lists them all by name.
 */
static json_object *
pf_condition(const char *type, const char *reason, json_object *reasons,
    json_object *warnings)
{
	json_object	*c = json_object_new_object();
	size_t		 i, n = json_object_array_length(reasons);
	char		*msg = NULL, *next;

	json_object_object_add(c, "type", json_object_new_string(type));
	json_object_object_add(c, "status",
	    json_object_new_string(n == 0 ? "True" : "False"));
	for (i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(reasons, i);

		xasprintf(&next, "%s%s%s: %s", msg != NULL ? msg : "",
		    msg != NULL ? "; " : "", json_str_at(r, "reason"),
		    json_str_at(r, "message"));
		free(msg);
		msg = next;
	}
	if (n > 0 && reason == NULL)
		reason = json_str_at(json_object_array_get_idx(reasons, 0),
		    "reason");
	json_object_object_add(c, "reason", json_object_new_string(n == 0 ?
	    "" : reason));
	json_object_object_add(c, "message", json_object_new_string(n == 0 ?
	    "" : msg));
	free(msg);
	json_object_object_add(c, "reasons", json_object_get(reasons));
	if (warnings != NULL)
		json_object_object_add(c, "warnings",
		    json_object_get(warnings));
	return c;
}

/*
 * Runs every check against the QEMU behind qmp, waiting on loop (qmp's).
 * settings gives the sharedStoragePaths.  stop (may be NULL) is a flag
 * the caller's watchers set (a signal, a deadline): the pre-flight ends
 * within one loop iteration of it.  The whole pre-flight is bounded:
 * PF_TIMEOUT per command and PF_BUDGET in all, and the first command QEMU
 * does not answer ends it.  Returns 1 (live-migratable) or 0 (not), with
 * *conditions a new array [LiveMigratable, StorageLiveMigratable] and
 * *summary one line listing every reason (or "live-migratable", with any
 * warnings); -1 when QMP failed (refused, silent or gone), *conditions
 * NULL and *summary the cause; -2 when stopped, *conditions NULL and
 * *summary saying so.  The caller frees *summary and puts *conditions.
 */
int
preflight_run(struct ev_loop *loop, struct qmp_conn *qmp,
    const struct mig_settings *settings, const int *stop,
    json_object **conditions, char **summary)
{
	struct pf	 pf;
	char		*cause = NULL, *line = NULL, *next;
	size_t		 i, n;
	int		 rc;

	memset(&pf, 0, sizeof pf);
	pf.loop = loop;
	pf.qmp = qmp;
	pf.settings = settings;
	pf.stop = stop;
	pf.budget_end = now_monotonic() + PF_BUDGET;
	pf.live = json_object_new_array();
	pf.storage = json_object_new_array();
	pf.warnings = json_object_new_array();
	*conditions = NULL;
	*summary = NULL;

	if (pf_run_state(&pf, &cause) != 0 ||
	    pf_blockers(&pf, &cause) != 0 ||
	    pf_qom_walk(&pf, "/machine", &cause) != 0 ||
	    pf_qom_walk(&pf, "/objects", &cause) != 0 ||
	    pf_sev(&pf, &cause) != 0 ||
	    pf_interfaces(&pf, &cause) != 0 ||
	    pf_block_jobs(&pf, &cause) != 0 ||
	    pf_cpus(&pf, &cause) != 0 ||
	    pf_tcg_dirty_tracking(&pf, &cause) != 0 ||
	    pf_disks(&pf, &cause) != 0 || pf.halt != PF_GOING) {
		if (pf.halt == PF_STOPPED) {
			*summary = xstrdup("pre-flight check stopped");
			rc = -2;
		} else {
			if (cause == NULL)
				xasprintf(&cause, "%s", pf.halt_cause);
			xasprintf(summary, "pre-flight check: %s", cause);
			rc = -1;
		}
		free(cause);
		goto out;
	}
	if (pf.dropped > 0)
		pf_add(&pf, pf.warnings, "TooManyReasons", "%zu more reasons "
		    "not listed", pf.dropped);

	*conditions = json_object_new_array();
	json_object_array_add(*conditions, pf_condition("LiveMigratable",
	    NULL, pf.live, pf.warnings));
	json_object_array_add(*conditions, pf_condition(
	    "StorageLiveMigratable", "NotMigratable", pf.storage, NULL));

	n = json_object_array_length(pf.live);
	rc = n == 0;
	line = xstrdup(rc ? "live-migratable" : "");
	for (i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(pf.live, i);

		xasprintf(&next, "%s%s%s: %s", line, i ? "; " : "",
		    json_str_at(r, "reason"), json_str_at(r, "message"));
		free(line);
		line = next;
	}
	for (i = 0; i < json_object_array_length(pf.warnings); i++) {
		json_object *r = json_object_array_get_idx(pf.warnings, i);

		xasprintf(&next, "%s; warning %s: %s", line,
		    json_str_at(r, "reason"), json_str_at(r, "message"));
		free(line);
		line = next;
	}
	*summary = line;
out:
	free(pf.halt_cause);
	json_object_put(pf.live);
	json_object_put(pf.storage);
	json_object_put(pf.warnings);
	return rc;
}
