/* ref_const.c — the enclosure of an FPCore literal: integers, decimals,
 * hex and rationals (exactly, or the two neighbours of MPFR's rounding),
 * the truth values, INFINITY and NAN, and the named constants (PI, E,
 * LOG2E, ...), each endpoint computed with outward rounding. */
#include "ref_internal.h"

#include <stdlib.h>
#include <string.h>

/* FPCore's other named constants as c(base) with base one of pi, e,
 * log 2, log 10, sqrt 2, sqrt pi: each endpoint computed with outward
 * rounding, so [lo, hi] encloses the constant. */
enum cbase { C_PI, C_E, C_LN2, C_LN10, C_SQRT2, C_SQRTPI };
enum cform { C_ID, C_HALF, C_QUARTER, C_INV, C_TWO_INV };
#define REF_CONSTS(X)                                                     \
	X("PI", C_PI, C_ID) X("E", C_E, C_ID) X("LN2", C_LN2, C_ID)       \
	X("LN10", C_LN10, C_ID) X("LOG2E", C_LN2, C_INV)                  \
	X("LOG10E", C_LN10, C_INV) X("PI_2", C_PI, C_HALF)                \
	X("PI_4", C_PI, C_QUARTER) X("M_1_PI", C_PI, C_INV)               \
	X("M_2_PI", C_PI, C_TWO_INV) X("M_2_SQRTPI", C_SQRTPI, C_TWO_INV) \
	X("SQRT2", C_SQRT2, C_ID) X("SQRT1_2", C_SQRT2, C_HALF)

static void base(mpfr_ptr y, enum cbase b, mpfr_rnd_t rnd)
{
	switch (b) {
	case C_PI: mpfr_const_pi(y, rnd); break;
	case C_E: mpfr_set_ui(y, 1, rnd); mpfr_exp(y, y, rnd); break;
	case C_LN2: mpfr_const_log2(y, rnd); break;
	case C_LN10: mpfr_log_ui(y, 10, rnd); break;
	case C_SQRT2: mpfr_sqrt_ui(y, 2, rnd); break;
	case C_SQRTPI: mpfr_const_pi(y, rnd); mpfr_sqrt(y, y, rnd); break;
	}
}

/* Whether s is one of REF_CONSTS; r encloses it. */
static int named(struct ub_ival *r, const char *s)
{
	static const struct { const char *name; enum cbase b; enum cform f; } k[] = {
#define X(name, b, f) {name, b, f},
		REF_CONSTS(X)
#undef X
	};
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
		if (strcmp(s, k[i].name) != 0)
			continue;
		int inv = k[i].f == C_INV || k[i].f == C_TWO_INV;
		base(r->lo, k[i].b, inv ? MPFR_RNDU : MPFR_RNDD);
		base(r->hi, k[i].b, inv ? MPFR_RNDD : MPFR_RNDU);
		if (inv) { /* 1/x, 2/x: decreasing, so the swapped ends */
			unsigned long num = k[i].f == C_TWO_INV ? 2 : 1;
			mpfr_ui_div(r->lo, num, r->lo, MPFR_RNDD);
			mpfr_ui_div(r->hi, num, r->hi, MPFR_RNDU);
		}
		if (k[i].f == C_HALF || k[i].f == C_QUARTER) { /* exact */
			unsigned long e = k[i].f == C_HALF ? 1 : 2;
			mpfr_div_2ui(r->lo, r->lo, e, MPFR_RNDD);
			mpfr_div_2ui(r->hi, r->hi, e, MPFR_RNDU);
		}
		return 1;
	}
	return 0;
}

/* A literal: integer, decimal, hex, rational, a named constant, INFINITY,
 * NAN, or the truth values TRUE (1) and FALSE (0). */
void ub_iv_number(struct ub_ival *r, const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (!*end && end - s < 18 && v != 0) { /* "-0" goes to mpfr_strtofr */
		mpfr_set_si(r->lo, v, MPFR_RNDN); /* exact at p >= 64 */
		ub_iv_from_ternary(r, 0);
	} else if (named(r, s)) {
		return;
	} else if (!strcmp(s, "TRUE") || !strcmp(s, "FALSE")) {
		mpfr_set_ui(r->lo, s[0] == 'T', MPFR_RNDN);
		ub_iv_from_ternary(r, 0);
	} else if (!strcmp(s, "INFINITY") || !strcmp(s, "NAN")) {
		if (s[0] == 'N')
			mpfr_set_nan(r->lo);
		else
			mpfr_set_inf(r->lo, 1);
		ub_iv_from_ternary(r, 0);
	} else if (strchr(s, '/')) {
		mpq_t q;
		mpq_init(q);
		mpq_set_str(q, s + (s[0] == '+'), 10);
		mpq_canonicalize(q);
		ub_iv_from_ternary(r, mpfr_set_q(r->lo, q, MPFR_RNDN));
		mpq_clear(q);
	} else {
		ub_iv_from_ternary(r, mpfr_strtofr(r->lo, s, &end, 0, MPFR_RNDN));
	}
}

