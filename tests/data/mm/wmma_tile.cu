// wmma_tile.cu — a matrix product through the nvcuda::wmma API, as the CUDA
// programming guide writes one: one warp per 16x16 tile of out (M x N),
// the tiles in row-major order over a 1-D grid, a (M x K) and b (K x N)
// row-major, f16 with an f32 accumulator, the tile staged in shared
// memory and rounded once to f16.  M, N multiples of 16, K of 16.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;
__global__ void wmma_matmul(const __half *a, const __half *b, __half *out, int M, int N, int K)
{
    __shared__ float tile[256];
    int tiles_n = N / 16, tm = blockIdx.x / tiles_n * 16, tn = blockIdx.x % tiles_n * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(fa, a + (long)tm * K + k, K);
        wmma::load_matrix_sync(fb, b + (long)k * N + tn, N);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(tile, acc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int i = threadIdx.x; i < 256; i += 32)
        out[(long)(tm + i / 16) * N + tn + i % 16] = __float2half_rn(tile[i]);
}
