/* report.h — what a run produces: the table, the CSV, per-element dumps. */
#ifndef UB_REPORT_H
#define UB_REPORT_H

#include <stdio.h>

#include "run.h"

/* The aligned table for people. */
void ub_report_table(FILE *f, const struct ub_result *res);

/* CSV columns, declared once: X(name).  The first 13 are the contract of
 * docs/csv.md; more may follow, never reordered. */
#define UB_CSV_COLUMNS(X)                                                \
	X(op) X(dtype) X(mode) X(backend) X(n) X(max_ulp) X(worst_input)  \
	X(mean_ulp) X(cr_mismatch) X(torch_mismatch) X(torch_max_dist)     \
	X(nan_mismatch) X(sim_exact) X(approx) X(seed) X(inputs)           \
	X(toolkit) X(arch) X(options) X(status)

/* Writes the CSV (header and one line per row) to f; main.c writes it
 * through a ub_outfile, so a failed run leaves no partial file. */
void ub_report_csv(FILE *f, const struct ub_result *res);

/* Writes DIR/OP.DTYPE.MODE.npy, DIR/OP.DTYPE.torch.npy, DIR/OP.DTYPE.ref.npy
 * for every dtype, in the inputs' shape; every file goes to a temporary
 * name first and all are renamed only when all were written. */
int ub_report_dump(const char *dir, const struct ub_result *res,
		   struct ub_error *err);

/* Formats the worst input as "x=0x3f800001;g=0xbf000000". */
void ub_format_worst(const struct ub_row *row, char *buf, size_t len);
/* Names of the approximate instructions in mask, joined by '|'. */
void ub_format_approx(uint64_t mask, char *buf, size_t len);

#endif
