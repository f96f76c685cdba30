// Kernels of the user's own on the emulator: the built-in CUDA forms and the seeds' kernels under
// assets/kernels/ give the outputs, operations, steps and hazards of their templated twins.
#include <doctest/doctest.h>

#include <set>
#include <tuple>

#include "algorithms.hpp"
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
  bool warp_level = false;  // written for warps of 32 (WARP_SIZE): runs from n = 64, lockstep 32
};

// Every block algorithm's CUDA form, and the seeds' kernels.
constexpr Twin kTwins[] = {
    {"kernels/block/cuda/warp_sklansky.cu", "warp-sklansky", 1, false, true},
    {"kernels/block/cuda/warp_brent_kung.cu", "warp-brent-kung", 1, false, true},
    {"kernels/block/cuda/warp_raking.cu", "warp-raking", 1, false, true},
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
          if (tw.warp_level && (n < 64 || warp != 32)) continue;
          // The blog's kernel races on its flag wherever warps interleave (its twin never does): it is
          // compared where one warp runs in lockstep, and test_check.cpp shows the race.
          const bool blog = std::string(tw.file).find("blog") != std::string::npos;
          if (blog && (warp != 32 || n > 32)) continue;
          CAPTURE(std::string(tw.file));
          CAPTURE(n);
          CAPTURE(std::string(schedule));
          CAPTURE(warp);
          const auto threads = static_cast<std::int32_t>(n / tw.items);
          const std::vector<Payload> input = random_input(OpKind::Sum, ValueType::F32, static_cast<std::size_t>(n), static_cast<std::uint64_t>(n));
          cuda::KernelRunConfig c = sv_test::kernel_config(tw.file, n, threads, schedule, warp);
          c.input = input;
          c.exclusive = tw.exclusive;
          const Trace own = cuda::record_kernel_trace(c);
          BlockRunConfig bc = sv_test::config(tw.algorithm, n, OpKind::Sum, ValueType::F32, schedule, tw.exclusive, 1, input);
          bc.block = threads;
          bc.warp = warp;  // for the warp-level twins the shuffles' width, 32 as the CUDA form's WARP_SIZE
          const Trace twin = record_block_scan(bc);
          CHECK(own.result.output == twin.result.output);
          CHECK(own.result.outcome == twin.result.outcome);
          const Metrics mo = compute_metrics(own), mt = compute_metrics(twin);
          CHECK(mo.operations == mt.operations);
          if (!blog) {  // its flag's own barrier interval and hazards are the blog kernel's alone
            // Steps: the twin's warp-level levels are steps of their own; the CUDA form has no barrier
            // there, and its depth in rounds counts them inside the step.
            CHECK(operation_depth(own) == operation_depth(twin));
            if (!find_algorithm(tw.algorithm)->racy) CHECK(operation_depth(own) == mt.steps);
            if (!tw.warp_level) CHECK(mo.steps == mt.steps);
            CHECK(hazard_keys(own) == hazard_keys(twin));
          }
        }
}

TEST_CASE("the depth in rounds is the steps of every built-in kernel, and the closed form's") {
  for (const AlgorithmInfo& a : block_algorithms())
    for (std::int64_t n : {16, 64, 1024})
      for (bool exclusive : {false, true}) {
        CAPTURE(a.name);
        CAPTURE(n);
        if (n > kMaxBlockThreads * a.items_per_thread) continue;
        const Trace t = sv_test::record(std::string(a.name), n, OpKind::Sum, ValueType::I32, "in-order", exclusive);
        const std::int64_t depth = operation_depth(t);
        if (!a.racy) CHECK(depth == compute_metrics(t).steps);
        const auto form = closed_form(a.name, n, exclusive, a.warp_level ? static_cast<std::int32_t>(std::min<std::int64_t>(32, n)) : 0);
        if (form && !a.racy) CHECK(depth == form->steps);
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

TEST_CASE("the warp shuffles: up, down, a lane's value, xor") {
  // Lane l holds l + 1. Up by 1: l (lane 0 keeps 1); down by 2: l + 3 (the last two keep theirs);
  // lane 5's value to all: 6; the butterfly sum over xor masks 1, 2, 4: 36 in every lane of 8.
  cuda::KernelRunConfig c;
  c.file = "shuffles.cu";
  c.n = 8;
  c.block = 8;
  c.input.assign(8, Payload::of(0.0f));
  const char* bodies[] = {
      "out[threadIdx.x] = __shfl_up_sync(0xffffffffu, (float)(threadIdx.x + 1), 1);",
      "out[threadIdx.x] = __shfl_down_sync(0xffffffffu, (float)(threadIdx.x + 1), 2);",
      "out[threadIdx.x] = __shfl_sync(0xffffffffu, (float)(threadIdx.x + 1), 5);",
      "float v = (float)(threadIdx.x + 1);\n"
      "for (int m = 1; m < 8; m *= 2) v += __shfl_xor_sync(0xffffffffu, v, m);\n"
      "out[threadIdx.x] = v;",
  };
  const float expected[4][8] = {{1, 1, 2, 3, 4, 5, 6, 7}, {3, 4, 5, 6, 7, 8, 7, 8}, {6, 6, 6, 6, 6, 6, 6, 6}, {36, 36, 36, 36, 36, 36, 36, 36}};
  for (int k = 0; k < 4; ++k) {
    CAPTURE(bodies[k]);
    c.source = std::string("__global__ void k(float* in, float* out) {\n") + bodies[k] + "\n}\n";
    for (const char* schedule : {"in-order", "reverse", "random:3"}) {
      c.schedule = *Schedule::parse(schedule);
      const Trace t = cuda::record_kernel_trace(c);
      for (int l = 0; l < 8; ++l) CHECK(t.result.output[static_cast<std::size_t>(l)].as<float>() == expected[k][l]);
    }
  }
}
