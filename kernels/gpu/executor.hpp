// The GPU executor: runs the block-level kernels on a CUDA device, traced (into the same Trace the
// emulator records) or untraced. Host-only header: no CUDA types, so the app includes it either way;
// a build without nvcc links executor_none.cpp, which reports that there is no GPU support.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "emulator/record.hpp"
#include "trace/trace.hpp"

namespace sv {

struct GpuError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct GpuStatus {
  bool usable = false;
  std::string error;  // why not, one line, e.g. "cudaGetDeviceCount: no CUDA-capable device is detected"
  std::string name;
  int cc_major = 0, cc_minor = 0, sm_count = 0;
  int driver_version = 0, runtime_version = 0;  // CUDA's encoding: 1000 * major + 10 * minor
};

// Never throws. Looks at device 0.
GpuStatus probe_gpu();
bool gpu_support_built();

inline constexpr std::uint64_t kMaxTraceCapacity = std::uint64_t{1} << 27;  // 12.9 GB of events

struct GpuOptions {
  std::uint64_t trace_capacity = 1u << 20;  // events the device buffer holds
  std::uint64_t amplify_seed = 0;           // race amplifier (0 = off)
};

// Runs config's algorithm traced on device 0. Throws std::invalid_argument for a configuration that
// cannot run and GpuError for any CUDA failure, a trace buffer too small (naming the capacity and
// the size needed) or a kernel fault (out-of-bounds access).
Trace record_block_scan_gpu(const BlockRunConfig& config, const GpuOptions& options = {});

// Runs the untraced kernel `runs` times on the same input and counts the wrong outputs. With an
// amplify seed S != 0, run r uses seed S + r.
struct WrongCount {
  int runs = 0;
  int wrong = 0;
  double median_kernel_us = 0;
};
WrongCount count_wrong_outputs_gpu(const BlockRunConfig& config, int runs, std::uint64_t amplify_seed);

}  // namespace sv
