/*
 * tmpdir.c: see tmpdir.h.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "qmigrate.h"
#include "policy.h"
#include "tmpdir.h"

char *
tmpdir_new(const char *prefix)
{
	char		*dir;
	const char	*base = getenv("TMPDIR");

	xasprintf(&dir, "%s/%s.XXXXXX", base != NULL ? base : "/tmp", prefix);
	assert_non_null(mkdtemp(dir));
	return dir;
}

void
tmpdir_free(char *dir)
{
	DIR		*d = opendir(dir);
	struct dirent	*de;
	char		*path;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		xasprintf(&path, "%s/%s", dir, de->d_name);
		assert_int_equal(unlink(path), 0);
		free(path);
	}
	closedir(d);
	assert_int_equal(rmdir(dir), 0);
	free(dir);
}

char *
tmpdir_write_len(const char *dir, const char *name, const char *text,
    size_t len)
{
	char	*path;
	FILE	*f;

	xasprintf(&path, "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return path;
}

char *
tmpdir_write(const char *dir, const char *name, const char *text)
{
	return tmpdir_write_len(dir, name, text, strlen(text));
}

void
str_append(char **s, const char *fmt, ...)
{
	char	*add, *joined;
	va_list	 ap;

	va_start(ap, fmt);
	xvasprintf(&add, fmt, ap);
	va_end(ap);
	xasprintf(&joined, "%s%s", *s, add);
	free(*s);
	free(add);
	*s = joined;
}

void
policy_expect_refused(const char *prefix, const char *name, const char *text,
    const char *expected)
{
	char	*dir = tmpdir_new(prefix), *path, *cause = NULL, *want;
	size_t	 i;

	path = tmpdir_write(dir, name, text);
	if (policy_load(path, &cause) != NULL)
		fail_msg("accepted: %s", text);
	assert_non_null(cause);
	xasprintf(&want, "policy %s: ", path);
	for (i = 0; expected[i] != '\0'; i++) {
		if (expected[i] == '@')
			str_append(&want, "%s", path);
		else
			str_append(&want, "%c", expected[i]);
	}
	if (strcmp(cause, want) != 0)
		fail_msg("for %s\n got: %s\nwant: %s", text, cause, want);
	free(want);
	free(cause);
	free(path);
	tmpdir_free(dir);
}
