/* sbatch.h — the two job scripts of `ulpbench sbatch` (sbatch_script.c):
 * DIR/shards.sbatch, the job array of the shards, and DIR/merge.sbatch,
 * the job that merges their parts.
 *
 * A script is #SBATCH lines, read by sbatch and never by the shell, then
 * one `exec` line run by bash.  Every value of the exec line is quoted
 * for the shell (in single quotes, a ' inside as '\''), so no word of
 * the user's reaches bash unquoted; the only expansion is the array's
 * own "$SLURM_ARRAY_TASK_ID".  A value of an #SBATCH line cannot be
 * quoted that way (sbatch reads the line itself, and a newline would end
 * the header there and start a line of the script), so what can go there
 * is checked first: ub_sbatch_check() refuses a control character (a
 * newline, a carriage return, ...) in an --sbatch option, and a path with
 * a space, a control character or '%' (sbatch's file-name patterns); the
 * job's name keeps only letters, digits and "_.+-" of the op's name.  It
 * refuses a control character in any other value too (quoted, a newline
 * would still split the script's one command over lines). */
#ifndef UB_SBATCH_H
#define UB_SBATCH_H

#include "cli.h"

#include <limits.h>
#include <stdio.h>

struct ub_sbatch_job {
	const struct ub_cli *cli; /* the run's options, --sbatch, the reports */
	const char *name;         /* the op */
	char dir[PATH_MAX], cwd[PATH_MAX], exe[PATH_MAX]; /* absolute */
	int threads;
	char array[8192];         /* the shards to run, as --array takes them */
	size_t todo;
};

/* Whether j's values may go into #SBATCH lines: UB_USAGE naming the one
 * that may not ("sbatch: --sbatch '--time=1\n/bin/rm': ..."), with its
 * control characters escaped, else 0. */
int ub_sbatch_check(const struct ub_sbatch_job *j, struct ub_error *err);

/* A path as #SBATCH lines take it: no space, control character or '%'
 * (what names it, e.g. "--out", for the message). */
int ub_sbatch_path_ok(const char *what, const char *path, struct ub_error *err);

/* The scripts, onto f (checked with ub_sbatch_check() first). */
void ub_sbatch_shards(FILE *f, const struct ub_sbatch_job *j);
void ub_sbatch_merge(FILE *f, const struct ub_sbatch_job *j);

#endif
