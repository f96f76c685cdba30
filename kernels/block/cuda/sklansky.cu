// Sklansky's divide-and-conquer scan: at span s every group of 2s elements adds its lower half's
// last element into each element of its upper half. BLOCK_DIM threads, one element each a step, two
// loaded each. Many threads read the same element, none writes it: one barrier a step.
// Inclusive: an exclusive scan loads each element from one to the left (0 at the start).
#define BLOCK_DIM 1024
#define SECTION_SIZE (2*BLOCK_DIM)

__global__ void sklansky_scan_kernel(float* input, float* output, unsigned int N) {
    __shared__ float data_s[SECTION_SIZE];
    unsigned int i = 2*blockIdx.x*blockDim.x + threadIdx.x;
    data_s[threadIdx.x] = (i < N) ? input[i] : 0.0f;  // @load
    data_s[threadIdx.x + blockDim.x] = (i + blockDim.x < N) ? input[i + blockDim.x] : 0.0f;  // @load
    for(unsigned int span = 1; span < SECTION_SIZE; span *= 2) {  // @span:step
        __syncthreads();  // @load:barrier @span:barrier
        unsigned int group = threadIdx.x/span;
        unsigned int lastOfLower = group*2*span + span - 1;
        unsigned int dst = lastOfLower + 1 + threadIdx.x%span;
        data_s[dst] += data_s[lastOfLower];  // @span:read,op,write
    }
    __syncthreads();  // @span:barrier
    if(i < N) output[i] = data_s[threadIdx.x];  // @store
    if(i + blockDim.x < N) output[i + blockDim.x] = data_s[threadIdx.x + blockDim.x];  // @store
}
