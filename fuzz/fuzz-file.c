/*
 * fuzz-file.c: see fuzz-file.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz-file.h"

static char	fuzz_dir[PATH_MAX];
static char	fuzz_path[PATH_MAX + 64];

static void
fuzz_file_cleanup(void)
{
	if (fuzz_path[0] != '\0')
		(void)unlink(fuzz_path);
	(void)rmdir(fuzz_dir);
}

const char *
fuzz_file_write(const char *name, const uint8_t *data, size_t size)
{
	const char	*tmp;
	ssize_t		 n;
	size_t		 off = 0;
	int		 fd;

	if (fuzz_dir[0] == '\0') {
		/* Memory, not disk: thousands of files a second. */
		if ((tmp = getenv("TMPDIR")) == NULL || *tmp == '\0')
			tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" :
			    "/tmp";
		snprintf(fuzz_dir, sizeof fuzz_dir, "%s/qmigrate-fuzz.XXXXXX",
		    tmp);
		if (mkdtemp(fuzz_dir) == NULL) {
			perror(fuzz_dir);
			abort();
		}
		atexit(fuzz_file_cleanup);
	}
	if (strlen(name) > 32)
		abort();
	snprintf(fuzz_path, sizeof fuzz_path, "%s/%s", fuzz_dir, name);
	/*
	 * A new file each time: ext4 flushes a file truncated to zero when
	 * it is closed, which made each run wait for the disk.
	 */
	(void)unlink(fuzz_path);
	fd = open(fuzz_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd == -1) {
		perror(fuzz_path);
		abort();
	}
	while (off < size) {
		n = write(fd, data + off, size - off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			perror(fuzz_path);
			abort();
		}
		off += (size_t)n;
	}
	close(fd);
	return fuzz_path;
}
