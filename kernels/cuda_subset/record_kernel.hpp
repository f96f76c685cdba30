// Records a kernel of the user's own (a .cu file in the CUDA subset) on the block emulator: the block
// size, the parameters' binding (input, output, length) and the run type are inferred as docs/cli.md
// says, and the trace opens in show, stats, render and the window like a built-in kernel's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ops.hpp"
#include "core/payload.hpp"
#include "core/schedule.hpp"
#include "cuda_subset/ast.hpp"
#include "cuda_subset/interpreter.hpp"
#include "run/launch.hpp"
#include "cuda_subset/lexer.hpp"
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
  std::int32_t grid = 0;      // blocks of the launch (gridDim.x); run_kernel runs one of them (0: of
                              // one), record_kernel_launch all (0: as many as n needs)
  std::int32_t block_id = 0;  // the block run_kernel emulates (blockIdx.x)
  Budget budget;
  // The launch as the file's author says it (kernel, grid, block, shared bytes and arguments, in n);
  // without one the kernel is the file's only kernel and the rest is inferred (docs/cli.md).
  std::optional<LaunchSpec> launch;
  IncludeReader include;  // reads an #include "local.h" (natively: beside the file)
};

// The kernel the run's file and launch name, parsed with the block-size override (none when empty).
Kernel parse_run_kernel(const KernelRunConfig& config, const std::map<std::string, std::string>& overrides = {});

// The macro that stands for the block's thread count: BLOCK_DIM or BLOCK_SIZE, else SECTION_SIZE;
// empty when the file defines none of them.
std::string block_macro(const std::string& source, const std::string& file, const IncludeReader& include = {});

// The run's value type: the element type of the kernel's pointer parameters (float, double, int), or
// Interval when symbolic. Throws KernelError where the kernel's type has none.
ValueType run_type_of(const Kernel& k, bool symbolic);

// The run's value type of config's kernel: the element type of its output (the launch's out or io
// parameter, else its pointer parameters'), or Interval when symbolic.
ValueType kernel_run_type(const KernelRunConfig& config);

// Threads a block runs with, given n: config.block, else the smallest power of two whose
// block-size macro makes the kernel's largest __shared__ element array hold n. Throws KernelError
// (kind "unsupported") where it cannot be inferred.
std::int32_t infer_block(const KernelRunConfig& config);

// Elements one block of `threads` scans: the largest __shared__ array of the element type, or the
// threads when it has none.
std::int64_t elements_per_block(const Kernel& k, std::int32_t threads);

// The kernel's parameters bound as docs/cli.md says: per parameter the buffer of a pointer (0 the
// input: the first pointer never stored through, else the first; 1 the output; 2 the partial sums, one
// cell a block) or -1, and the value of a scalar (n). Throws KernelError naming a parameter it cannot bind.
struct ParamBinding {
  std::vector<std::int32_t> buffer;
  std::vector<std::int64_t> value;
  std::vector<double> number;  // per parameter: the value of a floating scalar
  // The global buffers after the input (0) and the output (1), in order from 2: the partial sums
  // (one cell a block), a launch's zeros(K) and buf(K).
  struct Extra {
    std::string name;
    std::int64_t cells = 0;
    bool zeroed = false;
    double fill = 0;  // a zeroed buffer's value (a __device__ variable's initializer)
  };
  std::vector<Extra> extras;
  bool in_place = false;  // io: the output buffer starts as the input
};
ParamBinding bind_params(const Kernel& k, std::int64_t n);

// Throws KernelError for a source outside the subset or a binding that cannot be inferred, and
// EmulationError (with kind and line) for a fault of the kernel while it runs.
Trace record_kernel_trace(const KernelRunConfig& config);

// Which output cells the last recorded run never wrote (a report card's "never written").
struct KernelRun {
  Trace trace;
  std::vector<std::uint8_t> output_written;
  std::vector<UninitializedRead> uninitialized;  // reads of cells never written that reached nothing (warnings)
  std::vector<std::string> printed;  // printf's lines, in the order the emulator ran them (kMaxPrinted at most)
};
KernelRun run_kernel(const KernelRunConfig& config);

// The launch's threads a block and blocks: config.block and config.grid where given; else the grid
// is as many blocks as n needs, and a block the smallest that makes that grid (one block when neither
// is given) hold n. Throws std::invalid_argument where the grid leaves elements out or a block has none.
struct Launch {
  std::int32_t threads = 1;
  std::int32_t grid = 1;
  std::int64_t capacity = 1;  // elements a block scans
  std::int64_t shared_bytes = 0;  // dynamic shared memory a block (extern __shared__)
};

// The launch of config.launch at config.n: its expressions evaluated and checked (a block of 1 to 1024
// threads, a grid of 1 to 65535 blocks). Without a launch, infer_launch. Throws LaunchError.
Launch launch_at(const KernelRunConfig& config);
Launch infer_launch(const KernelRunConfig& config);

// Every block of the launch (infer_launch), one after another in blockIdx order and each to completion,
// on the global memory the earlier ones left (so a block may read what an earlier one wrote; one that
// waits on a later block never ends). One trace: each block's steps and events in turn, the events
// carrying their block, the snapshots every buffer at the end of each step (shared memory: the
// running block's). The output is judged against the scan of the whole input when it is that, else
// against each block's section scanned on its own (meta.options["scan"] = "blocks": the first pass of
// a hierarchical scan). The budgets are the launch's, all blocks together. Throws as run_kernel.
KernelRun record_kernel_launch(const KernelRunConfig& config);

}  // namespace sv::cuda
