/* outfile.h — output files that appear whole or not at all: written under
 * a temporary name in the same directory (registered in tmpfiles.h, so a
 * signal removes it), renamed when complete. */
#ifndef UB_OUTFILE_H
#define UB_OUTFILE_H

#include <stdio.h>

#include "ub.h"

struct ub_outfile {
	FILE *f;
	char path[4096], tmp[4300];
	int slot;         /* the temporary's (tmpfiles.h); -1: none */
	int is_stdout;
};

/* Opens a temporary file beside path ("-" means stdout).  UB_IO
 * "PATH: cannot write: ..." when the directory is not writable. */
int ub_outfile_open(struct ub_outfile *o, const char *path,
		    struct ub_error *err);
/* Flushes, closes and renames; on any write error removes the temporary
 * file and fails. */
int ub_outfile_commit(struct ub_outfile *o, struct ub_error *err);
/* Closes and removes the temporary file. */
void ub_outfile_abort(struct ub_outfile *o);

#endif
