/* suite.h — accuracy suites (docs/suites.md): text files of runs, each a
 * line `run OP [OPTIONS]` with the options of the ulpbench command, and
 * below it the expectations its rows must meet, `[ROWS:] METRIC CMP VALUE`
 * (`fma: torch_mismatch > 0`).  `ulpbench suite FILE...` reads and checks
 * every file before running anything (errors: "FILE:LINE: ...", exit 2),
 * then runs each entry through ub_run() and prints each expectation that
 * failed beside the measured value (exit 1 if any). */
#ifndef UB_SUITE_H
#define UB_SUITE_H

#include "cli.h"
#include "report.h"
#include "user_kernel.h"

/* Comparisons, declared once: X(ID, text). */
#define UB_CMPS(X) \
	X(UB_CMP_EQ, "==") X(UB_CMP_NE, "!=") X(UB_CMP_LE, "<=") \
	X(UB_CMP_LT, "<") X(UB_CMP_GE, ">=") X(UB_CMP_GT, ">")

enum ub_cmp {
#define X(id, text) id,
	UB_CMPS(X)
#undef X
	UB_NCMPS
};

/* One expectation line: METRIC CMP bound over the rows it selects. */
struct ub_expect {
	int line;
	unsigned modes;     /* bit m: mode m; bit UB_NMODES: the torch row;
			       0: every mode of the run (not torch) */
	unsigned dtypes;    /* bit t: dtype t; 0: every dtype of the run */
	enum ub_col col;    /* an INT or REAL column */
	enum ub_cmp cmp;
	double bound;
	char bound_text[64]; /* as written */
	unsigned tks[UB_NMODES + 1]; /* a run of several toolkits: bit k of
			       tks[m], mode m's row under the run's toolkit
			       k (MODE@NAME); 0: under every toolkit */
	int pair;           /* ROW == ROW or ROW != ROW: whether rows[0] and
			       rows[1] give the same bits in every element
			       (cmp, no col) */
	char rows[2][40];   /* their labels, as the run names its rows */
};

/* One `run` line with its expectations, ready to run. */
struct ub_entry {
	const char *file;   /* the suite file (owned by struct ub_suite) */
	int line;
	char *text;         /* the run line, comment stripped */
	int argc;
	char **argv;        /* its words, as ub_cli_parse saw them */
	char *paths[UB_MAX_INPUTS + UB_MAX_FPCORE + UB_NVCC_MAX_FLAGS + 2];
				/* --catalog, --input, --fpcore, --kernel and
				   -I resolved against the suite's directory */
	struct ub_cli cli;
	struct ub_op op;    /* the catalog's op, --domain applied */
	struct ub_user_kernel uk; /* --kernel: the file, bound to op */
	struct ub_config cfg;
	int nexpect;
	struct ub_expect *expect;
};

struct ub_suite_catalog {
	char *key;          /* --catalog (empty: the shipped one), then each
			       --fpcore, one a line */
	struct ub_catalog cat;
};

struct ub_suite {
	int nfiles;
	char **files;
	int nentries;
	struct ub_entry *entries;
	int ncats;
	struct ub_suite_catalog *cats;
};

/* Reads and checks one suite file, appending its entries (the op exists,
 * the dtypes, domains, inputs and expectations make sense).  Errors:
 * UB_USAGE "FILE:LINE: ...". */
int ub_suite_load(struct ub_suite *s, const char *path, struct ub_error *err);
void ub_suite_free(struct ub_suite *s);

/* Whether the expectation holds for value v; and whether it selects row
 * of a run of cfg (its toolkits name MODE@NAME rows). */
int ub_expect_holds(const struct ub_expect *e, double v);
int ub_expect_selects(const struct ub_expect *e, const struct ub_config *cfg,
		      const struct ub_row *row);
extern const char *const ub_cmp_names[UB_NCMPS];

/* `ulpbench suite [--csv FILE [--append]] [--json FILE] [-q] FILE...`
 * (commands.h). */
int ub_cmd_suite(int argc, char **argv, struct ub_error *err);

#endif
