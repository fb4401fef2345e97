/*
 * test-session.c: README's table "What qmigrate promises when things
 * break", row by row, as event sequences through the session's step
 * function: what it sends QEMU and the peer, where it says the guest is,
 * and the exit status.  No QEMU, no sockets: milliseconds per row.  The
 * defects of issue 14 that live in the session have a row each too.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "mig-session.h"

#define MiB	(1024 * 1024ULL)

struct rig {
	struct session	s;
	double		t;
	long		queued;	/* samples' accept queue (target, unix) */
	double		asked_ago; /* samples' query sent this long before */
	const char	*disks_lost; /* samples' word of a mirror lost */
	int		disks_stale; /* samples' mirrors: no listing since the
				   monitor's reconnect */
	double		query_out; /* every event: a query-migrate out since
				      then (0: none) */
	int		offer_postcopy;	/* the offer allows post-copy */
	int		said_postcopy;	/* "completed?": it may have run */
	const char	*said_disks_lost; /* "completed?": a mirror failed */
	/* every action of every step, in order */
	struct sess_action log[8192];
	size_t		nlog;
	size_t		putbacks;	/* pause-before-switchover off sent
					   (a plain migration's; answered) */
};

static struct rig *
rig_new(enum sess_role role, int tls)
{
	static struct rig	r;
	struct sess_config	cfg;

	memset(&r, 0, sizeof r);
	memset(&cfg, 0, sizeof cfg);
	cfg.role = role;
	cfg.tls = tls;
	cfg.timeout = 60;
	cfg.recover_timeout = 10;
	cfg.stall_timeout = 150;
	cfg.peer = tls ? "tls:node-b:4444" : "unix:/run/vm1/in.sock";
	cfg.unix_stream = !tls;
	cfg.qmp_path = "/run/vm1/qmp.sock";
	cfg.qemu_major = 7;
	cfg.qemu_minor = 2;
	session_init(&r.s, &cfg);
	return &r;
}

static void
rig_free(struct rig *r)
{
	/* Purity, checked after every row: the step never ran out of room. */
	assert_int_equal(r->s.overflow, 0);
}

static void
step(struct rig *r, struct sess_event *ev)
{
	struct sess_event done = { .kind = SEV_QMP_DONE, .cmd = SC_PAUSE_OFF,
	    .ok = 1, .outcome = SO_ANSWERED };
	size_t i;
	int putback = 0;

	ev->t = r->t;
	ev->query_out = r->query_out;
	session_step(&r->s, ev);
	for (i = 0; i < r->s.nacts && r->nlog < NITEMS(r->log); i++) {
		r->log[r->nlog++] = r->s.acts[i];
		putback |= r->s.acts[i].kind == SA_QMP &&
		    r->s.acts[i].cmd == SC_PAUSE_OFF;
	}
	/*
	 * A plain migration that leaves the guest here puts its
	 * pause-before-switchover back off at the end: QEMU answers it, so
	 * that the rows about something else end as they did.  An update's
	 * put-back is the cpr rows' own to answer.
	 */
	if (putback && !r->s.cfg.cpr) {
		r->putbacks++;
		step(r, &done);
	}
}

static void
ev_simple(struct rig *r, enum sess_ev_kind kind)
{
	struct sess_event ev = { .kind = kind };

	step(r, &ev);
}

static void
ev_signal(struct rig *r, int signum)
{
	struct sess_event ev = { .kind = SEV_SIGNAL, .signum = signum };

	step(r, &ev);
}

static void
ev_setup(struct rig *r, enum sess_setup setup, enum mig_mode mode)
{
	struct sess_event ev = { .kind = SEV_SETUP_DONE, .setup = setup,
	    .mode = mode, .ok = 1, .reason = "active" };

	step(r, &ev);
}

static void
ev_setup_failed(struct rig *r, const char *reason)
{
	struct sess_event ev = { .kind = SEV_SETUP_DONE, .setup = SETUP_FAILED,
	    .fail = FAIL_CONTROL, .reason = reason };

	step(r, &ev);
}

static void
ev_qmp_done(struct rig *r, enum sess_cmd cmd, const char *error)
{
	struct sess_event ev = { .kind = SEV_QMP_DONE, .cmd = cmd,
	    .ok = error == NULL, .reason = error,
	    .outcome = error == NULL ? SO_ANSWERED : SO_REFUSED };

	step(r, &ev);
}

/* The monitor's connection ended; qemu_gone: QEMU's process exited. */
static void
ev_closed(struct rig *r, int qemu_gone)
{
	struct sess_event ev = { .kind = SEV_QMP_CLOSED, .reason = "closed",
	    .qemu_gone = qemu_gone };

	step(r, &ev);
}

/* A command of ours that got no answer (a timeout, a closed monitor). */
static void
ev_qmp_no_answer(struct rig *r, enum sess_cmd cmd)
{
	struct sess_event ev = { .kind = SEV_QMP_DONE, .cmd = cmd,
	    .reason = "Timeout", .outcome = SO_NO_ANSWER };

	step(r, &ev);
}

/* A query-migrate answer: status, bytes sent, bytes left. */
static void
ev_sample(struct rig *r, enum qemu_mig_status status, uint64_t sent,
    uint64_t left)
{
	struct mig_info		mi;
	struct sess_event	ev = { .kind = SEV_SAMPLE, .mi = &mi,
				    .asked = r->t - r->asked_ago,
				    .queued = r->queued,
				    .disks_lost = r->disks_lost,
				    .disks_stale = r->disks_stale };

	memset(&mi, 0, sizeof mi);
	mi.status = status;
	snprintf(mi.status_name, sizeof mi.status_name, "%s",
	    qemu_mig_status_name(status));
	mi.has_ram = 1;
	mi.ram_total = 256 * MiB;
	mi.ram_transferred = sent;
	mi.ram_remaining = left;
	mi.page_size = 4096;
	mi.mbps = 800;
	mi.dirty_sync_count = 1;
	mi.has_total_time = status == QMS_COMPLETED;
	if (status == QMS_FAILED)
		snprintf(mi.error_desc, sizeof mi.error_desc,
		    "Unable to write to socket: Broken pipe");
	step(r, &ev);
}

static void
ev_answer(struct rig *r, enum control_type q, enum control_answer a,
    const char *reason)
{
	struct sess_event ev = { .kind = SEV_ANSWER, .question = q,
	    .answer = a, .reason = reason };

	step(r, &ev);
}

static void
ev_control(struct rig *r, enum control_type type)
{
	struct control_msg	m;
	struct sess_event	ev = { .kind = SEV_CONTROL, .msg = &m };

	memset(&m, 0, sizeof m);
	m.type = type;
	m.offer.has_version = 1;
	m.offer.qemu_major = 7;
	m.offer.qemu_minor = 2;
	m.offer.guest_running = 1;
	m.offer.plan.postcopy = r->offer_postcopy;
	m.postcopy = r->said_postcopy;
	snprintf(m.offer.uid, sizeof m.offer.uid, "uid-1");
	snprintf(m.reason, sizeof m.reason, "operator");
	if (r->said_disks_lost != NULL) {
		m.disks_lost = 1;
		snprintf(m.reason, sizeof m.reason, "%s", r->said_disks_lost);
	}
	step(r, &ev);
}

static void
ev_timer(struct rig *r, enum sess_timer timer)
{
	struct sess_event ev = { .kind = SEV_TIMER, .timer = timer };

	step(r, &ev);
}

static void
ev_run_state(struct rig *r, enum run_state state)
{
	struct run_info		ri = { .state = state,
	    .running = state == RUN_RUNNING };
	struct sess_event	ev = { .kind = SEV_RUN_STATE, .ri = &ri };

	step(r, &ev);
}

/* How many times the session asked for cmd so far. */
static int
sent_cmd(const struct rig *r, enum sess_cmd cmd)
{
	size_t	i;
	int	n = 0;

	for (i = 0; i < r->nlog; i++)
		n += r->log[i].kind == SA_QMP && r->log[i].cmd == cmd;
	return n;
}

static int
sent(const struct rig *r, enum sess_act_kind kind)
{
	size_t	i;
	int	n = 0;

	for (i = 0; i < r->nlog; i++)
		n += r->log[i].kind == kind;
	return n;
}

/* How many times the session started job. */
static int
sent_job(const struct rig *r, enum sess_job job)
{
	size_t	i;
	int	n = 0;

	for (i = 0; i < r->nlog; i++)
		n += r->log[i].kind == SA_JOB && r->log[i].job == job;
	return n;
}

static int
asked(const struct rig *r, enum control_type q)
{
	size_t	i;
	int	n = 0;

	for (i = 0; i < r->nlog; i++)
		n += r->log[i].kind == SA_ASK && r->log[i].question == q;
	return n;
}

/* The last action of a kind, or NULL. */
static const struct sess_action *
last_act(const struct rig *r, enum sess_act_kind kind)
{
	size_t	i;

	for (i = r->nlog; i > 0; i--)
		if (r->log[i - 1].kind == kind)
			return &r->log[i - 1];
	return NULL;
}

static int
answered(const struct rig *r, enum control_answer a)
{
	size_t	i;
	int	n = 0;

	for (i = 0; i < r->nlog; i++)
		n += r->log[i].kind == SA_ANSWER && r->log[i].answer == a;
	return n;
}

/* Whether a note the step asked for says part. */
static int
has_note(const struct rig *r, const char *part)
{
	size_t i;

	for (i = 0; i < r->nlog; i++)
		if (r->log[i].kind == SA_ST_NOTE &&
		    strstr(r->log[i].reason, part) != NULL)
			return 1;
	return 0;
}

/* failurePlane, as status.c derives it from the failure. */
static const char *
plane(const struct session *s)
{
	return mig_failure_plane(s->failure);
}

/* The status a node agent reads at the end. */
static void
assert_outcome(const struct rig *r, enum mig_phase phase, int exit_code,
    const char *want_plane, enum abort_status abort_status)
{
	const char *p = plane(&r->s);

	assert_true(session_done(&r->s));
	assert_int_equal(sent(r, SA_FINISH), 1);
	assert_int_equal(r->s.phase, phase);
	assert_int_equal(session_exit_code(&r->s), exit_code);
	if (want_plane == NULL)
		assert_null(p);
	else
		assert_string_equal(p, want_plane);
	assert_int_equal(r->s.abort, abort_status);
}

/*
 * The guest we paused runs here again before the end: cont is sent, and
 * only its answer ends the session (the last document comes after it).
 */
static void
cont_answered(struct rig *r)
{
	assert_int_equal(sent_cmd(r, SC_CONT), 1);
	assert_false(session_done(&r->s));
	ev_qmp_done(r, SC_CONT, NULL);
}

/* A fresh unix: migration that has started pre-copy. */
static struct rig *
source_migrating(int tls)
{
	struct rig *r = rig_new(SESS_SOURCE, tls);

	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	if (tls) {
		assert_int_equal(asked(r, CONTROL_OFFER), 1);
		assert_int_equal(sent_cmd(r, SC_MIGRATE), 0);
		ev_answer(r, CONTROL_OFFER, ANSWER_READY, NULL);
	}
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 1);
	ev_qmp_done(r, SC_MIGRATE, NULL);
	assert_int_equal(r->s.phase, PHASE_RUNNING);
	r->t = 1;
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 200 * MiB);
	return r;
}

/* Row: control plane fails before any memory moves: QMP unreachable. */
static void
test_control_qmp_unreachable(void **state)
{
	struct rig *r = rig_new(SESS_SOURCE, 0);

	(void)state;
	ev_setup_failed(r, "/run/vm1/qmp.sock: connect: No such file");
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "qmp.sock"));
	assert_int_equal(sent(r, SA_QMP), 0);
	rig_free(r);
}

/* Row: the target refuses the offer: nothing is sent to QEMU. */
static void
test_control_target_refuses(void **state)
{
	struct rig *r = rig_new(SESS_SOURCE, 1);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_answer(r, CONTROL_OFFER, ANSWER_REFUSED,
	    "target QEMU 7.1.0 is older than the source's 7.2.0");
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "tls:node-b:4444"));
	assert_non_null(strstr(r->s.failure_reason, "older"));
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 0);
	rig_free(r);
}

/* Issue 14 defect 5: no answer (a proxy with no engine) is no "ready". */
static void
test_control_no_engine(void **state)
{
	struct rig *r = rig_new(SESS_SOURCE, 1);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_answer(r, CONTROL_OFFER, ANSWER_OK, NULL);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 0);
	rig_free(r);
}

/* Row: target not ready (QEMU fails at once, nothing moved). */
static void
test_control_target_not_ready(void **state)
{
	struct rig *r = rig_new(SESS_SOURCE, 0);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_qmp_done(r, SC_MIGRATE, NULL);
	ev_sample(r, QMS_FAILED, 0, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "not ready"));
	rig_free(r);
}

/* Row: data plane breaks in pre-copy; a guest we paused runs again. */
static void
test_data_stream_breaks(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	/* A pause decision carried out, as the controller would. */
	r->s.mode = MODE_PAUSED;
	r->t = 2;
	ev_sample(r, QMS_FAILED, 20 * MiB, 180 * MiB);
	cont_answered(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "Broken pipe"));
	assert_int_equal(sent_cmd(r, SC_CONT), 1);
	rig_free(r);
}

/* Row: no data moved for the progress timeout: a data-plane failure. */
static void
test_data_stalled(void **state)
{
	struct rig	*r = source_migrating(0);
	int		 i;

	(void)state;
	for (i = 0; i < 400 && !sent_cmd(r, SC_CANCEL); i++) {
		r->t += 0.5;
		ev_sample(r, QMS_ACTIVE, 10 * MiB, 200 * MiB);
	}
	assert_int_equal(sent_cmd(r, SC_CANCEL), 1);
	assert_true(r->t > 150);
	ev_sample(r, QMS_CANCELLED, 10 * MiB, 200 * MiB);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "stalled"));
	assert_false(r->s.abort_requested);
	rig_free(r);
}

/* Row: abort before post-copy (tls: the target is told). */
static void
test_abort_precopy(void **state)
{
	struct rig *r = source_migrating(1);

	(void)state;
	ev_signal(r, SIGTERM);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 1);
	assert_int_equal(asked(r, CONTROL_ABORT), 1);
	assert_int_equal(r->s.abort, ABORT_ABORTING);
	assert_false(session_done(&r->s));
	/* A second signal changes nothing. */
	ev_signal(r, SIGINT);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 1);
	ev_sample(r, QMS_CANCELLING, 20 * MiB, 180 * MiB);
	ev_sample(r, QMS_CANCELLED, 20 * MiB, 180 * MiB);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	assert_true(r->s.abort_requested);
	assert_non_null(strstr(r->s.failure_reason, "SIGTERM"));
	/* The guest stays here: its pause-before-switchover is put back. */
	assert_int_equal(r->putbacks, 1);
	rig_free(r);
}

/*
 * Row: the cancel was decided on an "active" and QEMU stopped the guest
 * for the switchover before it read it (sim-real seed 9507581: a QEMU
 * stopped 35 s).  QEMU waits in pre-switchover for a migrate-continue that
 * never comes: it cancels there, no device state left, and the guest is
 * the source's alone (5).
 */
static void
test_abort_then_pre_switchover(void **state)
{
	struct rig *r = source_migrating(1);

	(void)state;
	ev_signal(r, SIGTERM);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 1);
	ev_sample(r, QMS_PRE_SWITCHOVER, 200 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_CONTINUE), 0);
	ev_sample(r, QMS_CANCELLED, 200 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_CONTINUE), 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	assert_int_equal(r->putbacks, 1);
	rig_free(r);
}

/* An abort refused: no migrate_cancel, abortStatus Failed and a note
 * that says so; QEMU then completes, and the migration ends as it does
 * (0). */
static void
expect_refused_then_completed(struct rig *r)
{
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_int_equal(r->s.abort, ABORT_FAILED);
	assert_true(has_note(r, "abort refused"));
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_FAILED);
}

/* An abort kept for the switchover's pause: once QEMU says
 * pre-switchover, migrate_cancel and no migrate-continue; QEMU cancels
 * (kicked: 7.2's "device" first, the pause's semaphore) and the guest
 * stays on the source (5). */
static void
expect_cancelled_in_pause(struct rig *r, int kicked)
{
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_int_equal(r->s.abort, ABORT_ABORTING);
	ev_sample(r, QMS_PRE_SWITCHOVER, 256 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 1);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_CONTINUE), 0);
	assert_int_equal(r->s.state, SS_CANCELLING);
	if (kicked)
		ev_sample(r, QMS_DEVICE, 256 * MiB, 0);
	ev_sample(r, QMS_CANCELLED, 256 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_CONTINUE), 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
}

/* Row: abort once post-copy started: refused, the migration ends well. */
static void
test_abort_postcopy_refused(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 100 * MiB, 100 * MiB);
	ev_signal(r, SIGTERM);
	expect_refused_then_completed(r);
	/* The guest left: nothing to put back on a QEMU that ends. */
	assert_int_equal(r->putbacks, 0);
	rig_free(r);
}

/* A sample whose QEMU error text is desc (QMS_FAILED). */
static void
ev_failed_because(struct rig *r, const char *desc)
{
	struct mig_info		mi;
	struct sess_event	ev = { .kind = SEV_SAMPLE, .mi = &mi };

	memset(&mi, 0, sizeof mi);
	mi.status = QMS_FAILED;
	snprintf(mi.status_name, sizeof mi.status_name, "failed");
	mi.has_ram = 1;
	mi.ram_total = 256 * MiB;
	mi.ram_transferred = 250 * MiB;
	snprintf(mi.error_desc, sizeof mi.error_desc, "%s", desc);
	step(r, &ev);
}

/* A unix: migration whose source QEMU stopped its vCPUs for the
 * switchover (status device: 10.0 and later always, 7.2 with
 * pause-before-switchover). */
static struct rig *
source_switching(void)
{
	struct rig *r = source_migrating(0);

	r->t = 5;
	ev_sample(r, QMS_DEVICE, 250 * MiB, 0);
	assert_int_equal(r->s.state, SS_SWITCHOVER);
	return r;
}

/* Row (issue 37, N3): an abort once the source QEMU stopped the guest for
 * the switchover is refused (no migrate_cancel: the target may load what
 * was sent and run it); the outcome decides the exit. */
static void
test_switchover_abort_refused(void **state)
{
	struct rig *r = source_switching();

	(void)state;
	ev_signal(r, SIGTERM);
	r->t = 6;
	ev_simple(r, SEV_DEADLINE);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_int_equal(r->s.abort, ABORT_FAILED);
	assert_true(r->s.abort_requested);
	assert_true(has_note(r, "stopped the guest for the switchover"));
	assert_false(session_done(&r->s));
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_FAILED);
	rig_free(r);
}

/* Row (N3): a STOP event makes the session hold an abort until
 * query-status says why the vCPUs stopped; finish-migrate is the
 * switchover, whose pause this run set: the abort waits for QEMU's
 * pre-switchover and cancels there, no migrate-continue sent, the guest
 * on the source. */
static void
test_switchover_stop_event(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	r->t = 5;
	ev_simple(r, SEV_STOPPED);
	assert_int_equal(r->s.state, SS_SWITCHOVER);
	assert_int_equal(sent(r, SA_QUERY_STATUS), 1);
	ev_signal(r, SIGTERM);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_int_equal(r->s.abort, ABORT_ABORTING);
	ev_run_state(r, RUN_FINISH_MIGRATE);
	expect_cancelled_in_pause(r, 1);
	rig_free(r);
}

/* The same abort once QEMU went on past the pause without this run's
 * migrate-continue (another monitor's): refused, the outcome awaited. */
static void
test_switchover_stop_event_past_pause(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	r->t = 5;
	ev_simple(r, SEV_STOPPED);
	ev_signal(r, SIGTERM);
	ev_run_state(r, RUN_FINISH_MIGRATE);
	assert_int_equal(r->s.abort, ABORT_ABORTING);
	ev_sample(r, QMS_DEVICE, 256 * MiB, 0);
	expect_refused_then_completed(r);
	rig_free(r);
}

/* An abort after this run's migrate-continue is refused. */
static void
test_switchover_abort_after_continue(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	r->t = 5;
	ev_sample(r, QMS_PRE_SWITCHOVER, 256 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_CONTINUE), 1);
	ev_signal(r, SIGTERM);
	expect_refused_then_completed(r);
	rig_free(r);
}

/* Row (issue 37, seed 1075841 at 71c512f, QEMU 7.2): SIGINT while the
 * source QEMU owes the answer to a query-migrate asked 5.6 s before (held
 * by a relay, and behind it the STOP of the switchover QEMU began since):
 * no migrate_cancel on that stale view (a cancel there resumes the
 * source's copy while the target runs the guest: both run); the abort
 * waits for a sample asked after it, and the STOP that comes first makes
 * it refused. */
static void
test_abort_waits_stale_view(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	r->query_out = 2.7;
	r->t = 8.3;
	ev_signal(r, SIGINT);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_int_equal(r->s.abort, ABORT_ABORTING);
	assert_true(r->s.abort_requested);
	/* 42 s: the held answer (asked before the abort), then the STOP. */
	r->t = 42;
	r->query_out = 0;
	r->asked_ago = 42 - 2.7;
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 100 * MiB);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_int_equal(r->s.state, SS_PRECOPY);
	ev_simple(r, SEV_STOPPED);
	assert_int_equal(r->s.state, SS_SWITCHOVER);
	ev_run_state(r, RUN_FINISH_MIGRATE);
	/* QEMU waits in the pause this run set: the abort lands there. */
	r->asked_ago = 0;
	expect_cancelled_in_pause(r, 0);
	rig_free(r);
}

/* The same wait where QEMU had not stopped the guest: the first sample
 * asked after the abort cancels; a query out for less than a poll's
 * delay does not hold an abort at all (test_deadline_cancels). */
static void
test_abort_stale_view_then_cancels(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	r->query_out = 1.5;
	r->t = 5;
	ev_signal(r, SIGTERM);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	r->t = 6;
	r->query_out = 0;
	r->asked_ago = 6 - 1.5;
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 100 * MiB);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	r->t = 6.5;
	r->asked_ago = 0.01;
	ev_sample(r, QMS_ACTIVE, 110 * MiB, 90 * MiB);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 1);
	assert_int_equal(r->s.state, SS_CANCELLING);
	ev_sample(r, QMS_CANCELLED, 110 * MiB, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	rig_free(r);
}

/*
 * An abort kept through a reconnect (pcpend, issue 37): QEMU began the
 * switchover while the old connection hung, its STOP went with it, and
 * 7.2 says active through the return path's wait.  Before, the new
 * connection's first act was migrate_cancel: QEMU resumed its copy while
 * the target ran what was sent (both ran).  Now query-status decides:
 * finish-migrate keeps the abort for the pause (it cancels there:
 * test_abort_after_reconnect_waits); past it, refused, and the outcome is
 * awaited.
 */
static void
test_abort_reconnect_stop_unseen(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	r->t = 5;
	ev_closed(r, 0);
	ev_signal(r, SIGTERM);
	r->t = 8;
	ev_simple(r, SEV_QMP_UP);
	assert_int_equal(sent(r, SA_QUERY_STATUS), 1);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	/* A sample asked on the new connection says active: not enough. */
	r->t = 8.5;
	r->asked_ago = 0.1;
	ev_sample(r, QMS_ACTIVE, 200 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_int_equal(r->s.state, SS_PRECOPY);
	ev_run_state(r, RUN_FINISH_MIGRATE);
	assert_int_equal(r->s.state, SS_SWITCHOVER);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_int_equal(r->s.abort, ABORT_ABORTING);
	/* Past the pause (device), no continue of this run's: refused. */
	ev_sample(r, QMS_DEVICE, 256 * MiB, 0);
	expect_refused_then_completed(r);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	rig_free(r);
}

/* An abort just after the reconnect, before query-status answered, waits
 * the same; the question is asked again once its reply bound passed. */
static void
test_abort_after_reconnect_waits(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	r->t = 5;
	ev_closed(r, 0);
	r->t = 6;
	ev_simple(r, SEV_QMP_UP);
	r->t = 6.2;
	ev_signal(r, SIGTERM);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_int_equal(r->s.abort, ABORT_ABORTING);
	r->t = 16.5;
	r->asked_ago = 0.1;
	ev_sample(r, QMS_ACTIVE, 200 * MiB, 10 * MiB);
	assert_int_equal(sent(r, SA_QUERY_STATUS), 2);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	ev_run_state(r, RUN_FINISH_MIGRATE);
	expect_cancelled_in_pause(r, 0);
	rig_free(r);
}

/* Its run state never told (the monitor silent from then on): not known,
 * never a cancel. */
static void
test_abort_reconnect_silent_unknown(void **state)
{
	struct rig		*r = source_migrating(0);
	struct sess_event	 silent = { .kind = SEV_QMP_SILENT,
	    .reason = "no reply within 10 s" };

	(void)state;
	r->t = 5;
	ev_closed(r, 0);
	ev_signal(r, SIGTERM);
	ev_simple(r, SEV_QMP_UP);
	for (r->t = 15; r->t < 60 && !session_done(&r->s); r->t += 10)
		step(r, &silent);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_FAILED);
	rig_free(r);
}

/* A STOP that is not the switchover (an operator's stop): the abort held
 * meanwhile cancels as in pre-copy. */
static void
test_stop_event_not_switchover(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	r->t = 5;
	ev_simple(r, SEV_STOPPED);
	ev_signal(r, SIGTERM);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	ev_run_state(r, RUN_PAUSED);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 1);
	assert_int_equal(r->s.state, SS_CANCELLING);
	ev_sample(r, QMS_CANCELLED, 100 * MiB, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	rig_free(r);
}

/* Row (issue 37, N1): over unix: the target fails its load after the
 * source sent everything: with the return path QEMU says failed (not
 * completed) and runs the guest again: 4, never 0. */
static void
test_switchover_load_fails_unix(void **state)
{
	struct rig *r = source_switching();

	(void)state;
	ev_failed_because(r, "");
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "did not load"));
	rig_free(r);
}

/* Over tcp: the target's word (SHUT with an error) is a failed load: 4;
 * without it the connection broke in the last round trip and the target
 * may run the guest: not known, 8. */
static void
test_switchover_failed_tcp(void **state)
{
	struct rig *r = source_switching();

	(void)state;
	r->s.cfg.unix_stream = 0;
	r->s.cfg.peer = "tcp:10.0.0.2:4444";
	ev_failed_because(r, "Sibling indicated error 1");
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	rig_free(r);

	r = source_switching();
	r->s.cfg.unix_stream = 0;
	r->s.cfg.peer = "tcp:10.0.0.2:4444";
	ev_failed_because(r, "Unable to read from socket: Connection reset");
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "not known"));
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/*
 * Over tls: the proxies stand between the QEMUs: the target's QEMU runs
 * the guest before its SHUT, which a proxy's end can take.  A failure
 * without the target's word asks it: "fenced" is 4 (the guest is the
 * source's), "running" is both: 8; silence is 8.  The target's own word
 * in QEMU's error (Sibling) is 4 without a question.
 */
static struct rig *
source_switching_tls(void)
{
	struct rig *r = source_migrating(1);

	r->t = 5;
	ev_sample(r, QMS_DEVICE, 250 * MiB, 0);
	assert_int_equal(r->s.state, SS_SWITCHOVER);
	r->t = 6;
	ev_failed_because(r, "Unable to write to socket: Broken pipe");
	assert_false(session_done(&r->s));
	assert_int_equal(r->s.state, SS_CONFIRM);
	assert_int_equal(asked(r, CONTROL_COMPLETED), 1);
	return r;
}

static void
test_switchover_failed_tls(void **state)
{
	struct rig *r;

	(void)state;
	r = source_switching_tls();
	ev_answer(r, CONTROL_COMPLETED, ANSWER_FENCED,
	    "incoming migration failed: Unable to read from socket");
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "Broken pipe"));
	assert_non_null(strstr(r->s.failure_reason, "runs on the source"));
	rig_free(r);

	r = source_switching_tls();
	ev_answer(r, CONTROL_COMPLETED, ANSWER_RUNNING, NULL);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "runs the guest too"));
	rig_free(r);

	r = source_switching_tls();
	ev_answer(r, CONTROL_COMPLETED, ANSWER_UNKNOWN, "closed");
	assert_false(session_done(&r->s));
	ev_timer(r, STIMER_CONFIRM);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "failed the switchover"));
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);

	r = source_migrating(1);
	r->t = 5;
	ev_sample(r, QMS_DEVICE, 250 * MiB, 0);
	ev_failed_because(r, "Sibling indicated error 1");
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	assert_int_equal(asked(r, CONTROL_COMPLETED), 0);
	rig_free(r);
}

/* The switchover is bounded: no outcome within 60 s is not known (8). */
static void
test_switchover_timeout(void **state)
{
	struct rig *r = source_switching();

	(void)state;
	r->t = 30;
	ev_sample(r, QMS_DEVICE, 250 * MiB, 0);
	assert_false(session_done(&r->s));
	r->t = 66;
	ev_timer(r, STIMER_SWITCHOVER);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	rig_free(r);
}

/* pre-switchover (someone set pause-before-switchover) is past the point
 * of no return: migrate-continue, once a second at most. */
static void
test_switchover_continues(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	r->t = 5;
	ev_sample(r, QMS_PRE_SWITCHOVER, 250 * MiB, 0);
	assert_int_equal(r->s.state, SS_SWITCHOVER);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_CONTINUE), 1);
	r->t = 5.5;
	ev_sample(r, QMS_PRE_SWITCHOVER, 250 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_CONTINUE), 1);
	r->t = 6.5;
	ev_sample(r, QMS_PRE_SWITCHOVER, 250 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_CONTINUE), 2);
	ev_signal(r, SIGTERM);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_FAILED);
	rig_free(r);
}

/*
 * Row: over tls, a re-run finds QEMU failed the record's migration while
 * no qmigrate watched it (unwatched_fail): the device state may have left
 * before, and the killed run's proxy carried the return path (sim-real
 * seed 10059602: this said 4 while both QEMUs ran the guest).  The target
 * is asked: fenced, 4; running, both run it, 8 saying so; no answer, 8.
 * QEMU resumed its copy by itself: no cont in any case.
 */
static void
test_rerun_failed_unwatched_tls(void **state)
{
	struct rig		*r = rig_new(SESS_SOURCE, 1);
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_CLOSE_RECORD, .fail = FAIL_UNKNOWN,
	    .mode = MODE_PRECOPY, .uid = "1-2",
	    .reason = "failed unwatched: not known",
	    .unwatched_fail = "Unable to write to socket: Broken pipe" };
	struct sess_event	 lost = { .kind = SEV_CONTROL_LOST,
	    .reason = "connect: Connection refused" };

	(void)state;
	step(r, &ev);
	assert_int_equal(asked(r, CONTROL_COMPLETED), 1);
	assert_false(session_done(&r->s));
	ev_answer(r, CONTROL_COMPLETED, ANSWER_FENCED, "load failed");
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "did not load"));
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 0);
	rig_free(r);

	r = rig_new(SESS_SOURCE, 1);
	step(r, &ev);
	ev_answer(r, CONTROL_COMPLETED, ANSWER_RUNNING, NULL);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "runs the guest too"));
	assert_non_null(strstr(r->s.failure_reason, "while no qmigrate "
	    "watched it"));
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);

	r = rig_new(SESS_SOURCE, 1);
	step(r, &ev);
	step(r, &lost);
	ev_timer(r, STIMER_REASK);
	ev_timer(r, STIMER_CONFIRM);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "may run there too"));
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);

	/* unix: (no tls) the executor never sets it; the record's reason. */
	r = rig_new(SESS_SOURCE, 0);
	step(r, &ev);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_int_equal(asked(r, CONTROL_COMPLETED), 0);
	rig_free(r);
}

/* Row: a re-run over a record that ended 8 at a tcp: switchover, QEMU's
 * migration failed since: still not known (the executor says so), 8. */
static void
test_rerun_switchover_unsettled(void **state)
{
	struct rig		*r = rig_new(SESS_SOURCE, 0);
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_CLOSE_RECORD, .fail = FAIL_UNKNOWN,
	    .mode = MODE_PRECOPY, .reason = "QEMU's migration failed since, "
	    "which settles nothing" };

	(void)state;
	step(r, &ev);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/* Row: a re-run that finds QEMU at the switchover (run state
 * finish-migrate, 7.2 saying active) with the killed run's abort under
 * way: refused there, never cancelled. */
static void
test_reattach_at_switchover(void **state)
{
	struct rig		*r = rig_new(SESS_SOURCE, 0);
	struct run_info		 ri = { .state = RUN_FINISH_MIGRATE };
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_REATTACH, .mode = MODE_PRECOPY, .ok = 1,
	    .reason = "active", .abort = ABORT_ABORTING, .ri = &ri };

	(void)state;
	step(r, &ev);
	assert_int_equal(r->s.state, SS_SWITCHOVER);
	expect_refused_then_completed(r);
	rig_free(r);
}

/* sim-real seeds 9601661 and 10018839: a re-run re-attaches at the
 * switchover (QEMU in pre-switchover), and the target fails its load.
 * QEMU keeps paused a guest that was stopped before the switchover: by
 * the killed run (its decision's write lost on a full disk, the record
 * says PreCopy) or by an operator during the migration.  The re-run
 * cannot tell which, and an operator's pause must stay: no cont, a note
 * that says the guest may stay paused. */
static void
test_reattach_switchover_fails_keeps_pause(void **state)
{
	struct rig		*r = rig_new(SESS_SOURCE, 0);
	struct run_info		 ri = { .state = RUN_FINISH_MIGRATE };
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_REATTACH, .mode = MODE_PRECOPY, .ok = 1,
	    .reason = "pre-switchover", .ri = &ri };

	(void)state;
	step(r, &ev);
	assert_int_equal(r->s.state, SS_SWITCHOVER);
	ev_sample(r, QMS_PRE_SWITCHOVER, 256 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_CONTINUE), 1);
	ev_sample(r, QMS_FAILED, 256 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	assert_true(has_note(r, "the guest may stay paused on the source"));
	rig_free(r);

	/* The guest paused before the migration (sourceRunState): no word. */
	r = rig_new(SESS_SOURCE, 0);
	ev.rec_paused = 1;
	step(r, &ev);
	ev_sample(r, QMS_PRE_SWITCHOVER, 256 * MiB, 0);
	ev_sample(r, QMS_FAILED, 256 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	assert_true(session_done(&r->s));
	assert_false(has_note(r, "the guest may stay paused on the source"));
	rig_free(r);
}

/* Row: post-copy breaks and the peer is back in time (unix:). */
static void
test_postcopy_recovered(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 100 * MiB, 100 * MiB);
	r->t = 3;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 110 * MiB, 90 * MiB);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_RESUME), 1);
	/* Retries no faster than once a second. */
	r->t = 3.5;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 110 * MiB, 90 * MiB);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_RESUME), 1);
	r->t = 5;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 110 * MiB, 90 * MiB);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_RESUME), 2);
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 120 * MiB, 80 * MiB);
	assert_true(has_note(r, "post-copy recovered"));
	ev_signal(r, SIGTERM);		/* still refused */
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_FAILED);
	rig_free(r);
}

/* Over tls:, resume only once the target says its QEMU listens. */
static void
test_postcopy_recovered_tls(void **state)
{
	struct rig *r = source_migrating(1);

	(void)state;
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 100 * MiB, 100 * MiB);
	r->t = 3;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 110 * MiB, 90 * MiB);
	assert_int_equal(asked(r, CONTROL_RESUME), 1);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_RESUME), 0);
	r->t = 5;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 110 * MiB, 90 * MiB);
	assert_int_equal(asked(r, CONTROL_RESUME), 1);	/* once */
	ev_answer(r, CONTROL_RESUME, ANSWER_READY, NULL);
	ev_sample(r, QMS_POSTCOPY_PAUSED, 110 * MiB, 90 * MiB);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_RESUME), 1);
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 120 * MiB, 80 * MiB);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	/* tls: the target confirms the guest before success. */
	assert_false(session_done(&r->s));
	assert_int_equal(asked(r, CONTROL_COMPLETED), 1);
	ev_answer(r, CONTROL_COMPLETED, ANSWER_RUNNING, NULL);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/* Row: post-copy lost for good: both QEMUs left paused, exit 6. */
static void
test_postcopy_lost(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 100 * MiB, 100 * MiB);
	while (!session_done(&r->s) && r->t < 60) {
		int n = sent_cmd(r, SC_MIGRATE_RESUME);

		r->t += 0.5;
		ev_sample(r, QMS_POSTCOPY_PAUSED, 110 * MiB, 90 * MiB);
		if (sent_cmd(r, SC_MIGRATE_RESUME) > n)
			ev_qmp_done(r, SC_MIGRATE_RESUME, NULL);
	}
	assert_outcome(r, PHASE_FAILED, QM_EXIT_POSTCOPY_LOST, "data",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "irrecoverable"));
	/* The last resume's connect gets a second: 7.2 says paused in it. */
	assert_true(r->t > 11 && r->t <= 13);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);	/* never resumed on the source */
	rig_free(r);
}

/*
 * QEMU failed post-copy before it said postcopy-active (11.1's
 * postcopy-device: the target had not said it runs the guest) and, as
 * QEMU does on a failure, runs the guest here again: its run state is
 * asked first, then over tls: the target.  Its "fenced" makes it 4, the
 * guest on the source; never a cont of ours, never 6 ("both paused").
 */
static struct rig *
source_postcopy_device_failed(int tls)
{
	struct rig *r = source_migrating(tls);

	r->t = 5;
	ev_sample(r, QMS_POSTCOPY_DEVICE, 100 * MiB, 100 * MiB);
	assert_int_equal(r->s.state, SS_POSTCOPY);
	r->t = 6;
	ev_sample(r, QMS_FAILED, 110 * MiB, 90 * MiB);
	assert_false(session_done(&r->s));
	assert_int_equal(sent(r, SA_QUERY_STATUS), 1);
	/* Samples meanwhile do not ask again before the retry. */
	r->t = 7;
	ev_sample(r, QMS_FAILED, 110 * MiB, 90 * MiB);
	assert_int_equal(sent(r, SA_QUERY_STATUS), 1);
	return r;
}

static void
test_postcopy_device_failed_fenced(void **state)
{
	struct rig *r = source_postcopy_device_failed(1);

	(void)state;
	ev_run_state(r, RUN_RUNNING);
	assert_int_equal(r->s.state, SS_CONFIRM);
	assert_int_equal(asked(r, CONTROL_COMPLETED), 1);
	ev_answer(r, CONTROL_COMPLETED, ANSWER_FENCED,
	    "incoming migration failed: Unable to read from socket");
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason,
	    "the target stopped its QEMU for good"));
	assert_non_null(strstr(r->s.failure_reason, "Broken pipe"));
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/* The target does not know, says it runs the guest, or is silent: 8. */
static void
test_postcopy_device_failed_not_fenced(void **state)
{
	enum control_answer	 a[] = { ANSWER_NOT_KNOWN, ANSWER_RUNNING,
				    ANSWER_UNKNOWN };
	struct rig		*r;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof a / sizeof a[0]; i++) {
		r = source_postcopy_device_failed(1);
		ev_run_state(r, RUN_RUNNING);
		assert_int_equal(asked(r, CONTROL_COMPLETED), 1);
		if (a[i] == ANSWER_UNKNOWN) {
			/* The connection's failure: asked again, then late. */
			ev_answer(r, CONTROL_COMPLETED, a[i], "closed");
			assert_false(session_done(&r->s));
			ev_timer(r, STIMER_CONFIRM);
		} else
			ev_answer(r, CONTROL_COMPLETED, a[i], "why");
		assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
		    ABORT_NONE);
		assert_non_null(strstr(r->s.failure_reason, "runs the guest "
		    "again"));
		assert_int_equal(sent_cmd(r, SC_CONT), 0);
		rig_free(r);
	}
}

/*
 * migrate-start-postcopy asked, QEMU's switch not yet seen, then failed,
 * on a migration whose pause-before-switchover is not this run's (a
 * re-attach's: its killed run may have sent migrate-continue): QEMU may
 * have switched and failed between two samples (7.2's postcopy_start
 * after the package went out): the run state is asked, then over tls:
 * the target; never 4 on the failure alone.
 */
static void
test_postcopy_asked_then_failed(void **state)
{
	struct rig *r = source_migrating(1);

	(void)state;
	r->t = 5;
	r->s.postcopy_asked = 1;
	r->s.pause_ours = 0;
	sess_enter(&r->s, SS_POSTCOPY);
	ev_sample(r, QMS_FAILED, 110 * MiB, 90 * MiB);
	assert_false(session_done(&r->s));
	assert_int_equal(sent(r, SA_QUERY_STATUS), 1);
	ev_run_state(r, RUN_RUNNING);
	assert_int_equal(asked(r, CONTROL_COMPLETED), 1);
	ev_answer(r, CONTROL_COMPLETED, ANSWER_RUNNING, "why");
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);

	r = source_migrating(1);
	r->t = 5;
	r->s.postcopy_asked = 1;
	r->s.pause_ours = 0;
	sess_enter(&r->s, SS_POSTCOPY);
	ev_sample(r, QMS_FAILED, 110 * MiB, 90 * MiB);
	ev_run_state(r, RUN_RUNNING);
	ev_answer(r, CONTROL_COMPLETED, ANSWER_FENCED, "load failed");
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	rig_free(r);
}

/*
 * The same on a migration this run started with its pause set, and no
 * migrate-continue sent: postcopy_start waits in pre-switchover before
 * the package, so the failure is before any device state left: 4 at
 * once, the guest on the source, nobody asked (sim-real seed 10072162
 * said 6).  Once QEMU is seen past the pause without our continue
 * (postcopy-device), the run state decides as before.
 */
static void
test_postcopy_asked_then_failed_held(void **state)
{
	struct rig *r = source_migrating(1);

	(void)state;
	assert_true(r->s.pause_ours);
	r->t = 5;
	r->s.postcopy_asked = 1;
	sess_enter(&r->s, SS_POSTCOPY);
	ev_sample(r, QMS_FAILED, 110 * MiB, 90 * MiB);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason,
	    "before post-copy's switchover"));
	assert_int_equal(sent(r, SA_QUERY_STATUS), 0);
	assert_int_equal(asked(r, CONTROL_COMPLETED), 0);
	rig_free(r);

	r = source_migrating(1);
	r->t = 5;
	r->s.postcopy_asked = 1;
	sess_enter(&r->s, SS_POSTCOPY);
	ev_sample(r, QMS_POSTCOPY_DEVICE, 100 * MiB, 100 * MiB);
	assert_false(r->s.pause_ours);
	r->t = 6;
	ev_sample(r, QMS_FAILED, 110 * MiB, 90 * MiB);
	assert_false(session_done(&r->s));
	assert_int_equal(sent(r, SA_QUERY_STATUS), 1);
	rig_free(r);
}

/*
 * Over one unix socket the target's word that it runs (11.1's PONG) is
 * not lost on the way: QEMU's failure before it is enough, 4.  Over tcp:
 * a cut may have lost it: 8, never 6.
 */
static void
test_postcopy_device_failed_unix(void **state)
{
	struct rig *r = source_postcopy_device_failed(0);

	(void)state;
	ev_run_state(r, RUN_RUNNING);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "runs it again"));
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);

	r = source_postcopy_device_failed(0);
	r->s.cfg.unix_stream = 0;
	r->s.cfg.peer = "tcp:node-b:4444";
	ev_run_state(r, RUN_RUNNING);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "without the target's "
	    "word that it never ran it"));
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/*
 * After postcopy-active the target ran the guest (or may have): a QEMU
 * running it again is not known, the target not even asked; one that
 * stays stopped is post-copy lost as before (6), once a finish-migrate
 * (10.0: FAILED comes before migration_iteration_finish) had time to
 * settle.
 */
static void
test_postcopy_active_failed(void **state)
{
	struct rig *r = source_migrating(1);

	(void)state;
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 100 * MiB, 100 * MiB);
	r->t = 6;
	ev_sample(r, QMS_FAILED, 110 * MiB, 90 * MiB);
	assert_int_equal(sent(r, SA_QUERY_STATUS), 1);
	ev_run_state(r, RUN_RUNNING);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_int_equal(asked(r, CONTROL_COMPLETED), 0);
	assert_non_null(strstr(r->s.failure_reason, "postcopy-active"));
	rig_free(r);

	r = source_migrating(0);
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 100 * MiB, 100 * MiB);
	r->t = 6;
	ev_sample(r, QMS_FAILED, 110 * MiB, 90 * MiB);
	ev_run_state(r, RUN_FINISH_MIGRATE);
	assert_false(session_done(&r->s));
	r->t = 6.5;
	ev_sample(r, QMS_FAILED, 110 * MiB, 90 * MiB);
	assert_int_equal(sent(r, SA_QUERY_STATUS), 2);
	r->t = 12;
	ev_sample(r, QMS_FAILED, 110 * MiB, 90 * MiB);
	ev_run_state(r, RUN_FINISH_MIGRATE);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_POSTCOPY_LOST, "data",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "post-copy failed"));
	rig_free(r);

	/* No answer to query-status: asked again after its bound. */
	r = source_migrating(0);
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 100 * MiB, 100 * MiB);
	r->t = 6;
	ev_sample(r, QMS_FAILED, 110 * MiB, 90 * MiB);
	r->t = 17;
	ev_sample(r, QMS_FAILED, 110 * MiB, 90 * MiB);
	assert_int_equal(sent(r, SA_QUERY_STATUS), 2);
	ev_run_state(r, RUN_PAUSED);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_POSTCOPY_LOST, "data",
	    ABORT_NONE);
	rig_free(r);
}

/* A recovery that fails with the guest running here again: 8. */
static void
test_postcopy_recover_failed_running(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 100 * MiB, 100 * MiB);
	r->t = 2;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 110 * MiB, 90 * MiB);
	assert_int_equal(r->s.state, SS_RECOVER);
	r->t = 3;
	ev_sample(r, QMS_FAILED, 110 * MiB, 90 * MiB);
	assert_int_equal(sent(r, SA_QUERY_STATUS), 1);
	ev_run_state(r, RUN_RUNNING);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/* The source in post-copy, its stream broken at 1; t = 12: past the
   --recover-timeout of 10 s. */
static struct rig *
source_recover_past_deadline(void)
{
	struct rig *r = source_migrating(0);

	ev_sample(r, QMS_POSTCOPY_ACTIVE, 100 * MiB, 100 * MiB);
	r->t = 1;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 110 * MiB, 90 * MiB);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_RESUME), 1);
	return r;
}

/*
 * A migrate resume still out at the deadline is waited for; one that got
 * no answer may still be run by QEMU and land: not 6 but 8.
 */
static void
test_postcopy_lost_resume_unanswered(void **state)
{
	struct rig *r = source_recover_past_deadline();

	(void)state;
	r->t = 12;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 110 * MiB, 90 * MiB);
	assert_false(session_done(&r->s));
	assert_int_equal(sent_cmd(r, SC_MIGRATE_RESUME), 1);
	ev_qmp_no_answer(r, SC_MIGRATE_RESUME);
	r->t = 14;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 110 * MiB, 90 * MiB);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "got no answer"));
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/* A resume answered just before the deadline: its connect first. */
static void
test_postcopy_lost_resume_connecting(void **state)
{
	struct rig *r = source_recover_past_deadline();

	(void)state;
	r->t = 11.8;
	ev_qmp_done(r, SC_MIGRATE_RESUME, NULL);
	r->t = 12;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 110 * MiB, 90 * MiB);
	assert_false(session_done(&r->s));
	r->t = 12.5;
	ev_sample(r, QMS_POSTCOPY_RECOVER, 110 * MiB, 90 * MiB);
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 120 * MiB, 80 * MiB);
	assert_true(has_note(r, "post-copy recovered"));
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/* A sample at t of a recovery QEMU says is under way (status). */
static void
recovering_at(struct rig *r, enum qemu_mig_status status, double t)
{
	r->t = t;
	ev_sample(r, status, 110 * MiB, 90 * MiB);
}

/* The end of a recovery still under way past its settling: 8. */
static void
assert_recovery_not_known(struct rig *r)
{
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "still under way"));
}

/*
 * QEMU recovering when the deadline passes: no 6 (it may complete); it
 * is watched, and still recovering 30 s later it is not known: 8.
 */
static void
test_postcopy_recovering_past_deadline(void **state)
{
	struct rig *r = source_recover_past_deadline();

	(void)state;
	ev_qmp_done(r, SC_MIGRATE_RESUME, NULL);
	recovering_at(r, QMS_POSTCOPY_RECOVER, 10.5);
	recovering_at(r, QMS_POSTCOPY_RECOVER, 12);
	assert_false(session_done(&r->s));
	recovering_at(r, QMS_POSTCOPY_RECOVER, 40);
	assert_false(session_done(&r->s));
	assert_int_equal(sent_cmd(r, SC_MIGRATE_RESUME), 1);
	recovering_at(r, QMS_POSTCOPY_RECOVER, 41.5);
	assert_recovery_not_known(r);
	rig_free(r);
}

/*
 * A re-run that re-attaches to a recovery under way (a resume of the run
 * before): watched against --recover-timeout from there, never for good
 * (sim-real seed 10307046); still recovering 30 s past it: 8, with no
 * resume of its own sent.
 */
static void
test_reattach_recovering_bounded(void **state)
{
	struct rig *r = rig_new(SESS_SOURCE, 0);

	(void)state;
	ev_setup(r, SETUP_REATTACH, MODE_POSTCOPY);
	recovering_at(r, QMS_POSTCOPY_RECOVER_SETUP, r->t);
	assert_int_equal(r->s.state, SS_RECOVER);
	recovering_at(r, QMS_POSTCOPY_RECOVER_SETUP, 10);
	recovering_at(r, QMS_POSTCOPY_RECOVER_SETUP, 39);
	assert_false(session_done(&r->s));
	recovering_at(r, QMS_POSTCOPY_RECOVER_SETUP, 41);
	assert_recovery_not_known(r);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_RESUME), 0);
	rig_free(r);
}

/* Row: the target QEMU killed in post-copy: the target side says 6. */
static void
test_target_killed_postcopy(void **state)
{
	struct rig *r = rig_new(SESS_TARGET, 0);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	assert_int_equal(r->s.phase, PHASE_TARGET_READY);
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 100 * MiB, 0);
	{
		/* The executor found QEMU's process gone. */
		struct sess_event ev = { .kind = SEV_QMP_CLOSED,
		    .reason = "connection closed by the peer",
		    .qemu_gone = 1 };
		step(r, &ev);
	}
	assert_outcome(r, PHASE_FAILED, QM_EXIT_POSTCOPY_LOST, "data",
	    ABORT_NONE);
	rig_free(r);
}

/* Issue 14 defect 1: the deadline is an abort (cancel, exit 5). */
static void
test_deadline_cancels(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	r->t = 60;
	ev_simple(r, SEV_DEADLINE);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 1);
	assert_false(session_done(&r->s));
	ev_sample(r, QMS_CANCELLED, 20 * MiB, 180 * MiB);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	assert_non_null(strstr(r->s.failure_reason, "--timeout"));
	/* abortRequested is for a request, not the deadline (KubeVirt). */
	assert_false(r->s.abort_requested);
	rig_free(r);
}

/* The deadline in post-copy cannot abort: the status says so. */
static void
test_deadline_postcopy(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 100 * MiB, 100 * MiB);
	ev_simple(r, SEV_DEADLINE);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_true(has_note(r, "--timeout"));
	assert_false(session_done(&r->s));
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_FAILED);
	rig_free(r);
}

/* Issue 14 defect 3: a signal during setup: a whole status, exit 5. */
static void
test_signal_during_setup(void **state)
{
	struct rig *r = rig_new(SESS_SOURCE, 1);

	(void)state;
	ev_signal(r, SIGTERM);
	assert_false(session_done(&r->s));	/* setup decides */
	assert_int_equal(r->s.abort, ABORT_ABORTING);
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 0);
	assert_int_equal(asked(r, CONTROL_OFFER), 0);
	rig_free(r);
}

/* A signal while the offer waits for a silent target. */
static void
test_signal_during_offer(void **state)
{
	struct rig *r = rig_new(SESS_SOURCE, 1);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_signal(r, SIGTERM);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 0);
	/* The late answer changes nothing. */
	ev_answer(r, CONTROL_OFFER, ANSWER_READY, NULL);
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 0);
	rig_free(r);
}

/* Issue 14 defect 8: a re-attach to post-copy never cancels. */
static void
test_reattach_postcopy(void **state)
{
	struct rig *r = rig_new(SESS_SOURCE, 0);

	(void)state;
	ev_setup(r, SETUP_REATTACH, MODE_POSTCOPY);
	assert_int_equal(r->s.mode, MODE_POSTCOPY);
	ev_signal(r, SIGTERM);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_int_equal(r->s.abort, ABORT_FAILED);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_FAILED);
	rig_free(r);
}

/* A re-attach to pre-copy, paused by the killed qmigrate, resumes it. */
static void
test_reattach_paused(void **state)
{
	struct rig *r = rig_new(SESS_SOURCE, 0);

	(void)state;
	ev_setup(r, SETUP_REATTACH, MODE_PAUSED);
	ev_signal(r, SIGTERM);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 1);
	ev_sample(r, QMS_CANCELLED, 20 * MiB, 180 * MiB);
	cont_answered(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	assert_int_equal(sent_cmd(r, SC_CONT), 1);
	rig_free(r);
}

/* Issue 14 defect 2: a target abort over unix: is refused, truthfully. */
static void
test_target_abort_unix_refused(void **state)
{
	struct rig *r = rig_new(SESS_TARGET, 0);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	ev_signal(r, SIGTERM);
	assert_false(session_done(&r->s));
	assert_int_equal(r->s.abort, ABORT_FAILED);
	assert_true(r->s.abort_requested);
	assert_true(has_note(r, "abort on the source"));
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_int_equal(sent(r, SA_QUERY_STATUS), 1);
	ev_run_state(r, RUN_RUNNING);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_FAILED);
	rig_free(r);
}

/* A target abort over unix: before anything arrived: no one can come. */
static void
test_target_abort_unix_unlisten(void **state)
{
	struct rig *r = rig_new(SESS_TARGET, 0);

	(void)state;
	r->s.cfg.unix_listen = 1;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_signal(r, SIGTERM);
	assert_int_equal(sent(r, SA_UNLISTEN), 1);
	assert_false(session_done(&r->s));
	ev_sample(r, QMS_NONE, 0, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	rig_free(r);

	/* A source that connected just before: refused, truthfully. */
	r = rig_new(SESS_TARGET, 0);
	r->s.cfg.unix_listen = 1;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_signal(r, SIGTERM);
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	assert_false(session_done(&r->s));
	assert_int_equal(r->s.abort, ABORT_FAILED);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_run_state(r, RUN_RUNNING);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_FAILED);
	rig_free(r);
}

/* The target's setup over unix:, migrate-incoming without an answer. */
static void
ev_listen_unanswered(struct rig *r)
{
	struct sess_event ev = { .kind = SEV_SETUP_DONE, .fail = FAIL_CONTROL,
	    .outcome = SO_NO_ANSWER, .reason = "target QEMU /run/vm1/qmp.sock: "
	    "no reply within 10 s" };

	step(r, &ev);
}

/*
 * N2: migrate-incoming unanswered is not a refusal: QEMU may listen.  The
 * path goes, a sample asked after it decides: nothing came (3, plane
 * control), or a source connected before and its stream is watched to
 * its end (0).  A monitor closed under it is connected again first.
 */
static void
test_target_listen_unanswered(void **state)
{
	struct rig *r = rig_new(SESS_TARGET, 0);

	(void)state;
	r->s.cfg.unix_listen = 1;
	ev_listen_unanswered(r);
	assert_false(session_done(&r->s));
	assert_int_equal(sent(r, SA_UNLISTEN), 1);
	assert_int_equal(sent(r, SA_POLL), 1);
	r->t = 1;
	/* The command may have run since: the path goes once more. */
	ev_sample(r, QMS_NONE, 0, 0);
	assert_false(session_done(&r->s));
	assert_int_equal(sent(r, SA_UNLISTEN), 2);
	r->t = 2;
	ev_sample(r, QMS_NONE, 0, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "no answer"));
	rig_free(r);

	/*
	 * QEMU listens now (10.0's setup; 7.2 says no status): its
	 * migrate-incoming ran late, after the path went, and bound it anew
	 * (sim-real seed 10011082): removed once more, and a sample asked
	 * after that decides.
	 */
	r = rig_new(SESS_TARGET, 0);
	r->s.cfg.unix_listen = 1;
	ev_listen_unanswered(r);
	r->t = 1;
	ev_sample(r, QMS_SETUP, 0, 0);
	assert_false(session_done(&r->s));
	assert_int_equal(sent(r, SA_UNLISTEN), 2);
	assert_int_equal(sent(r, SA_POLL), 2);
	r->t = 2;
	ev_sample(r, QMS_SETUP, 0, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	assert_int_equal(sent(r, SA_UNLISTEN), 2);
	rig_free(r);

	/* The source connected while the answer was late: it arrives. */
	r = rig_new(SESS_TARGET, 0);
	r->s.cfg.unix_listen = 1;
	ev_listen_unanswered(r);
	r->t = 2;
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	assert_false(session_done(&r->s));
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_run_state(r, RUN_RUNNING);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);

	/* The monitor closed with the command: connected again, then asked. */
	r = rig_new(SESS_TARGET, 0);
	r->s.cfg.unix_listen = 1;
	ev_closed(r, 0);
	ev_listen_unanswered(r);
	assert_int_equal(sent(r, SA_RECONNECT), 1);
	assert_int_equal(r->s.state, SS_RECONNECT);
	r->t = 1;
	ev_simple(r, SEV_QMP_UP);
	assert_int_equal(sent(r, SA_POLL), 2);
	r->t = 2;
	ev_sample(r, QMS_NONE, 0, 0);
	r->t = 3;
	ev_sample(r, QMS_NONE, 0, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	rig_free(r);

	/*
	 * tcp: no path to remove: nothing came, so QEMU, which may listen,
	 * is stopped for good (quit) before the end, as the deadline does.
	 */
	r = rig_new(SESS_TARGET, 0);
	ev_listen_unanswered(r);
	assert_int_equal(sent(r, SA_UNLISTEN), 0);
	r->t = 1;
	ev_sample(r, QMS_NONE, 0, 0);
	assert_int_equal(sent_cmd(r, SC_QUIT), 1);
	ev_qmp_done(r, SC_QUIT, NULL);
	ev_closed(r, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	rig_free(r);

	/* Closed after an answered setup: connected again, then watched. */
	r = rig_new(SESS_TARGET, 0);
	r->s.cfg.unix_listen = 1;
	ev_closed(r, 0);
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	assert_int_equal(r->s.state, SS_RECONNECT);
	ev_simple(r, SEV_QMP_UP);
	assert_int_equal(r->s.state, SS_LISTEN);
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_run_state(r, RUN_RUNNING);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);

	/* A refusal stays a refusal: 3 at once, nothing removed. */
	r = rig_new(SESS_TARGET, 0);
	r->s.cfg.unix_listen = 1;
	ev_setup_failed(r, "target QEMU /run/vm1/qmp.sock: Failed to bind");
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	assert_int_equal(sent(r, SA_UNLISTEN), 0);
	rig_free(r);
}

/*
 * N2: --timeout during the target's setup is kept, as a signal is, until
 * the setup says whether QEMU listens: then the way in closes and a
 * sample decides; a stream that began meanwhile is watched to its end.
 */
static void
test_target_deadline_during_setup(void **state)
{
	struct rig *r = rig_new(SESS_TARGET, 0);

	(void)state;
	r->s.cfg.unix_listen = 1;
	ev_simple(r, SEV_DEADLINE);
	assert_false(session_done(&r->s));
	r->t = 3;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	assert_int_equal(sent(r, SA_UNLISTEN), 1);
	assert_false(session_done(&r->s));
	r->t = 4;
	ev_sample(r, QMS_NONE, 0, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "--timeout"));
	rig_free(r);

	r = rig_new(SESS_TARGET, 0);
	r->s.cfg.unix_listen = 1;
	ev_simple(r, SEV_DEADLINE);
	r->t = 3;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	r->t = 4;
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_run_state(r, RUN_RUNNING);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/*
 * D27: after the path went, a source that connected just before waits in
 * QEMU's accept queue while a sample still says "none": it is waited for,
 * not reported as "nothing arrived" (exit 5 while the guest arrives).
 * Where the queue cannot be read, only a sample 1 s after the removal
 * decides.
 */
static void
test_target_unlisten_source_queued(void **state)
{
	struct rig *r = rig_new(SESS_TARGET, 0);

	(void)state;
	r->s.cfg.unix_listen = 1;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_signal(r, SIGTERM);
	assert_int_equal(sent(r, SA_UNLISTEN), 1);
	r->queued = 1;
	ev_sample(r, QMS_NONE, 0, 0);
	assert_false(session_done(&r->s));
	assert_int_equal(r->s.abort, ABORT_ABORTING);
	r->queued = 0;
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	assert_false(session_done(&r->s));
	assert_int_equal(r->s.abort, ABORT_FAILED);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_run_state(r, RUN_RUNNING);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_FAILED);
	rig_free(r);

	/* The deadline's settling waits for a queued source as well. */
	r = rig_new(SESS_TARGET, 0);
	r->s.cfg.unix_listen = 1;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_simple(r, SEV_DEADLINE);
	assert_int_equal(sent(r, SA_UNLISTEN), 1);
	r->queued = 2;
	ev_sample(r, QMS_SETUP, 0, 0);
	assert_false(session_done(&r->s));
	r->queued = 0;
	ev_sample(r, QMS_NONE, 0, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control", ABORT_NONE);
	rig_free(r);

	/*
	 * A sample asked before the path went (answered after the signal)
	 * does not decide: a source may have connected after QEMU answered
	 * it (the simulator's seed 1974).
	 */
	r = rig_new(SESS_TARGET, 0);
	r->s.cfg.unix_listen = 1;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	r->t = 2;
	ev_signal(r, SIGTERM);
	r->asked_ago = 0.01;
	ev_sample(r, QMS_NONE, 0, 0);
	assert_false(session_done(&r->s));
	r->asked_ago = 0;
	r->t += 0.5;
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	assert_false(session_done(&r->s));
	assert_int_equal(r->s.abort, ABORT_FAILED);
	rig_free(r);

	/* The queue not known: a sample within 1 s does not decide. */
	r = rig_new(SESS_TARGET, 0);
	r->s.cfg.unix_listen = 1;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_signal(r, SIGTERM);
	r->queued = -1;
	r->t += 0.2;
	ev_sample(r, QMS_NONE, 0, 0);
	assert_false(session_done(&r->s));
	r->t += 1.0;
	ev_sample(r, QMS_NONE, 0, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	rig_free(r);
}

/* A target prepared over tls: (offer, ready). */
static struct rig *target_tls_ready_on(struct rig *);

static struct rig *
target_tls_ready(void)
{
	return target_tls_ready_on(rig_new(SESS_TARGET, 1));
}

/* ... on a rig made already (its offer's knobs set). */
static struct rig *
target_tls_ready_on(struct rig *r)
{
	struct sess_event	 job = { .kind = SEV_JOB_DONE, .ok = 1,
	    .job = SJ_PREPARE_TARGET };

	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	assert_int_equal(r->s.phase, PHASE_PREPARING_TARGET);
	ev_control(r, CONTROL_OFFER);
	assert_int_equal(sent(r, SA_JOB), 1);
	step(r, &job);
	assert_int_equal(answered(r, ANSWER_READY), 1);
	assert_int_equal(r->s.phase, PHASE_TARGET_READY);
	return r;
}

/* Row (issue 37, long run at fb37ba0, seed 2030610: tls:, a disk): an
 * incoming re-run after SIGKILL waits for an offer while the killed
 * run's source still watches; it answered each watch at once, and the
 * source, which asks again as soon as one is answered, spun (no time
 * passing: the source never ended).  It is held as in the other states. */
static void
test_target_watch_held_offer_wait(void **state)
{
	struct rig *r = rig_new(SESS_TARGET, 1);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	assert_int_equal(r->s.state, SS_OFFERED_WAIT);
	ev_control(r, CONTROL_WATCH);
	assert_int_equal(answered(r, ANSWER_OK), 0);
	r->t = 1;
	ev_timer(r, STIMER_WATCH);
	assert_int_equal(answered(r, ANSWER_OK), 1);
	rig_free(r);
}

/* Over tls:, the target's abort reaches the source and the stream stops. */
static void
test_target_abort_tls(void **state)
{
	struct rig *r = target_tls_ready(), *src;

	(void)state;
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	ev_signal(r, SIGTERM);
	assert_int_equal(r->s.abort, ABORT_ABORTING);
	ev_control(r, CONTROL_WATCH);
	assert_int_equal(answered(r, ANSWER_ABORT), 1);
	/* The source cancels; had it not, the stream is cut. */
	ev_timer(r, STIMER_CUT);
	assert_int_equal(sent(r, SA_CUT), 1);
	/* The cut took the control connection: nobody asks "completed?". */
	ev_sample(r, QMS_FAILED, 20 * MiB, 0);
	/* QEMU said its load failed: it is stopped for good. */
	assert_int_equal(sent_cmd(r, SC_QUIT), 1);
	ev_qmp_done(r, SC_QUIT, NULL);
	ev_closed(r, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	rig_free(r);

	/* The source side of the same: the watch answer is an abort. */
	src = source_migrating(1);
	assert_int_equal(asked(src, CONTROL_WATCH), 1);
	ev_answer(src, CONTROL_WATCH, ANSWER_ABORT, "abort requested");
	assert_int_equal(sent_cmd(src, SC_CANCEL), 1);
	ev_sample(src, QMS_CANCELLED, 20 * MiB, 0);
	assert_outcome(src, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	assert_non_null(strstr(src->s.failure_reason, "target"));
	rig_free(src);
}

/* An offer that comes while the target still checks its QEMU waits. */
static void
test_target_offer_during_setup(void **state)
{
	struct rig *r = rig_new(SESS_TARGET, 1);

	(void)state;
	ev_control(r, CONTROL_OFFER);
	assert_int_equal(sent(r, SA_ANSWER), 0);
	assert_int_equal(sent(r, SA_JOB), 0);
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	assert_int_equal(sent(r, SA_JOB), 1);
	assert_int_equal(answered(r, ANSWER_REFUSED), 0);
	rig_free(r);
}

/* QEMU refuses migrate after an abort began: nothing moved, exit 5. */
static void
test_abort_before_migrate_answer(void **state)
{
	struct rig *r = rig_new(SESS_SOURCE, 0);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_signal(r, SIGTERM);
	ev_qmp_done(r, SC_MIGRATE, "There's a migration process in progress");
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	rig_free(r);
}

/* A second offer is refused without ending the first migration. */
static void
test_target_second_offer(void **state)
{
	struct rig *r = target_tls_ready();

	(void)state;
	ev_control(r, CONTROL_OFFER);
	assert_int_equal(answered(r, ANSWER_REFUSED), 1);
	assert_false(session_done(&r->s));
	rig_free(r);
}

/* tls: confirm phase: the target could not load the guest. */
static void
test_confirm_failed(void **state)
{
	struct rig *r = source_migrating(1);

	(void)state;
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_int_equal(asked(r, CONTROL_COMPLETED), 1);
	/* An abort now cannot help: QEMU completed. */
	ev_signal(r, SIGTERM);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	ev_answer(r, CONTROL_COMPLETED, ANSWER_FENCED, "load of device "
	    "failed");
	cont_answered(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_FAILED);
	assert_int_equal(sent_cmd(r, SC_CONT), 1);
	assert_non_null(strstr(r->s.failure_reason, "runs on the source"));
	rig_free(r);
}

/* tls: confirm phase: no word from the target within 30 s. */
static void
test_confirm_silent(void **state)
{
	struct rig *r = source_migrating(1);

	(void)state;
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_timer(r, STIMER_CONFIRM);
	/* The guest stays paused here: it may run there.  Not known. */
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	assert_non_null(strstr(r->s.failure_reason, "did not confirm"));
	rig_free(r);
}

/* Target: the source ended the session before any memory moved. */
static void
test_target_source_gone(void **state)
{
	struct rig		*r = target_tls_ready();
	struct sess_event	 ev = { .kind = SEV_CONTROL_LOST,
	    .reason = "connection reset" };

	(void)state;
	step(r, &ev);
	/* The way in is cut, and one more sample says nothing came. */
	assert_int_equal(sent(r, SA_CUT), 1);
	assert_false(session_done(&r->s));
	ev_sample(r, QMS_SETUP, 0, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	rig_free(r);
}

/*
 * Row (issue 37, sim-real seed 20598 at ffc129a, tls:, QEMU 7.2): the
 * source's control connection closed (13.46 s) while the target QEMU
 * owed the answer to a query-migrate of 9.2 s, held 8.6 s; behind that
 * answer ("listening", QEMU's word of 9.2 s) came active, RESUME and
 * completed: the guest ran here while the target said 3, "the source
 * ended the session before any guest memory moved".  A sample asked
 * before the settling does not decide; the one asked after it does.
 */
static void
test_target_source_gone_stale_sample(void **state)
{
	struct rig		*r = target_tls_ready();
	struct sess_event	 lost = { .kind = SEV_CONTROL_LOST,
	    .reason = "closed by the source" };
	int			 polls;

	(void)state;
	r->t = 13.46;
	step(r, &lost);
	assert_int_equal(sent(r, SA_CUT), 1);
	polls = sent(r, SA_POLL);
	r->t = 17.8;
	r->asked_ago = 17.8 - 9.2;
	ev_sample(r, QMS_SETUP, 0, 0);
	assert_false(session_done(&r->s));
	assert_int_equal(sent(r, SA_POLL), polls + 1);
	r->asked_ago = 0;
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_run_state(r, RUN_RUNNING);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);

	/* Nothing behind it: the sample asked after the settling says 3. */
	r = target_tls_ready();
	r->t = 13.46;
	step(r, &lost);
	r->t = 17.8;
	r->asked_ago = 17.8 - 9.2;
	ev_sample(r, QMS_SETUP, 0, 0);
	assert_false(session_done(&r->s));
	r->asked_ago = 0.01;
	ev_sample(r, QMS_SETUP, 0, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	rig_free(r);
}

/*
 * Row (issue 37, sim-real seed 8064 at ffc129a, tls:, QEMU 11.1): the
 * target's --timeout (4.4 s) in listen while its query-migrate of 0.245 s
 * was held 7.5 s; behind the answer ("setup") came active, post-copy and
 * RESUME: the target said 3, "no migration arrived", with the guest
 * running here.  The stale answer does not decide: the sample asked
 * after it finds post-copy, and the session follows it.  Over tcp: the
 * stale answer would have stopped QEMU (fence_wanted): not either.
 */
static void
test_target_deadline_stale_sample(void **state)
{
	struct rig	*r = target_tls_ready();
	int		 polls;

	(void)state;
	r->t = 4.4;
	ev_simple(r, SEV_DEADLINE);
	assert_int_equal(sent(r, SA_CUT), 1);
	polls = sent(r, SA_POLL);
	r->t = 7.7;
	r->asked_ago = 7.7 - 0.245;
	ev_sample(r, QMS_SETUP, 0, 0);
	assert_false(session_done(&r->s));
	assert_int_equal(sent(r, SA_POLL), polls + 1);
	r->asked_ago = 0;
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 100 * MiB, 100 * MiB);
	assert_false(session_done(&r->s));
	assert_int_equal(r->s.mode, MODE_POSTCOPY);
	assert_int_equal(r->s.failure, FAIL_NONE);
	rig_free(r);

	r = rig_new(SESS_TARGET, 0);
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	r->t = 4.4;
	ev_simple(r, SEV_DEADLINE);
	r->t = 7.7;
	r->asked_ago = 7.7 - 0.245;
	ev_sample(r, QMS_NONE, 0, 0);
	assert_false(session_done(&r->s));
	assert_false(r->s.fence_wanted);
	r->asked_ago = 0;
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_run_state(r, RUN_RUNNING);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/*
 * The same where SIGTERM's cut settles it (handoff-held-listen-tls.sh on
 * real QEMU 7.2: the pre-fix binary exited 5, "the guest runs on the
 * source", with the guest running here): the sample asked after the cut
 * finds the migration completed; the abort is refused and the end is 0.
 */
static void
test_target_cut_stale_sample(void **state)
{
	struct rig *r = target_tls_ready();

	(void)state;
	r->t = 1.5;
	ev_signal(r, SIGTERM);
	r->t = 6.5;
	ev_timer(r, STIMER_CUT);
	assert_int_equal(sent(r, SA_CUT), 1);
	r->t = 9;
	r->asked_ago = 9;
	ev_sample(r, QMS_NONE, 0, 0);
	assert_false(session_done(&r->s));
	r->asked_ago = 0;
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_run_state(r, RUN_RUNNING);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_FAILED);
	rig_free(r);
}

/* The simulator's N1: the source aborts while a late stream arrives. */
static void
test_target_source_abort_stream_late(void **state)
{
	struct rig *r = target_tls_ready();

	(void)state;
	ev_control(r, CONTROL_ABORT);
	assert_false(session_done(&r->s));
	/* The cut took the control connection: the source cannot ask. */
	assert_int_equal(sent(r, SA_CUT), 1);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_run_state(r, RUN_RUNNING);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/* Target: the guest arrives paused and is resumed. */
static void
test_target_resumes_paused_guest(void **state)
{
	struct rig *r = rig_new(SESS_TARGET, 0);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_run_state(r, RUN_PAUSED);
	assert_int_equal(sent_cmd(r, SC_CONT), 1);
	ev_simple(r, SEV_RESUMED);
	ev_run_state(r, RUN_RUNNING);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/* Issue 22 defect 1: a signal while the mirrors start is an abort. */
static void
test_signal_during_mirror_start(void **state)
{
	struct rig		*r = rig_new(SESS_SOURCE, 0);
	struct sess_event	 job = { .kind = SEV_JOB_DONE,
	    .job = SJ_START_MIRRORS, .ok = 1 };

	(void)state;
	r->s.cfg.disks = 1;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	assert_int_equal(sent(r, SA_JOB), 1);
	r->t = 0.25;
	ev_signal(r, SIGTERM);
	assert_false(session_done(&r->s));	/* the job is out */
	step(r, &job);
	/* No memory moves; the mirrors are cancelled, not completed. */
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 0);
	assert_false(session_done(&r->s));
	assert_int_equal(r->log[r->nlog - 1].kind, SA_JOB);
	assert_int_equal(r->log[r->nlog - 1].job, SJ_FINISH_MIRRORS);
	assert_int_equal(r->log[r->nlog - 1].value, 0);
	job.job = SJ_FINISH_MIRRORS;
	step(r, &job);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	assert_true(r->s.abort_requested);
	rig_free(r);
}

/* Issue 22 defect 1: the deadline while the disks copy: nothing moved. */
static void
test_deadline_during_mirror(void **state)
{
	struct rig		*r = rig_new(SESS_SOURCE, 0);
	struct sess_event	 job = { .kind = SEV_JOB_DONE,
	    .job = SJ_START_MIRRORS, .ok = 1 };
	struct mig_info		 mi = { .status = QMS_NONE };
	struct sess_event	 sample = { .kind = SEV_SAMPLE, .mi = &mi,
	    .disks = DISKS_SYNCING };

	(void)state;
	r->s.cfg.disks = 1;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	step(r, &job);
	step(r, &sample);
	r->t = 60;
	ev_simple(r, SEV_DEADLINE);
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 0);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	job.job = SJ_FINISH_MIRRORS;
	step(r, &job);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	assert_false(r->s.abort_requested);
	assert_non_null(strstr(r->s.failure_reason, "--timeout"));
	rig_free(r);
}

/*
 * D22: a stalled NBD peer: the mirrors' copy stands still for longer than
 * progressTimeout: the migration fails on the data plane before any memory
 * moves (not after hours of completionTimeoutPerGiB, or never with 0);
 * a copy that moves, however slowly, goes on.
 */
static void
test_mirror_stalled(void **state)
{
	struct rig		*r = rig_new(SESS_SOURCE, 0);
	struct sess_event	 job = { .kind = SEV_JOB_DONE,
	    .job = SJ_START_MIRRORS, .ok = 1 };
	struct mig_info		 mi = { .status = QMS_NONE };
	struct sess_event	 sample = { .kind = SEV_SAMPLE, .mi = &mi,
	    .disks = DISKS_SYNCING };
	int			 i;

	(void)state;
	r->s.cfg.disks = 1;
	r->s.cfg.stall_timeout = 150;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	step(r, &job);
	/* 1 MiB every 100 s: slow, never stalled for 150 s. */
	for (i = 1; i <= 5; i++) {
		r->t = 100.0 * i;
		sample.disks_copied = (uint64_t)i * MiB;
		step(r, &sample);
		assert_false(session_done(&r->s));
	}
	r->t = 600;
	step(r, &sample);
	assert_false(session_done(&r->s));
	r->t = 651;
	step(r, &sample);
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 0);
	job.job = SJ_FINISH_MIRRORS;
	step(r, &job);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "no progress for 151 s "
	    "(progressTimeout)"));
	rig_free(r);
}

/*
 * Issue 38: the stalled copy's mirror job outlives its forced cancel (QEMU
 * 7.2: its writes wait on the stopped peer's full socket, which yank does
 * not wake).  The finish job fails, saying what is left; the outcome stays
 * the data plane's exit 4, the guest on the source (it never left), with
 * that line among the notes, not a different exit nor a lost one.
 */
static void
test_mirror_stalled_job_kept(void **state)
{
	struct rig		*r = rig_new(SESS_SOURCE, 0);
	struct sess_event	 job = { .kind = SEV_JOB_DONE,
	    .job = SJ_START_MIRRORS, .ok = 1 };
	struct mig_info		 mi = { .status = QMS_NONE };
	struct sess_event	 sample = { .kind = SEV_SAMPLE, .mi = &mi,
	    .disks = DISKS_SYNCING, .disks_copied = 16 * MiB };

	(void)state;
	r->s.cfg.disks = 1;
	r->s.cfg.stall_timeout = 10;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	step(r, &job);
	r->t = 1;
	step(r, &sample);
	r->t = 12;
	step(r, &sample);
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 0);
	job.job = SJ_FINISH_MIRRORS;
	job.ok = 0;
	job.reason = "mirror job qm-mirror-data still runs 10 s after its "
	    "forced cancel";
	step(r, &job);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "(progressTimeout)"));
	assert_true(has_note(r, "disks: mirror job qm-mirror-data still runs"));
	rig_free(r);
}

/* Issue 22 defect 2: over tls:, the source asks "watch" while disks copy. */
static void
test_target_abort_during_mirror(void **state)
{
	struct rig		*r = rig_new(SESS_SOURCE, 1);
	struct sess_event	 job = { .kind = SEV_JOB_DONE,
	    .job = SJ_START_MIRRORS, .ok = 1 };

	(void)state;
	r->s.cfg.disks = 1;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_answer(r, CONTROL_OFFER, ANSWER_READY, NULL);
	step(r, &job);
	assert_int_equal(asked(r, CONTROL_WATCH), 1);
	ev_answer(r, CONTROL_WATCH, ANSWER_ABORT, "abort requested (SIGTERM)");
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 0);
	job.job = SJ_FINISH_MIRRORS;
	step(r, &job);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	rig_free(r);
}

/* Issue 22 defect 2: the target whose source never cancels ends anyway. */
static void
test_target_cut_before_stream(void **state)
{
	struct rig *r = target_tls_ready();

	(void)state;
	ev_signal(r, SIGTERM);
	assert_int_equal(r->s.abort, ABORT_ABORTING);
	r->t = 5;
	ev_timer(r, STIMER_CUT);
	assert_int_equal(sent(r, SA_CUT), 1);
	/* One more sample after the cut says nothing came (seed 1036). */
	assert_false(session_done(&r->s));
	ev_sample(r, QMS_SETUP, 0, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	rig_free(r);
}

/* Issue 22 defect 3: QEMU never confirms the cancel: a bounded wait. */
static void
test_cancel_timeout(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	ev_signal(r, SIGTERM);
	assert_int_equal(r->s.abort, ABORT_ABORTING);
	r->t = 31;
	ev_timer(r, STIMER_CANCEL);
	assert_int_equal(r->s.abort, ABORT_FAILED);
	assert_false(session_done(&r->s));
	/* Still answering and migrating: watched to its real end. */
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 100 * MiB);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_FAILED);
	rig_free(r);
}

/* Issue 22 defect 3: a monitor that stops answering: exit 8, bounded. */
static void
test_monitor_silent(void **state)
{
	struct rig		*r = source_migrating(0);
	struct sess_event	 silent = { .kind = SEV_QMP_SILENT,
	    .reason = "query-migrate: no reply within 10 s" };

	(void)state;
	ev_signal(r, SIGTERM);
	while (!session_done(&r->s) && r->t < 120) {
		r->t += 10;
		step(r, &silent);
		if (r->t >= 30 && r->t < 40)
			ev_timer(r, STIMER_CANCEL);
	}
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_FAILED);
	assert_true(r->t <= 45);
	assert_non_null(strstr(r->s.failure_reason, "not known"));
	rig_free(r);
}

/* Issue 22 defect 3: a monitor silent for a few seconds only. */
static void
test_monitor_silent_briefly(void **state)
{
	struct rig		*r = source_migrating(0);
	struct sess_event	 silent = { .kind = SEV_QMP_SILENT,
	    .reason = "no reply" };

	(void)state;
	ev_signal(r, SIGTERM);
	r->t = 11;
	step(r, &silent);
	r->t = 12;
	ev_sample(r, QMS_CANCELLED, 20 * MiB, 180 * MiB);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	rig_free(r);
}

/* Issue 22 defect 4: the monitor lost in confirm: the target decides. */
static void
test_confirm_qmp_lost(void **state)
{
	struct rig		*r = source_migrating(1);
	struct sess_event	 closed = { .kind = SEV_QMP_CLOSED,
	    .reason = "connection reset by peer" };

	(void)state;
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	step(r, &closed);
	assert_false(session_done(&r->s));
	ev_answer(r, CONTROL_COMPLETED, ANSWER_RUNNING, NULL);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/* Issue 22 defect 4: the monitor lost in pre-copy: connect again. */
static void
test_precopy_qmp_reconnect(void **state)
{
	struct rig		*r = source_migrating(0);
	struct sess_event	 closed = { .kind = SEV_QMP_CLOSED,
	    .reason = "connection reset by peer" };

	(void)state;
	step(r, &closed);
	assert_int_equal(sent(r, SA_RECONNECT), 1);
	assert_false(session_done(&r->s));
	/* A signal meanwhile waits for the monitor, then for its run
	 * state (test_abort_reconnect_stop_unseen): not the switchover. */
	ev_signal(r, SIGTERM);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	ev_simple(r, SEV_QMP_UP);
	assert_int_equal(sent(r, SA_QUERY_STATUS), 1);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	ev_run_state(r, RUN_RUNNING);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 1);
	ev_sample(r, QMS_CANCELLED, 20 * MiB, 180 * MiB);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	rig_free(r);
}

/* Issue 22 defect 4: the monitor never comes back: not "nothing moved". */
static void
test_precopy_qmp_gone(void **state)
{
	struct rig		*r = source_migrating(0);
	struct sess_event	 closed = { .kind = SEV_QMP_CLOSED,
	    .reason = "connect: No such file or directory" };

	(void)state;
	while (!session_done(&r->s) && r->t < 100) {
		step(r, &closed);
		r->t += 1;
		ev_timer(r, STIMER_RECONNECT);
	}
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_true(r->t <= 33);
	rig_free(r);
}

/* Issue 22 defect 5: cont comes before the end, and signals wait. */
static void
test_paused_abort_resumes_first(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	r->s.mode = MODE_PAUSED;	/* a pause decision carried out */
	ev_signal(r, SIGTERM);
	ev_sample(r, QMS_CANCELLED, 20 * MiB, 180 * MiB);
	assert_int_equal(sent_cmd(r, SC_CONT), 1);
	assert_int_equal(sent(r, SA_FINISH), 0);
	ev_signal(r, SIGTERM);			/* ignored, not fatal */
	assert_false(session_done(&r->s));
	ev_qmp_done(r, SC_CONT, NULL);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	assert_int_equal(r->s.mode, MODE_PRECOPY);
	rig_free(r);
}

/* Issue 22 defect 9: a re-run closes the record QEMU's failure left. */
static void
test_rerun_closes_record(void **state)
{
	struct rig		*r = rig_new(SESS_SOURCE, 1);
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_CLOSE_RECORD, .fail = FAIL_DATA,
	    .reason = "migration 1-2 failed in QEMU while no qmigrate watched "
	    "it: Unable to write to socket: Broken pipe" };

	(void)state;
	step(r, &ev);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 0);
	assert_int_equal(asked(r, CONTROL_OFFER), 0);
	assert_true(has_note(r, "started no migration"));
	rig_free(r);
}

/*
 * Issue 30 (audit D12): a re-run closing the record of a guest its killed
 * run had paused resumes it first: the mode comes from the record.
 */
static void
test_rerun_close_resumes_paused(void **state)
{
	struct rig		*r = rig_new(SESS_SOURCE, 1);
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_CLOSE_RECORD, .fail = FAIL_DATA,
	    .mode = MODE_PAUSED, .reason = "migration 1-2 failed in QEMU "
	    "while no qmigrate watched it: Broken pipe" };

	(void)state;
	step(r, &ev);
	cont_answered(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	assert_int_equal(r->s.mode, MODE_PRECOPY);
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 0);
	rig_free(r);
}

/*
 * Issue 30 (audit D24): a re-run after a SIGKILL while QEMU was
 * cancelling: the record's abort goes on (cancel again) and ends as an
 * abort (5), not as a plain pre-copy's failure (4).
 */
static void
test_rerun_reattach_cancelling(void **state)
{
	struct rig		*r = rig_new(SESS_SOURCE, 0);
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_REATTACH, .mode = MODE_PRECOPY, .uid = "1-2",
	    .abort = ABORT_ABORTING, .abort_requested = 1,
	    .reason = "cancelling" };

	(void)state;
	step(r, &ev);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 1);
	assert_int_equal(r->s.state, SS_CANCELLING);
	ev_sample(r, QMS_CANCELLED, 20 * MiB, 180 * MiB);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	assert_true(r->s.abort_requested);
	rig_free(r);

	/* QEMU cancelled before the re-run came: the record closes as 5. */
	r = rig_new(SESS_SOURCE, 0);
	ev.setup = SETUP_CLOSE_RECORD;
	ev.fail = FAIL_ABORTED;
	step(r, &ev);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	rig_free(r);

	/* QEMU completed before its cancel: 0, and the abort failed. */
	r = rig_new(SESS_SOURCE, 0);
	ev.setup = SETUP_ALREADY_DONE;
	ev.fail = FAIL_NONE;
	step(r, &ev);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_FAILED);
	rig_free(r);
}

/*
 * Issue 30 (audit D5, D19): QEMU completed the record's migration while
 * no qmigrate watched it.  unix: the success (0).  Over tls: the record
 * holds no "running" from the target: the re-run asks it, as the killed
 * run would have; "running": 0; "fenced": the guest resumed here, 4; no
 * target to ask: not known, 8, the guest kept stopped here.  Never a new
 * migration.
 */
static void
test_rerun_already_done(void **state)
{
	struct rig		*r = rig_new(SESS_SOURCE, 0);
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_ALREADY_DONE, .mode = MODE_PRECOPY, .uid = "1-2",
	    .reason = "1-2" };
	struct sess_event	 lost = { .kind = SEV_CONTROL_LOST,
	    .reason = "connect: Connection refused" };

	(void)state;
	step(r, &ev);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);

	/* tls: the target says running. */
	r = rig_new(SESS_SOURCE, 1);
	ev.fail = FAIL_UNKNOWN;
	step(r, &ev);
	assert_int_equal(asked(r, CONTROL_COMPLETED), 1);
	assert_false(session_done(&r->s));
	ev_answer(r, CONTROL_COMPLETED, ANSWER_RUNNING, NULL);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 0);
	assert_int_equal(asked(r, CONTROL_OFFER), 0);
	rig_free(r);

	/* tls: the target fenced its QEMU: the guest runs here again. */
	r = rig_new(SESS_SOURCE, 1);
	step(r, &ev);
	ev_answer(r, CONTROL_COMPLETED, ANSWER_FENCED, "load failed");
	cont_answered(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	rig_free(r);

	/* tls: no target to ask: not known; the guest is not resumed. */
	r = rig_new(SESS_SOURCE, 1);
	step(r, &ev);
	step(r, &lost);
	/* Asked again on a new connection until the confirm's 30 s. */
	ev_timer(r, STIMER_REASK);
	assert_int_equal(asked(r, CONTROL_COMPLETED), 2);
	ev_timer(r, STIMER_CONFIRM);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 0);
	rig_free(r);

	/* A signal during that setup: refused, and the target asked. */
	r = rig_new(SESS_SOURCE, 1);
	ev_signal(r, SIGTERM);
	step(r, &ev);
	assert_int_equal(asked(r, CONTROL_COMPLETED), 1);
	step(r, &lost);
	ev_timer(r, STIMER_CONFIRM);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_FAILED);
	rig_free(r);
}

/*
 * Issue 30 (audit D18): the mirrors the record's run left are this run's
 * (cfg.disks, set by the executor before the setup's end): a re-attach
 * watches them (a failed one aborts) and ends them; a closed record
 * cancels them before its end.
 */
static void
test_rerun_mirrors(void **state)
{
	struct rig		*r = rig_new(SESS_SOURCE, 0);
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_REATTACH, .mode = MODE_PRECOPY, .uid = "1-2",
	    .reason = "active" };
	struct sess_event	 sample = { .kind = SEV_SAMPLE,
	    .disks = DISKS_FAILED, .reason = "copy of disk d0 failed" };
	struct sess_event	 job = { .kind = SEV_JOB_DONE,
	    .job = SJ_FINISH_MIRRORS, .ok = 1 };
	struct mig_info		 mi;

	(void)state;
	r->s.cfg.disks = 1;
	step(r, &ev);
	memset(&mi, 0, sizeof mi);
	mi.status = QMS_ACTIVE;
	mi.ram_transferred = 20 * MiB;
	sample.mi = &mi;
	step(r, &sample);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 1);
	ev_sample(r, QMS_CANCELLED, 20 * MiB, 180 * MiB);
	assert_false(session_done(&r->s));
	assert_int_equal(r->log[r->nlog - 1].kind, SA_JOB);
	assert_int_equal(r->log[r->nlog - 1].job, SJ_FINISH_MIRRORS);
	assert_int_equal(r->log[r->nlog - 1].value, 0);
	step(r, &job);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	rig_free(r);

	/* Killed while the disks copied: QEMU has no migration. */
	r = rig_new(SESS_SOURCE, 0);
	r->s.cfg.disks = 1;
	ev.setup = SETUP_CLOSE_RECORD;
	ev.fail = FAIL_DATA;
	ev.reason = "migration 1-2: QEMU has no migration";
	step(r, &ev);
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 0);
	assert_false(session_done(&r->s));
	assert_int_equal(r->log[r->nlog - 1].job, SJ_FINISH_MIRRORS);
	assert_int_equal(r->log[r->nlog - 1].value, 0);
	step(r, &job);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	rig_free(r);
}

/*
 * The mirrors' end, ended by the source monitor's close (its failure
 * comes first, SO_NO_ANSWER, then the close): run again once the monitor
 * is back, not dropped.  Before, FINISHING took it as the end (0 with the
 * mirror jobs and NBD nodes left in QEMU, the target's exports held 60 s);
 * CONFIRM (tls:) asked "completed?" at once, and the target, waiting for
 * exports our nodes still held, answered past this side's 30 s: 8.
 */
static void
test_finish_mirrors_across_reconnect(void **state)
{
	struct sess_event	 cut = { .kind = SEV_JOB_DONE,
	    .job = SJ_FINISH_MIRRORS, .ok = 0, .outcome = SO_NO_ANSWER,
	    .reason = "query-block-jobs: connection closed" };
	struct sess_event	 job = { .kind = SEV_JOB_DONE,
	    .job = SJ_FINISH_MIRRORS, .ok = 1 };
	struct rig		*r;
	int			 tls;

	(void)state;
	for (tls = 0; tls < 2; tls++) {
		r = source_migrating(tls);
		r->s.mirrors_out = 1;
		ev_simple(r, SEV_STOPPED);
		ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
		assert_int_equal(sent(r, SA_JOB), 1);
		step(r, &cut);
		assert_false(session_done(&r->s));
		assert_int_equal(asked(r, CONTROL_COMPLETED), 0);
		ev_closed(r, 0);
		ev_simple(r, SEV_QMP_UP);
		assert_int_equal(sent(r, SA_JOB), 2);
		assert_int_equal(last_act(r, SA_JOB)->job, SJ_FINISH_MIRRORS);
		assert_int_equal(last_act(r, SA_JOB)->value, 1);
		assert_false(session_done(&r->s));
		step(r, &job);
		if (tls) {
			assert_int_equal(asked(r, CONTROL_COMPLETED), 1);
			ev_answer(r, CONTROL_COMPLETED, ANSWER_RUNNING, NULL);
		}
		assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL,
		    ABORT_NONE);
		rig_free(r);
	}
}

/* Issue 22 defect 9: incoming ends once its source is gone for good. */
static void
test_target_source_gone_midstream(void **state)
{
	struct rig		*r = target_tls_ready();
	struct sess_event	 lost = { .kind = SEV_CONTROL_LOST,
	    .reason = "closed" };

	(void)state;
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	step(r, &lost);
	assert_false(session_done(&r->s));
	r->t = 40;
	ev_timer(r, STIMER_SOURCE_GONE);
	assert_int_equal(sent(r, SA_CUT), 1);
	/* A stream had begun: QEMU's state read, then it is stopped. */
	assert_int_equal(sent_cmd(r, SC_QUIT), 0);
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_QUIT), 1);
	ev_qmp_done(r, SC_QUIT, NULL);
	ev_closed(r, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	rig_free(r);
}

/* The target's exports go before its last document when it fails. */
static void
test_target_failed_exports_removed(void **state)
{
	struct rig		*r = rig_new(SESS_TARGET, 0);
	struct sess_event	 job = { .kind = SEV_JOB_DONE,
	    .job = SJ_STOP_EXPORTS, .ok = 1 };

	(void)state;
	r->s.cfg.disks = 1;
	r->s.cfg.unix_listen = 1;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	ev_sample(r, QMS_FAILED, 10 * MiB, 0);
	/* QEMU said its load failed: stopped for good, which fails... */
	assert_int_equal(sent_cmd(r, SC_QUIT), 1);
	ev_qmp_done(r, SC_QUIT, "quit: not allowed");
	/* ... so the exports are removed one by one. */
	assert_false(session_done(&r->s));
	assert_int_equal(r->log[r->nlog - 1].job, SJ_STOP_EXPORTS);
	step(r, &job);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	rig_free(r);
}

/* Issue 22 defect 2: a held "watch" carries the target's abort at once. */
static void
test_target_watch_held(void **state)
{
	struct rig *r = target_tls_ready();

	(void)state;
	ev_control(r, CONTROL_WATCH);
	assert_int_equal(sent(r, SA_ANSWER), 1);	/* "ready" only */
	r->t = 0.5;
	ev_signal(r, SIGTERM);
	assert_int_equal(answered(r, ANSWER_ABORT), 1);
	/* With no abort the hold ends in "ok". */
	rig_free(r);
	r = target_tls_ready();
	ev_control(r, CONTROL_WATCH);
	ev_timer(r, STIMER_WATCH);
	assert_int_equal(answered(r, ANSWER_OK), 1);
	assert_false(session_done(&r->s));
	rig_free(r);
}

/*
 * Row: that status file damaged on re-attach.  The executor reads it
 * before any step (mig-source.c) and refuses it, naming the member; the
 * session never starts (exit 1).  Here: what it reads it with.
 */
static void
test_damaged_status_file(void **state)
{
	static const char	 garbage[] = "{\"migrationUid\": 7, \"phase\": "
	    "\"Running\", \"mode\": \"PreCopy\"}";
	static const char	 nul[] = "{\"phase\": \"Run\0ning\"}";
	struct status		*st;
	json_object		*doc;
	enum mig_phase		 phase;
	enum mig_mode		 mode;
	char			*cause = NULL;

	(void)state;
	doc = status_parse("status file f", nul, sizeof nul - 1, &cause);
	assert_null(doc);
	assert_non_null(strstr(cause, "status file f"));
	free(cause);
	cause = NULL;
	doc = status_parse("status file f", garbage, sizeof garbage - 1,
	    &cause);
	assert_non_null(doc);
	st = status_create("source", NULL, 0);
	assert_int_equal(status_restore(st, doc, "status file f", &phase,
	    &mode, &cause), -1);
	assert_non_null(strstr(cause, "migrationUid"));
	free(cause);
	json_object_put(doc);
	status_free(st);
}

/* Issue 30 (audit D24): a re-attach takes over the record's abort. */
static void
test_restore_abort(void **state)
{
	static const char	 doc_text[] = "{\"migrationUid\": \"1-2\", "
	    "\"phase\": \"Running\", \"mode\": \"PreCopy\", "
	    "\"abortRequested\": true, \"abortStatus\": \"Aborting\"}";
	static const char	 bad[] = "{\"migrationUid\": \"1-2\", "
	    "\"phase\": \"Running\", \"mode\": \"PreCopy\", "
	    "\"abortStatus\": \"Maybe\"}";
	struct status		*st;
	json_object		*doc;
	enum mig_phase		 phase;
	enum mig_mode		 mode;
	char			*cause = NULL;
	int			 requested = 0;

	(void)state;
	st = status_create("source", NULL, 0);
	assert_int_equal(status_abort(st, &requested), ABORT_NONE);
	doc = status_parse("f", doc_text, sizeof doc_text - 1, &cause);
	assert_non_null(doc);
	assert_int_equal(status_restore(st, doc, "f", &phase, &mode, &cause),
	    0);
	assert_int_equal(status_abort(st, &requested), ABORT_ABORTING);
	assert_true(requested);
	json_object_put(doc);
	doc = status_parse("f", bad, sizeof bad - 1, &cause);
	assert_int_equal(status_restore(st, doc, "f", &phase, &mode, &cause),
	    -1);
	assert_non_null(strstr(cause, "abortStatus"));
	free(cause);
	json_object_put(doc);
	status_free(st);
}

/* Row: target incoming killed over tls:: its proxy dies, the stream too. */
static void
test_incoming_killed_tls(void **state)
{
	struct rig		*r = source_migrating(1);
	struct sess_event	 lost = { .kind = SEV_CONTROL_LOST,
	    .reason = "connection reset by peer" };

	(void)state;
	step(r, &lost);
	assert_false(session_done(&r->s));
	r->t = 2;
	ev_sample(r, QMS_FAILED, 20 * MiB, 180 * MiB);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	rig_free(r);
}

/*
 * Row: the status file's disk full.  The step has no file at all: only
 * the executor's writer sees the failure, logs it once (naming the file)
 * and goes on.
 */
static void
test_status_disk_full(void **state)
{
	static const char	 file[] = "/proc/self/no-such-dir/status.json";
	struct status		*st;
	FILE			*err = tmpfile();
	char			 logged[4096];
	const char		*first;
	size_t			 n;
	int			 saved;

	(void)state;
	assert_non_null(err);
	st = status_create("source", file, 0);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	assert_int_not_equal(saved, -1);
	assert_int_not_equal(dup2(fileno(err), STDERR_FILENO), -1);
	status_changed(st, "start");
	status_changed(st, "progress");
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(err);
	n = fread(logged, 1, sizeof logged - 1, err);
	logged[n] = '\0';
	fclose(err);
	assert_non_null(strstr(logged, "status file /proc/self/no-such-dir/"
	    "status.json: "));
	first = strstr(logged, "(the migration goes on)");
	assert_non_null(first);
	assert_null(strstr(first + 1, "(the migration goes on)"));
	status_set_phase(st, PHASE_SUCCEEDED);
	assert_int_equal(status_exit_code(st), QM_EXIT_OK);
	status_free(st);
}

/* The status file's bytes equal status_to_json()'s document as written. */
static void
assert_file_is_document(const char *file, struct status *st)
{
	json_object	*doc = status_to_json(st);
	const char	*want = json_object_to_json_string_ext(doc,
			    JSON_C_TO_STRING_PRETTY |
			    JSON_C_TO_STRING_NOSLASHESCAPE);
	char		 got[16384];
	FILE		*f = fopen(file, "r");
	size_t		 n;

	assert_non_null(f);
	n = fread(got, 1, sizeof got - 1, f);
	fclose(f);
	got[n] = '\0';
	assert_string_equal(got, want);
	json_object_put(doc);
}

/*
 * migrationConfiguration's text is kept between writes (status.c's
 * config_texts): the file says what the configuration is at each write,
 * after a key is added in a hold too, with json-c's indentation and
 * escapes (a newline, a slash, an empty array and object, nesting).
 */
static void
test_status_configuration_text(void **state)
{
	char		 dir[] = "/tmp/test-session-XXXXXX", file[64];
	struct status	*st;
	json_object	*cfg = json_object_new_object(), *inner, *doc;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof file, "%s/status.json", dir);
	st = status_create("source", file, 0);
	inner = json_object_new_object();
	json_object_object_add(inner, "why", json_object_new_string(
	    "on: a/b\nsecond line"));
	json_object_object_add(inner, "none", json_object_new_array());
	json_object_object_add(inner, "empty", json_object_new_object());
	json_object_object_add(cfg, "capabilities", inner);
	json_object_object_add(cfg, "maxDowntimeMs",
	    json_object_new_int(900));
	status_set_configuration(st, NULL, "adaptive", cfg);
	status_changed(st, "start");
	assert_file_is_document(file, st);
	status_changed(st, "progress");
	assert_file_is_document(file, st);
	status_configure(st, "qemu", json_object_new_string("added"));
	status_changed(st, "progress");
	assert_file_is_document(file, st);
	status_hold(st);
	status_changed(st, "progress");
	status_configure(st, "throttle", json_object_new_double(0.5));
	status_release(st);
	doc = status_to_json(st);
	assert_non_null(strstr(json_object_to_json_string(doc), "throttle"));
	json_object_put(doc);
	assert_file_is_document(file, st);
	status_free(st);
	unlink(file);
	rmdir(dir);
}

/* progress.downtimeMs in the document of st, or -1 when absent. */
static long long
doc_downtime(const struct status *st)
{
	json_object	*doc = status_to_json(st), *v;
	long long	 ms = -1;

	if ((v = json_obj_at(json_obj_at(doc, "progress"), "downtimeMs")) !=
	    NULL)
		ms = json_object_get_int64(v);
	json_object_put(doc);
	return ms;
}

static void
set_progress(struct status *st, const char *reply)
{
	json_object	*o = json_tokener_parse(reply);
	struct mig_info	 mi;

	assert_non_null(o);
	assert_int_equal(mig_info_decode(o, &mi), 0);
	status_set_progress(st, &mi, 1);
	json_object_put(o);
}

/*
 * progress.downtimeMs is absent until known, never a 0 for "not known":
 * before QEMU's figure, at 7.2's completed before its figures (0 and 0),
 * at a figure longer than the migration; a 0 QEMU computed is a 0.  After
 * cpr-exec the old QEMU's figure is not the pause: qmigrate's only.
 */
static void
test_status_downtime_known(void **state)
{
	struct status *st = status_create("source", NULL, 0);

	(void)state;
	assert_int_equal(doc_downtime(st), -1);
	set_progress(st, "{\"status\": \"active\", \"expected-downtime\": 300}");
	assert_int_equal(doc_downtime(st), -1);
	set_progress(st, "{\"status\": \"completed\", \"total-time\": 0, "
	    "\"downtime\": 0}");
	assert_int_equal(doc_downtime(st), -1);
	set_progress(st, "{\"status\": \"completed\", \"total-time\": 7557, "
	    "\"downtime\": 15690620}");
	assert_int_equal(doc_downtime(st), -1);
	set_progress(st, "{\"status\": \"completed\", \"total-time\": 1834, "
	    "\"downtime\": 0}");
	assert_int_equal(doc_downtime(st), 0);
	set_progress(st, "{\"status\": \"completed\", \"total-time\": 1834, "
	    "\"downtime\": 12}");
	assert_int_equal(doc_downtime(st), 12);
	status_free(st);

	st = status_create("source", NULL, 0);
	status_set_mode(st, MODE_CPR_EXEC);
	set_progress(st, "{\"status\": \"completed\", \"total-time\": 90, "
	    "\"downtime\": 40}");
	assert_int_equal(doc_downtime(st), -1);
	status_set_downtime(st, 0);
	assert_int_equal(doc_downtime(st), 0);
	status_set_downtime(st, 200);
	assert_int_equal(doc_downtime(st), 200);
	status_free(st);
}

/*
 * The guest running on the target during post-copy is not the end: a
 * stream that breaks then must still be recovered here (QEMU 11.1's
 * postcopy-device status made the target end at its RESUME before).
 */
static void
test_target_postcopy_ends_at_completed(void **state)
{
	struct rig *r = rig_new(SESS_TARGET, 0);

	(void)state;
	r->s.cfg.unix_listen = 1;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_sample(r, QMS_POSTCOPY_DEVICE, 100 * MiB, 0);
	assert_int_equal(r->s.mode, MODE_POSTCOPY);
	ev_simple(r, SEV_RESUMED);
	assert_int_equal(sent(r, SA_QUERY_STATUS), 0);
	r->t = 2;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 150 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_RECOVER), 1);
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 200 * MiB, 0);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_int_equal(sent(r, SA_QUERY_STATUS), 1);
	ev_run_state(r, RUN_RUNNING);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_true(has_note(r, "post-copy recovered"));
	rig_free(r);
}


/* ---- the handoff (issue 30): no answer is not a refusal ------------- */


/* D3: migrate answered late over unix: QEMU migrates, so does the record. */
static void
test_migrate_no_answer_started(void **state)
{
	struct rig *r = rig_new(SESS_SOURCE, 0);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_qmp_no_answer(r, SC_MIGRATE);
	assert_false(session_done(&r->s));
	r->t = 12;
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 200 * MiB);
	assert_false(session_done(&r->s));
	assert_int_equal(r->s.phase, PHASE_RUNNING);
	ev_sample(r, QMS_COMPLETED, 210 * MiB, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/* migrate got no answer and QEMU says twice it has none: nothing moved. */
static void
test_migrate_no_answer_never_started(void **state)
{
	struct rig *r = rig_new(SESS_SOURCE, 0);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_qmp_no_answer(r, SC_MIGRATE);
	ev_sample(r, QMS_NONE, 0, 0);
	assert_false(session_done(&r->s));
	ev_sample(r, QMS_NONE, 0, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	rig_free(r);
}

/* An abort whose migrate got no answer: QEMU's samples decide, not 5. */
static void
test_abort_migrate_no_answer(void **state)
{
	struct rig *r = rig_new(SESS_SOURCE, 0);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_signal(r, SIGTERM);
	ev_qmp_no_answer(r, SC_MIGRATE);
	assert_false(session_done(&r->s));
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 200 * MiB);
	ev_sample(r, QMS_COMPLETED, 210 * MiB, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_FAILED);
	rig_free(r);
}

/* tls: the target does not know: the guest stays paused here, exit 8. */
static void
test_confirm_not_known(void **state)
{
	struct rig *r = source_migrating(1);

	(void)state;
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_answer(r, CONTROL_COMPLETED, ANSWER_NOT_KNOWN, "monitor lost");
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/* tls: the control connection ends in the confirm phase: exit 8. */
static void
test_confirm_control_lost(void **state)
{
	struct rig *r = source_migrating(1);

	(void)state;
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_simple(r, SEV_CONTROL_LOST);
	/* "completed?" again on a new connection, until the 30 s. */
	assert_false(session_done(&r->s));
	ev_timer(r, STIMER_REASK);
	assert_int_equal(asked(r, CONTROL_COMPLETED), 2);
	ev_answer(r, CONTROL_COMPLETED, ANSWER_UNKNOWN, "connect: refused");
	ev_timer(r, STIMER_REASK);
	assert_int_equal(asked(r, CONTROL_COMPLETED), 3);
	ev_timer(r, STIMER_CONFIRM);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/* D14: tls: with disks, the mirrors end before "completed?" is asked. */
static void
test_confirm_mirrors_first(void **state)
{
	struct rig		*r = source_migrating(1);
	struct sess_event	 job = { .kind = SEV_JOB_DONE, .ok = 1,
	    .job = SJ_FINISH_MIRRORS };

	(void)state;
	r->s.mirrors_out = 1;
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_int_equal(asked(r, CONTROL_COMPLETED), 0);
	assert_int_equal(sent(r, SA_JOB), 1);
	step(r, &job);
	assert_int_equal(asked(r, CONTROL_COMPLETED), 1);
	ev_answer(r, CONTROL_COMPLETED, ANSWER_RUNNING, NULL);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_int_equal(sent(r, SA_JOB), 1);
	rig_free(r);
}

/*
 * sim-real D1, seed 2036095 at fb37ba0: a disk's mirror failed while the
 * guest still ran, its word too late for a cancel (the switchover began):
 * QEMU's completion is no success, the target's copy of that disk may miss
 * the last writes.  8, over unix: at QEMU's completed, over tls: even
 * with the target's "running"; the guest is not resumed here.  Over tls:
 * "completed?" tells the target so (disksLost, the reason naming the
 * disk): it cannot see the source's mirrors.
 */
static void
test_mirror_lost_before_switchover(void **state)
{
	static const char	*lost = "disk d0 (/vm/d0.qcow2): its mirror "
	    "failed before QEMU completed the migration";
	struct sess_event	 job = { .kind = SEV_JOB_DONE, .ok = 1,
	    .job = SJ_FINISH_MIRRORS };
	struct rig		*r;
	int			 tls;

	(void)state;
	for (tls = 0; tls < 2; tls++) {
		r = source_migrating(tls);
		r->s.mirrors_out = 1;
		ev_simple(r, SEV_STOPPED);
		r->disks_lost = lost;
		ev_sample(r, QMS_DEVICE, 250 * MiB, 0);
		assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
		ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
		if (tls) {
			step(r, &job);
			assert_int_equal(asked(r, CONTROL_COMPLETED), 1);
			assert_int_equal(last_act(r, SA_ASK)->value, 1);
			assert_string_equal(last_act(r, SA_ASK)->reason, lost);
			ev_answer(r, CONTROL_COMPLETED, ANSWER_RUNNING, NULL);
		} else if (!session_done(&r->s))
			step(r, &job);
		assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
		    ABORT_NONE);
		assert_non_null(strstr(r->s.failure_reason, lost));
		assert_int_equal(sent_cmd(r, SC_CONT), 0);
		rig_free(r);
	}
}

/*
 * sim-real D1, seed 4005020: the monitor reconnected after QEMU completed;
 * the mirrors' view was from before the cut, and the mirror that failed in
 * the gap (its BLOCK_JOB_ERROR on the closed connection, the job dismissed)
 * was taken for one in sync: 0.  Completed is judged only with a listing
 * of the jobs on the new connection (which finds the mirror gone unseen:
 * 8); with none at all in the re-polls' 2 s, the copy is not known: 8.
 */
static void
test_mirrors_stale_after_reconnect(void **state)
{
	static const char	*unseen = "disk d0 (/vm/d0.qcow2): its mirror "
	    "ended unseen (no qmigrate watched it, or its events went with a "
	    "lost connection): when is not known";
	struct sess_event	 job = { .kind = SEV_JOB_DONE, .ok = 1,
	    .job = SJ_FINISH_MIRRORS };
	struct rig		*r;
	int			 listed, i;

	(void)state;
	for (listed = 0; listed < 2; listed++) {
		r = source_migrating(0);
		r->s.mirrors_out = 1;
		r->disks_stale = 1;
		ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
		assert_false(session_done(&r->s));
		assert_int_equal(r->s.state, SS_PRECOPY);
		for (i = 0; listed && i < 3; i++)
			ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
		if (listed) {
			r->disks_stale = 0;
			r->disks_lost = unseen;
			ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
		} else
			while (!session_done(&r->s) &&
			    r->s.completed_polls <= 40)
				ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
		if (!session_done(&r->s))
			step(r, &job);
		assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
		    ABORT_NONE);
		assert_non_null(strstr(r->s.failure_reason, listed ? unseen :
		    "the mirrors' state since the monitor connected again is "
		    "not known"));
		assert_int_equal(sent_cmd(r, SC_CONT), 0);
		rig_free(r);
	}
}

/* D7: migrate-start-postcopy lost: sent again while QEMU stays in pre-copy. */
static void
test_postcopy_start_lost(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	r->s.state = SS_POSTCOPY;
	r->s.postcopy_asked = 1;
	ev_qmp_no_answer(r, SC_START_POSTCOPY);
	r->t = 5;
	ev_sample(r, QMS_ACTIVE, 20 * MiB, 200 * MiB);
	assert_int_equal(sent_cmd(r, SC_START_POSTCOPY), 1);
	/* The document says PostCopy only once QEMU does (D7b). */
	assert_int_equal(r->s.mode, MODE_PRECOPY);
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 30 * MiB, 100 * MiB);
	assert_int_equal(r->s.postcopy_asked, 0);
	assert_int_equal(r->s.mode, MODE_POSTCOPY);
	rig_free(r);
}

/* D8: the cancel's deadline survives a reconnect; the cancel is sent again. */
static void
test_cancel_across_reconnect(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	ev_signal(r, SIGTERM);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 1);
	r->t = 20;
	ev_closed(r, 0);
	assert_int_equal(r->s.state, SS_RECONNECT);
	r->t = 35;
	ev_simple(r, SEV_QMP_UP);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 3);	/* again, and late */
	assert_int_equal(r->s.state, SS_UNCANCELLED);
	rig_free(r);
}

/* D9: post-copy, the monitor cannot be reached again: 8, not 6. */
static void
test_postcopy_monitor_lost_unknown(void **state)
{
	struct rig *r = source_migrating(0);

	(void)state;
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 30 * MiB, 100 * MiB);
	r->t = 10;
	ev_closed(r, 0);
	r->t = 50;
	ev_closed(r, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	rig_free(r);
}

/* D1a: tls: the target's monitor drops after completed: it reconnects. */
static void
test_target_qmp_cut_after_completed(void **state)
{
	struct rig *r = target_tls_ready();

	(void)state;
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_control(r, CONTROL_COMPLETED);
	ev_closed(r, 0);
	assert_int_equal(r->s.state, SS_RECONNECT);
	assert_int_equal(answered(r, ANSWER_FENCED), 0);
	ev_simple(r, SEV_QMP_UP);
	ev_run_state(r, RUN_RUNNING);
	assert_int_equal(answered(r, ANSWER_RUNNING), 1);
	ev_timer(r, STIMER_END);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/*
 * D1 over tls:, the target's side: the source's "completed?" says a
 * disk's mirror failed before its QEMU completed.  The guest runs here
 * (the answer says so: the source must not resume), but not whole: 8,
 * naming the disk, as the source's 8.  Asked before the guest ran here
 * or after.  Without the word (a mirror that stood) it is 0 as before.
 */
static void
test_target_source_disks_lost(void **state)
{
	static const char	*lost = "disk d0 (/vm/d0.qcow2): its mirror "
	    "failed before QEMU completed the migration";
	struct rig		*r;
	int			 early, said;

	(void)state;
	for (said = 0; said < 2; said++)
		for (early = 0; early < 2; early++) {
			r = target_tls_ready();
			r->said_disks_lost = said ? lost : NULL;
			ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
			ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
			if (early)
				ev_control(r, CONTROL_COMPLETED);
			ev_run_state(r, RUN_RUNNING);
			if (!early)
				ev_control(r, CONTROL_COMPLETED);
			assert_int_equal(answered(r, ANSWER_RUNNING), 1);
			ev_timer(r, STIMER_END);
			if (!said) {
				assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK,
				    NULL, ABORT_NONE);
				rig_free(r);
				continue;
			}
			assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN,
			    "unknown", ABORT_NONE);
			assert_non_null(strstr(r->s.failure_reason, lost));
			assert_non_null(strstr(r->s.failure_reason,
			    "the guest runs on the target"));
			rig_free(r);
		}
}

/*
 * Row (issue 37, sim-real seed 3805: tls:, two disks): the target's
 * monitor closes while the exports wait for the source's mirrors to end
 * (the source's qmigrate killed after QEMU completed).  The release ended
 * with the monitor, so no run state was ever asked again: the re-run's
 * "completed?" went unanswered (four exits 8) and the target never
 * ended.  It runs again once the monitor is back.
 */
static void
test_target_release_across_reconnect(void **state)
{
	struct rig		*r = rig_new(SESS_TARGET, 1);
	struct sess_event	 job = { .kind = SEV_JOB_DONE,
	    .job = SJ_RELEASE_DISKS, .reason = "the monitor's connection "
	    "closed before the exports were removed",
	    .outcome = SO_NO_ANSWER };

	(void)state;
	r->s.cfg.disks = 1;
	target_tls_ready_on(r);
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_int_equal(sent_job(r, SJ_RELEASE_DISKS), 1);
	ev_simple(r, SEV_CONTROL_LOST);		/* the source killed */
	r->t = 4;
	step(r, &job);
	ev_closed(r, 0);
	assert_int_equal(r->s.state, SS_RECONNECT);
	r->t = 26;
	ev_simple(r, SEV_QMP_UP);
	assert_int_equal(sent_job(r, SJ_RELEASE_DISKS), 2);
	/* The re-run: its mirrors end, then it asks. */
	r->t = 55;
	job.ok = 1;
	job.outcome = SO_ANSWERED;
	job.reason = NULL;
	step(r, &job);
	assert_int_equal(sent(r, SA_QUERY_STATUS), 1);
	ev_control(r, CONTROL_COMPLETED);
	ev_run_state(r, RUN_RUNNING);
	assert_int_equal(answered(r, ANSWER_RUNNING), 1);
	ev_timer(r, STIMER_END);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/* ... and when it cannot be reached again: "not known", never "fenced". */
static void
test_target_qmp_lost_not_known(void **state)
{
	struct rig *r = target_tls_ready();

	(void)state;
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_control(r, CONTROL_COMPLETED);
	r->t = 1;
	ev_closed(r, 0);
	r->t = 40;
	ev_closed(r, 0);
	assert_int_equal(answered(r, ANSWER_NOT_KNOWN), 1);
	assert_int_equal(answered(r, ANSWER_FENCED), 0);
	assert_int_equal(sent_cmd(r, SC_QUIT), 0);
	ev_timer(r, STIMER_END);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	rig_free(r);
}

/*
 * N12: QEMU says "failed" during post-copy on the target: the source sent
 * pages it no longer holds, so it has no whole copy: 6, not 4 ("guest on
 * the source"), and this QEMU is never stopped (over tls: neither).
 */
static void
test_target_failed_postcopy(void **state)
{
	struct rig *r = rig_new(SESS_TARGET, 0);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 100 * MiB, 0);
	ev_sample(r, QMS_FAILED, 120 * MiB, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_POSTCOPY_LOST, "data",
	    ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_QUIT), 0);
	rig_free(r);

	r = target_tls_ready();
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 100 * MiB, 0);
	ev_sample(r, QMS_FAILED, 120 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_QUIT), 0);
	ev_control(r, CONTROL_COMPLETED);
	ev_timer(r, STIMER_END);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_POSTCOPY_LOST, "data",
	    ABORT_NONE);
	rig_free(r);
}

/*
 * N14: over unix:, a target QEMU started without -S starts a guest that
 * ran on the source by itself; one that arrives paused was paused there,
 * and is never resumed unless the policy let the source's controller
 * pause it.  Under -S (or its command line unread) paused says nothing:
 * resumed as before.
 */
static void
test_target_keeps_source_paused(void **state)
{
	static const struct { int autostart, may_pause, conts; } rows[] = {
		{ 1, 0, 0 },	/* paused on the source: kept */
		{ 1, 1, 1 },	/* the source's controller may have paused */
		{ 0, 0, 1 },	/* -S: paused says nothing */
		{ -1, 0, 1 },	/* not known: as before */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct rig *r = rig_new(SESS_TARGET, 0);

		r->s.cfg.qemu_autostart = rows[i].autostart;
		r->s.cfg.may_pause = rows[i].may_pause;
		ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
		ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
		ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
		ev_run_state(r, RUN_PAUSED);
		assert_int_equal(sent_cmd(r, SC_CONT), rows[i].conts);
		if (rows[i].conts)
			ev_run_state(r, RUN_RUNNING);
		assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL,
		    ABORT_NONE);
		rig_free(r);
	}
}

/*
 * A guest whose source QEMU was never started (-S, no cont) arrives in
 * prelaunch: the migration ended, the guest is left so (no cont), and
 * incoming ends (it waited for ever, deaf to SIGTERM and --timeout).  So
 * does a guest in any other state QEMU carried (suspended, shutdown,
 * guest-panicked, io-error), over unix: and tls: alike.
 */
static void
test_target_arrives_prelaunch(void **state)
{
	int tls;

	static const enum run_state arrived[] = { RUN_PRELAUNCH,
	    RUN_SUSPENDED, RUN_SHUTDOWN, RUN_GUEST_PANICKED, RUN_IO_ERROR };
	size_t i;

	(void)state;
	for (i = 0, tls = 0; i < sizeof arrived / sizeof arrived[0];
	    i += tls, tls = !tls) {
		struct rig *r = tls ? target_tls_ready() :
		    rig_new(SESS_TARGET, 0);

		if (!tls)
			ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
		ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
		ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
		ev_run_state(r, arrived[i]);
		assert_int_equal(sent_cmd(r, SC_CONT), 0);
		if (tls) {
			ev_control(r, CONTROL_COMPLETED);
			assert_int_equal(answered(r, ANSWER_RUNNING), 1);
			ev_timer(r, STIMER_END);
		}
		assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL,
		    ABORT_NONE);
		rig_free(r);
	}
}

/*
 * N4: a re-run of incoming after SIGKILL re-attaches (mig-target.c takes
 * the killed run's record over and skips migrate-incoming where QEMU
 * listens or has the migration): its first sample may already say
 * completed, with no "active" ever seen by this run: the guest arrived
 * (0), its run state asked first.
 */
static void
test_target_rerun_arrived(void **state)
{
	struct rig *r = rig_new(SESS_TARGET, 0);

	(void)state;
	r->s.cfg.unix_listen = 1;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_false(session_done(&r->s));
	assert_int_equal(sent(r, SA_QUERY_STATUS), 1);
	ev_run_state(r, RUN_RUNNING);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/* D1b: the arrived guest's cont is answered late: asked again, running. */
static void
test_target_cont_late(void **state)
{
	struct rig *r = target_tls_ready();

	(void)state;
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_control(r, CONTROL_COMPLETED);
	ev_run_state(r, RUN_PAUSED);
	assert_int_equal(sent_cmd(r, SC_CONT), 1);
	ev_qmp_no_answer(r, SC_CONT);
	assert_false(session_done(&r->s));
	assert_int_equal(answered(r, ANSWER_FENCED) +
	    answered(r, ANSWER_NOT_KNOWN), 0);
	ev_run_state(r, RUN_RUNNING);
	assert_int_equal(answered(r, ANSWER_RUNNING), 1);
	ev_timer(r, STIMER_END);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/*
 * The simulator's seed 4332017: post-copy allowed, the target's monitor
 * away while it ran and completed, the arrived guest's cont refused: this
 * QEMU may hold the only whole copy, so it is not stopped ("not known",
 * kept paused) unless the source's "completed?" says post-copy never ran.
 */
static void
test_target_cont_refused_postcopy_unseen(void **state)
{
	struct rig	*r;
	int		 said;

	(void)state;
	for (said = -1; said <= 1; said++) {
		r = rig_new(SESS_TARGET, 1);
		r->offer_postcopy = 1;
		r->said_postcopy = said;
		r = target_tls_ready_on(r);
		ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
		ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
		if (said != -1)
			ev_control(r, CONTROL_COMPLETED);
		ev_run_state(r, RUN_PAUSED);
		ev_qmp_done(r, SC_CONT, "cont: resetting the guest failed");
		if (said == 0) {
			/* Pre-copy only: stopped, then "fenced". */
			assert_int_equal(r->s.state, SS_FENCING);
			rig_free(r);
			continue;
		}
		assert_int_equal(sent_cmd(r, SC_QUIT), 0);
		if (said == -1)
			ev_control(r, CONTROL_COMPLETED);
		assert_int_equal(answered(r, ANSWER_NOT_KNOWN), 1);
		assert_int_equal(answered(r, ANSWER_FENCED), 0);
		ev_timer(r, STIMER_END);
		assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
		    ABORT_NONE);
		assert_int_equal(sent_cmd(r, SC_QUIT), 0);
		rig_free(r);
	}
}

/* A failed load over tls: QEMU is stopped for good before "fenced". */
static void
test_target_failed_load_fenced(void **state)
{
	struct rig *r = target_tls_ready();

	(void)state;
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	ev_control(r, CONTROL_COMPLETED);
	ev_sample(r, QMS_FAILED, 10 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_QUIT), 1);
	assert_int_equal(answered(r, ANSWER_FENCED), 0);
	ev_qmp_done(r, SC_QUIT, NULL);
	ev_closed(r, 0);
	assert_int_equal(answered(r, ANSWER_FENCED), 1);
	ev_timer(r, STIMER_END);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	rig_free(r);
}

/* A monitor cut right after quit was sent proves nothing: not fenced. */
static void
test_target_fence_cut_proves_nothing(void **state)
{
	struct rig *r = target_tls_ready();

	(void)state;
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_control(r, CONTROL_COMPLETED);
	ev_run_state(r, RUN_PAUSED);
	ev_qmp_done(r, SC_CONT, "cont: resetting the guest failed");
	/* QEMU's state is read before it is stopped. */
	assert_int_equal(r->s.state, SS_FENCING);
	assert_int_equal(sent_cmd(r, SC_QUIT), 0);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_QUIT), 1);
	ev_qmp_no_answer(r, SC_QUIT);
	ev_closed(r, 0);
	assert_int_equal(answered(r, ANSWER_FENCED), 0);
	ev_timer(r, STIMER_FENCE);
	assert_int_equal(answered(r, ANSWER_NOT_KNOWN), 1);
	rig_free(r);
}

/* The simulator's seed 49550: a fence never stops a post-copy it missed. */
static void
test_target_fence_spares_postcopy(void **state)
{
	struct rig		*r = target_tls_ready();
	struct sess_event	 lost = { .kind = SEV_CONTROL_LOST,
	    .reason = "closed" };

	(void)state;
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	step(r, &lost);
	r->t = 40;
	ev_timer(r, STIMER_SOURCE_GONE);
	assert_int_equal(sent(r, SA_CUT), 1);
	/* The monitor was silent: QEMU went post-copy unseen. */
	ev_sample(r, QMS_POSTCOPY_PAUSED, 100 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_QUIT), 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_POSTCOPY_LOST, "data",
	    ABORT_NONE);
	rig_free(r);
}

/* D4: SIGTERM on the target, then QEMU completes: 0, abort Failed. */
static void
test_target_term_then_success(void **state)
{
	struct rig *r = target_tls_ready();

	(void)state;
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	ev_signal(r, SIGTERM);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_run_state(r, RUN_RUNNING);
	ev_simple(r, SEV_CONTROL_LOST);
	/* A new control connection may come with "completed?". */
	ev_control(r, CONTROL_COMPLETED);
	assert_int_equal(answered(r, ANSWER_RUNNING), 1);
	ev_timer(r, STIMER_END);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_FAILED);
	rig_free(r);
}

/* D17: tcp: SIGTERM before any source: QEMU is stopped, exit 5. */
static void
test_target_tcp_term_before_source(void **state)
{
	struct rig *r = rig_new(SESS_TARGET, 0);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_signal(r, SIGTERM);
	assert_false(session_done(&r->s));
	ev_sample(r, QMS_NONE, 0, 0);
	assert_int_equal(sent_cmd(r, SC_QUIT), 1);
	ev_qmp_done(r, SC_QUIT, NULL);
	ev_closed(r, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	rig_free(r);
}

/* D6: unix: the deadline just as a stream begins: the sample decides. */
static void
test_target_deadline_stream_began(void **state)
{
	struct rig *r = rig_new(SESS_TARGET, 0);

	(void)state;
	r->s.cfg.unix_listen = 1;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_simple(r, SEV_DEADLINE);
	assert_false(session_done(&r->s));
	assert_int_equal(sent(r, SA_UNLISTEN), 1);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_run_state(r, RUN_RUNNING);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}


/* D16: the link breaks again during recovery: migrate-recover once more. */
static void
test_target_recover_twice(void **state)
{
	struct rig *r = rig_new(SESS_TARGET, 0);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 100 * MiB, 0);
	r->t = 1;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 100 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_RECOVER), 1);
	ev_qmp_done(r, SC_MIGRATE_RECOVER, NULL);
	r->t = 3;
	ev_sample(r, QMS_POSTCOPY_RECOVER, 110 * MiB, 0);
	r->t = 4;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 110 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_RECOVER), 2);
	assert_false(session_done(&r->s));
	rig_free(r);
}


/*
 * The target in post-copy, its QEMU paused and listening for the source's
 * resume (migrate-recover answered), at t = 12: past --recover-timeout
 * (10 s from the break at 1).  unix_listen: over unix:, else tcp:.
 */
static struct rig *
target_recover_past_deadline(int unix_listen)
{
	struct rig *r = rig_new(SESS_TARGET, 0);

	r->s.cfg.unix_listen = unix_listen;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 100 * MiB, 0);
	r->t = 1;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 100 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_RECOVER), 1);
	ev_qmp_done(r, SC_MIGRATE_RECOVER, NULL);
	r->t = 12;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 100 * MiB, 0);
	return r;
}

/*
 * Row: post-copy lost for good, the target over unix: (sim-real seeds
 * 6830 10003 13517: a re-run of the source resumed post-copy on the
 * listener a target that had said 6 left open).  Before it says 6 the
 * socket's path goes, and a sample asked after that with the accept
 * queue empty still says postcopy-paused: no resume can land.
 */
static void
test_target_recover_lost_unlistens(void **state)
{
	struct rig *r = target_recover_past_deadline(1);

	(void)state;
	assert_int_equal(sent(r, SA_UNLISTEN), 1);
	assert_false(session_done(&r->s));
	/* A sample asked before the removal proves nothing. */
	r->asked_ago = 0.1;
	r->t = 12.05;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 100 * MiB, 0);
	assert_false(session_done(&r->s));
	r->asked_ago = 0;
	r->t = 12.5;
	r->queued = 1;		/* a resume waits to be accepted */
	ev_sample(r, QMS_POSTCOPY_PAUSED, 100 * MiB, 0);
	assert_false(session_done(&r->s));
	r->t = 13;
	r->queued = 0;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 100 * MiB, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_POSTCOPY_LOST, "data",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "socket is removed"));
	assert_int_equal(sent_cmd(r, SC_MIGRATE_RECOVER), 1);
	assert_int_equal(sent_cmd(r, SC_QUIT), 0);	/* never stopped */
	rig_free(r);
}

/* A resume that connected before the path went is watched to its end. */
static void
test_target_recover_lands_after_unlisten(void **state)
{
	struct rig *r = target_recover_past_deadline(1);

	(void)state;
	assert_int_equal(sent(r, SA_UNLISTEN), 1);
	r->t = 12.5;
	ev_sample(r, QMS_POSTCOPY_RECOVER, 110 * MiB, 0);
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 120 * MiB, 0);
	assert_true(has_note(r, "post-copy recovered"));
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_run_state(r, RUN_RUNNING);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/*
 * Broken again after that recovery: migrate-recover makes the path anew,
 * so the next give-up removes it again.
 */
static void
test_target_recover_unlistens_again(void **state)
{
	struct rig *r = target_recover_past_deadline(1);

	(void)state;
	r->t = 12.5;
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 120 * MiB, 0);
	r->t = 13;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 120 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_RECOVER), 2);
	ev_qmp_done(r, SC_MIGRATE_RECOVER, NULL);
	r->t = 24;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 120 * MiB, 0);
	assert_int_equal(sent(r, SA_UNLISTEN), 2);
	r->t = 24.5;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 120 * MiB, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_POSTCOPY_LOST, "data",
	    ABORT_NONE);
	rig_free(r);
}

/*
 * Over tcp: QEMU's port stays open (only quit closes it, and this QEMU
 * holds part of the guest): a late resume may land, so not 6 but 8.
 */
static void
test_target_recover_lost_tcp_unknown(void **state)
{
	struct rig *r = target_recover_past_deadline(0);

	(void)state;
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "may still listen"));
	assert_int_equal(sent(r, SA_UNLISTEN), 0);
	assert_int_equal(sent_cmd(r, SC_QUIT), 0);
	rig_free(r);
}

/*
 * A migrate-recover that got no answer may still run (and make the path
 * anew) after the path is removed: not 6 but 8.  One still out when the
 * deadline passes is waited for.
 */
static void
test_target_recover_unanswered_unknown(void **state)
{
	struct rig *r = rig_new(SESS_TARGET, 0);

	(void)state;
	r->s.cfg.unix_listen = 1;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 100 * MiB, 0);
	r->t = 1;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 100 * MiB, 0);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_RECOVER), 1);
	r->t = 12;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 100 * MiB, 0);
	assert_false(session_done(&r->s));
	assert_int_equal(sent(r, SA_UNLISTEN), 0);
	ev_qmp_no_answer(r, SC_MIGRATE_RECOVER);
	r->t = 12.5;
	ev_sample(r, QMS_POSTCOPY_PAUSED, 100 * MiB, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "got no answer"));
	rig_free(r);
}


/* The simulator's T1: a query-status with no answer is asked again. */
static void
test_target_run_state_asked_again(void **state)
{
	struct rig		*r = target_tls_ready();
	struct sess_event	 silent = { .kind = SEV_QMP_SILENT,
	    .reason = "Timeout" };
	int			 before;

	(void)state;
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	before = sent(r, SA_QUERY_STATUS);
	r->t = 10;
	step(r, &silent);
	assert_int_equal(sent(r, SA_QUERY_STATUS), before + 1);
	ev_run_state(r, RUN_RUNNING);
	ev_simple(r, SEV_CONTROL_LOST);
	/* The source may ask again on a new connection: 10 s for it. */
	assert_false(session_done(&r->s));
	ev_timer(r, STIMER_END);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/* An abort asked here, then the monitor lost for good: 8, not 5. */
static void
test_target_unknown_over_abort(void **state)
{
	struct rig *r = target_tls_ready();

	(void)state;
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 0);
	ev_signal(r, SIGTERM);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	ev_control(r, CONTROL_COMPLETED);
	r->t = 1;
	ev_closed(r, 0);
	r->t = 40;
	ev_closed(r, 0);
	assert_int_equal(answered(r, ANSWER_NOT_KNOWN), 1);
	ev_timer(r, STIMER_END);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_FAILED);
	rig_free(r);
}


/* A sample asked before our migrate tells of the migration before it. */
static void
test_stale_sample_before_migrate(void **state)
{
	struct rig *r = rig_new(SESS_SOURCE, 0);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 1);
	/* The earlier migration's end, answered before migrate's answer. */
	ev_sample(r, QMS_CANCELLED, 0, 0);
	assert_false(session_done(&r->s));
	ev_qmp_done(r, SC_MIGRATE, NULL);
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 200 * MiB);
	ev_sample(r, QMS_COMPLETED, 210 * MiB, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);

	/* The same while an abort waits for QEMU's cancel. */
	r = rig_new(SESS_SOURCE, 0);
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_signal(r, SIGTERM);
	ev_sample(r, QMS_CANCELLED, 0, 0);
	assert_false(session_done(&r->s));
	ev_qmp_done(r, SC_MIGRATE, NULL);
	ev_sample(r, QMS_CANCELLED, 1 * MiB, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	rig_free(r);
}


/* The simulator's seed 2892501: the deadline before any offer ends it. */
static void
test_target_deadline_before_offer(void **state)
{
	struct rig *r = rig_new(SESS_TARGET, 1);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_simple(r, SEV_DEADLINE);
	/* A late offer is not taken: nothing is prepared after the end. */
	ev_control(r, CONTROL_OFFER);
	assert_int_equal(answered(r, ANSWER_READY), 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	rig_free(r);
}

/* ---- cpr-transfer (`qmigrate update`) ------------------------------ */

static struct rig *
cpr_rig(int defer)
{
	struct rig *r = rig_new(SESS_SOURCE, 0);

	r->s.cfg.cpr = 1;
	r->s.cfg.cpr_defer = defer;
	r->s.cfg.new_qmp_path = "/run/vm1/new.qmp";
	r->s.cfg.peer = "/run/vm1/new.qmp";
	return r;
}

/* An event of the new QEMU's monitor. */
static void
ev_new(struct rig *r, enum sess_ev_kind kind, enum sess_cmd cmd,
    enum sess_outcome outcome)
{
	struct sess_event ev = { .kind = kind, .cmd = cmd, .new_qemu = 1,
	    .outcome = outcome, .ok = outcome == SO_ANSWERED,
	    .reason = outcome == SO_ANSWERED ? NULL : "closed" };

	step(r, &ev);
}

static void
ev_new_run_state(struct rig *r, enum run_state state)
{
	struct run_info		ri = { .state = state,
	    .running = state == RUN_RUNNING };
	struct sess_event	ev = { .kind = SEV_RUN_STATE, .ri = &ri,
	    .new_qemu = 1 };

	snprintf(ri.state_name, sizeof ri.state_name, "state-%d", state);
	step(r, &ev);
}

/* Actions of kind sent to the new QEMU (new 1) or the old one (0). */
static int
sent_cmd_to(const struct rig *r, enum sess_cmd cmd, int new_qemu)
{
	size_t	i;
	int	n = 0;

	for (i = 0; i < r->nlog; i++)
		n += r->log[i].kind == SA_QMP && r->log[i].cmd == cmd &&
		    r->log[i].new_qemu == new_qemu;
	return n;
}

/* A failed update's end: the old QEMU's mode and pause are put back
 * (audit N11) before the last document. */
static void
cpr_settings_undone(struct rig *r)
{
	assert_false(session_done(&r->s));
	assert_int_equal(sent_cmd_to(r, SC_MODE_NORMAL, 0), 1);
	ev_qmp_done(r, SC_MODE_NORMAL, NULL);
	assert_int_equal(sent_cmd_to(r, SC_PAUSE_OFF, 0), 1);
	ev_qmp_done(r, SC_PAUSE_OFF, NULL);
}

/* An update whose old QEMU migrates, the new QEMU attached (defer). */
static struct rig *
cpr_migrating(void)
{
	struct rig *r = cpr_rig(1);

	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	assert_int_equal(r->s.mode, MODE_CPR_TRANSFER);
	assert_int_equal(sent_cmd_to(r, SC_MIGRATE, 0), 1);
	assert_int_equal(sent(r, SA_NEW_CONNECT), 1);
	assert_int_equal(r->s.state, SS_CPR_ATTACH);
	ev_qmp_done(r, SC_MIGRATE, NULL);
	ev_sample(r, QMS_SETUP, 0, 0);
	ev_new(r, SEV_QMP_UP, 0, SO_ANSWERED);
	assert_int_equal(sent_cmd_to(r, SC_MIGRATE_INCOMING, 1), 1);
	ev_new(r, SEV_QMP_DONE, SC_MIGRATE_INCOMING, SO_ANSWERED);
	assert_int_equal(r->s.state, SS_PRECOPY);
	r->t = 0.1;
	ev_sample(r, QMS_ACTIVE, 100000, 0);
	return r;
}

/* The old QEMU completed: the handoff asks the new QEMU's run state. */
static void
cpr_completed(struct rig *r)
{
	r->t = 0.2;
	ev_sample(r, QMS_COMPLETED, 112000, 0);
	assert_int_equal(r->s.state, SS_CPR_HANDOFF);
	assert_false(session_done(&r->s));
	assert_int_equal(sent_cmd_to(r, SC_QUIT, 0), 0);
}

/* cpr: the new QEMU runs the guest: the old one is told quit, then 0. */
static void
test_cpr_update_succeeds(void **state)
{
	struct rig *r = cpr_migrating();

	(void)state;
	cpr_completed(r);
	ev_new_run_state(r, RUN_INMIGRATE);	/* not yet: asked again */
	ev_timer(r, STIMER_HANDOFF);
	ev_new_run_state(r, RUN_RUNNING);
	assert_int_equal(sent_cmd_to(r, SC_QUIT, 0), 1);
	assert_false(session_done(&r->s));
	ev_qmp_done(r, SC_QUIT, NULL);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_int_equal(r->s.mode, MODE_CPR_TRANSFER);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	rig_free(r);
}

/* cpr: a new QEMU started with -S waits: cont there, then quit the old. */
static void
test_cpr_new_paused_cont(void **state)
{
	struct rig *r = cpr_migrating();

	(void)state;
	cpr_completed(r);
	ev_new_run_state(r, RUN_PAUSED);
	assert_int_equal(sent_cmd_to(r, SC_CONT, 1), 1);
	assert_int_equal(sent_cmd_to(r, SC_QUIT, 0), 0);
	ev_new(r, SEV_QMP_DONE, SC_CONT, SO_ANSWERED);
	assert_int_equal(sent_cmd_to(r, SC_QUIT, 0), 1);
	/* QEMU exits before it answers quit: the closed monitor says it. */
	ev_qmp_no_answer(r, SC_QUIT);
	assert_false(session_done(&r->s));
	ev_closed(r, 1);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_int_equal(sent_cmd_to(r, SC_CONT, 0), 0);
	rig_free(r);
}

/* cpr: a guest paused on the old QEMU before the update stays paused on
 * the new one (audit N14): no cont there; the old QEMU quits, 0. */
static void
test_cpr_paused_guest_stays_paused(void **state)
{
	struct rig		*r = cpr_rig(1);
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_FRESH, .mode = MODE_PRECOPY, .ok = 1,
	    .guest_paused = 1 };

	(void)state;
	step(r, &ev);
	ev_qmp_done(r, SC_MIGRATE, NULL);
	ev_new(r, SEV_QMP_UP, 0, SO_ANSWERED);
	ev_new(r, SEV_QMP_DONE, SC_MIGRATE_INCOMING, SO_ANSWERED);
	cpr_completed(r);
	ev_new_run_state(r, RUN_PAUSED);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	assert_true(has_note(r, "stays paused"));
	ev_qmp_done(r, SC_QUIT, NULL);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/* cpr: the new QEMU's monitor never appears: cancelled, guest on the old. */
static void
test_cpr_new_monitor_never_appears(void **state)
{
	struct rig *r = cpr_rig(1);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_qmp_done(r, SC_MIGRATE, NULL);
	ev_sample(r, QMS_SETUP, 0, 0);
	r->t = 20;
	ev_new(r, SEV_QMP_CLOSED, 0, SO_NO_ANSWER);
	assert_int_equal(sent_cmd_to(r, SC_CANCEL, 0), 1);
	ev_sample(r, QMS_CANCELLED, 0, 0);
	cpr_settings_undone(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "new.qmp"));
	assert_int_equal(sent_cmd(r, SC_QUIT), 0);
	rig_free(r);
}

/* cpr: the new QEMU dies before switchover: QEMU fails, guest on the old. */
static void
test_cpr_new_dies_before_switchover(void **state)
{
	struct rig *r = cpr_migrating();

	(void)state;
	ev_new(r, SEV_QMP_CLOSED, 0, SO_NO_ANSWER);
	assert_false(session_done(&r->s));
	ev_sample(r, QMS_FAILED, 100000, 0);
	cpr_settings_undone(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_QUIT), 0);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/* cpr: SIGTERM before the old QEMU completed: cancelled there (5). */
static void
test_cpr_signal_before_completion(void **state)
{
	struct rig *r = cpr_rig(1);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_signal(r, SIGTERM);
	assert_int_equal(sent_cmd_to(r, SC_CANCEL, 0), 1);
	ev_qmp_done(r, SC_MIGRATE, NULL);
	ev_new(r, SEV_QMP_UP, 0, SO_ANSWERED);	/* too late: ignored */
	assert_int_equal(sent_cmd(r, SC_MIGRATE_INCOMING), 0);
	ev_sample(r, QMS_CANCELLED, 0, 0);
	cpr_settings_undone(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	assert_int_equal(sent_cmd(r, SC_QUIT), 0);
	rig_free(r);
}

/* cpr: SIGTERM once the old QEMU completed: refused, the update ends. */
static void
test_cpr_signal_after_completion(void **state)
{
	struct rig *r = cpr_migrating();

	(void)state;
	cpr_completed(r);
	ev_signal(r, SIGTERM);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_true(has_note(r, "abort refused"));
	ev_new_run_state(r, RUN_RUNNING);
	ev_qmp_done(r, SC_QUIT, NULL);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_FAILED);
	rig_free(r);
}

/* cpr: no word from the new QEMU after completion: not known (8), the
 * old QEMU's copy kept paused (no cont, no quit). */
static void
test_cpr_new_silent_after_completion(void **state)
{
	struct rig *r = cpr_migrating();

	(void)state;
	cpr_completed(r);
	ev_timer(r, STIMER_NEW_QEMU);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_QUIT), 0);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/* cpr: the new QEMU gone after completion: not known (8), no quit. */
static void
test_cpr_new_gone_after_completion(void **state)
{
	struct rig *r = cpr_migrating();

	(void)state;
	cpr_completed(r);
	ev_new(r, SEV_QMP_CLOSED, 0, SO_NO_ANSWER);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "new.qmp"));
	assert_int_equal(sent_cmd(r, SC_QUIT), 0);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/*
 * cpr: the old QEMU waits in pre-switchover (pause-before-switchover),
 * told migrate-continue: the point of no return.  A SIGTERM then is
 * refused (no cancel: the new QEMU, started without -S, would run the
 * guest on the same memory as the resumed old one), the update ends.
 */
static void
test_cpr_switchover_signal_refused(void **state)
{
	struct rig *r = cpr_migrating();

	(void)state;
	r->t = 0.15;
	ev_sample(r, QMS_PRE_SWITCHOVER, 100000, 0);
	assert_int_equal(r->s.state, SS_SWITCHOVER);
	assert_int_equal(sent_cmd_to(r, SC_MIGRATE_CONTINUE, 0), 1);
	ev_signal(r, SIGTERM);
	ev_simple(r, SEV_DEADLINE);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_true(has_note(r, "abort refused"));
	ev_qmp_done(r, SC_MIGRATE_CONTINUE, NULL);
	ev_sample(r, QMS_DEVICE, 110000, 0);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_CONTINUE), 1);
	cpr_completed(r);
	ev_new_run_state(r, RUN_RUNNING);
	ev_qmp_done(r, SC_QUIT, NULL);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_FAILED);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	rig_free(r);
}

/* cpr: SIGTERM before the session told QEMU migrate-continue: the cancel
 * is safe, and QEMU (waiting in pre-switchover) takes it: 5. */
static void
test_cpr_signal_before_continue(void **state)
{
	struct rig *r = cpr_migrating();

	(void)state;
	ev_signal(r, SIGTERM);
	assert_int_equal(sent_cmd_to(r, SC_CANCEL, 0), 1);
	ev_sample(r, QMS_PRE_SWITCHOVER, 100000, 0);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_CONTINUE), 0);
	ev_sample(r, QMS_CANCELLED, 100000, 0);
	cpr_settings_undone(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	assert_int_equal(sent_cmd(r, SC_QUIT), 0);
	rig_free(r);
}

/* cpr: a cancel QEMU read too late (it says device, an old QEMU with no
 * pause-before-switchover): past the point of no return, never asked
 * again; the update ends as QEMU ends it. */
static void
test_cpr_device_after_cancel(void **state)
{
	struct rig *r = cpr_migrating();

	(void)state;
	ev_signal(r, SIGTERM);
	assert_int_equal(sent_cmd_to(r, SC_CANCEL, 0), 1);
	ev_sample(r, QMS_DEVICE, 100000, 0);
	assert_int_equal(r->s.state, SS_SWITCHOVER);
	assert_true(has_note(r, "before it could cancel"));
	r->t = 40;
	ev_timer(r, STIMER_CANCEL);
	ev_sample(r, QMS_DEVICE, 100000, 0);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 1);
	cpr_completed(r);
	ev_new_run_state(r, RUN_RUNNING);
	ev_qmp_done(r, SC_QUIT, NULL);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_FAILED);
	rig_free(r);
}

/* cpr: the old QEMU's monitor lost in the switchover, for good: not known
 * (8); a continue whose answer was lost is sent again only once a later
 * sample shows QEMU still waiting. */
static void
test_cpr_switchover_monitor_lost(void **state)
{
	struct rig *r = cpr_migrating();

	(void)state;
	r->t = 0.15;
	ev_sample(r, QMS_PRE_SWITCHOVER, 100000, 0);
	ev_qmp_no_answer(r, SC_MIGRATE_CONTINUE);
	ev_sample(r, QMS_PRE_SWITCHOVER, 100000, 0);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_CONTINUE), 1);
	r->t = 2;
	ev_sample(r, QMS_PRE_SWITCHOVER, 100000, 0);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_CONTINUE), 2);
	ev_closed(r, 0);
	assert_int_equal(r->s.state, SS_RECONNECT);
	ev_signal(r, SIGTERM);
	r->t = 40;
	ev_closed(r, 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_FAILED);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_int_equal(sent_cmd(r, SC_QUIT), 0);
	rig_free(r);
}

/*
 * cpr: the old QEMU's monitor closes right after migrate and the new
 * QEMU's appears while it reconnects (audit N6): its QMP_UP and its
 * migrate-incoming answer are the attach's all the same, and the update
 * goes on once the old monitor is back.
 */
static void
test_cpr_new_up_during_reconnect(void **state)
{
	struct rig *r = cpr_rig(1);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_qmp_done(r, SC_MIGRATE, NULL);
	ev_closed(r, 0);
	assert_int_equal(r->s.state, SS_RECONNECT);
	ev_new(r, SEV_QMP_UP, 0, SO_ANSWERED);
	assert_int_equal(sent_cmd_to(r, SC_MIGRATE_INCOMING, 1), 1);
	ev_new(r, SEV_QMP_DONE, SC_MIGRATE_INCOMING, SO_ANSWERED);
	assert_int_equal(r->s.state, SS_RECONNECT);
	r->t = 2;
	ev_simple(r, SEV_QMP_UP);
	assert_int_equal(r->s.state, SS_PRECOPY);
	ev_sample(r, QMS_PRE_SWITCHOVER, 100000, 0);
	assert_int_equal(sent_cmd_to(r, SC_MIGRATE_CONTINUE, 0), 1);
	cpr_completed(r);
	ev_new_run_state(r, RUN_RUNNING);
	ev_qmp_done(r, SC_QUIT, NULL);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/* cpr: ... and a new monitor lost then: the abort waits for the old
 * monitor, then cancels there (the old QEMU has not completed). */
static void
test_cpr_new_lost_during_reconnect(void **state)
{
	struct rig *r = cpr_rig(1);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_qmp_done(r, SC_MIGRATE, NULL);
	ev_closed(r, 0);
	r->t = 20;
	ev_new(r, SEV_QMP_CLOSED, 0, SO_NO_ANSWER);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	r->t = 21;
	ev_simple(r, SEV_QMP_UP);
	assert_int_equal(sent_cmd_to(r, SC_CANCEL, 0), 1);
	ev_sample(r, QMS_CANCELLED, 0, 0);
	cpr_settings_undone(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	rig_free(r);
}

/* cpr: the old QEMU's monitor silent for 30 s: not known (8), never
 * "failed" as if the guest were known to run there. */
static void
test_cpr_old_monitor_silent(void **state)
{
	struct rig		*r = cpr_migrating();
	struct sess_event	 ev = { .kind = SEV_QMP_SILENT,
	    .reason = "Timeout" };

	(void)state;
	r->t = 1;
	step(r, &ev);
	r->t = 32;
	step(r, &ev);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_QUIT), 0);
	rig_free(r);
}

/* cpr: QEMU refuses migrate (its own words kept): control plane, 3. */
static void
test_cpr_migrate_refused(void **state)
{
	struct rig *r = cpr_rig(1);

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	ev_qmp_done(r, SC_MIGRATE, "Memory region pc.ram is not compatible "
	    "with CPR. share=on is required for memory-backend-memfd");
	cpr_settings_undone(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "share=on"));
	rig_free(r);
}

/* cpr: a re-run after the old QEMU completed asks the new QEMU. */
static void
test_cpr_rerun_already_done(void **state)
{
	struct rig		*r = cpr_rig(0);
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_ALREADY_DONE, .mode = MODE_CPR_TRANSFER,
	    .uid = "uid-1" };

	(void)state;
	step(r, &ev);
	assert_int_equal(r->s.state, SS_CPR_HANDOFF);
	assert_int_equal(sent(r, SA_NEW_CONNECT), 1);
	ev_new(r, SEV_QMP_UP, 0, SO_ANSWERED);
	ev_new_run_state(r, RUN_RUNNING);
	ev_qmp_done(r, SC_QUIT, NULL);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/*
 * cpr: a re-run whose old QEMU is gone (the killed run had told it quit,
 * audit N7): the new QEMU is asked; it runs the guest: 0, no quit to
 * send.  It does not: 8, saying no old copy is left, never 3.
 */
static void
test_cpr_rerun_old_gone(void **state)
{
	struct rig		*r = cpr_rig(0);
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_ALREADY_DONE, .mode = MODE_CPR_TRANSFER,
	    .uid = "uid-1", .qemu_gone = 1 };

	(void)state;
	step(r, &ev);
	assert_int_equal(r->s.state, SS_CPR_HANDOFF);
	assert_true(has_note(r, "its monitor is gone"));
	ev_new(r, SEV_QMP_UP, 0, SO_ANSWERED);
	ev_new_run_state(r, RUN_RUNNING);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_QUIT), 0);
	rig_free(r);

	r = cpr_rig(0);
	step(r, &ev);
	r->t = 31;
	ev_timer(r, STIMER_NEW_QEMU);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "no old copy"));
	rig_free(r);
}

/* cpr: a re-run finds the old QEMU still migrating: the new QEMU is
 * attached again; its refusal of a second migrate-incoming is the killed
 * run's having reached it, and the update goes on to its end. */
static void
test_cpr_rerun_reattach(void **state)
{
	struct rig		*r = cpr_rig(1);
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_REATTACH, .mode = MODE_CPR_TRANSFER,
	    .uid = "uid-1", .reason = "setup" };

	(void)state;
	step(r, &ev);
	assert_int_equal(r->s.state, SS_CPR_ATTACH);
	assert_int_equal(sent(r, SA_NEW_CONNECT), 1);
	ev_new(r, SEV_QMP_UP, 0, SO_ANSWERED);
	ev_new(r, SEV_QMP_DONE, SC_MIGRATE_INCOMING, SO_REFUSED);
	assert_int_equal(r->s.state, SS_PRECOPY);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	cpr_completed(r);
	ev_new_run_state(r, RUN_RUNNING);
	ev_qmp_done(r, SC_QUIT, NULL);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/* ---- cpr-exec (`qmigrate update --mode exec`) --------------------- */

static struct rig *
cpr_exec_rig(void)
{
	struct rig *r = rig_new(SESS_SOURCE, 0);

	r->s.cfg.cpr = 1;
	r->s.cfg.cpr_exec = 1;
	r->s.cfg.new_qmp_path = r->s.cfg.qmp_path;
	r->s.cfg.peer = r->s.cfg.qmp_path;
	return r;
}

/* The seconds of the last timer of kind asked for (-1: none). */
static double
last_timer(const struct rig *r, enum sess_timer timer)
{
	size_t	i;
	double	seconds = -1;

	for (i = 0; i < r->nlog; i++)
		if (r->log[i].kind == SA_TIMER && r->log[i].timer == timer)
			seconds = r->log[i].seconds;
	return seconds;
}

/* An update by cpr-exec whose QEMU migrates to its file: no second QEMU
 * to attach, the mode CprExec. */
static struct rig *
cpr_exec_migrating(void)
{
	struct rig *r = cpr_exec_rig();

	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	assert_int_equal(r->s.mode, MODE_CPR_EXEC);
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 1);
	assert_int_equal(sent(r, SA_NEW_CONNECT), 0);
	assert_int_equal(r->s.state, SS_PRECOPY);
	ev_qmp_done(r, SC_MIGRATE, NULL);
	r->t = 0.1;
	ev_sample(r, QMS_ACTIVE, 100000, 0);
	return r;
}

/* QEMU waits in pre-switchover: migrate-continue, the point of no return. */
static void
cpr_exec_continued(struct rig *r)
{
	r->t = 0.15;
	ev_sample(r, QMS_PRE_SWITCHOVER, 100000, 0);
	assert_int_equal(r->s.state, SS_SWITCHOVER);
	assert_int_equal(sent_cmd(r, SC_MIGRATE_CONTINUE), 1);
	ev_qmp_done(r, SC_MIGRATE_CONTINUE, NULL);
}

/* QEMU completed: the exec is awaited on the same monitor. */
static void
cpr_exec_completed(struct rig *r)
{
	cpr_exec_continued(r);
	r->t = 0.2;
	ev_sample(r, QMS_COMPLETED, 112000, 0);
	assert_int_equal(r->s.state, SS_CPR_EXEC);
	assert_false(session_done(&r->s));
	assert_int_equal(sent(r, SA_QUERY_STATUS), 1);
}

/* ... then the exec: the monitor closes, and the new QEMU's is not
 * there yet (connects refused). */
static void
cpr_exec_closed(struct rig *r)
{
	r->t = 0.25;
	ev_closed(r, 0);
	assert_int_equal(r->s.state, SS_RECONNECT);
	assert_int_equal(sent(r, SA_RECONNECT), 1);
}

/*
 * cpr-exec: the monitor closes at the exec and the new QEMU binds it 20-50
 * ms later: the connects are tried again after 10, 20, 40 ms (not 1 s);
 * the new QEMU runs the guest and says completed: 0, the mode CprExec,
 * nothing to undo (the new QEMU's mode is normal), no cancel, no quit.
 */
static void
test_cpr_exec_update_succeeds(void **state)
{
	struct rig *r = cpr_exec_migrating();

	(void)state;
	cpr_exec_completed(r);
	ev_run_state(r, RUN_POSTMIGRATE);	/* not yet exec'd: asked again */
	ev_timer(r, STIMER_HANDOFF);
	assert_int_equal(sent(r, SA_QUERY_STATUS), 2);
	cpr_exec_closed(r);
	ev_closed(r, 0);
	assert_true(last_timer(r, STIMER_RECONNECT) == 0.01);
	ev_timer(r, STIMER_RECONNECT);
	ev_closed(r, 0);
	assert_true(last_timer(r, STIMER_RECONNECT) == 0.02);
	ev_timer(r, STIMER_RECONNECT);
	ev_closed(r, 0);
	assert_true(last_timer(r, STIMER_RECONNECT) == 0.04);
	ev_timer(r, STIMER_RECONNECT);
	assert_int_equal(sent(r, SA_RECONNECT), 4);
	r->t = 0.32;
	ev_simple(r, SEV_QMP_UP);
	assert_int_equal(r->s.state, SS_CPR_EXEC);
	/* completed before the run state: asked after it again. */
	ev_sample(r, QMS_COMPLETED, 0, 0);
	assert_false(session_done(&r->s));
	ev_run_state(r, RUN_RUNNING);
	assert_false(session_done(&r->s));
	ev_sample(r, QMS_COMPLETED, 0, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_int_equal(r->s.mode, MODE_CPR_EXEC);
	assert_int_equal(sent_cmd(r, SC_MODE_NORMAL), 0);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_int_equal(sent_cmd(r, SC_QUIT), 0);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/* cpr-exec: the reconnect's delay doubles up to 200 ms, never more. */
static void
test_cpr_exec_reconnect_bounded_backoff(void **state)
{
	struct rig	*r = cpr_exec_migrating();
	int		 i;

	(void)state;
	cpr_exec_completed(r);
	cpr_exec_closed(r);
	for (i = 0; i < 12; i++) {
		ev_closed(r, 0);
		ev_timer(r, STIMER_RECONNECT);
	}
	assert_true(last_timer(r, STIMER_RECONNECT) == 0.2);
	assert_false(session_done(&r->s));
	rig_free(r);
}

/*
 * cpr-exec: QEMU's execvp failed (a missing binary): the old QEMU runs
 * the guest again on the same connection, its migration failed, its mode
 * still cpr-exec: QEMU's refusal (3) in its words, and the mode and the
 * pause put back before the end (a later migrate would exec again).
 */
static void
test_cpr_exec_execvp_fails(void **state)
{
	struct rig *r = cpr_exec_migrating();

	(void)state;
	cpr_exec_completed(r);
	ev_run_state(r, RUN_RUNNING);
	ev_failed_because(r, "execvp /nonexistent/qemu failed: No such file "
	    "or directory");
	cpr_settings_undone(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "execvp /nonexistent"));
	assert_non_null(strstr(r->s.failure_reason, "runs on the old QEMU"));
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/* cpr-exec: ... the completed status unseen (it lasts a few ms): the
 * failed sample in the switchover, or in pre-copy, is the same refusal. */
static void
test_cpr_exec_execvp_fails_unseen_completed(void **state)
{
	struct rig *r = cpr_exec_migrating();

	(void)state;
	cpr_exec_continued(r);
	ev_failed_because(r, "execvp /x failed: Permission denied");
	cpr_settings_undone(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	rig_free(r);

	r = cpr_exec_migrating();
	ev_failed_because(r, "execvp /x failed: Permission denied");
	cpr_settings_undone(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	rig_free(r);
}

/*
 * cpr-exec: after the exec the new QEMU's process exited (a command that
 * exits at once, a load that failed): not known (8) at once, saying no
 * old copy is left; nothing sent to undo (there is no QEMU), no cont.
 */
static void
test_cpr_exec_new_qemu_exits(void **state)
{
	struct rig *r = cpr_exec_migrating();

	(void)state;
	cpr_exec_completed(r);
	cpr_exec_closed(r);
	ev_closed(r, 0);
	ev_timer(r, STIMER_RECONNECT);
	r->t = 0.4;
	ev_closed(r, 1);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "no old copy"));
	assert_non_null(strstr(r->s.failure_reason, "process has exited"));
	assert_int_equal(sent_cmd(r, SC_MODE_NORMAL), 0);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/* cpr-exec: the new QEMU's monitor never comes back (its process lives):
 * not known (8) after 30 s, not a 1 s retry forever. */
static void
test_cpr_exec_new_monitor_never_back(void **state)
{
	struct rig *r = cpr_exec_migrating();

	(void)state;
	cpr_exec_completed(r);
	cpr_exec_closed(r);
	ev_closed(r, 0);
	assert_int_equal(last_timer(r, STIMER_NEW_QEMU) == 30.0, 1);
	r->t = 30.2;
	ev_timer(r, STIMER_NEW_QEMU);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "could not be reached"));
	assert_int_equal(sent_cmd(r, SC_MODE_NORMAL), 0);
	rig_free(r);
}

/*
 * cpr-exec: the exec'd program started QEMU without -incoming (a wrapper
 * that drops it): the new QEMU runs a guest booted afresh and has no
 * migration.  Its run state is asked again in a while, not at once (a
 * loop of queries for 30 s before: sim-real --update-exec), and it is
 * never taken for the update's success: not known (8) at the bound.
 */
static void
test_cpr_exec_fresh_guest(void **state)
{
	struct rig	*r = cpr_exec_migrating();
	int		 asked;

	(void)state;
	cpr_exec_completed(r);
	cpr_exec_closed(r);
	ev_simple(r, SEV_QMP_UP);
	ev_run_state(r, RUN_RUNNING);
	asked = sent(r, SA_QUERY_STATUS);
	ev_sample(r, QMS_NONE, 0, 0);
	assert_int_equal(sent(r, SA_QUERY_STATUS), asked);
	assert_true(last_timer(r, STIMER_HANDOFF) == 0.05);
	ev_timer(r, STIMER_HANDOFF);
	assert_int_equal(sent(r, SA_QUERY_STATUS), asked + 1);
	ev_run_state(r, RUN_RUNNING);
	ev_sample(r, QMS_NONE, 0, 0);
	assert_false(session_done(&r->s));
	r->t = 30.2;
	ev_timer(r, STIMER_NEW_QEMU);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	rig_free(r);
}

/*
 * cpr-exec: the setup sent the plan (mode cpr-exec, its command line)
 * and ended before migrate: its answer late (3), or a signal or the
 * deadline first (5).  The mode is put back, which QEMU takes after the
 * plan's, in order; a setup that never sent it puts nothing back
 * (sim-real --update-exec, E3: seeds 37 92 308 of 1-3000).
 */
static void
test_cpr_exec_setup_ends_after_plan(void **state)
{
	struct rig		*r = cpr_exec_rig();
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_FAILED, .fail = FAIL_CONTROL, .cpr_mode_sent = 1,
	    .reason = "migrate-set-parameters: no reply within 10 s" };

	(void)state;
	step(r, &ev);
	cpr_settings_undone(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	rig_free(r);

	r = cpr_exec_rig();
	ev.cpr_mode_sent = 0;
	step(r, &ev);
	assert_int_equal(sent_cmd(r, SC_MODE_NORMAL), 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	rig_free(r);

	r = cpr_exec_rig();
	r->s.pending.asked = 1;
	r->s.pending.why = FAIL_ABORTED;
	r->s.pending.requested = 1;
	snprintf(r->s.pending.reason, sizeof r->s.pending.reason,
	    "abort requested (SIGTERM)");
	ev.setup = SETUP_FRESH;
	ev.fail = FAIL_NONE;
	ev.cpr_mode_sent = 1;
	step(r, &ev);
	cpr_settings_undone(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	rig_free(r);
}

/*
 * An update's put-back on a monitor gone mute (a dropped command: the
 * connection answers nothing more, a new one works): each send with no
 * answer is sent again on a new connection, CPR_RESET_TRIES (3) sends in
 * all, and exit 3 says only what is true: put back, or a note that the
 * mode may still be set and how to undo it (sim-real --update-exec with
 * drops, G2: seeds 85 95 155 162 225 244 299 exited 3 with the mode
 * left; mode normal was sent once, on the mute connection).
 */
static void
test_cpr_exec_putback_new_connection(void **state)
{
	struct rig		*r = cpr_exec_rig();
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_FAILED, .fail = FAIL_CONTROL, .cpr_mode_sent = 1,
	    .reason = "pre-flight check (in-place update by exec): "
	    "query-migrate: no reply within 10 s" };
	int			 i;

	(void)state;
	step(r, &ev);
	assert_int_equal(sent_cmd(r, SC_MODE_NORMAL), 1);
	ev_qmp_no_answer(r, SC_MODE_NORMAL);
	assert_int_equal(sent(r, SA_RECONNECT), 1);
	assert_int_equal(r->s.state, SS_RECONNECT);
	assert_false(session_done(&r->s));
	ev_simple(r, SEV_QMP_UP);
	assert_int_equal(sent_cmd(r, SC_MODE_NORMAL), 2);
	ev_qmp_done(r, SC_MODE_NORMAL, NULL);
	assert_int_equal(sent_cmd(r, SC_PAUSE_OFF), 1);
	ev_qmp_done(r, SC_PAUSE_OFF, NULL);
	assert_false(has_note(r, "not confirmed"));
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	rig_free(r);

	/* Never answered: three sends, then the note; the pause's too. */
	r = cpr_exec_rig();
	step(r, &ev);
	for (i = 0; i < 3; i++) {
		assert_int_equal(sent_cmd(r, SC_MODE_NORMAL), i + 1);
		ev_qmp_no_answer(r, SC_MODE_NORMAL);
		if (i < 2)
			ev_simple(r, SEV_QMP_UP);
	}
	assert_int_equal(sent(r, SA_RECONNECT), 2);
	assert_true(has_note(r, "mode normal not confirmed"));
	assert_true(has_note(r, "may still be cpr-exec"));
	for (i = 0; i < 3; i++) {
		assert_int_equal(sent_cmd(r, SC_PAUSE_OFF), i + 1);
		ev_qmp_no_answer(r, SC_PAUSE_OFF);
		if (i < 2)
			ev_simple(r, SEV_QMP_UP);
	}
	assert_true(has_note(r, "pause-before-switchover off not "
	    "confirmed"));
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	rig_free(r);

	/* The monitor cannot be reached again: the note, not a hang. */
	r = cpr_exec_rig();
	step(r, &ev);
	ev_qmp_no_answer(r, SC_MODE_NORMAL);
	r->t = 31;
	ev_closed(r, 0);
	assert_true(has_note(r, "mode normal not confirmed"));
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	rig_free(r);
}

/*
 * cpr-exec: a re-run re-attaches to the killed run's update (QEMU in
 * pre-switchover), continues it, and the exec fails: the mode the killed
 * run set is put back as when one run does it all (sim-real
 * --update-exec, E3: seeds 1238 1636 of 1-3000).
 */
static void
test_cpr_exec_rerun_reattach_execvp_fails(void **state)
{
	struct rig		*r = cpr_exec_rig();
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_REATTACH, .mode = MODE_CPR_EXEC, .uid = "uid-1",
	    .reason = "pre-switchover" };

	(void)state;
	step(r, &ev);
	cpr_exec_completed(r);
	ev_run_state(r, RUN_RUNNING);
	ev_failed_because(r, "execvp /nonexistent/qemu failed: No such file "
	    "or directory");
	cpr_settings_undone(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	rig_free(r);
}

/*
 * cpr-exec: a re-run re-attaches to an update of a guest paused before it
 * (the record's sourceRunState); the new QEMU loads it paused: it stays
 * paused, no cont (audit N14 on a re-attach; sim-real --update-exec seed
 * 2575 of 1-3000: P10).
 */
static void
test_cpr_exec_rerun_reattach_paused(void **state)
{
	struct rig		*r = cpr_exec_rig();
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_REATTACH, .mode = MODE_CPR_EXEC, .uid = "uid-1",
	    .reason = "pre-switchover", .rec_paused = 1 };

	(void)state;
	step(r, &ev);
	cpr_exec_completed(r);
	cpr_exec_closed(r);
	ev_simple(r, SEV_QMP_UP);
	ev_run_state(r, RUN_PAUSED);
	ev_sample(r, QMS_COMPLETED, 0, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/* cpr-exec: the new QEMU answers but its load failed (it stays up): not
 * known (8), never "the guest runs on the old QEMU" (3). */
static void
test_cpr_exec_new_load_fails(void **state)
{
	struct rig *r = cpr_exec_migrating();

	(void)state;
	cpr_exec_completed(r);
	cpr_exec_closed(r);
	ev_simple(r, SEV_QMP_UP);
	ev_failed_because(r, "load of migration failed: Invalid argument");
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "load of migration"));
	assert_int_equal(sent_cmd(r, SC_MODE_NORMAL), 0);
	rig_free(r);
}

/*
 * cpr-exec: the monitor closes in the switchover, the completed status
 * unseen (it lasts ms before the exec): that is the exec.  The new QEMU's
 * process gone: not known (8) at once, no old copy; the new QEMU up:
 * running and completed, 0.
 */
static void
test_cpr_exec_closed_in_switchover(void **state)
{
	struct rig *r = cpr_exec_migrating();

	(void)state;
	cpr_exec_continued(r);
	ev_closed(r, 0);
	assert_int_equal(r->s.state, SS_RECONNECT);
	assert_int_equal(r->s.back_to, SS_CPR_EXEC);
	ev_closed(r, 1);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "no old copy"));
	assert_int_equal(sent_cmd(r, SC_MODE_NORMAL), 0);
	rig_free(r);

	r = cpr_exec_migrating();
	cpr_exec_continued(r);
	ev_closed(r, 0);
	ev_closed(r, 0);
	assert_true(last_timer(r, STIMER_RECONNECT) == 0.01);
	ev_timer(r, STIMER_RECONNECT);
	ev_simple(r, SEV_QMP_UP);
	assert_int_equal(r->s.state, SS_CPR_EXEC);
	ev_run_state(r, RUN_RUNNING);
	ev_sample(r, QMS_COMPLETED, 0, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/*
 * cpr-exec: a re-run after SIGKILL finds QEMU's migration completed (the
 * new QEMU's incoming one, or the old one's before its exec): it asks
 * the QEMU behind the monitor, as after a watched completion: 0.
 */
static void
test_cpr_exec_rerun_completed(void **state)
{
	struct rig		*r = cpr_exec_rig();
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_ALREADY_DONE, .mode = MODE_CPR_EXEC,
	    .uid = "uid-1" };

	(void)state;
	step(r, &ev);
	assert_int_equal(r->s.state, SS_CPR_EXEC);
	assert_true(has_note(r, "re-attached to update uid-1"));
	assert_int_equal(sent(r, SA_NEW_CONNECT), 0);
	assert_int_equal(sent(r, SA_QUERY_STATUS), 1);
	ev_run_state(r, RUN_RUNNING);
	ev_sample(r, QMS_COMPLETED, 0, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_int_equal(r->s.mode, MODE_CPR_EXEC);
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 0);
	rig_free(r);
}

/*
 * cpr-exec: a re-run finds the monitor refused (the exec's 20-50 ms, or
 * the process gone): it connects again as after the exec; the new QEMU
 * answers: 0.  No one within 30 s: not known (8), no old copy.
 */
static void
test_cpr_exec_rerun_monitor_gone(void **state)
{
	struct rig		*r = cpr_exec_rig();
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_ALREADY_DONE, .mode = MODE_CPR_EXEC,
	    .uid = "uid-1", .qemu_gone = 1 };

	(void)state;
	step(r, &ev);
	assert_int_equal(r->s.state, SS_RECONNECT);
	assert_int_equal(sent(r, SA_RECONNECT), 1);
	ev_closed(r, 0);
	assert_true(last_timer(r, STIMER_RECONNECT) == 0.01);
	ev_timer(r, STIMER_RECONNECT);
	ev_simple(r, SEV_QMP_UP);
	assert_int_equal(r->s.state, SS_CPR_EXEC);
	ev_run_state(r, RUN_RUNNING);
	ev_sample(r, QMS_COMPLETED, 0, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);

	r = cpr_exec_rig();
	step(r, &ev);
	ev_closed(r, 0);
	r->t = 30;
	ev_timer(r, STIMER_NEW_QEMU);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "no old copy"));
	rig_free(r);
}

/* ... the new QEMU's monitor answers after the exec. */
static void
cpr_exec_new_up(struct rig *r)
{
	cpr_exec_completed(r);
	cpr_exec_closed(r);
	ev_closed(r, 0);
	ev_timer(r, STIMER_RECONNECT);
	r->t = 0.32;
	ev_simple(r, SEV_QMP_UP);
	assert_int_equal(r->s.state, SS_CPR_EXEC);
}

/*
 * cpr-exec: the new command line has -S, the guest ran before the
 * update: the new QEMU loads it and waits paused.  Its migration is asked
 * first (completed: its load is done), then cont, as cpr-transfer does,
 * then running and completed: 0 in ms, not "not known" (8) after 30 s.
 * A cont refused is tried again on its run state's word.
 */
static void
test_cpr_exec_new_qemu_started_paused(void **state)
{
	struct rig *r = cpr_exec_migrating();

	(void)state;
	cpr_exec_new_up(r);
	ev_run_state(r, RUN_PAUSED);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);	/* its load first */
	ev_sample(r, QMS_COMPLETED, 0, 0);
	assert_int_equal(sent_cmd(r, SC_CONT), 1);
	ev_qmp_done(r, SC_CONT, "guest is not ready");
	assert_false(session_done(&r->s));
	ev_timer(r, STIMER_HANDOFF);
	ev_run_state(r, RUN_PRELAUNCH);
	ev_sample(r, QMS_COMPLETED, 0, 0);
	assert_int_equal(sent_cmd(r, SC_CONT), 2);
	r->t = 0.4;
	ev_qmp_done(r, SC_CONT, NULL);
	assert_false(session_done(&r->s));
	ev_sample(r, QMS_COMPLETED, 0, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_MODE_NORMAL), 0);
	rig_free(r);
}

/* cpr-exec: ... but the paused new QEMU's load failed (its migration
 * says so): never cont a guest that did not load: not known (8). */
static void
test_cpr_exec_new_qemu_paused_load_failed(void **state)
{
	struct rig *r = cpr_exec_migrating();

	(void)state;
	cpr_exec_new_up(r);
	ev_run_state(r, RUN_PAUSED);
	ev_failed_because(r, "load of migration failed: Invalid argument");
	assert_outcome(r, PHASE_FAILED, QM_EXIT_UNKNOWN, "unknown",
	    ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/* cpr-exec: the guest was paused on the old QEMU before the update
 * (audit N14): paused on the new QEMU is its end, 0, no cont. */
static void
test_cpr_exec_paused_guest_stays_paused(void **state)
{
	struct rig		*r = cpr_exec_rig();
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_FRESH, .mode = MODE_PRECOPY, .ok = 1,
	    .guest_paused = 1 };

	(void)state;
	step(r, &ev);
	ev_qmp_done(r, SC_MIGRATE, NULL);
	r->t = 0.1;
	ev_sample(r, QMS_ACTIVE, 100000, 0);
	cpr_exec_new_up(r);
	ev_run_state(r, RUN_PAUSED);
	ev_sample(r, QMS_COMPLETED, 0, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/*
 * cpr-exec: a re-run finds the new QEMU paused: cont only where the
 * record says the guest ran when the update began (sourceRunState); one
 * it says was paused stays paused (audit N14).
 */
static void
test_cpr_exec_rerun_new_qemu_paused(void **state)
{
	struct rig		*r = cpr_exec_rig();
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_ALREADY_DONE, .mode = MODE_CPR_EXEC,
	    .uid = "uid-1" };

	(void)state;
	step(r, &ev);
	ev_run_state(r, RUN_PAUSED);
	ev_sample(r, QMS_COMPLETED, 0, 0);
	assert_int_equal(sent_cmd(r, SC_CONT), 1);
	ev_qmp_done(r, SC_CONT, NULL);
	ev_sample(r, QMS_COMPLETED, 0, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);

	r = cpr_exec_rig();
	ev.rec_paused = 1;
	step(r, &ev);
	ev_run_state(r, RUN_PAUSED);
	ev_sample(r, QMS_COMPLETED, 0, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/*
 * cpr-exec: a re-run finds the killed run's migration failed in QEMU with
 * "execvp ... failed" (the setup closes the record as QEMU's refusal, 3):
 * no migrate was sent by this run, yet the mode and the pause are put
 * back (the record's mode CprExec), or a later migrate would exec.  Any
 * other closed record of an update by exec puts them back too.
 */
static void
test_cpr_exec_rerun_execvp_failed(void **state)
{
	struct rig		*r = cpr_exec_rig();
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_CLOSE_RECORD, .mode = MODE_CPR_EXEC,
	    .fail = FAIL_CONTROL, .uid = "uid-1", .reason = "update uid-1: "
	    "QEMU q could not exec the new command line (execvp /x failed: "
	    "No such file or directory) while no qmigrate watched it; the "
	    "guest runs on the source" };

	(void)state;
	step(r, &ev);
	cpr_settings_undone(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_CONTROL, "control",
	    ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "could not exec"));
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 0);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);

	r = cpr_exec_rig();
	ev.fail = FAIL_DATA;
	ev.reason = "migration uid-1: QEMU has no migration";
	step(r, &ev);
	cpr_settings_undone(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	rig_free(r);
}

/*
 * cpr-transfer: a re-run closes the record of a killed update whose
 * migration QEMU failed unwatched (the guest runs on the old QEMU): the
 * mode and the pause are put back there, as after a watched failure, or a
 * later plain migrate would be refused for want of a cpr channel.  A
 * closed record of another mode (a plain migrate's) leaves them alone.
 */
static void
test_cpr_transfer_rerun_closed(void **state)
{
	struct rig		*r = cpr_rig(0);
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_CLOSE_RECORD, .mode = MODE_CPR_TRANSFER,
	    .fail = FAIL_DATA, .uid = "uid-1",
	    .reason = "migration uid-1: QEMU says failed" };

	(void)state;
	step(r, &ev);
	cpr_settings_undone(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 0);
	rig_free(r);

	r = cpr_rig(0);
	ev.mode = MODE_PRECOPY;
	step(r, &ev);
	assert_true(session_done(&r->s));
	assert_int_equal(sent_cmd(r, SC_MODE_NORMAL), 0);
	rig_free(r);
}

/* The pause the last SA_ST_DOWNTIME put in the document (-1: none). */
static long long
downtime_set(const struct rig *r)
{
	long long	ms = -1;
	size_t		i;

	for (i = 0; i < r->nlog; i++)
		if (r->log[i].kind == SA_ST_DOWNTIME)
			ms = (long long)r->log[i].value;
	return ms;
}

/*
 * cpr-exec: the document's downtimeMs is the guest's pause, which QEMU
 * cannot give (the old QEMU's completed, with its figure, goes with the
 * exec): the old QEMU's STOP (0.15 s) to the new QEMU's RESUME (0.35 s):
 * 200 ms.  A RESUME before the monitor was back: to the first "running"
 * answer (0.45 s), 300 ms, noted as "at most".
 */
static void
test_cpr_exec_pause_measured(void **state)
{
	struct rig *r = cpr_exec_migrating();

	(void)state;
	r->t = 0.15;
	ev_simple(r, SEV_STOPPED);
	cpr_exec_new_up(r);
	r->t = 0.35;
	ev_simple(r, SEV_RESUMED);
	r->t = 0.36;
	ev_run_state(r, RUN_RUNNING);
	ev_sample(r, QMS_COMPLETED, 0, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_int_equal(downtime_set(r), 200);
	assert_false(has_note(r, "at most"));
	rig_free(r);

	r = cpr_exec_migrating();
	r->t = 0.15;
	ev_simple(r, SEV_STOPPED);
	cpr_exec_new_up(r);
	r->t = 0.45;
	ev_run_state(r, RUN_RUNNING);
	ev_sample(r, QMS_COMPLETED, 0, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_int_equal(downtime_set(r), 300);
	assert_true(has_note(r, "at most 300 ms"));
	rig_free(r);
}

/* cpr-exec: no STOP seen (a re-run): no figure written (the document has
 * no downtimeMs), and a note says the pause is not known. */
static void
test_cpr_exec_pause_not_known(void **state)
{
	struct rig		*r = cpr_exec_rig();
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_ALREADY_DONE, .mode = MODE_CPR_EXEC,
	    .uid = "uid-1", .qemu_gone = 1 };

	(void)state;
	step(r, &ev);
	ev_closed(r, 0);
	ev_timer(r, STIMER_RECONNECT);
	ev_simple(r, SEV_QMP_UP);
	ev_simple(r, SEV_RESUMED);
	ev_run_state(r, RUN_RUNNING);
	ev_sample(r, QMS_COMPLETED, 0, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_int_equal(downtime_set(r), -1);
	assert_true(has_note(r, "pause in the update is not known"));
	rig_free(r);
}

/* cpr-exec: the monitor lost before QEMU completed: connected again, the
 * update goes on (the guest still runs on the old QEMU). */
static void
test_cpr_exec_monitor_lost_before_completed(void **state)
{
	struct rig *r = cpr_exec_migrating();

	(void)state;
	ev_closed(r, 0);
	assert_int_equal(r->s.state, SS_RECONNECT);
	r->t = 1.2;
	ev_simple(r, SEV_QMP_UP);
	assert_int_equal(r->s.state, SS_PRECOPY);
	cpr_exec_completed(r);
	ev_run_state(r, RUN_RUNNING);
	ev_sample(r, QMS_COMPLETED, 0, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/* cpr-exec: SIGTERM before QEMU completed and before migrate-continue:
 * cancelled (5), the mode and the pause put back. */
static void
test_cpr_exec_signal_before_continue(void **state)
{
	struct rig *r = cpr_exec_migrating();

	(void)state;
	ev_signal(r, SIGTERM);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 1);
	ev_sample(r, QMS_CANCELLED, 100000, 0);
	cpr_settings_undone(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	rig_free(r);
}

/*
 * cpr-exec: SIGTERM past the point of no return (migrate-continue sent),
 * in SS_CPR_EXEC, and while the new QEMU's monitor is reconnected: each
 * refused, no cancel; the update ends as QEMU ends it (0, abort Failed).
 */
static void
test_cpr_exec_signal_refused_past_ponr(void **state)
{
	struct rig *r = cpr_exec_migrating();

	(void)state;
	cpr_exec_continued(r);
	ev_signal(r, SIGTERM);
	assert_true(has_note(r, "abort refused"));
	r->t = 0.2;
	ev_sample(r, QMS_COMPLETED, 112000, 0);
	assert_int_equal(r->s.state, SS_CPR_EXEC);
	ev_signal(r, SIGTERM);
	cpr_exec_closed(r);
	ev_signal(r, SIGTERM);
	ev_simple(r, SEV_DEADLINE);
	ev_simple(r, SEV_QMP_UP);
	ev_run_state(r, RUN_RUNNING);
	ev_sample(r, QMS_COMPLETED, 0, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_FAILED);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	rig_free(r);
}

/*
 * cpr: random event sequences through the update's session (2000
 * seeds): whatever comes, the old QEMU is told quit only after the new
 * one said it runs the guest (its run state, or its cont answered), the
 * old QEMU is never told cont once it completed, exit 0 comes only with
 * that quit, a completed old QEMU with no word from the new one ends
 * in 8, never in "the guest runs on the old QEMU" (3, 4, 5), and no
 * migrate_cancel goes out past the point of no return (migrate-continue
 * sent, or QEMU said device).
 */
static uint64_t
cpr_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void
test_cpr_random(void **state)
{
	static const enum qemu_mig_status old_st[] = { QMS_SETUP, QMS_ACTIVE,
	    QMS_PRE_SWITCHOVER, QMS_DEVICE, QMS_COMPLETED, QMS_FAILED,
	    QMS_CANCELLED };
	static const enum run_state new_rs[] = { RUN_RUNNING, RUN_PAUSED,
	    RUN_INMIGRATE, RUN_SHUTDOWN };
	static const enum sess_cmd cmds[] = { SC_MIGRATE, SC_CANCEL,
	    SC_QUIT, SC_CONT, SC_MIGRATE_INCOMING, SC_MIGRATE_CONTINUE,
	    SC_MODE_NORMAL, SC_PAUSE_OFF };
	static const enum sess_outcome outs[] = { SO_ANSWERED, SO_REFUSED,
	    SO_NO_ANSWER };
	static const enum sess_timer timers[] = { STIMER_HANDOFF,
	    STIMER_NEW_QEMU, STIMER_FENCE, STIMER_CANCEL, STIMER_REPOLL,
	    STIMER_RECONNECT, STIMER_FINISH };
	uint64_t	 seed, x;
	int		 i, completed, said_running, handoff, quit_sent, code;
	int		 ponr;
	int		 ended = 0;
	size_t		 seen;

	(void)state;
	for (seed = 1; seed <= 2000; seed++) {
		struct rig *r = cpr_rig((int)(seed & 1));

		x = seed * 0x9e3779b97f4a7c15ULL;
		completed = said_running = handoff = quit_sent = ponr = 0;
		seen = 0;
		ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
		for (i = 0; i < 80 && !session_done(&r->s); i++) {
			uint64_t v = cpr_rand(&x);

			r->t += (double)(v % 4000) / 100.0;
			switch ((v >> 16) % 9) {
			case 0:
			case 1: {
				enum qemu_mig_status st =
				    old_st[(v >> 24) % NITEMS(old_st)];

				/* QEMU ends once: completed stays so. */
				if (completed)
					st = QMS_COMPLETED;
				completed = st == QMS_COMPLETED;
				ev_sample(r, st, 100000, 0);
				break;
			}
			case 2: {
				enum run_state rs =
				    new_rs[(v >> 24) % NITEMS(new_rs)];

				said_running |= rs == RUN_RUNNING;
				ev_new_run_state(r, rs);
				break;
			}
			case 3: {
				struct sess_event ev = { .kind = SEV_QMP_DONE,
				    .cmd = cmds[(v >> 24) % NITEMS(cmds)],
				    .outcome = outs[(v >> 32) % NITEMS(outs)],
				    .new_qemu = (int)((v >> 40) & 1),
				    .reason = "x" };

				ev.ok = ev.outcome == SO_ANSWERED;
				said_running |= ev.new_qemu &&
				    ev.cmd == SC_CONT && ev.ok;
				step(r, &ev);
				break;
			}
			case 4:
				ev_new(r, (v >> 24) & 1 ? SEV_QMP_UP :
				    SEV_QMP_CLOSED, 0, SO_NO_ANSWER);
				break;
			case 5:
				ev_timer(r, timers[(v >> 24) % NITEMS(timers)]);
				break;
			case 6:
				ev_signal(r, SIGTERM);
				break;
			case 7:
				ev_simple(r, (v >> 24) & 1 ? SEV_QMP_SILENT :
				    SEV_DEADLINE);
				break;
			default:
				ev_closed(r, (int)((v >> 24) & 1));
				break;
			}
			handoff |= r->s.state == SS_CPR_HANDOFF ||
			    r->s.state == SS_CPR_QUIT;
			ponr |= r->s.state == SS_SWITCHOVER;
			for (; seen < r->nlog; seen++) {
				const struct sess_action *a = &r->log[seen];

				if (a->kind != SA_QMP || a->new_qemu)
					continue;
				if (a->cmd == SC_QUIT) {
					if (!said_running)
						fail_msg("seed %llu: quit "
						    "before the new QEMU said "
						    "it runs the guest",
						    (unsigned long long)seed);
					quit_sent = 1;
				}
				if (a->cmd == SC_MIGRATE_CONTINUE)
					ponr = 1;
				if (a->cmd == SC_CANCEL && ponr)
					fail_msg("seed %llu: migrate_cancel "
					    "past the point of no return",
					    (unsigned long long)seed);
				if (a->cmd == SC_CONT && handoff)
					fail_msg("seed %llu: cont on the old "
					    "QEMU after it completed",
					    (unsigned long long)seed);
			}
		}
		assert_int_equal(r->s.overflow, 0);
		if (session_done(&r->s)) {
			ended++;
			code = session_exit_code(&r->s);
			if (code == QM_EXIT_OK && !quit_sent)
				fail_msg("seed %llu: 0 without quit",
				    (unsigned long long)seed);
			if (handoff && !quit_sent && code != QM_EXIT_UNKNOWN)
				fail_msg("seed %llu: exit %d after the old "
				    "QEMU completed, no word from the new one",
				    (unsigned long long)seed, code);
		}
		rig_free(r);
	}
	/* The draw ends most sessions: the checks above ran. */
	assert_true(ended > 1000);
}

/* ---- --timeout-action postcopy|pause (issue 39 item 4) ------------- */

/* The last decision the step recorded: its action, and who asked. */
static int
last_decision(const struct rig *r, enum ctl_action *action,
    enum sess_asker *by)
{
	size_t i;

	for (i = r->nlog; i-- > 0;)
		if (r->log[i].kind == SA_ST_DECISION) {
			*action = (enum ctl_action)r->log[i].value;
			*by = (enum sess_asker)r->log[i].value2;
			return 1;
		}
	return 0;
}

/* A pre-copy migration whose deadline does what `action` says. */
static struct rig *
source_migrating_until(enum timeout_action action)
{
	struct rig *r = source_migrating(0);

	r->s.cfg.timeout_action = action;
	return r;
}

/* Row: --timeout-action postcopy: at the deadline nothing is cancelled;
 * the next sample starts post-copy, recorded as the timeout's decision
 * with its figures; an abort after it is refused; QEMU's completed is 0. */
static void
test_timeout_action_postcopy(void **state)
{
	struct rig	*r = source_migrating_until(TIMEOUT_POSTCOPY);
	enum ctl_action	 action;
	enum sess_asker	 by;

	(void)state;
	r->t = 60;
	ev_simple(r, SEV_DEADLINE);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_int_equal(sent_cmd(r, SC_START_POSTCOPY), 0);
	assert_int_equal(r->s.abort, ABORT_NONE);
	assert_true(sent(r, SA_POLL) > 0);
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 150 * MiB);
	assert_int_equal(sent_cmd(r, SC_START_POSTCOPY), 1);
	assert_int_equal(r->s.state, SS_POSTCOPY);
	assert_true(last_decision(r, &action, &by));
	assert_int_equal(action, CTL_POST_COPY);
	assert_int_equal(by, ASKER_TIMEOUT);
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 200 * MiB, 50 * MiB);
	assert_int_equal(r->s.mode, MODE_POSTCOPY);
	ev_signal(r, SIGTERM);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_int_equal(r->s.abort, ABORT_FAILED);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_FAILED);
	assert_int_equal(sent_cmd(r, SC_START_POSTCOPY), 1);
	rig_free(r);
}

/* Row: --timeout-action pause: the next sample stops the source's vCPUs
 * (mode Paused, the timeout's decision); QEMU's own STOP that follows is
 * not the switchover; completed is 0 and the guest is not resumed here. */
static void
test_timeout_action_pause(void **state)
{
	struct rig	*r = source_migrating_until(TIMEOUT_PAUSE);
	enum ctl_action	 action;
	enum sess_asker	 by;

	(void)state;
	r->t = 60;
	ev_simple(r, SEV_DEADLINE);
	assert_int_equal(sent_cmd(r, SC_STOP), 0);
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 150 * MiB);
	assert_int_equal(sent_cmd(r, SC_STOP), 1);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_int_equal(r->s.mode, MODE_PAUSED);
	assert_true(last_decision(r, &action, &by));
	assert_int_equal(action, CTL_PAUSE);
	assert_int_equal(by, ASKER_TIMEOUT);
	ev_simple(r, SEV_STOPPED);
	assert_int_equal(r->s.state, SS_PRECOPY);
	ev_sample(r, QMS_ACTIVE, 200 * MiB, 50 * MiB);
	assert_int_equal(sent_cmd(r, SC_STOP), 1);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/* Row: the stream breaks after the deadline paused the guest: it runs on
 * the source again (cont), 4. */
static void
test_timeout_action_pause_then_fails(void **state)
{
	struct rig *r = source_migrating_until(TIMEOUT_PAUSE);

	(void)state;
	r->t = 60;
	ev_simple(r, SEV_DEADLINE);
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 150 * MiB);
	assert_int_equal(r->s.mode, MODE_PAUSED);
	ev_sample(r, QMS_FAILED, 120 * MiB, 130 * MiB);
	cont_answered(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	rig_free(r);
}

/* Row: --timeout-action pause over a guest the operator paused before
 * the migration (sim-real seed 142): nothing is stopped, the mode stays
 * PreCopy, and when the stream breaks the guest is not resumed (it stays
 * as the operator left it), 4. */
static void
test_timeout_action_pause_operator_paused(void **state)
{
	struct rig		*r = rig_new(SESS_SOURCE, 0);
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_FRESH, .mode = MODE_PRECOPY, .ok = 1,
	    .guest_paused = 1 };

	(void)state;
	r->s.cfg.timeout_action = TIMEOUT_PAUSE;
	step(r, &ev);
	ev_qmp_done(r, SC_MIGRATE, NULL);
	r->t = 60;
	ev_simple(r, SEV_DEADLINE);
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 150 * MiB);
	assert_int_equal(sent_cmd(r, SC_STOP), 0);
	assert_int_equal(r->s.mode, MODE_PRECOPY);
	ev_sample(r, QMS_FAILED, 120 * MiB, 130 * MiB);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	rig_free(r);
}

/* Row: tls:, a guest the operator paused: the target could not load it
 * and fenced its QEMU (sim-real seed 93, 7.2, and 233): the guest stays
 * on the source as the operator left it, no cont, 4.  Before, the
 * fenced answer took the guest as ours to resume (mode Paused) and
 * cont'd it. */
static void
test_confirm_fenced_operator_paused(void **state)
{
	struct rig		*r = rig_new(SESS_SOURCE, 1);
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_FRESH, .mode = MODE_PRECOPY, .ok = 1,
	    .guest_paused = 1 };

	(void)state;
	step(r, &ev);
	ev_answer(r, CONTROL_OFFER, ANSWER_READY, NULL);
	ev_qmp_done(r, SC_MIGRATE, NULL);
	r->t = 1;
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 200 * MiB);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_int_equal(asked(r, CONTROL_COMPLETED), 1);
	ev_answer(r, CONTROL_COMPLETED, ANSWER_FENCED, "load of device "
	    "failed");
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	assert_non_null(strstr(r->s.failure_reason, "paused as it was"));
	rig_free(r);
}

/* Row: tls:, a re-run after SIGKILL finds the migration of a guest the
 * operator had paused completed (the record's sourceRunState paused);
 * the target answers fenced: the guest stays paused here, no cont, 4
 * (sim-real seed 5624, 7.2). */
static void
test_rerun_done_fenced_operator_paused(void **state)
{
	struct rig		*r = rig_new(SESS_SOURCE, 1);
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_ALREADY_DONE, .mode = MODE_PRECOPY, .uid = "1-2",
	    .reason = "1-2", .fail = FAIL_UNKNOWN, .rec_paused = 1 };

	(void)state;
	step(r, &ev);
	assert_int_equal(asked(r, CONTROL_COMPLETED), 1);
	ev_answer(r, CONTROL_COMPLETED, ANSWER_FENCED, "load failed");
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	rig_free(r);
}

/* Row: --timeout-action postcopy over a guest the operator paused (QEMU
 * 7.2 would start it on the target at post-copy's RUN; sim-real seed
 * 1379): no post-copy, the migration converges in pre-copy, 0, no cont. */
static void
test_timeout_action_postcopy_operator_paused(void **state)
{
	struct rig		*r = rig_new(SESS_SOURCE, 0);
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_FRESH, .mode = MODE_PRECOPY, .ok = 1,
	    .guest_paused = 1 };

	(void)state;
	r->s.cfg.timeout_action = TIMEOUT_POSTCOPY;
	r->s.cfg.postcopy = 1;
	step(r, &ev);
	ev_qmp_done(r, SC_MIGRATE, NULL);
	r->t = 60;
	ev_simple(r, SEV_DEADLINE);
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 150 * MiB);
	assert_int_equal(sent_cmd(r, SC_START_POSTCOPY), 0);
	assert_int_equal(r->s.state, SS_PRECOPY);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/* Row: a re-run re-attached to the migration of a guest paused before it
 * began (the record's sourceRunState): its deadline's pause stops
 * nothing, and a failure leaves the guest paused, 4. */
static void
test_reattach_operator_paused_no_cont(void **state)
{
	struct rig		*r = rig_new(SESS_SOURCE, 0);
	struct sess_event	 ev = { .kind = SEV_SETUP_DONE,
	    .setup = SETUP_REATTACH, .mode = MODE_PRECOPY, .ok = 1,
	    .reason = "active", .rec_paused = 1, .guest_paused = 1 };

	(void)state;
	r->s.cfg.timeout_action = TIMEOUT_PAUSE;
	step(r, &ev);
	r->t = 60;
	ev_simple(r, SEV_DEADLINE);
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 150 * MiB);
	assert_int_equal(sent_cmd(r, SC_STOP), 0);
	ev_sample(r, QMS_FAILED, 120 * MiB, 130 * MiB);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	rig_free(r);
}

/* Row: the deadline during the setup, before memory moves: kept (the
 * setup is not abandoned), carried out on the first pre-copy sample. */
static void
test_timeout_action_during_setup(void **state)
{
	struct rig *r = rig_new(SESS_SOURCE, 0);

	(void)state;
	r->s.cfg.timeout_action = TIMEOUT_POSTCOPY;
	ev_simple(r, SEV_DEADLINE);
	assert_false(session_setup_abandoned(&r->s));
	assert_false(session_done(&r->s));
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	assert_int_equal(sent_cmd(r, SC_MIGRATE), 1);
	ev_qmp_done(r, SC_MIGRATE, NULL);
	r->t = 1;
	ev_sample(r, QMS_ACTIVE, 10 * MiB, 200 * MiB);
	assert_int_equal(sent_cmd(r, SC_START_POSTCOPY), 1);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	rig_free(r);
}

/* Row: a signal after the deadline, before its finish was carried out:
 * the abort goes on (cancel) and no post-copy starts after it. */
static void
test_timeout_action_signal_first(void **state)
{
	struct rig *r = source_migrating_until(TIMEOUT_POSTCOPY);

	(void)state;
	r->t = 60;
	ev_simple(r, SEV_DEADLINE);
	ev_signal(r, SIGTERM);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 1);
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 150 * MiB);
	ev_sample(r, QMS_CANCELLED, 100 * MiB, 150 * MiB);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	assert_int_equal(sent_cmd(r, SC_START_POSTCOPY), 0);
	rig_free(r);
}

/* Row: the deadline at the point of no return: nothing to finish,
 * nothing cancelled, no abort status; the outcome decides. */
static void
test_timeout_action_at_switchover(void **state)
{
	struct rig *r = source_switching();

	(void)state;
	r->s.cfg.timeout_action = TIMEOUT_POSTCOPY;
	r->t = 60;
	ev_simple(r, SEV_DEADLINE);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_int_equal(sent_cmd(r, SC_START_POSTCOPY), 0);
	assert_int_equal(r->s.abort, ABORT_NONE);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_START_POSTCOPY), 0);
	rig_free(r);
}

/* Row: the deadline while a STOP is not yet explained: kept; an
 * operator's stop (run state paused) returns to pre-copy, where it is
 * carried out; no cancel. */
static void
test_timeout_action_stop_not_switchover(void **state)
{
	struct rig *r = source_migrating_until(TIMEOUT_POSTCOPY);

	(void)state;
	r->t = 5;
	ev_simple(r, SEV_STOPPED);
	assert_int_equal(r->s.state, SS_SWITCHOVER);
	r->t = 60;
	ev_simple(r, SEV_DEADLINE);
	ev_run_state(r, RUN_PAUSED);
	assert_int_equal(r->s.state, SS_PRECOPY);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 150 * MiB);
	assert_int_equal(sent_cmd(r, SC_START_POSTCOPY), 1);
	rig_free(r);
}

/* Row: the deadline once post-copy started: nothing more to do. */
static void
test_timeout_action_in_postcopy(void **state)
{
	struct rig *r = source_migrating_until(TIMEOUT_PAUSE);

	(void)state;
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 100 * MiB, 150 * MiB);
	assert_int_equal(r->s.state, SS_POSTCOPY);
	r->t = 60;
	ev_simple(r, SEV_DEADLINE);
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 200 * MiB, 50 * MiB);
	assert_int_equal(sent_cmd(r, SC_STOP), 0);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_int_equal(r->s.abort, ABORT_NONE);
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/* ---- `qmigrate switchover`: an operator's finish (SEV_SWITCHOVER) --- */

static void
ev_switchover(struct rig *r, enum sess_finish finish)
{
	struct sess_event ev = { .kind = SEV_SWITCHOVER, .finish = finish };

	step(r, &ev);
}

/*
 * The last answer to `qmigrate switchover` the step gave (SA_ST_SWITCHOVER):
 * 1 with *answer, *finish and *why, or 0 when none.
 */
static int
last_switchover(const struct rig *r, enum sess_switchover_answer *answer,
    enum sess_finish *finish, const char **why)
{
	size_t i;

	for (i = r->nlog; i-- > 0;)
		if (r->log[i].kind == SA_ST_SWITCHOVER) {
			*answer = (enum sess_switchover_answer)r->log[i].value;
			*finish = (enum sess_finish)r->log[i].value2;
			*why = r->log[i].reason;
			return 1;
		}
	return 0;
}

/* A pre-copy migration that negotiated post-copy (postcopy) and whose
 * settings allow a pause (may_pause). */
static struct rig *
source_finishable(int postcopy, int may_pause)
{
	struct rig *r = source_migrating(0);

	r->s.cfg.postcopy = postcopy;
	r->s.cfg.may_pause = may_pause;
	return r;
}

/*
 * The switchover asked with finish is refused with a reason saying part:
 * answered at once, a note, the event line, and nothing sent to QEMU
 * (no post-copy, no stop, no cancel) nor anything recorded as a decision.
 */
static void
assert_switchover_refused(struct rig *r, enum sess_finish finish,
    const char *part)
{
	enum sess_switchover_answer	 answer;
	enum sess_finish		 f;
	const char			*why = NULL;
	enum sess_state			 before = r->s.state;
	size_t				 from = r->nlog, i;

	ev_switchover(r, finish);
	assert_true(last_switchover(r, &answer, &f, &why));
	assert_int_equal(answer, SWA_REFUSED);
	assert_non_null(strstr(why, part));
	assert_true(has_note(r, "switchover refused: "));
	assert_true(has_note(r, part));
	assert_int_equal(r->s.state, before);
	for (i = from; i < r->nlog; i++) {
		assert_int_not_equal(r->log[i].kind, SA_QMP);
		assert_int_not_equal(r->log[i].kind, SA_ST_DECISION);
		assert_int_not_equal(r->log[i].kind, SA_ST_ABORT);
	}
	assert_int_equal(r->s.finish_due, TIMEOUT_ABORT);
}

/* Row: switchover --postcopy in pre-copy: accepted at once (no command
 * yet, a sample asked); the next sample starts post-copy, recorded as the
 * operator's decision and answered "started"; completed is 0. */
static void
test_switchover_postcopy(void **state)
{
	struct rig			*r = source_finishable(1, 0);
	enum sess_switchover_answer	 answer;
	enum sess_finish		 f;
	enum ctl_action			 action;
	enum sess_asker			 by;
	const char			*why = NULL;
	int				 polls;

	(void)state;
	r->t = 20;
	polls = sent(r, SA_POLL);
	ev_switchover(r, FINISH_POSTCOPY);
	assert_true(last_switchover(r, &answer, &f, &why));
	assert_int_equal(answer, SWA_ACCEPTED);
	assert_int_equal(f, FINISH_POSTCOPY);
	assert_int_equal(sent_cmd(r, SC_START_POSTCOPY), 0);
	assert_true(sent(r, SA_POLL) > polls);
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 150 * MiB);
	assert_int_equal(sent_cmd(r, SC_START_POSTCOPY), 1);
	assert_int_equal(r->s.state, SS_POSTCOPY);
	assert_true(last_decision(r, &action, &by));
	assert_int_equal(action, CTL_POST_COPY);
	assert_int_equal(by, ASKER_OPERATOR);
	assert_true(last_switchover(r, &answer, &f, &why));
	assert_int_equal(answer, SWA_STARTED);
	assert_non_null(strstr(why, "an operator asked to finish now"));
	ev_sample(r, QMS_POSTCOPY_ACTIVE, 200 * MiB, 50 * MiB);
	assert_int_equal(r->s.mode, MODE_POSTCOPY);
	/* A second one now: post-copy has started. */
	assert_switchover_refused(r, FINISH_AUTO,
	    "post-copy has already started");
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_START_POSTCOPY), 1);
	rig_free(r);
}

/* Row: switchover --pause: the next sample stops the source's vCPUs (mode
 * Paused, the operator's decision, "started"); QEMU's STOP after it is not
 * the switchover; completed is 0 and the guest is not resumed here. */
static void
test_switchover_pause(void **state)
{
	struct rig			*r = source_finishable(1, 1);
	enum sess_switchover_answer	 answer;
	enum sess_finish		 f;
	enum ctl_action			 action;
	enum sess_asker			 by;
	const char			*why = NULL;

	(void)state;
	r->t = 20;
	ev_switchover(r, FINISH_PAUSE);
	assert_true(last_switchover(r, &answer, &f, &why));
	assert_int_equal(answer, SWA_ACCEPTED);
	assert_int_equal(f, FINISH_PAUSE);
	assert_int_equal(sent_cmd(r, SC_STOP), 0);
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 150 * MiB);
	assert_int_equal(sent_cmd(r, SC_STOP), 1);
	assert_int_equal(sent_cmd(r, SC_START_POSTCOPY), 0);
	assert_int_equal(r->s.mode, MODE_PAUSED);
	assert_true(last_decision(r, &action, &by));
	assert_int_equal(action, CTL_PAUSE);
	assert_int_equal(by, ASKER_OPERATOR);
	assert_true(last_switchover(r, &answer, &f, &why));
	assert_int_equal(answer, SWA_STARTED);
	ev_simple(r, SEV_STOPPED);
	assert_int_equal(r->s.state, SS_PRECOPY);
	assert_switchover_refused(r, FINISH_PAUSE, "already paused");
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	assert_int_equal(sent_cmd(r, SC_CONT), 0);
	rig_free(r);
}

/*
 * A switchover due, and the sample that would carry it out was asked 37 s
 * before it was read (it waited in the socket while this process was
 * stopped, QEMU's own STOP perhaps behind it): nothing is done on it, a
 * sample is asked at once, and the finish is carried out on one asked
 * after it was read (sim-real seeds 10187961, 9911911).
 */
static void
test_switchover_stale_sample(void **state)
{
	struct rig			*r = source_finishable(1, 1);
	enum sess_switchover_answer	 answer;
	enum sess_finish		 f;
	const char			*why = NULL;
	int				 polls;

	(void)state;
	r->t = 20;
	ev_switchover(r, FINISH_PAUSE);
	r->t = 60;
	r->asked_ago = 37;
	polls = sent(r, SA_POLL);
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 150 * MiB);
	assert_int_equal(sent_cmd(r, SC_STOP), 0);
	assert_true(sent(r, SA_POLL) > polls);
	assert_true(last_switchover(r, &answer, &f, &why));
	assert_int_equal(answer, SWA_ACCEPTED);
	/* A second one asked as long before: still nothing. */
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 150 * MiB);
	assert_int_equal(sent_cmd(r, SC_STOP), 0);
	/* Asked after the first was read, slow or not: carried out. */
	r->t = 62;
	r->asked_ago = 1.5;
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 150 * MiB);
	assert_int_equal(sent_cmd(r, SC_STOP), 1);
	assert_true(last_switchover(r, &answer, &f, &why));
	assert_int_equal(answer, SWA_STARTED);
	rig_free(r);
}

/* Row: neither flag: post-copy where it was negotiated, else the pause. */
static void
test_switchover_auto(void **state)
{
	struct rig			*r = source_finishable(1, 1);
	enum sess_switchover_answer	 answer;
	enum sess_finish		 f;
	const char			*why = NULL;

	(void)state;
	ev_switchover(r, FINISH_AUTO);
	assert_true(last_switchover(r, &answer, &f, &why));
	assert_int_equal(answer, SWA_ACCEPTED);
	assert_int_equal(f, FINISH_POSTCOPY);
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 150 * MiB);
	assert_int_equal(sent_cmd(r, SC_START_POSTCOPY), 1);
	assert_int_equal(sent_cmd(r, SC_STOP), 0);
	rig_free(r);

	r = source_finishable(0, 1);
	ev_switchover(r, FINISH_AUTO);
	assert_true(last_switchover(r, &answer, &f, &why));
	assert_int_equal(answer, SWA_ACCEPTED);
	assert_int_equal(f, FINISH_PAUSE);
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 150 * MiB);
	assert_int_equal(sent_cmd(r, SC_STOP), 1);
	assert_int_equal(sent_cmd(r, SC_START_POSTCOPY), 0);
	rig_free(r);
}

/* Row: refused where the settings forbid it: --postcopy without post-copy
 * negotiated; --pause (or neither flag without post-copy) where workload
 * disruption is not allowed.  The migration goes on as before. */
static void
test_switchover_refused_by_settings(void **state)
{
	struct rig *r = source_finishable(0, 1);

	(void)state;
	assert_switchover_refused(r, FINISH_POSTCOPY,
	    "post-copy was not negotiated");
	rig_free(r);
	r = source_finishable(1, 0);
	assert_switchover_refused(r, FINISH_PAUSE,
	    "workload disruption the settings do not allow");
	rig_free(r);
	r = source_finishable(0, 0);
	assert_switchover_refused(r, FINISH_AUTO,
	    "post-copy was not negotiated, and pausing");
	/* Refused, the migration went on untouched: it completes. */
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/* Row: refused past the point of no return (the source QEMU stopped the
 * guest for the switchover): nothing sent; the outcome decides. */
static void
test_switchover_refused_at_ponr(void **state)
{
	struct rig *r = source_switching();

	(void)state;
	r->s.cfg.postcopy = 1;
	assert_switchover_refused(r, FINISH_POSTCOPY,
	    "past the point of no return");
	ev_sample(r, QMS_COMPLETED, 256 * MiB, 0);
	assert_outcome(r, PHASE_SUCCEEDED, QM_EXIT_OK, NULL, ABORT_NONE);
	rig_free(r);
}

/* Row: refused before memory moves (setup), while the monitor reconnects,
 * once an abort is under way, and while one is already due. */
static void
test_switchover_refused_by_state(void **state)
{
	struct rig		*r = rig_new(SESS_SOURCE, 0);
	struct sess_event	 closed = { .kind = SEV_QMP_CLOSED,
	    .reason = "connection reset by peer" };

	(void)state;
	r->s.cfg.postcopy = 1;
	assert_switchover_refused(r, FINISH_POSTCOPY, "no memory moves yet");
	rig_free(r);

	r = source_finishable(1, 1);
	step(r, &closed);
	assert_int_equal(r->s.state, SS_RECONNECT);
	assert_switchover_refused(r, FINISH_POSTCOPY, "being reconnected");
	rig_free(r);

	r = source_finishable(1, 1);
	ev_signal(r, SIGTERM);
	assert_int_equal(r->s.state, SS_CANCELLING);
	assert_switchover_refused(r, FINISH_POSTCOPY, "an abort is under way");
	ev_sample(r, QMS_CANCELLED, 20 * MiB, 180 * MiB);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	assert_int_equal(sent_cmd(r, SC_START_POSTCOPY), 0);
	rig_free(r);

	r = source_finishable(1, 1);
	ev_switchover(r, FINISH_POSTCOPY);
	assert_int_equal(r->s.finish_due, TIMEOUT_POSTCOPY);
	ev_switchover(r, FINISH_PAUSE);
	assert_true(has_note(r, "a switchover is already under way"));
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 150 * MiB);
	assert_int_equal(sent_cmd(r, SC_START_POSTCOPY), 1);
	assert_int_equal(sent_cmd(r, SC_STOP), 0);
	rig_free(r);
}

/* Row: refused by an update (cpr-transfer: no RAM to copy) and by the
 * target's session (the source's qmigrate finishes a migration). */
static void
test_switchover_refused_update_target(void **state)
{
	struct rig			*r = cpr_rig(0);
	enum sess_switchover_answer	 answer;
	enum sess_finish		 f;
	const char			*why = NULL;

	(void)state;
	ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
	assert_switchover_refused(r, FINISH_AUTO, "cpr-transfer");
	rig_free(r);

	r = rig_new(SESS_TARGET, 0);
	ev_switchover(r, FINISH_POSTCOPY);
	assert_true(last_switchover(r, &answer, &f, &why));
	assert_int_equal(answer, SWA_REFUSED);
	assert_non_null(strstr(why, "target"));
	assert_int_equal(sent(r, SA_QMP), 0);
	rig_free(r);
}

/* Row: a signal after an accepted switchover, before the sample that
 * would carry it out: the abort goes on (cancel), no post-copy after it. */
static void
test_switchover_signal_first(void **state)
{
	struct rig *r = source_finishable(1, 1);

	(void)state;
	ev_switchover(r, FINISH_POSTCOPY);
	ev_signal(r, SIGTERM);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 1);
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 150 * MiB);
	ev_sample(r, QMS_CANCELLED, 100 * MiB, 150 * MiB);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_ABORTED, NULL,
	    ABORT_SUCCEEDED);
	assert_int_equal(sent_cmd(r, SC_START_POSTCOPY), 0);
	rig_free(r);
}

/* Row: the --timeout deadline (action pause) after an operator's
 * post-copy was accepted: the operator's finish stands, carried out once,
 * recorded as the operator's; no stop, no cancel. */
static void
test_switchover_then_deadline(void **state)
{
	struct rig	*r = source_finishable(1, 1);
	enum ctl_action	 action;
	enum sess_asker	 by;

	(void)state;
	r->s.cfg.timeout_action = TIMEOUT_PAUSE;
	ev_switchover(r, FINISH_POSTCOPY);
	r->t = 60;
	ev_simple(r, SEV_DEADLINE);
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 150 * MiB);
	assert_int_equal(sent_cmd(r, SC_START_POSTCOPY), 1);
	assert_int_equal(sent_cmd(r, SC_STOP), 0);
	assert_int_equal(sent_cmd(r, SC_CANCEL), 0);
	assert_true(last_decision(r, &action, &by));
	assert_int_equal(action, CTL_POST_COPY);
	assert_int_equal(by, ASKER_OPERATOR);
	rig_free(r);
}

/* Row: the stream breaks after an operator's pause: the guest runs on
 * the source again (cont), 4. */
static void
test_switchover_pause_then_fails(void **state)
{
	struct rig *r = source_finishable(0, 1);

	(void)state;
	ev_switchover(r, FINISH_PAUSE);
	ev_sample(r, QMS_ACTIVE, 100 * MiB, 150 * MiB);
	assert_int_equal(r->s.mode, MODE_PAUSED);
	ev_sample(r, QMS_FAILED, 120 * MiB, 130 * MiB);
	cont_answered(r);
	assert_outcome(r, PHASE_FAILED, QM_EXIT_DATA, "data", ABORT_NONE);
	rig_free(r);
}


/*
 * cpr-exec: random event sequences through the update by exec (2000
 * seeds).  Whatever comes: no migrate_cancel past the point of no return
 * (migrate-continue sent, or QEMU said device); once the monitor closed
 * past it (the exec, seen or not) the end is 0 or 8 only, never "the
 * guest runs on the old QEMU" (3, 4, 5); 0 only after QEMU said running
 * and then completed; the mode is put back (mode normal) only on an end
 * that left the guest on the old QEMU (3, 4, 5), never after 0 or 8.
 */
static void
test_cpr_exec_random(void **state)
{
	static const enum qemu_mig_status st[] = { QMS_SETUP, QMS_ACTIVE,
	    QMS_PRE_SWITCHOVER, QMS_DEVICE, QMS_COMPLETED, QMS_FAILED,
	    QMS_CANCELLED };
	static const enum run_state rs[] = { RUN_RUNNING, RUN_PAUSED,
	    RUN_POSTMIGRATE, RUN_INMIGRATE, RUN_SHUTDOWN };
	static const enum sess_cmd cmds[] = { SC_MIGRATE, SC_CANCEL,
	    SC_MIGRATE_CONTINUE, SC_MODE_NORMAL, SC_PAUSE_OFF };
	static const enum sess_outcome outs[] = { SO_ANSWERED, SO_REFUSED,
	    SO_NO_ANSWER };
	static const enum sess_timer timers[] = { STIMER_HANDOFF,
	    STIMER_NEW_QEMU, STIMER_CANCEL, STIMER_REPOLL, STIMER_RECONNECT,
	    STIMER_FINISH, STIMER_SWITCHOVER };
	uint64_t	 seed, x;
	int		 i, ponr, closed_past, running, ran_then_done, code;
	int		 ended = 0;
	size_t		 seen;

	(void)state;
	for (seed = 1; seed <= 2000; seed++) {
		struct rig *r = cpr_exec_rig();

		x = seed * 0x9e3779b97f4a7c15ULL;
		ponr = closed_past = running = ran_then_done = 0;
		seen = 0;
		ev_setup(r, SETUP_FRESH, MODE_PRECOPY);
		for (i = 0; i < 80 && !session_done(&r->s); i++) {
			uint64_t	v = cpr_rand(&x);
			/* Once the end is decided (FINISHING) QEMU's words
			 * change it no more; before QEMU took our migrate
			 * its samples are an earlier migration's; while the
			 * monitor is away (RECONNECT) none can come. */
			int		deciding = r->s.state != SS_FINISHING &&
			    r->s.state != SS_RECONNECT &&
			    (r->s.saw_active || r->s.migrate_answered ||
			    r->s.migrate_unknown);

			r->t += (double)(v % 400) / 100.0;
			switch ((v >> 16) % 8) {
			case 0:
			case 1: {
				enum qemu_mig_status s =
				    st[(v >> 24) % NITEMS(st)];

				if (s == QMS_FAILED && ((v >> 40) & 1))
					ev_failed_because(r, "execvp /x "
					    "failed: No such file or "
					    "directory");
				else
					ev_sample(r, s, 100000, 0);
				ponr |= deciding && s == QMS_DEVICE;
				ran_then_done |= running && s == QMS_COMPLETED;
				break;
			}
			case 2: {
				enum run_state s = rs[(v >> 24) % NITEMS(rs)];

				running = s == RUN_RUNNING;
				ev_run_state(r, s);
				break;
			}
			case 3: {
				struct sess_event ev = { .kind = SEV_QMP_DONE,
				    .cmd = cmds[(v >> 24) % NITEMS(cmds)],
				    .outcome = outs[(v >> 32) % NITEMS(outs)],
				    .reason = "x" };

				ev.ok = ev.outcome == SO_ANSWERED;
				step(r, &ev);
				break;
			}
			case 4:
				if ((v >> 24) & 1)
					ev_simple(r, SEV_QMP_UP);
				else {
					closed_past |= ponr &&
					    r->s.state != SS_FINISHING &&
					    !(r->s.state == SS_RECONNECT &&
					    r->s.back_to == SS_FINISHING);
					ev_closed(r, (int)((v >> 25) & 1));
				}
				break;
			case 5:
				ev_timer(r, timers[(v >> 24) % NITEMS(timers)]);
				break;
			case 6:
				ev_signal(r, SIGTERM);
				break;
			default:
				ev_simple(r, (v >> 24) & 1 ? SEV_QMP_SILENT :
				    SEV_DEADLINE);
				break;
			}
			for (; seen < r->nlog; seen++) {
				const struct sess_action *a = &r->log[seen];

				if (a->kind != SA_QMP)
					continue;
				if (a->cmd == SC_MIGRATE_CONTINUE)
					ponr = 1;
				if (a->cmd == SC_CANCEL && ponr)
					fail_msg("seed %llu: migrate_cancel "
					    "past the point of no return",
					    (unsigned long long)seed);
			}
		}
		assert_int_equal(r->s.overflow, 0);
		if (!session_done(&r->s)) {
			rig_free(r);
			continue;
		}
		ended++;
		code = session_exit_code(&r->s);
		if (closed_past && code != QM_EXIT_OK &&
		    code != QM_EXIT_UNKNOWN)
			fail_msg("seed %llu: exit %d after the monitor closed "
			    "past the point of no return",
			    (unsigned long long)seed, code);
		if (code == QM_EXIT_OK && !ran_then_done)
			fail_msg("seed %llu: 0 before QEMU said running, then "
			    "completed", (unsigned long long)seed);
		if ((code == QM_EXIT_OK || code == QM_EXIT_UNKNOWN) &&
		    sent_cmd(r, SC_MODE_NORMAL) != 0)
			fail_msg("seed %llu: mode normal sent, exit %d",
			    (unsigned long long)seed, code);
		rig_free(r);
	}
	assert_true(ended > 1000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_control_qmp_unreachable),
		cmocka_unit_test(test_control_target_refuses),
		cmocka_unit_test(test_control_no_engine),
		cmocka_unit_test(test_control_target_not_ready),
		cmocka_unit_test(test_data_stream_breaks),
		cmocka_unit_test(test_data_stalled),
		cmocka_unit_test(test_abort_precopy),
		cmocka_unit_test(test_abort_then_pre_switchover),
		cmocka_unit_test(test_abort_postcopy_refused),
		cmocka_unit_test(test_switchover_abort_refused),
		cmocka_unit_test(test_timeout_action_postcopy),
		cmocka_unit_test(test_timeout_action_pause),
		cmocka_unit_test(test_timeout_action_pause_then_fails),
		cmocka_unit_test(test_timeout_action_pause_operator_paused),
		cmocka_unit_test(test_confirm_fenced_operator_paused),
		cmocka_unit_test(test_rerun_done_fenced_operator_paused),
		cmocka_unit_test(test_timeout_action_postcopy_operator_paused),
		cmocka_unit_test(test_reattach_operator_paused_no_cont),
		cmocka_unit_test(test_timeout_action_during_setup),
		cmocka_unit_test(test_timeout_action_signal_first),
		cmocka_unit_test(test_timeout_action_at_switchover),
		cmocka_unit_test(test_timeout_action_stop_not_switchover),
		cmocka_unit_test(test_timeout_action_in_postcopy),
		cmocka_unit_test(test_switchover_postcopy),
		cmocka_unit_test(test_switchover_pause),
		cmocka_unit_test(test_switchover_stale_sample),
		cmocka_unit_test(test_switchover_auto),
		cmocka_unit_test(test_switchover_refused_by_settings),
		cmocka_unit_test(test_switchover_refused_at_ponr),
		cmocka_unit_test(test_switchover_refused_by_state),
		cmocka_unit_test(test_switchover_refused_update_target),
		cmocka_unit_test(test_switchover_signal_first),
		cmocka_unit_test(test_switchover_then_deadline),
		cmocka_unit_test(test_switchover_pause_then_fails),
		cmocka_unit_test(test_switchover_stop_event),
		cmocka_unit_test(test_switchover_stop_event_past_pause),
		cmocka_unit_test(test_switchover_abort_after_continue),
		cmocka_unit_test(test_stop_event_not_switchover),
		cmocka_unit_test(test_abort_waits_stale_view),
		cmocka_unit_test(test_abort_stale_view_then_cancels),
		cmocka_unit_test(test_abort_reconnect_stop_unseen),
		cmocka_unit_test(test_abort_after_reconnect_waits),
		cmocka_unit_test(test_abort_reconnect_silent_unknown),
		cmocka_unit_test(test_switchover_load_fails_unix),
		cmocka_unit_test(test_switchover_failed_tcp),
		cmocka_unit_test(test_switchover_failed_tls),
		cmocka_unit_test(test_postcopy_asked_then_failed),
		cmocka_unit_test(test_postcopy_asked_then_failed_held),
		cmocka_unit_test(test_switchover_timeout),
		cmocka_unit_test(test_switchover_continues),
		cmocka_unit_test(test_rerun_switchover_unsettled),
		cmocka_unit_test(test_rerun_failed_unwatched_tls),
		cmocka_unit_test(test_reattach_at_switchover),
		cmocka_unit_test(test_reattach_switchover_fails_keeps_pause),
		cmocka_unit_test(test_postcopy_recovered),
		cmocka_unit_test(test_postcopy_recovered_tls),
		cmocka_unit_test(test_postcopy_lost),
		cmocka_unit_test(test_postcopy_device_failed_fenced),
		cmocka_unit_test(test_postcopy_device_failed_not_fenced),
		cmocka_unit_test(test_postcopy_device_failed_unix),
		cmocka_unit_test(test_postcopy_active_failed),
		cmocka_unit_test(test_postcopy_recover_failed_running),
		cmocka_unit_test(test_postcopy_lost_resume_unanswered),
		cmocka_unit_test(test_postcopy_lost_resume_connecting),
		cmocka_unit_test(test_postcopy_recovering_past_deadline),
		cmocka_unit_test(test_reattach_recovering_bounded),
		cmocka_unit_test(test_target_killed_postcopy),
		cmocka_unit_test(test_target_failed_postcopy),
		cmocka_unit_test(test_deadline_cancels),
		cmocka_unit_test(test_deadline_postcopy),
		cmocka_unit_test(test_signal_during_setup),
		cmocka_unit_test(test_signal_during_offer),
		cmocka_unit_test(test_reattach_postcopy),
		cmocka_unit_test(test_reattach_paused),
		cmocka_unit_test(test_target_abort_unix_refused),
		cmocka_unit_test(test_target_abort_unix_unlisten),
		cmocka_unit_test(test_target_listen_unanswered),
		cmocka_unit_test(test_target_deadline_during_setup),
		cmocka_unit_test(test_target_abort_tls),
		cmocka_unit_test(test_target_watch_held_offer_wait),
		cmocka_unit_test(test_target_second_offer),
		cmocka_unit_test(test_target_offer_during_setup),
		cmocka_unit_test(test_abort_before_migrate_answer),
		cmocka_unit_test(test_target_deadline_before_offer),
		cmocka_unit_test(test_stale_sample_before_migrate),
		cmocka_unit_test(test_target_fence_spares_postcopy),
		cmocka_unit_test(test_target_source_abort_stream_late),
		cmocka_unit_test(test_target_run_state_asked_again),
		cmocka_unit_test(test_target_unknown_over_abort),
		cmocka_unit_test(test_target_recover_twice),
		cmocka_unit_test(test_target_recover_lost_unlistens),
		cmocka_unit_test(test_target_recover_lands_after_unlisten),
		cmocka_unit_test(test_target_recover_unlistens_again),
		cmocka_unit_test(test_target_recover_lost_tcp_unknown),
		cmocka_unit_test(test_target_recover_unanswered_unknown),
		cmocka_unit_test(test_migrate_no_answer_started),
		cmocka_unit_test(test_migrate_no_answer_never_started),
		cmocka_unit_test(test_abort_migrate_no_answer),
		cmocka_unit_test(test_confirm_not_known),
		cmocka_unit_test(test_confirm_control_lost),
		cmocka_unit_test(test_confirm_mirrors_first),
		cmocka_unit_test(test_mirror_lost_before_switchover),
		cmocka_unit_test(test_mirrors_stale_after_reconnect),
		cmocka_unit_test(test_postcopy_start_lost),
		cmocka_unit_test(test_cancel_across_reconnect),
		cmocka_unit_test(test_postcopy_monitor_lost_unknown),
		cmocka_unit_test(test_target_qmp_cut_after_completed),
		cmocka_unit_test(test_target_source_disks_lost),
		cmocka_unit_test(test_target_release_across_reconnect),
		cmocka_unit_test(test_target_qmp_lost_not_known),
		cmocka_unit_test(test_target_cont_late),
		cmocka_unit_test(test_target_keeps_source_paused),
		cmocka_unit_test(test_target_arrives_prelaunch),
		cmocka_unit_test(test_target_rerun_arrived),
		cmocka_unit_test(test_target_cont_refused_postcopy_unseen),
		cmocka_unit_test(test_target_failed_load_fenced),
		cmocka_unit_test(test_target_fence_cut_proves_nothing),
		cmocka_unit_test(test_target_term_then_success),
		cmocka_unit_test(test_target_tcp_term_before_source),
		cmocka_unit_test(test_target_deadline_stream_began),
		cmocka_unit_test(test_confirm_failed),
		cmocka_unit_test(test_confirm_silent),
		cmocka_unit_test(test_target_source_gone),
		cmocka_unit_test(test_target_source_gone_stale_sample),
		cmocka_unit_test(test_target_deadline_stale_sample),
		cmocka_unit_test(test_target_cut_stale_sample),
		cmocka_unit_test(test_target_resumes_paused_guest),
		cmocka_unit_test(test_signal_during_mirror_start),
		cmocka_unit_test(test_deadline_during_mirror),
		cmocka_unit_test(test_target_abort_during_mirror),
		cmocka_unit_test(test_target_cut_before_stream),
		cmocka_unit_test(test_cancel_timeout),
		cmocka_unit_test(test_monitor_silent),
		cmocka_unit_test(test_monitor_silent_briefly),
		cmocka_unit_test(test_confirm_qmp_lost),
		cmocka_unit_test(test_precopy_qmp_reconnect),
		cmocka_unit_test(test_precopy_qmp_gone),
		cmocka_unit_test(test_paused_abort_resumes_first),
		cmocka_unit_test(test_rerun_closes_record),
		cmocka_unit_test(test_rerun_close_resumes_paused),
		cmocka_unit_test(test_rerun_reattach_cancelling),
		cmocka_unit_test(test_rerun_already_done),
		cmocka_unit_test(test_rerun_mirrors),
		cmocka_unit_test(test_finish_mirrors_across_reconnect),
		cmocka_unit_test(test_target_source_gone_midstream),
		cmocka_unit_test(test_target_failed_exports_removed),
		cmocka_unit_test(test_target_unlisten_source_queued),
		cmocka_unit_test(test_mirror_stalled),
		cmocka_unit_test(test_mirror_stalled_job_kept),
		cmocka_unit_test(test_target_watch_held),
		cmocka_unit_test(test_damaged_status_file),
		cmocka_unit_test(test_restore_abort),
		cmocka_unit_test(test_incoming_killed_tls),
		cmocka_unit_test(test_status_disk_full),
		cmocka_unit_test(test_status_configuration_text),
		cmocka_unit_test(test_status_downtime_known),
		cmocka_unit_test(test_target_postcopy_ends_at_completed),
		cmocka_unit_test(test_cpr_update_succeeds),
		cmocka_unit_test(test_cpr_new_paused_cont),
		cmocka_unit_test(test_cpr_paused_guest_stays_paused),
		cmocka_unit_test(test_cpr_new_monitor_never_appears),
		cmocka_unit_test(test_cpr_new_dies_before_switchover),
		cmocka_unit_test(test_cpr_signal_before_completion),
		cmocka_unit_test(test_cpr_signal_after_completion),
		cmocka_unit_test(test_cpr_new_silent_after_completion),
		cmocka_unit_test(test_cpr_new_gone_after_completion),
		cmocka_unit_test(test_cpr_old_monitor_silent),
		cmocka_unit_test(test_cpr_switchover_signal_refused),
		cmocka_unit_test(test_cpr_new_up_during_reconnect),
		cmocka_unit_test(test_cpr_new_lost_during_reconnect),
		cmocka_unit_test(test_cpr_signal_before_continue),
		cmocka_unit_test(test_cpr_device_after_cancel),
		cmocka_unit_test(test_cpr_switchover_monitor_lost),
		cmocka_unit_test(test_cpr_migrate_refused),
		cmocka_unit_test(test_cpr_rerun_already_done),
		cmocka_unit_test(test_cpr_rerun_reattach),
		cmocka_unit_test(test_cpr_rerun_old_gone),
		cmocka_unit_test(test_cpr_random),
		cmocka_unit_test(test_cpr_exec_update_succeeds),
		cmocka_unit_test(test_cpr_exec_reconnect_bounded_backoff),
		cmocka_unit_test(test_cpr_exec_execvp_fails),
		cmocka_unit_test(test_cpr_exec_execvp_fails_unseen_completed),
		cmocka_unit_test(test_cpr_exec_new_qemu_exits),
		cmocka_unit_test(test_cpr_exec_new_monitor_never_back),
		cmocka_unit_test(test_cpr_exec_fresh_guest),
		cmocka_unit_test(test_cpr_exec_setup_ends_after_plan),
		cmocka_unit_test(test_cpr_exec_putback_new_connection),
		cmocka_unit_test(test_cpr_exec_rerun_reattach_execvp_fails),
		cmocka_unit_test(test_cpr_exec_rerun_reattach_paused),
		cmocka_unit_test(test_cpr_exec_new_load_fails),
		cmocka_unit_test(test_cpr_exec_monitor_lost_before_completed),
		cmocka_unit_test(test_cpr_exec_closed_in_switchover),
		cmocka_unit_test(test_cpr_exec_rerun_completed),
		cmocka_unit_test(test_cpr_exec_rerun_monitor_gone),
		cmocka_unit_test(test_cpr_exec_new_qemu_started_paused),
		cmocka_unit_test(test_cpr_exec_new_qemu_paused_load_failed),
		cmocka_unit_test(test_cpr_exec_paused_guest_stays_paused),
		cmocka_unit_test(test_cpr_exec_rerun_new_qemu_paused),
		cmocka_unit_test(test_cpr_exec_rerun_execvp_failed),
		cmocka_unit_test(test_cpr_transfer_rerun_closed),
		cmocka_unit_test(test_cpr_exec_pause_measured),
		cmocka_unit_test(test_cpr_exec_pause_not_known),
		cmocka_unit_test(test_cpr_exec_signal_before_continue),
		cmocka_unit_test(test_cpr_exec_signal_refused_past_ponr),
		cmocka_unit_test(test_cpr_exec_random),
	};

	log_init("test-session", LOG_LEVEL_WARN, 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
