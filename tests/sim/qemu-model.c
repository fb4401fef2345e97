/*
 * qemu-model.c: the QEMU model's state, its commands and answers, and the
 * walk over qm_rows (qemu-model-table.c) both the simulator and the
 * conformance checker use.  What QEMU does is in the table; this file
 * only applies rows, parses what qmigrate writes and writes what QEMU
 * writes.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qemu-model.h"

static const char *const status_names[QM_NSTATUS] = {
	"none", "setup", "cancelling", "cancelled", "active",
	"postcopy-device", "postcopy-active", "postcopy-paused",
	"postcopy-recover-setup", "postcopy-recover", "completed", "failing",
	"failed", "colo", "pre-switchover", "device", "wait-unplug",
};
static const char *const runstate_names[QM_NRUNSTATE] = {
	"debug", "inmigrate", "internal-error", "io-error", "paused",
	"postmigrate", "prelaunch", "finish-migrate", "restore-vm", "running",
	"save-vm", "shutdown", "suspended", "watchdog", "guest-panicked",
	"colo",
};
static const char *const job_names[QM_NJOBSTATUS] = {
	"undefined", "created", "running", "paused", "ready", "standby",
	"waiting", "pending", "aborting", "concluded", "null",
};

/* Statuses each version's MigrationStatus has (query-qmp-schema). */
static const unsigned status_versions[QM_NSTATUS] = {
	[QM_ST_POSTCOPY_DEVICE] = QM_VBIT(QM_V11_1),
	[QM_ST_POSTCOPY_RECOVER_SETUP] = QM_V10UP,
	[QM_ST_FAILING] = QM_VBIT(QM_V11_1),
};

int
qm_version_of(int major, int minor)
{
	(void)minor;
	if (major == 7)
		return QM_V7_2;
	if (major == 10)
		return QM_V10_0;
	if (major == 11)
		return QM_V11_1;
	return -1;
}

const char *
qm_version_name(enum qm_version v)
{
	static const char *const n[QM_NVERSIONS] = { "7.2", "10.0", "11.1" };

	return (unsigned)v < QM_NVERSIONS ? n[v] : "?";
}

const char *
qm_status_name(enum qm_status st)
{
	return (unsigned)st < QM_NSTATUS ? status_names[st] : "?";
}

int
qm_status_of(const char *s)
{
	int	 i;

	for (i = 0; i < QM_NSTATUS; i++)
		if (strcmp(s, status_names[i]) == 0)
			return i;
	return -1;
}

const char *
qm_runstate_name(enum qm_runstate rs)
{
	return (unsigned)rs < QM_NRUNSTATE ? runstate_names[rs] : "?";
}

int
qm_runstate_of(const char *s)
{
	int	 i;

	for (i = 0; i < QM_NRUNSTATE; i++)
		if (strcmp(s, runstate_names[i]) == 0)
			return i;
	return -1;
}

const char *
qm_job_status_name(enum qm_job_status js)
{
	return (unsigned)js < QM_NJOBSTATUS ? job_names[js] : "?";
}

static int
job_status_of(const char *s)
{
	int	 i;

	for (i = 0; i < QM_NJOBSTATUS; i++)
		if (strcmp(s, job_names[i]) == 0)
			return i;
	return -1;
}

void
qm_state_init(struct qm_state *s, const struct qm_config *cfg)
{
	memset(s, 0, sizeof *s);
	s->version = cfg->version;
	s->status = QM_ST_NONE;
	s->alive = 1;
	s->old_rs = QM_RS_RUNNING;
	if (!cfg->stopped)
		s->flags |= QM_IF_AUTOSTART;
	s->flags |= QM_IF_EXIT_ON_ERROR;
	if (cfg->incoming) {
		/* qemu_init: -incoming puts the run state in inmigrate. */
		s->runstate = QM_RS_INMIGRATE;
		s->flags |= QM_IF_INCOMING;
		if (cfg->listening) {
			s->flags |= QM_IF_LISTENING;
			if (cfg->version != QM_V7_2)
				s->status = QM_ST_SETUP;
		}
	} else
		s->runstate = cfg->stopped ? QM_RS_PRELAUNCH : QM_RS_RUNNING;
}

int
qm_runs_guest(const struct qm_state *s)
{
	if (!s->alive || s->runstate != QM_RS_RUNNING)
		return 0;
	return !(s->flags & QM_IF_INCOMING) || (s->flags & QM_IF_GUEST);
}

/* ---- events ---------------------------------------------------------- */

static void
push_event(struct qm_state *s, int kind, int arg, int job)
{
	if (s->npending == QM_MAX_PENDING) {
		/* The checker prunes such a path: events must be seen. */
		s->npending = QM_MAX_PENDING + 1;
		return;
	}
	if (s->npending > QM_MAX_PENDING)
		return;
	s->pending[s->npending].kind = (short)kind;
	s->pending[s->npending].arg = (short)arg;
	s->pending[s->npending].job = (short)job;
	s->npending++;
}

static void
emit(struct qm_state *s, const struct qm_row *r, int job)
{
	int	 mig = (r->emit & QM_EMIT_MIGRATION) &&
	    (s->flags & QM_IF_EVENTS);

	if (r->kind == QM_ROW_JOB) {
		/* job_event_ready follows the status change; completed and
		   cancelled precede concluded (job_finalize_single). */
		if (r->emit & QM_EMIT_JOB_READY) {
			push_event(s, QM_EV_JOB_STATUS, s->jobs[job].status,
			    job);
			push_event(s, QM_EV_JOB_READY, 0, job);
			return;
		}
		if (r->emit & QM_EMIT_JOB_ERROR)
			push_event(s, QM_EV_JOB_ERROR, 0, job);
		if (r->emit & QM_EMIT_JOB_DONE)
			push_event(s, QM_EV_JOB_DONE, 0, job);
		if (r->emit & QM_EMIT_JOB_CANCELLED)
			push_event(s, QM_EV_JOB_CANCELLED, 0, job);
		if (r->emit & QM_EMIT_JOB)
			push_event(s, QM_EV_JOB_STATUS, s->jobs[job].status,
			    job);
		return;
	}
	if (mig && (r->emit & QM_EMIT_MIGRATION_FIRST))
		push_event(s, QM_EV_MIGRATION, s->status, -1);
	if (r->emit & QM_EMIT_STOP)
		push_event(s, QM_EV_STOP, 0, -1);
	if (mig && !(r->emit & QM_EMIT_MIGRATION_FIRST))
		push_event(s, QM_EV_MIGRATION, s->status, -1);
	if (r->emit & QM_EMIT_SETUP_ALWAYS)
		push_event(s, QM_EV_MIGRATION, QM_ST_SETUP, -1);
	if (r->emit & QM_EMIT_RESUME)
		push_event(s, QM_EV_RESUME, 0, -1);
	if (r->emit & QM_EMIT_SHUTDOWN)
		push_event(s, QM_EV_SHUTDOWN, 0, -1);
}

/* ---- rows ------------------------------------------------------------ */

/* What this reads of s is qm_enabled_key()'s: keep the two together. */
static int
row_enabled(const struct qm_state *s, int i, int job, unsigned extra)
{
	const struct qm_row	*r = &qm_rows[i];
	unsigned		 f = s->flags | extra;

	if (i == qm_disabled_row || !(r->versions & QM_VBIT(s->version)) ||
	    !s->alive)
		return 0;
	if (r->kind == QM_ROW_JOB) {
		if (job < 0 || job >= s->njobs)
			return 0;
		f |= s->jobs[job].flags;
		if (!(r->st_from & (1u << s->jobs[job].status)))
			return 0;
	} else {
		if (r->st_from != 0 && !(r->st_from & (1u << s->status)))
			return 0;
		if (r->rs_from != 0 && !(r->rs_from & (1u << s->runstate)))
			return 0;
		if (r->st_to >= 0 && status_versions[r->st_to] != 0 &&
		    !(status_versions[r->st_to] & QM_VBIT(s->version)))
			return 0;
	}
	return (f & r->need) == r->need && (f & r->unless) == 0;
}

static void
row_apply(struct qm_state *s, int i, int job)
{
	const struct qm_row	*r = &qm_rows[i];

	if (r->kind == QM_ROW_JOB) {
		if (r->st_to >= 0)
			s->jobs[job].status = r->st_to;
		s->jobs[job].flags = (s->jobs[job].flags | r->set) &
		    ~r->clear;
		emit(s, r, job);
		return;
	}
	if (r->rs_to == QM_GONE)
		s->alive = 0;
	else if (r->rs_to == QM_RS_OLD)
		s->runstate = s->old_rs;
	else if (r->rs_to >= 0) {
		if (r->rs_to == QM_RS_FINISH_MIGRATE)
			s->old_rs = s->runstate;
		s->runstate = r->rs_to;
	}
	if (r->st_to >= 0)
		s->status = r->st_to;
	s->flags = (s->flags | r->set) & ~r->clear;
	emit(s, r, -1);
}

size_t
qm_enabled(const struct qm_state *s, int *rows, size_t max)
{
	size_t	 n = 0, i;
	int	 j;

	for (i = 0; i < qm_nrows && n < max; i++) {
		if (qm_rows[i].trigger == QM_T_CMD)
			continue;
		if (qm_rows[i].kind == QM_ROW_JOB) {
			for (j = 0; j < s->njobs && n < max; j++)
				if (row_enabled(s, (int)i, j, 0))
					rows[n++] = (int)i | j << 16;
		} else if (row_enabled(s, (int)i, -1, 0))
			rows[n++] = (int)i;
	}
	return n;
}

/* Keep with row_enabled(): every field it reads, and nothing else. */
void
qm_enabled_key(const struct qm_state *s, struct qm_enabled_key *k)
{
	int	 j;

	memset(k, 0, sizeof *k);
	k->disabled_row = qm_disabled_row;
	k->version = s->version;
	k->alive = s->alive;
	k->status = s->status;
	k->runstate = s->runstate;
	k->flags = s->flags;
	k->njobs = s->njobs;
	for (j = 0; j < s->njobs && j < QM_MAX_JOBS; j++) {
		k->job_status[j] = s->jobs[j].status;
		k->job_flags[j] = s->jobs[j].flags;
	}
}

void
qm_take(struct qm_state *s, int entry)
{
	row_apply(s, entry & 0xffff, entry >> 16);
}

/* ---- commands -------------------------------------------------------- */

/* Commands the model answers without a state change of its own. */
static const char *const info_cmds[] = {
	"qmp_capabilities", "query-version", "query-commands",
	"query-memory-size-summary", "query-kvm", "qom-get", "qom-list",
	"qom-path", "query-cpus-fast", "query-uuid", "query-block",
	"query-named-block-nodes", "query-blockstats", "query-balloon",
	"query-dirty-rate", "calc-dirty-rate", "set-vcpu-dirty-limit",
	"cancel-vcpu-dirty-limit", "query-vcpu-dirty-limit", "query-sev",
	"query-rx-filter", "query-machines", "human-monitor-command",
	"system_powerdown", "query-qmp-schema", "query-name",
	"query-migrationthreads", "query-hotpluggable-cpus", "device_del",
	"blockdev-add", "blockdev-del", "nbd-server-add",
	"block-export-add", "block-export-del", "query-block-exports",
	"query-migrate-parameters", "query-migrate-capabilities",
	"query-migrate", "query-status", "query-block-jobs", "query-jobs",
	"migrate-set-parameters", "migrate-set-capabilities",
	"drive-mirror", "blockdev-mirror", "job-dismiss", "nbd-server-start",
	"nbd-server-stop", "query-cpu-definitions", "query-target",
	"x-query-virtio", "system_reset", "yank", "query-yank",
	"query-chardev", "device_add", "drive-backup", "blockdev-backup",
	NULL
};

int
qm_cmd_known(const char *name)
{
	size_t	 i;

	for (i = 0; info_cmds[i] != NULL; i++)
		if (strcmp(name, info_cmds[i]) == 0)
			return 1;
	for (i = 0; i < qm_nrows; i++)
		if (qm_rows[i].trigger == QM_T_CMD &&
		    strcmp(qm_rows[i].cmd, name) == 0)
			return 1;
	return 0;
}

static unsigned
cap_bit(const char *name)
{
	if (strcmp(name, "events") == 0)
		return QM_IF_EVENTS;
	if (strcmp(name, "return-path") == 0)
		return QM_IF_RP_CAP;
	if (strcmp(name, "postcopy-ram") == 0)
		return QM_IF_POSTCOPY;
	if (strcmp(name, "pause-before-switchover") == 0)
		return QM_IF_PAUSE_BEFORE;
	return 0;
}

static void
copy_str(char *dst, size_t size, struct json_object *o)
{
	const char	*v;

	v = o != NULL && json_object_is_type(o, json_type_string) ?
	    json_object_get_string(o) : "";
	snprintf(dst, size, "%s", v);
}

int
qm_cmd_parse_json(const void *json, struct qm_cmd *c)
{
	struct json_object	*o = (struct json_object *)json, *v, *a, *e;
	const char		*m;
	size_t			 i, n;

	memset(c, 0, sizeof *c);
	c->mode = -1;
	c->exit_on_error = -1;
	if (!json_object_object_get_ex(o, "execute", &v) ||
	    !json_object_is_type(v, json_type_string))
		return -1;
	copy_str(c->name, sizeof c->name, v);
	if (json_object_object_get_ex(o, "id", &v))
		copy_str(c->id, sizeof c->id, v);
	if (!json_object_object_get_ex(o, "arguments", &a))
		return 0;
	if (json_object_object_get_ex(a, "resume", &v) &&
	    json_object_get_boolean(v))
		c->args |= QM_IF_RESUME;
	if (json_object_object_get_ex(a, "force", &v) &&
	    json_object_get_boolean(v) &&
	    strcmp(c->name, "block-job-cancel") == 0)
		c->args |= QM_IF_FORCE;
	if (json_object_object_get_ex(a, "exit-on-error", &v))
		c->exit_on_error = json_object_get_boolean(v);
	if (json_object_object_get_ex(a, "mode", &v) &&
	    strcmp(c->name, "migrate-set-parameters") == 0) {
		m = json_object_get_string(v);
		c->mode = strcmp(m, "cpr-transfer") == 0 ? 1 :
		    strcmp(m, "cpr-exec") == 0 ? 2 : 0;
	}
	if (json_object_object_get_ex(a, "job-id", &v) ||
	    json_object_object_get_ex(a, "device", &v) ||
	    json_object_object_get_ex(a, "id", &v))
		copy_str(c->job, sizeof c->job, v);
	if (json_object_object_get_ex(a, "path", &v))
		copy_str(c->path, sizeof c->path, v);
	if (json_object_object_get_ex(a, "capabilities", &v) &&
	    json_object_is_type(v, json_type_array)) {
		n = json_object_array_length(v);
		for (i = 0; i < n; i++) {
			e = json_object_array_get_idx(v, i);
			if (!json_object_object_get_ex(e, "capability", &a))
				continue;
			m = json_object_get_string(a);
			if (json_object_object_get_ex(e, "state", &a) &&
			    json_object_get_boolean(a))
				c->caps_on |= cap_bit(m);
			else
				c->caps_off |= cap_bit(m);
		}
	}
	return 0;
}

int
qm_cmd_parse(const char *line, struct qm_cmd *c)
{
	struct json_object	*o;
	int			 rc;

	if ((o = json_tokener_parse(line)) == NULL)
		return -1;
	rc = qm_cmd_parse_json(o, c);
	json_object_put(o);
	return rc;
}

size_t
qm_refusals_for(const struct qm_state *s, const struct qm_cmd *c, int *idx,
    size_t max, int *certain)
{
	const struct qm_refusal	*r;
	unsigned		 f = s->flags | c->args;
	size_t			 i, n = 0;

	*certain = 0;
	for (i = 0; i < qm_nrefusals && n < max; i++) {
		r = &qm_refusals[i];
		if ((strcmp(r->cmd, "*") != 0 &&
		    strcmp(r->cmd, c->name) != 0) ||
		    !(r->versions & QM_VBIT(s->version)))
			continue;
		if (r->st_in != 0 && !(r->st_in & (1u << s->status)))
			continue;
		if (r->rs_in != 0 && !(r->rs_in & (1u << s->runstate)))
			continue;
		if ((f & r->need) != r->need || (f & r->unless) != 0)
			continue;
		idx[n++] = (int)i;
		if (!r->may)
			*certain = 1;
	}
	return n;
}

/* Takes the enabled row named name, if any: 0, or -1 if none is. */
static int
take_named(struct qm_state *s, const char *name)
{
	int	 rows[64];
	size_t	 i, n = qm_enabled(s, rows, 64);

	for (i = 0; i < n; i++)
		if (strcmp(qm_rows[rows[i] & 0xffff].cmd, name) == 0) {
			qm_take(s, rows[i]);
			return 0;
		}
	return -1;
}

int
qm_refuse_after_setup(struct qm_state *s, const struct qm_cmd *c)
{
	if (qm_apply_cmd(s, c) < 0 || s->status != QM_ST_SETUP ||
	    take_named(s, "connect-failed") != 0)
		return -1;
	if (s->status == QM_ST_FAILING)
		(void)take_named(s, "failed");
	return s->status == QM_ST_FAILED ? 0 : -1;
}

static int
job_find(const struct qm_state *s, const char *id)
{
	int	 j;

	for (j = 0; j < s->njobs; j++)
		if (s->jobs[j].status != QM_JOB_NULL &&
		    strcmp(s->jobs[j].id, id) == 0)
			return j;
	return -1;
}

/* A new mirror job: job_create's CREATED (job_start then runs it). */
static void
job_new(struct qm_state *s, const char *id)
{
	int	 j, k, used;

	for (j = 0; j < s->njobs; j++) {
		if (s->jobs[j].status != QM_JOB_NULL)
			continue;
		for (used = 0, k = 0; k < s->npending; k++)
			if (s->pending[k].job == j)
				used = 1;
		if (!used)
			break;
	}
	if (j == s->njobs) {
		if (s->njobs == QM_MAX_JOBS)
			return;
		s->njobs++;
	}
	memset(&s->jobs[j], 0, sizeof s->jobs[j]);
	snprintf(s->jobs[j].id, sizeof s->jobs[j].id, "%s", id);
	s->jobs[j].status = QM_JOB_CREATED;
	push_event(s, QM_EV_JOB_STATUS, QM_JOB_CREATED, j);
}

/* blk_exp_unref's last reference: BLOCK_EXPORT_DELETED. */
static void
export_gone(struct qm_state *s, int j)
{
	if (s->exports_gone & (1u << j))
		return;
	s->exports_gone |= 1u << j;
	push_event(s, QM_EV_EXPORT_DELETED, 0, j);
}

int
qm_apply_cmd(struct qm_state *s, const struct qm_cmd *c)
{
	size_t	 i;
	int	 j, row = -1;

	if (!s->alive)
		return -1;
	if (strcmp(c->name, "migrate-set-capabilities") == 0) {
		s->flags = (s->flags | c->caps_on) & ~c->caps_off;
		/* The return path opens with either (migration_thread). */
		if (s->flags & (QM_IF_RP_CAP | QM_IF_POSTCOPY))
			s->flags |= QM_IF_RETURN_PATH;
		else
			s->flags &= ~QM_IF_RETURN_PATH;
	} else if (strcmp(c->name, "migrate-set-parameters") == 0 &&
	    c->mode >= 0) {
		s->mode = c->mode;
		s->flags &= ~(QM_IF_CPR | QM_IF_CPR_EXEC);
		if (c->mode > 0)
			s->flags |= QM_IF_CPR;
		if (c->mode == 2)
			s->flags |= QM_IF_CPR_EXEC;
	} else if (strcmp(c->name, "migrate-incoming") == 0 &&
	    c->exit_on_error == 0 && s->version != QM_V7_2)
		s->flags &= ~QM_IF_EXIT_ON_ERROR;
	else if (strcmp(c->name, "drive-mirror") == 0 ||
	    strcmp(c->name, "blockdev-mirror") == 0 ||
	    strcmp(c->name, "drive-backup") == 0 ||
	    strcmp(c->name, "blockdev-backup") == 0) {
		/* backup_job_create, like mirror_start_job: job_create then
		   job_start.  The model does not tell a backup from a mirror
		   (a backup never becomes ready: the model lets it). */
		job_new(s, c->job);
		return -1;
	} else if (strcmp(c->name, "job-dismiss") == 0) {
		if ((j = job_find(s, c->job)) >= 0 &&
		    s->jobs[j].status == QM_JOB_CONCLUDED) {
			s->jobs[j].status = QM_JOB_NULL;
			push_event(s, QM_EV_JOB_STATUS, QM_JOB_NULL, j);
		}
		return -1;
	} else if (strcmp(c->name, "nbd-server-start") == 0)
		s->nbd_server = 1;
	else if (strcmp(c->name, "nbd-server-stop") == 0) {
		/* nbd_server_free: every NBD export goes with the server. */
		s->nbd_server = 0;
		for (j = 0; j < s->nexports; j++)
			export_gone(s, j);
	} else if (strcmp(c->name, "block-export-add") == 0) {
		if (s->nexports < QM_MAX_JOBS) {
			snprintf(s->exports[s->nexports],
			    sizeof s->exports[0], "%s", c->job);
			s->nexports++;
		}
	} else if (strcmp(c->name, "block-export-del") == 0) {
		for (j = 0; j < s->nexports; j++)
			if (strcmp(s->exports[j], c->job) == 0)
				export_gone(s, j);
	}

	for (i = 0; i < qm_nrows; i++) {
		if (qm_rows[i].trigger != QM_T_CMD ||
		    strcmp(qm_rows[i].cmd, c->name) != 0)
			continue;
		if (qm_rows[i].kind == QM_ROW_JOB) {
			if ((j = job_find(s, c->job)) < 0 ||
			    !row_enabled(s, (int)i, j, c->args))
				continue;
			row_apply(s, (int)i, j);
			return (int)i;
		}
		if (!row_enabled(s, (int)i, -1, c->args))
			continue;
		row_apply(s, (int)i, -1);
		row = (int)i;
		break;
	}
	return row;
}

/* ---- answers --------------------------------------------------------- */

static int	 fits_fail(char **, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/* Sets *why (malloc'd) from fmt and returns -1. */
static int
fits_fail(char **why, const char *fmt, ...)
{
	va_list	 ap;

	if (why != NULL) {
		va_start(ap, fmt);
		if (vasprintf(why, fmt, ap) == -1)
			*why = NULL;
		va_end(ap);
	}
	return -1;
}

static const char *
str_member(struct json_object *o, const char *key)
{
	struct json_object	*v;

	if (o == NULL || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return json_object_get_string(v);
}

static int
caps_fit(const struct qm_state *s, struct json_object *ret, char **why)
{
	struct json_object	*e;
	const char		*name;
	unsigned		 bit;
	size_t			 i, n;
	int			 on;

	if (!json_object_is_type(ret, json_type_array))
		return 0;
	n = json_object_array_length(ret);
	for (i = 0; i < n; i++) {
		e = json_object_array_get_idx(ret, i);
		if ((name = str_member(e, "capability")) == NULL ||
		    (bit = cap_bit(name)) == 0)
			continue;
		on = str_member(e, "state") != NULL &&
		    strcmp(str_member(e, "state"), "true") == 0;
		if (on != ((s->flags & bit) != 0))
			return fits_fail(why, "capability %s is %s, the model "
			    "holds otherwise", name, on ? "on" : "off");
	}
	return 0;
}

static int
jobs_fit(const struct qm_state *s, struct json_object *ret, char **why)
{
	struct json_object	*e;
	const char		*dev, *st;
	size_t			 i, n;
	int			 j, seen[QM_MAX_JOBS] = { 0 };

	if (!json_object_is_type(ret, json_type_array))
		return 0;
	n = json_object_array_length(ret);
	for (i = 0; i < n; i++) {
		e = json_object_array_get_idx(ret, i);
		dev = str_member(e, "device");
		st = str_member(e, "status");
		if (dev == NULL || (j = job_find(s, dev)) < 0)
			return fits_fail(why, "job %s listed (status %s), the "
			    "model has no such job", dev ? dev : "?",
			    st ? st : "?");
		seen[j] = 1;
		if (st != NULL && job_status_of(st) != (int)s->jobs[j].status)
			return fits_fail(why, "job status %s, the model "
			    "holds %s", st,
			    qm_job_status_name(s->jobs[j].status));
	}
	for (j = 0; j < s->njobs; j++)
		if (!seen[j] && s->jobs[j].status != QM_JOB_NULL)
			return fits_fail(why, "job %s missing from the list "
			    "(the model holds it %s)", s->jobs[j].id,
			    qm_job_status_name(s->jobs[j].status));
	return 0;
}

int
qm_return_fits(const struct qm_state *s, const struct qm_cmd *c,
    const void *json_return, char **why)
{
	struct json_object	*ret = (struct json_object *)json_return, *v;
	const char		*st, *want;
	int			 has_tt;

	if (strcmp(c->name, "query-migrate") == 0) {
		st = str_member(ret, "status");
		want = qm_status_name(s->status);
		if (st == NULL ? s->status != QM_ST_NONE :
		    strcmp(st, want) != 0)
			return fits_fail(why, "status %s, the model holds %s",
			    st ? st : "(none)", want);
		has_tt = json_object_object_get_ex(ret, "total-time", &v);
		if (s->status == QM_ST_COMPLETED &&
		    !(s->flags & QM_IF_INCOMING)) {
			if (!has_tt)
				return fits_fail(why, "%s%s without total-time "
				    "on a source", "completed", "");
			if ((s->flags & QM_IF_TOTAL_TIME) &&
			    json_object_get_int64(v) == 0)
				return fits_fail(why, "%s%s: total-time 0 after "
				    "the figures were stored", "completed", "");
		}
		if (s->status == QM_ST_COMPLETED &&
		    (s->flags & QM_IF_INCOMING) && has_tt)
			return fits_fail(why, "%s%s with total-time on a "
			    "target", "completed", "");
		return 0;
	}
	if (strcmp(c->name, "query-status") == 0) {
		st = str_member(ret, "status");
		want = qm_runstate_name(s->runstate);
		/*
		 * A quit or a signal: qemu_cleanup's vm_shutdown stops a live
		 * guest (do_vm_stop(SHUTDOWN), no STOP event), and
		 * monitor_cleanup still runs a command read before: shutdown
		 * (CI: a source killed after its migration failed).  Held here,
		 * not as a row: a run state the process leaves only by exiting,
		 * which as a row doubled the states after every possible
		 * signal and took the search past its bound.
		 */
		if (st != NULL && strcmp(st, "shutdown") == 0 &&
		    (s->flags & QM_IF_SHUTDOWN) &&
		    (s->runstate == QM_RS_RUNNING ||
		    s->runstate == QM_RS_SUSPENDED))
			return 0;
		if (st == NULL || strcmp(st, want) != 0)
			return fits_fail(why, "run state %s, the model holds "
			    "%s", st ? st : "(none)", want);
		return 0;
	}
	if (strcmp(c->name, "query-migrate-capabilities") == 0)
		return caps_fit(s, ret, why);
	if (strcmp(c->name, "query-block-jobs") == 0)
		return jobs_fit(s, ret, why);
	if (strcmp(c->name, "query-migrate-parameters") == 0 &&
	    (st = str_member(ret, "mode")) != NULL) {
		want = s->mode == 1 ? "cpr-transfer" : s->mode == 2 ?
		    "cpr-exec" : "normal";
		if (strcmp(st, want) != 0)
			return fits_fail(why, "mode %s, the model holds %s", st,
			    want);
	}
	return 0;
}

static struct json_object *
migrate_info(const struct qm_state *s)
{
	struct json_object	*o = json_object_new_object(), *ram;

	if (s->status == QM_ST_NONE)
		return o;
	json_object_object_add(o, "status",
	    json_object_new_string(qm_status_name(s->status)));
	if (s->flags & QM_IF_INCOMING)
		return o;
	if (s->status == QM_ST_COMPLETED)
		json_object_object_add(o, "total-time", json_object_new_int64(
		    (s->flags & QM_IF_TOTAL_TIME) ? 1200 : 0));
	else
		json_object_object_add(o, "total-time",
		    json_object_new_int64(100));
	ram = json_object_new_object();
	json_object_object_add(ram, "transferred", json_object_new_int64(0));
	json_object_object_add(ram, "remaining", json_object_new_int64(0));
	json_object_object_add(ram, "total", json_object_new_int64(0));
	json_object_object_add(o, "ram", ram);
	return o;
}

/* Each version's MigrationCapability (its query-qmp-schema). */
static const char *const caps_72[] = { "xbzrle", "rdma-pin-all",
	"auto-converge", "zero-blocks", "compress", "events", "postcopy-ram",
	"x-colo", "release-ram", "block", "return-path",
	"pause-before-switchover", "multifd", "dirty-bitmaps",
	"postcopy-blocktime", "late-block-activate", "x-ignore-shared",
	"validate-uuid", "background-snapshot", "zero-copy-send",
	"postcopy-preempt", NULL };
static const char *const caps_100[] = { "xbzrle", "rdma-pin-all",
	"auto-converge", "zero-blocks", "events", "postcopy-ram", "x-colo",
	"release-ram", "return-path", "pause-before-switchover", "multifd",
	"dirty-bitmaps", "postcopy-blocktime", "late-block-activate",
	"x-ignore-shared", "validate-uuid", "background-snapshot",
	"zero-copy-send", "postcopy-preempt", "switchover-ack", "dirty-limit",
	"mapped-ram", NULL };
static const char *const caps_111[] = { "xbzrle", "rdma-pin-all",
	"auto-converge", "events", "postcopy-ram", "x-colo", "release-ram",
	"return-path", "pause-before-switchover", "multifd", "dirty-bitmaps",
	"postcopy-blocktime", "late-block-activate", "x-ignore-shared",
	"validate-uuid", "background-snapshot", "zero-copy-send",
	"postcopy-preempt", "switchover-ack", "dirty-limit", "mapped-ram",
	NULL };

static void
add_int(struct json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

static void
add_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

/*
 * The answers of the setup's queries as the recorded QEMUs give them for
 * the test guest (a 128 MiB pc-i440fx machine, one vCPU, TCG): enough for
 * qmigrate's pre-flight and plan; values the model does not hold.
 */
static struct json_object *
static_answer(const struct qm_state *s, const struct qm_cmd *c)
{
	static const char *const mtype[QM_NVERSIONS] = {
		"pc-i440fx-7.2-machine", "pc-i440fx-10.0-machine",
		"pc-i440fx-11.1-machine" };
	static const int ver[QM_NVERSIONS][3] = {
		{ 7, 2, 22 }, { 10, 0, 13 }, { 11, 1, 3 } };
	const char *const *caps = s->version == QM_V7_2 ? caps_72 :
	    s->version == QM_V10_0 ? caps_100 : caps_111;
	struct json_object	*o, *e, *q;
	size_t			 i;

	if (strcmp(c->name, "query-migrate-capabilities") == 0) {
		o = json_object_new_array();
		for (i = 0; caps[i] != NULL; i++) {
			e = json_object_new_object();
			add_str(e, "capability", caps[i]);
			json_object_object_add(e, "state",
			    json_object_new_boolean(cap_bit(caps[i]) != 0 &&
			    (s->flags & cap_bit(caps[i]))));
			json_object_array_add(o, e);
		}
		return o;
	}
	o = json_object_new_object();
	if (strcmp(c->name, "query-migrate-parameters") == 0) {
		add_int(o, "max-bandwidth", 134217728);
		add_int(o, "downtime-limit", 300);
		add_int(o, "max-postcopy-bandwidth", 0);
		add_int(o, "multifd-channels", 2);
		add_int(o, "cpu-throttle-initial", 20);
		add_int(o, "cpu-throttle-increment", 10);
		add_int(o, "max-cpu-throttle", 99);
		if (s->version != QM_V7_2)
			add_str(o, "mode", s->mode == 1 ? "cpr-transfer" :
			    s->mode == 2 ? "cpr-exec" : "normal");
	} else if (strcmp(c->name, "query-memory-size-summary") == 0) {
		add_int(o, "base-memory", 134217728);
		add_int(o, "plugged-memory", 0);
	} else if (strcmp(c->name, "query-kvm") == 0) {
		json_object_object_add(o, "enabled",
		    json_object_new_boolean(0));
		json_object_object_add(o, "present",
		    json_object_new_boolean(1));
	} else if (strcmp(c->name, "qom-get") == 0) {
		json_object_put(o);
		return json_object_new_string(strcmp(c->path, "/machine") ==
		    0 ? mtype[s->version] : "qemu64-x86_64-cpu");
	} else if (strcmp(c->name, "query-cpus-fast") == 0) {
		json_object_put(o);
		o = json_object_new_array();
		e = json_object_new_object();
		add_int(e, "cpu-index", 0);
		add_str(e, "qom-path", "/machine/unattached/device[0]");
		add_str(e, "target", "x86_64");
		add_int(e, "thread-id", 1);
		json_object_array_add(o, e);
	} else if (strcmp(c->name, "query-uuid") == 0)
		add_str(o, "UUID", "00000000-0000-0000-0000-000000000000");
	else if (strcmp(c->name, "qom-list") == 0) {
		json_object_put(o);
		o = json_object_new_array();
		e = json_object_new_object();
		add_str(e, "name", "type");
		add_str(e, "type", "string");
		json_object_array_add(o, e);
	} else if (strcmp(c->name, "query-block") == 0 ||
	    strcmp(c->name, "query-named-block-nodes") == 0 ||
	    strcmp(c->name, "query-blockstats") == 0 ||
	    strcmp(c->name, "query-jobs") == 0) {
		json_object_put(o);
		o = json_object_new_array();
	} else if (strcmp(c->name, "query-version") == 0) {
		q = json_object_new_object();
		add_int(q, "major", ver[s->version][0]);
		add_int(q, "minor", ver[s->version][1]);
		add_int(q, "micro", ver[s->version][2]);
		json_object_object_add(o, "qemu", q);
		add_str(o, "package", "model");
	} else if (strcmp(c->name, "query-dirty-rate") == 0)
		add_str(o, "status", "unstarted");
	return o;
}

static struct json_object *
return_value(const struct qm_state *s, const struct qm_cmd *c)
{
	struct json_object	*o, *e;
	int			 j;

	if (strcmp(c->name, "query-migrate") == 0)
		return migrate_info(s);
	if (strcmp(c->name, "query-status") == 0) {
		o = json_object_new_object();
		json_object_object_add(o, "status", json_object_new_string(
		    qm_runstate_name(s->runstate)));
		json_object_object_add(o, "running", json_object_new_boolean(
		    s->runstate == QM_RS_RUNNING));
		return o;
	}
	if (strcmp(c->name, "query-block-jobs") == 0) {
		o = json_object_new_array();
		for (j = 0; j < s->njobs; j++) {
			if (s->jobs[j].status == QM_JOB_NULL)
				continue;
			e = json_object_new_object();
			json_object_object_add(e, "device",
			    json_object_new_string(s->jobs[j].id));
			json_object_object_add(e, "type",
			    json_object_new_string("mirror"));
			json_object_object_add(e, "status",
			    json_object_new_string(qm_job_status_name(
			    s->jobs[j].status)));
			json_object_object_add(e, "ready",
			    json_object_new_boolean(s->jobs[j].status ==
			    QM_JOB_READY));
			json_object_array_add(o, e);
		}
		return o;
	}
	return static_answer(s, c);
}

struct json_object *
qm_answer_json(const struct qm_state *s, const struct qm_cmd *c, int refusal)
{
	struct json_object	*o = json_object_new_object(), *err;

	if (refusal >= 0) {
		err = json_object_new_object();
		json_object_object_add(err, "class",
		    json_object_new_string("GenericError"));
		json_object_object_add(err, "desc", json_object_new_string(
		    qm_refusals[refusal].desc[0] != '\0' ?
		    qm_refusals[refusal].desc : "refused"));
		json_object_object_add(o, "error", err);
	} else if (!qm_cmd_known(c->name)) {
		err = json_object_new_object();
		json_object_object_add(err, "class",
		    json_object_new_string("CommandNotFound"));
		json_object_object_add(err, "desc",
		    json_object_new_string("The command has not been found"));
		json_object_object_add(o, "error", err);
	} else
		json_object_object_add(o, "return", return_value(s, c));
	if (c->id[0] != '\0')
		json_object_object_add(o, "id", json_object_new_string(c->id));
	return o;
}

char *
qm_answer(const struct qm_state *s, const struct qm_cmd *c, int refusal)
{
	struct json_object	*o = qm_answer_json(s, c, refusal);
	char			*line;

	line = strdup(json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return line;
}

/* ---- events as QEMU writes them -------------------------------------- */

static const char *
event_name(const struct qm_event *e)
{
	switch (e->kind) {
	case QM_EV_MIGRATION:		return "MIGRATION";
	case QM_EV_STOP:		return "STOP";
	case QM_EV_RESUME:		return "RESUME";
	case QM_EV_SHUTDOWN:		return "SHUTDOWN";
	case QM_EV_JOB_STATUS:		return "JOB_STATUS_CHANGE";
	case QM_EV_JOB_READY:		return "BLOCK_JOB_READY";
	case QM_EV_JOB_DONE:		return "BLOCK_JOB_COMPLETED";
	case QM_EV_JOB_CANCELLED:	return "BLOCK_JOB_CANCELLED";
	case QM_EV_EXPORT_DELETED:	return "BLOCK_EXPORT_DELETED";
	case QM_EV_JOB_ERROR:		return "BLOCK_JOB_ERROR";
	}
	return "?";
}

int
qm_event_modelled(const char *name)
{
	static const char *const names[] = { "MIGRATION", "STOP", "RESUME",
	    "SHUTDOWN", "JOB_STATUS_CHANGE", "BLOCK_JOB_READY",
	    "BLOCK_JOB_COMPLETED", "BLOCK_JOB_CANCELLED",
	    "BLOCK_EXPORT_DELETED", "BLOCK_JOB_ERROR", NULL };
	size_t	 i;

	for (i = 0; names[i] != NULL; i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	return 0;
}

char *
qm_event_line(const struct qm_state *s, const struct qm_event *e,
    double now)
{
	struct json_object	*o = json_object_new_object(), *ts, *d;
	const char		*id;
	char			*line;

	ts = json_object_new_object();
	json_object_object_add(ts, "seconds",
	    json_object_new_int64((int64_t)floor(now)));
	json_object_object_add(ts, "microseconds", json_object_new_int64(
	    (int64_t)((now - floor(now)) * 1e6)));
	json_object_object_add(o, "timestamp", ts);
	json_object_object_add(o, "event",
	    json_object_new_string(event_name(e)));
	d = json_object_new_object();
	id = e->job >= 0 && e->job < s->njobs ? s->jobs[e->job].id : "";
	switch (e->kind) {
	case QM_EV_MIGRATION:
		json_object_object_add(d, "status", json_object_new_string(
		    qm_status_name(e->arg)));
		break;
	case QM_EV_SHUTDOWN:
		json_object_object_add(d, "guest",
		    json_object_new_boolean(0));
		json_object_object_add(d, "reason",
		    json_object_new_string("host-qmp-quit"));
		break;
	case QM_EV_JOB_STATUS:
		json_object_object_add(d, "id", json_object_new_string(id));
		json_object_object_add(d, "status", json_object_new_string(
		    qm_job_status_name(e->arg)));
		break;
	case QM_EV_JOB_READY:
	case QM_EV_JOB_DONE:
	case QM_EV_JOB_CANCELLED:
	case QM_EV_JOB_ERROR:
		json_object_object_add(d, "device", json_object_new_string(id));
		json_object_object_add(d, "type",
		    json_object_new_string("mirror"));
		break;
	case QM_EV_EXPORT_DELETED:
		json_object_object_add(d, "id", json_object_new_string(
		    e->job >= 0 && e->job < s->nexports ? s->exports[e->job] :
		    ""));
		break;
	default:
		json_object_put(d);
		d = NULL;
	}
	if (d != NULL)
		json_object_object_add(o, "data", d);
	line = strdup(json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return line;
}

int
qm_event_is(const struct qm_state *s, const struct qm_event *e,
    const void *json_event)
{
	struct json_object	*o = (struct json_object *)json_event, *d = NULL;
	const char		*name, *v, *id;

	name = str_member(o, "event");
	if (name == NULL || strcmp(name, event_name(e)) != 0)
		return 0;
	(void)json_object_object_get_ex(o, "data", &d);
	id = e->job >= 0 && e->job < s->njobs ? s->jobs[e->job].id : "";
	switch (e->kind) {
	case QM_EV_MIGRATION:
		v = str_member(d, "status");
		return v != NULL && strcmp(v, qm_status_name(e->arg)) == 0;
	case QM_EV_JOB_STATUS:
		v = str_member(d, "status");
		return v != NULL && strcmp(v, qm_job_status_name(e->arg)) ==
		    0 && (v = str_member(d, "id")) != NULL &&
		    strcmp(v, id) == 0;
	case QM_EV_JOB_READY:
	case QM_EV_JOB_DONE:
	case QM_EV_JOB_CANCELLED:
	case QM_EV_JOB_ERROR:
		v = str_member(d, "device");
		return v != NULL && strcmp(v, id) == 0;
	case QM_EV_EXPORT_DELETED:
		v = str_member(d, "id");
		return v != NULL && e->job >= 0 && e->job < s->nexports &&
		    strcmp(v, s->exports[e->job]) == 0;
	default:
		return 1;
	}
}
