// The CUDA forms compiled as they are shown (so nvcc checks every one), with a launcher each.
#include "cuda_forms.hpp"

#include <cuda_runtime.h>

#include <stdexcept>

#include "block/cuda/blelloch.cu"
#include "block/cuda/brent_kung.cu"
#include "block/cuda/kogge_stone.cu"
#include "block/cuda/kogge_stone_double_buffer.cu"
#include "block/cuda/kogge_stone_racy.cu"
#include "block/cuda/sklansky.cu"
#include "block/cuda/warp_brent_kung.cu"
#include "block/cuda/warp_raking.cu"
#include "block/cuda/warp_sklansky.cu"

namespace sv_test {

namespace {

using Kernel = void (*)(float*, float*, unsigned int);

struct Form {
  const char* name;
  Kernel kernel;
  unsigned int section;
  bool exclusive;
};

constexpr Form kForms[] = {
    {"kogge-stone", kogge_stone_scan_kernel, BLOCK_DIM, false},
    {"kogge-stone-racy", kogge_stone_racy_scan_kernel, BLOCK_DIM, false},
    {"kogge-stone-double-buffer", kogge_stone_double_buffer_scan_kernel, BLOCK_DIM, false},
    {"brent-kung", brent_kung_scan_kernel, SECTION_SIZE, false},
    {"blelloch", blelloch_scan_kernel, SECTION_SIZE, true},
    {"sklansky", sklansky_scan_kernel, SECTION_SIZE, false},
    {"warp-brent-kung", warp_brent_kung_scan_kernel, BLOCK_DIM, false},
    {"warp-raking", warp_raking_scan_kernel, BLOCK_DIM, false},
    {"warp-sklansky", warp_sklansky_scan_kernel, BLOCK_DIM, false},
};

}  // namespace

CudaFormRun run_cuda_form(const std::string& algorithm, const std::vector<float>& input) {
  const Form* form = nullptr;
  for (const Form& f : kForms)
    if (algorithm == f.name) form = &f;
  if (!form) throw std::invalid_argument("no CUDA form for '" + algorithm + "'");
  CudaFormRun run;
  run.section = form->section;
  run.exclusive = form->exclusive;
  const auto n = static_cast<unsigned int>(input.size());
  const unsigned int blocks = (n + form->section - 1) / form->section;
  float *in = nullptr, *out = nullptr;
  cudaError_t e = cudaMalloc(&in, n * sizeof(float));
  if (e == cudaSuccess) e = cudaMalloc(&out, n * sizeof(float));
  if (e == cudaSuccess) e = cudaMemcpy(in, input.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  if (e == cudaSuccess) {
    form->kernel<<<blocks, BLOCK_DIM>>>(in, out, n);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  run.output.resize(n);
  if (e == cudaSuccess) e = cudaMemcpy(run.output.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) run.error = cudaGetErrorString(e);
  cudaFree(in);
  cudaFree(out);
  return run;
}

}  // namespace sv_test
