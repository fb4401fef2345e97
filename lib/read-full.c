/*
 * read-full.c: a file read to its end or to a cap, written once for the
 * proxy's key file, the policy reader and the exporter's /proc files.
 */
#include <errno.h>
#include <unistd.h>

#include "common.h"

ssize_t
read_full(int fd, void *buf, size_t size)
{
	size_t	len = 0;
	ssize_t	n;

	while (len < size) {
		n = read(fd, (char *)buf + len, size - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return -1;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	return (ssize_t)len;
}
