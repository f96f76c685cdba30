// Planted bug: the barrier only the adding threads reach.
#define BLOCK_DIM 1024
__global__ void scan(float* input, float* output, unsigned int N) {
    __shared__ float XY[BLOCK_DIM];
    unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;
    XY[threadIdx.x] = (i < N) ? input[i] : 0.0f;
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        float v = 0.0f;
        if (threadIdx.x >= stride) {
            v = XY[threadIdx.x - stride];
            __syncthreads();  // @bug barrier-divergence
            XY[threadIdx.x] += v;
        }
        __syncthreads();
    }
    if (i < N) output[i] = XY[threadIdx.x];
}
