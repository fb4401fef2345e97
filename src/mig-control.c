/*
 * mig-control.c: the messages of the control channel between the source's
 * and the target's qmigrate over tls: (the proxy's first connection), in
 * one place.  The source asks, the target answers, one question at a time:
 *
 *	source -> target			target -> source
 *	migration (the offer: uid, QEMU	ready (the target's QEMU, the
 *	  version, guest running, plan,	  agreed plan and why) | refused
 *	  disks, source node and pod,	  (reason)
 *	  the source's QEMU and what its
 *	  policy wants)
 * Every answer also names the target's node and pod.
 *	watch (while pre-copy runs)		ok | abort (reason)
 *	resume (post-copy broke)		ready (QEMU listens again)
 *	abort (reason)				ok
 *	completed (QEMU says so)		running | failed (reason)
 *
 * Everything read from the peer goes through control_decode() and
 * control_answer_decode(): typed, bounded, and a malformed message is an
 * error with a reason, never a crash (fuzz/fuzz-control.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "mig-control.h"

#define CONTROL_MAX_DISKS	64

static const char *type_names[] = {
	[CONTROL_UNKNOWN] = NULL,
	[CONTROL_OFFER] = "migration",
	[CONTROL_WATCH] = "watch",
	[CONTROL_RESUME] = "resume",
	[CONTROL_ABORT] = "abort",
	[CONTROL_COMPLETED] = "completed",
};

static const char *answer_names[] = {
	[ANSWER_UNKNOWN] = NULL,
	[ANSWER_READY] = "ready",
	[ANSWER_REFUSED] = "refused",
	[ANSWER_OK] = "ok",
	[ANSWER_ABORT] = "abort",
	[ANSWER_RUNNING] = "running",
	[ANSWER_FENCED] = "fenced",
	[ANSWER_NOT_KNOWN] = "unknown",
};

static const char *
control_type_name(enum control_type t)
{
	const char *name = (size_t)t < NITEMS(type_names) ? type_names[t] :
	    NULL;

	return name != NULL ? name : "unknown";
}

static const char *
control_answer_name(enum control_answer a)
{
	const char *name = (size_t)a < NITEMS(answer_names) ?
	    answer_names[a] : NULL;

	return name != NULL ? name : "unknown";
}

void
control_msg_free(struct control_msg *m)
{
	size_t i;

	for (i = 0; i < m->offer.ndisks; i++)
		free(m->offer.disks[i]);
	free(m->offer.disks);
	memset(m, 0, sizeof *m);
}

/*
 * "reason" as a bounded string, escaped (it is logged and the peer wrote
 * it), or "no reason given".
 */
static void
copy_reason(json_object *o, char *out, size_t len)
{
	const char	*r = json_str_at(o, "reason");
	char		*esc;

	if (r == NULL || *r == '\0') {
		snprintf(out, len, "no reason given");
		return;
	}
	esc = escape_bytes(r, strlen(r), len);
	snprintf(out, len, "%s", esc);
	free(esc);
}

/*
 * A node's or a pod's name at key into out (CONTROL_NAME_MAX + 1 bytes):
 * "" when absent, not a string, too long or holding control characters.
 */
static void
copy_name(json_object *o, const char *key, char *out)
{
	const char	*s = json_str_at(o, key);
	size_t		 i, n;

	out[0] = '\0';
	if (s == NULL || (n = strlen(s)) > CONTROL_NAME_MAX)
		return;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return;
	memcpy(out, s, n + 1);
}

/* The offer's disks: 1 to 64 names (never paths). */
static int
decode_disks(json_object *disks, struct control_offer *offer, char **cause)
{
	json_object	*k;
	size_t		 i, n;

	if (!json_object_is_type(disks, json_type_array) ||
	    (n = json_object_array_length(disks)) == 0 ||
	    n > CONTROL_MAX_DISKS) {
		xasprintf(cause, "\"disks\" in the offer is not a list of 1 to "
		    "%d disk names", CONTROL_MAX_DISKS);
		return -1;
	}
	offer->disks = xcalloc(n, sizeof *offer->disks);
	for (i = 0; i < n; i++) {
		k = json_object_array_get_idx(disks, i);
		if (!json_object_is_type(k, json_type_string) ||
		    json_object_get_string_len(k) == 0 ||
		    json_object_get_string_len(k) > 1024 ||
		    json_object_get_string(k)[0] == '/') {
			xasprintf(cause, "\"disks\" in the offer: entry %zu is "
			    "not a disk name", i);
			return -1;
		}
		offer->disks[i] = xstrdup(json_object_get_string(k));
		offer->ndisks = i + 1;
	}
	return 0;
}

/* What the source's policy asks for: {"postCopy": B, "channels": N}. */
static int
decode_wants(json_object *o, struct mig_wants *w, char **cause)
{
	json_object *v;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "postCopy", &v) ||
	    !json_object_is_type(v, json_type_boolean))
		goto bad;
	w->postcopy = json_object_get_boolean(v);
	if (!json_object_object_get_ex(o, "channels", &v) ||
	    !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 0 || json_object_get_int64(v) > 255)
		goto bad;
	w->channels = (int)json_object_get_int64(v);
	return 0;
bad:
	xasprintf(cause, "\"wants\" in the offer is not {\"postCopy\": "
	    "true|false, \"channels\": 0..255}");
	return -1;
}

/*
 * The offer's fields into *offer (names bounded, a missing version or
 * guest state tolerated).  Returns 0, or -1 with *cause (NULL on entry)
 * saying why the offer deserves a refusal.
 */
static int
decode_offer(json_object *o, struct control_offer *offer, char **cause)
{
	json_object	*v;
	const char	*s;

	s = json_str_at(o, "migrationUid");
	snprintf(offer->uid, sizeof offer->uid, "%s", s != NULL ? s : "");
	copy_name(o, "sourceNode", offer->source_node);
	copy_name(o, "sourcePod", offer->source_pod);
	s = json_str_at(o, "qemuVersion");
	if (s != NULL && sscanf(s, "%d.%d.%d", &offer->qemu_major,
	    &offer->qemu_minor, &offer->qemu_micro) >= 2)
		offer->has_version = 1;
	v = json_obj_at(o, "guestRunning");
	offer->guest_running = v == NULL ||
	    !json_object_is_type(v, json_type_boolean) ||
	    json_object_get_boolean(v);
	v = json_obj_at(o, "plan");
	if (v == NULL) {
		xasprintf(cause, "the offer has no plan");
		return -1;
	}
	if (mig_plan_from_json(&offer->plan, v, cause) != 0)
		return -1;
	if (offer->plan.multifd && offer->plan.postcopy &&
	    (json_obj_at(o, "qemu") == NULL ||
	    qemu_side_decode(json_obj_at(o, "qemu"), &offer->qemu,
	    cause) != 0 || !mig_multifd_postcopy_ok(&offer->qemu))) {
		free(*cause);
		xasprintf(cause, "source asked for multifd with post-copy, "
		    "which its QEMU cannot finish: refused");
		return -1;
	}
	v = json_obj_at(o, "disks");
	if (v != NULL && decode_disks(v, offer, cause) != 0)
		return -1;
	/* A source from before issue 23 describes no QEMU. */
	if ((v = json_obj_at(o, "qemu")) == NULL)
		return 0;
	if (qemu_side_decode(v, &offer->qemu, cause) != 0 ||
	    decode_wants(json_obj_at(o, "wants"), &offer->wants, cause) != 0)
		return -1;
	offer->has_qemu = 1;
	return 0;
}

/*
 * Reads a message from the source (borrowed).  Returns 0 with *out filled
 * (free it with control_msg_free()), or -1 with *cause when it is not an
 * object of a known type.  A malformed offer is still an offer, with
 * out->offer_error saying what is wrong: it deserves a refusal.
 */
int
control_decode(json_object *msg, struct control_msg *out, char **cause)
{
	const char	*type;
	char		*why = NULL;
	json_object	*pc;
	size_t		 i;

	memset(out, 0, sizeof *out);
	if (msg == NULL || !json_object_is_type(msg, json_type_object)) {
		xasprintf(cause, "control message is not a JSON object");
		return -1;
	}
	type = json_str_at(msg, "type");
	for (i = 1; type != NULL && i < NITEMS(type_names); i++)
		if (strcmp(type, type_names[i]) == 0)
			out->type = (enum control_type)i;
	if (out->type == CONTROL_UNKNOWN) {
		xasprintf(cause, "control message of unknown type");
		return -1;
	}
	copy_reason(msg, out->reason, sizeof out->reason);
	out->postcopy = -1;
	if (out->type == CONTROL_COMPLETED &&
	    json_object_object_get_ex(msg, "postcopy", &pc) &&
	    json_object_is_type(pc, json_type_boolean))
		out->postcopy = json_object_get_boolean(pc) ? 1 : 0;
	if (out->type == CONTROL_COMPLETED &&
	    json_object_object_get_ex(msg, "disksLost", &pc) &&
	    json_object_is_type(pc, json_type_boolean))
		out->disks_lost = json_object_get_boolean(pc);
	if (out->type == CONTROL_OFFER &&
	    decode_offer(msg, &out->offer, &why) != 0) {
		snprintf(out->offer_error, sizeof out->offer_error, "%s", why);
		free(why);
	}
	return 0;
}

/* A message to the target (the caller puts it). */
json_object *
control_encode(const struct control_msg *m)
{
	json_object	*o = json_object_new_object(), *disks;
	char		 version[48];
	size_t		 i;

	json_object_object_add(o, "type",
	    json_object_new_string(control_type_name(m->type)));
	if (m->type == CONTROL_ABORT)
		json_object_object_add(o, "reason",
		    json_object_new_string(m->reason));
	if (m->type == CONTROL_COMPLETED && m->postcopy >= 0)
		json_object_object_add(o, "postcopy",
		    json_object_new_boolean(m->postcopy));
	if (m->type == CONTROL_COMPLETED && m->disks_lost) {
		json_object_object_add(o, "disksLost",
		    json_object_new_boolean(1));
		json_object_object_add(o, "reason",
		    json_object_new_string(m->reason));
	}
	if (m->type != CONTROL_OFFER)
		return o;
	json_object_object_add(o, "migrationUid",
	    json_object_new_string(m->offer.uid));
	if (m->offer.source_node[0] != '\0')
		json_object_object_add(o, "sourceNode",
		    json_object_new_string(m->offer.source_node));
	if (m->offer.source_pod[0] != '\0')
		json_object_object_add(o, "sourcePod",
		    json_object_new_string(m->offer.source_pod));
	snprintf(version, sizeof version, "%d.%d.%d", m->offer.qemu_major,
	    m->offer.qemu_minor, m->offer.qemu_micro);
	json_object_object_add(o, "qemuVersion",
	    json_object_new_string(version));
	json_object_object_add(o, "guestRunning",
	    json_object_new_boolean(m->offer.guest_running));
	json_object_object_add(o, "plan", mig_plan_to_json(&m->offer.plan));
	if (m->offer.ndisks > 0) {
		disks = json_object_new_array();
		for (i = 0; i < m->offer.ndisks; i++)
			json_object_array_add(disks,
			    json_object_new_string(m->offer.disks[i]));
		json_object_object_add(o, "disks", disks);
	}
	if (m->offer.has_qemu) {
		json_object *w = json_object_new_object();

		json_object_object_add(o, "qemu",
		    qemu_side_encode(&m->offer.qemu));
		json_object_object_add(w, "postCopy",
		    json_object_new_boolean(m->offer.wants.postcopy));
		json_object_object_add(w, "channels",
		    json_object_new_int(m->offer.wants.channels));
		json_object_object_add(o, "wants", w);
	}
	return o;
}

/*
 * Reads the target's answer (borrowed, may be NULL).  Returns the answer,
 * ANSWER_UNKNOWN for anything else; reason gets its "reason" member.
 */
enum control_answer
control_answer_decode(json_object *answer, char *reason, size_t len)
{
	const char	*status = json_str_at(answer, "status");
	size_t		 i;

	copy_reason(answer, reason, len);
	for (i = 1; status != NULL && i < NITEMS(answer_names); i++)
		if (strcmp(status, answer_names[i]) == 0)
			return (enum control_answer)i;
	return ANSWER_UNKNOWN;
}

/* An answer to the source (the caller puts it); reason may be NULL. */
json_object *
control_answer_encode(enum control_answer a, const char *reason)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "status",
	    json_object_new_string(control_answer_name(a)));
	if (reason != NULL)
		json_object_object_add(o, "reason",
		    json_object_new_string(reason));
	return o;
}

/* Adds the target's node and pod (either may be NULL) to an answer. */
void
control_answer_identify(json_object *answer, const char *node,
    const char *pod)
{
	if (node != NULL)
		json_object_object_add(answer, "targetNode",
		    json_object_new_string(node));
	if (pod != NULL)
		json_object_object_add(answer, "targetPod",
		    json_object_new_string(pod));
}

/*
 * The target's node and pod from an answer (borrowed, may be NULL) into
 * node and pod (CONTROL_NAME_MAX + 1 bytes each; "" when not said).
 */
void
control_answer_identity(json_object *answer, char *node, char *pod)
{
	node[0] = pod[0] = '\0';
	if (answer == NULL || !json_object_is_type(answer, json_type_object))
		return;
	copy_name(answer, "targetNode", node);
	copy_name(answer, "targetPod", pod);
}

/*
 * Adds to a ready answer what the target agreed: its QEMU, the plan both
 * sides apply, and why each capability is on or off (why is stolen).
 */
void
control_answer_agree(json_object *answer, const struct qemu_side *target,
    const struct mig_plan *plan, json_object *why)
{
	json_object_object_add(answer, "qemu", qemu_side_encode(target));
	json_object_object_add(answer, "plan", mig_plan_to_json(plan));
	json_object_object_add(answer, "capabilities", why);
}

/*
 * What the target agreed, from its ready answer (borrowed): returns 1 with
 * *target, *plan and *why (a new reference, or NULL) filled, 0 when the
 * answer carries no agreement (a target from before issue 23: the offered
 * plan stands), or -1 with *cause when it is malformed.
 */
int
control_answer_agreed(json_object *answer, struct qemu_side *target,
    struct mig_plan *plan, json_object **why, char **cause)
{
	json_object	*q = json_obj_at(answer, "qemu");
	json_object	*p = json_obj_at(answer, "plan");
	json_object	*w = json_obj_at(answer, "capabilities");

	*why = NULL;
	if (q == NULL && p == NULL)
		return 0;
	if (q == NULL || p == NULL) {
		xasprintf(cause, "the target's answer has %s without %s",
		    q != NULL ? "its QEMU" : "a plan", q != NULL ? "a plan" :
		    "its QEMU");
		return -1;
	}
	if (qemu_side_decode(q, target, cause) != 0 ||
	    mig_plan_from_json(plan, p, cause) != 0)
		return -1;
	if (w != NULL && json_object_is_type(w, json_type_object))
		*why = json_object_get(w);
	return 1;
}
