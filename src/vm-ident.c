/*
 * vm-ident.c: the VM's identity from the command line, for the commands
 * that select a policy: --label, --labels-file, --namespace-label,
 * --namespace-labels-file and --vmi (a manifest, read by kube-vmi.c).
 * The top of the policy layer: it uses labels and KubeVirt's objects;
 * nothing below it knows the command line.
 */
#include <stdlib.h>
#include <string.h>

#include "qmigrate.h"
#include "policy.h"

/* Whether source is one of list's entries ("A and B and C"). */
static int
ns_source_listed(const char *list, const char *source)
{
	size_t		 n = strlen(source);
	const char	*p = list;

	for (;;) {
		if (strncmp(p, source, n) == 0 &&
		    (p[n] == '\0' || strncmp(p + n, " and ", 5) == 0))
			return 1;
		if ((p = strstr(p, " and ")) == NULL)
			return 0;
		p += 5;
	}
}

static void
ns_source_add(struct vm_ident *vm, const char *source)
{
	char *joined;

	if (vm->ns_source == NULL) {
		vm->ns_source = xstrdup(source);
		return;
	}
	/* A whole entry, not a part of one ("a.json" is not in "ba.json"). */
	if (ns_source_listed(vm->ns_source, source))
		return;
	xasprintf(&joined, "%s and %s", vm->ns_source, source);
	free(vm->ns_source);
	vm->ns_source = joined;
}

/*
 * One of the options that say what a VM is (option without its dashes):
 * label KEY=VALUE, labels-file FILE, namespace-label KEY=VALUE,
 * namespace-labels-file FILE, namespace NAME, vmi FILE.  A label given
 * twice (in any of them) is refused, and so are two namespace names.
 * Returns 0, or -1 with *cause.
 */
int
vm_ident_option(struct vm_ident *vm, const char *option, const char *arg,
    char **cause)
{
	struct label	 l, *labels = NULL;
	size_t		 n = 0;
	char		*name = NULL, *from;
	int		 ns = strncmp(option, "namespace-", 10) == 0, rc;

	if (strcmp(option, "vmi") == 0)
		return kube_vmi_load(arg, vm, cause);
	if (strcmp(option, "namespace") == 0) {
		if (!labels_value_ok(arg) || *arg == '\0' || strlen(arg) > 63) {
			xasprintf(cause, "--namespace \"%.64s\": expected a "
			    "namespace's name (1 to 63 characters)", arg);
			return -1;
		}
		return kube_namespace_set(vm, arg, "--namespace", cause);
	}
	if (strcmp(option, "label") == 0 ||
	    strcmp(option, "namespace-label") == 0) {
		if (labels_parse(arg, &l, cause) != 0)
			return -1;
		labels = &l;
		n = 1;
		rc = 0;
	} else if (strcmp(option, "labels-file") == 0)
		rc = labels_load_file(arg, &labels, &n, cause);
	else if (strcmp(option, "namespace-labels-file") == 0) {
		rc = kube_namespace_labels_load(arg, &labels, &n, &name,
		    cause);
		if (rc == 0 && name != NULL) {
			xasprintf(&from, "Namespace %s (%s)", name, arg);
			rc = kube_namespace_set(vm, name, from, cause);
			free(from);
		}
		free(name);
	} else
		fatalx("vm_ident_option: unknown option %s", option);
	if (rc == 0 && ns) {
		rc = labels_merge(&vm->ns_labels, &vm->nns_labels, labels, n,
		    cause);
		ns_source_add(vm, strcmp(option, "namespace-label") == 0 ?
		    "--namespace-label" : arg);
	} else if (rc == 0)
		rc = labels_merge(&vm->labels, &vm->nlabels, labels, n, cause);
	if (labels == &l) {
		free(l.key);
		free(l.value);
	} else
		labels_free(labels, n);
	return rc;
}

/* The options that say what a VM is: every command that selects a policy. */
const struct args_option vm_ident_options[] = {
	{ .name = "label", .type = ARGS_STRING, .value = "K=V",
	    .flags = ARGS_REPEAT,
	    .help = "a label of the VM (its VMI's metadata.labels)" },
	{ .name = "labels-file", .type = ARGS_STRING, .value = "F",
	    .flags = ARGS_REPEAT,
	    .help = "the VM's labels: an object of strings, JSON or YAML" },
	{ .name = "namespace-label", .type = ARGS_STRING, .value = "K=V",
	    .flags = ARGS_REPEAT,
	    .help = "a label of the VM's namespace (for namespaceSelector)" },
	{ .name = "namespace-labels-file", .type = ARGS_STRING, .value = "F",
	    .flags = ARGS_REPEAT,
	    .help = "its namespace's labels: an object, or a kind: Namespace\n"
	    "manifest (its name is the VM's namespace)" },
	{ .name = "namespace", .type = ARGS_STRING, .value = "NAME",
	    .help = "the VM's namespace (as --vmi's metadata.namespace): its\n"
	    "label kubernetes.io/metadata.name, which the API server puts\n"
	    "on every Namespace, is implied" },
	{ .name = "vmi", .type = ARGS_STRING, .value = "FILE",
	    .help = "a VirtualMachineInstance or VirtualMachine manifest: its\n"
	    "labels, namespace and spec.evictionStrategy (without\n"
	    "namespace labels, its namespace's are those of the Namespace\n"
	    "manifest of that name among the policies)" },
	{ .name = NULL }
};

/*
 * Fills vm from the options of vm_ident_options' names given in args, in
 * command-line order.  Returns 0, or -1 with *cause.
 */
int
vm_ident_from_args(struct vm_ident *vm, const struct args *args,
    char **cause)
{
	const struct args_option	*o;
	const char			*name, *value;
	size_t				 i;

	memset(vm, 0, sizeof *vm);
	for (i = 0; (name = args_option_at(args, i, &value)) != NULL; i++) {
		for (o = vm_ident_options; o->name != NULL; o++)
			if (strcmp(name, o->name) == 0)
				break;
		if (o->name == NULL)
			continue;
		if (vm_ident_option(vm, o->name, value, cause) != 0) {
			vm_ident_free(vm);
			return -1;
		}
	}
	return 0;
}
