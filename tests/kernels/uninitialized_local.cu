// Planted bug: v is set only by the threads that add, but every thread adds it.
#define BLOCK_DIM 1024
__global__ void scan(float* input, float* output, unsigned int N) {
    __shared__ float XY[BLOCK_DIM];
    unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;
    XY[threadIdx.x] = (i < N) ? input[i] : 0.0f;
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        float v;
        if (threadIdx.x >= stride) v = XY[threadIdx.x - stride];
        __syncthreads();
        XY[threadIdx.x] += v;  // @bug uninitialized-read
    }
    __syncthreads();
    if (i < N) output[i] = XY[threadIdx.x];
}
