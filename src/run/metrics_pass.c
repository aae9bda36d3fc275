/* metrics_pass.c — the statistics of a row (metrics.h): what the rows of
 * a chunk share, prepared once from the reference, then one pass per row.
 *
 * A row's figures are the element-by-element definitions of metrics.c
 * (metrics_def.h).  The pass is arranged so that an element where the row
 * holds the correctly rounded result costs a load and a compare: its
 * error (ecr, the same in every such row), its histogram bin and its
 * share of the error sum were counted once by the preparation, over every
 * element that has one (PF_FAST), as if every row matched there.  Where a
 * row differs, the pass takes that share back out (counts and bins
 * subtracted, the sum by an exact subtraction of the shares' own exact
 * sum) and measures the element as the definition says.  The worst
 * element is the larger of the worst of those elements and the worst of
 * the matching ones: the first of the prepared largest (top) that the row
 * matches, or when it matches none of them a scan. */
#include "metrics.h"
#include "arena.h"
#include "metrics_def.h"
#include "metrics_list.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int ub_stats_prep_alloc(struct ub_stats_prep *p, size_t cap)
{
	memset(p, 0, sizeof *p);
	if (!cap)
		cap = 1;
	p->flag = malloc(cap);
	p->bin = malloc(cap);
	p->mul = malloc(cap * sizeof *p->mul);
	p->ecr = malloc(cap * sizeof *p->ecr);
	p->acc = calloc(UB_PREP_ACCS, sizeof *p->acc);
	if (p->flag && p->bin && p->mul && p->ecr && p->acc)
		return 0;
	ub_stats_prep_free(p);
	return UB_RUNTIME;
}

size_t ub_stats_prep_bytes(size_t cap)
{
	if (!cap)
		cap = 1;
	return 2 * ub_arena_size(cap) + 2 * ub_arena_size(cap * sizeof(double)) +
	       ub_arena_size(UB_PREP_ACCS * sizeof(struct ub_xsum_acc));
}

int ub_stats_prep_in(struct ub_stats_prep *p, size_t cap, struct ub_arena *a)
{
	memset(p, 0, sizeof *p);
	if (!cap)
		cap = 1;
	p->flag = ub_arena_get(a, cap);
	p->bin = ub_arena_get(a, cap);
	p->mul = ub_arena_get(a, cap * sizeof *p->mul);
	p->ecr = ub_arena_get(a, cap * sizeof *p->ecr);
	p->acc = ub_arena_get(a, UB_PREP_ACCS * sizeof *p->acc);   /* zeroed */
	return p->flag && p->bin && p->mul && p->ecr && p->acc ? 0 : UB_RUNTIME;
}

void ub_stats_prep_free(struct ub_stats_prep *p)
{
	free(p->flag);
	free(p->bin);
	free(p->mul);
	free(p->ecr);
	free(p->acc);
	p->acc = NULL;
	p->flag = p->bin = NULL;
	p->mul = p->ecr = NULL;
}

/* Element j (index - lo) of error e into p's largest: kept largest first,
 * and an element comes after every earlier one of the same error (indices
 * arrive in increasing order), so the list is ordered as the worst
 * element is chosen. */
static void top_insert(struct ub_stats_prep *p, size_t j, double e)
{
	size_t n = p->ntop;
	if (n == UB_PREP_TOP && !(e > p->ecr[p->top[n - 1]]))
		return;
	if (n < UB_PREP_TOP)
		p->ntop++;
	else
		n--; /* the last one drops out */
	while (n > 0 && e > p->ecr[p->top[n - 1]]) {
		p->top[n] = p->top[n - 1];
		n--;
	}
	p->top[n] = j;
}

/* The flags of element i and its factor 2^-k (*mul, 0 unless the exact
 * value is finite and the way is not PF_SLOW). */
UB_INLINE unsigned prep_flags(enum ub_dtype dt, uint64_t ci,
			      const struct ub_exact *v, double *mul)
{
	unsigned f = (ub_bits_isfinite_i(dt, ci) ? PF_CRFIN : 0) |
		     (ub_bits_isnan_i(dt, ci) ? PF_CRNAN : 0) |
		     (isfinite(v->hi) ? PF_EXFIN : 0) |
		     (ub_exact_undecided(v) ? PF_UNDEC : 0);
	*mul = 0;
	if (f & PF_EXFIN) {
		int k = ulp_exact_exp(dt, v->hi, v->lo);
		if (fabs(v->hi) > 0x1p1020 || k <= -1023)
			f |= PF_SLOW;
		else
			*mul = ub_pow2(-k);
	}
	if ((f & (PF_CRFIN | PF_EXFIN | PF_UNDEC | PF_SLOW)) == (PF_CRFIN | PF_EXFIN))
		f |= PF_FAST;
	return f;
}

/* The arrays and totals live in a local (struct prep_run, its functions
 * inlined) while the loop runs: a store to flag[] or bin[] (bytes) could
 * otherwise be any of p's fields, reloaded after each.  Once top holds UB_PREP_TOP elements, only an error above
 * its last one (least) enters: that test is done here, inline. */
struct prep_run {
	unsigned char *flag, *bin;
	double *mul, *ecr;
	size_t nfast, hist[UB_HIST_BINS];
	int full;          /* top holds UB_PREP_TOP, the least of them: */
	double least;
	struct ub_xsum_acc *acc;
};

UB_INLINE void prep_start(struct ub_stats_prep *p, struct prep_run *r)
{
	*r = (struct prep_run){ .flag = p->flag, .bin = p->bin, .mul = p->mul,
				.ecr = p->ecr, .acc = &p->acc[0] };
}

/* The error e of element j (index - lo), which has PF_FAST: its bin,
 * counts, share of the sum and place among the largest. */
UB_INLINE void prep_fast(struct ub_stats_prep *p, struct prep_run *r, size_t j, double e)
{
	int b = hist_bin(e);
	r->ecr[j] = e;
	r->bin[j] = (unsigned char)b;
	r->nfast++;
	r->hist[b]++;
	ub_xsum_acc_add(r->acc, e);
	if (!r->full || e > r->least) {
		top_insert(p, j, e);
		r->full = p->ntop == UB_PREP_TOP;
		if (r->full)
			r->least = r->ecr[p->top[UB_PREP_TOP - 1]];
	}
}

/* Element j (index - lo), result ci, exact value v. */
UB_INLINE void prep_elem(enum ub_dtype dt, uint64_t ci, const struct ub_exact *v, size_t j,
			 struct ub_stats_prep *p, struct prep_run *r)
{
	double mul;
	unsigned f = prep_flags(dt, ci, v, &mul);
	r->flag[j] = (unsigned char)f;
	r->mul[j] = mul;
	if (f & PF_FAST)   /* ulp_error_prep's way, y the result itself */
		prep_fast(p, r, j, err_fast(ub_bits_to_double_i(dt, ci), v, mul));
}

UB_INLINE void prep_end(struct ub_stats_prep *p, const struct prep_run *r)
{
	p->nfast = r->nfast;
	memcpy(p->hist, r->hist, sizeof r->hist);
	memset(&p->sum, 0, sizeof p->sum);
	ub_xsum_acc_flush(&p->sum, r->acc);
}

UB_INLINE void prep_of(enum ub_dtype dt, const void *cr,
		       const struct ub_exact *exact, size_t lo, size_t hi,
		       struct ub_stats_prep *p)
{
	struct prep_run r;
	prep_start(p, &r);
	for (size_t i = lo; i < hi; i++)
		prep_elem(dt, ub_load(dt, cr, i), &exact[i], i - lo, p, &r);
	prep_end(p, &r);
}

/* prep_of for f32 with the per-element arithmetic (the flags, the factor
 * 2^-k, the error) on 4 elements at once: GNU C vector types, each lane
 * the scalar operation of prep_flags and err_fast (the same bits),
 * compiled for AVX2 too (the CPU picks; the baseline x86-64 has no 64-bit
 * lane comparison; ASan's build keeps one version); the counts, bins,
 * sums and largest element by element, in order, as prep_of. */
typedef double pvd __attribute__((vector_size(32)));
typedef int64_t pvi __attribute__((vector_size(32)));
typedef uint32_t pvu __attribute__((vector_size(16)));
typedef float pvf __attribute__((vector_size(16)));
#define PV_PICK(m, a, b) (((m) & (a)) | (~(m) & (b)))

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("avx2", "default")))
#endif
static void prep_f32(const uint32_t *cr, const struct ub_exact *exact, size_t lo,
		     size_t hi, struct ub_stats_prep *p)
{
	const int64_t expo = INT64_C(0x7ff0000000000000), mant = (INT64_C(1) << 52) - 1;
	struct prep_run r;
	size_t i = lo;
	prep_start(p, &r);
	for (; hi - i >= 4; i += 4) {
		const struct ub_exact *v = &exact[i];
		pvu c;
		memcpy(&c, cr + i, sizeof c);
		pvd h = { v[0].hi, v[1].hi, v[2].hi, v[3].hi };
		pvd l = { v[0].lo, v[1].lo, v[2].lo, v[3].lo };
		pvi mag = __builtin_convertvector(c, pvi) & 0x7fffffff, uh = (pvi)h;
		pvi crfin = mag < 0x7f800000, crnan = mag > 0x7f800000;
		pvi exfin = (uh & expo) != expo, undec = l != l;
		/* ulp_exact_exp and spacing_exp of f32 (p 24, emin -126, emax 127) */
		pvi e = ((uh >> 52) & 0x7ff) - 1023;
		pvi below = ((uh & mant) == 0) & ~((l != 0) & ((l > 0) == (h > 0)));
		pvi k = PV_PICK(e > 127, (pvi){ 0 } + 104,
				PV_PICK(e < -126, (pvi){ 0 } - 149, e - 23 + (below & (e > -126))));
		pvi slow = exfin & ((((pvi)h & INT64_MAX) > INT64_C(0x7fb0000000000000)) |
				    (k <= -1023));   /* |h| > 2^1020: its bits */
		pvd mul = (pvd)((exfin & ~slow) & ((1023 - k) << 52));   /* 2^-k, normal */
		pvi fast = crfin & exfin & ~undec & ~slow;
		pvi f = (crfin & PF_CRFIN) | (crnan & PF_CRNAN) | (exfin & PF_EXFIN) |
			(undec & PF_UNDEC) | (slow & PF_SLOW) | (fast & PF_FAST);
		/* err_fast, y the correctly rounded float itself */
		pvd yd = __builtin_convertvector((pvf)c, pvd);
		pvd sd = yd - h, bb = sd - yd;
		pvd t = (yd - (sd - bb)) + (-h - bb);
		pvd er = (pvd)((pvi)(sd + (t - l)) & INT64_MAX) * mul;
		memcpy(&r.mul[i - lo], &mul, sizeof mul);
		/* the common case at once: all four with PF_FAST, none past
		 * bin 1, none entering top; their bins, counts, errors and
		 * flags as prep_fast gives them one by one */
		pvi in1 = (pvi)(er <= hist_upper[1]) & (pvi)(er <= r.least);
		pvi all = fast & in1;
		if (r.full && (all[0] & all[1] & all[2] & all[3])) {
			pvi b1 = -(pvi)(er > hist_upper[0]);   /* 0 or 1 */
			size_t n1 = (size_t)(b1[0] + b1[1] + b1[2] + b1[3]);
			memcpy(&r.ecr[i - lo], &er, sizeof er);
			for (int q = 0; q < 4; q++) {
				r.flag[i - lo + q] = (unsigned char)f[q];
				r.bin[i - lo + q] = (unsigned char)b1[q];
				ub_xsum_acc_add(r.acc, er[q]);
			}
			r.nfast += 4;
			r.hist[1] += n1;
			r.hist[0] += 4 - n1;
			continue;
		}
		for (int q = 0; q < 4; q++) {
			r.flag[i - lo + q] = (unsigned char)f[q];
			if (fast[q])
				prep_fast(p, &r, i - lo + q, er[q]);
		}
	}
	for (; i < hi; i++)   /* the last few */
		prep_elem(UB_F32, cr[i], &exact[i], i - lo, p, &r);
	prep_end(p, &r);
}

void ub_stats_prepare(const struct ub_array *cr, const struct ub_exact *exact,
		      size_t lo, size_t hi, struct ub_stats_prep *p)
{
	p->nfast = 0;
	p->ntop = 0;
	memset(p->hist, 0, sizeof p->hist);
	memset(&p->sum, 0, sizeof p->sum);
	if (cr->dt == UB_F32) {
		prep_f32(cr->data, exact, lo, hi, p);
		return;
	}
	switch (cr->dt) {
#define X(id, name, bits, prec, emin, emax, npy, ctype)                        \
	case id:                                                               \
		prep_of(id, cr->data, exact, lo, hi, p);                       \
		break;
	UB_DTYPES(X)
#undef X
	default:
		break;
	}
}

/* The worst of the elements [lo, hi) where y matches the correctly
 * rounded result and p prepared an error: into *e and *at (index - lo);
 * 0 when there is none. */
UB_INLINE int worst_matching(enum ub_dtype dt, const void *y, const void *cr,
			     const struct ub_stats_prep *p, size_t lo, size_t hi,
			     double *e, size_t *at)
{
	for (size_t t = 0; t < p->ntop; t++) {
		size_t j = p->top[t];
		if (ub_load(dt, y, lo + j) == ub_load(dt, cr, lo + j)) {
			*e = p->ecr[j];
			*at = j;
			return 1;
		}
	}
	if (p->ntop < UB_PREP_TOP)
		return 0; /* top held every such element */
	int found = 0;
	for (size_t i = lo; i < hi; i++)
		if ((p->flag[i - lo] & PF_FAST) && ub_load(dt, y, i) == ub_load(dt, cr, i) &&
		    (!found || p->ecr[i - lo] > *e)) {
			*e = p->ecr[i - lo];
			*at = i - lo;
			found = 1;
		}
	return found;
}

/* What a row's pass takes back out of the preparation's totals: the
 * elements with PF_FAST where the row differs (n of them, their bins,
 * their prepared errors added into minus), and the accumulator of the
 * row's own errors (sum, flushed into the row's sum_ulp at the end). */
struct taken {
	size_t n, hist[UB_HIST_BINS];
	struct ub_xsum_acc *minus, *sum;
};

/* s, the figures of the elements that p's totals do not hold (those
 * where the row differs, tk, and every element without PF_FAST),
 * completed with the totals of the matching ones; tk's accumulators
 * flushed. */
UB_INLINE void add_matching(enum ub_dtype dt, const struct ub_measure *m,
			    const struct ub_stats_prep *p, size_t lo, size_t hi,
			    struct taken *tk, struct ub_stats *s)
{
	double e = 0;
	size_t at = 0;
	struct ub_xsum minus;
	if (worst_matching(dt, m->y->data, m->cr->data, p, lo, hi, &e, &at)) {
		size_t run = m->first + lo + at;
		if (!s->ncomparable || e > s->max_ulp ||
		    (e == s->max_ulp && run < s->worst)) {
			s->max_ulp = e;
			s->worst = run;
		}
	}
	s->ncomparable += p->nfast - tk->n;
	s->nfinite += p->nfast - tk->n; /* PF_FAST: CRFIN, and y == cr */
	for (int b = 0; b < UB_HIST_BINS; b++)
		s->hist[b] += p->hist[b] - tk->hist[b];
	memset(&minus, 0, sizeof minus);
	ub_xsum_acc_flush(&minus, tk->minus);
	ub_xsum_acc_flush(&s->sum_ulp, tk->sum);
	ub_xsum_merge(&s->sum_ulp, &p->sum); /* normalizes */
	ub_xsum_sub(&s->sum_ulp, &minus);
}

/* Elements are looked at in blocks of PASS_BLOCK: first a cheap pass
 * lists (metrics_list.h) those that need a closer look, then only those
 * are measured, in increasing order as the definitions count them (the
 * first of equal worst errors, the first undecided). */
#define PASS_BLOCK UB_LIST_BLOCK
#define PASS_AHEAD 16

/* Element i (prepared at j = i - lo) of a row, listed by list_differing,
 * into s: its torch figures, and where it differs from the correctly
 * rounded result or has no prepared error its other figures (a PF_FAST
 * element's prepared share then into tk). */
UB_INLINE void measure_one(enum ub_dtype dt, const struct ub_measure *m,
			   const void *torch, const struct ub_stats_prep *p,
			   size_t i, size_t j, struct taken *tk, struct ub_stats *s)
{
	uint64_t yi = ub_load(dt, m->y->data, i), ci = ub_load(dt, m->cr->data, i);
	unsigned f = p->flag[j];
	double e;
	if (torch)
		add_torch(s, dt, yi, ub_load(dt, torch, i));
	if (f & PF_FAST) {
		if (yi == ci)
			return; /* counted by the preparation */
		tk->n++;
		tk->hist[p->bin[j]]++;
		ub_xsum_acc_add(tk->minus, p->ecr[j]);
	} else if (f & PF_UNDEC) { /* no reference to compare */
		if (!s->undecided++)
			s->first_undecided = m->first + i;
		s->undecided_why[ub_exact_why(&m->exact[i])]++;
		return;
	}
	if (!ub_bits_same_i(dt, yi, ci))
		s->cr_mismatch++;
	if (ulp_error_prep(dt, yi, ci, f, p->mul[j], &m->exact[i], &e))
		s->nan_mismatch++;
	else {
		add_error(s, tk->sum, m->first + i, e);
		s->nfinite += (f & PF_CRFIN) && ub_bits_isfinite_i(dt, yi);
	}
}

/* One block [b, e) of pass_of: its list, then its listed elements, each
 * asking for the exact value and prepared factor and error of the one
 * PASS_AHEAD places further down the list: a chunk's arrays have left
 * the L2 cache when the rows come to them, and the listed elements are
 * too sparse for the hardware's prefetch (docs/speed.md). */
UB_INLINE void pass_block(enum ub_dtype dt, const struct ub_measure *m,
			  const void *torch, const struct ub_stats_prep *p,
			  size_t lo, size_t b, size_t e, struct taken *tk,
			  struct ub_stats *s)
{
	uint16_t at[PASS_BLOCK];
	size_t n = list_differing(dt, m->y->data, m->cr->data, torch,
				  p->flag + (b - lo), b, e, at);
	size_t k = 0;
	for (; k + PASS_AHEAD < n; k++) {
		size_t a = b + at[k + PASS_AHEAD];
		__builtin_prefetch(&m->exact[a]);
		__builtin_prefetch(&p->mul[a - lo]);
		__builtin_prefetch(&p->ecr[a - lo]);
		measure_one(dt, m, torch, p, b + at[k], b + at[k] - lo, tk, s);
	}
	for (; k < n; k++)
		measure_one(dt, m, torch, p, b + at[k], b + at[k] - lo, tk, s);
}

/* One pass over m's elements [lo, hi) into st (reset first), with p
 * prepared over exactly [lo, hi) (p's index i - lo), run indices
 * m->first + i; always inlined so that each dtype gets its own loop with
 * the format's constants folded in (and one without a torch plan).  The
 * statistics live in a local while the loop runs (st might alias the
 * arrays).  Where a row is its own torch plan (the torch row), every
 * torch figure is 0 without a look. */
UB_INLINE void pass_of(enum ub_dtype dt, const struct ub_measure *m,
		       const struct ub_stats_prep *p, size_t lo, size_t hi,
		       struct ub_stats *st)
{
	const void *y = m->y->data;
	const void *torch = m->torch && m->torch->data != y ? m->torch->data : NULL;
	struct ub_stats s;
	struct taken tk = {.n = 0, .minus = &p->acc[1], .sum = &p->acc[2]};
	memset(&s, 0, sizeof s);
	s.n = hi - lo;
	for (size_t b = lo; b < hi; b += PASS_BLOCK) {
		size_t e = hi - b < PASS_BLOCK ? hi : b + PASS_BLOCK;
		if (torch)
			pass_block(dt, m, torch, p, lo, b, e, &tk, &s);
		else
			pass_block(dt, m, NULL, p, lo, b, e, &tk, &s);
	}
	add_matching(dt, m, p, lo, hi, &tk, &s);
	*st = s;
}

static void stats_pass(const struct ub_measure *m,
		       const struct ub_stats_prep *p, size_t lo, size_t hi,
		       struct ub_stats *st)
{
	switch (m->y->dt) {
#define X(id, name, bits, prec, emin, emax, npy, ctype)                        \
	case id:                                                               \
		pass_of(id, m, p, lo, hi, st);                                 \
		break;
	UB_DTYPES(X)
#undef X
	default:
		memset(st, 0, sizeof *st);
		break;
	}
}

/* The inputs of st's worst and first undecided elements, from m. */
static void find_inputs(const struct ub_measure *m, struct ub_stats *st)
{
	for (int k = 0; k < m->nin; k++) {
		if (st->ncomparable)
			st->worst_in[k] = ub_array_get(&m->in[k], st->worst - m->first);
		if (st->undecided)
			st->undecided_in[k] = ub_array_get(&m->in[k],
							   st->first_undecided - m->first);
	}
}

void ub_stats_measure_prep(const struct ub_measure *m,
			   const struct ub_stats_prep *p, struct ub_stats *st)
{
	stats_pass(m, p, 0, m->y->n, st);
	find_inputs(m, st);
}

int ub_stats_measure(const struct ub_measure *m, struct ub_stats *st)
{
	struct ub_stats part;
	struct ub_stats_prep p;
	size_t n = m->y->n;
	memset(st, 0, sizeof *st);
	if (n == 0)
		return 0;
	size_t cap = n < UB_STATS_CHUNK ? n : UB_STATS_CHUNK;
	if (ub_stats_prep_alloc(&p, cap))
		return UB_RUNTIME;
	for (size_t lo = 0; lo < n; lo += cap) {
		size_t hi = n - lo < cap ? n : lo + cap;
		ub_stats_prepare(m->cr, m->exact, lo, hi, &p);
		stats_pass(m, &p, lo, hi, &part);
		ub_stats_merge(st, &part);
	}
	ub_stats_prep_free(&p);
	find_inputs(m, st);
	return 0;
}

int ub_stats_compute(const struct ub_array *y, const struct ub_array *cr,
		     const struct ub_exact *exact,
		     const struct ub_array *torch, struct ub_stats *st)
{
	struct ub_measure m = {.y = y, .cr = cr, .torch = torch, .exact = exact};
	return ub_stats_measure(&m, st);
}
