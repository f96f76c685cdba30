// Sklansky block scan with Kogge-Stone warp scans (Merrill and Garland, Fig. 2c): each warp scans
// its WARP_SIZE elements through shuffles, no barrier; then spans WARP_SIZE, 2*WARP_SIZE, ...: in
// every group of 2*span elements the upper half adds the lower half's last element.
// Inclusive: an exclusive scan loads each element from one to the left (0 at the start).
#define BLOCK_DIM 1024
#define WARP_SIZE 32
#define FULL_MASK 0xffffffffu

__global__ void warp_sklansky_scan_kernel(float* input, float* output, unsigned int N) {
    __shared__ float data_s[BLOCK_DIM];
    unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;
    unsigned int lane = threadIdx.x%WARP_SIZE;
    data_s[threadIdx.x] = (i < N) ? input[i] : 0.0f;  // @load
    for(unsigned int offset = 1; offset < WARP_SIZE; offset *= 2) {  // @warp-scan:step
        float mine = data_s[threadIdx.x];  // @warp-scan:read
        float below = __shfl_up_sync(FULL_MASK, mine, offset);  // lane - offset's value  @warp-scan:op
        if(lane >= offset) data_s[threadIdx.x] = below + mine;  // @warp-scan:op,write
    }
    for(unsigned int span = WARP_SIZE; span < BLOCK_DIM; span *= 2) {  // @span:step
        __syncthreads();  // @warp-scan:barrier @span:barrier
        unsigned int lastOfLower = threadIdx.x/(2*span)*2*span + span - 1;
        if(threadIdx.x > lastOfLower) data_s[threadIdx.x] += data_s[lastOfLower];  // @span:read,op,write
    }
    if(i < N) output[i] = data_s[threadIdx.x];  // @store
}
