/*
 * pipe-reader.h: a thread that reads a pipe to its end into a string, so
 * that a test can write to the other end as much as it likes and then
 * compare every byte (the output tests: stdout, stderr, the progress
 * line).  Failures fail the test (cmocka).
 */
#ifndef TESTS_UNIT_PIPE_READER_H
#define TESTS_UNIT_PIPE_READER_H

#include <pthread.h>
#include <stddef.h>

struct pipe_reader {
	int		 fd;
	char		*text;		/* what was read, NUL-terminated */
	size_t		 len;
	pthread_t	 thread;
};

/* Starts reading fd (the pipe's read end; closed by the caller). */
void	pipe_reader_start(struct pipe_reader *, int fd);
/* Waits for the end of the pipe (every write end closed): text is whole. */
void	pipe_reader_join(struct pipe_reader *);

#endif
