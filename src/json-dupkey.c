/*
 * json-dupkey.c: finds a key given twice in one object of a JSON text.
 * json-c keeps the last of two equal keys without a word, so a policy
 * that says "allowPostCopy" twice would silently mean its second value;
 * YAML documents are refused for the same mistake (yaml-read.c), and a
 * JSON one must be too.  The text has already been parsed by json-c (so it
 * is well formed, comments allowed); this pass only lexes it: strings,
 * comments, brackets, commas.  Each object's keys are collected with their
 * offsets and sorted when it closes, so a huge object costs n log n.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "policy.h"

struct dk_key {
	char	*name;		/* decoded */
	size_t	 off;		/* where its opening quote is */
};

struct dk_frame {
	int		 object;	/* else an array */
	int		 want_key;	/* the next string is a key */
	struct dk_key	*keys;
	size_t		 n, cap;
};

static int
dk_cmp(const void *a, const void *b)
{
	const struct dk_key *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c != 0)
		return c;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* The string token at buf[i] ('"'), decoded by json-c; its end in *end. */
static char *
dk_string(const char *buf, size_t len, size_t i, size_t *end)
{
	struct json_tokener	*tok;
	struct json_object	*o;
	char			*s;
	size_t			 j = i + 1;

	while (j < len && buf[j] != '"')
		j += buf[j] == '\\' ? 2 : 1;
	*end = j + 1 < len ? j + 1 : len;
	tok = json_tokener_new();
	o = json_tokener_parse_ex(tok, buf + i, (int)(*end - i));
	json_tokener_free(tok);
	s = xstrdup(o != NULL ? json_object_get_string(o) : "");
	json_object_put(o);
	return s;
}

/* Frees a frame's keys; returns 0, or 1 with the second of a pair in *dup. */
static int
dk_close(struct dk_frame *f, struct dk_key *dup)
{
	size_t	 i;
	int	 found = 0;

	if (f->n > 1) {
		qsort(f->keys, f->n, sizeof *f->keys, dk_cmp);
		for (i = 1; i < f->n && !found; i++)
			if (strcmp(f->keys[i - 1].name, f->keys[i].name) == 0) {
				dup->off = f->keys[i].off;
				dup->name = xstrdup(f->keys[i].name);
				found = 1;
			}
	}
	for (i = 0; i < f->n; i++)
		free(f->keys[i].name);
	free(f->keys);
	memset(f, 0, sizeof *f);
	return found;
}

/*
 * Looks for a key given twice in one object of buf (len bytes and a NUL,
 * already parsed as JSON, nesting at most YAML_MAX_DEPTH).  Returns 0 when there is
 * none; 1 with the later occurrence's offset in *off and its name in *key
 * (the caller frees it).
 */
int
json_duplicate_key(const char *buf, size_t len, size_t *off, char **key)
{
	struct dk_frame	 stack[YAML_MAX_DEPTH + 1];
	struct dk_key	 dup = { NULL, 0 };
	size_t		 i = 0, end;
	int		 depth = -1, found = 0;

	memset(stack, 0, sizeof stack);
	while (i < len && !found) {
		struct dk_frame *f = depth >= 0 ? &stack[depth] : NULL;

		switch (buf[i]) {
		case '"':
			if (f != NULL && f->object && f->want_key) {
				if (f->n == f->cap) {
					f->cap = f->cap ? f->cap * 2 : 8;
					f->keys = xreallocarray(f->keys, f->cap,
					    sizeof *f->keys);
				}
				f->keys[f->n].off = i;
				f->keys[f->n++].name = dk_string(buf, len, i,
				    &end);
				f->want_key = 0;
				i = end;
				continue;
			}
			free(dk_string(buf, len, i, &end));
			i = end;
			continue;
		case '/':
			if (i + 1 < len && buf[i + 1] == '/')
				i += strcspn(buf + i, "\n");
			else if (i + 1 < len && buf[i + 1] == '*') {
				const char *e = strstr(buf + i + 2, "*/");

				i = e != NULL ? (size_t)(e - buf) + 2 : len;
			} else
				i++;
			continue;
		case '{':
		case '[':
			if (depth + 1 > YAML_MAX_DEPTH)
				break;
			depth++;
			stack[depth].object = buf[i] == '{';
			stack[depth].want_key = buf[i] == '{';
			break;
		case '}':
		case ']':
			if (f != NULL) {
				found = dk_close(f, &dup);
				depth--;
			}
			break;
		case ',':
			if (f != NULL && f->object)
				f->want_key = 1;
			break;
		}
		i++;
	}
	while (depth >= 0) {
		struct dk_key ignored = { NULL, 0 };

		if (dk_close(&stack[depth--], &ignored))
			free(ignored.name);
	}
	if (!found)
		return 0;
	*off = dup.off;
	*key = dup.name;
	return 1;
}
