/* why_cand.h — the instructions that may explain why a mode differs, and
 * the kernel's PTX with some of them computed otherwise (variants).
 *
 * The candidates of a kernel compiled in one mode:
 *   split  each fma.rn the compiler contracted from a multiply and an add
 *          (an fma at a source place where the same compile with
 *          -fmad=false has fewer fma: there the source wrote a*b+c, not
 *          fmaf), computed as mul.rn then add.rn, as the source wrote it;
 *   round  each mul without a rounding modifier that ptxas fuses into
 *          the adds reading it (the interpreter's model, ptx_fuse.c),
 *          rounded on its own (mul.rn);
 *   ieee   each approximate instruction with an IEEE form in PTX
 *          (div.approx, div.full -> div.rn; rcp.approx -> rcp.rn;
 *          sqrt.approx -> sqrt.rn);
 *   noftz  flush-to-zero, removed from every instruction at once (one
 *          candidate: -ftz is a flag of the whole file).
 * ex2, lg2, sin, cos, tanh and rsqrt .approx have no IEEE form in PTX;
 * the source change that avoids them (expf for __expf, ...) is tried on
 * the source itself (why_fix.h).
 *
 * A variant is the PTX text with a set of candidates edited, line for
 * line (a split writes its two instructions and the temporary's
 * declaration on the fma's line), so that every other line keeps its
 * number. */
#ifndef UB_WHY_CAND_H
#define UB_WHY_CAND_H

#include "why_ptx.h"

/* X(ID, name, what the variant does) */
#define UB_WHY_EDITS(X)                                                     \
	X(UB_EDIT_SPLIT, "split", "computed as a separately rounded multiply and add") \
	X(UB_EDIT_ROUND, "round", "rounded on its own, not fused into its add by ptxas") \
	X(UB_EDIT_IEEE, "ieee", "replaced by the IEEE form (div.rn, rcp.rn, sqrt.rn)") \
	X(UB_EDIT_NOFTZ, "noftz", "removed (-ftz=false)")

enum ub_edit_kind {
#define X(id, name, what) id,
	UB_WHY_EDITS(X)
#undef X
	UB_NEDITS
};
extern const char *const ub_edit_names[UB_NEDITS], *const ub_edit_what[UB_NEDITS];

#define UB_WHY_MAX_CANDS 64
#define UB_WHY_MAX_LINES 32

/* One candidate: an instruction (the report groups those of the same
 * kind and mnemonic at one source place that the search treats alike: an
 * unrolled loop, an expression inlined several times). */
struct ub_why_cand {
	int kind;              /* enum ub_edit_kind */
	int nlines;
	uint32_t line[UB_WHY_MAX_LINES]; /* its lines in the text (none:
				  noftz, every line) */
	char mn[64];           /* the instruction as compiled */
	char to[96];           /* what the variant runs instead */
	struct ub_loc loc;
	int maybe_explicit;    /* split: -fmad=false keeps some fma at its
				  place too, so it may be an fmaf */
};

/* Whether an fma of t is the source's own (UB_FMA_EXPLICIT) or a
 * contraction (UB_FMA_CONTRACTED), when a trace told (its operands and
 * result computed by an fma of the -fmad=false compile too, or not);
 * UB_FMA_UNKNOWN: the pairing of the two texts decides. */
enum { UB_FMA_UNKNOWN, UB_FMA_EXPLICIT, UB_FMA_CONTRACTED };

/* The candidates of t (a kernel compiled in one mode, with line
 * information when t->has_loc), given nofma (the same compile with
 * -fmad=false, or NULL when there is none: then every fma is taken as
 * contracted when the mode contracts at all, maybe_explicit set), the
 * verdicts on its fma per line of t (NULL: none) and the lines of the
 * muls the ptxas model fuses (fused, nfused).  At most max; returns how
 * many. */
int ub_why_candidates(const struct ub_ptxtext *t, const struct ub_ptxtext *nofma,
		      const unsigned char *verdict, const uint32_t *fused, int nfused,
		      struct ub_why_cand *c, int max);

/* The text of t with candidates c[k] edited where on[k] (n of them),
 * malloc'd into *out.  UB_RUNTIME when out of memory, UB_USAGE when an
 * instruction cannot be rewritten (then the candidate should not have
 * been offered). */
int ub_why_variant(const struct ub_ptxtext *t, const struct ub_why_cand *c,
		   const unsigned char *on, int n, char **out,
		   struct ub_error *err);

#endif
