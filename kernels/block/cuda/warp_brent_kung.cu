// Brent-Kung block scan with Kogge-Stone warp scans (Merrill and Garland, Fig. 2a): each warp scans
// its WARP_SIZE elements through shuffles; one warp scans the warps' totals; then every element of
// warp w > 0 adds the total of warps 0..w-1. Two barriers (BLOCK_DIM/WARP_SIZE <= WARP_SIZE).
// Inclusive: an exclusive scan loads each element from one to the left (0 at the start).
#define BLOCK_DIM 1024
#define WARP_SIZE 32
#define WARPS (BLOCK_DIM/WARP_SIZE)
#define FULL_MASK 0xffffffffu

__global__ void warp_brent_kung_scan_kernel(float* input, float* output, unsigned int N) {
    __shared__ float data_s[BLOCK_DIM];
    __shared__ float sums_s[WARPS];  // each warp's total
    unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;
    unsigned int lane = threadIdx.x%WARP_SIZE;
    unsigned int warp = threadIdx.x/WARP_SIZE;
    data_s[threadIdx.x] = (i < N) ? input[i] : 0.0f;  // @load
    for(unsigned int offset = 1; offset < WARP_SIZE; offset *= 2) {  // @warp-scan:step
        float mine = data_s[threadIdx.x];  // @warp-scan:read
        float below = __shfl_up_sync(FULL_MASK, mine, offset);  // lane - offset's value  @warp-scan:op
        if(lane >= offset) data_s[threadIdx.x] = below + mine;  // @warp-scan:op,write
    }
    if(lane == WARP_SIZE - 1) sums_s[warp] = data_s[threadIdx.x];  // @warp-scan:read,write
    __syncthreads();  // @warp-scan:barrier
    if(warp == 0) {  // warp 0 scans the totals; lanes past WARPS only shuffle
        for(unsigned int offset = 1; offset < WARPS; offset *= 2) {  // @warp-sums:step
            float mine = (lane < WARPS) ? sums_s[lane] : 0.0f;  // @warp-sums:read
            float below = __shfl_up_sync(FULL_MASK, mine, offset);  // @warp-sums:op
            if(lane >= offset && lane < WARPS) sums_s[lane] = below + mine;  // @warp-sums:op,write
        }
    }
    __syncthreads();  // @warp-sums:barrier @fan:barrier
    if(warp > 0) data_s[threadIdx.x] += sums_s[warp - 1];  // @fan:step,read,op,write
    if(i < N) output[i] = data_s[threadIdx.x];  // @store
}
