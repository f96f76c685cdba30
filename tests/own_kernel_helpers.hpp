// Test helpers for kernels of the user's own: reading a .cu of the tree and recording it.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include "cuda_subset/record_kernel.hpp"

namespace sv_test {

inline std::string read_source(const std::string& relative) {
  std::ifstream in(std::string(SCANVIZ_SOURCE_DIR) + "/" + relative);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline sv::cuda::KernelRunConfig kernel_config(const std::string& relative, std::int64_t n, std::int32_t block,
                                               const std::string& schedule = "in-order", std::int32_t warp = 32) {
  sv::cuda::KernelRunConfig c;
  c.file = relative;
  c.source = read_source(relative);
  c.n = n;
  c.block = block;
  c.schedule = *sv::Schedule::parse(schedule);
  c.warp = warp;
  return c;
}

}  // namespace sv_test
