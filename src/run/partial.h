/* partial.h — a shard's partial file: the complete statistics of the part
 * of a run one process measured (`--shard K/N --partial FILE`), and what
 * identifies the run, so that `ulpbench merge` adds the parts into what
 * one process running the whole would have reported.
 *
 * A part holds, for every row of the run (each dtype's modes and its
 * torch row), every figure of struct ub_stats (UB_STATS_FIELDS), the
 * worst element, the approximate instructions run, and the row's figures
 * (figures.h: what the HTML page draws).  All of them merge exactly and
 * in any order (metrics.h, figures.h), so the merge of all N parts, in
 * any order, is the single run's state bit for bit.
 *
 * The file is text (docs/cluster.md shows one), one item a line:
 *
 *   ulpbench-partial 1                  format and its version
 *   shard K N
 *   id NAME VALUE                       each of UB_RUN_ID, in that order
 *   arg ARG                             the run's options (UB_ROLE_RUN), in order
 *   data DTYPE N REJECTED               each dtype: the run's elements, the
 *                                       candidates :pre rejected (the part's)
 *   row DTYPE MODE                      each row, then its items:
 *   na REASON|-                         the mode does not apply (why)
 *   approx HEX                          approximate instructions run (ptx.h)
 *   stat NAME VALUE...                  each of UB_STATS_FIELDS, in order
 *   worst MAX_ULP INDEX IN...           %a, decimal, hex per input
 *   first_undecided INDEX IN...         the first element the reference
 *                                       could not decide (stat undecided)
 *   figs HAS_TORCH                      a row that applies: its figures,
 *   fine BIN COUNT                      each fine bin not 0, in order
 *   cell INPUT COL N NAN TORCH MAX_DIST MAX_ULP   each cell with N > 0
 *   set NAME COUNT                      each of ub_partial_figsets, then
 *   e INDEX ERR IN,... Y CR TORCH DIST EXACT   COUNT of, in index order
 *                                       (%a for the reals, hex encodings)
 *   end
 *   checksum HEX                        ub_hash64 of every byte before this line
 *
 * Texts (VALUE, ARG, REASON) are %-escaped: bytes outside '!'..'~' and
 * '%' itself as %XX, so every item is one line of space-separated
 * words.  A file that does not end with a matching checksum line (cut
 * short, edited, damaged) is refused whole: one line, rerun that shard. */
#ifndef UB_PARTIAL_H
#define UB_PARTIAL_H

#include "metrics.h"
#include "result.h"
#include "figures.h"

#define UB_PARTIAL_MAGIC "ulpbench-partial"
#define UB_PARTIAL_VERSION 1

/* What identifies a run, declared once: X(name).  Two parts merge only
 * when every one is the same (the message names the first that is not);
 * partial_id.c says how each is made. */
#define UB_RUN_ID(X)                                                     \
	X(ulpbench_version) X(toolkit) X(op) X(catalog) X(catalog_hash)  \
	X(kernel) X(kernel_hash) X(dtypes) X(modes) X(n) X(seed)         \
	X(inputs) X(domain) X(reference) X(backend) X(arch) X(shards)

enum ub_run_id_field {
#define X(name) UB_ID_##name,
	UB_RUN_ID(X)
#undef X
	UB_NID
};
extern const char *const ub_run_id_names[UB_NID];

struct ub_run_id {
	char v[UB_NID][1024];
};

/* One row of a part. */
struct ub_prow {
	enum ub_dtype dt;
	char mode[32];
	char na[256];           /* "" when the mode applies */
	uint64_t approx;
	struct ub_stats st;
	struct ub_figs *fig;    /* owned; NULL when na */
};

struct ub_partial {
	struct ub_run_id id;
	size_t shard, nshards;
	int nin;                /* the op's inputs */
	int nargs;
	char **args;            /* the run's options, owned */
	int ndata;
	struct { enum ub_dtype dt; size_t n; uint64_t rejected; } data[UB_NDTYPES];
	int nrows;
	struct ub_prow rows[UB_NDTYPES * (UB_NMODES + 1)];
};

void ub_partial_free(struct ub_partial *p);

/* The element sets of f as a part names them (sample, torch, nan,
 * top0..top6), into set[UB_PARTIAL_NSETS]. */
#define UB_PARTIAL_NSETS (3 + UB_FIG_BANDS)
struct ub_figset {
	char name[8];
	struct ub_fig_elem *e;
	size_t *n, cap;
};
void ub_partial_figsets(struct ub_figs *f, struct ub_figset *set);

/* The part of res (a run of shard K of N: res->cfg->shard, nshards) with
 * identity id and options args (copied). */
int ub_partial_from_result(const struct ub_result *res,
			   const struct ub_run_id *id, const char *const *args,
			   int nargs, struct ub_partial *p, struct ub_error *err);

/* Writes p to path whole or not at all (outfile.h).  UB_IO on failure. */
int ub_partial_write(const char *path, const struct ub_partial *p,
		     struct ub_error *err);

/* Reads path into p (zeroed first).  UB_USAGE with one line naming the
 * file ("PATH: not a ulpbench partial file", "PATH: damaged: ...") when
 * it is not a complete partial file of this format. */
int ub_partial_read(const char *path, struct ub_partial *p,
		    struct ub_error *err);

/* The first field of UB_RUN_ID in which a and b differ, or -1. */
int ub_run_id_diff(const struct ub_run_id *a, const struct ub_run_id *b);

/* Adds part (another shard of acc's run: the same identity and rows,
 * checked by the caller with ub_partial_compatible) into acc. */
int ub_partial_merge(struct ub_partial *acc, const struct ub_partial *part,
		     struct ub_error *err);
/* part can be merged into acc: the same identity, options, data and
 * rows; else UB_USAGE with one line ("FIELD differs: ...") about part,
 * named by `name` (and acc by `accname`). */
int ub_partial_compatible(const struct ub_partial *acc, const char *accname,
			  const struct ub_partial *part, const char *name,
			  struct ub_error *err);

#endif
