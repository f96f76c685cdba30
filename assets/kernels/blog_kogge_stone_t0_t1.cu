// Kogge-Stone with two buffers T0 and T1 chosen by a shared flag `reverse`: the kernel of the blog
// post "Scan" (2025-05-03, "Kogge-Stone Inclusive Scan"), as printed; BLOCK_SIZE is added here.
// Thread 0 flips `reverse` while other warps may still be reading it in the same barrier interval:
// scanviz check shows the hazard on `reverse` and the schedules under which the output goes wrong.
#define BLOCK_SIZE 1024

__global__ void kogge_stone_scan(float *input, float *output, int len) {
__shared__ float T0[BLOCK_SIZE];
__shared__ float T1[BLOCK_SIZE];
__shared__ bool reverse;
if (threadIdx.x == 0) reverse = false;
__syncthreads();

int i = blockIdx.x * blockDim.x + threadIdx.x;
if (i < len) {
T0[threadIdx.x] = input[i];
} else {
T0[threadIdx.x] = 0.0f;
}
__syncthreads();
for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
if (!reverse) {
if (threadIdx.x >= stride)
T1[threadIdx.x] = T0[threadIdx.x] + T0[threadIdx.x - stride];
else
T1[threadIdx.x] = T0[threadIdx.x];
} else {
if (threadIdx.x >= stride)
T0[threadIdx.x] = T1[threadIdx.x] + T1[threadIdx.x - stride];
else
T0[threadIdx.x] = T1[threadIdx.x];
}
if (threadIdx.x == 0) reverse = !reverse;
__syncthreads();
}
if (i < len) {
output[i] = reverse ? T1[threadIdx.x] : T0[threadIdx.x];
}
}
