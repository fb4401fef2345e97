/* pipe-reader.c: see pipe-reader.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pipe-reader.h"

static void *
read_all(void *arg)
{
	struct pipe_reader	*r = arg;
	char			 buf[65536];
	ssize_t			 n;

	while ((n = read(r->fd, buf, sizeof buf)) > 0) {
		r->text = realloc(r->text, r->len + (size_t)n + 1);
		assert_non_null(r->text);
		memcpy(r->text + r->len, buf, (size_t)n);
		r->len += (size_t)n;
		r->text[r->len] = '\0';
	}
	return NULL;
}

void
pipe_reader_start(struct pipe_reader *r, int fd)
{
	r->fd = fd;
	r->text = NULL;
	r->len = 0;
	assert_int_equal(pthread_create(&r->thread, NULL, read_all, r), 0);
}

void
pipe_reader_join(struct pipe_reader *r)
{
	assert_int_equal(pthread_join(r->thread, NULL), 0);
}
