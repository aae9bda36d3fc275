/* ub.c — the shared helpers of ub.h: errors, dtype table, bit patterns
 * (defined in ub_bits.h). */
#include "ub.h"
#include "ub_bits.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ub_fail(struct ub_error *err, int status, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof err->msg, fmt, ap);
		va_end(ap);
	}
	return status;
}

int ub_prefix(struct ub_error *err, int status, const char *fmt, ...)
{
	if (err) {
		char head[512];
		va_list ap;
		va_start(ap, fmt);
		int h = vsnprintf(head, sizeof head, fmt, ap);
		va_end(ap);
		size_t hl = h < 0 ? 0 : (size_t)h < sizeof head ? (size_t)h : sizeof head - 1;
		size_t room = sizeof err->msg - 1 - hl, ml = strlen(err->msg);
		memmove(err->msg + hl, err->msg, ml < room ? ml : room);
		memcpy(err->msg, head, hl);
		err->msg[hl + (ml < room ? ml : room)] = '\0';
	}
	return status;
}

const struct ub_dtype_info ub_dtypes[UB_NDTYPES] = {
#define X(id, name, bits, prec, emin, emax, npy, ctype) \
	[id] = {name, bits, prec, emin, emax, npy, ctype},
	UB_DTYPES(X)
#undef X
};

int ub_dtype_find(const char *name)
{
	for (int i = 0; i < UB_NDTYPES; i++)
		if (strcmp(ub_dtypes[i].name, name) == 0)
			return i;
	return -1;
}

const char *ub_dtype_names(char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < UB_NDTYPES && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? ", " : "", ub_dtypes[i].name);
	return buf;
}

double ub_bits_to_double(enum ub_dtype dt, uint64_t bits)
{
	return ub_bits_to_double_i(dt, bits);
}

int ub_bits_isnan(enum ub_dtype dt, uint64_t bits)
{
	return ub_bits_isnan_i(dt, bits);
}

int ub_bits_isinf(enum ub_dtype dt, uint64_t bits)
{
	return ub_bits_isinf_i(dt, bits);
}

int ub_same(enum ub_dtype dt, uint64_t a, uint64_t b)
{
	return ub_bits_same_i(dt, a, b);
}

int64_t ub_ordered(enum ub_dtype dt, uint64_t bits)
{
	return ub_bits_ordered_i(dt, bits);
}

uint64_t ub_from_ordered(enum ub_dtype dt, int64_t o)
{
	return o >= 0 ? (uint64_t)o : ub_dt_sign(dt) | (uint64_t)(-(o + 1));
}

int64_t ub_ordered_bound(enum ub_dtype dt, double v, int up)
{
	if (v == 0)
		return up ? -1 : 0; /* -0 : +0 */
	if (dt == UB_F64) { /* every double is an f64 value */
		uint64_t b;
		memcpy(&b, &v, sizeof b);
		return ub_ordered(dt, b);
	}
	int64_t hi = ub_ordered(dt, ub_dt_inf(dt)), lo = -hi - 1; /* +-inf */
	while (lo < hi) { /* the answer lies in [lo, hi] */
		/* hi - lo can exceed INT64_MAX (f64 spans 2^64 - 2^53 encodings):
		 * the difference in uint64_t, its half back in int64_t */
		int64_t mid = lo + (int64_t)(((uint64_t)hi - (uint64_t)lo + !up) / 2);
		double m = ub_bits_to_double(dt, ub_from_ordered(dt, mid));
		if (up ? m >= v : m <= v)
			up ? (hi = mid) : (lo = mid);
		else
			up ? (lo = mid + 1) : (hi = mid - 1);
	}
	return lo;
}

uint64_t ub_distance(enum ub_dtype dt, uint64_t a, uint64_t b)
{
	return ub_bits_distance_i(dt, a, b);
}

uint64_t ub_array_get(const struct ub_array *a, size_t i)
{
	return ub_load(a->dt, a->data, i);
}

void ub_array_set(struct ub_array *a, size_t i, uint64_t bits)
{
	ub_store(a->dt, a->data, i, bits);
}

int ub_array_alloc(struct ub_array *a, enum ub_dtype dt, size_t n)
{
	a->dt = dt;
	a->n = n;
	a->data = calloc(n ? n : 1, (size_t)ub_dtypes[dt].bits / 8);
	return a->data ? 0 : UB_RUNTIME;
}

void ub_array_free(struct ub_array *a)
{
	free(a->data);
	a->data = NULL;
	a->n = 0;
}

/* FNV-1a's step over 8 bytes at a time (little-endian words, then the
 * last bytes one by one), with a shift-xor after each multiply so that
 * high bits reach the low ones.  Each step is a bijection of h for a
 * given word (xor; multiply by an odd number; h ^= h >> 29), so two texts
 * that differ in one word, any one byte for instance, never hash alike. */
uint64_t ub_hash64(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, sizeof w);
		h = (h ^ w) * UINT64_C(0x100000001b3);
		h ^= h >> 29;
	}
	for (; i < n; i++) {
		h = (h ^ p[i]) * UINT64_C(0x100000001b3);
		h ^= h >> 29;
	}
	return h;
}

uint64_t ub_le_get(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

void ub_le_set(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

const char *const ub_undecided_names[UB_UND_N] = {
#define X(id, name, what) [id] = name,
	UB_UNDECIDED_CLASSES(X)
#undef X
};

/* The reason travels in the NaN's payload: a quiet NaN whose low bits
 * are why + 1 (no arithmetic touches an exact value's lo once marked). */
void ub_exact_mark(struct ub_exact *v, enum ub_undecided why)
{
	uint64_t bits = UINT64_C(0x7ff8000000000000) | (uint64_t)(why + 1);
	memcpy(&v->lo, &bits, sizeof bits);
}

enum ub_undecided ub_exact_why(const struct ub_exact *v)
{
	uint64_t bits;
	memcpy(&bits, &v->lo, sizeof bits);
	unsigned w = (unsigned)(bits & 0xff);
	return w >= 1 && w <= UB_UND_N ? (enum ub_undecided)(w - 1) : UB_UND_PRECISION;
}
