/*
 * tmpdir.h: a private directory per unit test, files written into it, and
 * its removal with everything in it (the policy and KubeVirt tests load
 * what they write from there).  Failures fail the test (cmocka).
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

#endif
