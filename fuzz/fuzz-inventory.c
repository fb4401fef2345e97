/*
 * fuzz-inventory.c: the input is a drain inventory (drain.c, through
 * drain_check_inventory(): the parser drain_run() uses, without running
 * anything).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-file.h"
#include "qmigrate.h"
#include "drain.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char	*path;
	char		*cause = NULL;

	path = fuzz_file_write("inventory.json", data, size);
	if (drain_check_inventory(path, &cause) != 0) {
		if (cause == NULL || strstr(cause, path) == NULL)
			abort();	/* every error names the file */
		free(cause);
	}
	return 0;
}
