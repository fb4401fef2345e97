/*
 * policy-read.c: reading the documents policies are made of: a bounded
 * regular file, as JSON (comments allowed) or YAML (yaml-read.c), with
 * errors naming the file, line and column.  Used for policy, label,
 * manifest, inventory and recording files alike, so it sits below
 * everything that parses them.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "policy.h"

/* Line and column (1-based) of byte off in buf, for parse errors. */
static void
line_col(const char *buf, size_t off, size_t *line, size_t *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off; i++) {
		if (buf[i] == '\n') {
			(*line)++;
			*col = 1;
		} else
			(*col)++;
	}
}

/*
 * Reads a whole regular file of at most POLICY_MAX_FILE_SIZE bytes (checked
 * while reading too, in case it grows).  Returns a NUL-terminated buffer
 * (its length in *lenp) or NULL with *cause set to "WHAT PATH: ...".  Used
 * for policy, label, manifest and inventory files.
 */
static char *
policy_read_file(const char *what, const char *path, size_t *lenp,
    char **cause)
{
	struct stat	 st;
	char		*buf;
	ssize_t		 n;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1) {
		xasprintf(cause, "%s %s: %s", what, path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) == -1) {
		xasprintf(cause, "%s %s: %s", what, path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		xasprintf(cause, "%s %s: not a regular file", what, path);
		close(fd);
		return NULL;
	}
	if (st.st_size > POLICY_MAX_FILE_SIZE)
		goto too_big;
	buf = xmalloc(POLICY_MAX_FILE_SIZE + 2);
	if ((n = read_full(fd, buf, POLICY_MAX_FILE_SIZE + 1)) == -1) {
		xasprintf(cause, "%s %s: %s", what, path, strerror(errno));
		free(buf);
		close(fd);
		return NULL;
	}
	if (n > POLICY_MAX_FILE_SIZE) {
		free(buf);
		goto too_big;
	}
	close(fd);
	buf[n] = '\0';
	*lenp = (size_t)n;
	return buf;
too_big:
	close(fd);
	xasprintf(cause, "%s %s: larger than %d bytes", what, path,
	    POLICY_MAX_FILE_SIZE);
	return NULL;
}

/*
 * Parses buf as one JSON value with json-c's default (non-strict) tokener,
 * which accepts / * * / and // comments outside strings.  Anything but
 * whitespace and comments after the value is an error.  Returns a new
 * reference or NULL with *cause set ("WHAT PATH: line L, column C: ...").
 */
static struct json_object *
parse_json_text(const char *what, const char *path, const char *buf,
    size_t len, char **cause)
{
	struct json_tokener		*tok;
	struct json_object		*o;
	enum json_tokener_error		 jerr;
	size_t				 end, line, col;
	char				*key;

	if (strlen(buf) != len) {
		line_col(buf, strlen(buf), &line, &col);
		xasprintf(cause, "%s %s: line %zu, column %zu: NUL character",
		    what, path, line, col);
		return NULL;
	}
	tok = json_tokener_new_ex(YAML_MAX_DEPTH);
	/* With its NUL, so that a bare literal at the end ("null") ends. */
	o = json_tokener_parse_ex(tok, buf, (int)len + 1);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (o == NULL && jerr != json_tokener_success && end >= len)
		jerr = json_tokener_continue;	/* it ran into the NUL */
	if (end > len)
		end = len;
	json_tokener_free(tok);
	if (o == NULL && jerr == json_tokener_success) {
		xasprintf(cause, "%s %s: expected a JSON object, got null", what,
		    path);
		return NULL;
	}
	if (o == NULL) {
		if (jerr == json_tokener_continue)
			xasprintf(cause, "%s %s: unexpected end of file", what,
			    path);
		else {
			line_col(buf, end, &line, &col);
			xasprintf(cause, "%s %s: line %zu, column %zu: %s",
			    what, path, line, col, json_tokener_error_desc(jerr));
		}
		return NULL;
	}
	/* The rest must parse as nothing at all: only space and comments. */
	tok = json_tokener_new_ex(YAML_MAX_DEPTH);
	if (end < len) {
		struct json_object *rest;

		rest = json_tokener_parse_ex(tok, buf + end, (int)(len - end));
		jerr = json_tokener_get_error(tok);
		if (rest != NULL || jerr != json_tokener_continue) {
			json_object_put(rest);
			while (end < len && strchr(" \t\r\n", buf[end]) != NULL)
				end++;
			line_col(buf, end, &line, &col);
			xasprintf(cause, "%s %s: line %zu, column %zu: "
			    "unexpected text after the JSON value", what, path,
			    line, col);
			json_tokener_free(tok);
			json_object_put(o);
			return NULL;
		}
	}
	json_tokener_free(tok);
	/* json-c keeps the last of two equal keys: refuse them, as YAML. */
	if (json_duplicate_key(buf, len, &end, &key)) {
		line_col(buf, end, &line, &col);
		xasprintf(cause, "%s %s: line %zu, column %zu: key \"%.64s\" "
		    "given twice", what, path, line, col, key);
		free(key);
		json_object_put(o);
		return NULL;
	}
	return o;
}

/*
 * Reads a bounded JSON file (comments allowed) for labels_load_file() and
 * others.  Errors read "WHAT PATH: ...".  Returns a new reference or NULL.
 */
struct json_object *
policy_read_json(const char *what, const char *path, char **cause)
{
	struct json_object	*o;
	char			*buf;
	size_t			 len;

	if ((buf = policy_read_file(what, path, &len, cause)) == NULL)
		return NULL;
	o = parse_json_text(what, path, buf, len, cause);
	free(buf);
	return o;
}

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && strcmp(s + n - m, suffix) == 0;
}

/*
 * Whether path holds YAML: by its name (*.yaml, *.yml; *.json is JSON),
 * else by its first character other than space or a // comment: JSON
 * starts with { or [.
 */
static int
is_yaml(const char *path, const char *buf)
{
	if (has_suffix(path, ".yaml") || has_suffix(path, ".yml"))
		return 1;
	if (has_suffix(path, ".json"))
		return 0;
	for (;;) {
		buf += strspn(buf, " \t\r\n");
		if (buf[0] != '/' || (buf[1] != '/' && buf[1] != '*'))
			break;
		buf += strcspn(buf, "\n");
	}
	return *buf != '{' && *buf != '[';
}

/*
 * Reads a file as documents: YAML (a stream of --- separated documents,
 * yaml-read.c) or JSON (one document, comments allowed).  Fills *docs;
 * free with yaml_docs_free().  Returns 1 for YAML, 0 for JSON, -1 with
 * *cause ("WHAT PATH: ...").
 */
int
policy_read_docs(const char *what, const char *path, struct yaml_docs *docs,
    char **cause)
{
	char	*buf, *why = NULL;
	size_t	 len;
	int	 yaml;

	memset(docs, 0, sizeof *docs);
	if ((buf = policy_read_file(what, path, &len, cause)) == NULL)
		return -1;
	yaml = is_yaml(path, buf);
	if (yaml) {
		if (yaml_read(buf, len, POLICY_MAX_FILES, docs, &why) != 0) {
			xasprintf(cause, "%s %s: %s", what, path, why);
			free(why);
			free(buf);
			return -1;
		}
	} else {
		docs->docs = xcalloc(1, sizeof *docs->docs);
		docs->docs[0] = parse_json_text(what, path, buf, len, cause);
		if (docs->docs[0] == NULL) {
			free(docs->docs);
			docs->docs = NULL;
			free(buf);
			return -1;
		}
		docs->n = 1;
	}
	free(buf);
	return yaml;
}
