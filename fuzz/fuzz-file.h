/*
 * fuzz-file.h: the parsers of src/ read files (with their size limits and
 * error messages naming the file), so their targets hand them the input
 * as one: a file in a private directory made on the first run and removed
 * at exit.
 */
#ifndef FUZZ_FILE_H
#define FUZZ_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Writes data to NAME in the private directory; returns its path. */
const char *fuzz_file_write(const char *name, const uint8_t *data,
    size_t size);

#endif
