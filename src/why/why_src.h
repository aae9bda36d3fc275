/* why_src.h — source changes a CUDA (or Triton) programmer makes to keep
 * an expression from being contracted or approximated, made on one line
 * of a kernel's source text:
 *
 *   a * b          ->  __fmul_rn(a, b)      (f64 __dmul_rn, f16/bf16 __hmul_rn)
 *   a / b          ->  __fdiv_rn(a, b)      (f64 __ddiv_rn)
 *   UB_MUL(a, b)   ->  __fmul_rn(a, b)      (ulpbench.h's macros; UB_DIV too)
 *   __expf(x)      ->  expf(x)              (a call renamed: the fast
 *                                            intrinsics, __fdividef, sqrtf)
 *   a / b (Triton) ->  tl.math.div_rn(a, b)
 *
 * A site is the ord-th such operator (or call) of its kind on a line, so
 * that several sites of one line apply one after the other: each applied
 * binary operator disappears from the line, and the later ones of its kind
 * move one place down.  The operands are found as C's grammar has them
 * (postfix and unary expressions, casts, and the left operand of a chain
 * of * / %, which associate to the left), within the line; comments and
 * literals are skipped.  What cannot be read so is no site. */
#ifndef UB_WHY_SRC_H
#define UB_WHY_SRC_H

#include <stddef.h>

enum ub_src_type {
	UB_SRC_BIN,   /* a binary operator (op: "*" or "/") */
	UB_SRC_CALL   /* a call of function name (op) */
};

struct ub_src_site {
	unsigned line;
	int type;            /* enum ub_src_type */
	char op[32];         /* "*", "/", or the called name ("UB_MUL") */
	int ord;             /* which one of them on the line (0: the first) */
	char to[40];         /* the function that replaces it ("__fmul_rn",
				"tl.math.div_rn") or the new name */
};

/* How many sites of type/op line `line` of text has (comments and
 * literals aside; binary operators only where both operands can be
 * read); 0 when the line does not exist. */
int ub_src_count(const char *text, unsigned line, int type, const char *op);

/* text with sites s[0..n-1] applied in order (as the header says),
 * malloc'd into *out; -1 when a site cannot be applied (no such operator,
 * an operand that cannot be read), -2 when out of memory. */
int ub_src_apply(const char *text, const struct ub_src_site *s, int n, char **out);

#endif
