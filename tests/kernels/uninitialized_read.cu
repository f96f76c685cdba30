// Planted bug: the load skips the cells past n (no identity padding), and the tree reads them.
#define BLOCK_DIM 1024
__global__ void scan(float* input, float* output, unsigned int N) {
    __shared__ float XY[BLOCK_DIM];
    unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;
    if (i < N) XY[threadIdx.x] = input[i];
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        float v = (threadIdx.x >= stride) ? XY[threadIdx.x - stride] : 0.0f;
        __syncthreads();
        XY[threadIdx.x] += v;  // @bug uninitialized-read
    }
    __syncthreads();
    if (i < N) output[i] = XY[threadIdx.x];
}
