// A float loaded through a pointer two bytes past an element boundary
// (a byte offset computed for the wrong element size): a GPU faults with
// a misaligned address.
__global__ void recip_misaligned(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const char *bytes = (const char *)x;
        float v = *(const float *)(bytes + 4 * i + 2);
        out[i] = 1.0f / v;
    }
}
