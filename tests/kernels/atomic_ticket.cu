// Each thread takes a ticket from a shared counter with atomicAdd (which returns the counter's old
// value) and loads the element of its ticket: under every schedule the tickets are 0..BLOCK_DIM-1,
// each once, so the scan that follows is right. Two atomicAdds to one counter are no race.
#define BLOCK_DIM 8
__global__ void ticket_scan(float* input, float* output, unsigned int N) {
    __shared__ float XY[BLOCK_DIM];
    __shared__ unsigned int next;
    if (threadIdx.x == 0) next = 0;
    __syncthreads();
    unsigned int ticket = atomicAdd(&next, 1u);
    unsigned int i = blockIdx.x*blockDim.x + ticket;
    XY[ticket] = (i < N) ? input[i] : 0.0f;
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        float t = 0.0f;
        if (threadIdx.x >= stride) t = XY[threadIdx.x - stride];
        __syncthreads();
        if (threadIdx.x >= stride) XY[threadIdx.x] += t;
    }
    __syncthreads();
    i = blockIdx.x*blockDim.x + threadIdx.x;
    if (i < N) output[i] = XY[threadIdx.x];
}
