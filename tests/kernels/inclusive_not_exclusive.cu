// Planted bug (checked with --exclusive): the load forgets the shift right, so the scan is inclusive.
#define BLOCK_DIM 1024
__global__ void scan(float* input, float* output, unsigned int N) {
    __shared__ float XY[BLOCK_DIM];
    unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;
    XY[threadIdx.x] = (i < N) ? input[i] : 0.0f;  // @bug wrong-value
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        float v = (threadIdx.x >= stride) ? XY[threadIdx.x - stride] : 0.0f;
        __syncthreads();
        XY[threadIdx.x] = v + XY[threadIdx.x];
    }
    __syncthreads();
    if (i < N) output[i] = XY[threadIdx.x];
}
