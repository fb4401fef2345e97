/*
 * tmpdir.h: a private directory per unit test, files written into it, and
 * its removal with everything in it (the policy and KubeVirt tests load
 * what they write from there, and check what policy_load() refuses).
 * Failures fail the test (cmocka).
 */
#ifndef TESTS_UNIT_TMPDIR_H
#define TESTS_UNIT_TMPDIR_H

#include <stddef.h>

/* $TMPDIR (or /tmp)/PREFIX.XXXXXX, made; the malloc'd path. */
char	*tmpdir_new(const char *prefix);
/* Removes dir's files and dir itself (no subdirectories), frees dir. */
void	 tmpdir_free(char *dir);
/* Writes len bytes of text to dir/name; the malloc'd path. */
char	*tmpdir_write_len(const char *dir, const char *name, const char *text,
	     size_t len);
/* The same for a string. */
char	*tmpdir_write(const char *dir, const char *name, const char *text);

/* Appends what fmt says to the malloc'd string *s (replaced). */
void	 str_append(char **s, const char *fmt, ...)
	     __attribute__((format(printf, 2, 3)));
/*
 * Writes text as name in a fresh directory (prefix) and loads it with
 * policy_load(): it must be refused with exactly "policy PATH: " and then
 * expected, where each @ in expected stands for PATH.
 */
void	 policy_expect_refused(const char *prefix, const char *name,
	     const char *text, const char *expected);

#endif
