/* ub.c — the shared helpers of ub.h: errors, dtype table, bit patterns. */
#include "ub.h"

#include <math.h>
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

/* Field layout of a binary format: exponent bits = storage - precision. */
static void fields(enum ub_dtype dt, int *ebits, int *mbits)
{
	*mbits = ub_dtypes[dt].prec - 1;
	*ebits = ub_dtypes[dt].bits - 1 - *mbits;
}

double ub_bits_to_double(enum ub_dtype dt, uint64_t bits)
{
	if (dt == UB_F64) {
		double d;
		memcpy(&d, &bits, sizeof d);
		return d;
	}
	if (dt == UB_F32 || dt == UB_BF16) { /* a float holds both exactly */
		uint32_t u = dt == UB_F32 ? (uint32_t)bits : (uint32_t)bits << 16;
		float f;
		memcpy(&f, &u, sizeof f);
		return f;
	}
	int eb, mb;
	fields(dt, &eb, &mb);
	int sign = (int)(bits >> (eb + mb)) & 1;
	uint64_t e = (bits >> mb) & ((1u << eb) - 1);
	uint64_t m = bits & ((UINT64_C(1) << mb) - 1);
	int bias = (1 << (eb - 1)) - 1;
	double v;
	if (e == (uint64_t)(1u << eb) - 1)
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = ldexp((double)m, 1 - bias - mb); /* subnormal: exact */
	else
		v = ldexp((double)(m | (UINT64_C(1) << mb)), (int)e - bias - mb);
	return sign ? -v : v;
}

int ub_bits_isnan(enum ub_dtype dt, uint64_t bits)
{
	return isnan(ub_bits_to_double(dt, bits));
}

int ub_bits_isinf(enum ub_dtype dt, uint64_t bits)
{
	return isinf(ub_bits_to_double(dt, bits));
}

uint64_t ub_array_get(const struct ub_array *a, size_t i)
{
	switch (ub_dtypes[a->dt].bits) {
	case 16: return ((const uint16_t *)a->data)[i];
	case 32: return ((const uint32_t *)a->data)[i];
	default: return ((const uint64_t *)a->data)[i];
	}
}

void ub_array_set(struct ub_array *a, size_t i, uint64_t bits)
{
	switch (ub_dtypes[a->dt].bits) {
	case 16: ((uint16_t *)a->data)[i] = (uint16_t)bits; break;
	case 32: ((uint32_t *)a->data)[i] = (uint32_t)bits; break;
	default: ((uint64_t *)a->data)[i] = bits; break;
	}
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
