// The CUDA forms the window shows (kernels/block/cuda/ALGO.cu) are kernels that scan: each one, as
// written, against the sequential scan of every block's section, on sizes that fill the last block
// and sizes that do not. The racy Kogge-Stone is compiled, not checked: its result is up to the race.
#include <doctest/doctest.h>

#include <random>

#include "algorithms.hpp"
#include "cuda_forms.hpp"

TEST_CASE("CUDA forms: every race-free one scans each block's section as the sequential scan does") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> digit(0, 9);  // small integers: float sums stay exact
  for (const sv::AlgorithmInfo& algo : sv::block_algorithms()) {
    if (algo.racy) continue;
    for (unsigned int n : {1u, 31u, 1000u, 2048u, 5000u}) {
      CAPTURE(algo.name);
      CAPTURE(n);
      std::vector<float> input(n);
      for (float& x : input) x = static_cast<float>(digit(rng));
      const sv_test::CudaFormRun run = sv_test::run_cuda_form(std::string(algo.name), input);
      REQUIRE(run.error.empty());
      int wrong = 0;
      float sum = 0;
      for (unsigned int i = 0; i < n; ++i) {
        if (i % run.section == 0) sum = 0;
        const float inclusive = sum + input[i];
        wrong += run.output[i] != (run.exclusive ? sum : inclusive);
        sum = inclusive;
      }
      CHECK(wrong == 0);
    }
  }
}
