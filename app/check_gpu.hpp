// `scanviz check FILE.cu --gpu`: the kernel compiled with nvcc into a generated harness
// (cuda_subset/gpu_harness.*), run on the device on the check's sizes and inputs, its outputs compared
// with the sequential reference, and timed against CUB and a device-to-device copy.
#pragma once

#include <cstdint>
#include <string>

#include "cuda_subset/check.hpp"

namespace sv {

struct GpuCheckOptions {
  std::int64_t timed_n = std::int64_t{1} << 24;  // elements of the timed launch (0: no timing)
  int timeout_s = 300;                           // nvcc and the harness each; the harness is killed past it
};

// Fills report.gpu. Where there is no nvcc or no device it says so in report.gpu->note and changes
// nothing else; outputs that differ from the reference make the verdict "wrong" (unless "error").
void check_on_gpu(const std::string& file, const std::string& source, cuda::CheckReport& report, const GpuCheckOptions& options = {});

// nvcc: $SCANVIZ_NVCC, else the first nvcc on PATH, else /usr/local/cuda/bin/nvcc; empty when none is there.
std::string find_nvcc();

}  // namespace sv
