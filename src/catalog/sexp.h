/* sexp.h — a small s-expression reader for FPCore text, with positions.
 *
 * Syntax: ( ) and [ ] (the same meaning; each must close its own kind),
 * ; comments to end of line, strings "..." with \" and \\ only, numbers
 * (decimal 12, -0.5, 1e-3, .5, and 0.5f0 read as 0.5e0; rational 1/3; hex
 * 0x1.8p3), :keywords, #e for (! :precision integer e) (FPCore 2.0's
 * shorthand) and symbols (anything else up to a delimiter).  Every node
 * knows its line:column (1-based, byte columns) for messages. */
#ifndef UB_SEXP_H
#define UB_SEXP_H

#include "ub.h"

enum ub_sx_kind { UB_SX_LIST, UB_SX_SYM, UB_SX_NUM, UB_SX_STR, UB_SX_KEY };

struct ub_sx {
	enum ub_sx_kind kind;
	int line, col;        /* where it starts */
	int eline, ecol;      /* lists: the closing bracket */
	char *text;           /* atoms: the token as written (keywords with
				 their ':'); strings: the unescaped content */
	int n;                /* lists: number of elements */
	struct ub_sx *kids;
};

/* Reads every top-level form of text into top, a list at 1:1.  Errors are
 * "FILE:LINE:COL: message" with status UB_USAGE (UB_RUNTIME if out of
 * memory); top is then empty. */
int ub_sx_read(const char *text, const char *file, struct ub_sx *top,
	       struct ub_error *err);
void ub_sx_free(struct ub_sx *x); /* frees what x holds, not x */

/* x written back as text (strings quoted, lists in parentheses) into buf,
 * truncated to len; returns buf. */
char *ub_sx_print(const struct ub_sx *x, char *buf, size_t len);

/* Whether x is a symbol spelled s. */
int ub_sx_is(const struct ub_sx *x, const char *s);

/* "FILE:LINE:COL: message" into err; returns UB_USAGE. */
int ub_sx_fail(struct ub_error *err, const char *file, int line, int col,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
