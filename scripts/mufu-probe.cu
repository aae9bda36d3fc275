/* mufu-probe.cu — find the structure of the GPU's approximate
 * instructions (rcp, rsqrt, sqrt, ex2, lg2, sin, cos .approx.f32 with and
 * without .ftz, tanh.approx.f32) on every one of the 2^32 inputs, and
 * capture the tables that the models of src/exec/mufu_model.h need.
 *
 *   mufu-probe OUTDIR [PART...]  (nvcc -O3 -arch=sm_90 -fmad=false, see
 *                                 scripts/gpu-check)
 *
 * PART: rcp rsqrt sqrt ex2 lg2 tanh (structure, tables, verification),
 * sin cos, div (div.approx and div.full against their models over 2^32
 * pseudo-random pairs), tanhcap (tanh.approx.f32 over two whole binades),
 * half (the 16-bit ex2 and tanh on all 2^16 inputs, OUTDIR/mufu-half.bin);
 * all of them when none is named.
 *
 * For each instruction:
 * 1. structure tests (where the structure is not known beforehand: ex2,
 *    sin, cos, tanh): for a candidate key (which input bits the output
 *    depends on) and normalization (the exact scaling that makes outputs of
 *    the same key equal), a first pass over all 2^32 inputs records the
 *    first normalized output seen for each key, and a second counts the
 *    inputs whose normalized output differs from it ("conflicts");
 * 2. tables: the outputs over the inputs the chosen structure needs (every
 *    mantissa of a binade, or the table of the winning structure test);
 * 3. verification: the model of mufu_model.h, with those tables, against
 *    the hardware on all 2^32 inputs: the inputs where they differ are
 *    counted per input exponent and the first 2^19 kept (x, hw, model).
 *
 * Writes OUTDIR/probe.txt (the report), OUTDIR/mufu-tables.bin (the tables,
 * each as int8 distances from the predictor of src/exec/approx.c with
 * escapes) and OUTDIR/mufu-exceptions.bin (the differing inputs); the
 * formats are in docs/approx-capture.md.
 *
 * Built with -DPROBE_CPU it runs on the CPU with the predictor standing in
 * for the hardware, over a sample of the inputs: a dry run of the whole
 * program without a GPU. */
#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#ifdef PROBE_CPU
#define __host__
#define __device__
#define __global__
#define __forceinline__ inline
#endif
#define UB_MUFU_HD __host__ __device__
#include "mufu_model.h"
extern "C" {
#include "approx.h"
}

typedef unsigned u32;
typedef unsigned long long u64;

#define CAP (1u << 19) /* differing inputs kept per verification */
#define NB 512         /* buckets: the input's sign and exponent field */

#ifdef PROBE_CPU
static const u64 STEP = 4099; /* the dry run samples one input in STEP */
#define MAXBITS 23             /* and keeps its tables small */
static u64 atomic_add64(u64 *p, u64 v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
static void atomic_cas32(u32 *p, u32 cmp, u32 val)
{
	__atomic_compare_exchange_n(p, &cmp, val, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}
#else
static const u64 STEP = 1;
#define MAXBITS 28
__device__ static u64 atomic_add64(u64 *p, u64 v) { return atomicAdd(p, v); }
__device__ static void atomic_cas32(u32 *p, u32 cmp, u32 val) { atomicCAS(p, cmp, val); }
#define CK(call)                                                                    \
	do {                                                                        \
		cudaError_t e_ = (call);                                            \
		if (e_ != cudaSuccess) {                                            \
			fprintf(stderr, "mufu-probe: %s: %s\n", #call, cudaGetErrorString(e_)); \
			exit(1);                                                    \
		}                                                                   \
	} while (0)
#endif

/* The instruction itself, through inline PTX (the dry run: the predictor). */
template <int I> __device__ __forceinline__ u32 hw(u32 x)
{
#ifdef PROBE_CPU
	return ub_approx_predict((enum ub_approx_insn)I, x);
#else
	float r, a = __uint_as_float(x);
#define INSN(id, text)                                                         \
	if (I == id)                                                           \
		asm volatile(text " %0, %1;" : "=f"(r) : "f"(a));
	INSN(UB_AI_RCP_FTZ, "rcp.approx.ftz.f32")
	INSN(UB_AI_RCP, "rcp.approx.f32")
	INSN(UB_AI_RSQRT_FTZ, "rsqrt.approx.ftz.f32")
	INSN(UB_AI_RSQRT, "rsqrt.approx.f32")
	INSN(UB_AI_SQRT_FTZ, "sqrt.approx.ftz.f32")
	INSN(UB_AI_SQRT, "sqrt.approx.f32")
	INSN(UB_AI_EX2_FTZ, "ex2.approx.ftz.f32")
	INSN(UB_AI_EX2, "ex2.approx.f32")
	INSN(UB_AI_LG2_FTZ, "lg2.approx.ftz.f32")
	INSN(UB_AI_LG2, "lg2.approx.f32")
	INSN(UB_AI_SIN_FTZ, "sin.approx.ftz.f32")
	INSN(UB_AI_SIN, "sin.approx.f32")
	INSN(UB_AI_COS_FTZ, "cos.approx.ftz.f32")
	INSN(UB_AI_COS, "cos.approx.f32")
	INSN(UB_AI_TANH, "tanh.approx.f32")
#undef INSN
	return __float_as_uint(r);
#endif
}

/* ---- memory and sweeps, on the GPU or (dry run) the CPU ---- */
template <class T> static T *dev_alloc(u64 n)
{
	T *p;
#ifdef PROBE_CPU
	p = (T *)calloc(n ? n : 1, sizeof(T));
	if (!p) {
		fprintf(stderr, "mufu-probe: out of memory\n");
		exit(1);
	}
#else
	CK(cudaMalloc(&p, (n ? n : 1) * sizeof(T)));
	CK(cudaMemset(p, 0, (n ? n : 1) * sizeof(T)));
#endif
	return p;
}
template <class T> static void dev_free(T *p)
{
#ifdef PROBE_CPU
	free(p);
#else
	cudaFree(p);
#endif
}
static void dev_fill(u32 *p, u32 v, u64 n)
{
#ifdef PROBE_CPU
	for (u64 i = 0; i < n; i++)
		p[i] = v;
#else
	CK(cudaMemset(p, v & 0xff, n * 4)); /* v: 0 or 0xffffffff */
#endif
}
template <class T> static void to_host(T *dst, const T *src, u64 n)
{
#ifdef PROBE_CPU
	memcpy(dst, src, n * sizeof(T));
#else
	CK(cudaMemcpy(dst, src, n * sizeof(T), cudaMemcpyDeviceToHost));
#endif
}
template <class T> static void to_dev(T *dst, const T *src, u64 n)
{
#ifdef PROBE_CPU
	memcpy(dst, src, n * sizeof(T));
#else
	CK(cudaMemcpy(dst, src, n * sizeof(T), cudaMemcpyHostToDevice));
#endif
}

/* f(x) for x = i in [0, end) (every STEP-th in the dry run): a result b >= 0
 * counts one in bucket b of hist. */
template <class F> __global__ void k_sweep(F f, u64 end, u64 step, u64 *hist)
{
#ifdef PROBE_CPU
	for (u64 i = 0; i < end; i += step) {
		int b = f((u32)i);
		if (b >= 0)
			hist[b]++;
	}
#else
	__shared__ u64 h[NB];
	for (int k = threadIdx.x; k < NB; k += blockDim.x)
		h[k] = 0;
	__syncthreads();
	u64 stride = (u64)gridDim.x * blockDim.x * step, run = 0;
	int last = -1; /* a thread's counts of one bucket in a row, added at once */
	for (u64 i = ((u64)blockIdx.x * blockDim.x + threadIdx.x) * step; i < end; i += stride) {
		int b = f((u32)i);
		if (b < 0)
			continue;
		if (b != last && run) {
			atomicAdd(&h[last], run);
			run = 0;
		}
		last = b;
		run++;
	}
	if (run)
		atomicAdd(&h[last], run);
	__syncthreads();
	for (int k = threadIdx.x; k < NB; k += blockDim.x)
		if (h[k])
			atomicAdd(&hist[k], h[k]);
#endif
}

/* Runs f over every input (or over 2^bits of them when bits < 32: x = i,
 * for tables); returns the histogram. */
template <class F> static std::vector<u64> sweep(F f, u64 end = 1ull << 32, u64 step = STEP)
{
	static u64 *hist;
	if (!hist)
		hist = dev_alloc<u64>(NB);
	std::vector<u64> h(NB);
#ifdef PROBE_CPU
	memset(hist, 0, NB * 8);
	k_sweep(f, end, step, hist);
#else
	CK(cudaMemset(hist, 0, NB * 8));
	k_sweep<<<132 * 16, 256>>>(f, end, step, hist);
	CK(cudaGetLastError());
	CK(cudaDeviceSynchronize());
#endif
	to_host(h.data(), hist, NB);
	return h;
}

static u64 total(const std::vector<u64> &h)
{
	u64 t = 0;
	for (u64 v : h)
		t += v;
	return t;
}

/* ---- the report ---- */
static FILE *rep;
static std::string outdir;
static auto t_start = std::chrono::steady_clock::now();

static void say(const char *fmt, ...)
{
	va_list ap;
	char line[4096];
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
	fprintf(rep, "%s\n", line);
	fflush(rep);
	printf("[%6.1fs] %s\n", s, line);
	fflush(stdout);
}

/* The buckets with counts, as "e=EXP:COUNT ..." (at most 40). */
static std::string buckets(const std::vector<u64> &h)
{
	std::string s;
	int shown = 0;
	for (int b = 0; b < NB; b++) {
		if (!h[b])
			continue;
		if (shown++ == 40) {
			s += " ...";
			break;
		}
		char buf[64];
		snprintf(buf, sizeof buf, " %se=%d:%llu", b >> 8 ? "-" : "", (b & 255) - 127, h[b]);
		s += buf;
	}
	return s;
}

/* ---- exceptions: the inputs where a model differs ---- */
struct Sink {
	u32 *buf;
	u64 *n;
	__device__ void put(u32 x, u32 h, u32 m) const
	{
		if (*(volatile u64 *)n >= CAP) /* full: the histogram counts */
			return;
		u64 i = atomic_add64(n, 1);
		if (i < CAP) {
			buf[3 * i] = x;
			buf[3 * i + 1] = h;
			buf[3 * i + 2] = m;
		}
	}
};
static Sink sink;
static FILE *exc;

static void sink_reset()
{
	if (!sink.buf) {
		sink.buf = dev_alloc<u32>(3ull * CAP);
		sink.n = dev_alloc<u64>(1);
	}
	u64 zero = 0;
	to_dev(sink.n, &zero, 1);
}

/* Writes the kept exceptions (of n in all), sorted by input, at most
 * limit of them, under a name. */
static void sink_save(const char *name, const char *model, u64 n, u32 limit = CAP)
{
	u64 got;
	to_host(&got, sink.n, 1);
	u32 kept = (u32)std::min<u64>(std::min(got, n), CAP);
	std::vector<u32> b(3ull * kept);
	to_host(b.data(), sink.buf, 3ull * kept);
	std::vector<u64> idx(kept);
	for (u32 i = 0; i < kept; i++)
		idx[i] = (u64)b[3 * i] << 32 | i;
	std::sort(idx.begin(), idx.end());
	kept = std::min(kept, limit);
	char nm[64] = {0}, md[64] = {0};
	snprintf(nm, sizeof nm, "%s", name);
	snprintf(md, sizeof md, "%s", model);
	fwrite(nm, 1, 64, exc);
	fwrite(md, 1, 64, exc);
	fwrite(&n, 8, 1, exc);
	fwrite(&kept, 4, 1, exc);
	for (u32 i = 0; i < kept; i++)
		fwrite(&b[3 * (idx[i] & 0xffffffff)], 4, 3, exc);
	fflush(exc);
}

/* ---- tables ---- */
static FILE *tabf;
static u32 ntables;

static int ord(u32 u) { return u < 0x80000000u ? (int)u : -1 - (int)(u & 0x7fffffffu); }

/* Writes table T (n entries) coded against the predictor: entry i is the
 * function fn at arg(i); each as an int8 distance in ordered encodings,
 * -128 an escape whose raw value follows the distances.  Reports how many
 * entries differ from the predictor and the largest distance. */
enum { ARG_MANT, ARG_FIXED, ARG_TANH, ARG_FIXEDNEG };
static void table_save(const char *name, const char *model, enum ub_approx_fn fn,
		       int argkind, u32 param, const u32 *T, u64 n)
{
	std::vector<long long> dist(n);
	std::vector<signed char> d(n);
	std::vector<u32> esc;
	u64 differ = 0, empty = 0;
	long long maxd = 0;
	u64 fnv = 14695981039346656037ull; /* FNV-1a */
#pragma omp parallel for schedule(static, 65536)
	for (long long i = 0; i < (long long)n; i++) {
		u32 p;
		if (argkind == ARG_MANT)
			p = ub_approx_predict_at(fn, (double)ub_mufu_f32(param << 23 | (u32)i));
		else if (argkind == ARG_FIXED)
			p = ub_approx_predict_at(fn, (double)i / (double)(1ull << param));
		else if (argkind == ARG_FIXEDNEG)
			p = ub_approx_predict_at(fn, -(double)i / (double)(1ull << param));
		else
			p = ub_approx_predict_at(fn, (double)ub_mufu_f32((u32)i << param));
		dist[i] = (long long)ord(T[i]) - ord(p);
	}
	for (u64 i = 0; i < n; i++) {
		u32 v = T[i];
		for (int k = 0; k < 4; k++)
			fnv = (fnv ^ ((v >> (8 * k)) & 0xff)) * 1099511628211ull;
		if (v == UB_MUFU_EMPTY) {
			empty++;
			d[i] = -128;
			esc.push_back(v);
			continue;
		}
		if (dist[i])
			differ++;
		if (llabs(dist[i]) > maxd)
			maxd = llabs(dist[i]);
		if (dist[i] > -128 && dist[i] < 128) {
			d[i] = (signed char)dist[i];
		} else {
			d[i] = -128;
			esc.push_back(v);
		}
	}
	char nm[64] = {0}, md[64] = {0};
	snprintf(nm, sizeof nm, "%s", name);
	snprintf(md, sizeof md, "%s", model);
	u32 hdr[5] = {(u32)fn, (u32)argkind, param, (u32)n, (u32)esc.size()};
	fwrite(nm, 1, 64, tabf);
	fwrite(md, 1, 64, tabf);
	fwrite(hdr, 4, 5, tabf);
	fwrite(&fnv, 8, 1, tabf);
	fwrite(d.data(), 1, n, tabf);
	fwrite(esc.data(), 4, esc.size(), tabf);
	fflush(tabf);
	ntables++;
	say("table   %-22s %-30s %9llu entries, %llu unreached, %llu (%.2f%%) differ from the "
	    "correctly rounded value, max %lld units", name, model, n, empty, differ,
	    100.0 * (double)differ / (double)(n - empty ? n - empty : 1), maxd);
}

/* Outputs of instruction I over every mantissa of the binade with biased
 * exponent e (positive sign): inputs e << 23 | i. */
template <int I> struct FMant {
	u32 *out;
	u32 e;
	__device__ int operator()(u32 i) const
	{
		out[i] = hw<I>(e << 23 | i);
		return -1;
	}
};

template <int I> static u32 *mant_table(u32 e, std::vector<u32> &host)
{
	u32 *t = dev_alloc<u32>(1u << 23);
	sweep(FMant<I>{t, e}, 1u << 23, 1);
	host.resize(1u << 23);
	to_host(host.data(), t, 1u << 23);
	return t;
}

/* ---- verification of a model against the hardware ---- */
template <int I, class M> struct FVerify {
	M model;
	Sink s;
	__device__ int operator()(u32 x) const
	{
		u32 h = hw<I>(x), m = model(x);
		if (h == m)
			return -1;
		s.put(x, h, m);
		return (int)(x >> 23);
	}
};

template <int I, class M> static u64 verify(const char *model_name, M m)
{
	sink_reset();
	std::vector<u64> h = sweep(FVerify<I, M>{m, sink});
	const char *name = ub_approx[I].ptx;
	u64 n = total(h);
	sink_save(name, model_name, n);
	say("verify  %-22s %-30s %llu of %s inputs differ%s", name, model_name, n,
	    STEP == 1 ? "2^32" : "sampled", buckets(h).c_str());
	return n;
}

struct MRcp {
	const u32 *T;
	int full;
	__device__ u32 operator()(u32 x) const { return full ? ub_mufu_rcp_full(T, x) : ub_mufu_rcp(T, x); }
};
struct MRoot {
	const u32 *T0, *T1;
	int inverse, full;
	__device__ u32 operator()(u32 x) const
	{
		return full ? ub_mufu_root_full(T0, T1, inverse, x) : ub_mufu_root(T0, T1, inverse, x);
	}
};
struct MEx2 {
	const u32 *T;
	int F, q, full;
	__device__ u32 operator()(u32 x) const { return full ? ub_mufu_ex2_full(T, F, q, x) : ub_mufu_ex2(T, F, q, x); }
};
struct MLg2 {
	const u32 *T0, *Tm1;
	int full;
	__device__ u32 operator()(u32 x) const
	{
		return full ? ub_mufu_lg2_full(T0, Tm1, x) : ub_mufu_lg2(T0, Tm1, x);
	}
};
struct MSinCos {
	const u32 *T;
	int W, q, sym, cosine, ftz;
	__device__ u32 operator()(u32 x) const { return ub_mufu_sincos_x(T, W, q, sym, cosine, ftz, x); }
};
struct MTanh {
	const u32 *T;
	int k, round;
	__device__ u32 operator()(u32 x) const
	{
		u32 a = x & 0x7fffffffu;
		if (a > UB_MUFU_INF)
			return UB_MUFU_NAN;
		u32 key = round ? (a + (1u << (k - 1))) >> k : a >> k;
		return T[key] ^ (x & 0x80000000u);
	}
};

/* ---- structure tests: keys and normalizations ---- */
/* ex2: key = the sign and the fraction of |x| 2^F rounded by v (as
 * ub_mufu_ex2); the output scaled by 2^-+i (i the integer part).  Only
 * |x| < 128 with a normal output. */
struct KEx2 {
	int F, v;
	__device__ long long operator()(u32 x, u32 h, u32 *val) const
	{
		u32 a = x & 0x7fffffffu, he = (h >> 23) & 255;
		if (a >= 0x43000000u || (h >> 31) || he == 0 || he == 255)
			return -1;
		if (a < 0x00800000u)
			a = 0;
		int neg = (int)(x >> 31) && a;
		u64 q = ub_mufu_fixed(a | (u32)neg << 31, F, v), mag = neg ? 0 - q : q;
		int i = (int)(mag >> F), ne = (int)he - (neg ? -i : i);
		if (ne <= 0 || ne >= 255)
			return -1;
		*val = (u32)ne << 23 | (h & 0x7fffffu);
		return (long long)((u64)neg << F | (mag & ((1ull << F) - 1)));
	}
	u64 size() const { return 2ull << F; }
};
/* sin/cos: key = the fraction of the turns t in W bits (of |t| with sym,
 * sin's output then taken for |t|). */
struct KSinCos {
	int W, q, sym, cosine, ftz;
	__device__ long long operator()(u32 x, u32 h, u32 *v) const
	{
		if ((x & 0x7fffffffu) >= UB_MUFU_INF || h == UB_MUFU_NAN)
			return -1;
		u32 t = ub_mufu_turns(x, ftz);
		u64 f = ub_mufu_fixed(sym ? t & 0x7fffffffu : t, W, q);
		*v = sym && !cosine ? h ^ (t & 0x80000000u) : h;
		return (long long)(f & ((1ull << W) - 1));
	}
	u64 size() const { return 1ull << W; }
};
/* tanh: key = |x| without its low k bits (truncated, or rounded half up);
 * odd. */
struct KTanh {
	int k, round;
	__device__ long long operator()(u32 x, u32 h, u32 *v) const
	{
		u32 a = x & 0x7fffffffu;
		if (a > UB_MUFU_INF)
			return -1;
		*v = h ^ (x & 0x80000000u);
		return round ? (a + (1u << (k - 1))) >> k : a >> k;
	}
	u64 size() const { return 1ull << (32 - k); }
};

template <int I, class K> struct FFirst {
	K key;
	u32 *tab;
	__device__ int operator()(u32 x) const
	{
		u32 v, h = hw<I>(x);
		long long k = key(x, h, &v);
		if (k >= 0 && tab[k] == UB_MUFU_EMPTY)
			atomic_cas32(&tab[k], UB_MUFU_EMPTY, v);
		return -1;
	}
};
template <int I, class K> struct FConflict {
	K key;
	const u32 *tab;
	Sink s;
	__device__ int operator()(u32 x) const
	{
		u32 v, h = hw<I>(x);
		long long k = key(x, h, &v);
		if (k < 0 || tab[k] == v)
			return -1;
		s.put(x, v, tab[k]);
		return (int)(x >> 23);
	}
};

/* One structure test: fills tab (size key.size()) and returns the number of
 * conflicting inputs. */
template <int I, class K> static u64 conflicts(K key, u32 *tab, const char *desc)
{
	dev_fill(tab, UB_MUFU_EMPTY, key.size());
	sweep(FFirst<I, K>{key, tab});
	sink_reset();
	std::vector<u64> h = sweep(FConflict<I, K>{key, tab, sink});
	u64 n = total(h);
	sink_save(ub_approx[I].ptx, desc, n, 4096);
	say("struct  %-22s %-30s %llu conflicts%s", ub_approx[I].ptx, desc, n, buckets(h).c_str());
	return n;
}

static const char *qname[] = {"floor", "trunc", "nearest"};

/* ---- the instructions ---- */
static void do_rcp()
{
	std::vector<u32> h;
	u32 *T = mant_table<UB_AI_RCP_FTZ>(127, h);
	table_save("rcp.approx.ftz.f32", "mantissas e=0", UB_AF_RCP, ARG_MANT, 127, h.data(), h.size());
	verify<UB_AI_RCP_FTZ>("rcp T[m] 2^-e", MRcp{T, 0});
	verify<UB_AI_RCP>("rcp scaled (ptxas)", MRcp{T, 1});
	dev_free(T);
}

template <int IF, int I> static void do_root(int inverse, const char *fname)
{
	std::vector<u32> h0, h1;
	u32 *T0 = mant_table<IF>(127, h0), *T1 = mant_table<IF>(128, h1);
	enum ub_approx_fn fn = inverse ? UB_AF_RSQRT : UB_AF_SQRT;
	table_save(ub_approx[IF].ptx, "mantissas e=0", fn, ARG_MANT, 127, h0.data(), h0.size());
	table_save(ub_approx[IF].ptx, "mantissas e=1", fn, ARG_MANT, 128, h1.data(), h1.size());
	char m[64];
	snprintf(m, sizeof m, "%s T_p[m] 2^k", fname);
	verify<IF>(m, MRoot{T0, T1, inverse, 0});
	snprintf(m, sizeof m, "%s scaled (ptxas)", fname);
	verify<I>(m, MRoot{T0, T1, inverse, 1});
	dev_free(T0);
	dev_free(T1);
}

static const char *vname[] = {"floor", "trunc", "nearest"};

static void do_ex2()
{
	int bestF = 0, bestv = 0;
	u64 best = ~0ull;
	u32 *tab = dev_alloc<u32>(1ull << MAXBITS);
	for (int F = 22; F < MAXBITS && best; F++)
		for (int v = 0; v < 3; v++) {
			char d[64];
			snprintf(d, sizeof d, "signed F=%d v=%s", F, vname[v]);
			u64 n = conflicts<UB_AI_EX2_FTZ>(KEx2{F, v}, tab, d);
			if (n < best) {
				best = n;
				bestF = F;
				bestv = v;
			}
		}
	char m[64];
	snprintf(m, sizeof m, "signed F=%d v=%s", bestF, vname[bestv]);
	say("choose  %-22s %-30s %llu conflicts", "ex2.approx.ftz.f32", m, best);
	KEx2 k{bestF, bestv};
	dev_fill(tab, UB_MUFU_EMPTY, k.size());
	sweep(FFirst<UB_AI_EX2_FTZ, KEx2>{k, tab});
	/* entries no input of the structure test reaches (|x| >= 128): the
	 * output at that fraction, taken from the inputs that have it */
	std::vector<u32> h(k.size());
	to_host(h.data(), tab, k.size());
	if (bestF <= 24) {
		/* the halves of x >= 0 and x < 0, against 2^(+-f/2^F) */
		table_save("ex2.approx.ftz.f32", m, UB_AF_EX2, ARG_FIXED, bestF, h.data(),
			   1ull << bestF);
		table_save("ex2.approx.ftz.f32", "negative half", UB_AF_EX2, ARG_FIXEDNEG, bestF,
			   h.data() + (1ull << bestF), 1ull << bestF);
	}
	verify<UB_AI_EX2_FTZ>(m, MEx2{tab, bestF, bestv, 0});
	verify<UB_AI_EX2>("ex2 x/2 squared below -126", MEx2{tab, bestF, bestv, 1});
	dev_free(tab);
}

static void do_lg2()
{
	std::vector<u32> h, hm;
	u32 *T = mant_table<UB_AI_LG2_FTZ>(127, h), *Tm = mant_table<UB_AI_LG2_FTZ>(126, hm);
	verify<UB_AI_LG2_FTZ>("lg2 T0 Tm1, RZ(e + T0)", MLg2{T, Tm, 0});
	verify<UB_AI_LG2>("lg2 scaled (ptxas)", MLg2{T, Tm, 1});
	dev_free(T);
	dev_free(Tm);
}

/* div.approx and div.full (.ftz or not): the model of mufu_model.h (the
 * products ptxas makes with MUFU.RCP) against the GPU on 2^32 pairs, a
 * and b drawn from the index by splitmix64 (one in four b of a random
 * exponent near the ends, where the scalings are). */
__device__ static u64 mix64(u64 z)
{
	z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ z >> 27) * 0x94d049bb133111ebull;
	return z ^ z >> 31;
}
template <int FULL, int FTZ> struct FDiv {
	const u32 *T;
	Sink s;
	__device__ int operator()(u32 i) const
	{
		u64 z = mix64(0x9e3779b97f4a7c15ull * ((u64)i + 1));
		u32 a = (u32)z, b = (u32)(z >> 32);
		if ((b & 3) == 0) /* b near 2^+-126: exponent 0..3 or 251..254 */
			b = (b & 0x807fffffu) | (((b >> 2 & 4) ? 251u + (b >> 3 & 3) : (b >> 3 & 3)) << 23);
		float r, fa = ub_mufu_f32(a), fb = ub_mufu_f32(b);
#ifndef PROBE_CPU
		if (FULL && FTZ)
			asm volatile("div.full.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(fa), "f"(fb));
		else if (FULL)
			asm volatile("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(fa), "f"(fb));
		else if (FTZ)
			asm volatile("div.approx.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(fa), "f"(fb));
		else
			asm volatile("div.approx.f32 %0, %1, %2;" : "=f"(r) : "f"(fa), "f"(fb));
		u32 h = __float_as_uint(r);
#else
		(void)fa;
		(void)fb;
		(void)r;
		u32 h = ub_mufu_div(T, FULL, FTZ, a, b);
#endif
		u32 m = ub_mufu_div(T, FULL, FTZ, a, b);
		if (h == m)
			return -1;
		s.put(a, h, b); /* the model's output is computed again from a, b */
		return (int)(b >> 23);
	}
};

template <int FULL, int FTZ> static void verify_div(const u32 *T, const char *name)
{
	sink_reset();
	std::vector<u64> h = sweep(FDiv<FULL, FTZ>{T, sink});
	u64 n = total(h);
	sink_save(name, "FMUL(MUFU.RCP) (a, hw, b)", n);
	say("verify  %-22s %-30s %llu of %s pairs differ%s", name, "FMUL(MUFU.RCP)", n,
	    STEP == 1 ? "2^32" : "sampled", buckets(h).c_str());
}

static void do_div()
{
	std::vector<u32> h;
	u32 *T = mant_table<UB_AI_RCP_FTZ>(127, h);
	verify_div<0, 1>(T, "div.approx.ftz.f32");
	verify_div<0, 0>(T, "div.approx.f32");
	verify_div<1, 1>(T, "div.full.ftz.f32");
	verify_div<1, 0>(T, "div.full.f32");
	dev_free(T);
}

/* tanh.approx.f32 over two whole binades, for a study of its structure */
static void do_tanhcap()
{
	for (u32 e : {126u, 127u}) {
		std::vector<u32> h;
		u32 *T = mant_table<UB_AI_TANH>(e, h);
		char m[32];
		snprintf(m, sizeof m, "mantissas e=%d", (int)e - 127);
		table_save("tanh.approx.f32", m, UB_AF_TANH, ARG_MANT, e, h.data(), h.size());
		dev_free(T);
	}
}

/* The 16-bit approximate instructions on all 2^16 inputs, raw. */
template <int K> __device__ __forceinline__ unsigned short hw16(unsigned short x)
{
#ifdef PROBE_CPU
	return x;
#else
	unsigned short r;
	if (K == 0)
		asm volatile("ex2.approx.f16 %0, %1;" : "=h"(r) : "h"(x));
	if (K == 1)
		asm volatile("ex2.approx.ftz.bf16 %0, %1;" : "=h"(r) : "h"(x));
	if (K == 2)
		asm volatile("tanh.approx.f16 %0, %1;" : "=h"(r) : "h"(x));
	if (K == 3)
		asm volatile("tanh.approx.bf16 %0, %1;" : "=h"(r) : "h"(x));
	return r;
#endif
}
template <int K> struct F16All {
	unsigned short *out;
	__device__ int operator()(u32 i) const
	{
		out[i] = hw16<K>((unsigned short)i);
		return -1;
	}
};
template <int K> static void half_table(FILE *f, const char *name)
{
	unsigned short *t = dev_alloc<unsigned short>(65536);
	sweep(F16All<K>{t}, 65536, 1);
	std::vector<unsigned short> h(65536);
	to_host(h.data(), t, 65536);
	char nm[32] = {0};
	snprintf(nm, sizeof nm, "%s", name);
	fwrite(nm, 1, 32, f);
	fwrite(h.data(), 2, 65536, f);
	dev_free(t);
	say("table   %-22s all 65536 inputs", name);
}
static void do_half()
{
	FILE *f = fopen((outdir + "/mufu-half.bin").c_str(), "wb");
	half_table<0>(f, "ex2.approx.f16");
	half_table<1>(f, "ex2.approx.ftz.bf16");
	half_table<2>(f, "tanh.approx.f16");
	half_table<3>(f, "tanh.approx.bf16");
	fclose(f);
}

template <int IF, int I> static void do_sincos(int cosine)
{
	int bestW = 0, bestq = 0, bests = 0;
	u64 best = ~0ull;
	u32 *tab = dev_alloc<u32>(1ull << MAXBITS);
	const int combos[4][2] = {{0, 0}, {0, 2}, {1, 1}, {1, 2}}; /* {sym, q} */
	for (int W = 20; W <= std::min(26, MAXBITS) && best; W++)
		for (int c = 0; c < 4; c++) {
			char d[64];
			snprintf(d, sizeof d, "turns W=%d q=%s%s", W, qname[combos[c][1]],
				 combos[c][0] ? " sym" : "");
			u64 n = conflicts<IF>(KSinCos{W, combos[c][1], combos[c][0], cosine, 1}, tab, d);
			if (n < best) {
				best = n;
				bestW = W;
				bestq = combos[c][1];
				bests = combos[c][0];
			}
		}
	char m[64];
	snprintf(m, sizeof m, "turns W=%d q=%s%s", bestW, qname[bestq], bests ? " sym" : "");
	say("choose  %-22s %-30s %llu conflicts", ub_approx[IF].ptx, m, best);
	KSinCos k{bestW, bestq, bests, cosine, 1};
	dev_fill(tab, UB_MUFU_EMPTY, k.size());
	sweep(FFirst<IF, KSinCos>{k, tab});
	std::vector<u32> h(k.size());
	to_host(h.data(), tab, k.size());
	table_save(ub_approx[IF].ptx, m, cosine ? UB_AF_COS : UB_AF_SIN, ARG_FIXED, bestW,
		   h.data(), h.size());
	verify<IF>(m, MSinCos{tab, bestW, bestq, bests, cosine, 1});
	verify<I>(m, MSinCos{tab, bestW, bestq, bests, cosine, 0});
	dev_free(tab);
}

static void do_tanh()
{
	int bestk = 0, bestr = 0;
	u64 best = ~0ull;
	u32 *tab = dev_alloc<u32>(1ull << MAXBITS);
	int kmin = 32 - MAXBITS;
	/* from the most input bits dropped down: the first with no conflict */
	for (int k = 20; k >= kmin && best; k--)
		for (int r = 0; r < 2; r++) {
			char d[64];
			snprintf(d, sizeof d, "key |x|>>%d%s", k, r ? " rounded" : "");
			u64 n = conflicts<UB_AI_TANH>(KTanh{k, r}, tab, d);
			if (n < best || (n == best && n == 0)) {
				best = n;
				bestk = k;
				bestr = r;
			}
			if (!n)
				break;
		}
	char m[64];
	snprintf(m, sizeof m, "key |x|>>%d%s", bestk, bestr ? " rounded" : "");
	say("choose  %-22s %-30s %llu conflicts", "tanh.approx.f32", m, best);
	KTanh k{bestk, bestr};
	dev_fill(tab, UB_MUFU_EMPTY, k.size());
	sweep(FFirst<UB_AI_TANH, KTanh>{k, tab});
	u64 n = std::min<u64>(k.size(), 1ull << 26);
	std::vector<u32> h(n);
	to_host(h.data(), tab, n);
	if (k.size() <= (1ull << 26))
		table_save("tanh.approx.f32", m, UB_AF_TANH, ARG_TANH, bestk, h.data(), n);
	verify<UB_AI_TANH>(m, MTanh{tab, bestk, bestr});
	dev_free(tab);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: mufu-probe OUTDIR [FUNCTION...]\n");
		return 2;
	}
	outdir = argv[1];
	rep = fopen((outdir + "/probe.txt").c_str(), "w");
	tabf = fopen((outdir + "/mufu-tables.bin").c_str(), "wb");
	exc = fopen((outdir + "/mufu-exceptions.bin").c_str(), "wb");
	if (!rep || !tabf || !exc) {
		fprintf(stderr, "mufu-probe: %s: cannot write\n", argv[1]);
		return 2;
	}
	fwrite("UBMUFU1\n", 1, 8, tabf);
	fwrite("UBMUFUX1", 1, 8, exc);
#ifdef PROBE_CPU
	say("mufu-probe dry run: the predictor stands in for the GPU, 1 input in %llu", STEP);
#else
	cudaDeviceProp p;
	CK(cudaGetDeviceProperties(&p, 0));
	int drv = 0;
	cudaDriverGetVersion(&drv);
	say("mufu-probe on %s (sm_%d%d, %d SMs), driver %d.%d", p.name, p.major, p.minor,
	    p.multiProcessorCount, drv / 1000, drv % 1000 / 10);
#endif
	auto want = [&](const char *f) {
		if (argc == 2)
			return true;
		for (int i = 2; i < argc; i++)
			if (!strcmp(argv[i], f))
				return true;
		return false;
	};
	if (want("rcp"))
		do_rcp();
	if (want("rsqrt"))
		do_root<UB_AI_RSQRT_FTZ, UB_AI_RSQRT>(1, "rsqrt");
	if (want("sqrt"))
		do_root<UB_AI_SQRT_FTZ, UB_AI_SQRT>(0, "sqrt");
	if (want("ex2"))
		do_ex2();
	if (want("lg2"))
		do_lg2();
	if (want("tanh"))
		do_tanh();
	if (want("div"))
		do_div();
	if (want("tanhcap"))
		do_tanhcap();
	if (want("half"))
		do_half();
	if (want("sin"))
		do_sincos<UB_AI_SIN_FTZ, UB_AI_SIN>(0);
	if (want("cos"))
		do_sincos<UB_AI_COS_FTZ, UB_AI_COS>(1);
	say("done: %u tables", ntables);
	fclose(rep);
	fclose(tabf);
	fclose(exc);
	return 0;
}
