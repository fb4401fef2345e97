/*
 * fuzz-policy.c: the input is a policy file (policy-load.c, through
 * policy_load() as `qmigrate policy` and migrate read it) and, read again,
 * a labels file (labels_load_file()).  A policy that loads is serialised
 * and offered to policy_select() as a real run would.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "fuzz-file.h"
#include "qmigrate.h"
#include "policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct policy_set	*set;
	struct json_object	*o;
	struct label		 vml[] = {
		{ (char *)"app", (char *)"db" },
		{ (char *)"tier", (char *)"gold" },
	};
	struct vm_ident		 vm = { .labels = vml, .nlabels = 2,
	    .namespace = (char *)"prod" };
	struct policy_choice	 choice;
	struct label		*labels = NULL;
	size_t			 i, nlabels = 0;
	const char		*path;
	char			*cause = NULL, *why = NULL;

	path = fuzz_file_write("policy.json", data, size);
	if ((set = policy_load(path, &cause)) == NULL) {
		if (cause == NULL || strstr(cause, path) == NULL)
			abort();	/* every error names the file */
		free(cause);
		cause = NULL;
	} else {
		for (i = 0; i < set->npolicies; i++) {
			o = policy_to_json(&set->policies[i]);
			(void)strlen(json_object_to_json_string(o));
			json_object_put(o);
		}
		(void)policy_select(set, &vm, &why);
		free(why);
		policy_choose(set, &vm, &choice, 1);
		policy_choice_free(&choice);
		policy_set_free(set);
	}

	if (labels_load_file(path, &labels, &nlabels, &cause) == 0)
		labels_free(labels, nlabels);
	else
		free(cause);
	return 0;
}
