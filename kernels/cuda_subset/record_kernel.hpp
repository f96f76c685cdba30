// Records a kernel of the user's own (a .cu file in the CUDA subset) on the block emulator: the block
// size, the parameters' binding (input, output, length) and the run type are inferred as docs/cli.md
// says, and the trace opens in show, stats, render and the window like a built-in kernel's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ops.hpp"
#include "core/payload.hpp"
#include "core/schedule.hpp"
#include "cuda_subset/ast.hpp"
#include "cuda_subset/interpreter.hpp"
#include "trace/trace.hpp"

namespace sv::cuda {

struct KernelRunConfig {
  std::string file;    // the name messages use
  std::string source;  // the kernel's text
  std::int64_t n = 8;
  std::int32_t block = 0;  // threads; 0: inferred from the block-size #define and n
  bool symbolic = false;   // --op interval: the element values run as the slides' x0..x3 intervals
  bool exclusive = false;  // the reference the output is judged against
  std::vector<Payload> input;  // empty: seeded random input of length n
  std::uint64_t input_seed = 1;
  Schedule schedule;
  std::int32_t warp = 32;  // lanes in lockstep: a power of two from 1 to 32
  std::int32_t grid = 1;      // blocks of the launch (gridDim.x); the run is one of them
  std::int32_t block_id = 0;  // the block this run emulates (blockIdx.x)
  Budget budget;
};

// The macro that stands for the block's thread count: BLOCK_DIM or BLOCK_SIZE, else SECTION_SIZE;
// empty when the file defines none of them.
std::string block_macro(const std::string& source, const std::string& file);

// The run's value type: the element type of the kernel's pointer parameters (float, double, int), or
// Interval when symbolic. Throws KernelError where the kernel's type has none.
ValueType run_type_of(const Kernel& k, bool symbolic);

// Threads a block runs with, given n: config.block, else the smallest power of two whose
// block-size macro makes the kernel's largest __shared__ element array hold n. Throws KernelError
// (kind "unsupported") where it cannot be inferred.
std::int32_t infer_block(const KernelRunConfig& config);

// Elements one block of `threads` scans: the largest __shared__ array of the element type, or the
// threads when it has none.
std::int64_t elements_per_block(const Kernel& k, std::int32_t threads);

// Throws KernelError for a source outside the subset or a binding that cannot be inferred, and
// EmulationError (with kind and line) for a fault of the kernel while it runs.
Trace record_kernel_trace(const KernelRunConfig& config);

// Which output cells the last recorded run never wrote (a report card's "never written").
struct KernelRun {
  Trace trace;
  std::vector<std::uint8_t> output_written;
};
KernelRun run_kernel(const KernelRunConfig& config);

}  // namespace sv::cuda
