// A kernel of your own launched on several blocks (trace --kernel --grid): the blocks run one after
// another on shared global memory, one trace holds them all, and the output is judged against the
// sequential reference of each block's section, or of the whole input when the kernel joins the blocks.
#include <doctest/doctest.h>

#include <set>

#include "analysis/analysis.hpp"
#include "core/values.hpp"
#include "own_kernel_helpers.hpp"
#include "trace/trace_json.hpp"

using namespace sv;

namespace {

// Each block's section of `capacity` elements scanned on its own, by the one sequential reference.
std::vector<Payload> sections_scanned(const std::vector<Payload>& input, std::int64_t capacity, bool exclusive) {
  std::vector<Payload> out;
  for (std::size_t lo = 0; lo < input.size(); lo += static_cast<std::size_t>(capacity)) {
    const std::size_t hi = std::min(input.size(), lo + static_cast<std::size_t>(capacity));
    const std::vector<Payload> part(input.begin() + static_cast<std::ptrdiff_t>(lo), input.begin() + static_cast<std::ptrdiff_t>(hi));
    for (const Payload& p : reference_scan(OpKind::Sum, ValueType::F32, part, exclusive)) out.push_back(p);
  }
  return out;
}

// Kogge-Stone in each block, then the carry of the blocks before it from the partial sums the earlier
// block wrote: the whole input's scan, right because the blocks run in blockIdx order.
constexpr const char* kChained =
    "#define BLOCK_DIM 8\n"
    "__global__ void chained(float* X, float* Y, float* carry, int n) {\n"
    "  __shared__ float XY[BLOCK_DIM];\n"
    "  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  XY[threadIdx.x] = i < n ? X[i] : 0.0f;\n"
    "  for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {\n"
    "    __syncthreads();\n"
    "    float t = 0.0f;\n"
    "    if (threadIdx.x >= stride) t = XY[threadIdx.x - stride];\n"
    "    __syncthreads();\n"
    "    if (threadIdx.x >= stride) XY[threadIdx.x] += t;\n"
    "  }\n"
    "  __syncthreads();\n"
    "  float before = 0.0f;\n"
    "  if (blockIdx.x > 0) before = carry[blockIdx.x - 1];\n"
    "  if (i < n) Y[i] = before + XY[threadIdx.x];\n"
    "  if (threadIdx.x == blockDim.x - 1) carry[blockIdx.x] = before + XY[threadIdx.x];\n"
    "}\n";

}  // namespace

TEST_CASE("a block-level kernel on several blocks scans each block's section, against the sequential reference") {
  struct Case {
    const char* file;
    std::int32_t threads;
    std::int64_t capacity;
    bool exclusive;
    bool whole_blocks_only;  // n a multiple of the block: slide 19 loads without a bound, and CS 677's
                             // Brent-Kung leaves the cells past n unwritten, then reads them
  };
  const Case cases[] = {
      {"kernels/block/cuda/kogge_stone.cu", 8, 8, false, false},
      {"assets/kernels/cs677_brent_kung.cu", 4, 8, false, true},
      {"assets/kernels/blelloch_exclusive.cu", 4, 8, true, false},
      {"assets/kernels/pmpp_kogge_stone_double_buffer.cu", 8, 8, false, true},
  };
  for (const Case& k : cases)
    for (std::int64_t n : {16, 21, 32, 64, 67})
      for (const char* schedule : {"in-order", "reverse", "random:4"}) {
        if (k.whole_blocks_only && n % k.capacity) continue;
        CAPTURE(std::string(k.file));
        CAPTURE(n);
        CAPTURE(std::string(schedule));
        cuda::KernelRunConfig c = sv_test::kernel_config(k.file, n, k.threads, schedule, 1);
        c.exclusive = k.exclusive;
        c.input = random_input(OpKind::Sum, ValueType::F32, static_cast<std::size_t>(n), static_cast<std::uint64_t>(n) + 5);
        const Trace t = cuda::record_kernel_launch(c).trace;
        const std::int64_t grid = (n + k.capacity - 1) / k.capacity;
        CHECK(t.meta.grid == grid);
        CHECK(t.meta.capacity == k.capacity);
        CHECK(t.meta.options.at("scan") == "blocks");
        CHECK(t.result.outcome == Outcome::Correct);
        CHECK(t.result.output == sections_scanned(c.input, k.capacity, k.exclusive));
        CHECK(t.result.reference == sections_scanned(c.input, k.capacity, k.exclusive));
        CHECK(check_result(t).wrong.empty());  // the analyses judge it the same way
        // Each block's steps in turn, its events carrying its block.
        std::set<std::uint32_t> blocks;
        for (const Step& s : t.steps)
          for (std::uint64_t e = s.first_event; e < s.end_event; ++e) blocks.insert(t.events[e].block);
        CHECK(static_cast<std::int64_t>(blocks.size()) == grid);
        CHECK(t.steps.size() % static_cast<std::size_t>(grid) == 0);
        for (std::size_t s = 1; s < t.steps.size(); ++s) CHECK(t.steps[s].first_event == t.steps[s - 1].end_event);
        CHECK(t.snapshots.size() == t.steps.size());
        if (std::string(k.file).find("pmpp") != std::string::npos) {  // partialSums[b]: each section's total
          const std::vector<Payload> scanned = sections_scanned(c.input, k.capacity, false);
          const BufferSnapshot& sums = t.snapshots.back()[2];
          for (std::int64_t b = 0; b < grid; ++b) {
            CHECK(sums.defined[static_cast<std::size_t>(b)]);
            CHECK(sums.values[static_cast<std::size_t>(b)] == scanned[static_cast<std::size_t>((b + 1) * k.capacity - 1)]);
          }
        }
        CHECK(find_hazards(t).empty());
        // The blocks run at once on a GPU: the launch is as deep as one block of it, not the blocks' sum.
        cuda::KernelRunConfig one = c;
        one.n = k.capacity;
        one.input.resize(static_cast<std::size_t>(k.capacity));
        const Trace single = cuda::record_kernel_launch(one).trace;
        REQUIRE(single.meta.grid == 1);
        CHECK(compute_metrics(t).steps == compute_metrics(single).steps);
        CHECK(operation_depth(t) == operation_depth(single));
        CHECK(compute_metrics(t).operations > compute_metrics(single).operations);
      }
}

TEST_CASE("a later block reads what an earlier one wrote: the chained kernel scans the whole input") {
  for (std::int64_t n : {8, 24, 29, 64, 100}) {
    CAPTURE(n);
    cuda::KernelRunConfig c;
    c.file = "chained.cu";
    c.source = kChained;
    c.n = n;
    c.block = 8;
    c.input = random_input(OpKind::Sum, ValueType::F32, static_cast<std::size_t>(n), static_cast<std::uint64_t>(n));
    const Trace t = cuda::record_kernel_launch(c).trace;
    CHECK(t.meta.options.count("scan") == 0);  // judged against the whole input's scan
    CHECK(t.result.output == reference_scan(OpKind::Sum, ValueType::F32, c.input, false));
    CHECK(t.result.outcome == Outcome::Correct);
    // The trace file says it all again: meta.grid blocks, and the same judgement when read back.
    const Trace back = trace_from_json(trace_to_json(t));
    CHECK(back.meta.grid == t.meta.grid);
    CHECK(check_result(back).wrong.empty());
  }
}

TEST_CASE("a race in every block of a launch is found in each block") {
  cuda::KernelRunConfig c = sv_test::kernel_config("kernels/block/cuda/kogge_stone_racy.cu", 24, 8, "in-order", 1);
  const Trace t = cuda::record_kernel_launch(c).trace;
  std::set<std::uint32_t> blocks;
  for (const Hazard& h : find_hazards(t)) blocks.insert(h.block);
  CHECK(blocks == std::set<std::uint32_t>{0, 1, 2});
}

TEST_CASE("the launch: --grid infers the block, a grid that leaves elements out or blocks empty is refused") {
  cuda::KernelRunConfig c = sv_test::kernel_config("kernels/block/cuda/kogge_stone.cu", 20, 0);
  c.grid = 3;
  cuda::Launch l = cuda::infer_launch(c);  // 7 elements a block: blocks of 8
  CHECK(l.threads == 8);
  CHECK(l.grid == 3);
  c.grid = 0;
  c.block = 4;
  l = cuda::infer_launch(c);
  CHECK(l.grid == 5);
  c.grid = 4;
  CHECK_THROWS_WITH_AS(cuda::infer_launch(c), "4 blocks of 4 elements hold 16, fewer than n = 20: give --grid 5 (or more threads a block)", std::invalid_argument);
  c.grid = 7;
  CHECK_THROWS_WITH_AS(cuda::infer_launch(c), "7 blocks of 4 elements for n = 20: block 5 on would get no element; give --grid 5", std::invalid_argument);
  c.grid = 0;
  c.block = 0;
  l = cuda::infer_launch(c);  // neither given: one block that holds n
  CHECK(l.grid == 1);
  CHECK(l.threads == 32);
}

TEST_CASE("the budgets are the launch's: many blocks that pass the snapshot budget together end in one line") {
  cuda::KernelRunConfig c = sv_test::kernel_config("kernels/block/cuda/kogge_stone.cu", 1 << 16, 8);
  try {
    (void)cuda::record_kernel_launch(c);  // 8192 blocks, each step keeping 131,080 cells
    FAIL("no fault");
  } catch (const EmulationError& e) {
    CHECK(e.kind == "budget");
    CHECK(std::string(e.what()).find("cells") != std::string::npos);
    CHECK(std::string(e.what()).rfind("kernels/block/cuda/kogge_stone.cu:", 0) == 0);
  }
}

TEST_CASE("a fault in a later block names the block") {
  cuda::KernelRunConfig c;
  c.file = "late.cu";
  c.source =
      "__global__ void late(float* in, float* out, int n) {\n"
      "  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (blockIdx.x == 2) out[i + 100] = in[i];\n"
      "  else if (i < n) out[i] = in[i];\n"
      "}\n";
  c.n = 24;
  c.block = 8;
  try {
    (void)cuda::record_kernel_launch(c);
    FAIL("no fault");
  } catch (const EmulationError& e) {
    CHECK(e.kind == "out-of-bounds");
    CHECK(e.line == 3);
    CHECK(std::string(e.what()).find("(block 2 of 3)") != std::string::npos);
  }
}
