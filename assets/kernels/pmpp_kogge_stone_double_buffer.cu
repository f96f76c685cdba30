// Kogge-Stone with double buffering: the code of PMPP chapter 11, slide 19 ("Double Buffering Code"):
// read one buffer, write the other, swap the pointers; one barrier a step and no race. The slide
// prints the body; the signature and BLOCK_DIM are added here.
#define BLOCK_DIM 1024

__global__ void kogge_stone_double_buffer_scan_kernel(float* input, float* output, float* partialSums, unsigned int N) {
unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;

__shared__ float buffer1_s[BLOCK_DIM];

__shared__ float buffer2_s[BLOCK_DIM];

float* inBuffer_s = buffer1_s;

float* outBuffer_s = buffer2_s;

inBuffer_s[threadIdx.x] = input[i];

__syncthreads();

for(unsigned int stride = 1; stride <= BLOCK_DIM/2; stride *= 2) {

if(threadIdx.x >= stride) {

outBuffer_s[threadIdx.x] =

inBuffer_s[threadIdx.x] + inBuffer_s[threadIdx.x - stride];

} else {

outBuffer_s[threadIdx.x] = inBuffer_s[threadIdx.x];

}

__syncthreads();

float* tmp = inBuffer_s;

inBuffer_s = outBuffer_s;

outBuffer_s = tmp;

}

if(threadIdx.x == BLOCK_DIM - 1) {

partialSums[blockIdx.x] = inBuffer_s[threadIdx.x];

}

output[i] = inBuffer_s[threadIdx.x];
}
