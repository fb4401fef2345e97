/*
 * fuzz-status-file.c: a --status-file as a re-run `qmigrate migrate` or
 * `qmigrate abort` reads it after a crash: any bytes (NULs, nulls, wrong
 * types, garbage), parsed and restored into a status (status.c).  It must
 * refuse with a reason or take the migration over, never crash; and as
 * `qmigrate status --format kubevirt` converts it to a VMI status patch.
 */
#include <stdint.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "qmigrate.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct status	*st;
	json_object	*doc, *patch;
	enum mig_phase	 phase;
	enum mig_mode	 mode;
	char		*cause = NULL;

	log_init("fuzz", LOG_LEVEL_WARN, 0);
	doc = status_parse("fuzz", (const char *)data, size, &cause);
	if (doc == NULL) {
		free(cause);
		return 0;
	}
	patch = status_to_kubevirt(doc, NULL, "2026-01-01T00:00:00Z");
	(void)json_object_to_json_string(patch);
	json_object_put(patch);
	patch = status_to_kubevirt(doc, json_obj_at(doc, "conditions"),
	    "2026-01-01T00:00:00Z");
	(void)json_object_to_json_string(patch);
	json_object_put(patch);
	if ((patch = status_to_kubevirt_migration(doc, &cause)) == NULL)
		free(cause);
	cause = NULL;
	(void)json_object_to_json_string(patch);
	json_object_put(patch);
	st = status_create("source", NULL, 0);
	if (status_restore(st, doc, "fuzz", &phase, &mode, &cause) != 0)
		free(cause);
	else
		json_object_put(status_to_json(st));
	status_free(st);
	json_object_put(doc);
	return 0;
}
