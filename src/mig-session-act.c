/*
 * mig-session-act.c: what the transition tables (mig-session-source.c,
 * mig-session-target.c) build their steps from, below both: the action
 * list, the status changes as typed actions, the session's own record of
 * what it decided, and the names of the states.  Nothing here does I/O: a
 * step only appends actions, which the executor carries out in order.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mig-session.h"

/* How long a monitor may stay silent before the session gives up on it. */
#define MONITOR_TIMEOUT		30.0

static const char *state_names[] = {
	[SS_SETUP] = "setup", [SS_OFFER] = "offer",
	[SS_MIRROR_START] = "mirror-start", [SS_MIRROR] = "mirror",
	[SS_PRECOPY] = "pre-copy", [SS_POSTCOPY] = "post-copy",
	[SS_RECOVER] = "recover", [SS_CANCELLING] = "cancelling",
	[SS_UNCANCELLED] = "uncancelled", [SS_SWITCHOVER] = "switchover",
	[SS_CONFIRM] = "confirm",
	[SS_RECONNECT] = "reconnect", [SS_FINISHING] = "finishing",
	[SS_OFFERED_WAIT] = "offer-wait", [SS_PREPARING] = "preparing",
	[SS_LISTEN] = "listen", [SS_ARRIVED] = "arrived",
	[SS_ENDING] = "ending", [SS_CLEANUP] = "cleanup",
	[SS_FENCING] = "fencing", [SS_CPR_ATTACH] = "cpr-attach",
	[SS_CPR_HANDOFF] = "cpr-handoff", [SS_CPR_QUIT] = "cpr-quit",
	[SS_CPR_EXEC] = "cpr-exec",
	[SS_DONE] = "done",
};

static const char *
session_state_name(enum sess_state s)
{
	return (size_t)s < NITEMS(state_names) && state_names[s] != NULL ?
	    state_names[s] : "?";
}

/*
 * Appends an action; the list is reset at every step.  A full list drops
 * the action and counts it (the unit tests require none): the step never
 * ends the process.
 */
struct sess_action *
sess_act(struct session *s, enum sess_act_kind kind)
{
	static struct sess_action	 spill;
	struct sess_action		*a;

	if (s->nacts == SESS_MAX_ACTIONS) {
		s->overflow++;
		a = &spill;
	} else
		a = &s->acts[s->nacts++];
	memset(a, 0, sizeof *a);
	a->kind = kind;
	return a;
}

struct sess_action *
sess_act_why(struct session *s, enum sess_act_kind kind, const char *reason)
{
	struct sess_action *a = sess_act(s, kind);

	if (reason != NULL)
		snprintf(a->reason, sizeof a->reason, "%s", reason);
	return a;
}

static void
set_reason(struct sess_action *a, const char *fmt, va_list ap)
{
	vsnprintf(a->reason, sizeof a->reason, fmt, ap);
}

void
sess_log(struct session *s, int level, const char *fmt, ...)
{
	struct sess_action	*a = sess_act(s, SA_LOG);
	va_list			 ap;

	a->value = (uint64_t)level;
	va_start(ap, fmt);
	set_reason(a, fmt, ap);
	va_end(ap);
}

/* Every transition goes through here, and is logged (libnbd's). */
void
sess_enter(struct session *s, enum sess_state to)
{
	if (s->state == to)
		return;
	sess_log(s, 0, "session %s: %s -> %s", s->cfg.role == SESS_SOURCE ?
	    "source" : "target", session_state_name(s->state),
	    session_state_name(to));
	s->state = to;
}

struct sess_action *
sess_qmp(struct session *s, enum sess_cmd cmd, uint64_t value, int value2)
{
	struct sess_action *a = sess_act(s, SA_QMP);

	a->cmd = cmd;
	a->value = value;
	a->value2 = value2;
	return a;
}

void
sess_timer(struct session *s, enum sess_timer timer, double seconds)
{
	struct sess_action *a = sess_act(s, SA_TIMER);

	a->timer = timer;
	a->seconds = seconds;
}

void
sess_job(struct session *s, enum sess_job job, uint64_t value)
{
	struct sess_action *a = sess_act(s, SA_JOB);

	a->job = job;
	a->value = value;
}

void
sess_note(struct session *s, const char *fmt, ...)
{
	struct sess_action	*a = sess_act(s, SA_ST_NOTE);
	va_list			 ap;

	va_start(ap, fmt);
	set_reason(a, fmt, ap);
	va_end(ap);
}

/* Records a failure: the first one stands (a later one is a note). */
void
sess_failure(struct session *s, enum mig_failure why, const char *fmt, ...)
{
	struct sess_action	*a;
	va_list			 ap;

	if (s->failure != FAIL_NONE)
		return;
	a = sess_act(s, SA_ST_FAILURE);
	a->fail = why;
	va_start(ap, fmt);
	set_reason(a, fmt, ap);
	va_end(ap);
	s->failure = why;
	snprintf(s->failure_reason, sizeof s->failure_reason, "%s", a->reason);
}

void
sess_fail(struct session *s, enum mig_failure why, const char *fmt, ...)
{
	char	buf[SESS_REASON_MAX];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	sess_failure(s, why, "%s", buf);
	s->end(s, PHASE_FAILED);
}

/*
 * Post-copy's stream broke: SS_RECOVER from t.  The first time, the
 * recovery's deadline starts (cfg.recover_timeout) and the status says
 * what is happening (NOW, then for how long).  Returns 1 once that
 * deadline has passed, with the failure recorded (the guest is lost,
 * LEFT paused for the operator): the caller ends.
 */
int
sess_recover_lost(struct session *s, double t, const char *now,
    const char *left)
{
	struct sess_recover *r = &s->recover;

	sess_enter(s, SS_RECOVER);
	if (r->deadline == 0) {
		r->deadline = t + s->cfg.recover_timeout;
		sess_note(s, "post-copy stream broken: %s for up to %.0f s",
		    now, s->cfg.recover_timeout);
		sess_publish(s, "recovery");
	}
	if (t <= r->deadline)
		return 0;
	/* What was recorded before (an abort that could not be) gives way. */
	if (s->failure != FAIL_NONE && s->failure != FAIL_POSTCOPY_LOST)
		sess_clear_failure(s);
	if (s->abort == ABORT_ABORTING)
		sess_abort_status(s, ABORT_FAILED);
	sess_failure(s, FAIL_POSTCOPY_LOST, "post-copy could not be recovered "
	    "within %.0f s: the guest is irrecoverable; %s left paused for "
	    "the operator", s->cfg.recover_timeout, left);
	return 1;
}

void
sess_clear_failure(struct session *s)
{
	s->failure = FAIL_NONE;
	s->failure_reason[0] = '\0';
	sess_act(s, SA_ST_CLEAR_FAILURE);
}

void
sess_phase(struct session *s, enum mig_phase phase)
{
	s->phase = phase;
	sess_act(s, SA_ST_PHASE)->phase = phase;
}

void
sess_mode(struct session *s, enum mig_mode mode)
{
	s->mode = mode;
	sess_act(s, SA_ST_MODE)->mode = mode;
}

void
sess_abort_status(struct session *s, enum abort_status abort)
{
	s->abort = abort;
	sess_act(s, SA_ST_ABORT)->abort = abort;
}

void
sess_abort_requested(struct session *s)
{
	s->abort_requested = 1;
	sess_act(s, SA_ST_ABORT_REQUESTED);
}

/* The document as it stands now, as an event line named event. */
void
sess_publish(struct session *s, const char *event)
{
	snprintf(sess_act(s, SA_ST_PUBLISH)->reason, SESS_REASON_MAX, "%s",
	    event);
}

void
sess_progress(struct session *s, const struct mig_info *mi, double elapsed)
{
	struct sess_action *a = sess_act(s, SA_ST_PROGRESS);

	a->mi = mi;
	a->seconds = elapsed;
}

/* The end: the phase is final and the executor leaves its loop. */
void
sess_finish(struct session *s, enum mig_phase phase)
{
	if (s->state == SS_DONE)
		return;
	sess_phase(s, phase);
	sess_enter(s, SS_DONE);
	sess_act(s, SA_FINISH);
}

/* Keeps an abort until the state can act on it (the first one stands). */
void
sess_pend_abort(struct session *s, enum mig_failure why, int requested,
    const char *reason)
{
	if (requested)
		sess_abort_requested(s);
	if (s->pending.asked)
		return;
	s->pending.asked = 1;
	s->pending.why = why;
	s->pending.requested = requested;
	snprintf(s->pending.reason, sizeof s->pending.reason, "%s", reason);
	if (why != FAIL_DATA)
		sess_abort_status(s, ABORT_ABORTING);
	sess_publish(s, "abort");
}

/* The QMP command a session command is, for messages. */
const char *
sess_cmd_name(enum sess_cmd cmd)
{
	static const char *names[] = {
		[SC_MIGRATE] = "migrate",
		[SC_MIGRATE_RESUME] = "migrate (resume)",
		[SC_MIGRATE_RECOVER] = "migrate-recover",
		[SC_CANCEL] = "migrate_cancel",
		[SC_CONT] = "cont",
		[SC_STOP] = "stop",
		[SC_START_POSTCOPY] = "migrate-start-postcopy",
		[SC_SET_DOWNTIME] = "migrate-set-parameters",
		[SC_AUTO_CONVERGE] = "migrate-set-parameters",
		[SC_QUIT] = "quit",
		[SC_MIGRATE_INCOMING] = "migrate-incoming",
		[SC_DIRTY_LIMIT] = "migrate-set-parameters",
		[SC_DIRTY_LIMIT_NOW] = "set-vcpu-dirty-limit",
		[SC_MIGRATE_CONTINUE] = "migrate-continue",
		[SC_MODE_NORMAL] = "migrate-set-parameters",
		[SC_PAUSE_OFF] = "migrate-set-capabilities",
	};

	return (size_t)cmd < NITEMS(names) && names[cmd] != NULL ?
	    names[cmd] : "a command";
}

const char *
sess_signal_name(int signum)
{
	return signum == SIGINT ? "SIGINT" : signum == SIGTERM ? "SIGTERM" :
	    signum == SIGQUIT ? "SIGQUIT" : "a signal";
}

/*
 * A command got no answer in time.  Returns 1 once the monitor has been
 * silent for MONITOR_TIMEOUT: the caller gives up on it.  Any sample
 * clears the count (the source's handlers reset silent_since).
 */
int
sess_monitor_silent(struct session *s, const struct sess_event *ev)
{
	if (s->silent_since == 0) {
		s->silent_since = ev->t;
		sess_log(s, 2, "%s: %s", s->cfg.qmp_path, ev->reason != NULL ?
		    ev->reason : "no answer");
		return 0;
	}
	return ev->t - s->silent_since >= MONITOR_TIMEOUT;
}

