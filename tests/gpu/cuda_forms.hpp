// The CUDA forms of the block algorithms (kernels/block/cuda/ALGO.cu, the kernels the window shows
// as the slides write them), launched as written: each block scans its own section of the input.
#pragma once

#include <string>
#include <vector>

namespace sv_test {

struct CudaFormRun {
  std::vector<float> output;
  unsigned int section = 0;  // elements a block scans
  bool exclusive = false;    // the kernel's scan is exclusive (Blelloch)
  std::string error;         // a CUDA error, empty when the run went through
};

// Runs the CUDA form of `algorithm` on `input`; throws std::invalid_argument for an algorithm with
// no CUDA form.
CudaFormRun run_cuda_form(const std::string& algorithm, const std::vector<float>& input);

}  // namespace sv_test
