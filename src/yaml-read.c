/*
 * yaml-read.c: a YAML stream (Kubernetes manifests: "---" between
 * documents) into one json-c value per document, through libyaml's event
 * parser, typed the way kubectl types it.
 *
 * kubectl (sigs.k8s.io/yaml, go-yaml v2) reads plain scalars by YAML 1.1:
 * true/yes/on are booleans, 150 an integer, 1e9 a float, ~ null.  The API
 * server then refuses a boolean where a string belongs (a label value
 * written `true` instead of `"true"`), and qmigrate's readers do the same,
 * so a file qmigrate accepts is one kubectl can apply.  Quoted and block
 * scalars are strings.
 *
 * Not supported, and refused with the line: aliases (*name: they could
 * expand a small file into a huge tree), complex keys, tags other than the
 * core schema's, and a key given twice in one mapping.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <yaml.h>

#include "qmigrate.h"
#include "policy.h"

#define TAG_PREFIX	"tag:yaml.org,2002:"

/* One open mapping or sequence; key is the pending key of a mapping. */
struct yframe {
	struct json_object	*obj;	/* borrowed: owned by its parent */
	char			*key;
};

struct yreader {
	struct yframe		 stack[YAML_MAX_DEPTH];
	size_t			 depth;
	struct json_object	*root;	/* the document being built */
	int			 have_root;
	char			**cause;
};

static int yerr(struct yreader *, const yaml_mark_t *, const char *, ...)
	    __attribute__((format(printf, 3, 4)));

/* Sets *cause to "line L, column C: message"; returns -1. */
static int
yerr(struct yreader *r, const yaml_mark_t *m, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	xasprintf(r->cause, "line %zu, column %zu: %s", m->line + 1,
	    m->column + 1, msg);
	free(msg);
	return -1;
}

static int
is_one_of(const char *s, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

/* Whether s (underscores removed) is an integer as go-yaml reads one. */
static int
plain_int(const char *s, struct json_object **out)
{
	const char	*p = s;
	int		 neg = 0, base = 10;
	uint64_t	 v = 0, d;

	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16, p += 2;
	else if (p[0] == '0' && (p[1] == 'o' || p[1] == 'O'))
		base = 8, p += 2;
	else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
		base = 2, p += 2;
	else if (p[0] == '0' && p[1] != '\0')
		base = 8, p += 1;	/* YAML 1.1: 0755 */
	if (*p == '\0')
		return 0;
	for (; *p != '\0'; p++) {
		if (*p >= '0' && *p <= '9')
			d = (uint64_t)(*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			d = (uint64_t)(*p - 'a' + 10);
		else if (*p >= 'A' && *p <= 'F')
			d = (uint64_t)(*p - 'A' + 10);
		else
			return 0;
		if (d >= (uint64_t)base)
			return 0;
		if (v > (UINT64_MAX - d) / (uint64_t)base)
			return 0;	/* too big: a float, as in go-yaml */
		v = v * (uint64_t)base + d;
	}
	if (!neg && v > INT64_MAX)
		*out = json_object_new_uint64(v);
	else if (neg && v > (uint64_t)INT64_MAX + 1)
		return 0;
	else
		*out = json_object_new_int64(neg ?
		    (int64_t)(0 - v) : (int64_t)v);
	return 1;
}

/* Whether s (underscores removed) is a YAML 1.1 float. */
static int
plain_float(const char *s)
{
	static const char *const special[] = {
		".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf",
		"-.Inf", "-.INF", ".nan", ".NaN", ".NAN", NULL
	};
	const char	*p = s;
	int		 digits = 0;

	if (is_one_of(s, special))
		return 1;
	if (*p == '+' || *p == '-')
		p++;
	for (; *p >= '0' && *p <= '9'; p++)
		digits++;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			digits++;
	if (digits == 0)
		return 0;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (*p < '0' || *p > '9')
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return *p == '\0';
}

/*
 * The value of a plain (unquoted, untagged) scalar: null, a boolean, an
 * integer, a float (kept with its text) or a string.  Returns a new
 * reference (NULL is JSON null).
 */
static struct json_object *
plain_value(const char *s, size_t len)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL",
	    NULL };
	static const char *const trues[] = { "y", "Y", "yes", "Yes", "YES",
	    "on", "On", "ON", "true", "True", "TRUE", NULL };
	static const char *const falses[] = { "n", "N", "no", "No", "NO",
	    "off", "Off", "OFF", "false", "False", "FALSE", NULL };
	struct json_object	*o = NULL;
	char			*num;
	size_t			 i, j;

	if (strlen(s) != len)
		return json_object_new_string_len(s, (int)len);
	if (is_one_of(s, nulls))
		return NULL;
	if (is_one_of(s, trues))
		return json_object_new_boolean(1);
	if (is_one_of(s, falses))
		return json_object_new_boolean(0);
	if (strchr("+-.0123456789", s[0]) == NULL)
		return json_object_new_string(s);
	num = xmalloc(len + 1);
	for (i = j = 0; i < len; i++)
		if (s[i] != '_')
			num[j++] = s[i];
	num[j] = '\0';
	if (!plain_int(num, &o) && plain_float(num))
		o = json_object_new_double_s(strtod(num, NULL), s);
	free(num);
	return o != NULL ? o : json_object_new_string(s);
}

/*
 * The value of a scalar event.  Returns 0 with *out set (a new reference,
 * NULL for null), or -1 with the reason.
 */
static int
scalar_value(struct yreader *r, const yaml_event_t *ev,
    struct json_object **out)
{
	const char	*s = (const char *)ev->data.scalar.value;
	const char	*tag = (const char *)ev->data.scalar.tag;
	size_t		 len = ev->data.scalar.length;
	int		 plain;
	enum json_type	 want;

	if (len > INT32_MAX)
		return yerr(r, &ev->start_mark, "scalar too long");
	plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	if (tag == NULL || strcmp(tag, "!") == 0) {
		*out = plain && tag == NULL ? plain_value(s, len) :
		    json_object_new_string_len(s, (int)len);
		return 0;
	}
	if (strcmp(tag, TAG_PREFIX "str") == 0) {
		*out = json_object_new_string_len(s, (int)len);
		return 0;
	}
	if (strcmp(tag, TAG_PREFIX "null") == 0)
		want = json_type_null;
	else if (strcmp(tag, TAG_PREFIX "bool") == 0)
		want = json_type_boolean;
	else if (strcmp(tag, TAG_PREFIX "int") == 0)
		want = json_type_int;
	else if (strcmp(tag, TAG_PREFIX "float") == 0)
		want = json_type_double;
	else
		return yerr(r, &ev->start_mark, "unsupported tag %.64s", tag);
	*out = plain_value(s, len);
	if (want == json_type_double && json_object_is_type(*out,
	    json_type_int)) {
		json_object_put(*out);
		*out = json_object_new_double_s(strtod(s, NULL), s);
	}
	if (json_object_get_type(*out) != want) {
		json_object_put(*out);
		*out = NULL;
		return yerr(r, &ev->start_mark, "\"%.64s\" is not a valid %s",
		    s, tag + strlen(TAG_PREFIX));
	}
	return 0;
}

/* Places v (a new reference) under the innermost open container. */
static int
yattach(struct yreader *r, const yaml_event_t *ev, struct json_object *v)
{
	struct yframe *f;

	if (r->depth == 0) {
		r->root = v;
		r->have_root = 1;
		return 0;
	}
	f = &r->stack[r->depth - 1];
	if (json_object_is_type(f->obj, json_type_array)) {
		json_object_array_add(f->obj, v);
		return 0;
	}
	json_object_object_add(f->obj, f->key, v);
	free(f->key);
	f->key = NULL;
	return 0;
}

/* A scalar where a mapping wants its next key. */
static int
ykey(struct yreader *r, const yaml_event_t *ev)
{
	struct yframe	*f = &r->stack[r->depth - 1];
	const char	*s = (const char *)ev->data.scalar.value;

	if (strlen(s) != ev->data.scalar.length)
		return yerr(r, &ev->start_mark, "NUL character in a key");
	if (json_object_object_get_ex(f->obj, s, NULL))
		return yerr(r, &ev->start_mark, "key \"%.64s\" given twice", s);
	f->key = xstrdup(s);
	return 0;
}

static int
wants_key(const struct yreader *r)
{
	const struct yframe *f;

	if (r->depth == 0)
		return 0;
	f = &r->stack[r->depth - 1];
	return json_object_is_type(f->obj, json_type_object) && f->key == NULL;
}

static int
ycontainer(struct yreader *r, const yaml_event_t *ev, int mapping)
{
	const char		*tag;
	struct json_object	*o;

	tag = (const char *)(mapping ? ev->data.mapping_start.tag :
	    ev->data.sequence_start.tag);
	if (tag != NULL && strcmp(tag, "!") != 0 &&
	    strcmp(tag, mapping ? TAG_PREFIX "map" : TAG_PREFIX "seq") != 0)
		return yerr(r, &ev->start_mark, "unsupported tag %.64s", tag);
	if (wants_key(r))
		return yerr(r, &ev->start_mark, "a mapping key must be a "
		    "scalar");
	if (r->depth == YAML_MAX_DEPTH)
		return yerr(r, &ev->start_mark, "nested more than %d levels "
		    "deep", YAML_MAX_DEPTH);
	o = mapping ? json_object_new_object() : json_object_new_array();
	yattach(r, ev, o);
	r->stack[r->depth].obj = o;
	r->stack[r->depth].key = NULL;
	r->depth++;
	return 0;
}

static int
yevent(struct yreader *r, const yaml_event_t *ev)
{
	struct json_object *v;

	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		return yerr(r, &ev->start_mark, "YAML aliases (*%.64s) are not "
		    "supported", (const char *)ev->data.alias.anchor);
	case YAML_SCALAR_EVENT:
		if (wants_key(r))
			return ykey(r, ev);
		if (scalar_value(r, ev, &v) != 0)
			return -1;
		return yattach(r, ev, v);
	case YAML_MAPPING_START_EVENT:
		return ycontainer(r, ev, 1);
	case YAML_SEQUENCE_START_EVENT:
		return ycontainer(r, ev, 0);
	case YAML_MAPPING_END_EVENT:
	case YAML_SEQUENCE_END_EVENT:
		r->depth--;
		return 0;
	default:
		return 0;
	}
}

void
yaml_docs_free(struct yaml_docs *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		json_object_put(d->docs[i]);
	free(d->docs);
	d->docs = NULL;
	d->n = 0;
}

/*
 * Parses buf (len bytes) as a YAML stream of at most max_docs documents.
 * Fills *out with one value per document, in order (NULL for an empty
 * document); free with yaml_docs_free().  Returns 0, or -1 with *cause
 * set to "line L, column C: what" (no file name: the caller adds it).
 */
int
yaml_read(const char *buf, size_t len, size_t max_docs, struct yaml_docs *out,
    char **cause)
{
	yaml_parser_t	 parser;
	yaml_event_t	 ev;
	struct yreader	 r;
	int		 done = 0, rc = 0;
	size_t		 i;

	memset(out, 0, sizeof *out);
	memset(&r, 0, sizeof r);
	r.cause = cause;
	if (!yaml_parser_initialize(&parser))
		fatalx("libyaml: out of memory");
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	while (!done && rc == 0) {
		if (!yaml_parser_parse(&parser, &ev)) {
			yaml_mark_t m = parser.problem_mark;

			if (parser.error == YAML_MEMORY_ERROR)
				fatalx("libyaml: out of memory");
			rc = yerr(&r, &m, "%s%s%s", parser.problem != NULL ?
			    parser.problem : "syntax error",
			    parser.context != NULL ? " " : "",
			    parser.context != NULL ? parser.context : "");
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (out->n == max_docs)
				rc = yerr(&r, &ev.start_mark, "more than %zu "
				    "documents", max_docs);
			r.root = NULL;
			r.have_root = 0;
			break;
		case YAML_DOCUMENT_END_EVENT:
			out->docs = xreallocarray(out->docs, out->n + 1,
			    sizeof *out->docs);
			out->docs[out->n++] = r.root;
			r.root = NULL;
			r.have_root = 0;
			break;
		default:
			rc = yevent(&r, &ev);
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	if (rc == 0)
		return 0;
	for (i = 0; i < r.depth; i++)
		free(r.stack[i].key);
	json_object_put(r.root);
	yaml_docs_free(out);
	return -1;
}
