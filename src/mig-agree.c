/*
 * mig-agree.c: the negotiation of mig-negotiate.c carried out on each
 * side, and what the status says of it (migrationConfiguration.qemu, the
 * plan; migrationConfiguration.capabilities, each capability on or off
 * and why; the two QEMUs).
 *
 *	source setup	mig_agree_local(): the plan for a peer not known
 *			yet (all a unix: migration gets)
 *	target, offer	mig_agree_target(): the two QEMUs compared (a guest
 *			that does not fit is refused before memory moves),
 *			the plan both apply, answered with the ready
 *	source, ready	mig_agree_answer(): the agreed plan, for the source
 *			to apply to its QEMU before migrate
 * A target without an offer (unix:) uses mig_agree_local() too.  No QMP
 * here: each side reads its QEMU (qemu_side_job) and applies the plan
 * (mig_plan_apply_job) as jobs on its one event loop (mig-job.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "mig-agree.h"

/*
 * Records the negotiation in the status: the plan, the reasons (why,
 * stolen), both QEMUs (peer may be NULL), and with notes a note for each
 * capability the policy asked for that was left off.
 */
static void
record(struct status *st, const struct mig_wants *w,
    const struct qemu_side *self, const struct qemu_side *peer, int source,
    const struct mig_plan *plan, json_object *why, int notes)
{
	json_object	*q = json_object_new_object();
	const char	*r;

	status_configure(st, "qemu", mig_plan_to_json(plan));
	if (source && plan->throttle_why[0] != '\0')
		status_configure(st, "throttle",
		    json_object_new_string(plan->throttle_why));
	status_configure(st, "capabilities", why);
	json_object_object_add(q, source ? "source" : "target",
	    qemu_side_encode(self));
	if (peer != NULL)
		json_object_object_add(q, source ? "target" : "source",
		    qemu_side_encode(peer));
	status_configure(st, "qemus", q);
	if (!notes)
		return;
	r = json_str_at(why, "multifd");
	if (w->channels > 0 && !plan->multifd && r != NULL &&
	    strncmp(r, "off: ", 5) == 0)
		status_note(st, "multifd dropped: %s", r + 5);
	r = json_str_at(why, "postcopy-ram");
	if (w->postcopy && !plan->postcopy && r != NULL &&
	    strncmp(r, "off: ", 5) == 0)
		status_note(st, "post-copy dropped: %s", r + 5);
}

static void
wants_of(const struct mig_settings *s, struct mig_wants *w)
{
	w->postcopy = s->allow_post_copy;
	w->channels = s->parallel_migration_threads;
}

/*
 * The source's throttle (mig_throttle_choose()) for this QEMU and the
 * target (major 0: not known), into plan and why's dirty-limit.
 */
static void
throttle_of(const struct mig_settings *s, struct mig_plan *plan,
    const struct qemu_side *self, const struct qemu_side *target,
    json_object *why)
{
	enum mig_throttle	t;
	char			text[sizeof plan->throttle_why];

	t = mig_throttle_choose(s->convergence, s->allow_auto_converge, self,
	    target, text, sizeof text);
	mig_throttle_apply(plan, t, text, why);
	plan->dirty_limit_listed =
	    (self->caps & MIG_CAP_BIT(MIG_CAP_DIRTY_LIMIT)) != 0;
}

/*
 * One side before it knows the other: chooses plan's capabilities for
 * this QEMU (*self, already read) and a peer not known (mig_negotiate()),
 * recorded in the status, with notes of what was dropped when final (no
 * agreement will follow: unix:).
 */
void
mig_agree_local(const struct mig_settings *s, struct mig_plan *plan,
    const struct qemu_side *self, int source, int final, struct status *st)
{
	struct qemu_side	unknown;
	struct mig_wants	w;

	json_object		*why;

	wants_of(s, &w);
	memset(&unknown, 0, sizeof unknown);
	why = mig_negotiate(&w, self, &unknown, plan);
	if (source)
		throttle_of(s, plan, self, &unknown, why);
	record(st, &w, self, NULL, source, plan, why, final);
}

/*
 * The target on an offer that describes the source's QEMU: with its own
 * (*self, already read; machines: its machine types as machines_listed()
 * writes them, or NULL), refuses a guest it cannot hold (-1 with *cause
 * naming the difference: "target QEMU has 256 MiB of RAM, the guest 384
 * MiB"), else chooses plan's capabilities for both, records them, and
 * returns 0 with *why (a new reference) for the ready answer.
 */
int
mig_agree_target(const struct control_offer *o, struct mig_plan *plan,
    const struct qemu_side *self, const char *machines, json_object **why,
    struct status *st, char **cause)
{
	char reason[320];

	*why = NULL;
	if (qemu_side_compare(&o->qemu, self, machines, reason,
	    sizeof reason) != 0) {
		xasprintf(cause, "%s", reason);
		return -1;
	}
	*why = mig_negotiate(&o->wants, &o->qemu, self, plan);
	record(st, &o->wants, self, &o->qemu, 0, plan, json_object_get(*why),
	    1);
	return 0;
}

/*
 * The source on the target's ready answer (borrowed): takes the plan the
 * target agreed into *plan and records it; the caller applies it to its
 * QEMU (capabilities and parameters) before migrate.  An answer without
 * an agreement (a target from before the negotiation) leaves the plan as
 * offered (0).  Returns 1 when the plan changed, 0, or -1 with *cause.
 */
int
mig_agree_answer(json_object *answer, const struct mig_settings *s,
    const struct qemu_side *self, struct mig_plan *plan, struct status *st,
    char **cause)
{
	struct qemu_side	 target;
	struct mig_plan		 agreed;
	struct mig_wants	 w;
	json_object		*why = NULL;
	int			 rc;

	rc = control_answer_agreed(answer, &target, &agreed, &why, cause);
	if (rc <= 0)
		return rc;
	plan->postcopy = agreed.postcopy;
	plan->multifd = agreed.multifd;
	plan->channels = agreed.channels;
	plan->postcopy_preempt = agreed.postcopy_preempt;
	plan->validate_uuid = agreed.validate_uuid;
	plan->postcopy_blocktime = agreed.postcopy_blocktime;
	wants_of(s, &w);
	if (why == NULL)
		why = json_object_new_object();
	throttle_of(s, plan, self, &target, why);
	record(st, &w, self, &target, 1, plan, why, 1);
	return 1;
}
