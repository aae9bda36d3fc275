/* mufu.c — the measured models (mufu.h) over compact tables mapped from
 * the file ub_mufu_build writes.
 *
 * Compact form of a table T of n entries: the ordered encoding of every
 * 64th entry (anchors, int32), and per entry an int8 distance from the
 * line between its two anchors (integer arithmetic, so the same on every
 * machine); an entry too far from it (-128) is looked up in a sorted list
 * of escapes.  The outputs of these functions are smooth in their inputs,
 * so nearly every entry fits: about a byte an entry, 155 MB for the 14
 * tables (165 MB with the quick forms below), mapped and paged in as used
 * (a run through ex2 touches 17 MB).
 *
 * The tables of rcp, rsqrt and sqrt (over [1, 2) and [2, 4)) are looked
 * up at random by division-heavy kernels, where the two loads of the
 * compact form (anchors and distances, 8.5 MB a table) cost more than the
 * rest of the instruction.  Their entries are never more than a unit or
 * two from the correctly rounded value of the function at the entry's
 * input, computed in a few IEEE operations (base() below), so they also
 * have a quick form: 2 bits an entry, 0 that value, 1 one unit above, 2
 * one below, 3 look in the compact form (2 MB a table, one load).
 *
 * Even 2 MB is past the core's L2 cache, and the quick form's load of a
 * random divisor costs most of a div.approx.  So these tables have a
 * third, small form in front (`sure`, 128 KB a table): the unit rounds
 * the function's value up or down as if by a threshold that moves slowly
 * with the input.  Take the function's value in double (one IEEE
 * operation or two: the same bits everywhere; near() below), `lo` the
 * float below it and q the next 16 bits, its place between lo and the
 * float above; per block of 256 entries, A is the least q of an entry
 * that is not lo and C the largest q of one that is not lo + 1.  An entry
 * whose q is below A is lo, one whose q is above C is lo + 1: 98.7% of
 * rcp's entries (98.66% counted again through ub_mufu_rcp_sure_at),
 * 90.1% and 94.1% of rsqrt's (over [1, 2) and [2, 4)) and 99.8% and
 * 99.6% of sqrt's are decided so, with no load past those 128 KB.
 * Blocks of 1,024 (32 KB, the form before; file "UBMUFUT3") decide
 * 96.9%, 86.2%, 91.5%, 99.1% and 98.6%: atan_bwd's fastmath divisors
 * then went to the quick form 1.4% of the time, 0.83% now, and a
 * division that goes there costs 50-80 ns in a run, against 3 for one
 * the sure form decides.  The others go on to the quick form.
 * Every entry comes back through this chain in check_mufu.
 *
 * File: "UBMUFUT4", u32 tables, u32 0; per table a directory entry (char
 * name[16], u32 n, u32 escapes, u64 offsets of the anchors, the distances,
 * the escapes, the quick form and the sure form (0: none), u64 FNV-1a of
 * the decoded entries); then the data, each array 8-aligned.  Checked on
 * mapping: magic, names, sizes, offsets. */

#include "mufu.h"
#include "paths.h"

#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct ub_mufu_tab {
	uint32_t n, nesc;
	const int32_t *anchor; /* n / 64 + 2 */
	const int8_t *res;
	const uint32_t *esc;   /* nesc (index, value) pairs, by index */
	const uint8_t *quick;  /* n / 4, or NULL */
	const uint16_t *sure;  /* (A, C) per block of 256, or NULL */
	int id;
};

/* The models over these tables (their entries through tab_at, below). */
static inline uint32_t tab_at(const struct ub_mufu_tab *t, uint32_t i);
#define UB_MUFU_TAB const struct ub_mufu_tab *
#define UB_MUFU_AT(T, i) tab_at((T), (uint32_t)(i))
#include "mufu_model.h"

/* Entry i's input of the tables of rcp, rsqrt and sqrt: 1.m, or 2 * 1.m
 * for those over [2, 4) (m = i). */
static inline float entry_input(int id, uint32_t i)
{
	return ub_mufu_f32((id == UB_MT_RSQ1 || id == UB_MT_SQRT1 ? 0x40000000u
								  : 0x3f800000u) | i);
}

/* The correctly rounded function at entry i's input, a positive normal
 * float, in IEEE operations (1/sqrt in double: the same bits everywhere;
 * a quick form's codes count from it); 0 for the tables without a quick
 * form. */
static inline uint32_t base(int id, uint32_t i)
{
	float x = entry_input(id, i);
	switch (id) {
	case UB_MT_RCP: return ub_mufu_bits(1.0f / x);
	case UB_MT_RSQ0: case UB_MT_RSQ1: return ub_mufu_bits((float)(1.0 / sqrt((double)x)));
	case UB_MT_SQRT0: case UB_MT_SQRT1: return ub_mufu_bits(sqrtf(x));
	default: return 0;
	}
}

/* The function at entry i's input in double (rcp, rsqrt, sqrt), for
 * the sure form (ub_mufu_sure): one or two IEEE operations, the same bits
 * everywhere. */
static inline double near(int id, uint32_t i)
{
	double x = (double)entry_input(id, i);
	return id == UB_MT_RCP ? 1.0 / x : id == UB_MT_SQRT0 || id == UB_MT_SQRT1 ? sqrt(x)
									 : 1.0 / sqrt(x);
}

static int has_quick(int id)
{
	return id == UB_MT_RCP || id == UB_MT_RSQ0 || id == UB_MT_RSQ1 ||
	       id == UB_MT_SQRT0 || id == UB_MT_SQRT1;
}

static int32_t ord32(uint32_t u)
{
	return u < 0x80000000u ? (int32_t)u : -1 - (int32_t)(u & 0x7fffffffu);
}

static uint32_t unord32(int64_t o)
{
	return o >= 0 ? (uint32_t)o : (uint32_t)(-1 - o) | 0x80000000u;
}

/* The line between the anchors of entry i. */
static inline int64_t line_at(const int32_t *anchor, uint32_t i)
{
	int64_t a0 = anchor[i >> 6], a1 = anchor[(i >> 6) + 1];
	return a0 + (((a1 - a0) * (int64_t)(i & 63)) >> 6);
}

static uint32_t escape(const struct ub_mufu_tab *t, uint32_t i)
{
	uint32_t lo = 0, hi = t->nesc;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (t->esc[2 * mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->nesc && t->esc[2 * lo] == i ? t->esc[2 * lo + 1] : 0;
}

static inline uint32_t tab_at(const struct ub_mufu_tab *t, uint32_t i)
{
	if (t->sure) {
		uint32_t r = ub_mufu_sure(t->sure, i, near(t->id, i));
		if (r)
			return r;
	}
	if (t->quick) {
		unsigned c = t->quick[i >> 2] >> (2 * (i & 3)) & 3;
		if (c != 3)
			return base(t->id, i) + (c == 1) - (c == 2);
	}
	int r = t->res[i];
	if (r == -128)
		return escape(t, i);
	return unord32(line_at(t->anchor, i) + r);
}

static struct {
	struct ub_mufu_tab t[UB_NMT];
	int ready;
	char where[4400];
} mf;
static pthread_once_t mf_once = PTHREAD_ONCE_INIT;
const uint16_t *ub_mufu_rcp_sure;
const int32_t *ub_mufu_ex2_anchor;
const int8_t *ub_mufu_ex2_res;

const char *const ub_mufu_names[UB_NMT] = {
#define X(id, name, n) name,
	UB_MUFU_TABS(X)
#undef X
};
const uint32_t ub_mufu_sizes[UB_NMT] = {
#define X(id, name, n) n,
	UB_MUFU_TABS(X)
#undef X
};

#define DIR_ENTRY 72 /* 16 + 4 + 4 + 5 * 8 + 8 */

/* Points mf.t into the mapped file of size len; 0 when it all checks. */
static int attach(const unsigned char *p, size_t len)
{
	if (len < 16 + (size_t)UB_NMT * DIR_ENTRY || memcmp(p, "UBMUFUT4", 8) ||
	    ub_le_get(p + 8, 4) != UB_NMT)
		return -1;
	for (int k = 0; k < UB_NMT; k++) {
		const unsigned char *d = p + 16 + (size_t)k * DIR_ENTRY;
		uint64_t n = ub_le_get(d + 16, 4), nesc = ub_le_get(d + 20, 4),
			 oa = ub_le_get(d + 24, 8), orr = ub_le_get(d + 32, 8),
			 oe = ub_le_get(d + 40, 8), oq = ub_le_get(d + 48, 8),
			 os = ub_le_get(d + 56, 8);
		if (strncmp((const char *)d, ub_mufu_names[k], 16) || n != ub_mufu_sizes[k] ||
		    oa % 8 || oe % 8 || oa > len || len - oa < 4 * (n / 64 + 2) ||
		    orr > len || len - orr < n || oe > len || len - oe < 8 * nesc ||
		    (oq != 0) != has_quick(k) || oq > len || len - oq < n / 4 ||
		    (os != 0) != has_quick(k) || os % 8 || os > len || len - os < UB_MUFU_SURE_BYTES(n))
			return -1;
		mf.t[k] = (struct ub_mufu_tab){(uint32_t)n, (uint32_t)nesc,
			(const int32_t *)(const void *)(p + oa), (const int8_t *)(p + orr),
			(const uint32_t *)(const void *)(p + oe), oq ? p + oq : NULL,
			os ? (const uint16_t *)(const void *)(p + os) : NULL, k};
	}
	return 0;
}

static void load(void)
{
	char path[4096];
	struct ub_error err;
	if (ub_data_path("captures/mufu-sm90.tab", path, sizeof path, &err)) {
		snprintf(mf.where, sizeof mf.where, "%s", err.msg);
		return;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat sb;
	void *p = MAP_FAILED;
	if (fd >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0)
		p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (fd >= 0)
		close(fd);
	if (p == MAP_FAILED || attach(p, (size_t)sb.st_size)) {
		if (p != MAP_FAILED)
			munmap(p, (size_t)sb.st_size);
		snprintf(mf.where, sizeof mf.where, "%s: not a table file of this "
			 "ulpbench (run make)", path);
		return;
	}
	snprintf(mf.where, sizeof mf.where, "%s", path);
	ub_mufu_rcp_sure = mf.t[UB_MT_RCP].sure;
	ub_mufu_ex2_anchor = mf.t[UB_MT_EX2].anchor;
	ub_mufu_ex2_res = mf.t[UB_MT_EX2].res;
	mf.ready = 1;
}

int ub_mufu_ready(void)
{
	pthread_once(&mf_once, load);
	return mf.ready;
}

const char *ub_mufu_where(void)
{
	pthread_once(&mf_once, load);
	return mf.where;
}

uint32_t ub_mufu_entry(int id, uint32_t i)
{
	return tab_at(&mf.t[id], i);
}

uint32_t ub_mufu_eval(int fn, uint32_t a, uint32_t b, int ftz, int bf16)
{
	const struct ub_mufu_tab *T = mf.t;
	switch (fn) {
	case UB_MF_RCP:
		return ftz ? ub_mufu_rcp(&T[UB_MT_RCP], a) : ub_mufu_rcp_full(&T[UB_MT_RCP], a);
	case UB_MF_RSQRT:
	case UB_MF_SQRT: {
		int inv = fn == UB_MF_RSQRT;
		const struct ub_mufu_tab *t0 = &T[inv ? UB_MT_RSQ0 : UB_MT_SQRT0],
					 *t1 = &T[inv ? UB_MT_RSQ1 : UB_MT_SQRT1];
		return ftz ? ub_mufu_root(t0, t1, inv, a) : ub_mufu_root_full(t0, t1, inv, a);
	}
	case UB_MF_EX2:
		return ftz ? ub_mufu_ex2(&T[UB_MT_EX2], UB_MUFU_EX2_F, UB_MUFU_EX2_V, a)
			   : ub_mufu_ex2_full(&T[UB_MT_EX2], UB_MUFU_EX2_F, UB_MUFU_EX2_V, a);
	case UB_MF_LG2:
		return ftz ? ub_mufu_lg2(&T[UB_MT_LG2_0], &T[UB_MT_LG2_M1], a)
			   : ub_mufu_lg2_full(&T[UB_MT_LG2_0], &T[UB_MT_LG2_M1], a);
	case UB_MF_SIN:
	case UB_MF_COS: {
		int cosine = fn == UB_MF_COS;
		return ub_mufu_sincos_x(&T[cosine ? UB_MT_COS : UB_MT_SIN], UB_MUFU_TURNS_W,
					1, 1, cosine, ftz, a);
	}
	case UB_MF_DIV_APPROX:
	case UB_MF_DIV_FULL:
		return ub_mufu_div(&T[UB_MT_RCP], fn == UB_MF_DIV_FULL, ftz, a, b);
	case UB_MF_EX2_H:
		return tab_at(&T[bf16 ? UB_MT_EX2_BF16 : UB_MT_EX2_F16], a & 0xffff);
	default:
		return tab_at(&T[bf16 ? UB_MT_TANH_BF16 : UB_MT_TANH_F16], a & 0xffff);
	}
}

/* --- the compact form, for ub_mufu_build ------------------------------ */

int ub_mufu_compact(int id, const uint32_t *T, uint32_t n, struct ub_mufu_compact *c)
{
	uint32_t na = n / 64 + 2;
	c->anchor = malloc((size_t)na * 4);
	c->res = malloc(n);
	c->esc = NULL;
	c->nesc = 0;
	c->quick = has_quick(id) ? calloc(n / 4, 1) : NULL;
	c->sure = has_quick(id) ? malloc(UB_MUFU_SURE_BYTES(n)) : NULL;
	size_t cap = 0;
	if (!c->anchor || !c->res || (has_quick(id) && (!c->quick || !c->sure)))
		return -1;
	/* A: the least q of the block's entries that are not lo, C: the
	 * largest of those that are not lo + 1 (0xffff and 0 when none) */
	for (uint32_t b = 0; c->sure && b < n >> UB_MUFU_SURE_SHIFT; b++) {
		uint32_t A = 0xffff, C = 0;
		for (uint32_t i = b << UB_MUFU_SURE_SHIFT; i < (b + 1) << UB_MUFU_SURE_SHIFT; i++) {
			uint32_t lo, q = ub_mufu_sure_split(near(id, i), &lo);
			if (T[i] != lo && q < A)
				A = q;
			if (T[i] != lo + 1 && q > C)
				C = q;
		}
		c->sure[2 * b] = (uint16_t)A;
		c->sure[2 * b + 1] = (uint16_t)C;
	}
	for (uint32_t i = 0; c->quick && i < n; i++) {
		uint32_t b = base(id, i);
		unsigned code = T[i] == b ? 0 : T[i] == b + 1 ? 1 : T[i] == b - 1 ? 2 : 3;
		c->quick[i >> 2] |= (uint8_t)(code << (2 * (i & 3)));
	}
	for (uint32_t j = 0; j < na; j++)
		c->anchor[j] = ord32(T[(uint64_t)j * 64 < n ? j * 64 : n - 1]);
	for (uint32_t i = 0; i < n; i++) {
		int64_t d = (int64_t)ord32(T[i]) - line_at(c->anchor, i);
		if (d > -128 && d < 128) {
			c->res[i] = (int8_t)d;
			continue;
		}
		c->res[i] = -128;
		if (c->nesc == cap) {
			cap = cap ? 2 * cap : 1024;
			uint32_t *e = realloc(c->esc, cap * 8);
			if (!e)
				return -1;
			c->esc = e;
		}
		c->esc[2 * c->nesc] = i;
		c->esc[2 * c->nesc + 1] = T[i];
		c->nesc++;
	}
	return 0;
}
