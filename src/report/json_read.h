/* json_read.h — reading JSON (RFC 8259) into a tree, for `ulpbench
 * compare` of two reports (docs/json.md).
 *
 * Strict: one value and blanks, nothing else; strings in UTF-8 with the
 * escapes of RFC 8259 (\uXXXX, surrogate pairs joined, written as UTF-8;
 * a lone surrogate or \u0000 is refused); numbers as JSON writes them,
 * read with strtod; at most UB_JSON_DEPTH nested arrays and objects.  A
 * duplicate key in an object is an error. */
#ifndef UB_JSON_READ_H
#define UB_JSON_READ_H

#include <stddef.h>

#include "ub.h"

#define UB_JSON_DEPTH 64

enum ub_jkind { UB_JNULL, UB_JBOOL, UB_JNUM, UB_JSTR, UB_JARR, UB_JOBJ };

struct ub_jval {
	enum ub_jkind kind;
	int b;                  /* UB_JBOOL */
	double num;             /* UB_JNUM */
	char *str;              /* UB_JSTR (NUL-terminated, no NUL inside) */
	size_t n;               /* UB_JARR, UB_JOBJ: elements or members */
	struct ub_jval *v;      /* their values */
	char **keys;            /* UB_JOBJ: their keys */
};

/* Parses the n bytes at text into *out (free with ub_json_free).
 * UB_USAGE "WHAT:LINE:COL: why" on malformed input (what names the
 * file). */
int ub_json_parse(const char *text, size_t n, const char *what,
		  struct ub_jval *out, struct ub_error *err);
void ub_json_free(struct ub_jval *v);

/* The member key of object o, or NULL (also when o is no object). */
const struct ub_jval *ub_json_get(const struct ub_jval *o, const char *key);

#endif
