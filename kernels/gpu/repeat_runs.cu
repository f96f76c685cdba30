// Repeated untraced runs of a device-wide sum on one input, compared bit for bit with the first
// (gpu/executor.hpp repeat_device_sum_gpu): how a float scan's bits move from run to run on the
// GPU, and that deterministic=on keeps them still. One scanner for every run, as the benchmark and
// a program keep one, so the runs differ only in how the blocks happen to be scheduled.
#include <cuda_runtime.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/device_launcher.cuh"
#include "gpu/executor.hpp"

namespace sv {

RepeatedRuns repeat_device_sum_gpu(const BlockRunConfig& config, int runs) {
  if (runs < 1) throw std::invalid_argument("repeated runs: at least one run, not " + std::to_string(runs));
  if (config.op != OpKind::Sum)
    throw std::invalid_argument("on the GPU, repeated runs are of the sum (the kernels the benchmark times), not " +
                                std::string(op_name(config.op)));
  if (!config.flags.empty()) throw std::invalid_argument("on the GPU, repeated runs are of a plain scan, not a segmented one");
  if (config.block != 0 && config.block != kTileThreads)
    throw std::invalid_argument("on the GPU, repeated runs take the default tile of " + std::to_string(kTileThreads) +
                                " threads, not a block of " + std::to_string(config.block));
  const auto n = static_cast<std::int64_t>(config.input.size());
  if (n != config.n || n < 1 || n > kMaxDeviceN)
    throw std::invalid_argument("repeated runs need an input of n values, 1 to " + std::to_string(kMaxDeviceN));
  cuda::require_gpu();
  gpu::DeviceScanSum scan(config.algorithm, config.options, config.type);
  RepeatedRuns result;
  gpu::visit_type(config.type, [&](auto v) {
    using T = decltype(v);
    const std::vector<T> h_in = cuda::unpack<T>(config.input);
    cuda::DeviceArray<T> d_in(n), d_out(n);
    d_in.upload(h_in.data(), static_cast<std::size_t>(n));
    std::vector<T> first(static_cast<std::size_t>(n)), now(static_cast<std::size_t>(n));
    for (int r = 0; r < runs; ++r) {
      // Poisoned first: an output the run left unwritten shows as a difference.
      SV_CUDA(cudaMemset(d_out.get(), 0xA5, static_cast<std::size_t>(n) * sizeof(T)));
      scan.run(d_in.get(), d_out.get(), n, config.exclusive);
      scan.check();
      std::vector<T>& into = r == 0 ? first : now;
      d_out.download(into.data(), static_cast<std::size_t>(n));
      if (r == 0) continue;
      std::int64_t differing = 0, first_at = -1;
      for (std::int64_t i = 0; i < n; ++i)
        if (std::memcmp(&first[static_cast<std::size_t>(i)], &now[static_cast<std::size_t>(i)], sizeof(T)) != 0) {
          if (first_at < 0) first_at = i;
          ++differing;
        }
      result.differing.push_back(differing);
      result.first_difference.push_back(first_at);
    }
    result.first = cuda::pack(first);
  });
  return result;
}

}  // namespace sv
