// Planted bug: Kogge-Stone in one buffer with no barrier between a step's reads and its writes.
#define BLOCK_DIM 1024
__global__ void scan(float* input, float* output, unsigned int N) {
    __shared__ float XY[BLOCK_DIM];
    unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;
    XY[threadIdx.x] = (i < N) ? input[i] : 0.0f;
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        if (threadIdx.x >= stride) XY[threadIdx.x] += XY[threadIdx.x - stride];  // @bug hazard
    }
    __syncthreads();
    if (i < N) output[i] = XY[threadIdx.x];
}
