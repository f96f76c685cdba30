// Planted bug: the ticket kernel (atomic_ticket.cu) with the counter read and then increased with +=:
// two threads can read the same count, so two take one ticket and a cell of XY is never loaded.
// The read and the += race with the other threads' += (RAW and WAW on next).
#define BLOCK_DIM 8
__global__ void ticket_scan_racy(float* input, float* output, unsigned int N) {
    __shared__ float XY[BLOCK_DIM];
    __shared__ unsigned int next;
    if (threadIdx.x == 0) next = 0;
    __syncthreads();
    unsigned int ticket = next;
    next += 1;  // @bug hazard
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
