// doctest's main for the GPU suites: without a CUDA device every test exits with 77, which CTest
// reports as skipped, after one line saying why; a device the build has no code for fails them.
// Listing the tests works everywhere. Test cases this device cannot run skip with their reason
// (../skips.hpp).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstring>
#include <iostream>

#include "../skips.hpp"
#include "gpu/executor.hpp"

int main(int argc, char** argv) {
  bool listing = false;
  for (int i = 1; i < argc; ++i)
    listing |= std::strncmp(argv[i], "--list", 6) == 0 || std::strncmp(argv[i], "-l", 2) == 0;
  if (!listing) {
    const sv::GpuStatus gpu = sv::probe_gpu();
    if (!gpu.usable && !gpu.name.empty()) {  // a device this build has no code for: a failure, not a skip
      std::cout << "GPU tests cannot run: " << gpu.error << "\n";
      return 1;
    }
    if (!gpu.usable) {
      std::cout << "GPU tests skipped: no usable CUDA device (" << gpu.error << ")\n";
      return 77;
    }
    std::cout << "GPU tests on " << gpu.name << " (sm_" << gpu.cc_major << gpu.cc_minor << ", " << gpu.sm_count
              << " SMs)\n";
  }
  return sv_test::run_tests(argc, argv);
}
