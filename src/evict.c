/*
 * evict.c: what happens to one VM when its node is drained, by the
 * eviction strategy of the policy that selects it (KubeVirt's meanings):
 *	LiveMigrate		migrate; a VM that cannot move is refused
 *				(exit 2) and left running: the drain stays
 *				blocked
 *	LiveMigrateIfPossible	migrate when the pre-flight passes, else
 *				shut down
 *	None			shut down (guest agent, else ACPI power
 *				button; quit after the grace period)
 *	External		record the request and touch nothing: the
 *				eviction is handed over (phase HandedOver,
 *				exit 7), the VM still runs on this node
 * The status document's "eviction" object says which strategy ran and
 * why: the policy, the labels, the pre-flight summary.
 * SIGINT and SIGTERM abort the eviction (exit 5, the last document
 * written): before the shutdown request or during the pre-flight nothing
 * was touched; during the grace period the guest still runs here (it may
 * yet act on the power-off request already sent), and quit is not sent;
 * once the guest powered off or QEMU was told to quit, the shutdown is
 * finished.  LiveMigrate's signals are migrate's.  The policy set is
 * read once: the policy that chose the strategy also gives the migration
 * its settings.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "preflight.h"
#include "evict.h"
#include "mig-options.h"
#include "qmp.h"
#include "signals.h"

#define EVICT_QGA_TIMEOUT	5.0	/* connect and guest-shutdown */
#define EVICT_QUIT_TIMEOUT	10.0	/* QEMU gone after quit */

struct evict {
	const struct evict_options	*o;
	struct ev_loop			*loop;
	struct qmp_conn			*qmp;
	struct status			*st;
	enum eviction_strategy		 strategy;
	uint64_t			 grace;
	struct mig_settings		 settings;
	const struct policy_set		*policies;	/* the run's one set */
	char				*node;		/* being evacuated */
	json_object			*record;	/* evict's record */
	int				 shutdown_seen;
	int				 gone;
	struct signals_watch		 sigs;
	int				 signum;	/* the first signal */
	int				 wake;		/* gone, or a signal */
};

static const char *
signal_name(int signum)
{
	return signals_name(signum);
}

/* SIGINT, SIGTERM, SIGQUIT: the eviction aborts (signals.c's table). */
static void
on_stop_signal(int signum, void *arg)
{
	struct evict *e = arg;

	if (e->signum == 0) {
		log_warnx("%s: aborting the eviction", signal_name(signum));
		e->signum = signum;
	}
	e->wake = 1;
}

/* The signals become events of e's loop; recorded ones arrive. */
static void
evict_arm(struct evict *e)
{
	ev_set_userdata(e->loop, e);
	signals_watch_start(&e->sigs, e->loop, "the eviction",
	    on_stop_signal, NULL, e);
}

/*
 * Stops e's signal watchers with every signal blocked, so that none is
 * lost or kills: for the handover to migrate (handover) they are
 * recorded again until migrate arms its own watchers; after the last
 * document they are ignored, as mig_watch_free() does.  A signal libev
 * caught but had not yet handed over is served first.  Returns -1 when a
 * signal came (no handover).
 */
static int
evict_disarm(struct evict *e, int handover)
{
	sigset_t old;

	if (!e->sigs.armed)
		return 0;
	signals_block(&old);
	ev_run(e->loop, EVRUN_NOWAIT);
	if (handover && e->signum != 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	signals_watch_stop(&e->sigs, handover);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return 0;
}

static void
on_shutdown(struct qmp_conn *conn, const char *name, json_object *data,
    double timestamp, void *arg)
{
	struct evict *e = arg;

	e->shutdown_seen = 1;
}

static void
on_close(struct qmp_conn *conn, const char *reason, void *arg)
{
	struct evict *e = arg;

	e->gone = 1;
	e->wake = 1;
}

static void
record_str(struct evict *e, const char *key, const char *value)
{
	json_object_object_add(e->record, key, value != NULL ?
	    json_object_new_string(value) : NULL);
}

/* Prints and writes the final status; returns the exit status. */
static int
evict_report(struct evict *e)
{
	return status_report(e->st, JSON_C_TO_STRING_PRETTY |
	    JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
}

static int
evict_connect(struct evict *e)
{
	char *cause = NULL;

	e->qmp = qmp_connect(e->loop, e->o->mig.qmp_path, QMP_PROTO_MONITOR,
	    10, &cause);
	if (e->qmp == NULL) {
		status_fail(e->st, FAIL_CONTROL, "%s", cause);
		free(cause);
		return -1;
	}
	qmp_set_close_cb(e->qmp, on_close, e);
	qmp_subscribe(e->qmp, "SHUTDOWN", on_shutdown, e);
	return 0;
}

/*
 * The eviction stopped by a signal (README: exit 5, the guest still runs
 * on this node); when says at which point.  Writes the last document and
 * returns the exit status.
 */
static int
evict_aborted(struct evict *e, const char *when)
{
	status_set_abort_requested(e->st);
	status_set_abort(e->st, ABORT_SUCCEEDED);
	status_fail(e->st, FAIL_ABORTED, "abort requested (%s) %s",
	    signal_name(e->signum), when);
	return evict_report(e);
}

/* Asks the guest agent to power the guest off.  Returns 0 if it took it. */
static int
evict_agent_shutdown(struct evict *e, char **why)
{
	struct qmp_conn	*qga;
	char		*cause = NULL;
	int		 rc;

	qga = qmp_connect(e->loop, e->o->qga_path, QMP_PROTO_AGENT,
	    EVICT_QGA_TIMEOUT, &cause);
	if (qga == NULL) {
		*why = cause;
		return -1;
	}
	rc = qga_shutdown(qga, "powerdown", EVICT_QGA_TIMEOUT, &cause);
	qmp_close(qga);
	if (rc != 0)
		*why = cause;
	return rc;
}

/*
 * Shuts the guest down: guest-shutdown through the agent when it answers,
 * else system_powerdown; waits terminationGracePeriodSeconds for QEMU to
 * exit (or report SHUTDOWN), then quits it.  The VM is stopped either way
 * unless QMP fails (exit 3).
 */
static int
evict_shutdown(struct evict *e, const char *why)
{
	struct status	*st = e->st;
	json_object	*sd = json_object_new_object();
	char		*cause = NULL, *agent_err = NULL;
	const char	*method = NULL;
	double		 t0;
	int		 forced = 0;

	record_str(e, "action", "shutdown");
	record_str(e, "actionReason", why);
	json_object_object_add(e->record, "shutdown", sd);
	status_set_phase(st, PHASE_RUNNING);
	if (evict_connect(e) != 0)
		return evict_report(e);
	if (e->signum != 0)
		return evict_aborted(e, "before the shutdown: nothing was "
		    "touched");
	if (e->o->qga_path != NULL) {
		if (evict_agent_shutdown(e, &agent_err) == 0)
			method = "guest-shutdown";
		else {
			status_note(st, "guest agent %s: %s: using "
			    "system_powerdown", e->o->qga_path, agent_err);
			free(agent_err);
		}
	}
	if (method == NULL && e->signum != 0)
		return evict_aborted(e, "before the shutdown request: nothing "
		    "was touched");
	if (method == NULL) {
		if (qmp_call(e->qmp, "system_powerdown", NULL, NULL, 10,
		    &cause) != 0) {
			status_fail(st, FAIL_CONTROL, "source QEMU %s: %s",
			    e->o->mig.qmp_path, cause);
			free(cause);
			return evict_report(e);
		}
		method = "system_powerdown";
	}
	json_object_object_add(sd, "method", json_object_new_string(method));
	json_object_object_add(sd, "gracePeriodSeconds",
	    json_object_new_uint64(e->grace));
	log_info("%s sent to %s; waiting up to %llu s", method,
	    e->o->mig.qmp_path, (unsigned long long)e->grace);
	status_changed(st, "shutdown");

	t0 = now_monotonic();
	if (e->grace > 0 && !e->wake && qmp_run_until(e->qmp, &e->wake,
	    (double)e->grace, &cause) != 0) {
		free(cause);
		cause = NULL;
	}
	if (!e->gone && !e->shutdown_seen && e->signum != 0) {
		/* The guest has the request; quit is not sent. */
		json_object_object_add(sd, "forced",
		    json_object_new_boolean(0));
		json_object_object_add(sd, "seconds",
		    json_object_new_double(now_monotonic() - t0));
		status_note(st, "%s was sent: the guest may still power off "
		    "by itself", method);
		return evict_aborted(e, "during the shutdown's grace period: "
		    "the guest still runs on this node, quit not sent");
	}
	if (!e->gone) {
		/* Grace period over, or powered off but kept (-no-shutdown). */
		forced = !e->shutdown_seen;
		if (forced)
			status_note(st, "the guest did not power off within "
			    "%llu s: quit", (unsigned long long)e->grace);
		if (qmp_call(e->qmp, "quit", NULL, NULL, 10, &cause) != 0 &&
		    !e->gone) {
			status_fail(st, FAIL_CONTROL, "source QEMU %s: %s",
			    e->o->mig.qmp_path, cause);
			free(cause);
			return evict_report(e);
		}
		free(cause);
		cause = NULL;
		if (!e->gone && qmp_run_until(e->qmp, &e->gone,
		    EVICT_QUIT_TIMEOUT, &cause) != 0 && !e->gone) {
			status_fail(st, FAIL_CONTROL, "source QEMU %s did not "
			    "exit after quit: %s", e->o->mig.qmp_path, cause);
			free(cause);
			return evict_report(e);
		}
		free(cause);
	}
	json_object_object_add(sd, "forced", json_object_new_boolean(forced));
	json_object_object_add(sd, "seconds",
	    json_object_new_double(now_monotonic() - t0));
	if (e->signum != 0)
		status_note(st, "%s came once the guest had powered off or "
		    "QEMU was told to quit: the shutdown was finished",
		    signal_name(e->signum));
	status_set_phase(st, PHASE_SUCCEEDED);
	return evict_report(e);
}

/* Hands over to the migration driver, the same code as qmigrate migrate. */
static int
evict_migrate(struct evict *e, const char *why)
{
	struct mig_options	mo;

	record_str(e, "action", "migrate");
	record_str(e, "actionReason", why);
	mo = e->o->mig;	/* its vm and vmim borrowed: not freed here */
	mo.policies = e->policies;
	mo.eviction = e->record;
	mo.node = e->node;
	mo.evacuation_node = e->node;
	return mig_source_run(&mo);
}

/*
 * External: the request is recorded and the VM untouched.  It still runs
 * here until the external controller moves it, so the eviction ends
 * HandedOver with exit 7, never as done.
 */
static int
evict_external(struct evict *e)
{
	const char *host = e->node;

	record_str(e, "action", "none");
	record_str(e, "actionReason", "evictionStrategy External: an "
	    "external controller moves the VM");
	json_object_object_add(e->record, "evictionRequested",
	    json_object_new_boolean(1));
	record_str(e, "evacuationNodeName", host);
	status_note(e->st, "eviction handed to an external controller "
	    "(evictionStrategy External): the VM still runs on node %s", host);
	status_set_phase(e->st, PHASE_HANDED_OVER);
	return evict_report(e);
}

/*
 * LiveMigrateIfPossible: the pre-flight decides.  Returns 1 (migrate),
 * 0 (not migratable: *summary says why), -1 (QMP failed, in st) or -2 (a
 * signal stopped it: nothing in st yet).
 */
static int
evict_can_migrate(struct evict *e, char **summary)
{
	json_object	*conds = NULL;
	int		 rc;

	if (evict_connect(e) != 0)
		return -1;
	rc = preflight_run(e->loop, e->qmp, &e->settings, &e->signum, &conds,
	    summary);
	if (rc == -1)
		status_fail(e->st, FAIL_CONTROL, "source QEMU %s: %s",
		    e->o->mig.qmp_path, *summary);
	else if (rc >= 0)
		json_object_object_add(e->record, "conditions", conds);
	qmp_close(e->qmp);
	e->qmp = NULL;
	e->gone = 0;
	e->wake = e->signum != 0;
	e->shutdown_seen = 0;
	return rc;
}

/*
 * Evicts one VM by its policy's strategy.  Returns the exit status
 * (README table): 0 done (migrated or shut down), 1 usage or policy, 2
 * LiveMigrate of a VM that cannot move (left running), 3..6 and 8 as
 * qmigrate migrate (5 also a signal before anything moved or during the
 * shutdown's grace period: the VM still runs here), 7 handed to an
 * external controller (still running here).
 */
int
evict_run(const struct evict_options *o)
{
	struct evict		 e;
	struct policy_set	*set;
	struct policy_choice	 choice;
	const struct policy	*p;
	char			*cause = NULL, *summary = NULL;
	int			 rc;

	memset(&e, 0, sizeof e);
	e.o = o;
	e.node = node_name(o->mig.node);
	set = policy_load_or_default(o->mig.policy_path, &cause);
	if (set == NULL) {
		log_error("%s", cause);
		free(cause);
		free(e.node);
		return QM_EXIT_USAGE;
	}
	policy_choose(set, &o->mig.vm, &choice, 1);
	p = choice.policy;
	e.strategy = choice.eviction;
	e.grace = choice.grace_seconds;
	mig_settings_copy(&e.settings, &choice.migration);
	e.record = json_object_new_object();
	record_str(&e, "strategy", policy_eviction_name(e.strategy));
	record_str(&e, "strategyFrom", choice.eviction_from);
	record_str(&e, "policy", p != NULL ? p->name : NULL);
	record_str(&e, "policyFile", p != NULL ? p->file : NULL);
	json_object_object_add(e.record, "labels",
	    labels_to_json(o->mig.vm.labels, o->mig.vm.nlabels));
	json_object_object_add(e.record, "namespaceLabels",
	    labels_to_json(choice.ns_labels, choice.nns_labels));
	record_str(&e, "selection", choice.why);
	log_info("eviction strategy %s (from %s; policy %s)",
	    policy_eviction_name(e.strategy), choice.eviction_from,
	    p != NULL ? p->name : "none");
	policy_choice_free(&choice);
	e.policies = set;

	if (e.strategy == EVICT_LIVE_MIGRATE) {
		rc = evict_migrate(&e, "evictionStrategy LiveMigrate");
		goto out;
	}

	e.loop = ev_loop_new(EVFLAG_AUTO);
	if (e.loop == NULL)
		fatalx("cannot create an event loop");
	evict_arm(&e);
	e.st = status_create("evict", o->mig.status_file, o->mig.events);
	status_set_ends(e.st, o->mig.qmp_path, NULL);
	status_set_side(e.st, STATUS_SOURCE, e.node, NULL);
	status_set_eviction(e.st, e.node, e.record);
	kube_vmim_identify(&o->mig.vmim, e.st);
	switch (e.strategy) {
	case EVICT_EXTERNAL:
		rc = evict_external(&e);
		break;
	case EVICT_LIVE_MIGRATE_IF_POSSIBLE:
		rc = evict_can_migrate(&e, &summary);
		if (rc == -2 || (rc >= 0 && e.signum != 0)) {
			rc = evict_aborted(&e, "during the pre-flight: nothing "
			    "was touched");
			free(summary);
			break;
		}
		if (rc == 1 && evict_disarm(&e, 1) != 0) {
			rc = evict_aborted(&e, "after the pre-flight: nothing "
			    "was touched");
			free(summary);
			break;
		}
		if (rc == 1) {
			free(summary);
			status_free(e.st);
			ev_loop_destroy(e.loop);
			e.loop = NULL;
			rc = evict_migrate(&e, "evictionStrategy "
			    "LiveMigrateIfPossible and the pre-flight passed");
			goto out;
		}
		if (rc == 0) {
			char *reason;

			xasprintf(&reason, "evictionStrategy "
			    "LiveMigrateIfPossible and the VM cannot move: %s",
			    summary);
			rc = evict_shutdown(&e, reason);
			free(reason);
		} else
			rc = evict_report(&e);
		free(summary);
		break;
	case EVICT_NONE:
	default:
		rc = evict_shutdown(&e, "evictionStrategy None");
		break;
	}
	(void)evict_disarm(&e, 0);
	qmp_close(e.qmp);
	status_free(e.st);
	ev_loop_destroy(e.loop);
out:
	json_object_put(e.record);
	mig_settings_free(&e.settings);
	policy_set_free(set);
	free(e.node);
	return rc;
}
