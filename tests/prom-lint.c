/*
 * prom-lint.c: a strict checker of the Prometheus text exposition format
 * 0.0.4 for the exporter's tests, run beside `promtool check metrics`
 * (tests/observe-lib.sh): it also checks what promtool lets through (a
 * family's lines contiguous, no series twice, the qmigrate_ prefix).
 *
 *	prom-lint [PREFIX] < metrics
 *
 * Checks: every line ends in \n; comments are only "# HELP name text" and
 * "# TYPE name type", at most one of each per name, before its samples;
 * every sample has both; a family's lines are contiguous; metric and label
 * names are valid; label values use only the \\ \" \n escapes; no label
 * twice in a sample; no series twice; values parse as floats; counters end
 * in _total and nothing else does; every name starts with PREFIX when
 * given.  A histogram's samples are NAME_bucket (with le), NAME_sum and
 * NAME_count of the family NAME.  Prints each problem with its line number; exits 1 if any.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUT	(16 * 1024 * 1024)
#define MAX_FAMILIES	4096
#define MAX_SERIES	65536

struct family {
	char	*name;
	char	*type;
	int	 help;
	int	 closed;	/* another family came after it */
};

static struct family	 fams[MAX_FAMILIES];
static int		 nfams;
static char		*series[MAX_SERIES];
static int		 nseries;
static int		 errors;
static int		 lineno;
static const char	*prefix;
static struct family	*current;

static void __attribute__((format(printf, 1, 2)))
bad(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "line %d: ", lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	errors++;
}

static int
name_ok(const char *s, size_t n, int colon)
{
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (isalpha((unsigned char)s[i]) || s[i] == '_' ||
		    (colon && s[i] == ':'))
			continue;
		if (i > 0 && isdigit((unsigned char)s[i]))
			continue;
		return 0;
	}
	return 1;
}

static struct family *
family_get(const char *name, int create)
{
	int i;

	for (i = 0; i < nfams; i++)
		if (strcmp(fams[i].name, name) == 0)
			return &fams[i];
	if (!create || nfams == MAX_FAMILIES)
		return NULL;
	fams[nfams].name = strdup(name);
	return &fams[nfams++];
}

/*
 * The histogram family of a sample name NAME_bucket, NAME_sum or
 * NAME_count, or NULL when name is none of them.
 */
static struct family *
histogram_of(const char *name)
{
	static const char *const suffixes[] = { "_bucket", "_sum", "_count" };
	struct family	*f;
	char		*base;
	size_t		 i, n = strlen(name), k;

	for (i = 0; i < 3; i++) {
		k = strlen(suffixes[i]);
		if (n <= k || strcmp(name + n - k, suffixes[i]) != 0)
			continue;
		base = strndup(name, n - k);
		f = family_get(base, 0);
		free(base);
		if (f != NULL && f->type != NULL &&
		    strcmp(f->type, "histogram") == 0)
			return f;
	}
	return NULL;
}

/* Makes f the current family; a family may not come back later. */
static void
family_enter(struct family *f)
{
	if (current == f)
		return;
	if (f->closed)
		bad("family %s is not contiguous", f->name);
	if (current != NULL)
		current->closed = 1;
	current = f;
}

static void
check_names(const char *name)
{
	if (prefix != NULL && strncmp(name, prefix, strlen(prefix)) != 0)
		bad("%s: name without the expected prefix", name);
	if (strstr(name, "__") != NULL)
		bad("%s: double underscore", name);
}

static void
comment(char *line)
{
	char		*kw = line + 2, *name, *rest;
	struct family	*f;
	size_t		 n;
	int		 total;

	if (strncmp(line, "# ", 2) != 0) {
		bad("comment not of the form \"# HELP\" or \"# TYPE\": %s",
		    line);
		return;
	}
	if ((name = strchr(kw, ' ')) == NULL) {
		bad("comment without a metric name: %s", line);
		return;
	}
	*name++ = '\0';
	if ((rest = strchr(name, ' ')) == NULL) {
		bad("comment without text: %s", name);
		return;
	}
	*rest++ = '\0';
	if (!name_ok(name, strlen(name), 1)) {
		bad("invalid metric name %s", name);
		return;
	}
	check_names(name);
	f = family_get(name, 1);
	if (f == NULL) {
		bad("too many families at %s", name);
		return;
	}
	family_enter(f);
	if (strcmp(kw, "HELP") == 0) {
		if (f->help)
			bad("second HELP for %s", name);
		f->help = 1;
		for (; *rest != '\0'; rest++)
			if (*rest == '\\' && rest[1] != '\\' &&
			    rest[1] != 'n')
				bad("HELP of %s: bad escape", name);
			else if (*rest == '\\')
				rest++;
		return;
	}
	if (strcmp(kw, "TYPE") != 0) {
		bad("unknown comment keyword %s", kw);
		return;
	}
	if (f->type != NULL)
		bad("second TYPE for %s", name);
	if (strcmp(rest, "counter") != 0 && strcmp(rest, "gauge") != 0 &&
	    strcmp(rest, "histogram") != 0 && strcmp(rest, "summary") != 0 &&
	    strcmp(rest, "untyped") != 0) {
		bad("unknown type %s", rest);
		return;
	}
	f->type = strdup(rest);
	n = strlen(name);
	total = n > 6 && strcmp(name + n - 6, "_total") == 0;
	if (strcmp(rest, "counter") == 0 && !total)
		bad("counter %s does not end in _total", name);
	if (strcmp(rest, "counter") != 0 && total)
		bad("non-counter %s ends in _total", name);
}

/* Parses {a="b",...}; returns the character after '}' or NULL. */
static char *
labels(char *p, char *canon, size_t cap)
{
	char	 seen[64][128];
	int	 nseen = 0, i;
	char	*start;
	size_t	 n;

	canon[0] = '\0';
	p++;	/* '{' */
	if (*p == '}')
		return p + 1;
	for (;;) {
		start = p;
		while (*p != '=' && *p != '\0')
			p++;
		n = (size_t)(p - start);
		if (*p != '=' || !name_ok(start, n, 0) || n >= 128) {
			bad("bad label name near %s", start);
			return NULL;
		}
		if (n >= 2 && start[0] == '_' && start[1] == '_')
			bad("reserved label name near %s", start);
		for (i = 0; i < nseen; i++)
			if (strlen(seen[i]) == n &&
			    strncmp(seen[i], start, n) == 0)
				bad("label repeated near %s", start);
		if (nseen < 64) {
			memcpy(seen[nseen], start, n);
			seen[nseen++][n] = '\0';
		}
		if (*++p != '"') {
			bad("label value not quoted near %s", start);
			return NULL;
		}
		for (p++; *p != '"'; p++) {
			if (*p == '\0') {
				bad("unterminated label value near %s", start);
				return NULL;
			}
			if (*p == '\\') {
				if (p[1] != '\\' && p[1] != '"' &&
				    p[1] != 'n') {
					bad("bad escape in label value near %s",
					    start);
					return NULL;
				}
				p++;
			}
		}
		p++;
		if (strlen(canon) + (size_t)(p - start) + 2 < cap) {
			strncat(canon, start, (size_t)(p - start));
			strcat(canon, ",");
		}
		if (*p == '}')
			return p + 1;
		if (*p != ',') {
			bad("expected , or } near %s", p);
			return NULL;
		}
		p++;
	}
}

static void
sample(char *line)
{
	char		*p = line, *end, canon[4096], *key, *name;
	struct family	*f;
	size_t		 n;
	int		 i;

	while (*p != '\0' && *p != '{' && *p != ' ')
		p++;
	n = (size_t)(p - line);
	name = strndup(line, n);
	if (!name_ok(name, n, 1)) {
		bad("invalid metric name in %s", line);
		free(name);
		return;
	}
	f = histogram_of(name);
	if (f == NULL)
		f = family_get(name, 0);
	if (f == NULL || f->type == NULL || !f->help)
		bad("sample of %s without HELP and TYPE before it", name);
	if (f != NULL)
		family_enter(f);
	canon[0] = '\0';
	if (*p == '{' && (p = labels(p, canon, sizeof canon)) == NULL) {
		free(name);
		return;
	}
	if (f != NULL && histogram_of(name) == f && n > 7 &&
	    strcmp(name + n - 7, "_bucket") == 0 &&
	    strncmp(canon, "le=", 3) != 0 && strstr(canon, ",le=") == NULL)
		bad("bucket of %s without le", name);
	if (*p != ' ') {
		bad("expected a space before the value in %s", line);
		free(name);
		return;
	}
	p++;
	if (strtod(p, &end) == 0 && end == p) {
		bad("value is not a number: %s", p);
		free(name);
		return;
	}
	if (*end == ' ') {
		(void)strtoll(end + 1, &p, 10);
		if (p == end + 1 || *p != '\0')
			bad("bad timestamp in %s", line);
	} else if (*end != '\0')
		bad("junk after the value in %s", line);
	if (asprintf(&key, "%s{%s}", name, canon) == -1)
		abort();
	for (i = 0; i < nseries; i++)
		if (strcmp(series[i], key) == 0) {
			bad("series %s repeated", key);
			break;
		}
	if (i == nseries && nseries < MAX_SERIES)
		series[nseries++] = key;
	else
		free(key);
	free(name);
}

int
main(int argc, char **argv)
{
	char	*buf = malloc(MAX_INPUT + 1), *line, *nl;
	size_t	 len;
	int	 i;

	if (argc > 1)
		prefix = argv[1];
	len = fread(buf, 1, MAX_INPUT + 1, stdin);
	if (len > MAX_INPUT) {
		fprintf(stderr, "input larger than %d bytes\n", MAX_INPUT);
		return 1;
	}
	buf[len] = '\0';
	if (len == 0) {
		fprintf(stderr, "empty input\n");
		return 1;
	}
	if (strlen(buf) != len) {
		fprintf(stderr, "NUL byte in input\n");
		return 1;
	}
	if (buf[len - 1] != '\n') {
		lineno = 0;
		bad("%s", "input does not end with a newline");
	}
	for (line = buf; line < buf + len; line = nl + 1) {
		lineno++;
		if ((nl = strchr(line, '\n')) == NULL)
			nl = buf + len;	/* the last, unterminated line */
		*nl = '\0';
		if (*line == '\0')
			bad("%s", "empty line");
		else if (*line == '#')
			comment(line);
		else
			sample(line);
	}
	for (i = 0; i < nfams; i++)
		if (fams[i].type == NULL || !fams[i].help)
			fprintf(stderr, "family %s lacks %s\n", fams[i].name,
			    fams[i].type == NULL ? "TYPE" : "HELP"), errors++;
	for (i = 0; i < nfams; i++) {
		free(fams[i].name);
		free(fams[i].type);
	}
	for (i = 0; i < nseries; i++)
		free(series[i]);
	free(buf);
	if (errors > 0) {
		fprintf(stderr, "%d problem(s)\n", errors);
		return 1;
	}
	return 0;
}
