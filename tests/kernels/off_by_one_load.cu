// Planted bug: the load's bound is one too far (<= instead of <).
#define BLOCK_DIM 1024
__global__ void scan(float* input, float* output, unsigned int N) {
    __shared__ float XY[BLOCK_DIM];
    unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;
    XY[threadIdx.x] = (i <= N) ? input[i] : 0.0f;  // @bug out-of-bounds
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        float v = (threadIdx.x >= stride) ? XY[threadIdx.x - stride] : 0.0f;
        __syncthreads();
        XY[threadIdx.x] += v;
    }
    __syncthreads();
    if (i < N) output[i] = XY[threadIdx.x];
}
