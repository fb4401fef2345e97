/*
 * status.c: the migration's status document, the one truth a node agent
 * reads.  Every part of a session updates it through the functions here
 * (struct status is private to this file) and calls status_changed();
 * this file writes it atomically to --status-file and emits the --events
 * JSON lines.  The exit status is derived here too.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <json-c/printbuf.h>

#include "qmigrate.h"
#include "ctl.h"
#include "mig-info.h"
#include "world.h"

/* QEMU's figures, the document's progress. */
struct mig_progress {
	double		elapsed;		/* s since migrate, at the sample */
	char		qemu_status[32];
	uint64_t	data_total;
	uint64_t	data_processed;
	uint64_t	data_remaining;
	double		bandwidth;		/* bytes/s */
	double		dirty_rate;		/* bytes/s */
	uint64_t	iteration;
	uint64_t	expected_downtime_ms;
	uint64_t	downtime_ms;
	int		has_downtime;		/* downtime_ms known */
	int		throttle_pct;
	int		has_dirty_limit;	/* dirty-limit throttles */
	uint64_t	dirty_limit_throttle_us;
	uint64_t	dirty_limit_ring_full_us;
	uint64_t	postcopy_requests;
	uint64_t	total_time_ms;
	struct json_object *disks;	/* owned: mirror jobs, or NULL */
};

/* One side's place, as KubeVirt's migrationState names it. */
struct status_place {
	char			*node;		/* sourceNode, targetNode */
	char			*pod;		/* sourcePod, targetPod */
};

/* Private: the rest of qmigrate goes through the functions below. */
struct status {
	char			 uid[40];
	const char		*role;		/* source, target or evict */
	enum mig_phase		 phase;
	enum mig_mode		 mode;
	double			 start;		/* realtime */
	double			 end;
	char			*source;
	char			*target;
	struct status_place	 place[2];	/* by enum status_side */
	char			*target_address; /* targetNodeAddress */
	char			*evacuation_node; /* EvictionRequested */
	enum mig_failure	 failure;
	char			*failure_reason;
	int			 abort_requested;
	enum abort_status	 abort_status;
	char			*policy_name;
	char			*controller;
	struct json_object	*configuration;	/* owned; its texts kept
						   (config_node()) */
	struct json_object	*conditions;	/* owned: pre-flight's, or NULL */
	struct json_object	*eviction;	/* owned: evict's record, or NULL */
	struct json_object	*notes;		/* owned array of strings */
	struct json_object	*decisions;	/* owned array */
	struct json_object	*switchover;	/* owned: the last answer to
						   `qmigrate switchover`, or
						   NULL */
	struct mig_progress	 progress;
	struct json_object	*phase_times;	/* owned: one {phase, time} per
						   phase entered, in order */
	char			*vmim_name;	/* --vmim's metadata, or NULL */
	char			*vmim_namespace;
	int			 uid_from_vmim;	/* uid is --vmim's metadata.uid */

	char			*file;		/* --status-file, or NULL */
	int			 events;	/* --events: JSON lines */
	int			 write_failed;	/* logged once */
	int			 held;		/* status_hold() depth */
	int			 file_kept;	/* never write the file */
	struct json_object	*pending;	/* held: [event, document]... */
};

static char	*status_lost_notice(unsigned long lost, const char *stream);

static const char *phase_names[] = {
	"Pending", "PreparingTarget", "TargetReady", "Running", "Succeeded",
	"Failed", "HandedOver",
};
static const char *mode_names[] = { "PreCopy", "PostCopy", "Paused",
	"CprTransfer", "CprExec" };
static const char *abort_names[] = { NULL, "Aborting", "Succeeded",
	"Failed" };

const char *
status_phase_name(enum mig_phase phase)
{
	return phase_names[phase];
}

static const char *
status_mode_name(enum mig_mode mode)
{
	return mode_names[mode];
}

/* Whether the document is final: it has an end time and an exit code. */
static int
phase_ended(enum mig_phase phase)
{
	return phase == PHASE_SUCCEEDED || phase == PHASE_FAILED ||
	    phase == PHASE_HANDED_OVER;
}

/* A random RFC 4122 version 4 uid, from the kernel's generator. */
static void
make_uid(char *out, size_t len)
{
	unsigned char	b[16];

	if (world->random_bytes(b, sizeof b) != 0)
		fatalx("cannot read /dev/urandom for the migration uid");
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	snprintf(out, len, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
	    "%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3], b[4], b[5],
	    b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

/*
 * Records that phase was entered at when (KubeVirt's
 * phaseTransitionTimestamps): in order, one entry per phase, the first
 * time it is entered (as KubeVirt's controller records them).
 */
static void
phase_time_add(struct status *st, enum mig_phase phase, double when)
{
	json_object	*t;
	const char	*had;
	char		*ts;
	size_t		 i;

	for (i = 0; i < json_object_array_length(st->phase_times); i++) {
		had = json_str_at(json_object_array_get_idx(st->phase_times, i),
		    "phase");
		if (had != NULL && strcmp(had, phase_names[phase]) == 0)
			return;
	}
	t = json_object_new_object();
	ts = format_rfc3339(when);

	json_object_object_add(t, "phase",
	    json_object_new_string(phase_names[phase]));
	json_object_object_add(t, "phaseTransitionTimestamp",
	    json_object_new_string(ts));
	free(ts);
	json_object_array_add(st->phase_times, t);
}

/*
 * A new status for role ("source", "target", "evict": a static string),
 * written to file (copied; NULL for none) and as event lines when events
 * is set.  The caller frees it with status_free().
 */
struct status *
status_create(const char *role, const char *file, int events)
{
	struct status *st = xcalloc(1, sizeof *st);

	make_uid(st->uid, sizeof st->uid);
	st->role = role;
	st->phase = PHASE_PENDING;
	st->mode = MODE_PRECOPY;
	st->start = now_realtime();
	st->file = file != NULL ? xstrdup(file) : NULL;
	st->events = events;
	if (events)
		out_set_notice(OUT_STDOUT, status_lost_notice);
	st->notes = json_object_new_array();
	st->decisions = json_object_new_array();
	st->phase_times = json_object_new_array();
	phase_time_add(st, st->phase, st->start);
	strcpy(st->progress.qemu_status, "none");
	return st;
}

/* Frees st and everything it holds; NULL is nothing. */
void
status_free(struct status *st)
{
	size_t i;

	if (st == NULL)
		return;
	for (i = 0; i < NITEMS(st->place); i++) {
		free(st->place[i].node);
		free(st->place[i].pod);
	}
	free(st->source);
	free(st->target);
	free(st->target_address);
	free(st->evacuation_node);
	free(st->failure_reason);
	free(st->policy_name);
	free(st->controller);
	free(st->file);
	json_object_put(st->configuration);
	json_object_put(st->conditions);
	json_object_put(st->eviction);
	json_object_put(st->notes);
	json_object_put(st->decisions);
	json_object_put(st->switchover);
	json_object_put(st->phase_times);
	free(st->vmim_name);
	free(st->vmim_namespace);
	json_object_put(st->progress.disks);
	json_object_put(st->pending);
	free(st);
}

const char *
status_role(const struct status *st)
{
	return st->role;
}

/* The migrationUid: generated, the VMIM's, the offer's or restored. */
const char *
status_uid(const struct status *st)
{
	return st->uid;
}

/*
 * Whether a source's offer naming uid may be this migration: any uid
 * while this one is generated, only the same once it is --vmim's.
 */
int
status_uid_accepts(const struct status *st, const char *uid)
{
	return !st->uid_from_vmim || strcmp(uid, st->uid) == 0;
}

enum mig_phase
status_phase(const struct status *st)
{
	return st->phase;
}

/*
 * The failure recorded so far (the first), FAIL_NONE when none; *reason
 * (when reason is not NULL) why, borrowed, or NULL.
 */
enum mig_failure
status_failure(const struct status *st, const char **reason)
{
	if (reason != NULL)
		*reason = st->failure_reason;
	return st->failure;
}

/* Where side runs, as far as known: *node and *pod borrowed, or NULL. */
void
status_side(const struct status *st, enum status_side side,
    const char **node, const char **pod)
{
	*node = st->place[side].node;
	*pod = st->place[side].pod;
}

/* Replaces *slot with a copy of value; NULL leaves it as it was. */
static void
set_str(char **slot, const char *value)
{
	if (value == NULL)
		return;
	free(*slot);
	*slot = xstrdup(value);
}

/* Replaces *slot with value (a reference taken over); NULL leaves it. */
static void
set_json(json_object **slot, json_object *value)
{
	if (value == NULL)
		return;
	json_object_put(*slot);
	*slot = value;
}

/* The migrationUid (a source's offer names it); "" leaves it as it was. */
void
status_set_uid(struct status *st, const char *uid)
{
	if (uid != NULL && *uid != '\0')
		snprintf(st->uid, sizeof st->uid, "%s", uid);
}

/*
 * Names the migration as its VMIM does (--vmim): the uid becomes the
 * VMIM's metadata.uid, the name and namespace go in the document
 * (migrationName, migrationNamespace; NULL leaves one as it was).
 */
void
status_set_vmim(struct status *st, const char *uid, const char *name,
    const char *namespace)
{
	status_set_uid(st, uid);
	st->uid_from_vmim = 1;
	set_str(&st->vmim_name, name);
	set_str(&st->vmim_namespace, namespace);
}

/* The two ends the user named (source, target); NULL leaves one as it was. */
void
status_set_ends(struct status *st, const char *source, const char *target)
{
	set_str(&st->source, source);
	set_str(&st->target, target);
}

/*
 * Where side runs: its node and pod, as KubeVirt's migrationState names
 * them (each side names itself, the other learns it over tls:); NULL or
 * "" leaves one as it was.
 */
void
status_set_side(struct status *st, enum status_side side, const char *node,
    const char *pod)
{
	if (node != NULL && *node != '\0')
		set_str(&st->place[side].node, node);
	if (pod != NULL && *pod != '\0')
		set_str(&st->place[side].pod, pod);
}

/* targetNodeAddress: the host the stream goes to; NULL leaves it. */
void
status_set_target_address(struct status *st, const char *address)
{
	set_str(&st->target_address, address);
}

/*
 * An eviction: the node being evacuated (evacuationNodeName and the
 * EvictionRequested condition) and evict's record (borrowed: the status
 * takes a reference); NULL leaves either as it was.
 */
void
status_set_eviction(struct status *st, const char *node,
    json_object *record)
{
	set_str(&st->evacuation_node, node);
	set_json(&st->eviction, json_object_get(record));
}

/* The pre-flight's conditions (taken over); NULL leaves them. */
void
status_set_conditions(struct status *st, json_object *conditions)
{
	set_json(&st->conditions, conditions);
}

/*
 * The effective settings: the policy that gave them (migrationPolicyName;
 * NULL for KubeVirt's defaults), the convergence controller's name and
 * migrationConfiguration (taken over), which status_configure() completes.
 */
void
status_set_configuration(struct status *st, const char *policy,
    const char *controller, json_object *configuration)
{
	set_str(&st->policy_name, policy);
	set_str(&st->controller, controller);
	set_json(&st->configuration, configuration);
}

/*
 * Adds key to migrationConfiguration (value taken over): what was agreed
 * with QEMU and the peer once the setup knows it.
 */
void
status_configure(struct status *st, const char *key, json_object *value)
{
	if (st->configuration == NULL)
		st->configuration = json_object_new_object();
	json_object_object_add(st->configuration, key, value);
	json_object_set_userdata(st->configuration, NULL, NULL); /* texts */
}

/* The mirror jobs' figures in progress.disks (taken over). */
void
status_set_disks(struct status *st, json_object *disks)
{
	set_json(&st->progress.disks, disks);
}

/* Enters phase (stamped in phaseTransitionTimestamps) and publishes. */
void
status_set_phase(struct status *st, enum mig_phase phase)
{
	double	 now = now_realtime();

	if (st->phase == phase)
		return;
	st->phase = phase;
	if (phase_ended(phase))
		st->end = now;
	phase_time_add(st, phase, now);
	status_changed(st, "phase");
}

void
status_set_mode(struct status *st, enum mig_mode mode)
{
	if (st->mode == mode)
		return;
	st->mode = mode;
	status_changed(st, "mode");
}

/* Records a remark an operator must see, such as a dropped capability. */
void
status_note(struct status *st, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	log_warnx("%s", msg);
	json_object_array_add(st->notes, json_object_new_string(msg));
	free(msg);
}

static void
status_vrecord(struct status *st, enum mig_failure failure, const char *fmt,
    va_list ap)
{
	st->failure = failure;
	xvasprintf(&st->failure_reason, fmt, ap);
}

/*
 * Records why the migration will fail without ending it yet (an abort
 * waits for QEMU to cancel).  The first failure wins: later ones are
 * consequences of it.
 */
void
status_record_failure(struct status *st, enum mig_failure failure,
    const char *fmt, ...)
{
	va_list ap;

	if (st->failure != FAIL_NONE)
		return;
	va_start(ap, fmt);
	status_vrecord(st, failure, fmt, ap);
	va_end(ap);
}

/* The failed plane ("control", "data", "unknown"); NULL: none failed
 * (or the migration was aborted). */
static const char *
status_plane(const struct status *st)
{
	return mig_failure_plane(st->failure);
}

/* Records the failure (the first wins) and ends the migration as Failed. */
void
status_fail(struct status *st, enum mig_failure failure, const char *fmt, ...)
{
	va_list		 ap;
	const char	*plane;

	if (st->failure == FAIL_NONE) {
		va_start(ap, fmt);
		status_vrecord(st, failure, fmt, ap);
		va_end(ap);
		plane = status_plane(st);
		log_warnx("migration failed%s%s%s: %s", plane ? " (" : "",
		    plane ? plane : "", plane ? " plane)" : "",
		    st->failure_reason);
	}
	status_set_phase(st, PHASE_FAILED);
}

/*
 * Appends a decision to the document's decisions: when (now and t, seconds
 * since the start), the action, its reason, who asked for it (by:
 * "controller", "timeout" or "operator") and, given a sample s (may be
 * NULL), the figures it was taken on.
 */
void
status_decision(struct status *st, double t, const char *action,
    const char *reason, const char *by, const struct ctl_sample *s)
{
	json_object	*d = json_object_new_object(), *f;
	char		*ts = format_rfc3339(now_realtime());

	json_object_object_add(d, "time", json_object_new_string(ts));
	json_object_object_add(d, "elapsedSeconds", json_object_new_double(t));
	json_object_object_add(d, "action", json_object_new_string(action));
	json_object_object_add(d, "reason", json_object_new_string(reason));
	json_object_object_add(d, "requestedBy", json_object_new_string(by));
	if (s != NULL) {
		f = json_object_new_object();
		json_object_object_add(f, "iteration",
		    json_object_new_uint64(s->pass));
		json_object_object_add(f, "dataRemaining",
		    json_object_new_uint64(s->remaining));
		json_object_object_add(f, "dirtyRate",
		    json_object_new_double(s->dirty_rate));
		json_object_object_add(f, "bandwidth",
		    json_object_new_double(s->bandwidth));
		json_object_object_add(f, "expectedDowntimeMs",
		    json_object_new_uint64(s->expected_downtime_ms));
		json_object_object_add(f, "throttlePercentage",
		    json_object_new_int(s->throttle_pct));
		json_object_object_add(d, "figures", f);
	}
	free(ts);
	if (strcmp(by, "controller") == 0)
		log_info("decision: %s: %s", action, reason);
	else
		log_info("decision: %s (asked by the %s): %s", action, by,
		    reason);
	json_object_array_add(st->decisions, d);
	status_changed(st, "decision");
}

/* failurePlane for a failure: control, data, unknown, or NULL. */
const char *
mig_failure_plane(enum mig_failure failure)
{
	switch (failure) {
	case FAIL_NOT_MIGRATABLE:
	case FAIL_CONTROL:
		return "control";
	case FAIL_DATA:
	case FAIL_POSTCOPY_LOST:
		return "data";
	case FAIL_UNKNOWN:
		return "unknown";
	case FAIL_ABORTED:
	case FAIL_NONE:
		break;
	}
	return NULL;
}

/* The exit status of README's table, for a failure and the phase. */
int
mig_exit_code(enum mig_failure failure, enum mig_phase phase)
{
	switch (failure) {
	case FAIL_NONE:
		if (phase == PHASE_HANDED_OVER)
			return QM_EXIT_EXTERNAL;
		return phase == PHASE_SUCCEEDED ? QM_EXIT_OK :
		    QM_EXIT_CONTROL;
	case FAIL_NOT_MIGRATABLE:
		return QM_EXIT_NOT_MIGRATABLE;
	case FAIL_CONTROL:
		return QM_EXIT_CONTROL;
	case FAIL_DATA:
		return QM_EXIT_DATA;
	case FAIL_ABORTED:
		return QM_EXIT_ABORTED;
	case FAIL_POSTCOPY_LOST:
		return QM_EXIT_POSTCOPY_LOST;
	case FAIL_UNKNOWN:
		return QM_EXIT_UNKNOWN;
	}
	return QM_EXIT_CONTROL;
}

/* The exit status the document means (README's table, one place). */
int
status_exit_code(const struct status *st)
{
	return mig_exit_code(st->failure, st->phase);
}

static void
add_str(json_object *o, const char *key, const char *value)
{
	if (value != NULL)
		json_object_object_add(o, key, json_object_new_string(value));
}

static void
add_time(json_object *o, const char *key, double when)
{
	char *ts;

	if (when == 0)
		return;
	ts = format_rfc3339(when);
	json_object_object_add(o, key, json_object_new_string(ts));
	free(ts);
}

/*
 * The answer to `qmigrate switchover` request id: status "Refused"
 * (reason: why), "Accepted" (carried out on the next sample) or "Started"
 * (reason: the decision); finish "postcopy" or "pause" (NULL: not known).
 * The document's switchoverRequest; the asker polls it for its id.
 */
void
status_switchover(struct status *st, const char *id, const char *finish,
    const char *answer, const char *reason)
{
	json_object *o = json_object_new_object();

	add_str(o, "requestId", id);
	add_str(o, "finish", finish);
	add_str(o, "status", answer);
	add_str(o, "reason", reason);
	json_object_put(st->switchover);
	st->switchover = o;
}

static json_object *
progress_to_json(const struct mig_progress *p)
{
	json_object *o = json_object_new_object();

	add_str(o, "qemuStatus", p->qemu_status);
	json_object_object_add(o, "elapsedSeconds",
	    json_object_new_double(round(p->elapsed * 1000) / 1000));
	json_object_object_add(o, "dataTotal",
	    json_object_new_uint64(p->data_total));
	json_object_object_add(o, "dataProcessed",
	    json_object_new_uint64(p->data_processed));
	json_object_object_add(o, "dataRemaining",
	    json_object_new_uint64(p->data_remaining));
	json_object_object_add(o, "bandwidth",
	    json_object_new_double(p->bandwidth));
	json_object_object_add(o, "dirtyRate",
	    json_object_new_double(p->dirty_rate));
	json_object_object_add(o, "iteration",
	    json_object_new_uint64(p->iteration));
	json_object_object_add(o, "expectedDowntimeMs",
	    json_object_new_uint64(p->expected_downtime_ms));
	/* Absent until known: a 0 would be a pause of 0 ms. */
	if (p->has_downtime)
		json_object_object_add(o, "downtimeMs",
		    json_object_new_uint64(p->downtime_ms));
	json_object_object_add(o, "throttlePercentage",
	    json_object_new_int(p->throttle_pct));
	if (p->has_dirty_limit) {
		json_object_object_add(o, "dirtyLimitThrottleUsPerRound",
		    json_object_new_uint64(p->dirty_limit_throttle_us));
		json_object_object_add(o, "dirtyLimitRingFullUs",
		    json_object_new_uint64(p->dirty_limit_ring_full_us));
	}
	json_object_object_add(o, "postCopyRequests",
	    json_object_new_uint64(p->postcopy_requests));
	json_object_object_add(o, "totalTimeMs",
	    json_object_new_uint64(p->total_time_ms));
	if (p->disks != NULL)
		json_object_object_add(o, "disks",
		    json_object_get(p->disks));
	return o;
}

/*
 * The conditions, KubeVirt's: the pre-flight's (LiveMigratable,
 * StorageLiveMigratable) and, during an eviction, EvictionRequested.
 * Returns a new reference.
 */
static json_object *
status_conditions(const struct status *st)
{
	json_object	*a = json_object_new_array(), *c;
	char		*msg;
	size_t		 i;

	for (i = 0; st->conditions != NULL &&
	    i < json_object_array_length(st->conditions); i++)
		json_object_array_add(a, json_object_get(
		    json_object_array_get_idx(st->conditions, i)));
	if (st->evacuation_node != NULL) {
		c = json_object_new_object();
		add_str(c, "type", "EvictionRequested");
		add_str(c, "status", "True");
		add_str(c, "reason", "EvictionRequested");
		xasprintf(&msg, "node %s is being evacuated",
		    st->evacuation_node);
		add_str(c, "message", msg);
		free(msg);
		json_object_array_add(a, c);
	}
	return a;
}

/*
 * "outputLinesLost": {"stdout": N, "stderr": M}, only once a reader of
 * stdout (--events) or stderr (the log) lost lines (output.c).
 */
static void
status_lines_lost(json_object *o)
{
	unsigned long	 events = out_lost(OUT_STDOUT);
	unsigned long	 logs = out_lost(OUT_STDERR);
	json_object	*lost;

	if (events == 0 && logs == 0)
		return;
	lost = json_object_new_object();
	json_object_object_add(lost, "stdout",
	    json_object_new_int64((int64_t)events));
	json_object_object_add(lost, "stderr",
	    json_object_new_int64((int64_t)logs));
	json_object_object_add(o, "outputLinesLost", lost);
}

/*
 * This process's start time (pidStartTime, for qmigrate abort), read from
 * /proc once per pid: it never changes while the process lives, and a
 * document is made at every change (a fork, a new pid, reads it again).
 */
static int
own_start_time(pid_t pid, unsigned long long *ticks)
{
	static pid_t			 known;
	static unsigned long long	 started;

	if (known != pid) {
		if (proc_start_time(pid, &started) != 0)
			return -1;
		known = pid;
	}
	*ticks = started;
	return 0;
}

/*
 * migrationConfiguration's texts.  The setup writes the configuration and
 * then leaves it alone, while the document is rendered at every change
 * (each progress sample, again for --events), and the configuration is
 * most of it: its text is made once per rendering (json-c's flags and
 * depth) and kept as the configuration's userdata, which
 * status_configure() drops (a new configuration has none).
 */
#define CONFIG_TEXTS	4

struct config_texts {
	struct config_text {
		int	 flags, level;
		char	*text;
		size_t	 len;
	}	 t[CONFIG_TEXTS];
	size_t	 n;
};

static void
config_texts_free(json_object *cfg, void *arg)
{
	struct config_texts	*c = arg;
	size_t			 i;

	(void)cfg;
	for (i = 0; i < c->n; i++)
		free(c->t[i].text);
	free(c);
}

/*
 * cfg as json-c writes it level deep: its own text, each line after the
 * first indented level steps more (json-c indents only after a newline:
 * strings hold theirs escaped).
 */
static void
config_text_make(json_object *cfg, struct config_text *t)
{
	char		 unit = t->flags & JSON_C_TO_STRING_PRETTY_TAB ? '\t' :
			    ' ';
	size_t		 pad = (size_t)t->level * (unit == '\t' ? 1 : 2);
	size_t		 len, lines = 0, i;
	const char	*s = json_object_to_json_string_length(cfg, t->flags,
			    &len);

	for (i = 0; i < len; i++)
		lines += s[i] == '\n';
	t->text = xmalloc(len + lines * pad + 1);
	for (i = 0, t->len = 0; i < len; i++) {
		t->text[t->len++] = s[i];
		if (s[i] == '\n') {
			memset(t->text + t->len, unit, pad);
			t->len += pad;
		}
	}
	t->text[t->len] = '\0';
}

/* The document's migrationConfiguration node's json-c serializer. */
static int
config_serialize(json_object *node, struct printbuf *pb, int level,
    int flags)
{
	json_object		*cfg = json_object_get_userdata(node);
	struct config_texts	*c = json_object_get_userdata(cfg);
	size_t			 i;

	if (!(flags & JSON_C_TO_STRING_PRETTY))
		level = 0;		/* one line at any depth */
	if (c == NULL) {
		c = xcalloc(1, sizeof *c);
		json_object_set_userdata(cfg, c, config_texts_free);
	}
	for (i = 0; i < c->n; i++)
		if (c->t[i].flags == flags && c->t[i].level == level)
			break;
	if (i == c->n) {
		if (i == CONFIG_TEXTS)
			free(c->t[--i].text);
		else
			c->n++;
		c->t[i].flags = flags;
		c->t[i].level = level;
		config_text_make(cfg, &c->t[i]);
	}
	return printbuf_memappend(pb, c->t[i].text, (int)c->t[i].len);
}

static void
config_node_free(json_object *node, void *cfg)
{
	(void)node;
	json_object_put(cfg);
}

/* A node that writes cfg's kept text (an empty object to a reader). */
static json_object *
config_node(json_object *cfg)
{
	json_object *node = json_object_new_object();

	json_object_set_serializer(node, config_serialize,
	    json_object_get(cfg), config_node_free);
	return node;
}

/*
 * A new document (the caller puts it); what is written (texts) has its
 * migrationConfiguration as config_node()'s, which only renders.
 */
static json_object *
status_doc(const struct status *st, int texts)
{
	json_object		*o = json_object_new_object();
	unsigned long long	 started;
	pid_t			 pid = getpid();

	add_str(o, "migrationUid", st->uid);
	add_str(o, "role", st->role);
	json_object_object_add(o, "pid", json_object_new_int(pid));
	if (own_start_time(pid, &started) == 0)
		json_object_object_add(o, "pidStartTime",
		    json_object_new_uint64(started));
	add_str(o, "phase", status_phase_name(st->phase));
	add_str(o, "mode", status_mode_name(st->mode));
	json_object_object_add(o, "phaseTransitionTimestamps",
	    json_object_get(st->phase_times));
	add_str(o, "migrationName", st->vmim_name);
	add_str(o, "migrationNamespace", st->vmim_namespace);
	add_time(o, "startTimestamp", st->start);
	add_time(o, "endTimestamp", st->end);
	add_str(o, "source", st->source);
	add_str(o, "target", st->target);
	add_str(o, "sourceNode", st->place[STATUS_SOURCE].node);
	add_str(o, "sourcePod", st->place[STATUS_SOURCE].pod);
	add_str(o, "targetNode", st->place[STATUS_TARGET].node);
	add_str(o, "targetPod", st->place[STATUS_TARGET].pod);
	add_str(o, "targetNodeAddress", st->target_address);
	json_object_object_add(o, "completed",
	    json_object_new_boolean(st->phase == PHASE_SUCCEEDED));
	json_object_object_add(o, "failed",
	    json_object_new_boolean(st->phase == PHASE_FAILED));
	add_str(o, "failureReason", st->failure_reason);
	add_str(o, "failurePlane", status_plane(st));
	json_object_object_add(o, "abortRequested",
	    json_object_new_boolean(st->abort_requested));
	add_str(o, "abortStatus", abort_names[st->abort_status]);
	add_str(o, "migrationPolicyName", st->policy_name);
	add_str(o, "controller", st->controller);
	if (st->configuration != NULL)
		json_object_object_add(o, "migrationConfiguration", texts ?
		    config_node(st->configuration) :
		    json_object_get(st->configuration));
	if (st->conditions != NULL || st->evacuation_node != NULL)
		json_object_object_add(o, "conditions",
		    status_conditions(st));
	if (st->evacuation_node != NULL)
		add_str(o, "evacuationNodeName", st->evacuation_node);
	if (st->eviction != NULL)
		json_object_object_add(o, "eviction",
		    json_object_get(st->eviction));
	json_object_object_add(o, "notes", json_object_get(st->notes));
	json_object_object_add(o, "progress",
	    progress_to_json(&st->progress));
	json_object_object_add(o, "decisions",
	    json_object_get(st->decisions));
	if (st->switchover != NULL)
		json_object_object_add(o, "switchoverRequest",
		    json_object_get(st->switchover));
	if (phase_ended(st->phase))
		json_object_object_add(o, "exitCode",
		    json_object_new_int(status_exit_code(st)));
	status_lines_lost(o);
	return o;
}

/* Returns a new document (the caller puts it). */
json_object *
status_to_json(const struct status *st)
{
	return status_doc(st, 0);
}

/*
 * Publishes the document: rewrites the status file (a full disk is logged
 * once and the migration goes on: the file is a report, not a control) and
 * emits one event line when --events is on.
 */
static void	publish(struct status *, const char *event, json_object *doc,
		    int write_file);

/*
 * The document changed for event ("phase", "progress", ...): written
 * to the file and as an event line now, or kept in order while the
 * status is held (status_hold()).
 */
void
status_changed(struct status *st, const char *event)
{
	json_object *doc = status_doc(st, 1);

	if (st->held > 0) {
		json_object_array_add(st->pending,
		    json_object_new_string(event));
		json_object_array_add(st->pending, doc);
		return;
	}
	publish(st, event, doc, 1);
	json_object_put(doc);
}

/*
 * The event line {"event":EVENT,"status":DOC} from the pretty text of
 * DOC the file took: json-c's plain text is its pretty text without the
 * newlines and indents it puts between tokens (a string holds its
 * newlines escaped), so the document is not rendered a second time.
 * The caller frees it.
 */
static char *
event_line_of_pretty(const char *event, const char *pretty, size_t len)
{
	json_object	*name = json_object_new_string(event);
	const char	*quoted;
	size_t		 qlen, i, n;
	char		*line;

	quoted = json_object_to_json_string_length(name,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &qlen);
	line = xmalloc(len + qlen + sizeof "{\"event\":,\"status\":}");
	n = 0;
	memcpy(line + n, "{\"event\":", 9);
	n += 9;
	memcpy(line + n, quoted, qlen);
	n += qlen;
	memcpy(line + n, ",\"status\":", 10);
	n += 10;
	json_object_put(name);
	for (i = 0; i < len; ) {
		const char	*q;
		size_t		 end, k;

		if (pretty[i] == '\n') {
			/* a line's indent: eight at a time */
			for (i++; i + 8 <= len && memcmp(pretty + i, "        ",
			    8) == 0; i += 8)
				;
			while (i < len && (pretty[i] == ' ' ||
			    pretty[i] == '\t'))
				i++;
			continue;
		}
		if (pretty[i] != '"') {
			if (pretty[i] != ' ' && pretty[i] != '\t')
				line[n++] = pretty[i];
			i++;
			continue;
		}
		/* A string, whole: to the first quote not escaped (an even
		   run of backslashes before it). */
		for (end = i + 1; ; end = (size_t)(q - pretty) + 1) {
			if ((q = memchr(pretty + end, '"', len - end)) == NULL) {
				end = len;
				break;
			}
			for (k = (size_t)(q - pretty); k > i + 1 &&
			    pretty[k - 1] == '\\'; k--)
				;
			if (((size_t)(q - pretty) - k) % 2 == 0) {
				end = (size_t)(q - pretty) + 1;
				break;
			}
		}
		memcpy(line + n, pretty + i, end - i);
		n += end - i;
		i = end;
	}
	line[n++] = '}';
	line[n] = '\0';
	return line;
}

/* Writes doc (borrowed) as an event line, and to the file if asked. */
static void
publish(struct status *st, const char *event, json_object *doc,
    int write_file)
{
	const char	*text = NULL;
	char		*cause = NULL;
	size_t		 len = 0;

	if (st->file != NULL && write_file && !st->file_kept) {
		text = json_object_to_json_string_length(doc,
		    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE,
		    &len);
		if (write_file_atomic(st->file, text, len, &cause) != 0) {
			if (!st->write_failed)
				log_warnx("status file %s: %s (the migration "
				    "goes on)", st->file, cause);
			st->write_failed = 1;
			free(cause);
		} else if (st->write_failed) {
			log_info("status file %s: writable again", st->file);
			st->write_failed = 0;
		}
	}
	if (st->events && text != NULL) {
		char *line = event_line_of_pretty(event, text, len);

		out_line(OUT_STDOUT, line);
		free(line);
	} else if (st->events) {
		json_object *line = json_object_new_object();

		add_str(line, "event", event);
		json_object_object_add(line, "status", json_object_get(doc));
		out_line(OUT_STDOUT, json_object_to_json_string_ext(line,
		    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(line);
	}
}

/*
 * The event line that stands for lines stdout's reader did not take
 * (output.c's notice): {"event": "linesLost", "lines": N, "message": ...}.
 */
static char *
status_lost_notice(unsigned long lost, const char *stream)
{
	json_object	*o = json_object_new_object();
	char		*msg, *line;

	xasprintf(&msg, "%lu event lines lost: the reader of %s did not read",
	    lost, stream);
	add_str(o, "event", "linesLost");
	json_object_object_add(o, "lines", json_object_new_int64(
	    (int64_t)lost));
	add_str(o, "message", msg);
	line = xstrdup(json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	free(msg);
	return line;
}

/*
 * The end of a run: writes the final document and prints it on stdout:
 * with --events as one more JSON line (stdout stays JSON lines), else
 * with json-c's json_flags.  The failure goes to the log as the command's
 * error line.  Returns the exit status.
 */
int
status_report(struct status *st, int json_flags)
{
	json_object	*doc;
	unsigned long	 lost;

	status_changed(st, "end");
	/* The terminal's progress line goes before the last lines. */
	out_status(NULL);
	doc = status_doc(st, 1);
	out_line(OUT_STDOUT, json_object_to_json_string_ext(doc,
	    st->events ? JSON_C_TO_STRING_PLAIN |
	    JSON_C_TO_STRING_NOSLASHESCAPE : json_flags));
	json_object_put(doc);
	if ((lost = out_lost(OUT_STDOUT)) > 0)
		log_warnx("%lu lines of stdout lost: its reader did not read "
		    "(the status file has every change)", lost);
	if (st->failure_reason != NULL)
		log_error("%s", st->failure_reason);
	return status_exit_code(st);
}

/*
 * Where the run is, for a person, on one line (SIGUSR1): "phase Running,
 * QEMU active, 43.0% of 1024 MiB, 583 MiB left, 12.3 MiB/s, dirty 3.1
 * MiB/s, pass 2, 12 s".  The caller frees it.
 */
char *
status_summary(const struct status *st)
{
	const struct mig_progress	*p = &st->progress;
	char				*line;

	if (p->data_total == 0) {
		xasprintf(&line, "phase %s, QEMU %s, %.0f s",
		    phase_names[st->phase], p->qemu_status, p->elapsed);
		return line;
	}
	xasprintf(&line, "phase %s, QEMU %s, %.1f%% of %.0f MiB, %.0f MiB "
	    "left, %.1f MiB/s, dirty %.1f MiB/s, pass %llu, %.0f s",
	    phase_names[st->phase], p->qemu_status,
	    100.0 * (double)(p->data_total - p->data_remaining) /
	    (double)p->data_total,
	    (double)p->data_total / 1048576.0,
	    (double)p->data_remaining / 1048576.0, p->bandwidth / 1048576.0,
	    p->dirty_rate / 1048576.0, (unsigned long long)p->iteration,
	    p->elapsed);
	return line;
}

/* The figures of the progress line (progress-line.c), borrowed from st. */
void
status_figures(const struct status *st, struct progress_figures *f)
{
	const struct mig_progress *p = &st->progress;

	f->phase = phase_names[st->phase];
	f->qemu_status = p->qemu_status;
	f->elapsed = p->elapsed;
	f->total = p->data_total;
	f->remaining = p->data_remaining;
	f->bandwidth = p->bandwidth;
	f->dirty_rate = p->dirty_rate;
}

/* The abort's state: abortStatus, and abortRequested in *requested. */
enum abort_status
status_abort(const struct status *st, int *requested)
{
	if (requested != NULL)
		*requested = st->abort_requested;
	return st->abort_status;
}

void
status_set_abort(struct status *st, enum abort_status abort_status)
{
	st->abort_status = abort_status;
}

/* Someone asked for the abort (a signal, `qmigrate abort`, the peer). */
void
status_set_abort_requested(struct status *st)
{
	st->abort_requested = 1;
}

/* The migration succeeded after all: an earlier failure did not happen. */
void
status_clear_failure(struct status *st)
{
	st->failure = FAIL_NONE;
	free(st->failure_reason);
	st->failure_reason = NULL;
}

/* QEMU's figures, as the last query-migrate gave them. */
void
status_set_progress(struct status *st, const struct mig_info *mi,
    double elapsed)
{
	struct mig_progress *p = &st->progress;

	p->elapsed = elapsed;
	snprintf(p->qemu_status, sizeof p->qemu_status, "%s",
	    mi->status_name);
	if (mi->has_ram) {
		p->data_total = mi->ram_total;
		p->data_processed = mi->ram_transferred;
		p->data_remaining = mi->ram_remaining;
		p->bandwidth = mig_info_bandwidth(mi);
		p->dirty_rate = mig_info_dirty_rate(mi);
		p->iteration = mi->dirty_sync_count;
		p->postcopy_requests = mi->postcopy_requests;
	}
	p->expected_downtime_ms = mi->expected_downtime_ms;
	p->throttle_pct = mi->throttle_pct;
	p->has_dirty_limit = mi->has_dirty_limit;
	p->dirty_limit_throttle_us = mi->dirty_limit_throttle_us;
	p->dirty_limit_ring_full_us = mi->dirty_limit_ring_full_us;
	/* After cpr-exec the pause is qmigrate's (status_set_downtime()):
	 * the old QEMU's figure ends before its exec. */
	if (mi->has_downtime && st->mode != MODE_CPR_EXEC) {
		p->downtime_ms = mi->downtime_ms;
		p->has_downtime = 1;
	}
	if (mi->has_total_time)
		p->total_time_ms = mi->total_time_ms;
}

/* The guest's pause as qmigrate measured it (QEMU's figure is gone). */
void
status_set_downtime(struct status *st, uint64_t ms)
{
	st->progress.downtime_ms = ms;
	st->progress.has_downtime = 1;
}

/*
 * While held (the session's step runs), changes are kept as snapshots
 * instead of written; status_release() writes the file once and emits
 * every event line in order.  Holds nest.
 */
void
status_hold(struct status *st)
{
	if (st->held++ == 0 && st->pending == NULL)
		st->pending = json_object_new_array();
}

/*
 * Ends one status_hold(); the last one writes what was kept, in order,
 * the file once, with the newest document.
 */
void
status_release(struct status *st)
{
	json_object	*pending;
	size_t		 i, n;

	if (st->held == 0 || --st->held > 0)
		return;
	pending = st->pending;
	st->pending = NULL;
	n = json_object_array_length(pending);
	for (i = 0; i + 1 < n; i += 2)
		publish(st, json_object_get_string(
		    json_object_array_get_idx(pending, i)),
		    json_object_array_get_idx(pending, i + 1), i + 2 >= n);
	json_object_put(pending);
}

/*
 * Parses a status document from a buffer (the file's bytes, or a fuzzer's).
 * Returns the object, or NULL with *cause naming what: not JSON, not an
 * object, a NUL byte in it.  what names the source in messages.
 */
json_object *
status_parse(const char *what, const char *buf, size_t len, char **cause)
{
	json_tokener	*tok;
	json_object	*doc;

	if (memchr(buf, '\0', len) != NULL) {
		xasprintf(cause, "%s: a NUL byte at offset %zu: not a status "
		    "document", what, (size_t)((const char *)memchr(buf, '\0',
		    len) - buf));
		return NULL;
	}
	tok = json_tokener_new_ex(64);
	if (tok == NULL)
		fatalx("json_tokener_new_ex failed");
	doc = json_tokener_parse_ex(tok, buf, (int)len);
	if (doc == NULL ||
	    json_tokener_get_error(tok) != json_tokener_success ||
	    (size_t)json_tokener_get_parse_end(tok) < len ||
	    !json_object_is_type(doc, json_type_object)) {
		json_object_put(doc);
		json_tokener_free(tok);
		xasprintf(cause, "%s: not a JSON object", what);
		return NULL;
	}
	json_tokener_free(tok);
	return doc;
}

/* Reads a status file written by another qmigrate (abort, re-attach). */
json_object *
status_read_file(const char *path, char **cause)
{
	json_object	*doc;
	char		*buf, *what;
	size_t		 n;
	const size_t	 limit = 4 * 1024 * 1024;

	if ((buf = world->read_file(path, limit, &n)) == NULL) {
		if (errno == EFBIG)
			xasprintf(cause, "status file %s: larger than 4 MiB",
			    path);
		else
			xasprintf(cause, "status file %s: cannot open it: %s",
			    path, strerror(errno));
		return NULL;
	}
	xasprintf(&what, "status file %s", path);
	doc = status_parse(what, buf, n, cause);
	free(what);
	free(buf);
	return doc;
}

/* A string member that must be there; NULL with *cause otherwise. */
static const char *
restore_str(json_object *doc, const char *what, const char *key,
    size_t max, char **cause)
{
	json_object *v = json_obj_at(doc, key);

	if (v == NULL || !json_object_is_type(v, json_type_string) ||
	    json_object_get_string_len(v) == 0 ||
	    (size_t)json_object_get_string_len(v) > max) {
		xasprintf(cause, "%s: \"%s\" is %s, expected a string of 1 to "
		    "%zu characters", what, key, v == NULL ? "missing" :
		    json_object_is_type(v, json_type_null) ? "null" :
		    !json_object_is_type(v, json_type_string) ?
		    "not a string" : "of the wrong length", max);
		return NULL;
	}
	return json_object_get_string(v);
}

/* An optional array member whose every item is of type t. */
static int
restore_array(json_object *doc, const char *what, const char *key,
    json_type t, json_object **out, char **cause)
{
	json_object	*v = json_obj_at(doc, key);
	size_t		 i;

	*out = NULL;
	if (v == NULL)
		return 0;
	if (!json_object_is_type(v, json_type_array))
		goto bad;
	for (i = 0; i < json_object_array_length(v); i++)
		if (!json_object_is_type(json_object_array_get_idx(v, i), t))
			goto bad;
	*out = v;
	return 0;
bad:
	xasprintf(cause, "%s: \"%s\" is not a list of %s", what, key,
	    t == json_type_string ? "strings" : "objects");
	return -1;
}

/*
 * Takes over what a killed qmigrate wrote (doc, borrowed): the migration's
 * uid, start time, mode, notes, decisions, phase transitions, and its
 * abort (abortRequested, abortStatus: an abort under way goes on), so
 * that a re-attach goes on as the same migration.  Every member is
 * checked before anything is changed: returns 0, or -1 with *cause
 * naming the file (what) and the member,
    st untouched.  *phase and *mode get the document's.
 */
int
status_restore(struct status *st, json_object *doc, const char *what,
    enum mig_phase *phase, enum mig_mode *mode, char **cause)
{
	const char	*uid, *ph, *md, *start, *ab;
	json_object	*notes, *decisions, *times, *req;
	struct tm	 tm;
	size_t		 i;
	int		 p = -1, m = -1, a = ABORT_NONE;

	if ((uid = restore_str(doc, what, "migrationUid", sizeof st->uid - 1,
	    cause)) == NULL ||
	    (ph = restore_str(doc, what, "phase", 32, cause)) == NULL ||
	    (md = restore_str(doc, what, "mode", 32, cause)) == NULL)
		return -1;
	for (i = 0; i < NITEMS(phase_names); i++)
		if (strcmp(ph, phase_names[i]) == 0)
			p = (int)i;
	for (i = 0; i < NITEMS(mode_names); i++)
		if (strcmp(md, mode_names[i]) == 0)
			m = (int)i;
	if (p < 0 || m < 0) {
		xasprintf(cause, "%s: \"%s\" has an unknown value", what,
		    p < 0 ? "phase" : "mode");
		return -1;
	}
	/* Optional: absent (no abort), else a known name. */
	if (json_obj_at(doc, "abortStatus") != NULL) {
		if ((ab = restore_str(doc, what, "abortStatus", 32,
		    cause)) == NULL)
			return -1;
		for (a = -1, i = 1; i < NITEMS(abort_names); i++)
			if (strcmp(ab, abort_names[i]) == 0)
				a = (int)i;
		if (a < 0) {
			xasprintf(cause, "%s: \"abortStatus\" has an unknown "
			    "value", what);
			return -1;
		}
	}
	req = json_obj_at(doc, "abortRequested");
	if (req != NULL && !json_object_is_type(req, json_type_boolean)) {
		xasprintf(cause, "%s: \"abortRequested\" is not a boolean",
		    what);
		return -1;
	}
	if (restore_array(doc, what, "notes", json_type_string, &notes,
	    cause) != 0 || restore_array(doc, what, "decisions",
	    json_type_object, &decisions, cause) != 0 ||
	    restore_array(doc, what, "phaseTransitionTimestamps",
	    json_type_object, &times, cause) != 0)
		return -1;
	start = json_str_at(doc, "startTimestamp");
	memset(&tm, 0, sizeof tm);
	if (start != NULL && strptime(start, "%Y-%m-%dT%H:%M:%S", &tm) != NULL)
		st->start = (double)timegm(&tm);
	snprintf(st->uid, sizeof st->uid, "%s", uid);
	set_json(&st->notes, json_object_get(notes));
	set_json(&st->decisions, json_object_get(decisions));
	set_json(&st->phase_times, json_object_get(times));
	st->abort_status = (enum abort_status)a;
	st->abort_requested = req != NULL && json_object_get_boolean(req);
	*phase = (enum mig_phase)p;
	*mode = (enum mig_mode)m;
	return 0;
}

/*
 * Forgets the snapshots the current hold kept so far (the hold stays):
 * what they said is no longer true (a re-attach took over another
 * migration's identity after the "start" snapshot).
 */
void
status_forget_held(struct status *st)
{
	if (st->held == 0)
		return;
	json_object_put(st->pending);
	st->pending = json_object_new_array();
}

/*
 * The file is left as it is for the rest of the run (event lines still
 * go out): it describes a migration this run cannot learn the state of,
 * and writing over it would lose that migration's identity.
 */
void
status_keep_file(struct status *st)
{
	st->file_kept = 1;
}

/*
 * Whether the status file holds the last document published: a file, not
 * kept as it was, and its last write did not fail.
 */
int
status_file_current(const struct status *st)
{
	return st->file != NULL && !st->file_kept && !st->write_failed;
}

/* Drops what a hold kept: nothing of it is ever written. */
void
status_discard(struct status *st)
{
	json_object_put(st->pending);
	st->pending = NULL;
	st->held = 0;
}
