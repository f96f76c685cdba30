// Brent-Kung scan (PMPP ch. 11): a reduction tree, then a post-reduction (distribution) tree. Each
// of the BLOCK_DIM threads loads two of the block's SECTION_SIZE elements.
// Inclusive: an exclusive scan loads each element from one to the left (0 at the start).
#define BLOCK_DIM 1024
#define SECTION_SIZE (2*BLOCK_DIM)

__global__ void brent_kung_scan_kernel(float* input, float* output, unsigned int N) {
    __shared__ float XY_s[SECTION_SIZE];
    unsigned int i = 2*blockIdx.x*blockDim.x + threadIdx.x;
    XY_s[threadIdx.x] = (i < N) ? input[i] : 0.0f;  // @load
    XY_s[threadIdx.x + blockDim.x] = (i + blockDim.x < N) ? input[i + blockDim.x] : 0.0f;  // @load
    for(unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {  // @reduction:step
        __syncthreads();  // @load:barrier @reduction:barrier
        unsigned int index = (threadIdx.x + 1)*2*stride - 1;
        if(index < SECTION_SIZE) {
            XY_s[index] += XY_s[index - stride];  // @reduction:read,op,write
        }
    }
    for(unsigned int stride = SECTION_SIZE/4; stride > 0; stride /= 2) {  // @post-reduction:step
        __syncthreads();  // @reduction:barrier @post-reduction:barrier
        unsigned int index = (threadIdx.x + 1)*stride*2 - 1;
        if(index + stride < SECTION_SIZE) {
            XY_s[index + stride] += XY_s[index];  // @post-reduction:read,op,write
        }
    }
    __syncthreads();  // @reduction:barrier @post-reduction:barrier
    if(i < N) output[i] = XY_s[threadIdx.x];  // @store
    if(i + blockDim.x < N) output[i + blockDim.x] = XY_s[threadIdx.x + blockDim.x];  // @store
}
