/* kernel_roles.h — what a kernel's array does besides reading an input or
 * writing an output, as --args spells it: PARAM=TARGET[:ROLE[=ARG]]
 * (docs/user-kernels.md, "Your kernel does X: write Y").
 *
 *   P=OUT:inplace=IN   P starts as input IN and ends as output OUT
 *                      (P=OUT:inplace, or P=OUT alone for an output named
 *                      like an input: that input)
 *   P=OUT:acc=IN       the kernel adds into P, which starts as input IN:
 *                      OUT is compared as IN + the op's OUT (exactly,
 *                      rounded once; the torch plan adds in one more step)
 *   P=scratch:size=E   a buffer of E elements of P's type, E an integer
 *                      expression of n, rows, cols and numbers (+ - * /,
 *                      parentheses), never compared
 *
 * The roles are declared once; parsing and the size expression are in
 * kernel_roles.c. */
#ifndef UB_KERNEL_ROLES_H
#define UB_KERNEL_ROLES_H

#include "ub.h"

/* X(ID, spelling, ARG's meaning, what it says) */
#define UB_ROLES(X)                                                         \
	X(UB_RL_INPLACE, "inplace", "INPUT", "starts as INPUT, ends as the output") \
	X(UB_RL_ACC, "acc", "INPUT", "the kernel adds into it; it starts as INPUT") \
	X(UB_RL_SIZE, "size", "EXPR", "scratch: EXPR elements, not compared")

enum ub_role_id {
	UB_RL_NONE,
#define X(id, name, arg, what) id,
	UB_ROLES(X)
#undef X
	UB_NROLES
};

/* One binding's right-hand side, TARGET[:ROLE[=ARG]]. */
struct ub_role {
	char target[96];
	enum ub_role_id role;
	char arg[160];         /* "" when no =ARG */
};

/* text (what follows PARAM=) into r; UB_USAGE "--args: P=TEXT: ..." naming
 * the roles when ROLE is not one. */
int ub_role_parse(const char *param, const char *text, struct ub_role *r,
		  struct ub_error *err);

/* "out:inplace=INPUT, out:acc=INPUT, scratch:size=EXPR", for messages. */
const char *ub_role_list(void);

/* The value of a scratch size expression: integers, n, rows, cols (the
 * values given; rows and cols 0 where the run has none), + - * / and
 * parentheses; UB_USAGE naming the expression when it is not one, or is
 * not a count in 1..2^40. */
int ub_role_size(const char *expr, unsigned long long n, unsigned long long rows,
		 unsigned long long cols, unsigned long long *v, struct ub_error *err);

#endif
