/*
 * mig-qemu-side.c: reads what one side's QEMU is, for the negotiation of
 * mig-negotiate.c: its version (the QMP greeting), the capabilities
 * query-migrate-capabilities lists, the guest's RAM, machine type and CPU
 * model, its UUID, and whether it runs under KVM.  Only the version and the
 * capabilities are required; anything else QEMU does not say stays "not
 * known" and is then not compared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "mig-negotiate.h"
#include "qmp.h"

#define SIDE_TIMEOUT 10

/* The string QEMU answers to qom-get PATH PROPERTY, or NULL. */
static json_object *
qom_get(struct qmp_conn *conn, const char *path, const char *prop)
{
	json_object	*args = json_object_new_object(), *reply = NULL;
	char		*cause = NULL;

	json_object_object_add(args, "path", json_object_new_string(path));
	json_object_object_add(args, "property", json_object_new_string(prop));
	if (qmp_call(conn, "qom-get", args, &reply, SIDE_TIMEOUT, &cause) != 0) {
		log_debug("qemu side: %s", cause);
		free(cause);
		return NULL;
	}
	if (!json_object_is_type(reply, json_type_string)) {
		json_object_put(reply);
		return NULL;
	}
	return reply;
}

/* s without suffix into out (len bytes), "" when it does not end so. */
static void
strip_suffix(const char *s, const char *suffix, char *out, size_t len)
{
	size_t n = strlen(s), k = strlen(suffix);

	out[0] = '\0';
	if (n > k && n - k < len && strcmp(s + n - k, suffix) == 0)
		snprintf(out, len, "%.*s", (int)(n - k), s);
}

/* The machine type (pc-i440fx-7.2: QOM's type without "-machine"). */
static void
read_machine(struct qmp_conn *conn, struct qemu_side *q)
{
	json_object *t = qom_get(conn, "/machine", "type");

	if (t != NULL)
		strip_suffix(json_object_get_string(t), "-machine",
		    q->machine, sizeof q->machine);
	json_object_put(t);
}

/* The first vCPU's model (qemu64: QOM's type without "-TARGET-cpu"). */
static void
read_cpu_model(struct qmp_conn *conn, struct qemu_side *q)
{
	json_object	*cpus = NULL, *cpu, *t = NULL;
	const char	*path, *target;
	char		*cause = NULL, suffix[64];

	if (qmp_call(conn, "query-cpus-fast", NULL, &cpus, SIDE_TIMEOUT,
	    &cause) != 0) {
		log_debug("qemu side: %s", cause);
		free(cause);
		return;
	}
	cpu = json_object_is_type(cpus, json_type_array) ?
	    json_object_array_get_idx(cpus, 0) : NULL;
	path = json_str_at(cpu, "qom-path");
	target = json_str_at(cpu, "target");
	if (path != NULL && target != NULL &&
	    (t = qom_get(conn, path, "type")) != NULL) {
		snprintf(suffix, sizeof suffix, "-%s-cpu", target);
		strip_suffix(json_object_get_string(t), suffix, q->cpu_model,
		    sizeof q->cpu_model);
	}
	json_object_put(t);
	json_object_put(cpus);
}

/* The UUID (-uuid), "" when QEMU has none (all zeros). */
static void
read_uuid(struct qmp_conn *conn, struct qemu_side *q)
{
	json_object	*reply = NULL;
	const char	*u;
	char		*cause = NULL;

	if (qmp_call(conn, "query-uuid", NULL, &reply, SIDE_TIMEOUT,
	    &cause) != 0) {
		log_debug("qemu side: %s", cause);
		free(cause);
		return;
	}
	u = json_str_at(reply, "UUID");
	if (u != NULL && strlen(u) == 36 &&
	    strcmp(u, "00000000-0000-0000-0000-000000000000") != 0)
		memcpy(q->uuid, u, 37);
	json_object_put(reply);
}

/*
 * Fills *q from the QEMU behind conn.  Returns 0, or -1 with *cause when
 * QEMU does not answer query-migrate-capabilities (the one fact the
 * negotiation cannot do without).
 */
int
qemu_side_read(struct qmp_conn *conn, struct qemu_side *q, char **cause)
{
	json_object	*reply = NULL, *v;
	char		*why = NULL;

	memset(q, 0, sizeof *q);
	q->kvm = -1;
	qmp_qemu_version(conn, &q->major, &q->minor, &q->micro);
	if (qmp_call(conn, "query-migrate-capabilities", NULL, &reply,
	    SIDE_TIMEOUT, cause) != 0)
		return -1;
	q->caps = mig_caps_listed(reply);
	json_object_put(reply);
	reply = NULL;
	if (qmp_call(conn, "query-memory-size-summary", NULL, &reply,
	    SIDE_TIMEOUT, &why) == 0)
		q->ram_bytes = json_u64_at(reply, "base-memory");
	else {
		log_debug("qemu side: %s", why);
		free(why);
		why = NULL;
	}
	json_object_put(reply);
	reply = NULL;
	if (qmp_call(conn, "query-kvm", NULL, &reply, SIDE_TIMEOUT,
	    &why) == 0 && json_object_object_get_ex(reply, "enabled", &v))
		q->kvm = json_object_get_boolean(v);
	free(why);
	json_object_put(reply);
	read_machine(conn, q);
	read_cpu_model(conn, q);
	read_uuid(conn, q);
	return 0;
}
