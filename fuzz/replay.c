/*
 * replay.c: runs a fuzz target's LLVMFuzzerTestOneInput() on every file of
 * its seed corpus and its regression inputs (crashes fuzzing found, kept
 * once fixed), without libFuzzer: make check builds one per target with
 * any compiler, so the sanitizer build and valgrind replay them.
 *
 * FUZZ_DIR and FUZZ_NAME are set at build time: the inputs are
 * FUZZ_DIR/corpus/FUZZ_NAME and FUZZ_DIR/regress/FUZZ_NAME (which may be
 * missing).  With arguments, runs only those files (to reproduce a crash
 * under gdb or valgrind).
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* libFuzzer's default -max_len is far below this. */
#define REPLAY_MAX_INPUT	(1024 * 1024)

static int	passed, failed;

/* Runs the target on one file; a crash ends the program, as it should. */
static void
replay_file(const char *path)
{
	FILE	*f;
	uint8_t	*buf;
	size_t	 len;

	if ((f = fopen(path, "rb")) == NULL) {
		fprintf(stderr, "not ok %s: %s\n", path, strerror(errno));
		failed++;
		return;
	}
	buf = malloc(REPLAY_MAX_INPUT + 1);
	if (buf == NULL)
		abort();
	len = fread(buf, 1, REPLAY_MAX_INPUT + 1, f);
	fclose(f);
	if (len > REPLAY_MAX_INPUT) {
		fprintf(stderr, "not ok %s: over %d bytes\n", path,
		    REPLAY_MAX_INPUT);
		free(buf);
		failed++;
		return;
	}
	/* A copy of exactly len bytes, so ASan sees reads past the end. */
	buf = realloc(buf, len == 0 ? 1 : len);
	if (buf == NULL)
		abort();
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	printf("ok %s\n", path);
	fflush(stdout);
	passed++;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order; missing_ok for regressions. */
static void
replay_dir(const char *dir, int missing_ok)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;
	char		**names = NULL, *path;
	size_t		 n = 0, i;

	if ((d = opendir(dir)) == NULL) {
		if (missing_ok && errno == ENOENT)
			return;
		fprintf(stderr, "not ok %s: %s\n", dir, strerror(errno));
		failed++;
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof *names);
		if (names == NULL || (names[n] = strdup(de->d_name)) == NULL)
			abort();
		n++;
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof *names, cmp_names);
	for (i = 0; i < n; i++) {
		if (asprintf(&path, "%s/%s", dir, names[i]) == -1)
			abort();
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			replay_file(path);
		free(path);
		free(names[i]);
	}
	free(names);
}

int
main(int argc, char **argv)
{
	int	 i;

	if (argc > 1) {
		for (i = 1; i < argc; i++)
			replay_file(argv[i]);
	} else {
		replay_dir(FUZZ_DIR "/corpus/" FUZZ_NAME, 0);
		replay_dir(FUZZ_DIR "/regress/" FUZZ_NAME, 1);
		if (passed == 0) {
			fprintf(stderr, "not ok: no input in %s\n",
			    FUZZ_DIR "/corpus/" FUZZ_NAME);
			failed++;
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
