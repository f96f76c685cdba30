// Planted bug: the steps stop at n/2, so an n that is not a power of two misses its last stride.
#define BLOCK_DIM 1024
__global__ void scan(float* input, float* output, unsigned int N) {
    __shared__ float XY[BLOCK_DIM];
    unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;
    XY[threadIdx.x] = (i < N) ? input[i] : 0.0f;
    for (unsigned int stride = 1; stride <= N/2; stride *= 2) {
        __syncthreads();
        float v = (threadIdx.x >= stride) ? XY[threadIdx.x - stride] : 0.0f;
        __syncthreads();
        XY[threadIdx.x] = XY[threadIdx.x] + v;  // @bug wrong-value
    }
    __syncthreads();
    if (i < N) output[i] = XY[threadIdx.x];
}
