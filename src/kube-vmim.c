/*
 * kube-vmim.c: --vmim FILE, the VirtualMachineInstanceMigration a
 * migration carries out (migrate, incoming, evict).  KubeVirt names a
 * migration by its VMIM: its metadata.uid becomes the migrationUid on
 * both sides (the VMI's status.migrationState.migrationUid), and its name
 * and namespace go into the status document, so that `qmigrate status
 * --format kubevirt-migration` answers for that object.
 *
 * The manifest is read as `kubectl get vmim NAME -o yaml` prints it (YAML
 * or JSON, one document); the fields of its spec are checked by name and
 * spec.vmiName must name the VMI of --vmi when both are given.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "policy.h"
#include "policy-parse.h"

/* KubeVirt's VirtualMachineInstanceMigrationSpec, by name. */
static const char *const vmim_spec_known[] = { "vmiName",
    "addedNodeSelector", "sendTo", "receive", "priority", NULL };

static const char *const vmim_top_known[] = { "apiVersion", "kind",
    "metadata", "spec", "status", NULL };

/* The option of the commands that carry out a migration. */
const struct args_option kube_vmim_options[] = {
	{ .name = "vmim", .type = ARGS_STRING, .value = "FILE",
	    .help =
	    "the VirtualMachineInstanceMigration this migration carries\n"
	    "out (YAML or JSON): its metadata.uid is the migrationUid on\n"
	    "both sides, its name and namespace are in the status" },
	{ .name = NULL }
};

/*
 * A Kubernetes uid as the API server makes them (a UUID); it names
 * sockets and files, so only letters, digits and '-' are taken.
 */
static int
uid_ok(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0 || n > 36)
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= 'A' && s[i] <= 'Z') || s[i] == '-'))
			return 0;
	return 1;
}

/*
 * A string field of m that must be there, borrowed from the document, or
 * NULL with the error.
 */
static const char *
need_string(struct policy_ctx *c, struct json_object *m,
    const char *base, const char *key, size_t maxlen, const char *why)
{
	const char	*out;
	char		*f;

	if (policy_get_member_string(c, base, m, key, 1, maxlen, &out) != 0)
		return NULL;
	if (out == NULL) {
		f = policy_field(base, key);
		policy_err(c, f, "missing: %s", why);
		free(f);
	}
	return out;
}

/*
 * The VMIM object o into vmim, whose strings are borrowed from o.
 * Returns 0, or -1 with the error in c ("vmim FILE: document N: FIELD:
 * ...").
 */
static int
vmim_object(struct policy_ctx *c, struct json_object *o,
    struct kube_vmim *vmim)
{
	static const char *const versions[] = { "kubevirt.io/v1",
	    "kubevirt.io/v1alpha3", NULL };
	struct json_object	*v = NULL, *m = NULL, *spec = NULL;
	const char *const	*p;
	const char		*s;

	if (!json_object_is_type(o, json_type_object)) {
		policy_err_got(c, NULL, "a VirtualMachineInstanceMigration", o);
		return -1;
	}
	if (!json_object_object_get_ex(o, "kind", &v)) {
		policy_err(c, "kind", "missing: expected "
		    "VirtualMachineInstanceMigration");
		return -1;
	}
	if (!json_object_is_type(v, json_type_string) ||
	    strcmp(json_object_get_string(v),
	    "VirtualMachineInstanceMigration") != 0) {
		policy_err_got(c, "kind",
		    "\"VirtualMachineInstanceMigration\"", v);
		return -1;
	}
	s = json_object_object_get_ex(o, "apiVersion", &v) &&
	    json_object_is_type(v, json_type_string) ?
	    json_object_get_string(v) : NULL;
	for (p = versions; s != NULL && *p != NULL; p++)
		if (strcmp(s, *p) == 0)
			break;
	if (s == NULL || *p == NULL) {
		if (v == NULL)
			policy_err(c, "apiVersion", "missing: expected "
			    "\"kubevirt.io/v1\"");
		else
			policy_err_got(c, "apiVersion",
			    "\"kubevirt.io/v1\"", v);
		return -1;
	}
	if (policy_check_known(c, NULL, o, vmim_top_known) != 0)
		return -1;
	if (policy_get_object(c, NULL, o, "metadata", kube_meta_known,
	    &m) < 0)
		return -1;
	if ((vmim->name = need_string(c, m, "metadata", "name", 253,
	    "a VirtualMachineInstanceMigration has a name")) == NULL)
		return -1;
	if (policy_get_member_string(c, "metadata", m, "namespace", 1, 63,
	    &vmim->namespace) != 0)
		return -1;
	if ((vmim->uid = need_string(c, m, "metadata", "uid", 36,
	    "the API server gives every object one: give the manifest as "
	    "kubectl get vmim NAME -o yaml prints it")) == NULL)
		return -1;
	if (!uid_ok(vmim->uid)) {
		policy_err(c, "metadata.uid", "expected a uid such as "
		    "\"0e2c4d3a-5b8f-4c21-9d7e-1f3a2b4c5d6e\", got \"%.64s\"",
		    vmim->uid);
		return -1;
	}
	if (!json_object_object_get_ex(o, "spec", &spec)) {
		policy_err(c, "spec", "missing: a "
		    "VirtualMachineInstanceMigration names its VMI in "
		    "spec.vmiName");
		return -1;
	}
	if (policy_check_object(c, "spec", spec, vmim_spec_known) != 0)
		return -1;
	if ((vmim->vmi_name = need_string(c, spec, "spec", "vmiName", 253,
	    "a VirtualMachineInstanceMigration names its VMI")) == NULL)
		return -1;
	return 0;
}

/*
 * --vmim FILE: reads a VMIM manifest (YAML or JSON, one document) into
 * vmim, which keeps the parsed document and borrows its strings from it
 * (free with kube_vmim_free()).  Returns 0, or -1 with *cause naming the
 * file, the document and the field.
 */
int
kube_vmim_load(const char *path, struct kube_vmim *vmim, char **cause)
{
	struct policy_ctx	 c = { "vmim", path, 1, NULL, 1, cause };
	struct json_object	*o;
	int			 yaml;

	memset(vmim, 0, sizeof *vmim);
	if ((o = kube_one_document("vmim", path, &yaml, cause)) == NULL)
		return -1;
	c.yaml = yaml;
	if (!yaml)
		c.doc = 0;
	if (vmim_object(&c, o, vmim) != 0) {
		json_object_put(o);
		memset(vmim, 0, sizeof *vmim);
		return -1;
	}
	vmim->doc = o;
	vmim->file = xstrdup(path);
	return 0;
}

/*
 * The VMIM must be about the VM of --vmi: spec.vmiName its name, and the
 * same namespace (a VMIM migrates a VMI of its own namespace).  Returns
 * 0, or -1 with *cause.
 */
int
kube_vmim_check_vmi(const struct kube_vmim *vmim, const struct vm_ident *vm,
    char **cause)
{
	if (vmim->file == NULL || vm->vmi_file == NULL)
		return 0;
	if (vm->name != NULL && strcmp(vmim->vmi_name, vm->name) != 0) {
		xasprintf(cause, "vmim %s: spec.vmiName: \"%s\" is not the "
		    "VMI of --vmi %s (\"%s\")", vmim->file, vmim->vmi_name,
		    vm->vmi_file, vm->name);
		return -1;
	}
	if (vmim->namespace != NULL && vm->namespace != NULL &&
	    strcmp(vmim->namespace, vm->namespace) != 0) {
		xasprintf(cause, "vmim %s: metadata.namespace: \"%s\" is not "
		    "the namespace of --vmi %s (\"%s\"): a migration moves a "
		    "VMI of its own namespace", vmim->file, vmim->namespace,
		    vm->vmi_file, vm->namespace);
		return -1;
	}
	return 0;
}

/*
 * Names the migration in st as the VMIM does: its uid (the migrationUid,
 * kept on the target when the source's offer agrees), name and
 * namespace.  Nothing without --vmim.
 */
void
kube_vmim_identify(const struct kube_vmim *vmim, struct status *st)
{
	if (vmim->file == NULL)
		return;
	status_set_vmim(st, vmim->uid, vmim->name, vmim->namespace);
}

void
kube_vmim_free(struct kube_vmim *vmim)
{
	free(vmim->file);
	json_object_put(vmim->doc);
	memset(vmim, 0, sizeof *vmim);
}
