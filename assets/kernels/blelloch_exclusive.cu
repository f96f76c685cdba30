// Blelloch's exclusive scan, written from the slides "Parallel Scan" (Blelloch: a reduce that keeps
// its intermediate results, then the down sweep: "add L+R and put on right, copy down R and put it
// on left", the root cleared first). BLOCK_DIM threads, two elements each. An exclusive scan:
// scanviz check --exclusive assets/kernels/blelloch_exclusive.cu
#define BLOCK_DIM 1024
#define SECTION_SIZE (2*BLOCK_DIM)

__global__ void blelloch_scan_kernel(float* input, float* output, unsigned int N) {
    __shared__ float temp[SECTION_SIZE];
    unsigned int i = 2*blockIdx.x*blockDim.x + threadIdx.x;
    temp[threadIdx.x] = (i < N) ? input[i] : 0.0f;
    temp[threadIdx.x + blockDim.x] = (i + blockDim.x < N) ? input[i + blockDim.x] : 0.0f;
    // reduce, keeping the partial sums
    for (unsigned int stride = 1; stride < SECTION_SIZE; stride *= 2) {
        __syncthreads();
        unsigned int index = (threadIdx.x + 1)*2*stride - 1;
        if (index < SECTION_SIZE) temp[index] += temp[index - stride];
    }
    __syncthreads();
    if (threadIdx.x == 0) temp[SECTION_SIZE - 1] = 0.0f;  // the root gets the identity
    // down sweep: each node's right child gets L + R, its left child R
    for (unsigned int stride = SECTION_SIZE/2; stride >= 1; stride /= 2) {
        __syncthreads();
        unsigned int index = (threadIdx.x + 1)*2*stride - 1;
        if (index < SECTION_SIZE) {
            float left = temp[index - stride];
            temp[index - stride] = temp[index];
            temp[index] += left;
        }
    }
    __syncthreads();
    if (i < N) output[i] = temp[threadIdx.x];
    if (i + blockDim.x < N) output[i + blockDim.x] = temp[threadIdx.x + blockDim.x];
}
