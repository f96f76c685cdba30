// Planted bug: the stride never grows (stride * 2 instead of stride *= 2).
#define BLOCK_DIM 1024
__global__ void scan(float* input, float* output, unsigned int N) {
    __shared__ float XY[BLOCK_DIM];
    unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;
    XY[threadIdx.x] = (i < N) ? input[i] : 0.0f;
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride * 2) {  // @bug budget
        float v = (threadIdx.x >= stride) ? XY[threadIdx.x - stride] : 0.0f;
        __syncthreads();
        XY[threadIdx.x] += v;
        __syncthreads();
    }
    if (i < N) output[i] = XY[threadIdx.x];
}
