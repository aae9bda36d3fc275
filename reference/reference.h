/* reference.h — the MPFR reference: the exact value of an expression at
 * given inputs, and that value correctly rounded to a target format
 * (round to nearest even, subnormals and overflow as IEEE 754 says). */
#ifndef UB_REFERENCE_H
#define UB_REFERENCE_H

#include "expr.h"

/* The precision cap of Ziv's loop, in bits (docs/reference.md): the
 * time budget below stops an element first. */
#define UB_REF_PREC_MAX 4194303
/* The shaped ops' reference (ref_shaped.c) doubles its precision up to
 * this many bits. */
#define UB_REF_SHAPED_PREC_MAX 8191

/* The time an element may take, in CPU seconds of the thread that
 * evaluates it (docs/reference.md, --ref-budget): the calling thread's
 * budget (0: none), its default, and the thread's clock.  An element past
 * it is undecided (UB_UND_TIME), never guessed. */
#define UB_REF_BUDGET_DEFAULT 0.25
void ub_ref_set_budget(double seconds);
double ub_ref_budget(void);
double ub_ref_clock(void);

/* ub_ref_eval's answer for an element whose rounding it could not decide
 * within UB_REF_PREC_MAX bits, neither by precision nor by the exact
 * evaluation (docs/reference.md): *cr is the canonical quiet NaN (no
 * value), *exact is marked undecided (ub_exact_undecided), err says
 * between which two encodings.  Not an exit status: such an element is
 * counted and shown, never guessed, and never stops a run. */
#define UB_REF_UNDECIDED (-2)

/* Evaluates e with variable k bound to the value of in[k] (bits of dtype
 * dt).  Writes the correctly rounded result's encoding to *cr (NaN as the
 * canonical quiet NaN of dt) and the exact value to *exact (NULL allowed:
 * faster when the rounding is decided early).  Returns 0,
 * UB_REF_UNDECIDED, UB_USAGE when e uses a variable >= nin or is deeper
 * than dag.h allows, or UB_RUNTIME when out of memory. */
int ub_ref_eval(const struct ub_expr *e, enum ub_dtype dt,
		const uint64_t *in, int nin, uint64_t *cr,
		struct ub_exact *exact, struct ub_error *err);

/* Whether condition e holds at the inputs (as ub_ref_eval: the enclosures
 * at growing precision, then the exact evaluation): 0 with *truth set,
 * UB_REF_UNDECIDED when neither decides, or an error status. */
int ub_ref_pred(const struct ub_expr *e, enum ub_dtype dt, const uint64_t *in,
		int nin, int *truth, struct ub_error *err);

/* The same over arrays: inputs[k] all of dtype dt and length n; cr is
 * allocated (n elements of dt); exact, when not NULL, has room for n.  An
 * undecided element is marked in exact and the rest go on; without exact
 * it is an error (UB_RUNTIME naming the element). */
int ub_ref_eval_array(const struct ub_expr *e, enum ub_dtype dt,
		      const struct ub_array *inputs, int nin,
		      struct ub_array *cr, struct ub_exact *exact,
		      struct ub_error *err);
/* The same through ub_ref_eval_auto. */
int ub_ref_eval_array_auto(const struct ub_expr *e, enum ub_dtype dt,
			   const struct ub_array *inputs, int nin, int fast,
			   struct ub_array *cr, struct ub_exact *exact,
			   struct ub_error *err);

/* The fast path (ref_fast.c, docs/reference.md): decides the correctly
 * rounded result in double arithmetic with a rigorous error bound when
 * that is provably safe (f32, f16, bf16; + - * / fma sqrt rsqrt neg fabs
 * fmin fmax, conditions and if, and with LLVM libc the functions of
 * ref_fast_fn.c); returns 1 and fills *cr and *exact (NULL allowed; its
 * value within 2^-45 relative of the exact one, or 2^-22 of the format's
 * smallest subnormal), or 0: undecided, ask ub_ref_eval. */
int ub_ref_eval_fast(const struct ub_expr *e, enum ub_dtype dt,
		     const uint64_t *in, int nin, uint64_t *cr,
		     struct ub_exact *exact);

/* ub_ref_eval_auto over a chunk: n elements of the arrays in (nin of
 * them, dtype dt) into cr (room for n) and exact (n); an undecided
 * element is marked in exact and the rest go on.  0 or an error status. */
int ub_ref_eval_chunk(const struct ub_expr *e, enum ub_dtype dt,
		      const struct ub_array *in, int nin, size_t n, int fast,
		      struct ub_array *cr, struct ub_exact *exact,
		      struct ub_error *err);

/* d rounded once to dt (f32, f16, bf16), nearest-even, with subnormals and
 * overflow to infinity: the encoding (the fast path's decision). */
uint64_t ub_fast_round(enum ub_dtype dt, double d);

/* ub_ref_eval_fast when fast is set and it decides, else ub_ref_eval. */
int ub_ref_eval_auto(const struct ub_expr *e, enum ub_dtype dt,
		     const uint64_t *in, int nin, int fast, uint64_t *cr,
		     struct ub_exact *exact, struct ub_error *err);

/* Frees the calling thread's cache of MPFR variables (and MPFR's own
 * caches); the next evaluation rebuilds it.  Optional: for leak checkers
 * and threads that are done evaluating. */
void ub_ref_release(void);

#endif
