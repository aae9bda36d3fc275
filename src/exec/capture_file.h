/* capture_file.h — the file `ulpbench capture-approx` writes: the outputs
 * of approximate PTX instructions over structured sweeps of inputs, each
 * table stored compactly against a prediction (approx.h, approx_code.h).
 * The byte layout is documented in docs/approx-capture.md. */
#ifndef UB_CAPTURE_FILE_H
#define UB_CAPTURE_FILE_H

#include <stdio.h>

#include "approx.h"
#include "approx_code.h"
#include "ub.h"

#define UB_CAPTURE_MAGIC "UBAPPROX"
#define UB_CAPTURE_VERSION 2   /* 1: no turns or 16-bit tables; read too */
/* Outputs in one table, at most.  The fuzzing build (tests/fuzz/fuzz.mk)
 * lowers it, so that a short input describing a whole binade costs
 * milliseconds, not seconds, under the sanitizers. */
#ifndef UB_CAPTURE_MAX
#define UB_CAPTURE_MAX (UINT32_C(1) << 24)
#endif

/* Which inputs a table holds, declared once: X(ID, code in the file, name) */
#define UB_SWEEPS(X)                                                       \
	X(UB_SWEEP_MANTISSA, 0, "mantissas") /* one binade: every mantissa */ \
	X(UB_SWEEP_RANDOM, 1, "random")   /* seeded, uniform over encodings */ \
	X(UB_SWEEP_LIST, 2, "list")       /* inputs stored in the file */  \
	X(UB_SWEEP_TURNS, 3, "turns")     /* sin/cos: keys of |t| in turns */ \
	X(UB_SWEEP_ALL16, 4, "all16")     /* every 16-bit encoding */

enum ub_capture_sweep {
#define X(id, code, name) id = code,
	UB_SWEEPS(X)
#undef X
};

/* What a table's outputs are stored against. */
enum ub_pred {
	UB_PRED_NONE = 0,  /* nothing: the outputs' own ordered values */
	UB_PRED_MODEL = 1, /* ub_approx_predict() of the table's instruction */
	UB_PRED_TABLE = 2  /* the outputs of an earlier table, same inputs */
};

struct ub_capture_table {
	enum ub_approx_insn insn;
	enum ub_capture_sweep kind;
	int bits;          /* MANTISSA: mantissa bits swept, 1..23 (23: all);
			      TURNS: W, the fraction bits of the keys */
	uint64_t param;    /* MANTISSA: sign and biased exponent, the input's
			      top 9 bits; RANDOM: the seed; TURNS: the first
			      key (table i holds keys param..param+count-1) */
	uint32_t count;
	uint32_t *in;      /* the inputs (made by ub_sweep_inputs, or the
			      list) and outputs, count each, malloc'd */
	uint32_t *out;
	/* how it is stored (set by ub_capture_write, read back) */
	enum ub_pred pred;
	enum ub_coding coding;
	int base;          /* UB_PRED_TABLE: index of that table */
	uint64_t hash;     /* FNV-1a 64 of the outputs, little-endian */
	uint64_t bytes;    /* coded size */
	uint32_t differ;   /* outputs whose bits differ from the predictor */
	int64_t max_dist;  /* the largest |distance| from it, in units of
			      the format (ordered encodings) */
};

struct ub_capture {
	char info[4096];   /* "key=value\n" lines: device, driver, ... */
	int ntables;
	struct ub_capture_table *tables;
};

/* The inputs of a MANTISSA, RANDOM, TURNS or ALL16 sweep: count values
 * into in.  MANTISSA: param << 23 | i << (23 - bits).  RANDOM: the low 32
 * bits of splitmix64 number i+1 from state param (docs/approx-capture.md).
 * TURNS: the keys param + i.  ALL16: i. */
void ub_sweep_inputs(enum ub_capture_sweep kind, int bits, uint64_t param,
		     uint32_t count, uint32_t *in);

/* FNV-1a 64 of n outputs, each as 4 little-endian bytes (a table's hash). */
uint64_t ub_capture_hash(const uint32_t *v, uint32_t n);

/* The predictor of table t's output i (input in): ub_approx_predict, or
 * for TURNS the function at the key's turns (param + i) / 2^bits. */
uint32_t ub_capture_predict(const struct ub_capture_table *t, uint32_t i, uint32_t in);

/* "mantissas of [1, 2)", "random, seed 1", "list" into buf. */
const char *ub_sweep_describe(const struct ub_capture_table *t, char *buf,
			      size_t len);

/* Appends a table (takes in and out; they are freed with c). */
int ub_capture_add(struct ub_capture *c, const struct ub_capture_table *t,
		   struct ub_error *err);

/* Writes c to f, each table stored the most compact way (its prediction,
 * coding and statistics are set in c); the tables are coded in parallel,
 * one thread a CPU.  UB_IO on a write error. */
int ub_capture_write(FILE *f, struct ub_capture *c, struct ub_error *err);

/* Reads a whole file: every table decoded and its hash checked.
 * UB_USAGE "PATH: ..." for anything that is not a valid capture. */
int ub_capture_read(const char *path, struct ub_capture *c,
		    struct ub_error *err);

void ub_capture_free(struct ub_capture *c);

#endif
