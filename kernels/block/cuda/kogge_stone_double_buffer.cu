// Kogge-Stone scan with double buffering (PMPP ch. 11): read one buffer, write the other, swap.
// The barrier for the false dependence is gone: one barrier a step. Threads not adding copy.
// Inclusive: an exclusive scan loads each element from one to the left (0 at the start).
#define BLOCK_DIM 1024

__global__ void kogge_stone_double_buffer_scan_kernel(float* input, float* output, unsigned int N) {
    unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;
    __shared__ float buffer1_s[BLOCK_DIM];
    __shared__ float buffer2_s[BLOCK_DIM];
    float* inBuffer_s = buffer1_s;
    float* outBuffer_s = buffer2_s;
    inBuffer_s[threadIdx.x] = (i < N) ? input[i] : 0.0f;  // @load
    __syncthreads();  // @load:barrier
    for(unsigned int stride = 1; stride <= BLOCK_DIM/2; stride *= 2) {  // @stride:step
        if(threadIdx.x >= stride) {
            outBuffer_s[threadIdx.x] =  // @stride:write
                inBuffer_s[threadIdx.x] + inBuffer_s[threadIdx.x - stride];  // @stride:read,op
        } else {
            outBuffer_s[threadIdx.x] = inBuffer_s[threadIdx.x];  // @stride:read,write
        }
        __syncthreads();  // @stride:barrier
        float* tmp = inBuffer_s;
        inBuffer_s = outBuffer_s;
        outBuffer_s = tmp;
    }
    if(i < N) {
        output[i] = inBuffer_s[threadIdx.x];  // @store
    }
}
