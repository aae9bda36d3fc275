/* inputs_exhaustive.c — exhaustive inputs (--exhaustive, --range;
 * inputs.h): every encoding of the op's one input, in order, or every
 * pair of encodings of its two 16-bit inputs.
 *
 * One input, without --range: encodings 0 to 2^bits - 1 in their
 * unsigned order (f16/bf16: 65,536; f32: 2^32, both zeros, every
 * subnormal, normal, infinity and NaN payload).  --range LO:HI in hex
 * bits (0x3f800000:0x3fffffff): the encodings LO to HI in unsigned order.
 * --range LO:HI in values (-1:1, 0x1p-3:inf): every value v with LO <= v
 * <= HI, in increasing order of value (-0 before +0; no NaN).  At most
 * 2^32 encodings a run (f64 needs a --range).
 *
 * Two inputs (f16 or bf16 only): the 2^32 pairs (a, b) of encodings in
 * the order of the pair index p = a * 65536 + b, so input 0 is the slow
 * one; --range LO:HI selects pair indices LO to HI (hex such as
 * 0x0:0xffffff, or decimal integers). */
#include "inputs.h"
#include "ub_bits.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* "0x" followed by hex digits only: an encoding; anything else a value. */
static int parse_end(const char *s, size_t len, int *is_bits, uint64_t *bits,
		     double *v)
{
	char buf[64], *end;
	if (len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	size_t k = 2;
	if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) {
		while (k < len && isxdigit((unsigned char)buf[k]))
			k++;
	}
	*is_bits = k == len && len > 2;
	if (*is_bits) {
		*bits = strtoull(buf + 2, &end, 16);
		return len - 2 > 16 ? -1 : 0;
	}
	*v = strtod(buf, &end);
	return *end || isnan(*v) ? -1 : 0;
}

int ub_range_parse(const char *spec, struct ub_range *r, struct ub_error *err)
{
	const char *colon = strchr(spec, ':');
	int b1 = 0, b2 = 0;
	memset(r, 0, sizeof *r);
	if (!colon || parse_end(spec, (size_t)(colon - spec), &b1, &r->blo, &r->vlo) ||
	    parse_end(colon + 1, strlen(colon + 1), &b2, &r->bhi, &r->vhi))
		return ub_fail(err, UB_USAGE, "--range: '%s' is not LO:HI (values "
			       "such as -1:0x1p3, or encodings such as "
			       "0x3f800000:0x3fffffff)", spec);
	if (b1 != b2)
		return ub_fail(err, UB_USAGE, "--range: '%s' mixes an encoding "
			       "and a value (give both ends the same way)", spec);
	r->given = 1;
	r->is_bits = b1;
	r->spec = spec;
	if (b1 ? r->blo > r->bhi : r->vlo > r->vhi)
		return ub_fail(err, UB_USAGE, "--range: '%s' is empty (LO > HI)", spec);
	return 0;
}

/* The pair indices of r (hex encodings or integral values) into sw. */
static int pair_range(enum ub_dtype dt, const struct ub_range *r,
		      struct ub_sweep *sw, struct ub_error *err)
{
	uint64_t lo = 0, hi = UB_EXHAUSTIVE_MAX - 1;
	sw->pairs = 1;
	if (r && r->given && r->is_bits) {
		lo = r->blo;
		hi = r->bhi;
	} else if (r && r->given) {
		if (!(r->vlo >= 0 && r->vhi < 0x1p32 && r->vlo == floor(r->vlo) &&
		      r->vhi == floor(r->vhi)))
			return ub_fail(err, UB_USAGE, "--range: '%s' is not a range of "
				       "pair indices 0..4294967295 (two %s inputs: "
				       "pair a * 65536 + b)", r->spec, ub_dtypes[dt].name);
		lo = (uint64_t)r->vlo;
		hi = (uint64_t)r->vhi;
	}
	if (hi >= UB_EXHAUSTIVE_MAX)
		return ub_fail(err, UB_USAGE, "--range: 0x%llx is not a pair index "
			       "(two %s inputs: at most 0xffffffff)",
			       (unsigned long long)hi, ub_dtypes[dt].name);
	sw->first = lo;
	sw->count = hi - lo + 1;
	return 0;
}

int ub_sweep_make(enum ub_dtype dt, int nin, const struct ub_range *r,
		  struct ub_sweep *sw, struct ub_error *err)
{
	int bits = ub_dtypes[dt].bits;
	uint64_t top = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
	memset(sw, 0, sizeof *sw);
	sw->dt = dt;
	if (nin == 2 && bits != 16)
		return ub_fail(err, UB_USAGE, "--exhaustive: two %s inputs are 2^%d "
			       "pairs; every pair is for f16 and bf16 (2^32)",
			       ub_dtypes[dt].name, 2 * bits);
	if (nin == 2)
		return pair_range(dt, r, sw, err);
	if (!r || !r->given || r->is_bits) {
		uint64_t lo = r && r->given ? r->blo : 0;
		uint64_t hi = r && r->given ? r->bhi : top;
		if (hi > top)
			return ub_fail(err, UB_USAGE, "--range: 0x%llx is not a %s "
				       "encoding", (unsigned long long)hi,
				       ub_dtypes[dt].name);
		sw->first = lo;
		sw->count = hi - lo + 1; /* 0 when 2^64 */
	} else {
		int64_t lo = ub_ordered_bound(dt, r->vlo, 1);
		int64_t hi = ub_ordered_bound(dt, r->vhi, 0);
		double vl = ub_bits_to_double(dt, ub_from_ordered(dt, lo));
		double vh = ub_bits_to_double(dt, ub_from_ordered(dt, hi));
		if (lo > hi || vl < r->vlo || vh > r->vhi)
			return ub_fail(err, UB_USAGE, "--range: %s holds no %s value",
				       r->spec, ub_dtypes[dt].name);
		sw->ordered = 1;
		sw->first = (uint64_t)lo;
		sw->count = (uint64_t)hi - (uint64_t)lo + 1; /* no int64_t overflow */
	}
	if (sw->count == 0 || sw->count > UB_EXHAUSTIVE_MAX)
		return ub_fail(err, UB_USAGE, "--exhaustive: more than 2^32 %s "
			       "encodings; give a narrower --range",
			       ub_dtypes[dt].name);
	return 0;
}

uint64_t ub_sweep_at(const struct ub_sweep *sw, int k, uint64_t i)
{
	if (sw->pairs)
		return k ? (sw->first + i) & 0xffff : (sw->first + i) >> 16;
	if (sw->ordered)
		return ub_from_ordered(sw->dt, (int64_t)(sw->first + i));
	return sw->first + i;
}

/* An unordered sweep stores consecutive encodings, with a loop per dtype
 * (ub_store folds to one store); an ordered one goes by ub_sweep_at. */
UB_INLINE void fill_of(enum ub_dtype dt, uint64_t first, size_t n, void *data)
{
	for (size_t i = 0; i < n; i++)
		ub_store(dt, data, i, first + i);
}

/* Pairs: b runs through consecutive encodings, a steps every 65536. */
static void fill_pairs(uint64_t p, size_t n, uint16_t *a, uint16_t *b)
{
	for (size_t i = 0; i < n; i++, p++) {
		a[i] = (uint16_t)(p >> 16);
		b[i] = (uint16_t)p;
	}
}

void ub_sweep_fill(const struct ub_sweep *sw, uint64_t first,
		   struct ub_array *out)
{
	if (sw->pairs) {
		fill_pairs(sw->first + first, out[0].n, out[0].data, out[1].data);
		return;
	}
	if (sw->ordered) {
		for (size_t i = 0; i < out->n; i++)
			ub_array_set(out, i, ub_sweep_at(sw, 0, first + i));
		return;
	}
	switch (out->dt) {
#define X(id, name, bits, prec, emin, emax, npy, ctype)                        \
	case id:                                                               \
		fill_of(id, sw->first + first, out->n, out->data);             \
		break;
	UB_DTYPES(X)
#undef X
	default:
		break;
	}
}

int ub_exhaustive_check(const struct ub_op *op, const enum ub_dtype *dts,
			int ndtypes, const struct ub_range *r,
			struct ub_error *err)
{
	struct ub_sweep sw;
	if (op->ninputs != 1 && op->ninputs != 2)
		return ub_fail(err, UB_USAGE, "%s: --exhaustive is for ops of one "
			       "input (f16 or bf16: 65,536 encodings; f32: 2^32) or "
			       "two f16/bf16 inputs (2^32 pairs); %s has %d",
			       op->name, op->name, op->ninputs);
	for (int t = 0; t < ndtypes; t++) {
		if (op->ninputs == 2 && ub_dtypes[dts[t]].bits != 16)
			return ub_fail(err, UB_USAGE, "%s: --exhaustive over two inputs "
				       "is for f16 and bf16 (2^32 pairs); two %s inputs "
				       "are 2^%d", op->name, ub_dtypes[dts[t]].name,
				       2 * ub_dtypes[dts[t]].bits);
		int s = ub_sweep_make(dts[t], op->ninputs, r, &sw, err);
		if (s)
			return s;
	}
	return 0;
}

int ub_inputs_exhaustive(enum ub_dtype dt, int nin, const struct ub_range *r,
			 struct ub_array *out, struct ub_error *err)
{
	struct ub_sweep sw;
	int s = ub_sweep_make(dt, nin, r, &sw, err);
	if (s)
		return s;
	if (sw.count > UB_EXHAUSTIVE_KEEP_MAX)
		return ub_fail(err, UB_USAGE, "--exhaustive: %llu %s inputs are too "
			       "many to keep every element (--dump, --why, explain); "
			       "give a --range of at most 2^26 %s",
			       (unsigned long long)sw.count, ub_dtypes[dt].name,
			       sw.pairs ? "pairs" : "encodings");
	for (int k = 0; k < nin; k++)
		if (ub_array_alloc(&out[k], dt, (size_t)sw.count)) {
			while (k-- > 0)
				ub_array_free(&out[k]);
			return ub_fail(err, UB_RUNTIME, "out of memory");
		}
	ub_sweep_fill(&sw, 0, out);
	return 0;
}
