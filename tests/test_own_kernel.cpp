// Kernels of the user's own on the emulator: the built-in CUDA forms and the seeds' kernels under
// assets/kernels/ give the outputs, operations, steps and hazards of their templated twins.
#include <doctest/doctest.h>

#include <set>
#include <tuple>

#include "analysis/analysis.hpp"
#include "helpers.hpp"
#include "own_kernel_helpers.hpp"

using namespace sv;

namespace {

struct Twin {
  const char* file;
  const char* algorithm;
  int items;  // elements a thread loads
  bool exclusive;
};

// Every block algorithm's CUDA form but the warp-level ones (test_own_kernel_warp.cpp), and the seeds' kernels.
constexpr Twin kTwins[] = {
    {"kernels/block/cuda/kogge_stone.cu", "kogge-stone", 1, false},
    {"kernels/block/cuda/kogge_stone_double_buffer.cu", "kogge-stone-double-buffer", 1, false},
    {"kernels/block/cuda/kogge_stone_racy.cu", "kogge-stone-racy", 1, false},
    {"kernels/block/cuda/brent_kung.cu", "brent-kung", 2, false},
    {"kernels/block/cuda/sklansky.cu", "sklansky", 2, false},
    {"kernels/block/cuda/blelloch.cu", "blelloch", 2, true},
    {"assets/kernels/pmpp_kogge_stone_incorrect.cu", "kogge-stone-racy", 1, false},
    {"assets/kernels/pmpp_kogge_stone_double_buffer.cu", "kogge-stone-double-buffer", 1, false},
    {"assets/kernels/cs677_brent_kung.cu", "brent-kung", 2, false},
    {"assets/kernels/blog_kogge_stone_t0_t1.cu", "kogge-stone-double-buffer", 1, false},
    {"assets/kernels/blelloch_exclusive.cu", "blelloch", 2, true},
};

using HazardKey = std::tuple<std::string, std::int64_t, int>;  // buffer name, index, kind

std::set<HazardKey> hazard_keys(const Trace& t) {
  std::set<HazardKey> keys;
  for (const Hazard& h : find_hazards(t))
    keys.insert({t.buffers[static_cast<std::size_t>(h.buffer)].name, h.index, static_cast<int>(h.kind)});
  return keys;
}

}  // namespace

TEST_CASE("the CUDA forms and the seeds' kernels run on the emulator as their templated twins do") {
  for (const Twin& tw : kTwins)
    for (std::int64_t n : {2, 8, 64, 256})
      for (const char* schedule : {"in-order", "reverse", "random:5"})
        for (std::int32_t warp : {32, 1}) {
          CAPTURE(tw.file);
          CAPTURE(n);
          CAPTURE(schedule);
          CAPTURE(warp);
          const auto threads = static_cast<std::int32_t>(n / tw.items);
          const std::vector<Payload> input = random_input(OpKind::Sum, ValueType::F32, static_cast<std::size_t>(n), static_cast<std::uint64_t>(n));
          cuda::KernelRunConfig c = sv_test::kernel_config(tw.file, n, threads, schedule, warp);
          c.input = input;
          c.exclusive = tw.exclusive;
          const Trace own = cuda::record_kernel_trace(c);
          BlockRunConfig bc = sv_test::config(tw.algorithm, n, OpKind::Sum, ValueType::F32, schedule, tw.exclusive, 1, input);
          bc.block = threads;
          bc.warp = warp;
          const Trace twin = record_block_scan(bc);
          // The blog's kernel races on its flag only where warps interleave; its twin never does.
          const bool blog_race = std::string(tw.file).find("blog") != std::string::npos;
          if (!blog_race || (warp == 32 && n <= 32)) {
            CHECK(own.result.output == twin.result.output);
            CHECK(own.result.outcome == twin.result.outcome);
          }
          const Metrics mo = compute_metrics(own), mt = compute_metrics(twin);
          CHECK(mo.operations == mt.operations);
          CHECK(mo.steps == mt.steps);
          if (!blog_race) CHECK(hazard_keys(own) == hazard_keys(twin));
        }
}

TEST_CASE("a kernel's trace names its barrier intervals and keeps the source lines") {
  const Trace t = cuda::record_kernel_trace(sv_test::kernel_config("assets/kernels/pmpp_kogge_stone_double_buffer.cu", 8, 8));
  REQUIRE(t.steps.size() == 5);  // the load, three strides, the store
  CHECK(t.steps[0].label() == "interval 0");
  CHECK(t.steps[4].label() == "interval 4");
  CHECK(t.meta.algorithm == "kernel:kogge_stone_double_buffer_scan_kernel");
  CHECK(t.meta.block == 8);
  bool add_line = false;  // the operator applications are the slide's `inBuffer_s[...] + inBuffer_s[...]` line
  for (const Event& e : t.events)
    if (e.kind == EventKind::Op) add_line |= e.line == 27;
  CHECK(add_line);
  CHECK(t.buffers[2].name == "partialSums");
  CHECK(t.buffers[3].name == "buffer1_s");
}

TEST_CASE("the kernel's float values run as the slides' symbolic intervals") {
  cuda::KernelRunConfig c = sv_test::kernel_config("kernels/block/cuda/kogge_stone_double_buffer.cu", 8, 8);
  c.symbolic = true;
  const Trace t = cuda::record_kernel_trace(c);
  REQUIRE(t.result.output.size() == 8);
  CHECK(format_value(ValueType::Interval, t.result.output[7]) == "x0..x7");
  CHECK(t.result.outcome == Outcome::Correct);
  c = sv_test::kernel_config("kernels/block/cuda/kogge_stone_racy.cu", 8, 8, "in-order", 1);
  c.symbolic = true;
  const Trace racy = cuda::record_kernel_trace(c);
  CHECK(racy.result.outcome == Outcome::Wrong);  // an illegal combination shows where the race lands
}

TEST_CASE("the block size follows BLOCK_DIM, n, and --block") {
  cuda::KernelRunConfig c = sv_test::kernel_config("kernels/block/cuda/brent_kung.cu", 13, 0);
  CHECK(cuda::infer_block(c) == 8);  // two elements a thread: 8 threads hold 16 >= 13
  c = sv_test::kernel_config("kernels/block/cuda/kogge_stone.cu", 13, 0);
  CHECK(cuda::infer_block(c) == 16);
  c.block = 32;
  CHECK(cuda::infer_block(c) == 32);
}
