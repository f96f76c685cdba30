// `scanviz bench`: GPU throughput of device-wide scans against the baselines, CUB's
// DeviceScan::InclusiveSum and a device-to-device copy (the memory-bandwidth ceiling). Host-only
// header; the build without CUDA reports that there is no GPU support.
//
// Method: int32 inclusive sum; per size, inputs rotated over enough buffers to exceed twice the L2
// cache, warm-up runs, then CUDA-event timing of each run and the median; every algorithm's output
// checked against the sequential reference.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench_result.hpp"

namespace sv {

struct BenchOptions {
  std::vector<std::int64_t> sizes;  // empty: 2^10 .. 2^28, every power of four... (see default_bench_sizes)
  int runs = 20;                    // timed runs per algorithm and size (median reported)
  int warmup = 3;
};

std::vector<std::int64_t> default_bench_sizes();

// Throws GpuError (gpu/executor.hpp) without a usable device or on any CUDA failure, and
// std::invalid_argument for a size outside 1 .. 2^30. `progress` gets one line per measurement.
BenchResult run_bench(const BenchOptions& options, const std::function<void(const std::string&)>& progress);

}  // namespace sv
