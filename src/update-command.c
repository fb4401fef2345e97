/*
 * update-command.c: the new QEMU's command line of `update --mode exec`,
 * read from a file (one argument a line) and checked before anything
 * moves, because QEMU checks none of it and the exec cannot be undone:
 * without -incoming the new QEMU boots a second, fresh guest in the same
 * process and reports it running; an -incoming other than the file the
 * old QEMU writes loads nothing (reference/qemu-cpr-exec.md, traps 2 and
 * 5).  A console in -serial file: is truncated by the new QEMU: warned.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qmigrate.h"

/* A command line is a few hundred bytes; a KubeVirt one a few KiB. */
#define UPDATE_COMMAND_MAX	(64 * 1024)
#define UPDATE_COMMAND_ARGS	1024

/*
 * Reads path's command line into *argv (NULL-terminated, freed with
 * update_command_free()) and checks it against uri, the file the old QEMU
 * writes its device state to.  Returns 0, or -1 with *cause naming the
 * file and what is wrong.
 */
int
update_command_load(const char *path, const char *uri, char ***argv,
    char **cause)
{
	char	*buf, *line, *next, **v;
	ssize_t	 n;
	size_t	 argc = 0, i, lineno = 0;
	int	 fd, incoming = 0;

	*argv = NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		xasprintf(cause, "--new-command %s: %s", path,
		    strerror(errno));
		return -1;
	}
	buf = xmalloc(UPDATE_COMMAND_MAX + 1);
	n = read_full(fd, buf, UPDATE_COMMAND_MAX + 1);
	close(fd);
	if (n < 0 || n > UPDATE_COMMAND_MAX) {
		xasprintf(cause, "--new-command %s: %s", path, n < 0 ?
		    strerror(errno) : "over 64 KiB");
		free(buf);
		return -1;
	}
	buf[n] = '\0';
	v = xcalloc(UPDATE_COMMAND_ARGS + 1, sizeof *v);
	for (line = buf; *line != '\0'; line = next) {
		lineno++;
		next = line + strcspn(line, "\n");
		if (*next == '\n')
			*next++ = '\0';
		if (*line == '\0' || argc == UPDATE_COMMAND_ARGS) {
			xasprintf(cause, "--new-command %s: line %zu: %s", path,
			    lineno, *line == '\0' ? "empty (one argument a "
			    "line)" : "over 1024 arguments");
			goto bad;
		}
		v[argc++] = xstrdup(line);
	}
	if (argc == 0) {
		xasprintf(cause, "--new-command %s: empty", path);
		goto bad;
	}
	for (i = 1; i < argc; i++) {
		if (strcmp(v[i], "-incoming") != 0)
			continue;
		if (i + 1 == argc || strcmp(v[i + 1], uri) != 0) {
			xasprintf(cause, "--new-command %s: -incoming %s: "
			    "expected %s (--to, the file the old QEMU writes "
			    "the device state to)", path, i + 1 < argc ?
			    v[i + 1] : "with no value", uri);
			goto bad;
		}
		incoming = 1;
	}
	if (!incoming) {
		xasprintf(cause, "--new-command %s: no -incoming %s: the new "
		    "QEMU would boot a second, fresh guest in the same process",
		    path, uri);
		goto bad;
	}
	for (i = 1; i + 1 < argc; i++)
		if (strcmp(v[i], "-serial") == 0 &&
		    strncmp(v[i + 1], "file:", 5) == 0)
			log_warnx("--new-command %s: -serial %s: the new QEMU "
			    "truncates it (use -chardev file,...,append=on)",
			    path, v[i + 1]);
	free(buf);
	*argv = v;
	return 0;

bad:
	free(buf);
	update_command_free(v);
	return -1;
}

void
update_command_free(char **argv)
{
	size_t i;

	for (i = 0; argv != NULL && argv[i] != NULL; i++)
		free(argv[i]);
	free(argv);
}
