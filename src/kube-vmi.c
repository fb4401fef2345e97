/*
 * kube-vmi.c: a VM as KubeVirt describes it, for the commands that select
 * a policy: --vmi FILE (a VirtualMachineInstance or VirtualMachine
 * manifest: its labels, namespace, spec.evictionStrategy and
 * spec.terminationGracePeriodSeconds) and --namespace-labels-file FILE (a
 * Namespace manifest, or a plain object of labels).
 *
 * Of a VirtualMachine, what matters is the VMI it starts: the labels of
 * spec.template.metadata (not the VirtualMachine's own, which KubeVirt
 * does not copy to the VMI) and spec.template.spec.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "policy.h"
#include "policy-parse.h"

static const char *const kube_versions[] = { "kubevirt.io/v1",
    "kubevirt.io/v1alpha3", NULL };

/* The fields of KubeVirt's VirtualMachineInstanceSpec, by name. */
static const char *const vmi_spec_known[] = { "priorityClassName", "domain",
    "nodeSelector", "affinity", "schedulerName", "serviceAccountName",
    "tolerations", "topologySpreadConstraints", "evictionStrategy",
    "startStrategy", "terminationGracePeriodSeconds", "volumes",
    "livenessProbe", "readinessProbe", "hostname", "subdomain", "networks",
    "dnsPolicy", "dnsConfig", "accessCredentials", "architecture",
    "resourceClaims", "utilityVolumes", NULL };

static const char *const top_known[] = { "apiVersion", "kind", "metadata",
    "spec", "status", NULL };

/* ObjectMeta's fields, by name. */
const char *const kube_meta_known[] = { "name", "generateName",
    "namespace", "selfLink", "uid", "resourceVersion", "generation",
    "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds",
    "labels", "annotations", "ownerReferences", "finalizers",
    "managedFields", NULL };

/*
 * Reads the one document of path (empty documents aside); *yaml says
 * whether it was YAML.  Returns a new reference, or NULL with *cause.
 */
struct json_object *
kube_one_document(const char *what, const char *path, int *yaml, char **cause)
{
	struct yaml_docs	 docs;
	struct json_object	*o = NULL;
	size_t			 i, n = 0;

	if ((*yaml = policy_read_docs(what, path, &docs, cause)) == -1)
		return NULL;
	for (i = 0; i < docs.n; i++) {
		if (docs.docs[i] == NULL)
			continue;
		if (n++ == 0)
			o = json_object_get(docs.docs[i]);
	}
	yaml_docs_free(&docs);
	if (n != 1) {
		xasprintf(cause, "%s %s: expected one document, found %zu",
		    what, path, n);
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* 0 when o's apiVersion is one of kube_versions, else -1 with c's error. */
static int
check_api(struct policy_ctx *c, struct json_object *o)
{
	struct json_object	*v = NULL;
	const char		*s = "";
	const char *const	*p;

	if (json_object_object_get_ex(o, "apiVersion", &v) &&
	    json_object_is_type(v, json_type_string))
		s = json_object_get_string(v);
	for (p = kube_versions; *p != NULL; p++)
		if (strcmp(s, *p) == 0)
			return 0;
	if (v == NULL)
		policy_err(c, "apiVersion",
		    "missing: expected \"kubevirt.io/v1\"");
	else
		policy_err_got(c, "apiVersion", "\"kubevirt.io/v1\"", v);
	return -1;
}

/*
 * Names the VM's namespace (from says where the name comes from: "--vmi
 * FILE", "--namespace", a Namespace manifest); every source must agree.
 * Returns 0, or -1 with *cause.
 */
int
kube_namespace_set(struct vm_ident *vm, const char *name, const char *from,
    char **cause)
{
	if (vm->namespace != NULL) {
		if (strcmp(vm->namespace, name) == 0)
			return 0;
		xasprintf(cause, "%s: namespace \"%s\", but %s says \"%s\"",
		    from, name, vm->namespace_from, vm->namespace);
		return -1;
	}
	vm->namespace = xstrdup(name);
	vm->namespace_from = xstrdup(from);
	return 0;
}

/*
 * metadata (at base, "metadata" or "spec.template.metadata"): its name
 * and namespace into vm when names, its labels when labels.
 */
static int
vmi_meta(struct policy_ctx *c, const char *base, struct json_object *m,
    struct vm_ident *vm, int names, int labels)
{
	struct json_object	*v;
	struct label		*l = NULL;
	const char		*s = NULL;
	char			*f, *clash = NULL;
	size_t			 n = 0, i;
	int			 rc = -1;

	if (policy_check_object(c, base, m, kube_meta_known) != 0)
		return -1;
	if (names) {
		if (policy_get_member_string(c, base, m, "name", 1, 253,
		    &s) != 0)
			return -1;
		if (s != NULL)
			vm->name = xstrdup(s);
		if (policy_get_member_string(c, base, m, "namespace", 1, 63,
		    &s) != 0)
			return -1;
	}
	if (s != NULL) {
		xasprintf(&f, "--vmi %s", c->file);
		if (kube_namespace_set(vm, s, f, &clash) != 0) {
			policy_err(c, "metadata.namespace", "%s", clash);
			free(clash);
			free(f);
			return -1;
		}
		free(f);
	}
	f = policy_field(base, "labels");
	if (json_object_object_get_ex(m, "labels", &v) &&
	    policy_get_labels(c, f, v, &l, &n) != 0)
		goto out;
	for (i = 0; labels && i < n; i++) {
		char *why = NULL;

		if (labels_add(&vm->labels, &vm->nlabels, l[i].key, l[i].value,
		    &why) != 0) {
			policy_err(c, f, "%s", why);
			free(why);
			goto out;
		}
	}
	rc = 0;
out:
	free(f);
	labels_free(l, n);
	return rc;
}

/* A VirtualMachineInstanceSpec at base: the fields qmigrate reads. */
static int
vmi_spec(struct policy_ctx *c, const char *base, struct json_object *spec,
    struct vm_ident *vm)
{
	struct json_object	*v;
	char			*f;
	int			 choice, rc = 0;

	if (policy_check_object(c, base, spec, vmi_spec_known) != 0)
		return -1;
	if (json_object_object_get_ex(spec, "evictionStrategy", &v)) {
		f = policy_field(base, "evictionStrategy");
		rc = policy_get_choice(c, f, v, policy_strategies,
		    NITEMS(policy_strategies), POLICY_STRATEGIES_EXPECTED,
		    &choice);
		free(f);
		if (rc != 0)
			return -1;
		vm->eviction = (enum eviction_strategy)choice;
		vm->eviction_set = 1;
	}
	if (json_object_object_get_ex(spec, "terminationGracePeriodSeconds",
	    &v)) {
		f = policy_field(base, "terminationGracePeriodSeconds");
		rc = policy_get_uint(c, f, v, 0, POLICY_MAX_TIMEOUT,
		    &vm->grace_seconds);
		free(f);
		if (rc != 0)
			return -1;
		vm->grace_set = 1;
	}
	return 0;
}

/* A VirtualMachine: the VMI of its spec.template. */
static int
vm_object(struct policy_ctx *c, struct json_object *o, struct vm_ident *vm)
{
	static const char *const spec_known[] = { "running", "runStrategy",
	    "instancetype", "preference", "template", "dataVolumeTemplates",
	    "updateVolumesStrategy", NULL };
	static const char *const tmpl_known[] = { "metadata", "spec", NULL };
	struct json_object	*spec, *tmpl, *v;
	int			 rc;

	if ((rc = policy_get_object(c, NULL, o, "spec", spec_known,
	    &spec)) <= 0 || (rc = policy_get_object(c, "spec", spec,
	    "template", tmpl_known, &tmpl)) <= 0)
		return rc;
	if (json_object_object_get_ex(tmpl, "metadata", &v) &&
	    vmi_meta(c, "spec.template.metadata", v, vm, 0, 1) != 0)
		return -1;
	if (json_object_object_get_ex(tmpl, "spec", &v) &&
	    vmi_spec(c, "spec.template.spec", v, vm) != 0)
		return -1;
	return 0;
}

/*
 * --vmi FILE: reads a VirtualMachineInstance or VirtualMachine manifest
 * (YAML or JSON, one document) into vm: name, namespace, labels (added to
 * those already given; a label given twice is refused), evictionStrategy
 * and terminationGracePeriodSeconds.  Returns 0, or -1 with *cause ("vmi
 * FILE: document N: FIELD: ...").
 */
int
kube_vmi_load(const char *path, struct vm_ident *vm, char **cause)
{
	struct policy_ctx	 c = {
		.what = "vmi", .file = path, .doc = 1, .cause = cause
	};
	struct json_object	*o, *v = NULL;
	const char		*kind;
	int			 rc = -1, yaml, is_vmi;

	if (vm->vmi_file != NULL) {
		xasprintf(cause, "--vmi: given twice (%s, %s)", vm->vmi_file,
		    path);
		return -1;
	}
	if ((o = kube_one_document("vmi", path, &yaml, cause)) == NULL)
		return -1;
	c.yaml = yaml;
	if (!yaml)
		c.doc = 0;
	if (!json_object_is_type(o, json_type_object)) {
		policy_err_got(&c, NULL, "a VirtualMachineInstance or a "
		    "VirtualMachine", o);
		goto out;
	}
	kind = json_object_object_get_ex(o, "kind", &v) &&
	    json_object_is_type(v, json_type_string) ?
	    json_object_get_string(v) : NULL;
	if (kind == NULL || (strcmp(kind, "VirtualMachineInstance") != 0 &&
	    strcmp(kind, "VirtualMachine") != 0)) {
		if (v == NULL)
			policy_err(&c, "kind", "missing: expected "
			    "VirtualMachineInstance or VirtualMachine");
		else
			policy_err_got(&c, "kind",
			    "\"VirtualMachineInstance\" or "
			    "\"VirtualMachine\"", v);
		goto out;
	}
	if (check_api(&c, o) != 0 || policy_check_known(&c, NULL, o,
	    top_known) != 0)
		goto out;
	is_vmi = strcmp(kind, "VirtualMachineInstance") == 0;
	vm->vmi_file = xstrdup(path);
	if (json_object_object_get_ex(o, "metadata", &v) &&
	    vmi_meta(&c, "metadata", v, vm, 1, is_vmi) != 0)
		goto out;
	if (!is_vmi)
		rc = vm_object(&c, o, vm);
	else if (json_object_object_get_ex(o, "spec", &v))
		rc = vmi_spec(&c, "spec", v, vm);
	else
		rc = 0;
out:
	json_object_put(o);
	return rc;
}

/*
 * --namespace-labels-file FILE: a kind: Namespace manifest (its
 * metadata.labels) or an object of labels, in YAML or JSON.  Sets *out
 * and *n (free with labels_free()), and *name to the manifest's
 * metadata.name (malloc'd; NULL for a plain object or no name).  Returns
 * 0 or -1 with *cause.
 */
int
kube_namespace_labels_load(const char *path, struct label **out, size_t *n,
    char **name, char **cause)
{
	static const char *const ns_known[] = { "apiVersion", "kind",
	    "metadata", "spec", "status", NULL };
	struct policy_ctx	 c = {
		.what = "namespace", .file = path, .doc = 1, .cause = cause
	};
	struct json_object	*o, *v = NULL, *m;
	const char		*s;
	int			 rc = -1, yaml;

	*out = NULL;
	*n = 0;
	*name = NULL;
	if ((o = kube_one_document("namespace labels", path, &yaml,
	    cause)) == NULL)
		return -1;
	c.yaml = yaml;
	if (!yaml)
		c.doc = 0;
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "kind", &v)) {
		rc = labels_from_json("namespace labels", path, o, out, n,
		    cause);
		goto out;
	}
	if (!json_object_is_type(v, json_type_string) ||
	    strcmp(json_object_get_string(v), "Namespace") != 0) {
		policy_err_got(&c, "kind", "\"Namespace\"", v);
		goto out;
	}
	if (!json_object_object_get_ex(o, "apiVersion", &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    strcmp(json_object_get_string(v), "v1") != 0) {
		policy_err(&c, "apiVersion", "expected \"v1\" for a Namespace");
		goto out;
	}
	if (policy_check_known(&c, NULL, o, ns_known) != 0)
		goto out;
	if (!json_object_object_get_ex(o, "metadata", &m)) {
		rc = 0;
		goto out;
	}
	if (policy_check_object(&c, "metadata", m, kube_meta_known) != 0)
		goto out;
	if (json_object_object_get_ex(m, "name", &v)) {
		if ((s = policy_get_string(&c, "metadata.name", v, 1, 63)) ==
		    NULL)
			goto out;
		*name = xstrdup(s);
	}
	rc = json_object_object_get_ex(m, "labels", &v) ?
	    policy_get_labels(&c, "metadata.labels", v, out, n) : 0;
	if (rc != 0) {
		free(*name);
		*name = NULL;
	}
out:
	json_object_put(o);
	return rc;
}

/*
 * The status.conditions of a VirtualMachineInstance manifest (kubectl get
 * vmi NAME -o yaml), for `qmigrate status --vmi`: the manifest is checked
 * as --vmi's, and each condition must be an object with a string type.
 * *out gets a new reference to the list (an empty one when the VMI has
 * none).  Returns 0, or -1 with *cause naming the file and the field.
 */
int
kube_vmi_conditions(const char *path, struct json_object **out,
    char **cause)
{
	struct policy_ctx	 c = { "vmi", path, 1, NULL, 0, cause };
	struct vm_ident		 vm;
	struct json_object	*o, *status, *conds = NULL, *v;
	const char		*kind;
	char			*f;
	size_t			 i;
	int			 yaml;

	*out = NULL;
	memset(&vm, 0, sizeof vm);
	if (kube_vmi_load(path, &vm, cause) != 0)
		return -1;
	vm_ident_free(&vm);
	if ((o = kube_one_document("vmi", path, &yaml, cause)) == NULL)
		return -1;
	c.yaml = yaml;
	if (!yaml)
		c.doc = 0;
	kind = json_str_at(o, "kind");
	if (kind == NULL || strcmp(kind, "VirtualMachineInstance") != 0) {
		policy_err(&c, "kind", "expected \"VirtualMachineInstance\": "
		    "only a VMI has the conditions to merge into, got \"%s\"",
		    kind != NULL ? kind : "");
		goto fail;
	}
	if (json_object_object_get_ex(o, "status", &status) &&
	    (policy_check_object(&c, "status", status, NULL) != 0 ||
	    (json_object_object_get_ex(status, "conditions", &conds) &&
	    !json_object_is_type(conds, json_type_array)))) {
		if (conds != NULL)
			policy_err_got(&c, "status.conditions", "a list",
			    conds);
		goto fail;
	}
	for (i = 0; conds != NULL && i < json_object_array_length(conds);
	    i++) {
		v = json_object_array_get_idx(conds, i);
		xasprintf(&f, "status.conditions[%zu]", i);
		if (policy_check_object(&c, f, v, NULL) != 0 ||
		    json_str_at(v, "type") == NULL) {
			if (json_object_is_type(v, json_type_object))
				policy_err(&c, f, "expected a condition with a "
				    "string type");
			free(f);
			goto fail;
		}
		free(f);
	}
	*out = conds != NULL ? json_object_get(conds) :
	    json_object_new_array();
	json_object_put(o);
	return 0;
fail:
	json_object_put(o);
	return -1;
}

/*
 * Frees what a vm_ident owns (kube_vmi_load() and vm-ident.c fill it)
 * and zeroes it.
 */
void
vm_ident_free(struct vm_ident *vm)
{
	labels_free(vm->labels, vm->nlabels);
	labels_free(vm->ns_labels, vm->nns_labels);
	free(vm->ns_source);
	free(vm->vmi_file);
	free(vm->name);
	free(vm->namespace);
	free(vm->namespace_from);
	memset(vm, 0, sizeof *vm);
}
