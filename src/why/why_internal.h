/* why_internal.h — what the parts of `ulpbench why` share: one row's
 * analysis (struct ub_why_ctx), compiling its kernel again, running PTX
 * texts over its elements. */
#ifndef UB_WHY_INTERNAL_H
#define UB_WHY_INTERNAL_H

#include "why.h"
#include "nvcc.h"

/* A set of elements of the run, with what they are compared with. */
struct ub_why_set {
	struct ub_data d;      /* in[], cr, torch, exact (owned, or the
				  run's own for the whole set) */
	struct ub_array y;     /* the row's results there */
	size_t *idx;           /* their run indices (NULL: 0..n-1) */
	size_t n;
	int owned;
};

/* Elements of a set that differ from torch and from the correctly
 * rounded results (decided elements only). */
struct ub_why_count {
	size_t torch, cr;
};

struct ub_why_ctx {
	const struct ub_result *res;
	const struct ub_config *cfg;   /* the row's dtype's */
	const struct ub_row *row;
	enum ub_mode mode;
	struct ub_why_set all, sub;    /* every element; those that differ */
	int sub_ok;                    /* the kernel gives the row's bits on
					  sub alone (else sub is all) */
	char *src;                     /* the kernel's source (CUDA C or
					  Python), for places and fixes */
	char *plain, *lined, *nofma;   /* PTX: as the run compiled it, with
					  line information, with -fmad=false
					  (NULL: none) */
	struct ub_ptxtext t, tn;       /* lined and nofma read */
	int ncand;
	struct ub_why_cand cand[UB_WHY_MAX_CANDS];
	const char *fix_dir;
};

/* The mode's kernel of ctx compiled with options opts (NULL: the mode's)
 * and extra ("-lineinfo", "-fmad=false -lineinfo"), from the source text
 * src (NULL: the kernel's own) or for a --kernel file from the unit u
 * (NULL: the run's), into *ptx.  For a Triton kernel extra may only ask
 * for -fmad=false (enable_fp_fusion=False); its PTX has line information
 * always. */
int ub_why_compile_mode(const struct ub_config *cfg, enum ub_dtype dt, enum ub_mode mode,
			size_t n, const char *opts, const char *extra, const char *src,
			const struct ub_nvcc_unit *u, char **ptx, struct ub_error *err);
int ub_why_compile(const struct ub_why_ctx *x, const char *opts, const char *extra,
		   const char *src, const struct ub_nvcc_unit *u, char **ptx,
		   struct ub_error *err);

/* The kernel compiled from text, a changed copy of its source, as
 * ub_why_compile compiles it (why_copy.c: a --kernel file's copy goes to
 * a temporary file, never over the user's file). */
int ub_why_compile_copy(const struct ub_why_ctx *x, const char *text,
			const char *opts, const char *extra, char **ptx,
			struct ub_error *err);
/* The same for a Triton kernel, in mode (fma or nofma). */
int ub_why_compile_triton_copy(const struct ub_why_ctx *x, const char *text,
			       enum ub_mode mode, char **ptx, struct ub_error *err);
/* text saved into x->fix_dir as NAME.fixed-DTYPE-MODE.EXT, whole or not
 * at all; its path into saved. */
int ub_why_save(const struct ub_why_ctx *x, const char *text, char *saved,
		size_t len, struct ub_error *err);

/* Runs the PTX text ptx as the mode's kernel over set s into out
 * (allocated; free with ub_array_free); on the interpreter. */
int ub_why_exec(const struct ub_why_ctx *x, const char *ptx,
		const struct ub_why_set *s, struct ub_array *out,
		struct ub_error *err);
/* The same, traced (ptx.h) on one element k of s. */
struct ptx_trace;
int ub_why_trace(const struct ub_why_ctx *x, const char *ptx,
		 const struct ub_why_set *s, size_t k, const struct ptx_trace *tr,
		 uint64_t *result, struct ub_error *err);

/* How many of s's elements out differs from torch and from cr at. */
struct ub_why_count ub_why_count(const struct ub_why_set *s, const struct ub_array *out);
/* Element i of s differs from torch / from the correctly rounded result
 * (never for an undecided element) when its result is v. */
int ub_why_torch_differs(const struct ub_why_set *s, size_t i, uint64_t v);
int ub_why_cr_differs(const struct ub_why_set *s, size_t i, uint64_t v);

/* The figures of out over every element (out is all's). */
int ub_why_figs(const struct ub_why_ctx *x, const struct ub_array *out,
		struct ub_why_figs *f, struct ub_error *err);

/* The sets of ctx: all (the run's arrays) and sub (the differing
 * elements, gathered); frees them. */
int ub_why_sets(struct ub_why_ctx *x, struct ub_error *err);
void ub_why_set_free(struct ub_why_set *s);

/* Attribution (why_search.c): the candidates of x over its sets into
 * wr's items, chosen sets and figures. */
int ub_why_attribute(struct ub_why_ctx *x, struct ub_why_row *wr,
		     struct ub_error *err);
/* The fix (why_fix.c). */
int ub_why_fix(struct ub_why_ctx *x, struct ub_why_row *wr, struct ub_error *err);
/* Accuracy blame (why_blame.c). */
int ub_why_blame(struct ub_why_ctx *x, struct ub_why_row *wr, struct ub_error *err);

/* Whether path (a .loc file) is the kernel's own source file (by name:
 * NVRTC's .file is the name it compiled, nvcc's the absolute path). */
int ub_why_own_file(const struct ub_config *cfg, const char *path);
int ub_why_is_kernel_file(const struct ub_why_ctx *x, const char *path);

/* Line k (1-based) of text, trimmed, into buf ("" when there is none). */
const char *ub_why_src_line(const char *text, unsigned k, char *buf, size_t len);

#endif
