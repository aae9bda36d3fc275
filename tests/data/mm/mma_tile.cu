// mma_tile.cu — a matrix product on the tensor cores as a CUDA programmer
// writes one by hand: one warp per 16x8 tile of out (M x N), the tiles in
// row-major order over a 1-D grid, each lane loading its fragments of a
// (M x K, row-major) and b (K x N, row-major) straight from global memory
// in the layout of the PTX ISA's "Matrix Fragments for mma.m16n8k16 with
// floating point type", k in steps of 16 through mma.sync, the f32
// accumulators rounded once to the output's type.  f16 or bf16 (built with
// UB_DT_BF16), f32 accumulation; M a multiple of 16, N of 8, K of 16.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#ifdef UB_DT_BF16
typedef __nv_bfloat16 elem;
#define MMA_TYPES "bf16.bf16"
static __device__ unsigned short bits(elem x) { return __bfloat16_as_ushort(x); }
static __device__ elem from_float(float x) { return __float2bfloat16_rn(x); }
#else
typedef __half elem;
#define MMA_TYPES "f16.f16"
static __device__ unsigned short bits(elem x) { return __half_as_ushort(x); }
static __device__ elem from_float(float x) { return __float2half_rn(x); }
#endif

static __device__ unsigned pack(elem lo, elem hi)
{
    return (unsigned)bits(lo) | (unsigned)bits(hi) << 16;
}

__global__ void mma_matmul(const elem *a, const elem *b, elem *out, int M, int N, int K)
{
    int tiles_n = N / 8, tm = blockIdx.x / tiles_n * 16, tn = blockIdx.x % tiles_n * 8;
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    if (tm >= M)
        return;
    float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
    for (int k0 = 0; k0 < K; k0 += 16) {
        const elem *r0 = a + (long)(tm + g) * K + k0, *r8 = r0 + 8L * K;
        unsigned a0 = pack(r0[2 * t], r0[2 * t + 1]);          // a0, a1: row g
        unsigned a1 = pack(r8[2 * t], r8[2 * t + 1]);          // a2, a3: row g + 8
        unsigned a2 = pack(r0[2 * t + 8], r0[2 * t + 9]);      // a4, a5: col + 8
        unsigned a3 = pack(r8[2 * t + 8], r8[2 * t + 9]);      // a6, a7
        const elem *c0 = b + (long)k0 * N + tn + g;            // column g of the tile
        unsigned b0 = pack(c0[(2 * t) * (long)N], c0[(2 * t + 1) * (long)N]);
        unsigned b1 = pack(c0[(2 * t + 8) * (long)N], c0[(2 * t + 9) * (long)N]);
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32." MMA_TYPES ".f32 "
                     "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    }
    elem *o = out + (long)(tm + g) * N + tn + 2 * t;           // c0, c1: row g
    o[0] = from_float(d0);
    o[1] = from_float(d1);
    o[8L * N] = from_float(d2);                                // c2, c3: row g + 8
    o[8L * N + 1] = from_float(d3);
}
