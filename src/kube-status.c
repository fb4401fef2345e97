/*
 * kube-status.c: a migration's status document in KubeVirt's shapes: the
 * part of a VMI's status KubeVirt keeps for it (status.migrationState and
 * status.conditions) and a VirtualMachineInstanceMigration's status, each
 * as one JSON merge patch a node agent can apply (qmigrate status
 * --format kubevirt, kubevirt-migration).
 *
 * The document already uses KubeVirt's names; the conversion keeps only
 * KubeVirt's fields (qmigrate's own, such as progress or decisions, have
 * no place in a VMI) in KubeVirt's shapes: the configuration as
 * VMIMConfigurationOptions, a bandwidth as a Kubernetes quantity, each
 * condition with one reason and message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "policy.h"

/* Copies doc[key] to out[key] when it is of type t. */
static void
copy_key(json_object *out, json_object *doc, const char *key, enum json_type t)
{
	json_object *v;

	if (json_object_object_get_ex(doc, key, &v) &&
	    json_object_is_type(v, t))
		json_object_object_add(out, key, json_object_get(v));
}

/* Bytes as Kubernetes writes a quantity: "64Mi", "1Gi", else "12345". */
static json_object *
quantity_json(int64_t bytes)
{
	static const char *suffixes[] = { "Ti", "Gi", "Mi", "Ki" };
	char	buf[32];
	int	i, shift;

	for (i = 0, shift = 40; i < 4 && bytes > 0; i++, shift -= 10) {
		if (bytes % ((int64_t)1 << shift) == 0) {
			snprintf(buf, sizeof buf, "%lld%s",
			    (long long)(bytes >> shift), suffixes[i]);
			return json_object_new_string(buf);
		}
	}
	snprintf(buf, sizeof buf, "%lld", (long long)bytes);
	return json_object_new_string(buf);
}

/* The document's migrationConfiguration as KubeVirt's fields only. */
static json_object *
configuration_json(json_object *c)
{
	static const char *bools[] = { "allowAutoConverge", "allowPostCopy",
	    "allowWorkloadDisruption", "disableTLS" };
	static const char *ints[] = { "completionTimeoutPerGiB",
	    "progressTimeout", "parallelMigrationsPerCluster",
	    "parallelOutboundMigrationsPerNode" };
	json_object	*o = json_object_new_object(), *v;
	size_t		 i;

	for (i = 0; i < NITEMS(bools); i++)
		copy_key(o, c, bools[i], json_type_boolean);
	for (i = 0; i < NITEMS(ints); i++)
		copy_key(o, c, ints[i], json_type_int);
	if (json_object_object_get_ex(c, "bandwidthPerMigration", &v) &&
	    json_object_is_type(v, json_type_int) &&
	    json_object_get_int64(v) > 0)
		json_object_object_add(o, "bandwidthPerMigration",
		    quantity_json(json_object_get_int64(v)));
	/*
	 * Unset (0), virt-handler reports DefaultMigrationMaxDowntimeMs; it
	 * bounds the downtime only under downtimeTuning or stallDetector.
	 */
	if (json_object_object_get_ex(c, "maxDowntimeMs", &v) &&
	    json_object_is_type(v, json_type_int) &&
	    json_object_get_int64(v) > 0)
		json_object_object_add(o, "maxDowntimeMs", json_object_get(v));
	else
		json_object_object_add(o, "maxDowntimeMs",
		    json_object_new_int64(KUBEVIRT_DEFAULT_MAX_DOWNTIME_MS));
	copy_key(o, c, "experimental", json_type_object);
	return o;
}

/* The conditions qmigrate reports on a VMI (and so owns in a merge). */
static const char *const owned_conditions[] = { "LiveMigratable",
    "StorageLiveMigratable", "EvictionRequested", NULL };

static int
owned_condition(const char *type)
{
	const char *const *p;

	for (p = owned_conditions; type != NULL && *p != NULL; p++)
		if (strcmp(type, *p) == 0)
			return 1;
	return 0;
}

/*
 * A condition of the document as a VMI's: one reason, one message
 * (EvictionRequested's as virt-controller words it); the times null.
 */
static json_object *
condition_json(json_object *c)
{
	json_object	*o = json_object_new_object();
	const char	*s, *type = json_str_at(c, "type");

	copy_key(o, c, "type", json_type_string);
	copy_key(o, c, "status", json_type_string);
	if ((s = json_str_at(c, "reason")) != NULL && *s != '\0')
		json_object_object_add(o, "reason", json_object_new_string(s));
	if (type != NULL && strcmp(type, "EvictionRequested") == 0)
		s = "VMI is marked for eviction";
	else
		s = json_str_at(c, "message");
	if (s != NULL && *s != '\0')
		json_object_object_add(o, "message",
		    json_object_new_string(s));
	json_object_object_add(o, "lastProbeTime", NULL);
	json_object_object_add(o, "lastTransitionTime", NULL);
	return o;
}

/*
 * Whether the document is a live migration that ended well after an
 * eviction: the VMI has left the node, so virt-handler clears
 * evacuationNodeName and virt-controller drops EvictionRequested.
 */
static int
evicted(json_object *doc)
{
	const char *phase = json_str_at(doc, "phase");
	const char *role = json_str_at(doc, "role");

	return json_obj_at(doc, "eviction") != NULL && phase != NULL &&
	    strcmp(phase, "Succeeded") == 0 && role != NULL &&
	    strcmp(role, "source") == 0;
}

/* The condition of type in a (an array), or NULL. */
static json_object *
condition_find(json_object *a, const char *type)
{
	json_object	*c;
	const char	*t;
	size_t		 i;

	for (i = 0; a != NULL && i < json_object_array_length(a); i++) {
		c = json_object_array_get_idx(a, i);
		if ((t = json_str_at(c, "type")) != NULL &&
		    strcmp(t, type) == 0)
			return c;
	}
	return NULL;
}

/*
 * Merges ours (qmigrate's conditions, condition_json()'s shape) into the
 * VMI's current list vmi: the VMI's conditions qmigrate does not report
 * stay as they are, with their times; one qmigrate reports keeps its
 * lastTransitionTime (and lastProbeTime) while its status is the same,
 * else both become now; a new one is stamped now.  drop (or NULL) names
 * a type left out of both (EvictionRequested once the VM has left).
 * Returns a new array.
 */
static json_object *
conditions_merge(json_object *vmi, json_object *ours, const char *drop,
    const char *now)
{
	json_object	*out = json_object_new_array(), *c, *old, *n;
	const char	*type, *st, *ost;
	size_t		 i;

	for (i = 0; vmi != NULL && i < json_object_array_length(vmi); i++) {
		c = json_object_array_get_idx(vmi, i);
		type = json_str_at(c, "type");
		if (drop != NULL && type != NULL && strcmp(type, drop) == 0)
			continue;
		if (owned_condition(type) && condition_find(ours, type) != NULL)
			continue;
		json_object_array_add(out, json_object_get(c));
	}
	for (i = 0; i < json_object_array_length(ours); i++) {
		c = json_object_array_get_idx(ours, i);
		type = json_str_at(c, "type");
		if (drop != NULL && type != NULL && strcmp(type, drop) == 0)
			continue;
		n = NULL;
		if (json_object_deep_copy(c, &n, NULL) != 0)
			fatalx("json_object_deep_copy failed");
		old = type != NULL ? condition_find(vmi, type) : NULL;
		st = json_str_at(c, "status");
		ost = old != NULL ? json_str_at(old, "status") : NULL;
		if (old != NULL && st != NULL && ost != NULL &&
		    strcmp(st, ost) == 0) {
			copy_key(n, old, "lastProbeTime", json_type_string);
			copy_key(n, old, "lastTransitionTime",
			    json_type_string);
		} else {
			json_object_object_add(n, "lastProbeTime",
			    json_object_new_string(now));
			json_object_object_add(n, "lastTransitionTime",
			    json_object_new_string(now));
		}
		json_object_array_add(out, n);
	}
	return out;
}

/* The migrationState of the VMI (and of the VMIM) from the document. */
static json_object *
migration_state_json(json_object *doc)
{
	static const char *strings[] = { "startTimestamp", "endTimestamp",
	    "targetNodeAddress", "targetNode", "targetPod", "sourceNode",
	    "sourcePod", "abortStatus", "failureReason", "migrationUid",
	    "mode", "migrationPolicyName" };
	static const char *bools[] = { "completed", "failed",
	    "abortRequested" };
	json_object	*ms, *v;
	size_t		 i;

	ms = json_object_new_object();
	for (i = 0; i < NITEMS(strings); i++)
		copy_key(ms, doc, strings[i], json_type_string);
	for (i = 0; i < NITEMS(bools); i++)
		copy_key(ms, doc, bools[i], json_type_boolean);
	if (json_object_object_get_ex(doc, "migrationConfiguration", &v) &&
	    json_object_is_type(v, json_type_object))
		json_object_object_add(ms, "migrationConfiguration",
		    configuration_json(v));
	return ms;
}

/*
 * The merge patch of a VMI's status for the status document doc
 * (borrowed).  vmi_conditions (borrowed, may be NULL) is the VMI's
 * current status.conditions: qmigrate's conditions are merged into it,
 * stamped with now (RFC 3339) when they change; without it the patch's
 * list is qmigrate's alone, its times null.  After a successful
 * eviction, evacuationNodeName is cleared (null) and EvictionRequested
 * dropped.  Returns a new reference.
 */
json_object *
status_to_kubevirt(json_object *doc, json_object *vmi_conditions,
    const char *now)
{
	json_object	*patch, *status, *v = NULL, *ours, *c;
	const char	*type, *drop = NULL;
	size_t		 i;
	int		 left = evicted(doc);

	status = json_object_new_object();
	json_object_object_add(status, "migrationState",
	    migration_state_json(doc));
	if (left)
		drop = "EvictionRequested";
	if ((json_object_object_get_ex(doc, "conditions", &v) &&
	    json_object_is_type(v, json_type_array)) ||
	    vmi_conditions != NULL) {
		ours = json_object_new_array();
		for (i = 0; v != NULL && json_object_is_type(v,
		    json_type_array) && i < json_object_array_length(v); i++) {
			c = json_object_array_get_idx(v, i);
			if (!json_object_is_type(c, json_type_object))
				continue;
			type = json_str_at(c, "type");
			if (drop != NULL && type != NULL &&
			    strcmp(type, drop) == 0)
				continue;
			json_object_array_add(ours, condition_json(c));
		}
		if (vmi_conditions != NULL) {
			json_object_object_add(status, "conditions",
			    conditions_merge(vmi_conditions, ours, drop, now));
			json_object_put(ours);
		} else
			json_object_object_add(status, "conditions", ours);
	}
	if (left) {
		if (json_obj_at(doc, "evacuationNodeName") != NULL ||
		    vmi_conditions != NULL)
			json_object_object_add(status, "evacuationNodeName",
			    NULL);
	} else
		copy_key(status, doc, "evacuationNodeName", json_type_string);
	patch = json_object_new_object();
	json_object_object_add(patch, "status", status);
	return patch;
}

/*
 * KubeVirt's VMIM phase for a phase of the document: the same names
 * (qmigrate never schedules a pod: Scheduling and Scheduled do not
 * occur).  NULL for HandedOver, which is no migration.
 */
static const char *
vmim_phase(const char *phase)
{
	static const char *same[] = { "Pending", "PreparingTarget",
	    "TargetReady", "Running", "Succeeded", "Failed" };
	size_t i;

	for (i = 0; phase != NULL && i < NITEMS(same); i++)
		if (strcmp(phase, same[i]) == 0)
			return same[i];
	return NULL;
}

/*
 * The merge patch of a VirtualMachineInstanceMigration's status for the
 * status document doc (borrowed): phase, phaseTransitionTimestamps,
 * migrationState and, once an abort was asked for, the
 * migrationAbortRequested condition.  Returns a new reference, or NULL
 * with *cause for a document that is no migration (an eviction that did
 * not migrate).
 */
json_object *
status_to_kubevirt_migration(json_object *doc, char **cause)
{
	json_object	*patch, *status, *times, *v, *t, *conds, *c;
	const char	*role = json_str_at(doc, "role");
	const char	*phase = vmim_phase(json_str_at(doc, "phase"));
	const char	*p, *ts;
	size_t		 i;

	if (role == NULL || (strcmp(role, "source") != 0 &&
	    strcmp(role, "target") != 0) || phase == NULL) {
		xasprintf(cause, "the document is no migration (role %s, "
		    "phase %s): an eviction that did not migrate has no "
		    "VirtualMachineInstanceMigration", role != NULL ? role :
		    "missing", json_str_at(doc, "phase") != NULL ?
		    json_str_at(doc, "phase") : "missing");
		return NULL;
	}
	status = json_object_new_object();
	json_object_object_add(status, "phase", json_object_new_string(phase));
	times = json_object_new_array();
	v = json_obj_at(doc, "phaseTransitionTimestamps");
	for (i = 0; v != NULL && json_object_is_type(v, json_type_array) &&
	    i < json_object_array_length(v); i++) {
		c = json_object_array_get_idx(v, i);
		if ((p = vmim_phase(json_str_at(c, "phase"))) == NULL ||
		    (ts = json_str_at(c, "phaseTransitionTimestamp")) == NULL)
			continue;
		t = json_object_new_object();
		json_object_object_add(t, "phase", json_object_new_string(p));
		json_object_object_add(t, "phaseTransitionTimestamp",
		    json_object_new_string(ts));
		json_object_array_add(times, t);
	}
	json_object_object_add(status, "phaseTransitionTimestamps", times);
	json_object_object_add(status, "migrationState",
	    migration_state_json(doc));
	if (json_bool_at(doc, "abortRequested")) {
		conds = json_object_new_array();
		json_object_array_add(conds, json_tokener_parse("{\"type\": "
		    "\"migrationAbortRequested\", \"status\": \"True\", "
		    "\"lastProbeTime\": null, \"lastTransitionTime\": null}"));
		json_object_object_add(status, "conditions", conds);
	}
	patch = json_object_new_object();
	json_object_object_add(patch, "status", status);
	return patch;
}
