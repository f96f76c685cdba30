// Blelloch's work-efficient scan, exclusive by nature: an up-sweep that keeps the partial sums,
// the root cleared to 0, and a down-sweep in which each node passes its value to its left child and
// its value + the left child's old sum to its right child. BLOCK_DIM threads, two elements each.
#define BLOCK_DIM 1024
#define SECTION_SIZE (2*BLOCK_DIM)

__global__ void blelloch_scan_kernel(float* input, float* output, unsigned int N) {
    __shared__ float temp_s[SECTION_SIZE];
    unsigned int i = 2*blockIdx.x*blockDim.x + threadIdx.x;
    temp_s[threadIdx.x] = (i < N) ? input[i] : 0.0f;  // @load
    temp_s[threadIdx.x + blockDim.x] = (i + blockDim.x < N) ? input[i + blockDim.x] : 0.0f;  // @load
    for(unsigned int stride = 1; stride < SECTION_SIZE; stride *= 2) {  // @up-sweep:step
        __syncthreads();  // @load:barrier @up-sweep:barrier
        unsigned int index = (threadIdx.x + 1)*2*stride - 1;
        if(index < SECTION_SIZE) {
            temp_s[index] += temp_s[index - stride];  // @up-sweep:read,op,write
        }
    }
    __syncthreads();  // @up-sweep:barrier
    if(threadIdx.x == 0) {  // @clear-root:step
        temp_s[SECTION_SIZE - 1] = 0.0f;  // @clear-root:write
    }
    for(unsigned int stride = SECTION_SIZE/2; stride >= 1; stride /= 2) {  // @down-sweep:step
        __syncthreads();  // @clear-root:barrier @down-sweep:barrier
        unsigned int index = (threadIdx.x + 1)*2*stride - 1;
        if(index < SECTION_SIZE) {
            float left = temp_s[index - stride];  // @down-sweep:read
            temp_s[index - stride] = temp_s[index];  // @down-sweep:read,write
            temp_s[index] += left;  // @down-sweep:read,op,write
        }
    }
    __syncthreads();  // @down-sweep:barrier
    // The exclusive scan; an inclusive one stores element e from temp_s[e + 1].
    if(i < N) output[i] = temp_s[threadIdx.x];  // @store
    if(i + blockDim.x < N) output[i + blockDim.x] = temp_s[threadIdx.x + blockDim.x];  // @store
}
