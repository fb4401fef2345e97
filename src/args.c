/*
 * args.c: a command's options, declared once in its cmd_entry (an
 * args_spec: names, value kinds, ranges, help lines) and parsed by one
 * function, as tmux's cmd_entry.args and args_parse() do.  --help and the
 * usage line come from the same table, so they cannot drift from what the
 * parser accepts.
 *
 * Options are long (--name VALUE, --name=VALUE, or an unambiguous prefix
 * of the name, as getopt_long takes them); the first argument that is not
 * an option, or "--", ends them and the rest are the command's arguments.
 * A value is checked when parsed (seconds, integer ranges), so a command
 * sees only values it can use; an option not declared repeatable may be
 * given once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qmigrate.h"

#define HELP_COLUMN	24	/* where an option's help starts */
#define HELP_WIDTH	79	/* and where its lines end */

/* One option given, in command-line order; value points into argv. */
struct args_value {
	const struct args_option *opt;
	const char		 *value;	/* NULL for a flag */
	double			  number;	/* seconds or count */
};

/* What args_parse() makes of a command line: private to this file. */
struct args {
	struct args_value	*values;
	size_t			 n;
	int			 argc;		/* the arguments after the */
	char			**argv;		/* options */
};

/* Walks spec's options, groups included, calling fn until it returns 1. */
static const struct args_option *
args_walk(const struct args_option *opts,
    int (*fn)(const struct args_option *, void *), void *arg)
{
	const struct args_option *o, *found;

	for (o = opts; o != NULL && (o->name != NULL || o->include != NULL);
	    o++) {
		if (o->include != NULL) {
			if ((found = args_walk(o->include, fn, arg)) != NULL)
				return found;
			continue;
		}
		if (fn(o, arg))
			return o;
	}
	return NULL;
}

struct args_match {
	const char			*name;
	size_t				 len;
	const struct args_option	*exact;
	const struct args_option	*prefix;
	int				 nprefix;
};

static int
match_fn(const struct args_option *o, void *arg)
{
	struct args_match *m = arg;

	if (strncmp(o->name, m->name, m->len) != 0)
		return 0;
	if (o->name[m->len] == '\0') {
		m->exact = o;
		return 1;
	}
	m->prefix = o;
	m->nprefix++;
	return 0;
}

static void
args_add(struct args *a, const struct args_option *o, const char *value,
    double number)
{
	a->values = xreallocarray(a->values, a->n + 1, sizeof *a->values);
	a->values[a->n].opt = o;
	a->values[a->n].value = value;
	a->values[a->n].number = number;
	a->n++;
}

/* Checks value for o; *number is its numeric value.  Returns 0 or -1. */
static int
args_value(const struct args_option *o, const char *value, double *number,
    char **cause)
{
	uint64_t u;

	*number = 0;
	switch (o->type) {
	case ARGS_SECONDS:
		if (parse_seconds(value, number) == 0 && *number >= o->min)
			return 0;
		if (o->min > 0)
			xasprintf(cause, "--%s: expected seconds (%g or more), "
			    "got \"%s\"", o->name, o->min, value);
		else
			xasprintf(cause, "--%s: expected seconds, got \"%s\"",
			    o->name, value);
		return -1;
	case ARGS_COUNT:
		if (parse_u64(value, &u) == 0 && (double)u >= o->min &&
		    (double)u <= o->max) {
			*number = (double)u;
			return 0;
		}
		xasprintf(cause, "--%s: expected %.0f to %.0f, got \"%s\"",
		    o->name, o->min, o->max, value);
		return -1;
	default:
		return 0;
	}
}

struct args_required {
	const struct args	*a;
	const struct args_option *missing;
};

static int
required_fn(const struct args_option *o, void *arg)
{
	struct args_required *r = arg;

	return (o->flags & ARGS_REQUIRED) && !args_has(r->a, o->name);
}

/*
 * Parses argv (argv[0] is the command's name) by spec.  Returns the
 * options and arguments found (free with args_free(); values point into
 * argv), or NULL with *cause saying what is wrong in one line.
 */
struct args *
args_parse(const struct args_spec *spec, int argc, char **argv, char **cause)
{
	struct args		*a = xcalloc(1, sizeof *a);
	struct args_match	 m;
	struct args_required	 r;
	const struct args_option *o;
	const char		*arg, *eq, *value;
	double			 number;
	int			 i, npos;

	for (i = 1; i < argc; i++) {
		arg = argv[i];
		if (strcmp(arg, "--") == 0) {
			i++;
			break;
		}
		if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
			if (arg[0] == '-' && arg[1] != '\0') {
				xasprintf(cause, "unknown option %s", arg);
				goto fail;
			}
			break;
		}
		memset(&m, 0, sizeof m);
		m.name = arg + 2;
		eq = strchr(m.name, '=');
		m.len = eq != NULL ? (size_t)(eq - m.name) : strlen(m.name);
		args_walk(spec->options, match_fn, &m);
		if ((o = m.exact) == NULL && m.nprefix == 1)
			o = m.prefix;
		if (o == NULL) {
			xasprintf(cause, "%s option --%.*s", m.nprefix > 1 ?
			    "ambiguous" : "unknown", (int)m.len, m.name);
			goto fail;
		}
		if (o->type == ARGS_FLAG) {
			if (eq != NULL) {
				xasprintf(cause, "--%s takes no value", o->name);
				goto fail;
			}
			value = NULL;
		} else if (eq != NULL)
			value = eq + 1;
		else if (i + 1 < argc)
			value = argv[++i];
		else {
			xasprintf(cause, "--%s needs a value (%s)", o->name,
			    o->value);
			goto fail;
		}
		if (!(o->flags & ARGS_REPEAT) && args_has(a, o->name)) {
			xasprintf(cause, "--%s: given twice", o->name);
			goto fail;
		}
		if (value != NULL && args_value(o, value, &number, cause) != 0)
			goto fail;
		args_add(a, o, value, number);
	}
	a->argc = argc - i;
	a->argv = argv + i;

	r.a = a;
	if ((o = args_walk(spec->options, required_fn, &r)) != NULL) {
		xasprintf(cause, "--%s %s is required", o->name, o->value);
		goto fail;
	}
	npos = a->argc;
	if (npos < spec->lower) {
		xasprintf(cause, "%s is required", spec->arguments);
		goto fail;
	}
	if (spec->upper >= 0 && npos > spec->upper) {
		xasprintf(cause, "unexpected argument \"%s\"",
		    a->argv[spec->upper]);
		goto fail;
	}
	return a;
fail:
	args_free(a);
	return NULL;
}

void
args_free(struct args *a)
{
	if (a == NULL)
		return;
	free(a->values);
	free(a);
}

/* The last value given for --name, or NULL. */
static const struct args_value *
args_last(const struct args *a, const char *name)
{
	size_t i;

	for (i = a->n; i > 0; i--)
		if (strcmp(a->values[i - 1].opt->name, name) == 0)
			return &a->values[i - 1];
	return NULL;
}

int
args_has(const struct args *a, const char *name)
{
	return args_last(a, name) != NULL;
}

/* --name's value (the last, for a repeatable option), or NULL. */
const char *
args_get(const struct args *a, const char *name)
{
	const struct args_value *v = args_last(a, name);

	return v != NULL ? v->value : NULL;
}

/* --name's number (ARGS_SECONDS, ARGS_COUNT), or dflt when not given. */
double
args_number(const struct args *a, const char *name, double dflt)
{
	const struct args_value *v = args_last(a, name);

	return v != NULL ? v->number : dflt;
}

/*
 * The i-th option given, in command-line order: its name (the table's,
 * without dashes), and its value in *value (NULL for a flag) when value is
 * not NULL.  NULL past the last one.
 */
const char *
args_option_at(const struct args *a, size_t i, const char **value)
{
	if (i >= a->n)
		return NULL;
	if (value != NULL)
		*value = a->values[i].value;
	return a->values[i].opt->name;
}

/* How many arguments follow the options. */
int
args_count(const struct args *a)
{
	return a->argc;
}

/* The i-th argument after the options (0-based), or NULL past the last. */
const char *
args_string(const struct args *a, int i)
{
	return i >= 0 && i < a->argc ? a->argv[i] : NULL;
}

/* Appends s to *line (malloc'd). */
static void
line_add(char **line, const char *s)
{
	char *joined;

	xasprintf(&joined, "%s%s", *line, s);
	free(*line);
	*line = joined;
}

struct usage_state {
	char	*line;
	int	 required;	/* 1: list the required options, 0: the others */
	int	 optional;	/* how many optional ones there are */
};

static int
usage_fn(const struct args_option *o, void *arg)
{
	struct usage_state	*u = arg;
	char			*s;
	int			 required = (o->flags & ARGS_REQUIRED) != 0;

	if (required != u->required) {
		u->optional += !required;
		return 0;
	}
	xasprintf(&s, " %s--%s%s%s%s%s", required ? "" : "[", o->name,
	    o->value != NULL ? " " : "", o->value != NULL ? o->value : "",
	    required ? "" : "]", (o->flags & ARGS_REPEAT) ? "..." : "");
	line_add(&u->line, s);
	free(s);
	return 0;
}

/*
 * The usage line of spec: its required options, then "[options]" (or
 * every optional one when all is set), then its arguments.  Malloc'd,
 * without a leading space.
 */
char *
args_usage(const struct args_spec *spec, int all)
{
	struct usage_state	 u;
	char			*out;

	if (spec->usage != NULL)
		return xstrdup(spec->usage);
	memset(&u, 0, sizeof u);
	u.line = xstrdup("");
	u.required = 1;
	args_walk(spec->options, usage_fn, &u);
	if (all) {
		u.required = 0;
		args_walk(spec->options, usage_fn, &u);
	} else if (u.optional > 0)
		line_add(&u.line, " [options]");
	if (spec->arguments != NULL) {
		line_add(&u.line, " ");
		line_add(&u.line, spec->arguments);
	}
	out = xstrdup(u.line[0] == ' ' ? u.line + 1 : u.line);
	free(u.line);
	return out;
}

/*
 * Prints text from column col (the cursor is at column at), words wrapped
 * before column HELP_WIDTH; its newlines are spaces: the table's help is
 * one paragraph.
 */
static void
print_wrapped(FILE *f, const char *text, int col, int at)
{
	const char	*p = text, *end;
	int		 len, first = 1;

	while (*p != '\0') {
		while (*p == ' ' || *p == '\n')
			p++;
		if (*p == '\0')
			break;
		for (end = p; *end != '\0' && *end != ' ' && *end != '\n';
		    end++)
			;
		len = (int)(end - p);
		if (!first && at + 1 + len > HELP_WIDTH) {
			fputc('\n', f);
			at = 0;
			first = 1;
		}
		if (first) {
			fprintf(f, "%*s", col > at ? col - at : 0, "");
			at = col > at ? col : at;
		} else {
			fputc(' ', f);
			at++;
		}
		fprintf(f, "%.*s", len, p);
		at += len;
		first = 0;
		p = end;
	}
	fputc('\n', f);
}

static int
help_fn(const struct args_option *o, void *arg)
{
	FILE	*f = arg;
	int	 n;

	n = fprintf(f, "  --%s%s%s", o->name, o->value != NULL ? " " : "",
	    o->value != NULL ? o->value : "");
	if (n >= HELP_COLUMN - 1) {
		fputc('\n', f);
		n = 0;
	}
	print_wrapped(f, o->help != NULL ? o->help : "", HELP_COLUMN, n);
	return 0;
}

/* Prints spec's options, one per entry, with their help. */
void
args_print_options(FILE *f, const struct args_spec *spec)
{
	args_walk(spec->options, help_fn, f);
}
