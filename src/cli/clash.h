/* clash.h — a command's outputs checked against each other and against
 * its inputs before any work: two reports given one file would keep only
 * one of them, and a report or dump written over an input destroys it.
 * Files are compared by identity (fileid.h: device and inode when the
 * file exists, else the resolved path), so links and other spellings of
 * one name are caught; terminals and other character devices (/dev/null)
 * lose nothing to two writers and are let be. */
#ifndef UB_CLASH_H
#define UB_CLASH_H

#include "cli.h"

struct ub_named {
	int output;
	const char *opt;   /* "--csv", "--input", "suite file" */
	char arg[4200];    /* as given ("x=a.npy"), for the message */
	char path[4096];   /* the file ("-": stdout) */
};

struct ub_clash {
	int n, cap;
	struct ub_named *v;
	const char *dump;  /* --dump DIR, or NULL */
	const char *op;    /* the op whose files DIR gets: OP.DTYPE.*.npy */
	int ndtypes;
	enum ub_dtype dtypes[UB_NDTYPES];
};

/* A file the command writes, or reads; 0, or -1 when out of memory. */
int ub_clash_add(struct ub_clash *c, int output, const char *opt,
		 const char *arg, const char *path);
/* cli's reports (--csv, --json, --html), --dump, and stdout when no
 * report is '-' (then what goes there instead: "the table"). */
int ub_clash_outputs(struct ub_clash *c, const struct ub_cli *cli,
		     const char *on_stdout_what);
/* cli's inputs: --input, --kernel, --fpcore, --catalog or the shipped
 * catalog, and op's kernel file when it has one (op may be NULL). */
int ub_clash_inputs(struct ub_clash *c, const struct ub_cli *cli,
		    const struct ub_op *op);
/* UB_USAGE naming both options when two outputs, or an output and an
 * input, are one file, or a file is one that --dump writes. */
int ub_clash_check(const struct ub_clash *c, struct ub_error *err);
void ub_clash_free(struct ub_clash *c);

/* The whole check for `ulpbench --op` as cli and op ask. */
int ub_clash_check_cli(const struct ub_cli *cli, const struct ub_op *op,
		       struct ub_error *err);

#endif
