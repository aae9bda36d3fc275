/* outfile.h — output files that appear whole or not at all: written under
 * a temporary name beside the file (registered in tmpfiles.h, so a signal
 * removes it), renamed over it when complete.  Through a symbolic link the
 * link's target is written and the link stays.  A device or FIFO (such as
 * /dev/null or a pipe) is written in place, as it cannot be renamed. */
#ifndef UB_OUTFILE_H
#define UB_OUTFILE_H

#include <stdio.h>

#include "ub.h"

struct ub_outfile {
	FILE *f;
	char name[4096];  /* as given, for messages */
	char path[4200];  /* the file written: links followed */
	char tmp[4300];
	int slot;         /* the temporary's (tmpfiles.h); -1: none */
	int is_stdout;
	int direct;       /* a device or FIFO, written in place */
	int keep_mode;    /* path exists: its mode goes to the new file */
	unsigned mode;
};

/* Opens a temporary file beside path ("-" means stdout).  UB_IO
 * "PATH: cannot write: ..." when the directory is not writable, path is
 * a directory, or path is a file this process may not write (a 0444
 * report is not replaced; one that may be written is replaced by a file
 * of its mode). */
int ub_outfile_open(struct ub_outfile *o, const char *path,
		    struct ub_error *err);
/* Flushes, closes and renames; on any write error removes the temporary
 * file and fails with the error's cause ("PATH: cannot write: No space
 * left on device"). */
int ub_outfile_commit(struct ub_outfile *o, struct ub_error *err);
/* Closes and removes the temporary file. */
void ub_outfile_abort(struct ub_outfile *o);

/* The cause of f's first write error, after flushing and closing it (0:
 * none); f is closed either way. */
int ub_close_errno(FILE *f);

/* rename(2) of tmp over path while holding an exclusive flock(2) on the
 * file path names now, so that a --append in progress on it finishes
 * first (and one waiting sees that the file was replaced). */
int ub_rename_locked(const char *tmp, const char *path);

/* name as a file name, at most UB_STEM_MAX bytes: letters, digits and
 * . - _ + kept, every other byte '_' (a leading '.' too), a longer name
 * cut and ended by '-' and 16 hex digits of its digest (stem.c). */
#define UB_STEM_MAX 120
void ub_file_stem(const char *name, char out[UB_STEM_MAX + 1]);

#endif
