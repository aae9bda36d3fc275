#define LOOP for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
extern "C" __global__ void mul_k(const float *a, const float *b, float *o, long long n) { LOOP o[i] = a[i] * b[i]; }
extern "C" __global__ void add1_k(const float *a, float *o, long long n) { LOOP o[i] = a[i] + 1.0f; }
extern "C" __global__ void div_k(const float *a, const float *b, float *o, long long n) { LOOP o[i] = a[i] / b[i]; }
