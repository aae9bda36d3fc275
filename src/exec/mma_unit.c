/* mma_unit.c — the tensor cores' inner products (mma_unit.h): the model's
 * table per architecture, and one block-FMA chain in integer arithmetic.
 *
 * A term (a product, or c) is sig * 2^(exp - fb): sig an integer of fb
 * fraction bits (below 2^(fb + 2): a product of two significands in
 * [1, 2) is below 4), exp the term's exponent (for a product ea + eb, not
 * renormalised: alignment is to the largest such exponent, Khattak and
 * Mikaitis, section 4; MMA-Sim, fused_sum).  Aligned to E with F fraction
 * bits, a term is trunc(sig * 2^(exp - E + F - fb)), an integer below
 * 2^(F + 2); k + 1 of them (k <= 32) sum below 2^(F + 8) <= 2^33: int64
 * holds every sum exactly. */
#include "mma_unit.h"

#include <math.h>
#include <string.h>

static const struct {
	const char *name;
	int ebits, fbits;
} fmts[] = {
#define X(id, name, e, f) { name, e, f },
	UB_MMA_FMTS(X)
#undef X
};

const char *ub_mma_fmt_name(int fmt)
{
	return fmt >= 0 && fmt < UB_MMA_NFMTS ? fmts[fmt].name : "?";
}

int ub_mma_fmt_find(const char *s)
{
	for (int i = 0; i < UB_MMA_NFMTS; i++)
		if (!strcmp(fmts[i].name, s))
			return i;
	return -1;
}

static int is_fp8(int f)
{
	return f == UB_ME4M3 || f == UB_ME5M2;
}

/* The architectures: X(first sm, last sm, F, F for fp8 (0: no fp8), f16
 * and bf16 block, tf32 block (0: the instruction's k), whether the
 * sources measured it, source).  Blocks of 0 take the whole k of one
 * instruction (no split). */
#define SRC_A "Khattak and Mikaitis 2025 (A100: block FMA of 8, tf32 4, " \
	"1 extra alignment bit, RZ); Fasi et al. 2021 (A100); MMA-Sim (Ampere)"
#define SRC_H "Khattak and Mikaitis 2025 (H100: block of 16, tf32 8, 2 extra " \
	"bits, RZ; fp8 13 bits); MMA-Sim (Hopper, wgmma)"
static const struct arch {
	int lo, hi, frac, frac8, block16, block32;
	int known, known8;
	const char *source;
} archs[] = {
	{ 70, 70, 23, 0, 4, 4, 1, 0, "Fasi et al. 2021 (V100: blocks of 4, "
	  "no extra bit, RZ); Khattak and Mikaitis 2025; MMA-Sim (Volta)" },
	{ 72, 72, 23, 0, 4, 4, 0, 0, "modelled as sm_70 (not measured)" },
	{ 75, 75, 24, 0, 0, 0, 0, 0, "MMA-Sim (Turing: 1 extra bit, no split); "
	  "Fasi et al. 2021 measured a T4 as a V100: the sources differ" },
	{ 80, 80, 24, 0, 8, 4, 1, 0, SRC_A },
	{ 81, 88, 24, 0, 8, 4, 0, 0, "modelled as sm_80 (not measured)" },
	{ 89, 89, 24, 13, 8, 4, 1, 1, "MMA-Sim (Ada: as Ampere; fp8: 13 bits, "
	  "blocks of 16); Khattak and Mikaitis 2025 (L40S)" },
	{ 90, 99, 25, 13, 0, 0, 1, 0, SRC_H },
	{ 100, 119, 25, 25, 0, 0, 1, 0, "MMA-Sim (Blackwell: 2 extra bits, no "
	  "split); Khattak and Mikaitis 2025 (B200)" },
	{ 120, 129, 25, 25, 0, 0, 1, 1, "MMA-Sim (RTX Blackwell)" },
};

int ub_mma_model_get(int sm, int insn, int in, int k, struct ub_mma_model *m)
{
	const struct arch *a = NULL;
	for (size_t i = 0; i < sizeof archs / sizeof archs[0]; i++)
		if (sm >= archs[i].lo && sm <= archs[i].hi)
			a = &archs[i];
	if (!a || (sm < 80 && in != UB_MF16) || (sm < 89 && is_fp8(in)) ||
	    in == UB_MF32 || k < 1)
		return -1;
	memset(m, 0, sizeof *m);
	m->sm = sm;
	m->frac = a->frac;
	m->out_frac = 23;
	m->known = a->known;
	m->source = a->source;
	int blk = in == UB_MTF32 ? a->block32 : a->block16;
	if (in == UB_MF64) {   /* DMMA: IEEE fma in order (MMA-Sim) */
		m->frac = 52;
		blk = 1;
	}
	if (is_fp8(in)) {
		m->frac = a->frac8;
		m->out_frac = a->frac8 == 13 ? 13 : 23;
		m->known = a->known8;
		blk = sm == 89 ? 16 : 0;
		if (insn == UB_MMA_WGMMA && sm >= 90 && sm <= 99) {
			/* wgmma fp8: 13 bits, the whole k32 (MMA-Sim; Khattak
			 * and Mikaitis, H100: fma 32, 10 bits fewer) */
			m->known = 1;
			m->source = SRC_H;
		}
	}
	m->block = blk && blk < k ? blk : k;
	return 0;
}

/* One decoded operand: cls 0 zero, 1 finite, 2 infinite, 3 NaN; value
 * (-1)^sign * sig * 2^(exp - fb). */
struct term {
	int cls, sign, exp, fb;
	uint64_t sig;
};

static struct term decode(int fmt, uint64_t v)
{
	struct term t = { 0, 0, 0, fmts[fmt].fbits, 0 };
	int eb = fmts[fmt].ebits, fb = t.fb, bits = 1 + eb + fb;
	if (fmt == UB_MTF32) {   /* the f32 encoding's top 19 bits */
		v = (v & 0xffffffffu) >> 13;
		bits = 19;
	}
	uint64_t frac = v & ((1ull << fb) - 1);
	int e = (int)((v >> fb) & ((1u << eb) - 1)), emax = (1 << eb) - 1;
	int bias = (1 << (eb - 1)) - 1;
	t.sign = (int)((v >> (bits - 1)) & 1);
	if (fmt == UB_ME4M3 ? (e == emax && frac == 7) : e == emax) {
		t.cls = fmt != UB_ME4M3 && frac == 0 ? 2 : 3;
		return t;
	}
	t.sig = e ? frac | 1ull << fb : frac;
	t.exp = (e ? e : 1) - bias;
	t.cls = t.sig != 0;
	return t;
}

/* The canonical NaN and the infinities of an output format. */
static uint64_t out_nan(int fc)
{
	return fc == UB_MF16 ? 0x7fff : 0x7fffffff;
}

static uint64_t out_inf(int fc, int sign)
{
	return fc == UB_MF16 ? (uint64_t)sign << 15 | 0x7c00
			     : (uint64_t)sign << 31 | 0x7f800000;
}

static int bitlen(uint64_t x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

/* x * 2^-sh truncated (sh > 0) or exact (sh <= 0); x below 2^40. */
static uint64_t shift_trunc(uint64_t x, int sh)
{
	if (sh >= 64)
		return 0;
	return sh >= 0 ? x >> sh : x << -sh;
}

/* |S| * 2^(u) (u the unit's exponent) as format fc: f32 truncated to
 * out_frac fraction bits, f16 rounded to nearest even; a magnitude that
 * rounds to zero sets the doubt (its sign is open). */
static uint64_t normalise(uint64_t mag, int sign, int u, int fc, int out_frac,
			  unsigned *doubt)
{
	int f16 = fc == UB_MF16, emin = f16 ? -14 : -126, fr = f16 ? 10 : out_frac;
	int E = bitlen(mag) - 1 + u, eo = E > emin ? E : emin, sh = eo - fr - u;
	if (E >= (f16 ? 16 : 128))
		return out_inf(fc, sign);
	uint64_t m = shift_trunc(mag, sh);
	if (f16 && sh > 0 && sh < 64) {   /* to nearest, ties to even */
		uint64_t rem = mag & ((1ull << sh) - 1), half = 1ull << (sh - 1);
		m += rem > half || (rem == half && (m & 1));
	} else if (f16 && sh >= 64) {
		m = 0;   /* mag < 2^40: below half of the quantum */
	}
	if (!m) {
		*doubt |= UB_MMA_DOUBT_ZERO;
		return 0;
	}
	if (f16) {   /* (eo - emin) << 10 + m: normal, subnormal or carry */
		uint64_t r = ((uint64_t)(eo - emin) << 10) + m;
		return r >= 0x7c00 ? out_inf(fc, sign) : r | (uint64_t)sign << 15;
	}
	return (((uint64_t)(eo - emin) << 23) + (m << (23 - fr))) | (uint64_t)sign << 31;
}

/* Infinities and NaN among the products and c: 0 none, else *r set. */
static int specials(int fa, int fb, const uint64_t *a, const uint64_t *b, int k,
		    int fc, uint64_t c, uint64_t *r)
{
	int pinf = 0, ninf = 0, nan = 0;
	for (int i = 0; i <= k; i++) {
		struct term x = i < k ? decode(fa, a[i]) : decode(fc, c);
		struct term y = i < k ? decode(fb, b[i]) : (struct term){ 1, 0, 0, 0, 1 };
		if (x.cls == 3 || y.cls == 3 || (x.cls == 2 && y.cls == 0) ||
		    (x.cls == 0 && y.cls == 2))
			nan = 1;
		else if (x.cls == 2 || y.cls == 2)
			*(x.sign ^ y.sign ? &ninf : &pinf) = 1;
	}
	if (nan || (pinf && ninf))
		*r = out_nan(fc);
	else if (pinf || ninf)
		*r = out_inf(fc, ninf);
	return nan || pinf || ninf;
}

/* One block: c + the k products, fused (mma_unit.h, steps 1 to 5). */
static uint64_t block_fma(const struct ub_mma_model *m, int fa, int fb,
			  const uint64_t *a, const uint64_t *b, int k, int fc,
			  uint64_t c, unsigned *doubt)
{
	struct term t[33];
	uint64_t r;
	int n = 0, E = INT32_MIN;
	if (specials(fa, fb, a, b, k, fc, c, &r))
		return r;
	for (int i = 0; i < k; i++) {
		struct term x = decode(fa, a[i]), y = decode(fb, b[i]);
		if (!x.cls || !y.cls)
			continue;
		t[n] = (struct term){ 1, x.sign ^ y.sign, x.exp + y.exp, x.fb + y.fb,
				      x.sig * y.sig };
		E = t[n].exp > E ? t[n].exp : E;
		n++;
	}
	struct term tc = decode(fc, c);
	if (tc.cls) {
		t[n++] = tc;
		E = tc.exp > E ? tc.exp : E;
	}
	int64_t S = 0;
	for (int i = 0; i < n; i++) {
		uint64_t v = shift_trunc(t[i].sig, E - t[i].exp + t[i].fb - m->frac);
		if (v && t[i].exp < -133 && (i < n - 1 || !tc.cls))
			*doubt |= UB_MMA_DOUBT_TINY;
		S += t[i].sign ? -(int64_t)v : (int64_t)v;
	}
	if (!S)
		return 0;   /* an exact zero sum: +0 (both sources) */
	return normalise(S < 0 ? (uint64_t)-S : (uint64_t)S, S < 0, E - m->frac, fc,
			 m->out_frac, doubt);
}

/* f64 NaN as fma.rn.f64 makes it on sm_90 (ptx_num.h: b's, c's, a's
 * made quiet, else the default NaN). */
static uint64_t nan64(uint64_t a, uint64_t b, uint64_t c)
{
	const uint64_t q = 1ull << 51, inf = 0x7ff0000000000000ull;
	if ((b & ~(1ull << 63)) > inf)
		return b | q;
	if ((c & ~(1ull << 63)) > inf)
		return c | q;
	if ((a & ~(1ull << 63)) > inf)
		return a | q;
	return 0xfff8000000000000ull;
}

static uint64_t dmma(const uint64_t *a, const uint64_t *b, int k, uint64_t c,
		     unsigned *doubt)
{
	for (int i = 0; i < k; i++) {
		double x, y, z, r;
		memcpy(&x, &a[i], 8);
		memcpy(&y, &b[i], 8);
		memcpy(&z, &c, 8);
		r = fma(x, y, z);
		if (r != r) {
			c = nan64(a[i], b[i], c);
			*doubt |= UB_MMA_DOUBT_NAN64;
		} else {
			memcpy(&c, &r, 8);
		}
	}
	return c;
}

uint64_t ub_mma_dot(const struct ub_mma_model *m, int fa, int fb,
		    const uint64_t *a, const uint64_t *b, int k, int fc,
		    uint64_t c, unsigned *doubt)
{
	if (fa == UB_MF64)
		return dmma(a, b, k, c, doubt);
	int blk = m->block > 0 && m->block <= 32 ? m->block : 32;
	for (int i = 0; i < k; i += blk)
		c = block_fma(m, fa, fb, a + i, b + i, k - i < blk ? k - i : blk, fc, c,
			      doubt);
	return c;
}

double ub_mma_value(int fmt, uint64_t v)
{
	if (fmt == UB_MF64 || fmt == UB_MF32) {
		if (fmt == UB_MF32) {
			float f;
			uint32_t u = (uint32_t)v;
			memcpy(&f, &u, 4);
			return f;
		}
		double d;
		memcpy(&d, &v, 8);
		return d;
	}
	struct term t = decode(fmt, v);
	double s = t.sign ? -1.0 : 1.0;
	if (t.cls == 3)
		return NAN;
	if (t.cls == 2)
		return s * INFINITY;
	return s * ldexp((double)t.sig, t.exp - t.fb);
}
