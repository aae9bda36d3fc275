/* why.h — why a mode's results differ from the torch plan's or from the
 * correctly rounded ones, which instructions and source lines do it, the
 * source change that repairs it (verified by compiling it and running it
 * again), and where accuracy is lost (`ulpbench why`, `--why`; docs/why.md).
 *
 * For one row of a run that kept its arrays (cfg->stream 0):
 *  1. the mode's kernel is compiled again with line information
 *     (-lineinfo; Triton writes it always) and, for the candidates'
 *     sake, with -fmad=false too; the first must be the run's PTX
 *     instruction for instruction (else no source places are shown);
 *  2. the candidates (why_cand.h) are tried as variants of that PTX on
 *     the elements that differ, alone and together: greedy forward
 *     selection (each step adds the candidate that leaves the fewest
 *     differing elements, while that number falls), then, when
 *     differences remain and the whole set leaves fewer, backward
 *     elimination from the whole set.  Done for the torch plan and for
 *     the correctly rounded results apart;
 *  3. the chosen set is run on every element for its figures;
 *  4. the fix (why_fix.h): the source change for each chosen
 *     instruction, applied to a copy of the kernel's source (never the
 *     file itself), compiled in the mode and run on every element;
 *  5. accuracy blame (why_blame.h): on the elements farthest from the
 *     exact value, each instruction's local error. */
#ifndef UB_WHY_H
#define UB_WHY_H

#include <stdio.h>

#include "why_cand.h"
#include "result.h"

/* One candidate as the report shows it. */
struct ub_why_item {
	struct ub_why_cand c;
	uint32_t plain[UB_WHY_MAX_LINES]; /* its lines in the run's PTX (0:
				  not known), c.nlines of them */
	char place[192];       /* "atan_bwd.cu:5" ("" when unknown) */
	char code[160];        /* that source line, trimmed */
	/* alone, over the elements of the row that differ */
	size_t torch_fixed, torch_broken, cr_fixed, cr_broken;
	int in_torch, in_cr;   /* in the chosen set for torch / for cr */
};

/* One source change of the fix. */
struct ub_why_edit {
	char place[192];       /* "atan_bwd.cu:5" */
	char before[256], after[256]; /* the line, trimmed */
	char what[128];        /* "__fmul_rn for the contracted multiply" */
};

#define UB_WHY_MAX_EDITS 16

/* What a set of changes gives over every element. */
struct ub_why_figs {
	int done;              /* measured */
	size_t torch_mismatch, cr_mismatch, nan_mismatch;
	double max_ulp;
};

struct ub_why_blame {
	int done;
	char mn[64];
	uint32_t plain;        /* PTX line of the run's PTX (0: unknown) */
	char place[192], code[160];
	double local;          /* ulps this instruction loses (Herbie's local
				  error) at the worst element */
	double result_err;     /* its result against the exact value of its
				  subexpression, ulps */
	size_t elems, top;     /* elements looked at; where it was the worst */
	uint64_t in[UB_MAX_INPUTS]; /* the element */
	char note[160];        /* "overflows", "" */
};

struct ub_why_row {
	int row;               /* index into res->rows */
	char na[256];          /* why no attribution ("" when there is one) */
	char note[256];        /* a caveat ("no line information: ...") */
	size_t torch_n, cr_n;  /* the row's differing elements */
	int nitems;
	struct ub_why_item item[UB_WHY_MAX_CANDS];
	size_t torch_left, cr_left;      /* with the chosen sets */
	size_t torch_left_all, cr_left_all; /* with every candidate */
	char search_torch[96], search_cr[96]; /* which search found the sets */
	char noieee[64];       /* an approximate instruction of the kernel with
				  no IEEE form in PTX (ex2.approx.f32, ...),
				  which no candidate stands for; "" none */
	struct ub_why_figs chosen;       /* the torch set on every element */
	/* the fix */
	int nedits;
	struct ub_why_edit edit[UB_WHY_MAX_EDITS];
	char fix_flags[256];   /* options changed for the file ("" none) */
	char fix_na[256];      /* why there is no fix, or what is left */
	char fix_file[4200];   /* --fix-dir: where the fixed copy was saved */
	struct ub_why_figs fixed;        /* the fixed kernel, every element */
	struct ub_why_blame blame;
};

struct ub_why {
	int nrows;
	struct ub_why_row *rows;   /* one per measured mode row that differs */
	const char *fix_dir;       /* --fix-dir DIR: save the fixed copies */
};

/* Runs the analysis for every mode row of res (a run with cfg->stream 0)
 * that differs from the torch plan or from the correctly rounded
 * results, into *w (free with ub_why_free).  Errors: UB_USAGE, UB_COMPILE,
 * UB_RUNTIME (a kernel that failed). */
int ub_why_run(const struct ub_result *res, struct ub_why *w, struct ub_error *err);
void ub_why_free(struct ub_why *w);

/* The analysis of row r, or NULL. */
const struct ub_why_row *ub_why_of(const struct ub_why *w, int r);

/* The full report of `ulpbench why`. */
void ub_why_print(FILE *f, const struct ub_result *res, const struct ub_why *w);
/* The item of wr the report shows for item k and those it stands for
 * (the same kind and mnemonic at one source place, chosen alike: their
 * lines together, their counts added) into g; 0 when an earlier item
 * stands for k. */
int ub_why_group(const struct ub_why_row *wr, int k, struct ub_why_item *g);

/* The line the table prints under row wr ("why: ..."), into buf. */
const char *ub_why_line(const struct ub_why_row *wr, char *buf, size_t len);
/* The report's texts (docs/csv.md): the chosen set for the torch plan
 * (torch 1) or the correctly rounded result ("3223/3223: fma.rn.f32 at
 * ptx:84 (atan_bwd.cu:22) split"), the fix ("atan_bwd.cu:22: LINE |
 * OPTIONS"), the blame ("sub.rn.f32 ptx:40 k.cu:7 1182 ulp"). */
const char *ub_why_set_text(const struct ub_why_row *wr, int torch, char *buf,
			    size_t len);
const char *ub_why_fix_text(const struct ub_why_row *wr, char *buf, size_t len);
const char *ub_why_blame_text(const struct ub_why_row *wr, char *buf, size_t len);
/* The source place of each line of a mode's PTX as a run compiles it
 * (`explain`): the kernel compiled again with line information and
 * aligned with it (why_places.c).  place[k] of PTX line k ("" when not
 * known), code[k] that source line of the kernel's file. */
struct ub_why_places {
	uint32_t n;
	char (*place)[160];
	char (*code)[160];
};
int ub_why_places(const struct ub_config *cfg, enum ub_dtype dt, enum ub_mode mode,
		  struct ub_why_places *p, struct ub_error *err);
void ub_why_places_free(struct ub_why_places *p);

/* --fix-dir DIR: a directory that can be written (made when missing),
 * checked before any work; UB_USAGE or UB_IO naming it. */
int ub_why_check_dir(const char *dir, struct ub_error *err);

#endif
