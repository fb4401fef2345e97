/*
 * policy-parse.c: typed readers of policy and manifest fields (see
 * policy-parse.h).  An operator's typo must never turn into a silently
 * different migration: a wrong type or range is refused, naming the file,
 * the document and the field.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "policy.h"
#include "policy-parse.h"

const struct policy_keyword policy_strategies[4] = {
	{ "None", EVICT_NONE },
	{ "LiveMigrate", EVICT_LIVE_MIGRATE },
	{ "LiveMigrateIfPossible", EVICT_LIVE_MIGRATE_IF_POSSIBLE },
	{ "External", EVICT_EXTERNAL },
};

const struct policy_keyword policy_convergences[2] = {
	{ "adaptive", CTL_ADAPTIVE },
	{ "kubevirt", CTL_KUBEVIRT },
};

const struct policy_keyword policy_block_migrations[3] = {
	{ "never", BLOCK_MIGRATION_NEVER },
	{ "auto", BLOCK_MIGRATION_AUTO },
	{ "always", BLOCK_MIGRATION_ALWAYS },
};

/* The name of value among the n keywords k, or "unknown". */
const char *
policy_keyword_name(const struct policy_keyword *k, size_t n, int value)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (k[i].value == value)
			return k[i].name;
	return "unknown";
}

/* "prefix.key", or key alone when prefix is NULL.  Malloc'd. */
char *
policy_field(const char *prefix, const char *key)
{
	char *f;

	if (prefix == NULL || *prefix == '\0')
		return xstrdup(key);
	xasprintf(&f, "%s.%s", prefix, key);
	return f;
}

/*
 * Sets *cause to "WHAT FILE: [document N: ][BASE.]FIELD: message"; FIELD
 * may be NULL.
 */
void
policy_err(struct policy_ctx *c, const char *field, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg, *doc = NULL, *f = NULL;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	if (c->doc != 0)
		xasprintf(&doc, "document %zu: ", c->doc);
	if (field != NULL)
		f = policy_field(c->base, field);
	else if (c->base != NULL)
		f = xstrdup(c->base);
	xasprintf(c->cause, "%s %s: %s%s%s%s", c->what, c->file,
	    doc != NULL ? doc : "", f != NULL ? f : "", f != NULL ? ": " : "",
	    msg);
	free(doc);
	free(f);
	free(msg);
}

/*
 * Describes a JSON value for an error message: scalars as JSON text (json-c
 * escapes control characters in strings), long ones cut, containers by kind.
 * Returns a malloc'd string.
 */
static char *
policy_json_got(struct json_object *v)
{
	const char	*s;
	char		*out;

	switch (json_object_get_type(v)) {
	case json_type_null:
		return xstrdup("null");
	case json_type_object:
		return xstrdup("an object");
	case json_type_array:
		return xstrdup("an array");
	default:
		break;
	}
	s = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN |
	    JSON_C_TO_STRING_NOSLASHESCAPE);
	if (strlen(s) > 64)
		xasprintf(&out, "%.60s...", s);
	else
		out = xstrdup(s);
	return out;
}

/*
 * policy_err() for a value of the wrong kind: "expected EXPECTED, got V"
 * with V described (policy_json_got()), and a hint to quote it when YAML
 * made a boolean or a number of what should be a string.
 */
void
policy_err_got(struct policy_ctx *c, const char *field, const char *expected,
    struct json_object *v)
{
	char		*got = policy_json_got(v);
	const char	*hint = "";

	/* kubectl reads an unquoted true, yes or 150 as a boolean or number. */
	if (c->yaml && strncmp(expected, "a string", 8) == 0 &&
	    (json_object_is_type(v, json_type_boolean) ||
	    json_object_is_type(v, json_type_int) ||
	    json_object_is_type(v, json_type_double)))
		hint = " (quote it: YAML reads it as a boolean or a number)";
	policy_err(c, field, "expected %s, got %s%s", expected, got, hint);
	free(got);
}

/* Checks an unsigned integer field against [min, max]. */
int
policy_get_uint(struct policy_ctx *c, const char *field, struct json_object *v,
    uint64_t min, uint64_t max, uint64_t *out)
{
	int64_t	 n;
	char	*expected;

	xasprintf(&expected, "an integer from %llu to %llu",
	    (unsigned long long)min, (unsigned long long)max);
	if (!json_object_is_type(v, json_type_int)) {
		policy_err_got(c, field, expected, v);
		free(expected);
		return -1;
	}
	/* json-c clamps larger numbers to INT64_MAX: still out of range. */
	n = json_object_get_int64(v);
	if (n < 0 || (uint64_t)n < min || (uint64_t)n > max) {
		char *got = policy_json_got(v);

		policy_err(c, field, "out of range: expected %s, got %s",
		    expected, got);
		free(got);
		free(expected);
		return -1;
	}
	free(expected);
	*out = (uint64_t)n;
	return 0;
}

/* *out = v (1 or 0): 0, or -1 with the error recorded in c. */
int
policy_get_bool(struct policy_ctx *c, const char *field, struct json_object *v,
    int *out)
{
	if (!json_object_is_type(v, json_type_boolean)) {
		policy_err_got(c, field, "true or false", v);
		return -1;
	}
	*out = json_object_get_boolean(v) ? 1 : 0;
	return 0;
}

/*
 * Sets *out to the value of the choice (n of them) whose name is the string
 * in v; otherwise reports field, expecting the names as "expected" says.
 */
int
policy_get_choice(struct policy_ctx *c, const char *field,
    struct json_object *v, const struct policy_keyword *choices, size_t n,
    const char *expected, int *out)
{
	const char	*str;
	size_t		 i;

	str = json_object_is_type(v, json_type_string) ?
	    json_object_get_string(v) : "";
	for (i = 0; i < n; i++) {
		if (strcmp(str, choices[i].name) == 0) {
			*out = choices[i].value;
			return 0;
		}
	}
	policy_err_got(c, field, expected, v);
	return -1;
}

/*
 * Reads the fields of o that the table gives (n of them, in the table's
 * order) into record, each through its reader at its offset, and sets
 * its bit in *set.  A key the table does not name is left alone (the
 * caller refuses unknown ones).  Returns 0, or -1 at the first field
 * refused.
 */
int
policy_read_fields(struct policy_ctx *c, const char *base,
    struct json_object *o, const struct policy_field *fields, size_t n,
    void *record, unsigned *set)
{
	struct json_object	*v;
	char			*f;
	size_t			 i;
	int			 err;

	for (i = 0; i < n; i++) {
		if (!json_object_object_get_ex(o, fields[i].key, &v))
			continue;
		f = policy_field(base, fields[i].key);
		err = policy_read_field(c, f, v, &fields[i], record, set);
		free(f);
		if (err != 0)
			return -1;
	}
	return 0;
}

/*
 * One field, its value v (at field), into record through its reader: its
 * bit goes in *set.  Returns 0 or -1.
 */
int
policy_read_field(struct policy_ctx *c, const char *field,
    struct json_object *v, const struct policy_field *pf, void *record,
    unsigned *set)
{
	if (pf->read(c, field, v, pf, (char *)record + pf->off) != 0)
		return -1;
	*set |= pf->bit;
	return 0;
}

/* A uint64_t in [min, max]. */
int
policy_read_uint(struct policy_ctx *c, const char *field,
    struct json_object *v, const struct policy_field *pf, void *out)
{
	return policy_get_uint(c, field, v, pf->min, pf->max, out);
}

/* An int in [min, max] (max at most INT_MAX). */
int
policy_read_int(struct policy_ctx *c, const char *field,
    struct json_object *v, const struct policy_field *pf, void *out)
{
	uint64_t u;

	if (policy_get_uint(c, field, v, pf->min, pf->max, &u) != 0)
		return -1;
	*(int *)out = (int)u;
	return 0;
}

/* A boolean, as an int 0 or 1. */
int
policy_read_bool(struct policy_ctx *c, const char *field,
    struct json_object *v, const struct policy_field *pf, void *out)
{
	(void)pf;
	return policy_get_bool(c, field, v, out);
}

/* One of pf->names, as its value (an int or an enum of int's size). */
int
policy_read_choice(struct policy_ctx *c, const char *field,
    struct json_object *v, const struct policy_field *pf, void *out)
{
	return policy_get_choice(c, field, v, pf->names, pf->nnames,
	    pf->expected, out);
}

/*
 * A factor of the stall detector (a Kubernetes quantity: 0.4, "0.4",
 * "400m") into *out, as KubeVirt's admission checks it: not negative, at
 * most 3 decimal places, at least min_milli thousandths (more than, when
 * exclusive), at most max_milli.  Returns 0 or -1.
 */
int
policy_get_factor(struct policy_ctx *c, const char *field,
    struct json_object *v, uint64_t min_milli, int exclusive,
    uint64_t max_milli, double *out)
{
	const uint64_t	 limit = 1000000000000000ULL;	/* 10^12 */
	uint64_t	 milli = 0;
	double		 d;
	char		*expected, *got;
	int		 rc = -1;

	if (json_object_is_type(v, json_type_double)) {
		d = json_object_get_double(v) * 1000;
		if (d < 0)
			rc = -2;
		else if (d > (double)limit)
			rc = -1;
		else if (fabs(d - round(d)) > 1e-6)
			rc = -3;
		else {
			milli = (uint64_t)llround(d);
			rc = 0;
		}
	} else if (json_object_is_type(v, json_type_int) ||
	    json_object_is_type(v, json_type_string))
		rc = quantity_parse_milli(json_object_get_string(v), limit,
		    &milli);
	if (rc == 0 && (milli < min_milli || (exclusive &&
	    milli == min_milli) || milli > max_milli))
		rc = -4;
	if (rc == 0) {
		*out = (double)milli / 1000;
		return 0;
	}
	if (max_milli >= limit)
		xasprintf(&expected, "a quantity of at least %g such as "
		    "\"%g\"", (double)min_milli / 1000,
		    (double)min_milli / 1000 + 0.5);
	else
		xasprintf(&expected, "a quantity %s %g and at most %g such as "
		    "\"%g\"", exclusive ? "greater than" : "from",
		    (double)min_milli / 1000, (double)max_milli / 1000,
		    (double)(min_milli + max_milli) / 2000);
	got = policy_json_got(v);
	policy_err(c, field, "expected %s, got %s%s", expected, got, rc == -2 ?
	    ": must not be negative" : rc == -3 ? ": must have at most 3 "
	    "decimal places" : "");
	free(got);
	free(expected);
	return -1;
}

/*
 * The string member key of o (at base), borrowed from o, into *out: NULL
 * when o or the member is absent.  Returns 0, or -1 with the error (as
 * policy_get_string() refuses it).
 */
int
policy_get_member_string(struct policy_ctx *c, const char *base,
    struct json_object *o, const char *key, size_t minlen, size_t maxlen,
    const char **out)
{
	struct json_object	*v;
	char			*f;

	*out = NULL;
	if (o == NULL || !json_object_object_get_ex(o, key, &v))
		return 0;
	f = policy_field(base, key);
	*out = policy_get_string(c, f, v, minlen, maxlen);
	free(f);
	return *out != NULL ? 0 : -1;
}

/*
 * Returns the string in v, refusing other types, embedded NULs, control
 * characters and lengths outside [minlen, maxlen].
 */
const char *
policy_get_string(struct policy_ctx *c, const char *field,
    struct json_object *v, size_t minlen, size_t maxlen)
{
	const char	*s;
	size_t		 len, i;
	char		*expected;

	if (!json_object_is_type(v, json_type_string)) {
		xasprintf(&expected, "a string");
		goto bad;
	}
	s = json_object_get_string(v);
	len = (size_t)json_object_get_string_len(v);
	if (strlen(s) != len) {
		xasprintf(&expected, "a string without NUL characters");
		goto bad;
	}
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
			xasprintf(&expected,
			    "a string without control characters");
			goto bad;
		}
	if (len < minlen || len > maxlen) {
		xasprintf(&expected, "a string of %zu to %zu characters",
		    minlen, maxlen);
		goto bad;
	}
	return s;
bad:
	policy_err_got(c, field, expected, v);
	free(expected);
	return NULL;
}

/*
 * A Kubernetes quantity (quantity.c) of at most max: an integer, or a
 * string or float such as "64Mi", "500M", "1.5Gi" or 1e9.
 */
int
policy_get_quantity(struct policy_ctx *c, const char *field,
    struct json_object *v, uint64_t max, uint64_t *out)
{
	const char	*s;
	char		*expected;

	if (json_object_is_type(v, json_type_int) && max <= INT64_MAX)
		return policy_get_uint(c, field, v, 0, max, out);
	if (json_object_is_type(v, json_type_string) ||
	    json_object_is_type(v, json_type_double)) {
		s = json_object_get_string(v);
		if (quantity_parse(s, max, out) == 0)
			return 0;
	}
	xasprintf(&expected, "a quantity from 0 to %llu such as \"64Mi\", "
	    "\"500M\", \"1.5Gi\" or 1e9", (unsigned long long)max);
	policy_err_got(c, field, expected, v);
	free(expected);
	return -1;
}

/*
 * Refuses v (at field) unless it is an object whose keys are all in known
 * (NULL-terminated; NULL: any keys).
 */
int
policy_check_object(struct policy_ctx *c, const char *field,
    struct json_object *v, const char *const *known)
{
	if (!json_object_is_type(v, json_type_object)) {
		policy_err_got(c, field, "an object", v);
		return -1;
	}
	return known != NULL ? policy_check_known(c, field, v, known) : 0;
}

/*
 * The member key of o (at base) into *out when o has it: it must be an
 * object whose keys are all in known (as policy_check_object() says).
 * Returns 1, 0 when o or the member is absent (*out NULL), or -1.
 */
int
policy_get_object(struct policy_ctx *c, const char *base,
    struct json_object *o, const char *key, const char *const *known,
    struct json_object **out)
{
	char	*f;
	int	 rc;

	*out = NULL;
	if (o == NULL || !json_object_object_get_ex(o, key, out))
		return 0;
	f = policy_field(base, key);
	rc = policy_check_object(c, f, *out, known) != 0 ? -1 : 1;
	free(f);
	return rc;
}

/* Refuses any key of o not in known (NULL-terminated). */
int
policy_check_known(struct policy_ctx *c, const char *prefix,
    struct json_object *o, const char *const *known)
{
	const char *const *k;

	json_object_object_foreach(o, key, val) {
		(void)val;
		for (k = known; *k != NULL; k++)
			if (strcmp(key, *k) == 0)
				break;
		if (*k == NULL) {
			char *field = policy_field(prefix, key);

			policy_err(c, field, "unknown field");
			free(field);
			return -1;
		}
	}
	return 0;
}

/*
 * Reads an object of label names to string values (a selector, a
 * manifest's metadata.labels): at most POLICY_MAX_LABELS.  Sets *out and
 * *n (free with labels_free()).  Returns 0 or -1.
 */
int
policy_get_labels(struct policy_ctx *c, const char *field,
    struct json_object *v, struct label **out, size_t *n)
{
	struct label	*labels;
	const char	*str;
	char		*f;
	size_t		 count = 0;

	*out = NULL;
	*n = 0;
	if (json_object_is_type(v, json_type_null))
		return 0;	/* "labels:" with nothing after it */
	if (!json_object_is_type(v, json_type_object)) {
		policy_err_got(c, field,
		    "an object of label names to string values", v);
		return -1;
	}
	if ((size_t)json_object_object_length(v) > POLICY_MAX_LABELS) {
		policy_err(c, field,
		    "out of range: expected at most %d labels, got "
		    "%d", POLICY_MAX_LABELS, json_object_object_length(v));
		return -1;
	}
	labels = xcalloc(POLICY_MAX_LABELS, sizeof *labels);
	json_object_object_foreach(v, key, val) {
		f = policy_field(field, key);
		if (!labels_key_ok(key)) {
			policy_err(c, f, "bad label name: expected 1 to %d "
			    "characters without spaces, '=' or control "
			    "characters", POLICY_MAX_LABEL_LEN);
			free(f);
			labels_free(labels, count);
			return -1;
		}
		str = policy_get_string(c, f, val, 0, POLICY_MAX_LABEL_LEN);
		free(f);
		if (str == NULL) {
			labels_free(labels, count);
			return -1;
		}
		labels[count].key = xstrdup(key);
		labels[count].value = xstrdup(str);
		count++;
	}
	*out = labels;
	*n = count;
	return 0;
}

/* Frees a NULL-terminated vector of strings (NULL: nothing). */
void
policy_strv_free(char **v)
{
	char **p;

	if (v == NULL)
		return;
	for (p = v; *p != NULL; p++)
		free(*p);
	free(v);
}

/*
 * An array of at most max strings at base (expected: what else it says
 * v should be; what: its elements, in "at most N what"), each checked by
 * one, which returns the copy to keep or NULL having reported the error
 * at its field.  When all are good, the NULL-terminated copies replace
 * *list (freed).  Returns 0 or -1.
 */
static int
get_string_list(struct policy_ctx *c, const char *base,
    struct json_object *v, size_t max, const char *expected,
    const char *what, char *(*one)(struct policy_ctx *, const char *field,
    struct json_object *, const char *), char ***list)
{
	struct json_object	*e;
	const char		*str;
	char			*field, **out;
	size_t			 n, i;

	if (!json_object_is_type(v, json_type_array)) {
		policy_err_got(c, base, expected, v);
		return -1;
	}
	n = json_object_array_length(v);
	if (n > max) {
		policy_err(c, base, "out of range: expected at most %zu %s, "
		    "got %zu", max, what, n);
		return -1;
	}
	out = xcalloc(n + 1, sizeof *out);
	for (i = 0; i < n; i++) {
		e = json_object_array_get_idx(v, i);
		xasprintf(&field, "%s[%zu]", base, i);
		str = policy_get_string(c, field, e, 1, PATH_MAX - 1);
		out[i] = str != NULL ? one(c, field, e, str) : NULL;
		free(field);
		if (out[i] == NULL) {
			policy_strv_free(out);
			return -1;
		}
	}
	policy_strv_free(*list);
	*list = out;
	return 0;
}

/*
 * A shared storage path: absolute, without "." or ".." components
 * (matching is by path prefix, which those would fool); a trailing slash
 * is dropped.
 */
static char *
shared_path(struct policy_ctx *c, const char *field, struct json_object *e,
    const char *str)
{
	char	*path, *comp, *save;

	if (str[0] != '/') {
		policy_err_got(c, field, "an absolute path", e);
		return NULL;
	}
	path = xstrdup(str);
	for (comp = strtok_r(path, "/", &save); comp != NULL;
	    comp = strtok_r(NULL, "/", &save))
		if (strcmp(comp, ".") == 0 || strcmp(comp, "..") == 0)
			break;
	free(path);
	if (comp != NULL) {
		policy_err_got(c, field,
		    "an absolute path without . or .. components", e);
		return NULL;
	}
	path = xstrdup(str);
	while (strlen(path) > 1 && path[strlen(path) - 1] == '/')
		path[strlen(path) - 1] = '\0';
	return path;
}

/* A disk: a node name or drive id (a QMP identifier) or an absolute path. */
static char *
disk_name(struct policy_ctx *c, const char *field, struct json_object *e,
    const char *str)
{
	size_t j;

	for (j = 0; str[0] != '/' && str[j] != '\0'; j++)
		if (!((str[j] >= 'a' && str[j] <= 'z') ||
		    (str[j] >= 'A' && str[j] <= 'Z') ||
		    (j > 0 && ((str[j] >= '0' && str[j] <= '9') ||
		    str[j] == '-' || str[j] == '_' || str[j] == '.'))))
			break;
	if (str[0] != '/' && (str[j] != '\0' || j > 31)) {
		policy_err_got(c, field, "a node name (a letter, then up to "
		    "30 letters, digits, -, _ or .) or an absolute path", e);
		return NULL;
	}
	return xstrdup(str);
}

/* sharedStoragePaths into the char ** at out. */
int
policy_read_shared_paths(struct policy_ctx *c, const char *field,
    struct json_object *v, const struct policy_field *pf, void *out)
{
	(void)pf;
	return get_string_list(c, field, v, POLICY_MAX_SHARED_PATHS,
	    "an array of absolute paths", "paths", shared_path, out);
}

/* disks, the disks blockMigration copies, into the char ** at out. */
int
policy_read_disks(struct policy_ctx *c, const char *field,
    struct json_object *v, const struct policy_field *pf, void *out)
{
	(void)pf;
	return get_string_list(c, field, v, POLICY_MAX_DISKS,
	    "an array of node names or absolute paths", "disks", disk_name,
	    out);
}
