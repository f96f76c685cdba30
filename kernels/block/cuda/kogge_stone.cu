// Kogge-Stone scan, two barriers a step (PMPP ch. 11, "wait for everyone to read before writing").
// Each block scans BLOCK_DIM elements in shared memory, one thread per element.
// Inclusive: an exclusive scan loads each element from one to the left (0 at the start).
#define BLOCK_DIM 1024

__global__ void kogge_stone_scan_kernel(float* input, float* output, unsigned int N) {
    unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;
    __shared__ float buffer_s[BLOCK_DIM];
    buffer_s[threadIdx.x] = (i < N) ? input[i] : 0.0f;  // @load
    __syncthreads();  // @load:barrier
    for(unsigned int stride = 1; stride <= BLOCK_DIM/2; stride *= 2) {  // @stride:step
        float v;
        if(threadIdx.x >= stride) {
            v = buffer_s[threadIdx.x - stride];  // @stride:read
        }
        __syncthreads();  // @stride:barrier
        if(threadIdx.x >= stride) {
            buffer_s[threadIdx.x] += v;  // @stride:read,op,write
        }
        __syncthreads();  // @stride:barrier
    }
    if(i < N) {
        output[i] = buffer_s[threadIdx.x];  // @store
    }
}
