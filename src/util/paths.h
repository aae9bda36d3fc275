/* paths.h — where ulpbench finds its data (kernels/, suites/). */
#ifndef UB_PATHS_H
#define UB_PATHS_H

#include "ub.h"

/* Resolves rel ("kernels", "suites/ops.fpcore") against, in order:
 * $ULPBENCH_DATADIR, the source tree the binary was built from (SRCDIR),
 * the installed data directory (PKGDATADIR), and PREFIX/share/ulpbench
 * of the prefix the program runs from (installed elsewhere than
 * configured: a wheel's bin/ulpbench); the first that exists wins.
 * UB_USAGE with the places tried if none does. */
int ub_data_path(const char *rel, char *out, size_t len,
		 struct ub_error *err);

/* The largest text file ub_read_file() reads: 64 MiB. */
#define UB_SOURCE_MAX (64 << 20)

/* Reads a whole text file into a NUL-terminated malloc'd string (UB_USAGE
 * "PATH: cannot read: ..." on error: a directory, a NUL byte, which would
 * end the text there unseen, more than UB_SOURCE_MAX bytes, a read
 * error). */
int ub_read_file(const char *path, char **text, struct ub_error *err);

/* PREFIX of the running program, PREFIX/bin/ulpbench (/proc/self/exe),
 * into buf; NULL when it cannot be read. */
const char *ub_program_prefix(char *buf, size_t len);

#endif
