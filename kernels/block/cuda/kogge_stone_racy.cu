// Kogge-Stone scan, one barrier a step: the slide marked "Incorrect!" (PMPP ch. 11). Thread t reads
// buffer_s[t - stride] while thread t - stride may already be writing it: no barrier between the
// read and the write, so a thread can add a value that already holds this step's sum.
// Inclusive: an exclusive scan loads each element from one to the left (0 at the start).
#define BLOCK_DIM 1024

__global__ void kogge_stone_racy_scan_kernel(float* input, float* output, unsigned int N) {
    unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;
    __shared__ float buffer_s[BLOCK_DIM];
    buffer_s[threadIdx.x] = (i < N) ? input[i] : 0.0f;  // @load
    __syncthreads();  // @load:barrier
    for(unsigned int stride = 1; stride <= BLOCK_DIM/2; stride *= 2) {  // @stride:step
        if(threadIdx.x >= stride) {
            buffer_s[threadIdx.x] += buffer_s[threadIdx.x - stride];  // @stride:read,op,write
        }
        __syncthreads();  // @stride:barrier
    }
    if(i < N) {
        output[i] = buffer_s[threadIdx.x];  // @store
    }
}
