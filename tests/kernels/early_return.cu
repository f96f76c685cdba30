// Planted bug: threads past n leave before the barriers the others wait at.
#define BLOCK_DIM 1024
__global__ void scan(float* input, float* output, unsigned int N) {
    __shared__ float XY[BLOCK_DIM];
    unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;
    if (i >= N) return;
    XY[threadIdx.x] = input[i];
    __syncthreads();  // @bug barrier-divergence
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        float v = (threadIdx.x >= stride) ? XY[threadIdx.x - stride] : 0.0f;
        __syncthreads();
        XY[threadIdx.x] += v;
        __syncthreads();
    }
    output[i] = XY[threadIdx.x];
}
