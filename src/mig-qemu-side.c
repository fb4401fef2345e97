/*
 * mig-qemu-side.c: reads what one side's QEMU is, for the negotiation of
 * mig-negotiate.c: its version (the QMP greeting), the capabilities
 * query-migrate-capabilities lists, the guest's RAM, machine type and CPU
 * model, its UUID, whether it runs under KVM and with a dirty ring (see
 * ring_probe()).  Only the version and the
 * capabilities are required; anything else QEMU does not say stays "not
 * known" and is then not compared.  A job (mig-job.h): its commands go
 * out on the migration's one event loop, one answer at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "mig-job.h"
#include "mig-negotiate.h"
#include "qmp.h"

/* s without suffix into out (len bytes), "" when it does not end so. */
static void
strip_suffix(const char *s, const char *suffix, char *out, size_t len)
{
	size_t n = strlen(s), k = strlen(suffix);

	out[0] = '\0';
	if (n > k && n - k < len && strcmp(s + n - k, suffix) == 0)
		snprintf(out, len, "%.*s", (int)(n - k), s);
}

/* The arguments of qom-get (prop) or qom-list (prop NULL) at path. */
static json_object *
qom_args(const char *path, const char *prop)
{
	json_object *args = json_object_new_object();

	json_object_object_add(args, "path", json_object_new_string(path));
	if (prop != NULL)
		json_object_object_add(args, "property",
		    json_object_new_string(prop));
	return args;
}

/* A string answer, or NULL (an error, or another type). */
static const char *
string_answer(json_object *reply, const char *error)
{
	if (error != NULL) {
		log_debug("qemu side: %s", error);
		return NULL;
	}
	return json_object_is_type(reply, json_type_string) ?
	    json_object_get_string(reply) : NULL;
}

enum {
	SIDE_CAPS, SIDE_MEMORY, SIDE_KVM, SIDE_RING, SIDE_RING_ANSWER,
	SIDE_MACHINE, SIDE_CPUS, SIDE_CPU_TYPE, SIDE_UUID, SIDE_PERIPH,
	SIDE_PERIPH_ANON, SIDE_END,
};

/* The state of capability name in a query-migrate-capabilities reply. */
static int
cap_state(json_object *reply, const char *name)
{
	size_t	i, n;

	if (!json_object_is_type(reply, json_type_array))
		return 0;
	n = json_object_array_length(reply);
	for (i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(reply, i);
		const char *cn = json_str_at(c, "capability");

		if (cn != NULL && strcmp(cn, name) == 0)
			return json_bool_at(c, "state");
	}
	return 0;
}

/*
 * migrate-set-capabilities' arguments: dirty-limit dl, and auto-converge
 * ac when with_ac (QEMU refuses dirty-limit beside auto-converge).
 */
static json_object *
ring_caps(int dl, int with_ac, int ac)
{
	json_object *caps = json_object_new_array(), *args, *c;

	if (with_ac) {
		c = json_object_new_object();
		json_object_object_add(c, "capability",
		    json_object_new_string("auto-converge"));
		json_object_object_add(c, "state",
		    json_object_new_boolean(ac));
		json_object_array_add(caps, c);
	}
	c = json_object_new_object();
	json_object_object_add(c, "capability",
	    json_object_new_string("dirty-limit"));
	json_object_object_add(c, "state", json_object_new_boolean(dl));
	json_object_array_add(caps, c);
	args = json_object_new_object();
	json_object_object_add(args, "capabilities", caps);
	return args;
}

/*
 * Whether KVM has a dirty ring, which dirty-limit needs.  QMP does not say
 * it: the accelerator object is no child of QOM's tree (qom-get on
 * /machine/accel or /accel: "Device not found", 10.0 and 11.1), and
 * query-vcpu-dirty-limit answers [] with a ring or without.  QEMU's own
 * check does: migrate-set-capabilities dirty-limit is refused with
 * "dirty-limit requires KVM with accelerator property 'dirty-ring-size'
 * set" (8.1 to 11.1, options.c).  So the capability is tried, with
 * auto-converge off beside it when on (QEMU refuses the two together),
 * and both put back as they were: the QEMU is left as found.  Asked only
 * of a KVM QEMU that lists dirty-limit; refused while a migration runs
 * (the ring then stays "not known").  The ring's size is not readable
 * over QMP at all.
 */
static int
ring_probe(struct qemu_side *q, struct mig_job_cmd *cmd)
{
	if (q->kvm != 1 || !(q->caps & MIG_CAP_BIT(MIG_CAP_DIRTY_LIMIT)))
		return 0;
	if (q->had_dirty_limit) {	/* QEMU took it before */
		q->dirty_ring = 1;
		return 0;
	}
	cmd->name = "migrate-set-capabilities";
	cmd->args = ring_caps(1, q->had_auto_converge, 0);
	return 1;
}

/*
 * Fills the struct qemu_side ctx (its major, minor and micro set from the
 * greeting before the job starts) from QEMU's answers.  Fails only when
 * QEMU does not answer query-migrate-capabilities (the one fact the
 * negotiation cannot do without).
 */
enum mig_job_next
qemu_side_job(void *ctx, int *pc, json_object *reply, const char *error,
    struct mig_job_cmd *cmd, char **cause)
{
	struct qemu_side	*q = ctx;
	json_object		*v, *cpu;
	const char		*t;
	char			 suffix[64];

	switch ((*pc)++) {
	case SIDE_CAPS:
		q->caps = 0;
		q->kvm = -1;
		q->dirty_ring = -1;
		q->dirty_ring_why[0] = '\0';
		q->vcpus = 0;
		cmd->name = "query-migrate-capabilities";
		return JOB_SEND;
	case SIDE_MEMORY:
		if (error != NULL) {
			xasprintf(cause, "query-migrate-capabilities: %s",
			    error);
			return JOB_FAILED;
		}
		q->caps = mig_caps_listed(reply);
		q->had_auto_converge = cap_state(reply, "auto-converge");
		q->had_dirty_limit = cap_state(reply, "dirty-limit");
		cmd->name = "query-memory-size-summary";
		return JOB_SEND;
	case SIDE_KVM:
		if (error == NULL)
			q->ram_bytes = json_u64_at(reply, "base-memory");
		else
			log_debug("qemu side: %s", error);
		cmd->name = "query-kvm";
		return JOB_SEND;
	case SIDE_RING:
		if (error == NULL && json_object_object_get_ex(reply, "enabled",
		    &v))
			q->kvm = json_object_get_boolean(v);
		if (ring_probe(q, cmd))
			return JOB_SEND;
		*pc = SIDE_CPUS;
		goto machine;
	case SIDE_RING_ANSWER:
		if (error == NULL) {
			q->dirty_ring = 1;
			/* Back as it was. */
			cmd->name = "migrate-set-capabilities";
			cmd->args = ring_caps(0, q->had_auto_converge,
			    q->had_auto_converge);
			return JOB_SEND;
		}
		q->dirty_ring = mig_dirty_ring_refusal(error) ? 0 : -1;
		snprintf(q->dirty_ring_why, sizeof q->dirty_ring_why,
		    "migrate-set-capabilities: %s", error);
		*pc = SIDE_CPUS;
		goto machine;
	case SIDE_MACHINE:
		if (error != NULL && q->dirty_ring == 1)
			log_warnx("QEMU kept dirty-limit on after the probe: "
			    "%s", error);
	machine:
		/* The machine type: QOM's type without "-machine". */
		cmd->name = "qom-get";
		cmd->args = qom_args("/machine", "type");
		return JOB_SEND;
	case SIDE_CPUS:
		if ((t = string_answer(reply, error)) != NULL)
			strip_suffix(t, "-machine", q->machine,
			    sizeof q->machine);
		cmd->name = "query-cpus-fast";
		return JOB_SEND;
	case SIDE_CPU_TYPE:
		/* The first vCPU's model: QOM's type less "-TARGET-cpu". */
		cpu = error == NULL && json_object_is_type(reply,
		    json_type_array) ? json_object_array_get_idx(reply, 0) :
		    NULL;
		if (cpu != NULL)
			q->vcpus = (int)json_object_array_length(reply);
		if (cpu != NULL && json_str_at(cpu, "qom-path") != NULL &&
		    json_str_at(cpu, "target") != NULL &&
		    strlen(json_str_at(cpu, "target")) < 32) {
			snprintf(q->cpu_target, sizeof q->cpu_target, "%s",
			    json_str_at(cpu, "target"));
			cmd->name = "qom-get";
			cmd->args = qom_args(json_str_at(cpu, "qom-path"),
			    "type");
			return JOB_SEND;
		}
		(*pc)++;	/* no vCPU to ask about */
		cmd->name = "query-uuid";
		return JOB_SEND;
	case SIDE_UUID:
		if ((t = string_answer(reply, error)) != NULL) {
			snprintf(suffix, sizeof suffix, "-%s-cpu",
			    q->cpu_target);
			strip_suffix(t, suffix, q->cpu_model,
			    sizeof q->cpu_model);
		}
		cmd->name = "query-uuid";
		return JOB_SEND;
	case SIDE_PERIPH:
		/* The UUID (-uuid), "" when QEMU has none (all zeros). */
		t = error == NULL ? json_str_at(reply, "UUID") : NULL;
		if (t != NULL && strlen(t) == 36 &&
		    strcmp(t, "00000000-0000-0000-0000-000000000000") != 0)
			memcpy(q->uuid, t, 37);
		/* The devices added with -device, which carry state. */
		q->devices[0] = '\0';
		cmd->name = "qom-list";
		cmd->args = qom_args("/machine/peripheral", NULL);
		return JOB_SEND;
	case SIDE_PERIPH_ANON:
		q->has_devices = error == NULL;
		if (error == NULL)
			devices_add(reply, q->devices, sizeof q->devices);
		cmd->name = "qom-list";
		cmd->args = qom_args("/machine/peripheral-anon", NULL);
		return JOB_SEND;
	case SIDE_END:
		if (error != NULL)
			q->has_devices = 0;
		else
			devices_add(reply, q->devices, sizeof q->devices);
		devices_sort(q->devices);
		return JOB_DONE;
	default:
		return JOB_DONE;
	}
}

/*
 * qemu_side_job for a migration's own QEMU, where not knowing is no
 * failure: a QEMU that cannot say what it has is taken as having only
 * what every QEMU has (major 0: the negotiation then asks nothing new).
 */
enum mig_job_next
qemu_side_job_or_least(struct qemu_side *side, int *pc, json_object *reply,
    const char *error, struct mig_job_cmd *cmd, const char *role,
    const char *qmp_path)
{
	enum mig_job_next	 next;
	char			*why = NULL;

	next = qemu_side_job(side, pc, reply, error, cmd, &why);
	if (next != JOB_FAILED)
		return next;
	log_warnx("%s QEMU %s: %s: only what every QEMU has", role, qmp_path,
	    why);
	free(why);
	side->major = 0;
	return JOB_DONE;
}
