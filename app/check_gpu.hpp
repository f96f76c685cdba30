// `scanviz check FILE.cu --gpu`: the kernel compiled with nvcc into a generated harness
// (cuda_subset/gpu_harness.*; for a launch the file's author says, the whole file as written:
// cuda_subset/gpu_launch_harness.*), run on the device on the check's sizes and inputs, its outputs
// compared with the sequential reference, and timed against CUB and a device-to-device copy.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cuda_subset/check.hpp"
#include "cuda_subset/gpu_harness.hpp"

namespace sv {

struct GpuCheckOptions {
  std::int64_t timed_n = std::int64_t{1} << 24;  // elements of the timed launch (0: no timing)
  int timeout_s = 300;                           // nvcc and the harness each; the harness is killed past it
};

// Fills report.gpu. Where there is no nvcc or no device it says so in report.gpu->note and changes
// nothing else; outputs that differ from the reference make the verdict "wrong" (unless "error").
void check_on_gpu(const std::string& file, const std::string& source, cuda::CheckReport& report, const GpuCheckOptions& options = {});

// Runs a built harness (`command` in `dir`) and reads what it wrote: none where it found no device
// (g.note says so), else g.ran and g.device set. `ran`: its exit code, or -1 (killed, or past the limit).
std::optional<cuda::HarnessResult> run_harness(const std::vector<std::string>& command, const std::filesystem::path& dir, ValueType type,
                                               int timeout_s, cuda::CheckGpu& g, int& ran);

// The end of both: what stopped the harness (g.note), its timing, and a wrong verdict where an output
// differed or a case did not finish.
void finish_gpu_check(const cuda::HarnessResult& r, int ran, std::size_t ran_cases, std::size_t all_cases, int timeout_s, std::int32_t timed_block,
                      cuda::CheckReport& report);

// check_on_gpu's work where the check's launch was said (report.launch_said): the whole file compiled
// as written, its own main renamed away, run as report.launch says (app/check_gpu_launch.cpp).
void check_launch_on_gpu(const std::string& file, const std::string& source, cuda::CheckReport& report, const GpuCheckOptions& options,
                         const std::string& nvcc);

// nvcc: $SCANVIZ_NVCC, else the first nvcc on PATH, else /usr/local/cuda/bin/nvcc; empty when none is there.
std::string find_nvcc();

}  // namespace sv
