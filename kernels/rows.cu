/* rows.cu — the kernels of the shaped ops (docs/reductions.md), one
 * thread per row, as a first CUDA kernel of each is written: a loop over
 * the row accumulating in float, as PyTorch's kernels do for f32, f16 and
 * bf16 (elements widened to float, each output rounded once to the
 * dtype).  ulpbench compiles the file once per dtype with UB_DT_F16 or
 * UB_DT_BF16 defined (neither: float); + - * / go through ulpbench.h's
 * UB_ macros, so mode rn rounds each one separately.
 *
 * Orders (what the exact reference does not depend on): sums run from
 * column 0 up; softmax subtracts the row maximum first, as PyTorch does;
 * layer norm takes the mean, then the biased variance as the mean of
 * (x - mean)^2 (two passes), rstd = rsqrtf(var + eps). */
#include "ulpbench.h"

#if defined(UB_DT_F16)
#include <cuda_fp16.h>
typedef __half ub_t;
static __device__ float ub_ld(ub_t v) { return __half2float(v); }
static __device__ ub_t ub_st(float v) { return __float2half_rn(v); }
#elif defined(UB_DT_BF16)
#include <cuda_bf16.h>
typedef __nv_bfloat16 ub_t;
static __device__ float ub_ld(ub_t v) { return __bfloat162float(v); }
static __device__ ub_t ub_st(float v) { return __float2bfloat16_rn(v); }
#else
typedef float ub_t;
static __device__ float ub_ld(ub_t v) { return v; }
static __device__ ub_t ub_st(float v) { return v; }
#endif

#define UB_EPS 1e-5f

/* The row this thread does, or -1. */
static __device__ long long ub_row(int rows)
{
    long long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    return r < rows ? r : -1;
}

extern "C" __global__ void ub_rows_sum(const ub_t *x, ub_t *out, int rows, int cols)
{
    long long r = ub_row(rows);
    if (r < 0)
        return;
    const ub_t *row = x + r * cols;
    float acc = 0.f;
    for (int j = 0; j < cols; j++)
        acc = UB_ADD(acc, ub_ld(row[j]));
    out[r] = ub_st(acc);
}

/* A row's maximum into *m, and the sum of exp(x - max) in column order. */
static __device__ float ub_expsum(const ub_t *row, int cols, float *m)
{
    float s = 0.f;
    *m = __int_as_float(0xff800000); /* -inf */
    for (int j = 0; j < cols; j++)
        *m = fmaxf(*m, ub_ld(row[j]));
    for (int j = 0; j < cols; j++)
        s = UB_ADD(s, expf(UB_SUB(ub_ld(row[j]), *m)));
    return s;
}

/* max, then sum of exp(x - max); lg: x - max - log(sum) instead of the
 * quotient. */
static __device__ void ub_softmax(const ub_t *x, ub_t *out, int rows, int cols, int lg)
{
    long long r = ub_row(rows);
    if (r < 0)
        return;
    const ub_t *row = x + r * cols;
    float m, s = ub_expsum(row, cols, &m);
    float ls = logf(s);
    for (int j = 0; j < cols; j++) {
        float d = UB_SUB(ub_ld(row[j]), m);
        out[r * cols + j] = ub_st(lg ? UB_SUB(d, ls) : UB_DIV(expf(d), s));
    }
}

extern "C" __global__ void ub_rows_softmax(const ub_t *x, ub_t *out, int rows, int cols)
{
    ub_softmax(x, out, rows, cols, 0);
}

extern "C" __global__ void ub_rows_log_softmax(const ub_t *x, ub_t *out, int rows, int cols)
{
    ub_softmax(x, out, rows, cols, 1);
}

extern "C" __global__ void ub_rows_rms_norm(const ub_t *x, const ub_t *weight, ub_t *out,
                                            int rows, int cols)
{
    long long r = ub_row(rows);
    if (r < 0)
        return;
    const ub_t *row = x + r * cols;
    float ss = 0.f;
    for (int j = 0; j < cols; j++)
        ss = UB_ADD(ss, UB_MUL(ub_ld(row[j]), ub_ld(row[j])));
    float rs = rsqrtf(UB_ADD(UB_DIV(ss, (float)cols), UB_EPS));
    for (int j = 0; j < cols; j++)
        out[r * cols + j] = ub_st(UB_MUL(UB_MUL(ub_ld(row[j]), rs), ub_ld(weight[j])));
}

extern "C" __global__ void ub_rows_layer_norm(const ub_t *x, const ub_t *weight,
                                              const ub_t *bias, ub_t *out, ub_t *mean,
                                              ub_t *rstd, int rows, int cols)
{
    long long r = ub_row(rows);
    if (r < 0)
        return;
    const ub_t *row = x + r * cols;
    float s = 0.f, v = 0.f;
    for (int j = 0; j < cols; j++)
        s = UB_ADD(s, ub_ld(row[j]));
    float mu = UB_DIV(s, (float)cols);
    for (int j = 0; j < cols; j++) {
        float d = UB_SUB(ub_ld(row[j]), mu);
        v = UB_ADD(v, UB_MUL(d, d));
    }
    float rs = rsqrtf(UB_ADD(UB_DIV(v, (float)cols), UB_EPS));
    for (int j = 0; j < cols; j++) {
        float d = UB_SUB(ub_ld(row[j]), mu);
        out[r * cols + j] = ub_st(UB_ADD(UB_MUL(UB_MUL(d, rs), ub_ld(weight[j])),
                                         ub_ld(bias[j])));
    }
    mean[r] = ub_st(mu);
    rstd[r] = ub_st(rs);
}

/* The norms' backward passes from the forward's mean and rstd (float, as
 * PyTorch saves them): thread t < rows computes row t's dx (the row's two
 * sums from column 0 up, then each element); thread t < cols sums column
 * t's dweight (and dbias) over the rows from row 0 up.  The launch has
 * max(rows, cols) threads. */
extern "C" __global__ void ub_rows_layer_norm_bwd(const ub_t *dout, const ub_t *x,
                                                  const ub_t *weight, const float *mean,
                                                  const float *rstd, ub_t *dx,
                                                  ub_t *dweight, ub_t *dbias,
                                                  int rows, int cols)
{
    long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (t < rows) {
        float mu = mean[t], rs = rstd[t], a = 0.f, b = 0.f;
        for (int j = 0; j < cols; j++) {
            float g = UB_MUL(ub_ld(weight[j]), ub_ld(dout[t * cols + j]));
            a = UB_ADD(a, g);
            b = UB_ADD(b, UB_MUL(g, UB_MUL(UB_SUB(ub_ld(x[t * cols + j]), mu), rs)));
        }
        for (int j = 0; j < cols; j++) {
            float g = UB_MUL(ub_ld(weight[j]), ub_ld(dout[t * cols + j]));
            float xh = UB_MUL(UB_SUB(ub_ld(x[t * cols + j]), mu), rs);
            float v = UB_SUB(UB_SUB(UB_MUL((float)cols, g), a), UB_MUL(xh, b));
            dx[t * cols + j] = ub_st(UB_DIV(UB_MUL(v, rs), (float)cols));
        }
    }
    if (t < cols) {
        float dw = 0.f, db = 0.f;
        for (int i = 0; i < rows; i++) {
            float d = ub_ld(dout[i * (long long)cols + t]);
            float xh = UB_MUL(UB_SUB(ub_ld(x[i * (long long)cols + t]), mean[i]), rstd[i]);
            dw = UB_ADD(dw, UB_MUL(d, xh));
            db = UB_ADD(db, d);
        }
        dweight[t] = ub_st(dw);
        dbias[t] = ub_st(db);
    }
}

extern "C" __global__ void ub_rows_rms_norm_bwd(const ub_t *dout, const ub_t *x,
                                                const ub_t *weight, const float *rstd,
                                                ub_t *dx, ub_t *dweight, int rows, int cols)
{
    long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (t < rows) {
        float rs = rstd[t], b = 0.f;
        for (int j = 0; j < cols; j++) {
            float g = UB_MUL(ub_ld(weight[j]), ub_ld(dout[t * cols + j]));
            b = UB_ADD(b, UB_MUL(g, ub_ld(x[t * cols + j])));
        }
        /* c = rstd^3 * b / cols */
        float c = UB_DIV(UB_MUL(UB_MUL(UB_MUL(rs, rs), rs), b), (float)cols);
        for (int j = 0; j < cols; j++) {
            float g = UB_MUL(ub_ld(weight[j]), ub_ld(dout[t * cols + j]));
            dx[t * cols + j] = ub_st(UB_SUB(UB_MUL(rs, g), UB_MUL(ub_ld(x[t * cols + j]), c)));
        }
    }
    if (t < cols) {
        float dw = 0.f;
        for (int i = 0; i < rows; i++)
            dw = UB_ADD(dw, UB_MUL(UB_MUL(ub_ld(dout[i * (long long)cols + t]),
                                          ub_ld(x[i * (long long)cols + t])), rstd[i]));
        dweight[t] = ub_st(dw);
    }
}

/* cross-entropy of a row with class target[r] (reduction 'none'): the
 * row maximum, the sum of exp(x - max), then log(sum) - (x[t] - max). */
extern "C" __global__ void ub_rows_cross_entropy(const ub_t *x, const int *target, ub_t *out,
                                                 int rows, int cols)
{
    long long r = ub_row(rows);
    if (r < 0)
        return;
    const ub_t *row = x + r * cols;
    float m, s = ub_expsum(row, cols, &m);
    out[r] = ub_st(UB_SUB(logf(s), UB_SUB(ub_ld(row[target[r]]), m)));
}

/* The matrix ops (docs/tensor-cores.md), as a first kernel without tensor
 * cores is written: one thread per output row, each dot product in float
 * from k = 0 up (fused in mode fma), rounded once to the dtype. */
static __device__ void ub_dot_row(const ub_t *a, const ub_t *b, long long bk,
                                  long long bj, const ub_t *bias, ub_t *out, int cols,
                                  int inner)
{
    for (int j = 0; j < cols; j++) {
        float acc = 0.f;
        for (int k = 0; k < inner; k++)
            acc = UB_ADD(acc, UB_MUL(ub_ld(a[k]), ub_ld(b[k * bk + j * bj])));
        out[j] = ub_st(bias ? UB_ADD(acc, ub_ld(bias[j])) : acc);
    }
}

/* out (rows, cols) = a (rows, inner) b (inner, cols) */
extern "C" __global__ void ub_rows_matmul(const ub_t *a, const ub_t *b, ub_t *out, int rows,
                                          int cols, int inner)
{
    long long r = ub_row(rows);
    if (r >= 0)
        ub_dot_row(a + r * inner, b, cols, 1, 0, out + r * cols, cols, inner);
}

/* out = x weight^T + bias: weight (cols, inner), as torch's linear */
extern "C" __global__ void ub_rows_linear(const ub_t *x, const ub_t *weight, const ub_t *bias,
                                          ub_t *out, int rows, int cols, int inner)
{
    long long r = ub_row(rows);
    if (r >= 0)
        ub_dot_row(x + r * inner, weight, 1, inner, bias, out + r * cols, cols, inner);
}

/* out[h] = a[h] b[h]: rows = batch * M, b (batch, inner, cols) */
extern "C" __global__ void ub_rows_bmm(const ub_t *a, const ub_t *b, ub_t *out, int rows,
                                       int cols, int inner, int batch)
{
    long long r = ub_row(rows);
    if (r >= 0)
        ub_dot_row(a + r * inner, b + (r / (rows / batch)) * (long long)inner * cols, cols,
                   1, 0, out + r * cols, cols, inner);
}

#define UB_SDPA_MAX 1024   /* keys a row's weights are kept for */

/* softmax(q k^T / sqrt(D)) v for query row r, over keys t < n: the
 * scores in float, their maximum subtracted, expf, the weighted sum of
 * the values divided by the sum of the weights. */
static __device__ void ub_sdpa_row(const ub_t *q, const ub_t *k, const ub_t *v, ub_t *out,
                                   long long r, int cols, int n)
{
    float w[UB_SDPA_MAX], m = __int_as_float(0xff800000), s = 0.f;
    float scale = UB_DIV(1.f, sqrtf((float)cols));
    for (int t = 0; t < n; t++) {
        float d = 0.f;
        for (int c = 0; c < cols; c++)
            d = UB_ADD(d, UB_MUL(ub_ld(q[r * cols + c]), ub_ld(k[t * (long long)cols + c])));
        w[t] = UB_MUL(d, scale);
        m = fmaxf(m, w[t]);
    }
    for (int t = 0; t < n; t++) {
        w[t] = expf(UB_SUB(w[t], m));
        s = UB_ADD(s, w[t]);
    }
    for (int c = 0; c < cols; c++) {
        float acc = 0.f;
        for (int t = 0; t < n; t++)
            acc = UB_ADD(acc, UB_MUL(w[t], ub_ld(v[t * (long long)cols + c])));
        out[r * cols + c] = ub_st(UB_DIV(acc, s));
    }
}

/* rows = L queries, cols = D, inner = S keys (at most UB_SDPA_MAX: a
 * longer row is left unwritten, which the run reports) */
extern "C" __global__ void ub_rows_sdpa(const ub_t *q, const ub_t *k, const ub_t *v, ub_t *out,
                                        int rows, int cols, int inner)
{
    long long r = ub_row(rows);
    if (r >= 0 && inner <= UB_SDPA_MAX)
        ub_sdpa_row(q, k, v, out, r, cols, inner);
}

/* keys t <= r (torch's is_causal) */
extern "C" __global__ void ub_rows_sdpa_causal(const ub_t *q, const ub_t *k, const ub_t *v,
                                               ub_t *out, int rows, int cols, int inner)
{
    long long r = ub_row(rows);
    if (r >= 0 && inner <= UB_SDPA_MAX)
        ub_sdpa_row(q, k, v, out, r, cols, r + 1 < inner ? (int)r + 1 : inner);
}
