// Kogge-Stone, one shared buffer, one barrier a step: the code of PMPP chapter 11, slide 14,
// which the slide marks "Incorrect!" (different threads read and write the same cell without a
// barrier between). The slide prints the body; the signature and BLOCK_DIM are added here.
// Try: scanviz check assets/kernels/pmpp_kogge_stone_incorrect.cu
#define BLOCK_DIM 1024

__global__ void kogge_stone_scan_kernel(float* input, float* output, float* partialSums, unsigned int N) {
unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;

__shared__ float buffer_s[BLOCK_DIM];

buffer_s[threadIdx.x] = input[i];

__syncthreads();

for(unsigned int stride = 1; stride <= BLOCK_DIM/2; stride *= 2) {

if(threadIdx.x >= stride) {

buffer_s[threadIdx.x] += buffer_s[threadIdx.x - stride];

}

__syncthreads();

}

if(threadIdx.x == BLOCK_DIM - 1) {

partialSums[blockIdx.x] = buffer_s[threadIdx.x];

}

output[i] = buffer_s[threadIdx.x];
}
