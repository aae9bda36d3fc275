/* user_value.c — the value a kernel's scalar parameter gets from --args
 * (user_kernel.h): "alpha=0.5", "scale=0x1.8p-3", "n=-3", "flag=true".
 *
 * A floating-point value is read as a double (strtod: correctly rounded,
 * hex floats exact), then converted to the parameter's type with one
 * rounding to nearest even, as a host call converts a double argument
 * (and PyTorch a Python float): float by the C conversion, __half and
 * __nv_bfloat16 by ub_codegen_round.  An integer is read exactly (not
 * through a double) and must fit the parameter's width and signedness. */
#include "user_kernel.h"
#include "codegen.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int float_bits(const struct ub_kparam *p, const char *v, uint64_t *bits,
		      struct ub_error *err)
{
	char *end;
	errno = 0;
	double d = strtod(v, &end);
	if (end == v || *end)
		return ub_fail(err, UB_USAGE, "--args: %s=%s: parameter '%s' (%s) takes "
			       "a number (0.5, 1e-3, 0x1.8p-3, inf)", p->name, v,
			       p->name, p->type);
	if (p->dtype == UB_F32) {
		float f = (float)d;
		uint32_t u;
		memcpy(&u, &f, sizeof u);
		*bits = u;
	} else if (p->dtype == UB_F64) {
		memcpy(bits, &d, sizeof d);
	} else {
		*bits = ub_codegen_round((enum ub_dtype)p->dtype, d);
	}
	return 0;
}

static int int_bits(const struct ub_kparam *p, const char *v, uint64_t *bits,
		    struct ub_error *err)
{
	char *end;
	int neg = v[0] == '-';
	errno = 0;
	uint64_t u = neg ? 0 : strtoull(v, &end, 0);
	int64_t s = neg ? strtoll(v, &end, 0) : 0;
	int w = p->bits;
	int ok = end != v && !*end && errno == 0 && (v[0] != '+' || !neg);
	if (ok && neg)   /* -2^(w-1) <= s */
		ok = p->is_signed && (w >= 64 || s >= -((int64_t)1 << (w - 1)));
	else if (ok)     /* u <= 2^(w - signed) - 1 */
		ok = w - p->is_signed >= 64 || u <= ((uint64_t)1 << (w - p->is_signed)) - 1;
	if (!ok)
		return ub_fail(err, UB_USAGE, "--args: %s=%s: parameter '%s' (%s) takes "
			       "n or a whole number that fits %d%s bits", p->name, v,
			       p->name, p->type, w, p->is_signed ? " signed" : " unsigned");
	*bits = (neg ? (uint64_t)s : u) & (w >= 64 ? ~0ull : ((uint64_t)1 << w) - 1);
	return 0;
}

int ub_kparam_value(const struct ub_kparam *p, const char *v, uint64_t *bits,
		    struct ub_error *err)
{
	switch (p->kind) {
	case UB_KP_FLOAT:
		return float_bits(p, v, bits, err);
	case UB_KP_INT:
		return int_bits(p, v, bits, err);
	case UB_KP_BOOL:
		if (!strcmp(v, "true") || !strcmp(v, "1"))
			return *bits = 1, 0;
		if (!strcmp(v, "false") || !strcmp(v, "0"))
			return *bits = 0, 0;
		return ub_fail(err, UB_USAGE, "--args: %s=%s: parameter '%s' (%s) takes "
			       "true, false, 1 or 0", p->name, v, p->name, p->type);
	default:
		return ub_fail(err, UB_USAGE, "--args: %s=%s: parameter '%s' (%s) takes "
			       "no value", p->name, v, p->name, p->type);
	}
}
