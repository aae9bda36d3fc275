/* tp_common.c — devices, conversions, elementary functions, warp trees
 * and argument checks shared by the torch plan models (tp_internal.h). */
#include "tp_internal.h"
#include "ub_bits.h"

#include <stdarg.h>
#include <stdio.h>

static const struct tp_device devices[] = {
#define X(name, sms, warp, tpb, tpsm, smem) { name, sms, warp, tpb, tpsm, smem },
	TP_DEVICES(X)
#undef X
};
#define NDEVICES (sizeof devices / sizeof devices[0])

int tp_device_find(const char *name, struct tp_device *dev, struct ub_error *err)
{
	char list[128] = "";
	for (size_t i = 0; i < NDEVICES; i++) {
		if (strcmp(devices[i].name, name) == 0) {
			*dev = devices[i];
			return 0;
		}
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
			 i ? ", " : "", devices[i].name);
	}
	return ub_fail(err, UB_USAGE, "unknown device '%s' (valid: %s)", name, list);
}

void tp_device_default(struct tp_device *dev)
{
	*dev = devices[0];
}

const char *tp_status_name(enum tp_status st)
{
	switch (st) {
	case TP_EXACT: return "exact";
	case TP_ORDER: return "order";
	default: return "n/a";
	}
}

float tp_load(enum ub_dtype dt, uint64_t bits)
{   /* f16 and bf16 values are floats exactly (ub_bits.h decodes them) */
	return dt == UB_F32 ? tp_f((uint32_t)bits) : (float)ub_bits_to_double_i(dt, bits);
}

static uint64_t to_f16(float f)
{
	uint32_t u = tp_b(f), sign = (u >> 16) & 0x8000, mag = u & 0x7fffffff;
	if (mag > 0x7f800000)
		return 0x7fff;
	if (mag >= 0x477ff000) /* 65520 and above round to infinity */
		return sign | 0x7c00;
	if (mag < 0x38800000) { /* below 2^-14: a multiple of 2^-24 */
		float q = nearbyintf(fabsf(f) * 0x1p24f); /* exact scaling */
		return sign | (uint32_t)q;
	}
	uint32_t h = (((mag >> 23) - 112) << 10) | ((mag >> 13) & 0x3ff);
	uint32_t rem = mag & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
		h++; /* a carry into the exponent is the right result */
	return sign | h;
}

uint64_t tp_store(enum ub_dtype dt, float f)
{
	if (dt == UB_F16)
		return to_f16(f);
	uint32_t u = tp_b(f);
	if (dt == UB_BF16) {
		if ((u & 0x7fffffff) > 0x7f800000)
			return 0x7fc0;
		return (u + 0x7fff + ((u >> 16) & 1)) >> 16;
	}
	return (u & 0x7fffffff) > 0x7f800000 ? 0x7fffffff : u;
}

void tp_fn_init(struct tp_fn *fn, const struct tp_math *m)
{
	fn->m = m;
	fn->exact = 1;
}

/* The stand-ins: the host's double exp/log/sqrt rounded to float (within
 * an ulp of the true value; the same bits as Python's math module on this
 * machine, which the tests use). */
float tp_expf(const struct tp_fn *fn, float x)
{
	if (fn->m && fn->m->expf_ && fn->m->exact)
		return tp_f(fn->m->expf_(tp_b(x), fn->m->ctx));
	((struct tp_fn *)fn)->exact = 0;
	return (float)exp((double)x);
}

float tp_logf(const struct tp_fn *fn, float x)
{
	if (fn->m && fn->m->logf_ && fn->m->exact)
		return tp_f(fn->m->logf_(tp_b(x), fn->m->ctx));
	((struct tp_fn *)fn)->exact = 0;
	return (float)log((double)x);
}

float tp_rsqrtf(const struct tp_fn *fn, float x)
{
	if (fn->m && fn->m->rsqrtf_ && fn->m->exact)
		return tp_f(fn->m->rsqrtf_(tp_b(x), fn->m->ctx));
	((struct tp_fn *)fn)->exact = 0;
	return (float)(1.0 / sqrt((double)x));
}

enum tp_status tp_fn_status(const struct tp_fn *fn)
{
	return fn->exact ? TP_EXACT : TP_ORDER;
}

enum tp_status tp_na(struct tp_why *why, const char *fmt, ...)
{
	if (why) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why->msg, sizeof why->msg, fmt, ap);
		va_end(ap);
	}
	return TP_NA;
}

enum tp_status tp_check(const struct tp_device *dev, const struct tp_tensor *x,
			struct tp_why *why)
{
	if (x->dt != UB_F32 && x->dt != UB_F16 && x->dt != UB_BF16)
		return tp_na(why, "dtype %s: the plans model f32, f16 and bf16",
			     ub_dtypes[x->dt].name);
	if (x->rows == 0 || x->cols == 0)
		return tp_na(why, "empty tensor (%zu x %zu): PyTorch launches no kernel",
			     x->rows, x->cols);
	if (x->cols > INT32_MAX || x->rows > INT32_MAX / x->cols)
		return tp_na(why, "%zu x %zu elements: beyond the 32-bit indexing modelled",
			     x->rows, x->cols);
	if (dev->warp_size != 32)
		return tp_na(why, "warp size %d: the CUDA kernels are compiled for C10_WARP_SIZE 32",
			     dev->warp_size);
	if (dev->max_threads_per_block < 1024)
		return tp_na(why, "%d threads per block: the kernels launch up to 1024",
			     dev->max_threads_per_block);
	return TP_EXACT;
}

float tp_xor_sum(float *v, int w)
{
	for (int off = w / 2; off > 0; off /= 2)
		for (int i = 0; i < off; i++) {
			v[i] = v[i] + v[i + off];
			v[i + off] = v[i];
		}
	return v[0];
}

void tp_xor_max(float *v, int w)
{
	float t[32];
	for (int off = w / 2; off > 0; off /= 2) {
		for (int i = 0; i < w; i++)
			t[i] = tp_max_sel(v[i], v[i ^ off]);
		memcpy(v, t, (size_t)w * sizeof *v);
	}
}

static float down(float *v, int is_max)
{
	float t[32];
	for (int off = 16; off > 0; off /= 2) {
		for (int i = 0; i < 32; i++) {
			float b = i + off < 32 ? v[i + off] : v[i];
			t[i] = is_max ? tp_max_sel(v[i], b) : v[i] + b;
		}
		memcpy(v, t, sizeof t);
	}
	return v[0];
}

float tp_down_sum(float *v)
{
	return down(v, 0);
}

float tp_down_max(float *v)
{
	return down(v, 1);
}
