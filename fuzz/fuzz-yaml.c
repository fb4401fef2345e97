/*
 * fuzz-yaml.c: the input is YAML as qmigrate reads KubeVirt's manifests:
 * first the buffer parser alone (yaml_read(), yaml-read.c), every
 * document serialised; then the same bytes as a policy file (policy.yaml:
 * MigrationPolicy, KubeVirt, Namespace and List objects, policy-kube.c),
 * a --vmi manifest and a --namespace-labels-file (kube-vmi.c), and a
 * --vmim manifest (kube-vmim.c), checked against that --vmi.  A set
 * that loads is used as a real run would: a policy chosen for a VM of
 * namespace "hpc".  Every error must name the file.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "fuzz-file.h"
#include "qmigrate.h"
#include "policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
named(char *cause, const char *path)
{
	if (cause == NULL || strstr(cause, path) == NULL)
		abort();	/* every error names the file */
	free(cause);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct yaml_docs	 docs;
	struct policy_set	*set;
	struct policy_choice	 choice;
	struct vm_ident		 vm;
	struct kube_vmim	 vmim;
	struct json_object	*o;
	const char		*path;
	char			*cause = NULL;
	size_t			 i;

	if (yaml_read((const char *)data, size, POLICY_MAX_FILES, &docs,
	    &cause) == 0) {
		for (i = 0; i < docs.n; i++)
			(void)strlen(json_object_to_json_string(docs.docs[i]));
		yaml_docs_free(&docs);
	} else {
		if (cause == NULL || strncmp(cause, "line ", 5) != 0)
			abort();	/* every error has its line */
		free(cause);
	}
	cause = NULL;

	memset(&vm, 0, sizeof vm);
	path = fuzz_file_write("vmi.yaml", data, size);
	if (vm_ident_option(&vm, "vmi", path, &cause) != 0)
		named(cause, path);
	cause = NULL;
	if (vm_ident_option(&vm, "namespace-labels-file", path, &cause) != 0)
		named(cause, path);
	cause = NULL;
	if (vm.namespace == NULL)
		vm.namespace = xstrdup("hpc");

	path = fuzz_file_write("vmim.yaml", data, size);
	if (kube_vmim_load(path, &vmim, &cause) != 0)
		named(cause, path);
	else {
		if (kube_vmim_check_vmi(&vmim, &vm, &cause) != 0)
			named(cause, path);
		kube_vmim_free(&vmim);
	}
	cause = NULL;

	path = fuzz_file_write("policy.yaml", data, size);
	if ((set = policy_load(path, &cause)) == NULL)
		named(cause, path);
	else {
		for (i = 0; i < set->npolicies; i++) {
			o = policy_to_json(&set->policies[i]);
			(void)strlen(json_object_to_json_string(o));
			json_object_put(o);
		}
		policy_choose(set, &vm, &choice, 1);
		o = mig_settings_to_json(&choice.migration);
		(void)strlen(json_object_to_json_string(o));
		json_object_put(o);
		policy_choice_free(&choice);
		policy_set_free(set);
	}
	vm_ident_free(&vm);
	return 0;
}
