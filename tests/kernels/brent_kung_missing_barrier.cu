// Planted bug: Brent-Kung whose post-reduction tree has no barrier between its levels.
#define BLOCK_DIM 1024
#define SECTION_SIZE (2*BLOCK_DIM)
__global__ void scan(float* input, float* output, unsigned int N) {
    __shared__ float XY[SECTION_SIZE];
    unsigned int i = 2*blockIdx.x*blockDim.x + threadIdx.x;
    XY[threadIdx.x] = (i < N) ? input[i] : 0.0f;
    XY[threadIdx.x + blockDim.x] = (i + blockDim.x < N) ? input[i + blockDim.x] : 0.0f;
    for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
        __syncthreads();
        unsigned int index = (threadIdx.x + 1)*2*stride - 1;
        if (index < SECTION_SIZE) XY[index] += XY[index - stride];
    }
    for (unsigned int stride = SECTION_SIZE/4; stride > 0; stride /= 2) {
        unsigned int index = (threadIdx.x + 1)*stride*2 - 1;
        if (index + stride < SECTION_SIZE) XY[index + stride] += XY[index];  // @bug hazard
    }
    __syncthreads();
    if (i < N) output[i] = XY[threadIdx.x];
    if (i + blockDim.x < N) output[i + blockDim.x] = XY[threadIdx.x + blockDim.x];
}
