/*
 * labels.c: a VM's or a namespace's labels (KEY=VALUE pairs): parsing
 * them from --label, a labels file or a JSON object, checking names and
 * values as Kubernetes' users write them, and rendering them as JSON.
 * The policy layer's bottom: policies, manifests and the VM's identity
 * are all built on these.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "policy.h"

/* The label of key in labels (n), or NULL. */
const struct label *
labels_find(const struct label *labels, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(labels[i].key, key) == 0)
			return &labels[i];
	return NULL;
}

/*
 * Checks a label key the way Kubernetes' users write them, loosely: 1-253
 * printable characters without spaces or "=" (which --label splits on).
 */
int
labels_key_ok(const char *k)
{
	size_t len = strlen(k), i;

	if (len == 0 || len > 253)
		return 0;
	for (i = 0; i < len; i++)
		if ((unsigned char)k[i] <= 0x20 || k[i] == 0x7f || k[i] == '=')
			return 0;
	return 1;
}

/* A label value: at most 253 characters, no control characters. */
int
labels_value_ok(const char *v)
{
	size_t len = strlen(v), i;

	if (len > 253)
		return 0;
	for (i = 0; i < len; i++)
		if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f)
			return 0;
	return 1;
}

/*
 * Splits "KEY=VALUE" at the first '=' into out (both malloc'd: free with
 * labels_free()).  Returns 0, or -1 with *cause naming the label.
 */
int
labels_parse(const char *kv, struct label *out, char **cause)
{
	const char	*eq = strchr(kv, '=');
	char		*key;

	if (eq == NULL) {
		xasprintf(cause, "label \"%.64s\": expected KEY=VALUE", kv);
		return -1;
	}
	key = xstrndup(kv, (size_t)(eq - kv));
	if (!labels_key_ok(key)) {
		xasprintf(cause, "label \"%.64s\": bad label name: expected 1 "
		    "to 253 characters without spaces or control characters",
		    kv);
		free(key);
		return -1;
	}
	if (!labels_value_ok(eq + 1)) {
		xasprintf(cause, "label %s: bad value: expected at most 253 "
		    "characters without control characters", key);
		free(key);
		return -1;
	}
	out->key = key;
	out->value = xstrdup(eq + 1);
	return 0;
}

/*
 * Appends a copy of key=value to *labels (*n entries), refusing a key given
 * twice and more than POLICY_MAX_LABELS labels.  Returns 0 or -1.
 */
int
labels_add(struct label **labels, size_t *n, const char *key,
    const char *value, char **cause)
{
	if (labels_find(*labels, *n, key) != NULL) {
		xasprintf(cause, "label %s: given twice", key);
		return -1;
	}
	if (*n >= POLICY_MAX_LABELS) {
		xasprintf(cause, "label %s: more than %d labels", key,
		    POLICY_MAX_LABELS);
		return -1;
	}
	*labels = xreallocarray(*labels, *n + 1, sizeof **labels);
	(*labels)[*n].key = xstrdup(key);
	(*labels)[*n].value = xstrdup(value);
	(*n)++;
	return 0;
}

/* Adds labels (n) to *to, refusing one given twice.  Returns 0 or -1. */
int
labels_merge(struct label **to, size_t *nto, const struct label *labels,
    size_t n, char **cause)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (labels_add(to, nto, labels[i].key, labels[i].value,
		    cause) != 0)
			return -1;
	return 0;
}

void
labels_free(struct label *labels, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(labels[i].key);
		free(labels[i].value);
	}
	free(labels);
}

/* The labels as a JSON object.  Returns a new reference. */
struct json_object *
labels_to_json(const struct label *labels, size_t n)
{
	struct json_object	*o = json_object_new_object();
	size_t			 i;

	for (i = 0; i < n; i++)
		json_object_object_add(o, labels[i].key,
		    json_object_new_string(labels[i].value));
	return o;
}

/*
 * An object of label names to strings (at most POLICY_MAX_LABELS) into
 * *out and *n (free with labels_free()).  Errors read "WHAT PATH: ...".
 * Returns 0 or -1.
 */
int
labels_from_json(const char *what, const char *path, struct json_object *o,
    struct label **out, size_t *n, char **cause)
{
	struct label	*labels = NULL;
	size_t		 nlabels = 0;
	const char	*got;

	*out = NULL;
	*n = 0;
	if (!json_object_is_type(o, json_type_object)) {
		xasprintf(cause, "%s %s: expected an object of label names to "
		    "string values", what, path);
		return -1;
	}
	json_object_object_foreach(o, key, val) {
		if (nlabels >= POLICY_MAX_LABELS) {
			xasprintf(cause, "%s %s: more than %d labels", what,
			    path, POLICY_MAX_LABELS);
			goto fail;
		}
		if (!labels_key_ok(key)) {
			xasprintf(cause, "%s %s: \"%.64s\": bad label name: "
			    "expected 1 to 253 characters without spaces, '=' "
			    "or control characters", what, path, key);
			goto fail;
		}
		if (!json_object_is_type(val, json_type_string)) {
			got = json_object_to_json_string_ext(val,
			    JSON_C_TO_STRING_PLAIN);
			xasprintf(cause, "%s %s: %s: expected a string, got "
			    "%.64s", what, path, key, got);
			goto fail;
		}
		if (strlen(json_object_get_string(val)) !=
		    (size_t)json_object_get_string_len(val) ||
		    !labels_value_ok(json_object_get_string(val))) {
			xasprintf(cause, "%s %s: %s: bad value: expected at "
			    "most 253 characters without control characters",
			    what, path, key);
			goto fail;
		}
		labels = xreallocarray(labels, nlabels + 1, sizeof *labels);
		labels[nlabels].key = xstrdup(key);
		labels[nlabels].value = xstrdup(json_object_get_string(val));
		nlabels++;
	}
	*out = labels;
	*n = nlabels;
	return 0;
fail:
	labels_free(labels, nlabels);
	return -1;
}

/*
 * Reads a labels file: an object of strings, {"app": "db"}, in JSON
 * (comments allowed) or YAML, at most 1 MiB and POLICY_MAX_LABELS labels.
 * Sets *out and *n (free with labels_free()).  Returns 0 or -1 with
 * *cause naming the file and the label.
 */
int
labels_load_file(const char *path, struct label **out, size_t *n,
    char **cause)
{
	struct yaml_docs	docs;
	int			rc;

	*out = NULL;
	*n = 0;
	if (policy_read_docs("labels", path, &docs, cause) == -1)
		return -1;
	if (docs.n != 1 || docs.docs[0] == NULL) {
		xasprintf(cause, "labels %s: expected one object of label "
		    "names to string values", path);
		rc = -1;
	} else
		rc = labels_from_json("labels", path, docs.docs[0], out, n,
		    cause);
	yaml_docs_free(&docs);
	return rc;
}
