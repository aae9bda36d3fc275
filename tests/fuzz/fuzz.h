/* fuzz.h — what the fuzz harnesses (tests/fuzz/fuzz_*.c) share.
 *
 * Each harness defines LLVMFuzzerTestOneInput(): one input, handed to the
 * project's own parser the way the command would hand it a file or an
 * argument, and everything the parser allocated freed again.  A harness
 * never prints and never exits: a crash, a sanitizer report or a leak is
 * the finding.  The same harness links with libFuzzer (make fuzz) and with
 * tests/fuzz/replay.c, which replays the seed corpus and the regression
 * inputs in make check. */
#ifndef UB_FUZZ_H
#define UB_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (malloc'd; NULL when out of
 * memory).  A NUL inside the input ends the string there, as it would in a
 * file read as text. */
char *fuzz_text(const uint8_t *data, size_t size);

/* Writes the input to NAME in a directory of this process's own (made on
 * first use under $TMPDIR or /tmp, removed at exit) and returns the path,
 * or NULL when it cannot be written.  Relative paths inside the input
 * (a suite's --catalog) then resolve in that directory, which holds
 * nothing else. */
const char *fuzz_file(const char *name, const uint8_t *data, size_t size);

#endif
