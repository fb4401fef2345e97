/*
 * xmalloc.c: allocation that cannot fail, for every part of qmigrate
 * (src/, qmp/, proxy/).  Running out of memory is fatal: there is no
 * sensible way to carry on half a migration without it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static void
oom(size_t size)
{
	fprintf(stderr, "qmigrate: out of memory allocating %zu bytes\n", size);
	abort();
}

void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (p == NULL)
		oom(size);
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (p == NULL)
		oom(nmemb * size);
	return p;
}

void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	void *p;

	if (size != 0 && nmemb > SIZE_MAX / size)
		oom(SIZE_MAX);
	p = realloc(ptr, nmemb * size != 0 ? nmemb * size : 1);
	if (p == NULL)
		oom(nmemb * size);
	return p;
}

void *
xrealloc(void *ptr, size_t size)
{
	return xreallocarray(ptr, 1, size);
}

char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		oom(strlen(s) + 1);
	return p;
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (p == NULL)
		oom(n + 1);
	return p;
}

int
xvasprintf(char **ret, const char *fmt, va_list ap)
{
	int n = vasprintf(ret, fmt, ap);

	if (n < 0)
		oom(0);
	return n;
}

int
xasprintf(char **ret, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = xvasprintf(ret, fmt, ap);
	va_end(ap);
	return n;
}

void
set_cause(char **cause, const char *fmt, ...)
{
	va_list ap;

	if (cause == NULL)
		return;
	va_start(ap, fmt);
	xvasprintf(cause, fmt, ap);
	va_end(ap);
}
