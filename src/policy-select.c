/*
 * policy-select.c: which policy applies to a VM, by its labels, with
 * KubeVirt's MigrationPolicy precedence, and the VM's labels themselves
 * (--label KEY=VALUE, --labels-file).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"

#define MAX_VALUE_LEN	253

/* Appends one line to *text (malloc'd, NULL at first). */
static void appendf(char **, const char *, ...)
	    __attribute__((format(printf, 2, 3)));

static void
appendf(char **text, const char *fmt, ...)
{
	va_list	 ap;
	char	*line, *joined;

	va_start(ap, fmt);
	xvasprintf(&line, fmt, ap);
	va_end(ap);
	if (*text == NULL) {
		*text = line;
		return;
	}
	xasprintf(&joined, "%s\n%s", *text, line);
	free(*text);
	free(line);
	*text = joined;
}

static const struct label *
label_find(const struct label *labels, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(labels[i].key, key) == 0)
			return &labels[i];
	return NULL;
}

/*
 * Whether every selector label of p is among labels.  On a mismatch,
 * *reason (if not NULL) says which label failed; malloc'd.
 */
static int
policy_matches(const struct policy *p, const struct label *labels,
    size_t nlabels, char **reason)
{
	const struct label	*l;
	size_t			 i;

	for (i = 0; i < p->nselector; i++) {
		l = label_find(labels, nlabels, p->selector[i].key);
		if (l == NULL) {
			if (reason != NULL)
				xasprintf(reason, "label %s is not set, the "
				    "policy wants \"%s\"", p->selector[i].key,
				    p->selector[i].value);
			return 0;
		}
		if (strcmp(l->value, p->selector[i].value) != 0) {
			if (reason != NULL)
				xasprintf(reason, "label %s is \"%s\", the "
				    "policy wants \"%s\"", l->key, l->value,
				    p->selector[i].value);
			return 0;
		}
	}
	return 1;
}

static char *
selector_text(const struct policy *p)
{
	char	*text = NULL, *joined;
	size_t	 i;

	if (p->nselector == 0)
		return xstrdup("empty selector, matches every VM");
	for (i = 0; i < p->nselector; i++) {
		xasprintf(&joined, "%s%s%s=%s", text == NULL ? "" : text,
		    text == NULL ? "" : ", ", p->selector[i].key,
		    p->selector[i].value);
		free(text);
		text = joined;
	}
	return text;
}

/*
 * Picks the policy for a VM with these labels (KubeVirt's precedence):
 * a policy applies when every one of its selector labels is among the VM's
 * labels; the one with the most selector labels wins; ties go to the
 * lexicographically smallest name (strcmp).  Returns NULL when none applies
 * (or set is NULL): the caller uses policy_defaults(), POLICY_DEFAULT_EVICTION
 * and POLICY_DEFAULT_GRACE_SECONDS.  If why is not NULL, *why receives a
 * malloc'd explanation, one line for the outcome and one per other policy.
 */
const struct policy *
policy_select(const struct policy_set *set, const struct label *labels,
    size_t nlabels, char **why)
{
	const struct policy	*best = NULL, *p;
	size_t			 i;
	char			*reason, *sel;

	for (i = 0; set != NULL && i < set->npolicies; i++) {
		p = &set->policies[i];
		if (!policy_matches(p, labels, nlabels, NULL))
			continue;
		if (best == NULL || p->nselector > best->nselector ||
		    (p->nselector == best->nselector &&
		    strcmp(p->name, best->name) < 0))
			best = p;
	}
	if (why == NULL)
		return best;

	*why = NULL;
	if (set == NULL || set->npolicies == 0) {
		appendf(why, "no policies loaded: the defaults apply");
		return NULL;
	}
	if (best == NULL)
		appendf(why, "no policy matches: the defaults apply");
	else {
		sel = selector_text(best);
		appendf(why, "policy \"%s\" (%s) applies: %zu label%s "
		    "matched (%s)", best->name, best->file, best->nselector,
		    best->nselector == 1 ? "" : "s", sel);
		free(sel);
	}
	for (i = 0; i < set->npolicies; i++) {
		p = &set->policies[i];
		if (p == best)
			continue;
		if (!policy_matches(p, labels, nlabels, &reason)) {
			appendf(why, "  policy \"%s\" (%s) does not match: %s",
			    p->name, p->file, reason);
			free(reason);
		} else if (p->nselector < best->nselector)
			appendf(why, "  policy \"%s\" (%s) matches %zu "
			    "label%s, fewer than \"%s\"", p->name, p->file,
			    p->nselector, p->nselector == 1 ? "" : "s",
			    best->name);
		else
			appendf(why, "  policy \"%s\" (%s) also matches %zu "
			    "label%s, but \"%s\" sorts first", p->name,
			    p->file, p->nselector,
			    p->nselector == 1 ? "" : "s", best->name);
	}
	return best;
}

static int
value_ok(const char *v)
{
	size_t len = strlen(v), i;

	if (len > MAX_VALUE_LEN)
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
	if (!policy_label_key_ok(key)) {
		xasprintf(cause, "label \"%.64s\": bad label name: expected 1 "
		    "to 253 characters without spaces or control characters",
		    kv);
		free(key);
		return -1;
	}
	if (!value_ok(eq + 1)) {
		xasprintf(cause, "label %s: bad value: expected at most %d "
		    "characters without control characters", key,
		    MAX_VALUE_LEN);
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
	if (label_find(*labels, *n, key) != NULL) {
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

/*
 * Reads a labels file: a JSON object of strings, {"app": "db"} (comments
 * allowed, at most 1 MiB and POLICY_MAX_LABELS labels).  Sets *out and *n
 * (free with labels_free()); does not read them.  Returns 0 or -1 with
 * *cause naming the file and the label.
 */
int
labels_load_file(const char *path, struct label **out, size_t *n,
    char **cause)
{
	struct json_object	*o;
	struct label		*labels = NULL;
	size_t			 nlabels = 0;
	const char		*what;

	*out = NULL;
	*n = 0;
	if ((o = policy_read_json("labels", path, cause)) == NULL)
		return -1;
	if (!json_object_is_type(o, json_type_object)) {
		xasprintf(cause, "labels %s: expected a JSON object of label "
		    "names to string values", path);
		goto fail;
	}
	json_object_object_foreach(o, key, val) {
		if (nlabels >= POLICY_MAX_LABELS) {
			xasprintf(cause, "labels %s: more than %d labels",
			    path, POLICY_MAX_LABELS);
			goto fail;
		}
		if (!policy_label_key_ok(key)) {
			xasprintf(cause, "labels %s: \"%.64s\": bad label name: "
			    "expected 1 to 253 characters without spaces, '=' "
			    "or control characters", path, key);
			goto fail;
		}
		if (!json_object_is_type(val, json_type_string)) {
			what = json_object_to_json_string_ext(val,
			    JSON_C_TO_STRING_PLAIN);
			xasprintf(cause, "labels %s: %s: expected a string, "
			    "got %.64s", path, key, what);
			goto fail;
		}
		if (strlen(json_object_get_string(val)) !=
		    (size_t)json_object_get_string_len(val) ||
		    !value_ok(json_object_get_string(val))) {
			xasprintf(cause, "labels %s: %s: bad value: expected at "
			    "most %d characters without control characters",
			    path, key, MAX_VALUE_LEN);
			goto fail;
		}
		labels = xreallocarray(labels, nlabels + 1, sizeof *labels);
		labels[nlabels].key = xstrdup(key);
		labels[nlabels].value = xstrdup(json_object_get_string(val));
		nlabels++;
	}
	json_object_put(o);
	*out = labels;
	*n = nlabels;
	return 0;
fail:
	json_object_put(o);
	labels_free(labels, nlabels);
	return -1;
}

/*
 * The --label KEY=VALUE option of migrate, check and evict: appends it to
 * *labels.  Returns 0, or -1 with *cause naming the label.
 */
int
labels_option(const char *kv, struct label **labels, size_t *n, char **cause)
{
	struct label	l;
	int		rc;

	if (labels_parse(kv, &l, cause) != 0)
		return -1;
	rc = labels_add(labels, n, l.key, l.value, cause);
	free(l.key);
	free(l.value);
	return rc;
}

/*
 * The --labels-file FILE option: loads *labels from FILE, which must come
 * before any --label (it would replace them).  Returns 0, or -1 with
 * *cause.
 */
int
labels_file_option(const char *path, struct label **labels, size_t *n,
    char **cause)
{
	if (*labels != NULL) {
		*cause = xstrdup("--labels-file: give it before any --label");
		return -1;
	}
	return labels_load_file(path, labels, n, cause);
}
