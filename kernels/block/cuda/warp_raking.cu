// Raking block scan (Merrill and Garland, Fig. 2b): after the load one warp does all the work. Lane
// l rakes the ITEMS consecutive elements from l*ITEMS serially: it reduces them to a total, a
// Kogge-Stone warp scan of the totals follows, then it scans its elements seeded with lane l-1's.
// Inclusive: an exclusive scan loads each element from one to the left (0 at the start).
#define BLOCK_DIM 1024
#define WARP_SIZE 32
#define ITEMS (BLOCK_DIM/WARP_SIZE)
#define FULL_MASK 0xffffffffu

__global__ void warp_raking_scan_kernel(float* input, float* output, unsigned int N) {
    __shared__ float data_s[BLOCK_DIM];
    __shared__ float rake_s[WARP_SIZE];  // the raking lanes' running totals
    unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;
    unsigned int first = threadIdx.x*ITEMS;
    data_s[threadIdx.x] = (i < N) ? input[i] : 0.0f;  // @load
    __syncthreads();  // @load:barrier
    if(threadIdx.x < WARP_SIZE) {  // warp 0 rakes
        rake_s[threadIdx.x] = data_s[first];  // @rake-reduce=0:step,read,write
        for(unsigned int j = 1; j < ITEMS; ++j) {  // @rake-reduce>0:step
            float running = rake_s[threadIdx.x] + data_s[first + j];  // @rake-reduce>0:read,op
            rake_s[threadIdx.x] = running;  // @rake-reduce>0:write
            if(threadIdx.x == 0) data_s[j] = running;  // lane 0's total is its prefix  @rake-reduce>0:write
        }
        for(unsigned int offset = 1; offset < WARP_SIZE; offset *= 2) {  // @warp-scan:step
            float mine = rake_s[threadIdx.x];  // @warp-scan:read
            float below = __shfl_up_sync(FULL_MASK, mine, offset);  // lane - offset's total  @warp-scan:op
            if(threadIdx.x >= offset) rake_s[threadIdx.x] = below + mine;  // @warp-scan:op,write
        }
        float before = __shfl_up_sync(FULL_MASK, rake_s[threadIdx.x], 1);  // lane l-1's total  @rake-scan=0:step,read
        if(threadIdx.x > 0) {
            data_s[first] += before;  // @rake-scan=0:read,op,write
            for(unsigned int j = 1; j < ITEMS; ++j) {  // @rake-scan>0:step
                data_s[first + j] += data_s[first + j - 1];  // @rake-scan>0:read,op,write
            }
        }
    }
    __syncthreads();  // @rake-scan:barrier
    if(i < N) output[i] = data_s[threadIdx.x];  // @store
}
