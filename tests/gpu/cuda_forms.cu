// The CUDA forms compiled as they are shown (so nvcc checks every one), with a launcher each.
#include "cuda_forms.hpp"

#include <cuda_runtime.h>

#include <stdexcept>

#include "algorithms.hpp"
#include "cuda_forms_list.cuh"  // generated from the algorithm table: every block/cuda/ALGO.cu

namespace sv_test {

namespace {

using Kernel = void (*)(float*, float*, unsigned int);

struct Form {
  const char* name;
  Kernel kernel;
};

#define SCANVIZ_CUDA_FORM(name, kernel) {name, kernel},
constexpr Form kForms[] = {SCANVIZ_CUDA_FORMS};
#undef SCANVIZ_CUDA_FORM

}  // namespace

CudaFormRun run_cuda_form(const std::string& algorithm, const std::vector<float>& input) {
  const Form* form = nullptr;
  for (const Form& f : kForms)
    if (algorithm == f.name) form = &f;
  const sv::AlgorithmInfo* info = sv::find_algorithm(algorithm);
  if (!form || !info) throw std::invalid_argument("no CUDA form for '" + algorithm + "'");
  CudaFormRun run;
  run.section = BLOCK_DIM * static_cast<unsigned int>(info->items_per_thread);  // the forms' SECTION_SIZE
  run.exclusive = info->cuda_form_exclusive;
  const auto n = static_cast<unsigned int>(input.size());
  const unsigned int blocks = (n + run.section - 1) / run.section;
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
